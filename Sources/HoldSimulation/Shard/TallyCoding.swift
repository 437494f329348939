import Foundation
import Histogram

/// A `Tally` as CSV fields, exactly: counts and Int128 sums in decimal, minima and maxima as Swift's shortest
/// round-trip decimal (`inf`, `-inf`; `none` for no value), and each histogram as four columns, `NAME_count`,
/// `NAME_min` (the smallest non-zero value, exact when no 0 was recorded, else its bucket's lowest value, since
/// quantiles then never read it; `none` without one), `NAME_max` (exact) and `NAME_hdr` (base64 of HdrHistogram's
/// V2 encoding, `HistogramCoding`; empty without values). A tally read back equals the one written, so merging
/// shards' tallies gives the tally of the whole run.
///
/// The columns are part of shard format 2 (`ShardFormat`): a new field of `Tally` needs a column here and a new
/// format version (a test lists the fields). Format 2 added the Σy² column beside each mean's Σy (`*_squares*`, in
/// the square of the sum's unit), for the means' intervals.
enum TallyCoding {
    /// One tallied quantity and its columns.
    enum Field {
        case count(String, WritableKeyPath<Tally, Int>)
        case sum(String, WritableKeyPath<Tally, Int128>)
        case real(String, WritableKeyPath<Tally, Double>)
        case optionalReal(String, WritableKeyPath<Tally, Double?>)
        case quantiles(String, WritableKeyPath<Tally, Quantiles>)
        case signedQuantiles(String, WritableKeyPath<Tally, SignedQuantiles>)

        var columns: [String] {
            switch self {
            case .count(let name, _), .sum(let name, _), .real(let name, _), .optionalReal(let name, _): return [name]
            case .quantiles(let name, _): return TallyCoding.histogramColumns(name)
            case .signedQuantiles(let name, _):
                return TallyCoding.histogramColumns(name + "_negative") + TallyCoding.histogramColumns(name + "_positive")
            }
        }
    }

    /// Every field of `Tally`, in column order.
    nonisolated(unsafe) static let fields: [Field] = [
        .count("users", \.users), .count("intent_users", \.intentUsers), .count("completed", \.completed),
        .count("premature_release", \.prematureRelease), .count("premature_impatience", \.prematureImpatience),
        .count("premature_mismatch", \.prematureMismatch), .count("movement_cancels", \.movementCancels),
        .count("accidental_users", \.accidentalUsers), .count("false_activations", \.falseActivations),
        .sum("completion_time_sum_us", \.completionTimeSum),
        .sum("completion_time_squares_us2", \.completionTimeSquares), .quantiles("completion_time_us", \.completionTime),
        .quantiles("hold_time_us", \.holdTime),
        .count("pulses_sum", \.pulsesSum), .sum("pulses_squares", \.pulsesSquares), .quantiles("pulses_per_hold", \.pulses), .count("pulses_max", \.pulsesMax),
        .count("dropped_pulses_sum", \.droppedPulsesSum),
        .sum("dropped_pulses_squares", \.droppedPulsesSquares), .optionalReal("peak_pulse_rate_hz", \.peakPulseRateHz),
        .sum("mismatch_sum_us", \.mismatchSum), .sum("mismatch_squares_us2", \.mismatchSquares), .signedQuantiles("mismatch_us", \.mismatch), .real("mismatch_max_s", \.mismatchMax),
        .sum("progress_at_trigger_sum_e9", \.progressAtTriggerSum),
        .sum("progress_at_trigger_squares_e18", \.progressAtTriggerSquares), .count("progress_at_trigger_count", \.progressAtTriggerCount),
        .real("progress_at_trigger_min", \.progressAtTriggerMin),
        .sum("first_feedback_sum_us", \.firstFeedbackSum),
        .sum("first_feedback_squares_us2", \.firstFeedbackSquares), .count("first_feedback_count", \.firstFeedbackCount),
        .count("no_feedback", \.noFeedback), .sum("retract_sum_us", \.retractSum), .sum("retract_squares_us2", \.retractSquares), .count("retract_count", \.retractCount),
        .count("completed_with_fill", \.completedWithFill), .count("completed_unseen", \.completedUnseen),
    ]

    /// The names of `Tally`'s stored properties this format covers (a test compares them with `Tally`'s own).
    static let fieldNames = [
        "users", "intentUsers", "completed", "prematureRelease", "prematureImpatience", "prematureMismatch",
        "movementCancels", "accidentalUsers", "falseActivations", "completionTimeSum", "completionTimeSquares",
        "completionTime", "holdTime", "pulsesSum", "pulsesSquares", "pulses", "pulsesMax", "droppedPulsesSum",
        "droppedPulsesSquares", "peakPulseRateHz", "mismatchSum", "mismatchSquares", "mismatch", "mismatchMax",
        "progressAtTriggerSum", "progressAtTriggerSquares", "progressAtTriggerCount", "progressAtTriggerMin",
        "firstFeedbackSum", "firstFeedbackSquares", "firstFeedbackCount", "noFeedback", "retractSum", "retractSquares",
        "retractCount", "completedWithFill", "completedUnseen",
    ]

