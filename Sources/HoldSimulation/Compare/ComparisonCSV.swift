import HoldLabIO
import HoldProfiles

/// The `compare` CSV: one row per population, design (but the baseline) and metric. Column names, units and
/// definitions in one table, so the header, the rows and docs/COLUMNS.md cannot drift apart.
public enum ComparisonCSV {
    public struct Column: Sendable {
        public let name: String
        /// For the column dictionary; "as the metric" is no unit a view could print beside a value.
        public let unit: String
        public let definition: String
        let cell: @Sendable (ComparisonRow) -> ResultCell

        init(name: String, unit: String, definition: String, value: @escaping @Sendable (ComparisonRow) -> ResultCell) {
            self.name = name
            self.unit = unit
            self.definition = definition
            cell = value
        }

        var resultColumn: ResultColumn { ResultColumn(name, unit == "as the metric" ? .number : .text) }
    }

    private static func number(_ pick: @escaping @Sendable (PairedStatistics.Difference) -> Double?)
        -> @Sendable (ComparisonRow) -> ResultCell {
        { row in .number(pick(row.difference), decimals: row.metric.decimals) }
    }

    public static let columns: [Column] = [
        Column(name: "population", unit: "", definition: "population name", value: { .text($0.population) }),
        Column(name: "design", unit: "", definition: "the design's label (a profile name, or a --variant label)", value: { .text($0.design) }),
        Column(name: "baseline", unit: "", definition: "the baseline design's label", value: { .text($0.baseline) }),
        Column(name: "metric", unit: "", definition: "a `simulate` column: every rate and mean", value: { .text($0.metric.name) }),
        Column(name: "design_value", unit: "as the metric", definition: "the design's value (its `simulate` column)", value: number(\.designValue)),
        Column(name: "baseline_value", unit: "as the metric", definition: "the baseline's value", value: number(\.baselineValue)),
        Column(name: "diff", unit: "as the metric", definition: "design_value − baseline_value", value: number(\.diff)),
        Column(name: "diff_lo", unit: "as the metric", definition: "95 % paired interval for diff, lower bound (method)", value: number(\.lower)),
        Column(name: "diff_hi", unit: "as the metric", definition: "95 % paired interval for diff, upper bound", value: number(\.upper)),
        Column(name: "unpaired_lo", unit: "as the metric",
               definition: "95 % interval as if the designs had seen different people (never narrower than the paired one), lower bound",
               value: number(\.unpairedLower)),
        Column(name: "unpaired_hi", unit: "as the metric", definition: "the same, upper bound", value: number(\.unpairedUpper)),
        Column(name: "method", unit: "",
               definition: "how diff_lo and diff_hi were computed: `\(IntervalRules.current.rateMethod)`, "
                   + "`\(IntervalRules.current.ratioMethod)` or `\(IntervalRules.current.meanMethod)` "
                   + "(`--intervals 0.1`: `\(IntervalRules.v0_1.rateMethod)` or `\(IntervalRules.v0_1.meanMethod)`)",
               value: { .text($0.method) }),
    ]

    /// The differences of every population's comparison, populations in order, under `provenance`.
    public static func differences(_ results: [DesignComparison], provenance: Provenance) -> ResultTable {
        ResultTable(provenance: provenance, columns: columns.map(\.resultColumn),
                    rows: results.flatMap { $0.rows.map { row in columns.map { $0.cell(row) } } })
    }

    /// The `--summaries` CSV: a `design` column, then exactly the `simulate` columns; populations in order,
    /// designs in order.
    public static func summaries(_ results: [DesignComparison], designs: [Design], provenance: Provenance) -> ResultTable {
        ResultTable(
            provenance: provenance, columns: [ResultColumn("design", .text)] + SimulationCSV.resultColumns,
            rows: results.flatMap { result in
                zip(designs, result.summaries).map { design, summary in [.text(design.label)] + SimulationCSV.cells(summary) }
            })
    }
}
