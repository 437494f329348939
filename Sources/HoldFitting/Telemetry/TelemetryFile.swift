import Foundation
import HoldLabIO
import HoldModel
import HoldProfiles

/// One hold from an app's telemetry, in seconds after its touch-down: when the finger came up (or when observation
/// stopped), and the control's settings at the time.
public struct TelemetryHold: Sendable, Equatable {
    /// Seconds from touch-down to touch-up; for a censored hold, to the moment observation stopped.
    public var time: Double
    /// Whether the release was not seen: the action cut the hold (`up_ms` empty, censored at `fired_ms`) or the
    /// finger moved out (`moved_out` 1, censored at `up_ms`: the person would have let go later).
    public var censored: Bool
    /// Whether the action fired.
    public var fired: Bool
    /// The control's trigger: seconds of holding the action needs (`trigger_ms`).
    public var triggerSeconds: Double
    /// When the fill reaches its nominal end, seconds after touch-down (`fill_ms`); nil without a fill.
    public var fillEndSeconds: Double?
    /// When the bar was first drawn full, seconds after touch-down (`full_ms`); nil if never, or not logged.
    public var fullSeconds: Double?

    /// The first completion cue a reacting person sees: the bar drawn full or the action firing, whichever is
    /// first (HoldLab's `react` behaviour).
    public var cueSeconds: Double { min(fullSeconds ?? .infinity, triggerSeconds) }
    /// What an anticipating person aims at: the fill's nominal end, or the trigger without a fill.
    public var targetSeconds: Double { fillEndSeconds ?? triggerSeconds }
}

/// Telemetry read from a CSV file, ready to fit.
public struct TelemetryData: Sendable {
    /// The file as named.
    public let path: String
    /// FNV-1a 64 hash (16 hex digits) of the file's bytes.
    public let contentHash: String
    public let holds: [TelemetryHold]
    /// The distinct control settings (trigger, fill end), in order of first appearance, in seconds.
    public let settings: [TelemetrySetting]
}

/// A control setting as telemetry records it.
public struct TelemetrySetting: Sendable, Hashable {
    public var triggerSeconds: Double
    public var fillEndSeconds: Double?
}

/// The telemetry CSV a team exports from its app (docs/POPULATIONS.md, *Calibrating from telemetry*).
///
/// One row per hold; `#` lines and blank lines are skipped; the first other line is the header. Times are
/// milliseconds. Columns (others are ignored):
///
/// | column | required | meaning |
/// |---|---|---|
/// | `down_ms` | yes | touch-down, on any clock |
/// | `up_ms` | yes | touch-up on the same clock; empty when the action cut the hold (then `fired` is 1) |
/// | `fired` | yes | 1/true if the action fired, 0/false if not |
/// | `fired_ms` | when a row's `up_ms` is empty | when the action fired, same clock |
/// | `moved_out` | no (0) | 1/true if the finger moved out of the control and that ended the press |
/// | `trigger_ms` | yes | the control's setting: how long a hold fires the action, after touch-down |
/// | `fill_ms` | no | the control's setting: when the fill reaches its nominal end, after touch-down (its delay plus duration); empty for no fill |
/// | `full_ms` | no | when the bar was first drawn full, same clock as `down_ms`; empty if never |
public enum TelemetryFile {
    /// The columns the reader knows, in the order the documentation lists them.
    public static let columns = ["down_ms", "up_ms", "fired", "fired_ms", "moved_out", "trigger_ms", "fill_ms", "full_ms"]

    /// How far a logged time may fall short of the trigger for rounding to whole milliseconds on either clock reading.
    static let roundingMilliseconds = 1.0
    /// The latest time after touch-down a row may give, ms: `Instant.limit` (10⁷ s).
    static let longestMilliseconds = Instant.longestSeconds * 1_000

    static func milliseconds(_ value: Double) -> String { String(format: "%.3f", value) }

