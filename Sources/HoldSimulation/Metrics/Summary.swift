import HoldLabIO

/// One row of `holdlab simulate`: a profile against a population, read from its finished tally through the metric
/// registry (`Metric.all`). Times in milliseconds; a statistic without data is nil (written `NaN`).
public struct SimulationSummary: Sendable {
    public var profile: String
    public var population: String
    public var seed: UInt64
    let tally: Tally

    init(profile: String, population: String, seed: UInt64, tally: Tally) {
        self.profile = profile
        self.population = population
        self.seed = seed
        self.tally = tally
    }

    /// Synthetic users simulated.
    public var users: Int { tally[.user] }
    public var intentUsers: Int { tally[.intent] }
    public var accidentalUsers: Int { tally[.accidental] }

    /// A metric's value in its reported unit; nil for a statistic without data.
    public func value(_ metric: Metric) -> Double? { metric.value(tally) }

    /// The counts behind a rate; nil for other metrics.
    public func proportion(_ metric: Metric) -> Proportion? { metric.proportion(tally) }

    /// The mean and its 95 % interval behind a mean; nil for other metrics.
    public func mean(_ metric: Metric) -> SampleMean? {
        guard case .mean(let value) = metric.kind else { return nil }
        return tally.mean(of: value)
    }

    /// Why the metric of column `name` has no value here (`completed = 0`, `no completed hold rendered two pulses`);
    /// nil when it has one, or for a name that is no metric.
    public func whyUndefined(_ name: String) -> String? {
        guard let metric = Metric.named(name), value(metric) == nil else { return nil }
        // Its count column is a count metric of the registry (intent_users, accidental_users, completed).
        if let column = metric.countColumn, case .count(let event)? = Metric.named(column)?.kind, tally[event] == 0 {
            return "\(column) = 0"
        }
        return metric.undefinedWhen ?? "no value"
    }

    /// A metric's value by its column name; nil for a statistic without data or a name that is no metric.
    public func value(named name: String) -> Double? { Metric.named(name).flatMap(value) }

    /// A mean's 95 % interval by its column name; nil without two values or for a name that is no mean.
    public func interval(named name: String) -> SampleMean.Interval? { Metric.named(name).flatMap(mean)?.interval95 }

    /// A metric of the registry by column name (the column must exist: these are the names consumers quote).
    func metric(_ name: String) -> Metric {
        guard let metric = Metric.named(name) else { preconditionFailure("no metric '\(name)'") }
        return metric
    }

    // The statistics the studies quote by meaning.
    public var completion: Proportion { proportion(metric("completion_rate")) ?? Proportion(successes: 0, trials: 0) }
    public var falseActivation: Proportion { proportion(metric("false_activation_rate")) ?? Proportion(successes: 0, trials: 0) }
    public var prematureRelease: Proportion { proportion(metric("premature_release_rate")) ?? Proportion(successes: 0, trials: 0) }
    public var prematureMismatch: Proportion { proportion(metric("premature_mismatch_rate")) ?? Proportion(successes: 0, trials: 0) }
    public var movementCancel: Proportion { proportion(metric("movement_cancel_rate")) ?? Proportion(successes: 0, trials: 0) }
    public var completionTimeMeanMs: Double? { value(metric("completion_time_mean_ms")) }
    public var firstFeedbackMs: Double? { value(metric("first_feedback_ms")) }
}

/// The `simulate` CSV: the row's identity, then every metric of the registry with its interval columns, so the
/// header, the rows, the views and docs/COLUMNS.md cannot drift apart.
public enum SimulationCSV {
    public struct Column: Sendable {
        public let name: String
        public let unit: String
        public let definition: String
        /// Whether the column is a statistic (not a name or the seed): what `tune` can minimise or constrain.
        public let isNumeric: Bool
        let kind: ResultColumn.Kind
        /// The count column of the people the statistic is over (`ResultColumn.over`), nil for names and counts.
        var over: String? = nil
        /// Why the statistic is undefined though its count is not 0 (`ResultColumn.undefinedWhen`).
        var undefinedWhen: String? = nil
        let cell: @Sendable (SimulationSummary) -> ResultCell

