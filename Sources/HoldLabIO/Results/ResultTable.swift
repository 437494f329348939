/// A column of a result: its name (a plain snake_case CSV header), what kind of value it holds (which decides how
/// JSON writes it, whatever the text looks like), its unit and definition, and what it is to other columns.
public struct ResultColumn: Sendable, Equatable {
    /// What a column's cells are, for every format.
    public enum Kind: Sendable, Equatable {
        /// A name or label: a JSON string even when it looks like a number (`007`, `2024`, `NaN`).
        case text
        /// A whole number (a count, a seed).
        case integer
        /// A real number; a missing one is `NaN` in CSV, `null` in JSON.
        case number
        /// `true` or `false`.
        case boolean
    }

    /// How a column relates to another of the same row.
    public enum Role: Sendable, Equatable {
        case value
        /// The lower or upper bound of another column's 95 % interval (`completion_rate_lo`).
        case lowerBound(of: String)
        case upperBound(of: String)
        /// The standard error of another column (`zeta_se`).
        case standardError(of: String)
    }

    public var name: String
    public var kind: Kind
    /// `ms`, `Hz`, `count`, `0–1`, or empty: shown beside a single row's values in the table view.
    public var unit: String
    public var definition: String
    public var role: Role
    /// For a statistic over some of the people: the count column (of the same table) that counts them, so that a
    /// missing value in a row where that count is 0 is undefined (over nobody) rather than missing for a reason of
    /// its own (`undefinedValueNotes`). Bound columns take their value column's.
    public var over: String?
    /// For a statistic over only some of the people its `over` count counts: why it is undefined in a row where
    /// that count is not 0 (`no completed hold had a fill`), for the note that says so (`undefinedValueNotes`).
    /// Bound columns take their value column's.
    public var undefinedWhen: String?

    /// A column; without a `role`, one is read off the name as every HoldLab CSV names them: `X_lo` and `X_hi`
    /// bound column `X` and `X_se` is its standard error when the table has `X` (see `ResultTable.init`).
    public init(_ name: String, _ kind: Kind, unit: String = "", definition: String = "", role: Role? = nil,
                over: String? = nil, undefinedWhen: String? = nil) {
        self.name = name
        self.kind = kind
        self.unit = unit
        self.definition = definition
        self.role = role ?? .value
        self.over = over
        self.undefinedWhen = undefinedWhen
        explicitRole = role != nil
    }

    /// Whether the role was given rather than read off the name.
    var explicitRole: Bool
}

/// One value of a result, typed: what every format is rendered from. The CSV text of each is fixed here (the
/// bytes HoldLab has always written); JSON takes the value's type from its column.
public enum ResultCell: Sendable, Equatable {
    case text(String)
    case integer(Int)
    case unsigned(UInt64)
    /// A number with a fixed count of decimals (`%.Nf`); nil is `NaN`.
    case number(Double?, decimals: Int)
    /// A number with a count of significant digits (`%.Ng`); nil is `NaN`.
    case significant(Double?, digits: Int)
    /// A rate kept as its counts: written as successes / trials with `decimals` decimals (`NaN` without trials);
    /// the table view gives it the Wilson interval of the counts themselves.
    case proportion(Proportion, decimals: Int)
    case boolean(Bool)
    /// A number whose CSV text is written as given (a format no other case has), with its value for JSON.
    case formatted(String, value: Double?)

    /// The cell's CSV field.
    public var csvText: String {
        switch self {
        case .text(let text): return CSV.field(text)
        case .integer(let value): return String(value)
        case .unsigned(let value): return String(value)
        case .number(let value, let decimals): return CSV.number(value, decimals: decimals)
        case .significant(let value, let digits): return CSV.number(value, significant: digits)
        case .proportion(let proportion, let decimals): return CSV.number(proportion.rate, decimals: decimals)
        case .boolean(let value): return value ? "true" : "false"
        case .formatted(let text, _): return text
        }
    }

    /// The cell's text as it reads before CSV quoting (a text cell unquoted).
    public var plainText: String {
        if case .text(let text) = self { return text }
        return csvText
    }

