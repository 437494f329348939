import Foundation

/// How a command prints its rows: the CSV every command writes, or a view of it for people and scripts.
public enum RowFormat: String, CaseIterable, Sendable {
    /// The CSV as written (`#` provenance lines, a header, rows): gnuplot, DuckDB, pandas with `comment="#"`.
    case csv
    /// Aligned columns for a terminal; a single row is one column a line. Rates with an interval read
    /// `0.912 [0.906, 0.918]` and estimates with a standard error `0.4821 ± 0.0035`, to the digits these support.
    case table
    /// A GitHub-flavoured Markdown table (a single row as a column | value table), provenance in an HTML comment.
    case markdown
    /// JSON Lines: one object a row, numbers as numbers, `NaN` as null, `true`/`false` as booleans.
    case json
}

/// A column named in `--columns` that no block of the output has.
public struct RowFormatError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
}

/// What a command knows about its columns beyond their names, for the `table` and `markdown` views.
public struct RowFormatHints: Sendable {
    /// Units by column name (shown beside a single row's values): `ms`, `Hz`, `count`.
    public var units: [String: String]
    /// Rate columns whose 95 % Wilson interval the view derives from a count column of the same row
    /// (`premature_release_rate` → `intent_users`), for rates the CSV gives without `_lo`/`_hi` columns.
    public var rateDenominators: [String: String]

    public init(units: [String: String] = [:], rateDenominators: [String: String] = [:]) {
        self.units = units
        self.rateDenominators = rateDenominators
    }

    public static let none = RowFormatHints()
}

/// Renders the CSV a command wrote in another `RowFormat`, with only some columns, or without its `#` lines: one
/// function every command that prints rows calls on its finished CSV, so the formats cannot drift apart and the
/// CSV bytes never change (`csv` with every column and the comments returns its input unchanged).
///
/// The CSV may hold several blocks separated by blank lines (gnuplot's `index`, as `tune` writes), each with its
/// own `#` lines, header and rows.
public enum RowFormatter {
    /// One block of a CSV: its `#` lines (without the `# `), its header and its rows.
    public struct Block: Sendable, Equatable {
        public var comments: [String]
        public var header: [String]
        public var rows: [[String]]
    }

    /// `csv` rendered as `format`, with `columns` (nil: all, in the CSV's order) and the `#` lines unless
    /// `comments` is false.
    ///
    /// - Throws: `RowFormatError` naming a column of `columns` that no block has, with the closest names.
    public static func render(_ csv: String, format: RowFormat, columns: [String]? = nil, comments: Bool = true,
                              hints: RowFormatHints = .none) throws(RowFormatError) -> String {
        if format == .csv && columns == nil && comments { return csv }
        var blocks = parse(csv)
        if let columns { try check(columns, in: blocks) }
        switch format {
        case .csv, .json:
            if let columns { blocks = select(columns, from: blocks) }
            return format == .csv ? csvText(blocks, comments: comments) : jsonText(blocks)
        case .table, .markdown:
            // The view's cells come from every column (a rate's bounds, an estimate's standard error, a count), then
            // the selection picks the cells.
            let views = blocks.map { block -> Block in
                let (header, rows) = humanCells(block, hints: hints, keeping: Set(columns ?? []))
                return Block(comments: block.comments, header: header, rows: rows)
            }
            let selected = columns.map { select($0, from: views) } ?? views
            return format == .table ? tableText(selected, comments: comments, hints: hints)
                : markdownText(selected, comments: comments, hints: hints)
        }
    }

