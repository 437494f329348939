import Foundation
import HoldLabIO

/// Telemetry made from `holdlab simulate --per-user` rows: what an app would have logged of those holds. For
/// checking a calibration end to end (simulate a known population, export, fit, compare) and for the example file.
public enum TelemetryExport {
    /// The header ``telemetry(perUser:path:triggerMilliseconds:fillMilliseconds:cutAtAction:)`` writes.
    public static let header = "down_ms,up_ms,fired,fired_ms,moved_out,trigger_ms,fill_ms,full_ms"

    /// One telemetry row per per-user row (`#` lines skipped), touch-down at 0 ms:
    ///
    /// - `up_ms` is `press_end_ms`, empty for a hold that fired when `cutAtAction` (the app stopped watching at the
    ///   action: the hold is censored there);
    /// - `fired` is 1 for `completed` and `false_activation`, `fired_ms` is then `trigger_ms`;
    /// - `moved_out` is 1 when the finger's movement ended the press: it ended at `cancel_ms`, before the person let
    ///   go (`release_ms`; both to the rows' microsecond rounding);
    /// - `trigger_ms` and `fill_ms` are the control's settings, given here (the per-user rows do not carry them);
    /// - `full_ms` is `first_full_frame_ms` if the bar was drawn full while the finger was down, else empty.
    ///
    /// - Throws: `FitError` naming the line and column of a per-user row that lacks a column or a number.
    public static func telemetry(perUser text: String, path: String, triggerMilliseconds: Double,
                                 fillMilliseconds: Double?, cutAtAction: Bool) throws(FitError) -> String {
        let reader = CSVReader(bytes: Array(text.utf8), path: path)
        guard let names = try FitError.reading({ () throws(CSVTableError) in try reader.readHeader() }) else {
            throw FitError(.invalidData, path: path, "no header row")
        }
        func index(_ column: String) throws(FitError) -> Int {
            guard let found = names.firstIndex(of: column) else {
                throw FitError(.invalidData, path: path, "no '\(column)' column: not `holdlab simulate --per-user` rows")
            }
            return found
        }
        let release = try index("release_ms"), pressEnd = try index("press_end_ms"), outcome = try index("outcome")
        let cancel = try index("cancel_ms")
        let trigger = try index("trigger_ms"), full = try index("first_full_frame_ms")
        var lines = [header]
        func ms(_ value: Double) -> String { String(format: "%.3f", value) }
        let fill = fillMilliseconds.map(ms) ?? ""
        while try FitError.reading({ () throws(CSVTableError) in try reader.next() }) {
            try FitError.reading { () throws(CSVTableError) in try reader.checkFieldCount() }
            func number(_ index: Int, _ column: String) throws(FitError) -> Double {
                guard let value = reader.double(index) else {
                    throw FitError(.invalidData, path: path, line: reader.line, "\(column): \(reader.quotedField(index)) is not a number")
                }
                return value
            }
            let end = try number(pressEnd, "press_end_ms")
            // The rows round to 1 µs; the press's end is on the nanosecond clock, the release in seconds.
            let cancelAt = reader.double(cancel) ?? .nan
            let releaseAt = try number(release, "release_ms")
            let moved = cancelAt.isFinite && abs(end - cancelAt) <= 0.001 && end < releaseAt - 0.001
            let kind = reader.field(outcome)
            let fired = kind == "completed" || kind == "false_activation"
            let firedAt = fired ? ms(try number(trigger, "trigger_ms")) : ""
            let fullAt = try number(full, "first_full_frame_ms")
            let up = fired && cutAtAction ? "" : ms(end)
            let fullText = fullAt.isFinite && fullAt <= end ? ms(fullAt) : ""
            lines.append([ "0", up, fired ? "1" : "0", firedAt, moved ? "1" : "0", ms(triggerMilliseconds), fill, fullText]
                .joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