    static func histogramColumns(_ name: String) -> [String] {
        [name + "_count", name + "_min", name + "_max", name + "_hdr"]
    }

    /// The tally columns, after the `profile` column of a shard row.
    static let columns: [String] = fields.flatMap(\.columns)

    /// The fields of one tally, in `columns` order.
    static func encode(_ tally: Tally) -> [String] {
        var values: [String] = []
        for field in fields {
            switch field {
            case .count(_, let path): values.append(String(tally[keyPath: path]))
            case .sum(_, let path): values.append(String(tally[keyPath: path]))
            case .real(_, let path): values.append(real(tally[keyPath: path]))
            case .optionalReal(_, let path): values.append(tally[keyPath: path].map(real) ?? "none")
            case .quantiles(_, let path): values += histogram(tally[keyPath: path])
            case .signedQuantiles(_, let path):
                let parts = tally[keyPath: path].parts
                values += histogram(parts.negative) + histogram(parts.positive)
            }
        }
        return values
    }

    /// A problem with one column's value.
    struct ColumnError: Error {
        let column: String
        let reason: String
    }

    /// The tally in `values` (in `columns` order; the caller checked the count).
    static func decode(_ values: [String]) throws(ColumnError) -> Tally {
        var tally = Tally()
        var position = 0
        func next() -> (String, String) {
            defer { position += 1 }
            return (columns[position], values[position])
        }
        for field in fields {
            switch field {
            case .count(_, let path):
                let (column, text) = next()
                guard let value = Int(text), value >= 0 else { throw ColumnError(column: column, reason: "'\(text)' is not a count") }
                tally[keyPath: path] = value
            case .sum(_, let path):
                let (column, text) = next()
                guard let value = Int128(text) else { throw ColumnError(column: column, reason: "'\(text)' is not an integer") }
                tally[keyPath: path] = value
            case .real(_, let path):
                let (column, text) = next()
                guard let value = Double(text), !value.isNaN else { throw ColumnError(column: column, reason: "'\(text)' is not a number") }
                tally[keyPath: path] = value
            case .optionalReal(_, let path):
                let (column, text) = next()
                if text == "none" { tally[keyPath: path] = nil; continue }
                guard let value = Double(text), value.isFinite else { throw ColumnError(column: column, reason: "'\(text)' is not a number") }
                tally[keyPath: path] = value
            case .quantiles(_, let path):
                tally[keyPath: path] = try quantiles(like: tally[keyPath: path], next(), next(), next(), next())
            case .signedQuantiles(_, let path):
                let template = tally[keyPath: path].parts
                let negative = try quantiles(like: template.negative, next(), next(), next(), next())
                let positive = try quantiles(like: template.positive, next(), next(), next(), next())
                tally[keyPath: path] = SignedQuantiles(negative: negative, positive: positive)
            }
        }
        return tally
    }

    /// Swift's shortest decimal that reads back as the same Double.
    private static func real(_ value: Double) -> String { "\(value)" }

    private static func histogram(_ quantiles: Quantiles) -> [String] {
        guard let histogram = quantiles.recordedHistogram, histogram.totalCount > 0 else { return ["0", "none", "0", ""] }
        // Quantiles are clamped to the histogram's minimum: the exact smallest value when no 0 was recorded (the
        // only case where it matters), 0 otherwise, and then the first non-zero bucket's lowest value is written.
        let minimum = histogram.minNonZero == UInt64.max
            ? "none" : String(histogram.countForValue(0) == 0 ? histogram.min : histogram.minNonZero)
        return [String(histogram.totalCount), minimum, String(histogram.maxRecorded),
                Data(HistogramCoding.encode(histogram)).base64EncodedString()]
    }

    private static func quantiles(
        like template: Quantiles, _ count: (String, String), _ minimum: (String, String), _ maximum: (String, String),
        _ encoded: (String, String)
    ) throws(ColumnError) -> Quantiles {
        guard let total = UInt64(count.1) else { throw ColumnError(column: count.0, reason: "'\(count.1)' is not a count") }
        if total == 0 {
            guard minimum.1 == "none", maximum.1 == "0", encoded.1.isEmpty else {
                throw ColumnError(column: count.0, reason: "0 values, yet a minimum, maximum or histogram")
            }
            return template
        }
        let minNonZero: UInt64
        if minimum.1 == "none" {
            minNonZero = UInt64.max
        } else {
            guard let value = UInt64(minimum.1) else { throw ColumnError(column: minimum.0, reason: "'\(minimum.1)' is not a count") }
            minNonZero = value
        }
        guard let maxValue = UInt64(maximum.1) else { throw ColumnError(column: maximum.0, reason: "'\(maximum.1)' is not a count") }
        guard let data = Data(base64Encoded: encoded.1) else {
            throw ColumnError(column: encoded.0, reason: "not base64")
        }
        do {
            let histogram = try HistogramCoding.decode(
                [UInt8](data), minNonZero: minNonZero, max: maxValue, total: total, highest: template.highest, digits: template.digits)
            return Quantiles(highest: template.highest, digits: template.digits, histogram: histogram)
        } catch {
            throw ColumnError(column: encoded.0, reason: error.reason)
        }
    }
}
