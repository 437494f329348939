import Foundation

/// The renderers of a `ResultDocument`, one per `RowFormat`: pure functions from typed values to text.
extension ResultDocument {
    /// The document as `format`, with only `columns` (nil: all, in order) and the `#` provenance lines unless
    /// `comments` is false.
    ///
    /// - Throws: `RowFormatError` for a name in `columns` that no block has (with the closest names) or one named
    ///   twice.
    public func rendered(as format: RowFormat, columns: [String]? = nil, comments: Bool = true) throws(RowFormatError)
        -> String
    {
        if let columns { try check(columns) }
        switch format {
        case .csv:
            return CSVRendering.text(columns.map(selecting) ?? self, comments: comments)
        case .json:
            return JSONRendering.text(columns.map(selecting) ?? self)
        case .table, .markdown:
            // The view's cells come from every column (a rate's bounds, an estimate's standard error, its counts),
            // then the selection picks the cells.
            let views = tables.map { HumanView(table: $0, keeping: Set(columns ?? [])) }
            let selected = columns.map { names in views.map { $0.selecting(names) } } ?? views
            return format == .table ? HumanView.tableText(selected, comments: comments)
                : HumanView.markdownText(selected, comments: comments)
        }
    }

    /// Each block reduced to the named columns it has, in the given order.
    func selecting(_ names: [String]) -> ResultDocument {
        ResultDocument(tables.map { $0.selecting(names) })
    }

    /// Refuses a column no block has (with the closest known names) and a column named twice.
    func check(_ names: [String]) throws(RowFormatError) {
        let known = columnNames
        for name in names where !known.contains(name) {
            throw RowFormatError(message: "--columns: no column '\(name)'" + Suggestions.didYouMean(name, among: known)
                                 + "; columns: " + known.joined(separator: ", "))
        }
        var seen: Set<String> = []
        for name in names where !seen.insert(name).inserted {
            throw RowFormatError(message: "--columns: '\(name)' is named twice; name each column once")
        }
    }
}

/// CSV: each block's `#` lines, its header and its rows; blocks two blank lines apart (gnuplot's `index`).
enum CSVRendering {
    static func text(_ document: ResultDocument, comments: Bool) -> String {
        var text = ""
        for (index, table) in document.tables.enumerated() {
            if index > 0 { text += "\n\n" }
            text += block(table, comments: comments)
        }
        return text
    }

    static func block(_ table: ResultTable, comments: Bool) -> String {
        var text = comments ? table.provenance.lines : ""
        guard !table.columns.isEmpty else { return text }
        text += table.csvHeaderLine
        for row in table.rows { text += ResultTable.csvLine(row) }
        return text
    }
}

/// JSON Lines: an object per row with the block's columns in order, each value typed by its column's kind (a
/// text column is a string whatever it looks like; a missing number is null). With several blocks each object
/// starts with `"block": N` (gnuplot's index), also when `--columns` leaves a block without columns (its rows are
/// then not written, and the others keep their index).
public enum JSONRendering {
    static func text(_ document: ResultDocument) -> String {
        let several = document.tables.count > 1
        var text = ""
        for (blockIndex, table) in document.tables.enumerated() where !table.columns.isEmpty {
            for row in table.rows {
                var members: [String] = several ? ["\"block\":\(blockIndex)"] : []
                for (index, column) in table.columns.enumerated() {
                    let cell = index < row.count ? row[index] : .text("")
                    members.append(jsonString(column.name) + ":" + value(cell, kind: column.kind))
                }
                text += "{" + members.joined(separator: ",") + "}\n"
            }
        }
        return text
    }

    static func value(_ cell: ResultCell, kind: ResultColumn.Kind) -> String {
        switch kind {
        case .text: return jsonString(cell.plainText)
        case .boolean:
            if case .boolean(let value) = cell { return value ? "true" : "false" }
            return jsonString(cell.plainText)
        case .integer, .number:
            if case .text(let text) = cell { return jsonString(text) }
            return NumberText.jsonNumber(cell.csvText) ?? "null"
        }
    }

    /// A JSON string literal (RFC 8259 escapes; other control characters as \u00XX).
    public static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// The table and Markdown views: cells for people. A value with bound columns (or a rate kept as counts) reads
/// `0.879 [0.874, 0.883]`, an estimate with a standard error `-0.1094 ± 0.0050`; the bound and error columns then
/// disappear unless they were asked for without their value.
struct HumanView {
    var provenance: Provenance
    var header: [String]
    var units: [String]
    var rows: [[String]]

