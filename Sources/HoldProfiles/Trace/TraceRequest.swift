import GSL
import HoldModel

/// One hold of a profile, frame by frame: what `trace`, `preview`, `haptics` and a review's fill-curves figure show.
public struct TraceRequest: Sendable {
    public var profile: Profile
    /// When the finger lifts, seconds after touch-down; nil holds until the action fired and the fill completed.
    public var releaseAtSeconds: Double?
    /// Fraction of a frame interval from touch-down to the first frame, in [0, 1).
    public var framePhase: Double
    /// Seed of the generator that draws Timer latencies.
    public var seed: UInt64

    public init(profile: Profile, releaseAtSeconds: Double? = nil, framePhase: Double = 0, seed: UInt64 = 1) {
        self.profile = profile
        // -0 is 0: one instant, one text in the outputs (`--phase -0` wrote "-0.0").
        self.releaseAtSeconds = releaseAtSeconds.map { $0 + 0 }
        self.framePhase = framePhase + 0
        self.seed = seed
    }

    /// Traces the hold: the profile's control, its Timer latencies drawn with `seed`.
    public func run() throws(ControlError) -> HoldTrace {
        let evaluator = HoldEvaluator(try profile.prepared())
        var latencies = DrawnLatencies(profile.timerLatency, generator: Generator(seed: seed, kind: .mt19937))
        return HoldTrace(evaluator: evaluator, framePhase: framePhase, pressEndTime: releaseAtSeconds, latencies: &latencies)
    }
}
