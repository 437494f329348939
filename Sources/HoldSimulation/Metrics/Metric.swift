import HoldLabIO

/// A statistic `simulate` reports, declared once: its column name, unit, definition and decimals, and what it is
/// of the tally (`Kind`). The registry `Metric.all` is the `simulate` columns in order; the summary columns (with
/// a rate's Wilson bounds and a mean's t bounds), `compare`'s differences (`ComparedMetric`), `tune`'s metrics and
/// proportions and the views' units are all derived from it.
///
/// Adding a counted metric: a `HoldEvent` case, the line of `HoldContribution.hold` that counts it, and its entry
/// here (plus docs/COLUMNS.md's column table and the golden files).
public struct Metric: Sendable {
    public enum Kind: Sendable {
        /// How many people counted toward an event.
        case count(HoldEvent)
        /// Event / denominator event, as a proportion of the people counted.
        case rate(HoldEvent, over: HoldEvent, interval: RateInterval)
        /// The mean of a value with its 95 % Student t interval (`_lo` and `_hi` columns).
        case mean(HoldValue)
        /// A quantile of a value (HdrHistogram's buckets, 4 significant digits).
        case quantile(HoldValue, percentile: Double)
        case maximum(HoldValue)
        case minimum(HoldValue)
    }

    /// Where a rate's 95 % Wilson interval is shown.
    public enum RateInterval: Sendable {
        /// As `_lo` and `_hi` columns.
        case columns
        /// In the table and Markdown views only, from the counts.
        case view
        case none
    }

    public let name: String
    public let unit: String
    public let definition: String
    public let decimals: Int
    public let kind: Kind

    init(_ name: String, _ unit: String, _ decimals: Int, _ kind: Kind, _ definition: String) {
        self.name = name
        self.unit = unit
        self.decimals = decimals
        self.kind = kind
        self.definition = definition
    }

    /// The registry, in `simulate` column order (after the profile, population, users and seed columns).
    public static let all: [Metric] = [
        Metric("intent_users", "count", 0, .count(.intent), "users of classes with intent: confirm"),
        Metric("completed", "count", 0, .count(.completed), "intent users whose action fired"),
        Metric("completion_rate", "0–1", 6, .rate(.completed, over: .intent, interval: .columns), "completed / intent_users"),
        Metric("premature_release_rate", "0–1", 6, .rate(.prematureRelease, over: .intent, interval: .view),
               "intent users who let go before the action without a movement cancel, for any reason (includes the next two)"),
        Metric("premature_impatience_rate", "0–1", 6, .rate(.prematureImpatience, over: .intent, interval: .view),
               "intent users who gave up at their patience having had no feedback at all"),
        Metric("premature_mismatch_rate", "0–1", 6, .rate(.prematureMismatch, over: .intent, interval: .view),
               "intent users who let go on seeing the bar full before the action fired"),
        Metric("movement_cancel_rate", "0–1", 6, .rate(.movementCancel, over: .intent, interval: .view),
               "intent users whose finger moved beyond maximumDistance before the action"),
        Metric("accidental_users", "count", 0, .count(.accidental), "users of classes with intent: none"),
        Metric("false_activation_rate", "0–1", 6, .rate(.falseActivation, over: .accidental, interval: .columns),
               "accidental users whose action fired"),
        Metric("completion_time_mean_ms", "ms", 3, .mean(.completionTime), "touch-down to the action, completed holds"),
        Metric("completion_time_p50_ms", "ms", 3, .quantile(.completionTime, percentile: 50), "median of the same"),
        Metric("completion_time_p90_ms", "ms", 3, .quantile(.completionTime, percentile: 90), "90th percentile of the same"),
        Metric("completion_time_p99_ms", "ms", 3, .quantile(.completionTime, percentile: 99), "99th percentile of the same"),
        Metric("hold_time_p50_ms", "ms", 3, .quantile(.holdTime, percentile: 50),
               "median touch-down to release (or movement cancel), intent users"),
        Metric("pulses_mean", "count", 3, .mean(.pulses),
               "haptic pulses played per completed hold, completion pulse included"),
        Metric("pulses_p50", "count", 0, .quantile(.pulses, percentile: 50), "median of the same"),
        Metric("pulses_p95", "count", 0, .quantile(.pulses, percentile: 95), "95th percentile of the same"),
        Metric("pulses_max", "count", 0, .maximum(.pulses), "maximum of the same"),
        Metric("peak_pulse_rate_hz", "Hz", 3, .maximum(.pulseRate),
               "1 / shortest gap between two rendered pulses, over completed holds: played pulses closer than haptics.actuatorMinInterval merge first, so it never exceeds the actuator's rate (NaN when none had two rendered pulses)"),
        Metric("dropped_pulses_mean", "count", 3, .mean(.droppedPulses),
               "pulse requests dropped by haptics.minInterval per completed hold"),
        Metric("completed_unseen_rate", "0–1", 6, .rate(.completedUnseen, over: .completedWithFill, interval: .none),
               "completed holds whose bar never looked full (released before a full frame, the fill retracting), over completed holds of controls with a fill"),
        Metric("mismatch_mean_ms", "ms", 3, .mean(.mismatch),
               "trigger time − first frame displayed full, completed holds whose bar looked full (positive: looked full before the action)"),
        Metric("mismatch_p50_ms", "ms", 3, .quantile(.mismatch, percentile: 50), "median of the same"),
        Metric("mismatch_p95_ms", "ms", 3, .quantile(.mismatch, percentile: 95), "95th percentile of the same"),
        Metric("mismatch_max_ms", "ms", 3, .maximum(.mismatch), "maximum of the same"),
        Metric("progress_at_trigger_mean", "0–1", 6, .mean(.progressAtTrigger),
               "displayed progress when the action fired, completed holds"),
        Metric("progress_at_trigger_min", "0–1", 6, .minimum(.progressAtTrigger), "minimum of the same"),
        Metric("no_feedback_rate", "0–1", 6, .rate(.noFeedback, over: .intent, interval: .view),
               "intent users who let go (or were cancelled) before any feedback: no visible fill, pulse or action while the finger was down"),
        Metric("first_feedback_ms", "ms", 3, .mean(.firstFeedback),
               "mean touch-down to the first feedback (visible fill change, pulse or the action), intent users who got feedback while the finger was down"),
        Metric("retract_mean_ms", "ms", 3, .mean(.retract),
               "mean time from the end of the press to the first frame drawn empty (displayed progress below display.resolution), intent users whose fill retracted"),
    ]

