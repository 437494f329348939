import HoldLabIO
import HoldModel

/// `holdlab trace`: the hold traced and typed, one row per frame and per event.
extension TraceRequest {
    /// The columns, in order: time after touch-down (ms, three decimals), the model's and the displayed progress
    /// (six decimals), haptic pulses so far, and the row's event (`frame` or an event at its exact time).
    public static let columns = [
        ResultColumn("t_ms", .number), ResultColumn("model_progress", .number),
        ResultColumn("displayed_progress", .number), ResultColumn("pulses", .integer), ResultColumn("event", .text),
    ]

    /// Traces the hold and returns what `holdlab trace` writes: the provenance (version, profile and its hash, the
    /// command line, seed, frame phase, release time, whether the action fired) and one row per frame and event.
    ///
    /// - Parameter commandLine: the command line the output records (`CommandRecord.line`).
    public func result(commandLine: String) throws(ControlError) -> ResultDocument {
        result(of: try run(), commandLine: commandLine)
    }

    /// What a trace that stopped drawing frames before the fill came to rest says (`HoldTrace.framesEndAt`); nil for
    /// a whole trace.
    public static func truncationNote(_ trace: HoldTrace) -> String? {
        guard let end = trace.framesEndAt else { return nil }
        let ms = CSV.number(Double(end) / 1e6, decimals: 3)
        return "drawn up to frame \(HoldTrace.maximumFrames) at \(ms) ms, before the fill comes to rest; displayed_progress is NaN after it, a displayed_full after it is not shown, and the events after it are the model's (displayed_empty: the first frame the model draws empty); trace a shorter hold (--release-at) or a lower display.refreshRate"
    }

    /// The same of a hold already traced (`run()`).
    public func result(of trace: HoldTrace, commandLine: String) -> ResultDocument {
        var provenance = Provenance([
            ("holdlab", "\(HoldLabVersion.current) trace"),
            ("profile", "\(profile.name) fnv1a64:\(profile.contentHash)"),
            ("command", commandLine),
            ("seed", "\(seed)"),
            ("frame_phase", "\(framePhase)"),
            ("release_at_ms", CSV.number(trace.outcome.pressEndTime * 1000, decimals: 3)),
            ("completed", "\(trace.outcome.completed)"),
        ])
        if let note = Self.truncationNote(trace) { provenance.append("frames", note) }
        let rows = trace.rows.map { row -> [ResultCell] in
            [.number(row.timeSeconds * 1000, decimals: 3), .number(row.modelProgress, decimals: 6),
             .number(row.displayedProgress, decimals: 6), .integer(row.pulses), .text(row.event.rawValue)]
        }
        return ResultDocument(ResultTable(provenance: provenance, columns: Self.columns, rows: rows))
    }
}
