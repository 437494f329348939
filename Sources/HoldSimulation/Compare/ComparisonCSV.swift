import HoldLabIO
/// The `compare` CSV: one row per population, design (but the baseline) and metric. Column names, units and
/// definitions in one table, so the header, the rows and the README cannot drift apart.
public enum ComparisonCSV {
    public struct Column: Sendable {
        public let name: String
        public let unit: String
        public let definition: String
        let value: @Sendable (ComparisonRow) -> String
    }

    private static func number(_ pick: @escaping @Sendable (PairedStatistics.Difference) -> Double?)
        -> @Sendable (ComparisonRow) -> String {
        { row in CSV.number(pick(row.difference), decimals: row.metric.decimals) }
    }

    public static let columns: [Column] = [
        Column(name: "population", unit: "", definition: "population name", value: { CSV.field($0.population) }),
        Column(name: "design", unit: "", definition: "the design's label (a profile name, or a --variant label)", value: { CSV.field($0.design) }),
        Column(name: "baseline", unit: "", definition: "the baseline design's label", value: { CSV.field($0.baseline) }),
        Column(name: "metric", unit: "", definition: "a `simulate` column: every rate and mean", value: { $0.metric.name }),
        Column(name: "design_value", unit: "as the metric", definition: "the design's value (its `simulate` column)", value: number(\.designValue)),
        Column(name: "baseline_value", unit: "as the metric", definition: "the baseline's value", value: number(\.baselineValue)),
        Column(name: "diff", unit: "as the metric", definition: "design_value − baseline_value", value: number(\.diff)),
        Column(name: "diff_lo", unit: "as the metric", definition: "95 % paired interval for diff, lower bound (method)", value: number(\.lower)),
        Column(name: "diff_hi", unit: "as the metric", definition: "95 % paired interval for diff, upper bound", value: number(\.upper)),
        Column(name: "unpaired_lo", unit: "as the metric",
               definition: "95 % interval as if the designs had seen different people, lower bound", value: number(\.unpairedLower)),
        Column(name: "unpaired_hi", unit: "as the metric", definition: "the same, upper bound", value: number(\.unpairedUpper)),
        Column(name: "method", unit: "", definition: "how diff_lo and diff_hi were computed: `\(ComparedMetric.rateMethod)` or `\(ComparedMetric.meanMethod)`",
               value: { $0.metric.method }),
    ]

    public static var header: String { columns.map(\.name).joined(separator: ",") }

    public static func row(_ row: ComparisonRow) -> String {
        columns.map { $0.value(row) }.joined(separator: ",")
    }

    /// The `--summaries` CSV: a `design` column, then exactly the `simulate` columns.
    public static var summaryHeader: String { "design," + SimulationCSV.header }

    public static func summaryRow(design: String, _ summary: SimulationSummary) -> String {
        CSV.field(design) + "," + SimulationCSV.row(summary)
    }
}
