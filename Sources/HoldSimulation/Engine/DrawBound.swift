import Dispatch
import GSL
import HoldModel
import HoldProfiles

/// The random-number bound of a simulation: the same draws `Simulator.run` makes, from the same GSL generators and
/// streams, with nothing else done. A simulator cannot be faster than this; `holdlab benchmark` reports each
/// case's throughput as a fraction of it.
public enum DrawBound {
    public struct Measurement: Sendable {
        /// Sampler calls per user (a uniform, a distribution's draw, a Timer latency), summed over profiles.
        public var drawsPerUser: Double
        /// Seconds the draws alone took.
        public var seconds: Double
    }

    /// Draws every user's person and every profile's Timer latencies, single-threaded, and times it.
    public static func measure(_ request: SimulationRequest) throws -> Measurement {
        let population = PreparedPopulation(request.population)
        var latencyDraws: [(Distribution, Int)] = []
        for profile in request.profiles {
            let prepared = try profile.prepared()
            guard let ticks = prepared.idealTimerTicks, profile.timerLatency.variance != 0 else { continue }
            latencyDraws.append((profile.timerLatency, ticks))
        }
        let chunks = (request.users + Simulator.chunkSize - 1) / Simulator.chunkSize
        var calls = 0
        var checksum = 0.0
        let start = DispatchTime.now().uptimeNanoseconds
        for chunk in 0..<chunks {
            let users = min(Simulator.chunkSize, request.users - chunk * Simulator.chunkSize)
            let people = Generator(seed: request.seed, stream: UInt64(chunk) * 2, kind: request.rng)
            let ticks = Generator(seed: request.seed, stream: UInt64(chunk) * 2 + 1, kind: request.rng)
            for _ in 0..<users {
                let user = population.draw(people)
                checksum += user.primary + user.framePhase
                calls += population.drawCalls(classIndex: user.classIndex)
                for (distribution, count) in latencyDraws {
                    for _ in 0..<count { checksum += distribution.sample(ticks) }
                    calls += count
                }
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        // Keeps the draws from being optimised away without printing anything.
        if checksum.isNaN { calls += 0 }
        return Measurement(drawsPerUser: Double(calls) / Double(max(1, request.users)), seconds: seconds)
    }
}

extension PreparedPopulation {
    /// Sampler calls `draw` makes for a person of this class: the class and phase uniforms, the primary draw
    /// (a distribution or a normal), patience for react users, the movement uniform.
    func drawCalls(classIndex: Int) -> Int {
        var calls = 3
        if case .react = traits[classIndex].behavior { calls += 1 }
        if traits[classIndex].moves { calls += 1 }
        return calls
    }
}