    /// Reads and validates the file. Errors name the file and, for a row, its line, the column and what is allowed.
    public static func read(path: String) throws(FitError) -> TelemetryData {
        let reader: CSVReader
        do {
            reader = try CSVReader(path: path)
        } catch {
            throw FitError(error.kind == .cannotOpen ? .missingInput : .invalidData, path: error.path, line: error.line,
                           error.reason)
        }
        return try parse(reader)
    }

    /// Parses CSV text; `path` names it in errors.
    public static func parse(_ text: String, path: String) throws(FitError) -> TelemetryData {
        try parse(CSVReader(bytes: Array(text.utf8), path: path))
    }

    static func parse(_ reader: CSVReader) throws(FitError) -> TelemetryData {
        let path = reader.path
        guard let names = try FitError.reading({ () throws(CSVTableError) in try reader.readHeader() }) else {
            throw FitError(.invalidData, path: path, "no header row (the file has no lines but # comments)")
        }
        func index(_ column: String, required: Bool) throws(FitError) -> Int? {
            if let found = names.firstIndex(of: column) { return found }
            guard required else { return nil }
            throw FitError(.invalidData, path: path,
                           "no '\(column)' column\(Suggestions.didYouMean(column, among: names)); telemetry needs "
                           + "down_ms, up_ms, fired and trigger_ms (and may have fired_ms, moved_out, fill_ms, full_ms); "
                           + "the file's columns are: \(names.joined(separator: ", "))")
        }
        let down = try index("down_ms", required: true) ?? 0
        let up = try index("up_ms", required: true) ?? 0
        let firedIndex = try index("fired", required: true) ?? 0
        let trigger = try index("trigger_ms", required: true) ?? 0
        let firedAt = try index("fired_ms", required: false)
        let movedOut = try index("moved_out", required: false)
        let fill = try index("fill_ms", required: false)
        let full = try index("full_ms", required: false)

        var holds: [TelemetryHold] = []
        var settings: [TelemetrySetting] = []
        var seen: Set<TelemetrySetting> = []
        while try FitError.reading({ () throws(CSVTableError) in try reader.next() }) {
            try FitError.reading { () throws(CSVTableError) in try reader.checkFieldCount() }
            let line = reader.line
            func fail(_ column: String, _ message: String) -> FitError {
                FitError(.invalidData, path: path, line: line, "\(column): \(message)")
            }
            func number(_ index: Int, _ column: String, optional: Bool = false) throws(FitError) -> Double? {
                let text = reader.field(index).trimmingCharacters(in: .whitespaces)
                if text.isEmpty {
                    if optional { return nil }
                    throw fail(column, "is empty; it needs a number of milliseconds")
                }
                guard let value = reader.double(index), value.isFinite else {
                    throw fail(column, "'\(text)' is not a finite number of milliseconds")
                }
                return value
            }
            func flag(_ index: Int?, _ column: String) throws(FitError) -> Bool {
                guard let index else { return false }
                let text = reader.field(index).trimmingCharacters(in: .whitespaces).lowercased()
                if text == "1" || text == "true" { return true }
                // An empty moved_out says nothing moved; an empty fired says nothing.
                if text == "0" || text == "false" || (text.isEmpty && column == "moved_out") { return false }
                throw fail(column, "\(reader.quotedField(index)) is not a flag (allowed: 0, 1, true, false, in any case)")
            }
            let downAt = try number(down, "down_ms") ?? 0
            // A time after touch-down beyond the latest instant a hold's times may take (`Instant.limit`, 10⁷ s,
            // which a simulation caps its draws at) is a corrupt row, not a hold: one such moved a fit's weights and
            // spreads with no word, or failed it as a population's fault.
            func within(_ milliseconds: Double, _ column: String) throws(FitError) -> Double {
                guard milliseconds <= Self.longestMilliseconds else {
                    throw fail(column, "is \(milliseconds) ms after down_ms, beyond the longest time HoldLab "
                               + "takes (10⁷ s, 1e10 ms): a corrupt row?")
                }
                return milliseconds
            }
            let fired = try flag(firedIndex, "fired")
            let moved = try flag(movedOut, "moved_out")
            let triggerSeconds = try within(try number(trigger, "trigger_ms") ?? 0, "trigger_ms") / 1000
            guard triggerSeconds > 0 else { throw fail("trigger_ms", "must be > 0 (the control's hold time)") }
            var fillEnd: Double?
            if let fill, let value = try number(fill, "fill_ms", optional: true) {
                guard value > 0 else { throw fail("fill_ms", "must be > 0 (when the fill ends after touch-down), or empty for no fill") }
                fillEnd = try within(value, "fill_ms") / 1000
            }
            var fullSeconds: Double?
            if let full, let value = try number(full, "full_ms", optional: true) {
                guard value >= downAt else { throw fail("full_ms", "\(value) is before down_ms \(downAt)") }
                fullSeconds = try within(value - downAt, "full_ms") / 1000
            }
            var firedSeconds: Double?
            if let firedAt, let value = try number(firedAt, "fired_ms", optional: true) {
                guard fired else { throw fail("fired_ms", "is given but fired is 0: a hold that did not fire has no fired_ms") }
                guard value >= downAt else { throw fail("fired_ms", "\(value) is before down_ms \(downAt)") }
                firedSeconds = try within(value - downAt, "fired_ms") / 1000
                // The action fires once the hold reaches the trigger, never before (a millisecond's rounding aside).
                guard value - downAt >= triggerSeconds * 1000 - Self.roundingMilliseconds else {
                    throw fail("fired_ms", "\(value) is \(Self.milliseconds(value - downAt)) ms after down_ms, before trigger_ms "
                               + "\(Self.milliseconds(triggerSeconds * 1000)): the action fires once the hold reaches its trigger")
                }
            }
            let hold: TelemetryHold
            if let upAt = try number(up, "up_ms", optional: true) {
                let time = try within(upAt - downAt, "up_ms") / 1000
                guard time > 0 else { throw fail("up_ms", "\(upAt) is not after down_ms \(downAt): a hold lasts > 0 ms") }
                // A hold let go before its trigger cannot have fired the action.
                guard !fired || upAt - downAt >= triggerSeconds * 1000 - Self.roundingMilliseconds else {
                    throw fail("fired", "is 1 on a hold of \(Self.milliseconds(upAt - downAt)) ms, shorter than its trigger_ms "
                               + "\(Self.milliseconds(triggerSeconds * 1000)): a hold let go before the trigger does not fire the action")
                }
                hold = TelemetryHold(time: time, censored: moved, fired: fired, triggerSeconds: triggerSeconds,
                                     fillEndSeconds: fillEnd, fullSeconds: fullSeconds)
            } else {
                guard fired, let firedSeconds else {
                    throw fail("up_ms", "is empty: allowed only for a hold the action cut (fired 1, with fired_ms)")
                }
                guard !moved else { throw fail("moved_out", "is 1 on a hold the action cut (up_ms empty): one ended it") }
                guard firedSeconds > 0 else { throw fail("fired_ms", "must be after down_ms") }
                hold = TelemetryHold(time: firedSeconds, censored: true, fired: true, triggerSeconds: triggerSeconds,
                                     fillEndSeconds: fillEnd, fullSeconds: fullSeconds)
            }
            holds.append(hold)
            let setting = TelemetrySetting(triggerSeconds: triggerSeconds, fillEndSeconds: fillEnd)
            if seen.insert(setting).inserted { settings.append(setting) }
        }
        guard !holds.isEmpty else { throw FitError(.invalidData, path: path, "no holds: the file has a header and no rows") }
        guard holds.contains(where: { !$0.censored }) else {
            throw FitError(.invalidData, path: path, "every hold is censored (cut by the action or moved out): no release was seen")
        }
        return TelemetryData(path: path, contentHash: reader.contentHash, holds: holds, settings: settings)
    }
}