    /// The metric of a column name.
    public static func named(_ name: String) -> Metric? { all.first { $0.name == name } }

    /// Whether the metric is a proportion of people (a rate).
    public var isRate: Bool { if case .rate = kind { true } else { false } }

    /// The count column of the people a statistic is over, whose 0 leaves it undefined: intent users, accidental
    /// users, or completed holds (of which the holds with a fill, or that looked full, or rendered two pulses, are a
    /// part); nil for a count.
    var countColumn: String? {
        func column(_ event: HoldEvent) -> String {
            switch event {
            case .accidental, .falseActivation: "accidental_users"
            case .completed, .completedWithFill, .completedUnseen: "completed"
            case .intent, .prematureRelease, .prematureImpatience, .prematureMismatch, .movementCancel, .noFeedback:
                "intent_users"
            // Every person: a rate over them is over nobody only with no users at all, which intent users then are.
            case .user: "intent_users"
            }
        }
        func column(_ value: HoldValue) -> String { column(value.over) }
        switch kind {
        case .count: return nil
        case .rate(_, let denominator, _): return column(denominator)
        case .mean(let value), .quantile(let value, _), .maximum(let value), .minimum(let value): return column(value)
        }
    }

    /// Why the statistic can be undefined though its count column (`countColumn`) is not 0: only some of the people
    /// that count counts have the value. Nil where every one of them has it (then only a count of 0 leaves it
    /// undefined).
    var undefinedWhen: String? {
        switch kind {
        case .count: return nil
        case .rate(_, let denominator, _):
            return denominator == .completedWithFill ? "no completed hold had a fill" : nil
        case .mean(let value), .quantile(let value, _), .maximum(let value), .minimum(let value):
            return Self.someHave(value)?.nobody
        }
    }

    /// For a value only some of the people its `over` counts have: who have it, and the phrase for none having it
    /// (the one table `takenOver` and `undefinedWhen` read); nil where every one of them has it.
    private static func someHave(_ value: HoldValue) -> (who: String, nobody: String)? {
        switch value {
        case .mismatch: ("completed holds whose bar looked full", "no completed hold's bar looked full")
        case .pulseRate: ("completed holds that rendered two pulses", "no completed hold rendered two pulses")
        case .retract: ("intent users whose fill retracted", "no intent user's fill retracted")
        case .firstFeedback: ("intent users who got feedback while the finger was down", "no intent user had feedback while the finger was down")
        case .completionTime, .pulses, .droppedPulses, .progressAtTrigger, .holdTime: nil
        }
    }

