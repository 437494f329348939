import Dispatch
import HoldModel
import HoldProfiles

/// One thread's share of a chunked run: it runs whole chunks (4,096 people each, their draws fixed by the chunk's
/// index) and keeps the per-user rows of each until they are taken, in chunk order.
protocol ChunkWorker: AnyObject, Sendable {
    func run(chunk: Int, users: Int)
    func takeRows(chunk: Int) -> String
}

/// The parallel loop `simulate` and `compare` share: chunks in batches of four per thread, thread `i` taking every
/// `threads`-th chunk of a batch, rows handed on in chunk order after each batch. Which thread runs a chunk never
/// changes what it computes, so results do not depend on the thread count.
enum ChunkRunner {
    /// Runs the chunks of `range` on `workers` (one per thread), `users` people in all.
    ///
    /// - Parameters:
    ///   - perUser: receives each chunk's rows in chunk order; nil when nobody wants them.
    ///   - progress: users done so far in `range`, after each batch.
    static func run(
        _ range: Range<Int>, users: Int, workers: [some ChunkWorker],
        perUser: ((String) throws -> Void)?, progress: ((Int) -> Void)?
    ) throws {
        let threads = workers.count
        let batch = threads * 4
        var first = range.lowerBound
        while first < range.upperBound {
            let last = min(range.upperBound, first + batch)
            let start = first
            DispatchQueue.concurrentPerform(iterations: threads) { index in
                let worker = workers[index]
                var chunk = start + index
                while chunk < last {
                    worker.run(chunk: chunk, users: min(Simulator.chunkSize, users - chunk * Simulator.chunkSize))
                    chunk += threads
                }
            }
            if let perUser {
                for chunk in first..<last { try perUser(workers[(chunk - first) % threads].takeRows(chunk: chunk)) }
            }
            progress?(min(users, last * Simulator.chunkSize) - range.lowerBound * Simulator.chunkSize)
            first = last
        }
    }

    /// A profile's control and each class's movement sampler for the population, or the reason they cannot be made.
    static func prepare(_ profile: Profile, population: Population) throws -> (PreparedControl, [Movement?]) {
        let control: PreparedControl
        do {
            control = try profile.prepared()
        } catch {
            throw SimulationError(message: "profile \(profile.name): \(error)")
        }
        var movements: [Movement?] = []
        for userClass in population.classes {
            guard let movement = userClass.movement else {
                movements.append(nil)
                continue
            }
            do {
                movements.append(try Movement(
                    driftPointsPerSqrtSecond: movement.driftPointsPerSqrtSecond, touchRateHz: movement.touchRateHz,
                    maximumDistancePoints: control.control.gesture.maximumDistancePoints))
            } catch {
                throw SimulationError(message: "population \(population.name), class \(userClass.name): \(error)")
            }
        }
        return (control, movements)
    }
}
