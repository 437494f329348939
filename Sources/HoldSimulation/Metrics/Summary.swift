import HoldLabIO
/// One row of `holdlab simulate`: a profile against a population. Times in milliseconds; nil is written `NaN`.
public struct SimulationSummary: Sendable {
    public var profile: String
    public var population: String
    public var users: Int
    public var seed: UInt64
    public var intentUsers: Int
    public var completion: Proportion
    public var prematureRelease: Proportion
    public var prematureImpatience: Proportion
    public var prematureMismatch: Proportion
    public var movementCancel: Proportion
    public var accidentalUsers: Int
    public var falseActivation: Proportion
    public var completionTimeMeanMs: Double?
    /// The 95 % Student t interval of `completionTimeMeanMs` (nil with fewer than two values).
    public var completionTimeMeanInterval: SampleMean.Interval?
    public var completionTimeP50Ms: Double?
    public var completionTimeP90Ms: Double?
    public var completionTimeP99Ms: Double?
    public var holdTimeP50Ms: Double?
    public var pulsesMean: Double?
    /// The 95 % Student t interval of `pulsesMean` (nil with fewer than two values).
    public var pulsesMeanInterval: SampleMean.Interval?
    public var pulsesP50: Double?
    public var pulsesP95: Double?
    public var pulsesMax: Double?
    public var peakPulseRateHz: Double?
    public var droppedPulsesMean: Double?
    /// The 95 % Student t interval of `droppedPulsesMean` (nil with fewer than two values).
    public var droppedPulsesMeanInterval: SampleMean.Interval?
    public var completedUnseen: Proportion
    public var mismatchMeanMs: Double?
    /// The 95 % Student t interval of `mismatchMeanMs` (nil with fewer than two values).
    public var mismatchMeanInterval: SampleMean.Interval?
    public var mismatchP50Ms: Double?
    public var mismatchP95Ms: Double?
    public var mismatchMaxMs: Double?
    public var progressAtTriggerMean: Double?
    /// The 95 % Student t interval of `progressAtTriggerMean` (nil with fewer than two values).
    public var progressAtTriggerMeanInterval: SampleMean.Interval?
    public var progressAtTriggerMin: Double?
    public var noFeedback: Proportion
    public var firstFeedbackMs: Double?
    /// The 95 % Student t interval of `firstFeedbackMs` (nil with fewer than two values).
    public var firstFeedbackInterval: SampleMean.Interval?
    public var retractMeanMs: Double?
    /// The 95 % Student t interval of `retractMeanMs` (nil with fewer than two values).
    public var retractMeanInterval: SampleMean.Interval?

