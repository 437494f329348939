import Foundation

/// CSV conventions shared by every command (DOMAIN §11): comma separated, provenance on leading `#` lines that
/// gnuplot skips, one header row of snake_case names, `NaN` for a missing value.
public enum CSV {
    /// `# key: value` provenance lines.
    public static func provenance(_ entries: [(String, String)]) -> String {
        entries.map { "# \($0.0): \($0.1)\n" }.joined()
    }

    /// A number with a fixed count of decimals, `NaN` when absent or not finite, and no `-0.000`.
    public static func number(_ value: Double?, decimals: Int) -> String {
        guard let value, value.isFinite else { return "NaN" }
        let text = formatted(value, decimals: decimals)
        if text.hasPrefix("-"), text.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) { return String(text.dropFirst()) }
        return text
    }

    /// `%.Nf` exactly as the C library prints it (the binary value's exact decimal expansion, ties to even), by
    /// integer arithmetic for the values a CSV holds (|value| < 10¹⁵, up to 9 decimals) and `String(format:)`
    /// otherwise. Per-user rows format millions of numbers; Foundation's formatter costs microseconds each.
    static func formatted(_ value: Double, decimals: Int) -> String {
        guard decimals >= 0 && decimals <= 9, value.isFinite, abs(value) < 1e15 else {
            return String(format: "%.\(decimals)f", value)
        }
        let magnitude = abs(value)
        var digits: UInt128 = 0
        if magnitude != 0 {
            // magnitude = significand × 2^exponent exactly; scale by 10^decimals, then shift right rounding ties to even.
            let significand = UInt128(magnitude.significandBitPattern | (magnitude.isNormal ? 1 << 52 : 0))
            let exponent = (magnitude.isNormal ? Int(magnitude.exponent) : -1022) - 52
            var power: UInt128 = 1
            for _ in 0..<decimals { power *= 10 }
            let scaled = significand * power
            let shift = -exponent  // > 0: magnitude < 2^50
            if shift < 127 {
                digits = scaled >> shift
                let remainder = scaled & ((1 << shift) - 1)
                let half: UInt128 = 1 << (shift - 1)
                if remainder > half || (remainder == half && digits & 1 == 1) { digits += 1 }
            }
        }
        var text = value.sign == .minus ? "-" : ""
        if decimals == 0 { return text + String(digits) }
        var power: UInt128 = 1
        for _ in 0..<decimals { power *= 10 }
        text += String(digits / power)
        let fraction = String(digits % power)
        text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
        return text
    }

    /// A number with `significant` significant digits (`%g`), `NaN` when absent or not finite.
    public static func number(_ value: Double?, significant: Int) -> String {
        guard let value, value.isFinite else { return "NaN" }
        return String(format: "%.\(significant)g", value)
    }

    /// A field, quoted when it contains a comma, quote or newline.
    public static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The fields of one CSV record written by `field` (double-quoted fields with `""` inside); nil when a quote
    /// is left open (the record was cut off).
    public static func splitRecord(_ line: String) -> [String]? {
        var fields: [String] = []
        var current = ""
        var quoted = false
        var iterator = line.makeIterator()
        var pending: Character? = nil
        while let character = pending ?? iterator.next() {
            pending = nil
            if quoted {
                if character == "\"" {
                    if let next = iterator.next() {
                        if next == "\"" { current.append("\"") } else { quoted = false; pending = next }
                    } else {
                        quoted = false
                    }
                } else {
                    current.append(character)
                }
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if quoted { return nil }
        fields.append(current)
        return fields
    }

    /// The fields of a record (a record with an open quote counts as one field).
    public static func fields(_ line: String) -> [String] { splitRecord(line) ?? [line] }

    /// The command line as typed, each argument quoted for a POSIX shell when it needs it.
    public static func commandLine(_ arguments: [String]) -> String {
        arguments.map { argument in
            let safe = argument.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,+@%".contains($0) }
            return safe && !argument.isEmpty ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }
}