    /// Whom the statistic is taken over, in words ("intent users", "completed holds whose bar looked full"): the
    /// people (or holds) its denominator counts; nil for a count.
    public var takenOver: String? {
        func words(_ event: HoldEvent) -> String {
            switch event {
            case .intent, .prematureRelease, .prematureImpatience, .prematureMismatch, .movementCancel, .noFeedback: "intent users"
            case .accidental, .falseActivation: "accidental users"
            case .completed, .completedUnseen: "completed holds"
            case .completedWithFill: "completed holds of a control with a fill"
            case .user: "every user"
            }
        }
        switch kind {
        case .count: return nil
        case .rate(_, let denominator, _): return words(denominator)
        case .mean(let value), .quantile(let value, _), .maximum(let value), .minimum(let value):
            return Self.someHave(value)?.who ?? words(value.over)
        }
    }

    /// The proportion behind a rate, from a tally's counts; nil for other metrics.
    func proportion(_ tally: Tally) -> Proportion? {
        guard case .rate(let event, let denominator, _) = kind else { return nil }
        return Proportion(successes: tally[event], trials: tally[denominator])
    }

    /// The metric's value from a finished tally, in its reported unit; nil for a statistic without data.
    func value(_ tally: Tally) -> Double? {
        switch kind {
        case .count(let event): return Double(tally[event])
        case .rate: return proportion(tally)?.rate
        case .mean(let value): return tally.mean(of: value).value
        case .quantile(let value, let percentile):
            return tally.quantile(of: value, atPercentile: percentile).map { Double($0) / value.scale }
        case .maximum(let value): return tally.maximum(of: value)
        case .minimum(let value): return tally.minimum(of: value)
        }
    }
}

extension Metric {
    /// The relations every summary row holds between two of its statistics of one value, from the registry: its
    /// quantiles in percentile order, the last at most the maximum, the mean at most the maximum and at least the
    /// minimum. In registry order of the values (`merge` names the first that a forged row breaks).
    public static let orderedPairs: [(smaller: String, larger: String)] = {
        var values: [HoldValue] = []
        var metrics: [HoldValue: [Metric]] = [:]
        for metric in all {
            let value: HoldValue
            switch metric.kind {
            case .count, .rate: continue
            case .mean(let v), .quantile(let v, _), .maximum(let v), .minimum(let v): value = v
            }
            if metrics[value] == nil { values.append(value) }
            metrics[value, default: []].append(metric)
        }
        var pairs: [(smaller: String, larger: String)] = []
        for value in values {
            let of = metrics[value] ?? []
            let quantiles = of.compactMap { metric -> (Double, String)? in
                if case .quantile(_, let percentile) = metric.kind { (percentile, metric.name) } else { nil }
            }.sorted { $0.0 < $1.0 }.map(\.1)
            let mean = of.first { if case .mean = $0.kind { true } else { false } }?.name
            let maximum = of.first { if case .maximum = $0.kind { true } else { false } }?.name
            let minimum = of.first { if case .minimum = $0.kind { true } else { false } }?.name
            pairs += zip(quantiles, quantiles.dropFirst()).map { ($0, $1) }
            if let maximum {
                if let last = quantiles.last { pairs.append((last, maximum)) }
                if let mean { pairs.append((mean, maximum)) }
            }
            if let minimum, let mean { pairs.append((minimum, mean)) }
        }
        return pairs
    }()

    /// The columns that hold a rate of people or a bound of its interval: from 0 to 1, or NaN over nobody.
    public static let rateColumns: Set<String> = Set(all.filter(\.isRate).flatMap { [$0.name, $0.name + "_lo", $0.name + "_hi"] })

    /// The rates whose denominator is a count column (`completion_rate` over `intent_users`), with their numerator's
    /// count column where there is one (`completed`), and whether the rate's interval is `_lo`/`_hi` columns.
    public static let countRatios: [(rate: String, numerator: String?, denominator: String, intervalColumns: Bool)] =
        all.compactMap { metric in
            guard case .rate(let event, let over, let interval) = metric.kind,
                  let denominator = all.first(where: { if case .count(over) = $0.kind { true } else { false } }) else { return nil }
            let numerator = all.first { if case .count(event) = $0.kind { true } else { false } }
            let columns = if case .columns = interval { true } else { false }
            return (metric.name, numerator?.name, denominator.name, columns)
        }
}
