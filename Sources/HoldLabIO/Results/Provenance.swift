/// What an output was made from, written as its leading `# key: value` lines (gnuplot, DuckDB and pandas with
/// `comment="#"` skip them): the tool and version, the command line, the inputs with their hashes, users and seed.
///
/// One type for every file: the entries are kept in order, and any control character in a value (a newline in a
/// `--question`, a tab in a label) is escaped (`\n`, `\r`, `\t`, `\x1b`), so a provenance line is always one line
/// and can never turn the rest of a CSV into something else.
public struct Provenance: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var key: String
        public var value: String

        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }

        /// A provenance line read back: `# key: value` split at the first colon, the spaces after it dropped; nil
        /// for a line that is not one (no `# `, no colon).
        public init?(line: Substring) {
            guard line.hasPrefix("# ") else { return nil }
            let body = line.dropFirst(2)
            guard let colon = body.firstIndex(of: ":") else { return nil }
            self.init(String(body[..<colon]), String(body[body.index(after: colon)...].drop { $0 == " " }))
        }
    }

    public var entries: [Entry]

    public init(_ entries: [Entry] = []) { self.entries = entries }

    /// From `(key, value)` pairs, in order.
    public init(_ pairs: [(String, String)]) { entries = pairs.map { Entry($0.0, $0.1) } }

    /// The `# key: value` lines that open `text` (a CSV), values as written (escaped as `escaped` escapes them).
    public static func leadingEntries(of text: String) -> [Entry] {
        var entries: [Entry] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("# ") else { break }
            if let entry = Entry(line: line) { entries.append(entry) }
        }
        return entries
    }

    /// The first two lines of every output: `holdlab: VERSION COMMAND` and `command: LINE`.
    public static func made(by command: String, commandLine: String) -> Provenance {
        Provenance([Entry("holdlab", "\(HoldLabVersion.current) \(command)"), Entry("command", commandLine)])
    }

    public mutating func append(_ key: String, _ value: String) { entries.append(Entry(key, value)) }

    public mutating func append(contentsOf other: Provenance) { entries += other.entries }

    public static func + (lhs: Provenance, rhs: Provenance) -> Provenance { Provenance(lhs.entries + rhs.entries) }

    /// The value of the first entry with `key`.
    public func value(of key: String) -> String? { entries.first { $0.key == key }?.value }

    /// The `# key: value` lines, each ending in a newline.
    public var lines: String {
        entries.map { "# \(Self.escaped($0.key)): \(Self.escaped($0.value))\n" }.joined()
    }

    /// The lines' texts without `# ` (for Markdown's HTML comment).
    public var texts: [String] { entries.map { "\(Self.escaped($0.key)): \(Self.escaped($0.value))" } }

    /// `text` with every control character escaped: `\n`, `\r`, `\t`, else `\xHH` (a backslash itself is kept).
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where isControl(scalar):
                let hex = String(scalar.value, radix: 16)
                out += "\\x" + (hex.count < 2 ? "0" + hex : hex)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// C0 controls, DEL and the C1 controls (U+0080–U+009F), and the Unicode line and paragraph separators.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
