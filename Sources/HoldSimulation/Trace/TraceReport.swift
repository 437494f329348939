import HoldLabIO
import HoldModel
import HoldProfiles

public enum TraceReport {
    /// The CSV columns, in order.
    public static let columns = ["t_ms", "model_progress", "displayed_progress", "pulses", "event"]

    /// Traces the hold and renders it: `#` provenance lines, the header, one row per frame and per event.
    public static func csv(_ request: TraceRequest, commandLine: String) throws(ControlError) -> String {
        let trace = try request.run()
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
}