        /// The CSV field.
        public func value(_ summary: SimulationSummary) -> String { cell(summary).csvText }

        /// The column's value as a number, or nil for a text column or a statistic without data.
        public func numericValue(_ summary: SimulationSummary) -> Double? { isNumeric ? cell(summary).numericValue : nil }

        var resultColumn: ResultColumn {
            ResultColumn(name, kind, unit: unit, definition: definition, over: over, undefinedWhen: undefinedWhen)
        }
    }

    public static let columns: [Column] = [
        Column(name: "profile", unit: "", definition: "profile name", isNumeric: false, kind: .text) { .text($0.profile) },
        Column(name: "population", unit: "", definition: "population name", isNumeric: false, kind: .text) { .text($0.population) },
        Column(name: "users", unit: "count", definition: "synthetic users simulated", isNumeric: true, kind: .integer) { .integer($0.users) },
        Column(name: "seed", unit: "", definition: "master seed (every profile of a run uses it: common random numbers)",
               isNumeric: false, kind: .integer) { .unsigned($0.seed) },
    ] + Metric.all.flatMap(columns(of:))

    /// A metric's columns: its value, then a rate's Wilson bounds or a mean's t bounds.
    static func columns(of metric: Metric) -> [Column] {
        let decimals = metric.decimals
        let over = metric.countColumn
        func column(_ name: String, _ definition: String, _ kind: ResultColumn.Kind = .number,
                    _ cell: @escaping @Sendable (SimulationSummary) -> ResultCell) -> Column {
            Column(name: name, unit: metric.unit, definition: definition, isNumeric: true, kind: kind, over: over,
                   undefinedWhen: metric.undefinedWhen, cell: cell)
        }
        switch metric.kind {
        case .count:
            return [column(metric.name, metric.definition, .integer) { .integer(Int($0.value(metric) ?? 0)) }]
        case .rate(_, _, let interval):
            let value = column(metric.name, metric.definition) { summary in
                let proportion = summary.proportion(metric) ?? Proportion(successes: 0, trials: 0)
                return interval == .view ? .proportion(proportion, decimals: decimals) : .number(proportion.rate, decimals: decimals)
            }
            guard interval == .columns else { return [value] }
            return [value] + [("lo", "lower"), ("hi", "upper")].map { side, word in
                column(metric.name + "_" + side, "95 % Wilson interval, \(word) bound") { summary in
                    let bounds = summary.proportion(metric)?.wilson95
                    return .number(side == "lo" ? bounds?.lower : bounds?.upper, decimals: decimals)
                }
            }
        case .mean:
            let value = column(metric.name, metric.definition) { .number($0.value(metric), decimals: decimals) }
            return [value] + [("lo", "lower"), ("hi", "upper")].map { side, word in
                column(metric.name + "_" + side,
                       "95 % Student t interval of the mean, \(word) bound (NaN with fewer than 2 values)") { summary in
                    let interval = summary.mean(metric)?.interval95
                    return .number(side == "lo" ? interval?.lower : interval?.upper, decimals: decimals)
                }
            }
        case .quantile, .maximum, .minimum:
            return [column(metric.name, metric.definition) { .number($0.value(metric), decimals: decimals) }]
        }
    }

    public static var header: String { columns.map(\.name).joined(separator: ",") }

    public static func row(_ summary: SimulationSummary) -> String {
        columns.map { $0.value(summary) }.joined(separator: ",")
    }

    /// The result columns (kinds, units, definitions).
    public static var resultColumns: [ResultColumn] { columns.map(\.resultColumn) }

    /// One summary's typed cells, in column order.
    public static func cells(_ summary: SimulationSummary) -> [ResultCell] { columns.map { $0.cell(summary) } }

    /// The summaries as one typed block under `provenance`.
    public static func table(_ summaries: [SimulationSummary], provenance: Provenance) -> ResultTable {
        ResultTable(provenance: provenance, columns: resultColumns, rows: summaries.map(cells))
    }
}
