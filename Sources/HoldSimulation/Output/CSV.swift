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
        let text = String(format: "%.\(decimals)f", value)
        if text.hasPrefix("-"), text.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) { return String(text.dropFirst()) }
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
