import GSL
import HoldModel
import HoldProfiles

/// `holdlab trace`: one hold of a profile, frame by frame, as CSV.
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
        self.releaseAtSeconds = releaseAtSeconds
        self.framePhase = framePhase
        self.seed = seed
    }
}

public enum TraceReport {
    /// The CSV columns, in order.
    public static let columns = ["t_ms", "model_progress", "displayed_progress", "pulses", "event"]

    /// Traces the hold and renders it: `#` provenance lines, the header, one row per frame and per event.
    public static func csv(_ request: TraceRequest, commandLine: String) throws(ControlError) -> String {
        let trace = try run(request)
        var text = CSV.provenance([
            ("holdlab", "\(HoldLabVersion.current) trace"),
            ("profile", "\(request.profile.name) fnv1a64:\(request.profile.contentHash)"),
            ("command", commandLine),
            ("seed", "\(request.seed)"),
            ("frame_phase", "\(request.framePhase)"),
            ("release_at_ms", CSV.number(trace.outcome.pressEndTime * 1000, decimals: 3)),
            ("completed", "\(trace.outcome.completed)"),
        ])
        text += columns.joined(separator: ",") + "\n"
        for row in trace.rows {
            text += CSV.number(row.timeSeconds * 1000, decimals: 3) + ","
            text += CSV.number(row.modelProgress, decimals: 6) + ","
            text += CSV.number(row.displayedProgress, decimals: 6) + ","
            text += "\(row.pulses),\(row.event.rawValue)\n"
        }
        return text
    }

    /// Traces the hold.
    public static func run(_ request: TraceRequest) throws(ControlError) -> HoldTrace {
        let evaluator = HoldEvaluator(try request.profile.prepared())
        var latencies = DrawnLatencies(request.profile.timerLatency, generator: Generator(seed: request.seed))
        return HoldTrace(
            evaluator: evaluator, framePhase: request.framePhase, pressEndTime: request.releaseAtSeconds,
            latencies: &latencies)
    }
}