    /// The value as a number, when it is one (nil for text, booleans and missing numbers).
    public var numericValue: Double? {
        switch self {
        case .text, .boolean: return nil
        case .integer(let value): return Double(value)
        case .unsigned(let value): return Double(value)
        case .number(let value, _), .significant(let value, _): return value.flatMap { $0.isFinite ? $0 : nil }
        case .proportion(let proportion, _): return proportion.rate
        case .formatted(_, let value): return value.flatMap { $0.isFinite ? $0 : nil }
        }
    }

    /// Whether the cell is a missing value (written `NaN`).
    public var isMissing: Bool {
        switch self {
        case .number(let value, _), .significant(let value, _): return !(value?.isFinite ?? false)
        case .proportion(let proportion, _): return proportion.rate == nil
        case .formatted(let text, let value): return text == "NaN" || (value.map { !$0.isFinite } ?? false)
        default: return false
        }
    }
}

/// One block of a result: its provenance (the `#` lines before its header), its columns and its rows. A result
/// with several blocks is written as gnuplot's `index` blocks, two blank lines apart (`tune`).
public struct ResultTable: Sendable, Equatable {
    public var provenance: Provenance
    public var columns: [ResultColumn]
    public var rows: [[ResultCell]]

    public init(provenance: Provenance = Provenance(), columns: [ResultColumn], rows: [[ResultCell]] = []) {
        self.provenance = provenance
        self.columns = columns.map { column in
            guard !column.explicitRole else { return column }
            var column = column
            column.role = Self.role(ofName: column.name, among: columns.map(\.name))
            return column
        }
        self.rows = rows
    }

    /// The role a name gives a column among `names`: `X_lo`/`X_hi` when both exist with `X`, `X_se` with `X`.
    static func role(ofName name: String, among names: [String]) -> ResultColumn.Role {
        for (suffix, partner) in [("_lo", "_hi"), ("_hi", "_lo")] where name.hasSuffix(suffix) {
            let base = String(name.dropLast(3))
            if names.contains(base) && names.contains(base + partner) {
                return suffix == "_lo" ? .lowerBound(of: base) : .upperBound(of: base)
            }
        }
        if name.hasSuffix("_se") {
            let base = String(name.dropLast(3))
            if names.contains(base) { return .standardError(of: base) }
        }
        return .value
    }

    /// The column names, in order.
    public var header: [String] { columns.map(\.name) }

    public func index(of name: String) -> Int? { columns.firstIndex { $0.name == name } }

    /// The block with only the named columns it has, in the given order.
    public func selecting(_ names: [String]) -> ResultTable {
        let indices = names.compactMap(index(of:))
        var table = self
        table.columns = indices.map { columns[$0] }
        table.rows = rows.map { row in indices.map { $0 < row.count ? row[$0] : .text("") } }
        return table
    }
}

/// Everything a command that writes rows returns: one or more blocks. Every format is rendered from it
/// (`RowFormat`), so the CSV, the table, Markdown and JSON cannot disagree, and nothing is parsed back from text.
public struct ResultDocument: Sendable, Equatable {
    public var tables: [ResultTable]

    public init(_ tables: [ResultTable]) { self.tables = tables }

    public init(_ table: ResultTable) { tables = [table] }

    /// Every column name of every block, without repeats, in order.
    public var columnNames: [String] {
        var seen: Set<String> = []
        return tables.flatMap(\.header).filter { seen.insert($0).inserted }
    }
}

extension ResultTable {
    /// A CSV record HoldLab wrote, read back as cells of `columns` (what `--resume` keeps of an earlier run): text
    /// columns as text, numbers with the text as written.
    public static func cells(parsing record: String, columns: [ResultColumn]) -> [ResultCell] {
        let fields = CSV.fields(record)
        return columns.indices.map { index in
            let field = index < fields.count ? fields[index] : ""
            switch columns[index].kind {
            case .text: return .text(field)
            case .boolean: return field == "true" || field == "false" ? .boolean(field == "true") : .text(field)
            case .integer, .number: return .formatted(CSV.field(field), value: Double(field))
            }
        }
    }
}
