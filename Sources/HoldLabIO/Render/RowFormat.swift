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

/// Numbers as people read them: to the digits an interval or a standard error supports.
public enum NumberText {
    /// Whether a cell reads as a number (or NaN, or a number with an interval or error), for right alignment.
    static func looksNumeric(_ text: String) -> Bool {
        guard let first = text.split(separator: " ").first else { return false }
        return first == "NaN" || Double(first) != nil
    }

    /// A CSV number as a JSON number: finite decimal notation only (`NaN`, `inf` and hex are not numbers there).
    public static func jsonNumber(_ text: String) -> String? {
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
        // A negative number that rounds to 0 keeps its sign: an interval that excludes 0 must not read as reaching it
        // (`-0.004 [-0.008, -0.000]`, not `[-0.008, 0.000]`).
        func number(_ x: Double) -> String { x < 0 ? CSV.formatted(x, decimals: d) : CSV.number(x, decimals: d) }
        return "\(number(v)) [\(number(lo)), \(number(hi))]"
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