    /// The blocks of a CSV document: a blank line (after rows) ends a block; `#` lines before a header are the
    /// block's comments; a record whose quotes span lines is joined back.
    public static func parse(_ csv: String) -> [Block] {
        var blocks: [Block] = []
        var current = Block(comments: [], header: [], rows: [])
        var pending: String? = nil
        func close() {
            if !current.header.isEmpty || !current.comments.isEmpty { blocks.append(current) }
            current = Block(comments: [], header: [], rows: [])
        }
        for line in csv.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            var line = line.hasSuffix("\r") ? String(line.dropLast()) : line
            if let head = pending { line = head + "\n" + line; pending = nil }
            if line.isEmpty {
                if !current.header.isEmpty { close() }
                continue
            }
            if line.hasPrefix("#") {
                // A comment after a header starts the next block (gnuplot reads it as one).
                if !current.header.isEmpty { close() }
                current.comments.append(line.hasPrefix("# ") ? String(line.dropFirst(2)) : String(line.dropFirst()))
                continue
            }
            guard let fields = CSV.splitRecord(line) else { pending = line; continue }
            if current.header.isEmpty { current.header = fields } else { current.rows.append(fields) }
        }
        close()
        return blocks
    }

    /// Refuses a column no block has (with the closest known names) and a column named twice.
    static func check(_ columns: [String], in blocks: [Block]) throws(RowFormatError) {
        let known = blocks.flatMap(\.header)
        for name in columns where !known.contains(name) {
            var seen: Set<String> = []
            let unique = known.filter { seen.insert($0).inserted }
            throw RowFormatError(message: "--columns: no column '\(name)'" + Suggestions.didYouMean(name, among: unique)
                                 + "; columns: " + unique.joined(separator: ", "))
        }
        var seen: Set<String> = []
        for name in columns where !seen.insert(name).inserted {
            throw RowFormatError(message: "--columns: '\(name)' is named twice; name each column once")
        }
    }

    /// Each block reduced to the named columns that it has, in the given order.
    static func select(_ columns: [String], from blocks: [Block]) -> [Block] {
        blocks.map { block in
            let indices = columns.compactMap { block.header.firstIndex(of: $0) }
            return Block(comments: block.comments, header: indices.map { block.header[$0] },
                         rows: block.rows.map { row in indices.map { $0 < row.count ? row[$0] : "" } })
        }
    }

    // MARK: csv

    static func csvText(_ blocks: [Block], comments: Bool) -> String {
        blocks.enumerated().map { index, block in
            var text = index == 0 ? "" : "\n\n"
            if comments { text += block.comments.map { "# \($0)\n" }.joined() }
            guard !block.header.isEmpty else { return text }
            text += block.header.map(CSV.field).joined(separator: ",") + "\n"
            for row in block.rows { text += row.map(CSV.field).joined(separator: ",") + "\n" }
            return text
        }.joined()
    }

    // MARK: table and markdown

    /// A block's cells for people: a rate with `_lo`/`_hi` columns (or a count to derive its Wilson interval from)
    /// becomes one cell `rate [lo, hi]`, an estimate with an `_se` column `estimate ± se`; the bound and `_se`
    /// columns then disappear unless they were asked for without their value.
    static func humanCells(_ block: Block, hints: RowFormatHints, keeping requested: Set<String> = [])
        -> (header: [String], rows: [[String]]) {
        let header = block.header
        func index(_ name: String) -> Int? { header.firstIndex(of: name) }
        var absorbed: Set<Int> = []
        for name in header {
            if let lo = index(name + "_lo"), let hi = index(name + "_hi") { absorbed.formUnion([lo, hi]) }
            if let se = index(name + "_se") { absorbed.insert(se) }
        }
        let kept = header.indices.filter { !absorbed.contains($0) || requested.contains(header[$0]) }
        let rows = block.rows.map { row -> [String] in
            func field(_ i: Int?) -> String? { i.flatMap { $0 < row.count ? row[$0] : nil } }
            return kept.map { i in
                let name = header[i]
                let value = field(i) ?? ""
                if let lo = field(index(name + "_lo")), let hi = field(index(name + "_hi")) {
                    return NumberText.withInterval(value, lo, hi)
                }
                if let se = field(index(name + "_se")) { return NumberText.withError(value, se) }
                if let countName = hints.rateDenominators[name], let count = field(index(countName)),
                   let rate = Double(value), rate.isFinite, let n = Int(count), n > 0 {
                    let proportion = Proportion(successes: Int((rate * Double(n)).rounded()), trials: n)
                    if let ci = proportion.wilson95 { return NumberText.withInterval(value, "\(ci.lower)", "\(ci.upper)") }
                }
                return value
            }
        }
        return (kept.map { header[$0] }, rows)
    }

    static func tableText(_ blocks: [Block], comments: Bool, hints: RowFormatHints) -> String {
        blocks.enumerated().map { index, block in
            var text = index == 0 ? "" : "\n"
            if comments { text += block.comments.map { "# \($0)\n" }.joined() }
            guard !block.header.isEmpty else { return text }
            let (header, rows) = (block.header, block.rows)
            if rows.count == 1 {
                let lines = zip(header, rows[0]).map { name, value in [name, value + unitSuffix(hints.units[name], value)] }
                text += aligned(lines, rightAligned: [])
            } else {
                let numeric = header.indices.filter { column in rows.allSatisfy { NumberText.looksNumeric($0[column]) } }
                text += aligned([header] + rows, rightAligned: Set(numeric))
            }
            return text
        }.joined()
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

    static func markdownText(_ blocks: [Block], comments: Bool, hints: RowFormatHints) -> String {
        func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
        return blocks.enumerated().map { index, block in
            var text = index == 0 ? "" : "\n"
            if comments && !block.comments.isEmpty {
                text += "<!--\n" + block.comments.map { $0.replacingOccurrences(of: "-->", with: "-- >") + "\n" }.joined() + "-->\n"
            }
            guard !block.header.isEmpty else { return text }
            let (header, rows) = (block.header, block.rows)
            if rows.count == 1 {
                text += "| column | value |\n|---|---:|\n"
                for (name, value) in zip(header, rows[0]) {
                    text += "| `\(cell(name))` | \(cell(value + unitSuffix(hints.units[name], value))) |\n"
                }
            } else {
                let numeric = header.indices.filter { column in rows.allSatisfy { NumberText.looksNumeric($0[column]) } }
                text += "| " + header.map { "`\(cell($0))`" }.joined(separator: " | ") + " |\n"
                text += "|" + header.indices.map { numeric.contains($0) ? "---:|" : "---|" }.joined() + "\n"
                for row in rows { text += "| " + row.map(cell).joined(separator: " | ") + " |\n" }
            }
            return text
        }.joined()
    }

    // MARK: json

    /// JSON Lines: an object per row with the block's columns in order. A column whose every value is a number or
    /// `NaN` is written as numbers (`NaN` as null), one of `true`/`false` as booleans, anything else as strings. With
    /// several blocks each object starts with `"block": N` (gnuplot's index).
    static func jsonText(_ blocks: [Block]) -> String {
        let several = blocks.filter { !$0.header.isEmpty }.count > 1
        var text = ""
        for (blockIndex, block) in blocks.enumerated() where !block.header.isEmpty {
            let kinds = block.header.indices.map { column -> JSONKind in
                let values = block.rows.map { column < $0.count ? $0[column] : "" }
                if !values.isEmpty, values.allSatisfy({ $0 == "true" || $0 == "false" }) { return .boolean }
                // A column of NaN only is a number without data (no pulses: no peak pulse rate), so null too.
                if !values.isEmpty, values.allSatisfy({ $0 == "NaN" || NumberText.jsonNumber($0) != nil }) { return .number }
                return .string
            }
            for row in block.rows {
                var members: [String] = several ? ["\"block\":\(blockIndex)"] : []
                for (column, name) in block.header.enumerated() {
                    let value = column < row.count ? row[column] : ""
                    let encoded: String
                    switch kinds[column] {
                    case .boolean: encoded = value
                    case .number: encoded = NumberText.jsonNumber(value) ?? "null"
                    case .string: encoded = jsonString(value)
                    }
                    members.append(jsonString(name) + ":" + encoded)
                }
                text += "{" + members.joined(separator: ",") + "}\n"
            }
        }
        return text
    }

    enum JSONKind { case number, boolean, string }

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

/// Numbers as people read them: to the digits an interval or a standard error supports.
public enum NumberText {
    /// Whether a cell reads as a number (or NaN, or a number with an interval or error), for right alignment.
    static func looksNumeric(_ text: String) -> Bool {
        guard let first = text.split(separator: " ").first else { return false }
        return first == "NaN" || Double(first) != nil
    }

    /// A CSV number as a JSON number: finite decimal notation only (`NaN`, `inf` and hex are not numbers there).
    static func jsonNumber(_ text: String) -> String? {
        guard let value = Double(text), value.isFinite,
              text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }) else { return nil }
        var digits = text.hasPrefix("+") ? String(text.dropFirst()) : text
        // JSON wants a digit before and after a decimal point.
        if digits.hasPrefix(".") { digits = "0" + digits }
        if digits.hasPrefix("-.") { digits = "-0" + digits.dropFirst() }
        if digits.hasSuffix(".") { digits += "0" }
        digits = digits.replacingOccurrences(of: ".e", with: ".0e").replacingOccurrences(of: ".E", with: ".0E")
        // Nor leading zeros: `060` is 60.
        let sign = digits.hasPrefix("-") ? "-" : ""
        var body = Substring(digits.dropFirst(sign.count))
        while body.count > 1, body.first == "0", let next = body.dropFirst().first, next.isNumber { body = body.dropFirst() }
        return sign + body
    }

    /// Decimals that show an uncertainty `u` to one significant digit (0.006 → 3), at most 9.
    public static func decimals(forUncertainty u: Double) -> Int {
        guard u.isFinite, u > 0 else { return 6 }
        return min(9, max(0, -Int(floor(log10(u)))))
    }

    /// `0.912 [0.906, 0.918]`: the value and its interval to the decimals of the interval's half-width (one
    /// significant digit), or as given when the bounds are not numbers or the interval has no width (a constant
    /// mean, `1000.000 [1000.000, 1000.000]`: no digit is uncertain, so the CSV's own decimals stand).
    public static func withInterval(_ value: String, _ lower: String, _ upper: String) -> String {
        guard let v = Double(value), v.isFinite, let lo = Double(lower), let hi = Double(upper), lo.isFinite, hi.isFinite
        else { return value == "NaN" ? "NaN" : "\(value) [\(lower), \(upper)]" }
        guard hi > lo else { return "\(value) [\(lower), \(upper)]" }
        let d = decimals(forUncertainty: (hi - lo) / 2)
        return "\(CSV.number(v, decimals: d)) [\(CSV.number(lo, decimals: d)), \(CSV.number(hi, decimals: d))]"
    }

    /// `0.4821 ± 0.0035`: the estimate to the decimals of two significant digits of its standard error, or as given
    /// when the error is not a number.
    public static func withError(_ value: String, _ error: String) -> String {
        guard let v = Double(value), v.isFinite else { return value }
        guard let se = Double(error), se.isFinite, se > 0 else { return value }
        let d = min(9, decimals(forUncertainty: se) + 1)
        if abs(v) >= 1e6 || abs(v) < 1e-4 && v != 0 {
            return String(format: "%.2e ± %.2g", v, se)
        }
        return "\(CSV.number(v, decimals: d)) ± \(CSV.number(se, decimals: d))"
    }
}
