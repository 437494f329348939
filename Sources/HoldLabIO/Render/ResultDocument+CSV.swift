extension ResultDocument {
    /// The CSV as a command writes it: every column, the `#` provenance lines (`rendered(as: .csv)`, which cannot
    /// fail without a column selection).
    public var csv: String { CSVRendering.text(self, comments: true) }
}

extension ResultTable {
    /// The header row of the block's CSV, with its newline: for output written a row at a time as rows are
    /// measured (`benchmark`), so a late failure loses nothing.
    public var csvHeaderLine: String { header.map(CSV.field).joined(separator: ",") + "\n" }

    /// One row of a CSV, with its newline.
    public static func csvLine(_ row: [ResultCell]) -> String { row.map(\.csvText).joined(separator: ",") + "\n" }
}