    init(profile: String, population: String, seed: UInt64, tally t: Tally) {
        func ms(_ micros: Int64?) -> Double? { micros.map { Double($0) / 1000 } }
        self.profile = profile
        self.population = population
        users = t.users
        self.seed = seed
        intentUsers = t.intentUsers
        completion = Proportion(successes: t.completed, trials: t.intentUsers)
        prematureRelease = Proportion(successes: t.prematureRelease, trials: t.intentUsers)
        prematureImpatience = Proportion(successes: t.prematureImpatience, trials: t.intentUsers)
        prematureMismatch = Proportion(successes: t.prematureMismatch, trials: t.intentUsers)
        movementCancel = Proportion(successes: t.movementCancels, trials: t.intentUsers)
        accidentalUsers = t.accidentalUsers
        falseActivation = Proportion(successes: t.falseActivations, trials: t.accidentalUsers)
        let completionTime = SampleMean(sum: t.completionTimeSum, squares: t.completionTimeSquares, count: t.completed, scale: 1000)
        completionTimeMeanMs = completionTime.value
        completionTimeMeanInterval = completionTime.interval95
        completionTimeP50Ms = ms(t.completionTime.value(atPercentile: 50))
        completionTimeP90Ms = ms(t.completionTime.value(atPercentile: 90))
        completionTimeP99Ms = ms(t.completionTime.value(atPercentile: 99))
        holdTimeP50Ms = ms(t.holdTime.value(atPercentile: 50))
        let pulses = SampleMean(sum: Int128(t.pulsesSum), squares: t.pulsesSquares, count: t.completed, scale: 1)
        pulsesMean = pulses.value
        pulsesMeanInterval = pulses.interval95
        pulsesP50 = t.pulses.value(atPercentile: 50).map(Double.init)
        pulsesP95 = t.pulses.value(atPercentile: 95).map(Double.init)
        pulsesMax = t.completed == 0 ? nil : Double(t.pulsesMax)
        peakPulseRateHz = t.peakPulseRateHz
        let dropped = SampleMean(sum: Int128(t.droppedPulsesSum), squares: t.droppedPulsesSquares, count: t.completed, scale: 1)
        droppedPulsesMean = dropped.value
        droppedPulsesMeanInterval = dropped.interval95
        completedUnseen = Proportion(successes: t.completedUnseen, trials: t.completedWithFill)
        noFeedback = Proportion(successes: t.noFeedback, trials: t.intentUsers)
        let mismatches = Int(t.mismatch.count)
        let mismatch = SampleMean(sum: t.mismatchSum, squares: t.mismatchSquares, count: mismatches, scale: 1000)
        mismatchMeanMs = mismatch.value
        mismatchMeanInterval = mismatch.interval95
        mismatchP50Ms = ms(t.mismatch.value(atPercentile: 50))
        mismatchP95Ms = ms(t.mismatch.value(atPercentile: 95))
        mismatchMaxMs = mismatches == 0 ? nil : t.mismatchMax * 1000
        let progress = SampleMean(sum: t.progressAtTriggerSum, squares: t.progressAtTriggerSquares,
                                  count: t.progressAtTriggerCount, scale: 1_000_000_000)
        progressAtTriggerMean = progress.value
        progressAtTriggerMeanInterval = progress.interval95
        progressAtTriggerMin = t.progressAtTriggerCount == 0 ? nil : t.progressAtTriggerMin
        let firstFeedback = SampleMean(sum: t.firstFeedbackSum, squares: t.firstFeedbackSquares, count: t.firstFeedbackCount, scale: 1000)
        firstFeedbackMs = firstFeedback.value
        firstFeedbackInterval = firstFeedback.interval95
        let retract = SampleMean(sum: t.retractSum, squares: t.retractSquares, count: t.retractCount, scale: 1000)
        retractMeanMs = retract.value
        retractMeanInterval = retract.interval95
    }
}

/// The `simulate` CSV: column names, units and definitions in one table, so the header, the rows and the
/// README cannot drift apart.
public enum SimulationCSV {
    public struct Column: Sendable {
        public let name: String
        public let unit: String
        public let definition: String
        /// The column as a number (nil is written NaN); nil for the text columns.
        let number: (@Sendable (SimulationSummary) -> Double?)?
        let decimals: Int
        let text: (@Sendable (SimulationSummary) -> String)?

        /// A numeric column written with `decimals` decimals.
        init(name: String, unit: String, definition: String, decimals: Int,
             _ number: @escaping @Sendable (SimulationSummary) -> Double?) {
            self.name = name
            self.unit = unit
            self.definition = definition
            self.number = number
            self.decimals = decimals
            text = nil
        }

        /// A text column.
        init(name: String, unit: String, definition: String, text: @escaping @Sendable (SimulationSummary) -> String) {
            self.name = name
            self.unit = unit
            self.definition = definition
            number = nil
            decimals = 0
            self.text = text
        }

        /// The CSV field.
        public func value(_ summary: SimulationSummary) -> String {
            if let text { return text(summary) }
            return CSV.number(number?(summary), decimals: decimals)
        }

        /// The column's value as a number, or nil for a text column or a statistic without data.
        public func numericValue(_ summary: SimulationSummary) -> Double? { number?(summary) }

        /// Whether the column is a number (not a name).
        public var isNumeric: Bool { number != nil }
    }

