import Foundation
import Histogram
import HoldLabIO

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
        /// A `HoldEvent`'s count.
        case count(HoldEvent)
        /// A `HoldValue`'s Σy, Σy² and count of values.
        case sum(HoldValue)
        case squares(HoldValue)
        case valueCount(HoldValue, String)
        /// A value's quantiles (four columns, or eight for signed values).
        case quantiles(HoldValue)
        /// A kept maximum or minimum: a pulse count, a number (`inf` when none), or `none` when none.
        case maximumCount(HoldValue)
        case extreme(HoldValue)
        case optionalExtreme(HoldValue)

        var columns: [String] {
            switch self {
            case .count(let event): return [TallyCoding.column(of: event)]
            case .sum(let value): return [TallyCoding.sumColumns[value] ?? TallyCoding.snakeCase(value) + "_sum"]
            case .squares(let value): return [TallyCoding.squaresColumns[value] ?? TallyCoding.snakeCase(value) + "_squares"]
            case .valueCount(_, let name): return [name]
            case .quantiles(let value):
                let name = TallyCoding.quantileColumns[value] ?? TallyCoding.snakeCase(value)
                if value.quantiles == .mismatch {
                    return TallyCoding.histogramColumns(name + "_negative") + TallyCoding.histogramColumns(name + "_positive")
                }
                return TallyCoding.histogramColumns(name)
            case .maximumCount(let value), .extreme(let value), .optionalExtreme(let value):
                return [TallyCoding.extremeColumns[value] ?? TallyCoding.snakeCase(value) + "_extreme"]
            }
        }
    }

    /// Shard format 2's columns, in its order; every event and kept sum the layout does not name follows it
    /// (`fields`), so a new metric's storage is coded without touching this file.
    static let format2: [Field] = [
        .count(.user), .count(.intent), .count(.completed), .count(.prematureRelease), .count(.prematureImpatience),
        .count(.prematureMismatch), .count(.movementCancel), .count(.accidental), .count(.falseActivation),
        .sum(.completionTime), .squares(.completionTime), .quantiles(.completionTime),
        .quantiles(.holdTime),
        .sum(.pulses), .squares(.pulses), .quantiles(.pulses), .maximumCount(.pulses),
        .sum(.droppedPulses), .squares(.droppedPulses), .optionalExtreme(.pulseRate),
        .sum(.mismatch), .squares(.mismatch), .quantiles(.mismatch), .extreme(.mismatch),
        .sum(.progressAtTrigger), .squares(.progressAtTrigger), .valueCount(.progressAtTrigger, "progress_at_trigger_count"),
        .extreme(.progressAtTrigger),
        .sum(.firstFeedback), .squares(.firstFeedback), .valueCount(.firstFeedback, "first_feedback_count"),
        .count(.noFeedback), .sum(.retract), .squares(.retract), .valueCount(.retract, "retract_count"),
        .count(.completedWithFill), .count(.completedUnseen),
    ]

    /// Every field of a `Tally`, in column order: format 2's, then what it does not name (a count column per new
    /// event, Σy, Σy² and a count per new value with a mean).
    static let fields: [Field] = {
        var fields = format2
        for event in HoldEvent.allCases where eventColumns[event] == nil { fields.append(.count(event)) }
        for value in HoldValue.allCases where value.keepsMean && sumColumns[value] == nil {
            fields += [.sum(value), .squares(value), .valueCount(value, snakeCase(value) + "_count")]
        }
        return fields
    }()

    /// Format 2's column names.
    static let eventColumns: [HoldEvent: String] = [
        .user: "users", .intent: "intent_users", .completed: "completed", .prematureRelease: "premature_release",
        .prematureImpatience: "premature_impatience", .prematureMismatch: "premature_mismatch",
        .movementCancel: "movement_cancels", .accidental: "accidental_users", .falseActivation: "false_activations",
        .noFeedback: "no_feedback", .completedWithFill: "completed_with_fill", .completedUnseen: "completed_unseen",
    ]
    static let sumColumns: [HoldValue: String] = [
        .completionTime: "completion_time_sum_us", .pulses: "pulses_sum", .droppedPulses: "dropped_pulses_sum",
        .mismatch: "mismatch_sum_us", .progressAtTrigger: "progress_at_trigger_sum_e9",
        .firstFeedback: "first_feedback_sum_us", .retract: "retract_sum_us",
    ]
    static let squaresColumns: [HoldValue: String] = [
        .completionTime: "completion_time_squares_us2", .pulses: "pulses_squares", .droppedPulses: "dropped_pulses_squares",
        .mismatch: "mismatch_squares_us2", .progressAtTrigger: "progress_at_trigger_squares_e18",
        .firstFeedback: "first_feedback_squares_us2", .retract: "retract_squares_us2",
    ]
    static let quantileColumns: [HoldValue: String] = [
        .completionTime: "completion_time_us", .holdTime: "hold_time_us", .pulses: "pulses_per_hold", .mismatch: "mismatch_us",
    ]
    static let extremeColumns: [HoldValue: String] = [
        .pulses: "pulses_max", .pulseRate: "peak_pulse_rate_hz", .mismatch: "mismatch_max_s",
        .progressAtTrigger: "progress_at_trigger_min",
    ]

    static func column(of event: HoldEvent) -> String { eventColumns[event] ?? snakeCase(event) }

    /// A case's name in snake_case (`completedUnseen` → `completed_unseen`), for columns format 2 does not name.
    static func snakeCase(_ value: Any) -> String {
        var name = ""
        for character in "\(value)" {
            if character.isUppercase { name += "_" + character.lowercased() } else { name.append(character) }
        }
        return name
    }

    /// How many values there were where format 2 has no column of its own: an event that always comes with the
    /// value, or its quantile store's count.
    static let countSources: [HoldValue: HoldEvent] = [.completionTime: .completed, .pulses: .completed, .droppedPulses: .completed]

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
            case .count(let event): values.append(String(tally[event]))
            case .sum(let value): values.append(String(tally.sums[value.rawValue]))
            case .squares(let value): values.append(String(tally.squares[value.rawValue]))
            case .valueCount(let value, _): values.append(String(tally.valueCounts[value.rawValue]))
            case .quantiles(let value):
                switch value.quantiles {
                case .completionTime: values += histogram(tally.completionTime)
                case .holdTime: values += histogram(tally.holdTime)
                case .pulses: values += histogram(tally.pulses)
                case .mismatch: values += histogram(tally.mismatch.parts.negative) + histogram(tally.mismatch.parts.positive)
                case nil: break
                }
            case .maximumCount(let value): values.append(String(Int(tally.maxima[value.rawValue])))
            case .extreme(let value):
                values.append(real(value.keepsMinimum ? tally.minima[value.rawValue] : tally.maxima[value.rawValue]))
            case .optionalExtreme(let value):
                let largest = tally.maxima[value.rawValue]
                values.append(largest.isFinite ? real(largest) : "none")
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
        func count(_ column: String, _ text: String) throws(ColumnError) -> Int {
            guard let value = Int(text), value >= 0 else { throw ColumnError(column: column, reason: "\(Quoted.value(text)) is not a count") }
            return value
        }
        var countedValues: Set<HoldValue> = []
        for field in fields {
            switch field {
            case .count(let event):
                let (column, text) = next()
                tally[event] = try count(column, text)
            case .sum(let value), .squares(let value):
                let (column, text) = next()
                guard let number = Int128(text) else { throw ColumnError(column: column, reason: "\(Quoted.value(text)) is not an integer") }
                if case .sum = field { tally.sums[value.rawValue] = number } else { tally.squares[value.rawValue] = number }
            case .valueCount(let value, _):
                let (column, text) = next()
                tally.valueCounts[value.rawValue] = try count(column, text)
                countedValues.insert(value)
            case .quantiles(let value):
                switch value.quantiles {
                case .completionTime: tally.completionTime = try quantiles(like: tally.completionTime, next(), next(), next(), next())
                case .holdTime: tally.holdTime = try quantiles(like: tally.holdTime, next(), next(), next(), next())
                case .pulses: tally.pulses = try quantiles(like: tally.pulses, next(), next(), next(), next())
                case .mismatch:
                    let template = tally.mismatch.parts
                    let negative = try quantiles(like: template.negative, next(), next(), next(), next())
                    let positive = try quantiles(like: template.positive, next(), next(), next(), next())
                    tally.mismatch = SignedQuantiles(negative: negative, positive: positive)
                case nil: break
                }
            case .maximumCount(let value):
                let (column, text) = next()
                tally.maxima[value.rawValue] = Double(try count(column, text))
            case .extreme(let value):
                let (column, text) = next()
                guard let number = Double(text), !number.isNaN else { throw ColumnError(column: column, reason: "\(Quoted.value(text)) is not a number") }
                try canonical(column, text, number)
                if value.keepsMinimum { tally.minima[value.rawValue] = number } else { tally.maxima[value.rawValue] = number }
            case .optionalExtreme(let value):
                let (column, text) = next()
                if text == "none" { continue }
                guard let number = Double(text), number.isFinite else { throw ColumnError(column: column, reason: "\(Quoted.value(text)) is not a number") }
                try canonical(column, text, number)
                tally.maxima[value.rawValue] = number
            }
        }
        // Counts of values format 2 does not carry: those that come with an event, or their quantiles'.
        for value in HoldValue.allCases where !countedValues.contains(value) {
            if let event = countSources[value] {
                tally.valueCounts[value.rawValue] = tally[event]
                continue
            }
            let total: UInt64
            switch value.quantiles {
            case .completionTime: total = tally.completionTime.count
            case .holdTime: total = tally.holdTime.count
            case .pulses: total = tally.pulses.count
            case .mismatch: total = tally.mismatch.count
            case nil: continue
            }
            // Each histogram holds at most Int.max values (checked as it is read), so the count fits.
            tally.valueCounts[value.rawValue] = Int(exactly: total) ?? Int.max
        }
        return tally
    }

    /// Swift's shortest decimal that reads back as the same Double.
    private static func real(_ value: Double) -> String { "\(value)" }

    /// Refuses a real written otherwise than `real` writes it (`0.99167e0`, `+0.9`): the same number, but no shard
    /// holdlab wrote has that text, as a count's `+1` or `1e0` is refused.
    private static func canonical(_ column: String, _ text: String, _ number: Double) throws(ColumnError) {
        guard real(number) != text else { return }
        throw ColumnError(column: column, reason: "\(Quoted.value(text)) is not written as holdlab writes a number (\(real(number)))")
    }

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
        guard let total = UInt64(count.1) else { throw ColumnError(column: count.0, reason: "\(Quoted.value(count.1)) is not a count") }
        // No run counts more values than there are integers of its counts (Int): larger is not a shard holdlab wrote.
        guard total <= UInt64(Int.max) else {
            throw ColumnError(column: count.0, reason: "\(count.1) values, more than any run counts (at most \(Int.max))")
        }
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
            guard let value = UInt64(minimum.1) else { throw ColumnError(column: minimum.0, reason: "\(Quoted.value(minimum.1)) is not a count") }
            minNonZero = value
        }
        guard let maxValue = UInt64(maximum.1) else { throw ColumnError(column: maximum.0, reason: "\(Quoted.value(maximum.1)) is not a count") }
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