    init(table: ResultTable, keeping requested: Set<String>) {
        provenance = table.provenance
        let columns = table.columns
        var lower: [String: Int] = [:], upper: [String: Int] = [:], error: [String: Int] = [:]
        for (index, column) in columns.enumerated() {
            switch column.role {
            case .value: break
            case .lowerBound(let base): lower[base] = index
            case .upperBound(let base): upper[base] = index
            case .standardError(let base): error[base] = index
            }
        }
        var absorbed: Set<Int> = []
        for column in columns {
            if let lo = lower[column.name], let hi = upper[column.name] { absorbed.formUnion([lo, hi]) }
            if let se = error[column.name] { absorbed.insert(se) }
        }
        let kept = columns.indices.filter { !absorbed.contains($0) || requested.contains(columns[$0].name) }
        header = kept.map { columns[$0].name }
        units = kept.map { columns[$0].unit }
        rows = table.rows.map { row in
            func cell(_ index: Int?) -> ResultCell? { index.flatMap { $0 < row.count ? row[$0] : nil } }
            return kept.map { index in
                let name = columns[index].name
                guard let value = cell(index) else { return "" }
                let text = value.plainText
                if let lo = cell(lower[name]), let hi = cell(upper[name]) {
                    return NumberText.withInterval(text, lo.plainText, hi.plainText)
                }
                if let se = cell(error[name]) { return NumberText.withError(text, se.plainText) }
                if case .proportion(let proportion, _) = value, proportion.trials > 0, let ci = proportion.wilson95 {
                    return NumberText.withInterval(text, "\(ci.lower)", "\(ci.upper)")
                }
                return text
            }
        }
    }

    func selecting(_ names: [String]) -> HumanView {
        let indices = names.compactMap { header.firstIndex(of: $0) }
        var view = self
        view.header = indices.map { header[$0] }
        view.units = indices.map { units[$0] }
        view.rows = rows.map { row in indices.map { $0 < row.count ? row[$0] : "" } }
        return view
    }

    /// ` ms` after a value in a unit people read (not for proportions, counts, text or NaN).
    static func unitSuffix(_ unit: String?, _ value: String) -> String {
        guard let unit, !unit.isEmpty, unit != "0–1", unit != "count", value != "NaN" else { return "" }
        return " " + unit
    }

    /// Lines of cells padded to their column's width (two spaces between columns, no trailing spaces).
    static func aligned(_ lines: [[String]], rightAligned: Set<Int>) -> String {
        let count = lines.map(\.count).max() ?? 0
        let widths = (0..<count).map { column in lines.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return lines.map { cells in
            var line = ""
            for (column, cell) in cells.enumerated() {
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                line += column == 0 ? "" : "  "
                line += rightAligned.contains(column) ? padding + cell : cell + padding
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line + "\n"
        }.joined()
    }

    static func tableText(_ views: [HumanView], comments: Bool) -> String {
        views.enumerated().map { index, view in
            var text = index == 0 ? "" : "\n"
            if comments { text += view.provenance.lines }
            guard !view.header.isEmpty else { return text }
            if view.rows.count == 1 {
                let lines = view.header.indices.map { column in
                    [view.header[column], view.rows[0][column] + HumanView.unitSuffix(view.units[column], view.rows[0][column])]
                }
                text += HumanView.aligned(lines, rightAligned: [])
            } else {
                let numeric = view.header.indices.filter { column in view.rows.allSatisfy { NumberText.looksNumeric($0[column]) } }
                text += HumanView.aligned([view.header] + view.rows, rightAligned: Set(numeric))
            }
            return text
        }.joined()
    }

    static func markdownText(_ views: [HumanView], comments: Bool) -> String {
        func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
        return views.enumerated().map { index, view in
            var text = index == 0 ? "" : "\n"
            if comments && !view.provenance.entries.isEmpty {
                text += "<!--\n" + view.provenance.texts.map { $0.replacingOccurrences(of: "-->", with: "-- >") + "\n" }.joined() + "-->\n"
            }
            guard !view.header.isEmpty else { return text }
            if view.rows.count == 1 {
                text += "| column | value |\n|---|---:|\n"
                for column in view.header.indices {
                    let value = view.rows[0][column]
                    text += "| `\(cell(view.header[column]))` | \(cell(value + HumanView.unitSuffix(view.units[column], value))) |\n"
                }
            } else {
                let numeric = view.header.indices.filter { column in view.rows.allSatisfy { NumberText.looksNumeric($0[column]) } }
                text += "| " + view.header.map { "`\(cell($0))`" }.joined(separator: " | ") + " |\n"
                text += "|" + view.header.indices.map { numeric.contains($0) ? "---:|" : "---|" }.joined() + "\n"
                for row in view.rows { text += "| " + row.map(cell).joined(separator: " | ") + " |\n" }
            }
            return text
        }.joined()
    }
}