    public static let columns: [Column] = [
        Column(name: "profile", unit: "", definition: "profile name", text: { CSV.field($0.profile) }),
        Column(name: "population", unit: "", definition: "population name", text: { CSV.field($0.population) }),
        Column(name: "users", unit: "count", definition: "synthetic users simulated", decimals: 0) { Double($0.users) },
        Column(name: "seed", unit: "", definition: "master seed (every profile of a run uses it: common random numbers)", text: { "\($0.seed)" }),
        Column(name: "intent_users", unit: "count", definition: "users of classes with intent: confirm", decimals: 0) { Double($0.intentUsers) },
        Column(name: "completed", unit: "count", definition: "intent users whose action fired", decimals: 0) { Double($0.completion.successes) },
        Column(name: "completion_rate", unit: "0–1", definition: "completed / intent_users", decimals: 6) { $0.completion.rate },
        Column(name: "completion_rate_lo", unit: "0–1", definition: "95 % Wilson interval, lower bound", decimals: 6) { $0.completion.wilson95?.lower },
        Column(name: "completion_rate_hi", unit: "0–1", definition: "95 % Wilson interval, upper bound", decimals: 6) { $0.completion.wilson95?.upper },
        Column(name: "premature_release_rate", unit: "0–1",
               definition: "intent users who let go before the action without a movement cancel, for any reason (includes the next two)", decimals: 6) { $0.prematureRelease.rate },
        Column(name: "premature_impatience_rate", unit: "0–1",
               definition: "intent users who gave up at their patience having had no feedback at all", decimals: 6) { $0.prematureImpatience.rate },
        Column(name: "premature_mismatch_rate", unit: "0–1",
               definition: "intent users who let go on seeing the bar full before the action fired", decimals: 6) { $0.prematureMismatch.rate },
        Column(name: "movement_cancel_rate", unit: "0–1",
               definition: "intent users whose finger moved beyond maximumDistance before the action", decimals: 6) { $0.movementCancel.rate },
        Column(name: "accidental_users", unit: "count", definition: "users of classes with intent: none", decimals: 0) { Double($0.accidentalUsers) },
        Column(name: "false_activation_rate", unit: "0–1", definition: "accidental users whose action fired", decimals: 6) { $0.falseActivation.rate },
        Column(name: "false_activation_rate_lo", unit: "0–1", definition: "95 % Wilson interval, lower bound", decimals: 6) { $0.falseActivation.wilson95?.lower },
        Column(name: "false_activation_rate_hi", unit: "0–1", definition: "95 % Wilson interval, upper bound", decimals: 6) { $0.falseActivation.wilson95?.upper },
        Column(name: "completion_time_mean_ms", unit: "ms", definition: "touch-down to the action, completed holds", decimals: 3) { $0.completionTimeMeanMs },
        meanBound("completion_time_mean_ms", "lo", unit: "ms", decimals: 3) { $0.completionTimeMeanInterval?.lower },
        meanBound("completion_time_mean_ms", "hi", unit: "ms", decimals: 3) { $0.completionTimeMeanInterval?.upper },
        Column(name: "completion_time_p50_ms", unit: "ms", definition: "median of the same", decimals: 3) { $0.completionTimeP50Ms },
        Column(name: "completion_time_p90_ms", unit: "ms", definition: "90th percentile of the same", decimals: 3) { $0.completionTimeP90Ms },
        Column(name: "completion_time_p99_ms", unit: "ms", definition: "99th percentile of the same", decimals: 3) { $0.completionTimeP99Ms },
        Column(name: "hold_time_p50_ms", unit: "ms", definition: "median touch-down to release (or movement cancel), intent users", decimals: 3) { $0.holdTimeP50Ms },
        Column(name: "pulses_mean", unit: "count", definition: "haptic pulses played per completed hold, completion pulse included", decimals: 3) { $0.pulsesMean },
        meanBound("pulses_mean", "lo", unit: "count", decimals: 3) { $0.pulsesMeanInterval?.lower },
        meanBound("pulses_mean", "hi", unit: "count", decimals: 3) { $0.pulsesMeanInterval?.upper },
        Column(name: "pulses_p50", unit: "count", definition: "median of the same", decimals: 0) { $0.pulsesP50 },
        Column(name: "pulses_p95", unit: "count", definition: "95th percentile of the same", decimals: 0) { $0.pulsesP95 },
        Column(name: "pulses_max", unit: "count", definition: "maximum of the same", decimals: 0) { $0.pulsesMax },
        Column(name: "peak_pulse_rate_hz", unit: "Hz", definition: "1 / shortest gap between two played pulses, over completed holds (NaN when none had two pulses)", decimals: 3) { $0.peakPulseRateHz },
        Column(name: "dropped_pulses_mean", unit: "count", definition: "pulse requests dropped by haptics.minInterval per completed hold", decimals: 3) { $0.droppedPulsesMean },
        meanBound("dropped_pulses_mean", "lo", unit: "count", decimals: 3) { $0.droppedPulsesMeanInterval?.lower },
        meanBound("dropped_pulses_mean", "hi", unit: "count", decimals: 3) { $0.droppedPulsesMeanInterval?.upper },
        Column(name: "completed_unseen_rate", unit: "0–1",
               definition: "completed holds whose bar never looked full (released before a full frame, the fill retracting), over completed holds of controls with a fill", decimals: 6) { $0.completedUnseen.rate },
        Column(name: "mismatch_mean_ms", unit: "ms",
               definition: "trigger time − first frame displayed full, completed holds whose bar looked full (positive: looked full before the action)", decimals: 3) { $0.mismatchMeanMs },
        meanBound("mismatch_mean_ms", "lo", unit: "ms", decimals: 3) { $0.mismatchMeanInterval?.lower },
        meanBound("mismatch_mean_ms", "hi", unit: "ms", decimals: 3) { $0.mismatchMeanInterval?.upper },
        Column(name: "mismatch_p50_ms", unit: "ms", definition: "median of the same", decimals: 3) { $0.mismatchP50Ms },
        Column(name: "mismatch_p95_ms", unit: "ms", definition: "95th percentile of the same", decimals: 3) { $0.mismatchP95Ms },
        Column(name: "mismatch_max_ms", unit: "ms", definition: "maximum of the same", decimals: 3) { $0.mismatchMaxMs },
        Column(name: "progress_at_trigger_mean", unit: "0–1", definition: "displayed progress when the action fired, completed holds", decimals: 6) { $0.progressAtTriggerMean },
        meanBound("progress_at_trigger_mean", "lo", unit: "0–1", decimals: 6) { $0.progressAtTriggerMeanInterval?.lower },
        meanBound("progress_at_trigger_mean", "hi", unit: "0–1", decimals: 6) { $0.progressAtTriggerMeanInterval?.upper },
        Column(name: "progress_at_trigger_min", unit: "0–1", definition: "minimum of the same", decimals: 6) { $0.progressAtTriggerMin },
        Column(name: "no_feedback_rate", unit: "0–1",
               definition: "intent users who let go (or were cancelled) before any feedback: no visible fill, pulse or action while the finger was down", decimals: 6) { $0.noFeedback.rate },
        Column(name: "first_feedback_ms", unit: "ms",
               definition: "mean touch-down to the first feedback (visible fill change, pulse or the action), intent users who got feedback while the finger was down", decimals: 3) { $0.firstFeedbackMs },
        meanBound("first_feedback_ms", "lo", unit: "ms", decimals: 3) { $0.firstFeedbackInterval?.lower },
        meanBound("first_feedback_ms", "hi", unit: "ms", decimals: 3) { $0.firstFeedbackInterval?.upper },
        Column(name: "retract_mean_ms", unit: "ms", definition: "mean time from the end of the press to the first frame drawn empty (displayed progress below display.resolution), intent users whose fill retracted", decimals: 3) { $0.retractMeanMs },
        meanBound("retract_mean_ms", "lo", unit: "ms", decimals: 3) { $0.retractMeanInterval?.lower },
        meanBound("retract_mean_ms", "hi", unit: "ms", decimals: 3) { $0.retractMeanInterval?.upper },
    ]

    /// `NAME_lo` or `NAME_hi`: a bound of the mean column NAME's 95 % interval (`SampleMean`), in its unit and decimals.
    private static func meanBound(_ mean: String, _ side: String, unit: String, decimals: Int,
                                  _ bound: @escaping @Sendable (SimulationSummary) -> Double?) -> Column {
        Column(name: mean + "_" + side, unit: unit,
               definition: "95 % Student t interval of the mean, \(side == "lo" ? "lower" : "upper") bound (NaN with fewer than 2 values)",
               decimals: decimals, bound)
    }

    public static var header: String { columns.map(\.name).joined(separator: ",") }

    public static func row(_ summary: SimulationSummary) -> String {
        columns.map { $0.value(summary) }.joined(separator: ",")
    }
}
