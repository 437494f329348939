import Foundation
import HoldLabIO

/// Expected outputs kept as files: `Golden/NAME` beside a test file.
public enum Golden {
    /// The package root (two levels above this file's folder).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The text of `Golden/name` in the folder of `testFile` (the calling test's file).
    public static func text(_ name: String, testFile: String = #filePath) throws -> String {
        let url = URL(fileURLWithPath: testFile).deletingLastPathComponent().appendingPathComponent("Golden")
            .appendingPathComponent(name)
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// An output and a golden file written by an earlier version, each with the provenance that names a version
    /// or a generator normalised: the `# holdlab:` line's version, `--rng mt19937` on the `# command:` line and
    /// the `# rng:` line (0.3.0 added it). Every other line, the data rows above all, is kept as it is.
    public static func comparable(_ text: String) -> String {
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# rng: ") { continue }
            if line.hasPrefix("# holdlab: ") {
                let words = line.split(separator: " ", maxSplits: 3)
                lines.append(words.count > 3 ? "# holdlab: VERSION \(words[3])" : "# holdlab: VERSION")
                continue
            }
            lines.append(line.hasPrefix("# command: ") ? line.replacingOccurrences(of: " --rng mt19937", with: "") : String(line))
        }
        return lines.joined(separator: "\n")
    }

    /// `text` with the package root taken out of its paths: goldens are written from the root with relative paths,
    /// tests read files by absolute ones.
    public static func relative(_ text: String) -> String {
        text.replacingOccurrences(of: packageRoot.path + "/", with: "")
    }
}

/// The JSON types of a result's columns as a reader sees them: each JSON Lines object decoded by `JSONDecoder`
/// (which also proves every line is valid JSON: `007` written as a number would not decode).
public enum JSONTypes {
    /// A JSON value's type.
    public enum Kind: String, Sendable, Hashable, CustomStringConvertible {
        case string, number, boolean, null
        public var description: String { rawValue }
    }

    private struct Value: Decodable {
        let kind: Kind

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                kind = .null
            } else if (try? container.decode(Bool.self)) != nil {
                kind = .boolean
            } else if (try? container.decode(Double.self)) != nil {
                kind = .number
            } else {
                _ = try container.decode(String.self)
                kind = .string
            }
        }
    }

    /// Every type each column takes over the rows of `json` (JSON Lines), by column name.
    public static func of(json: String) throws -> [String: Set<Kind>] {
        var kinds: [String: Set<Kind>] = [:]
        for line in json.split(separator: "\n") {
            let object = try JSONDecoder().decode([String: Value].self, from: Data(line.utf8))
            for (name, value) in object { kinds[name, default: []].insert(value.kind) }
        }
        return kinds
    }

    /// `of(json:)` of `document` rendered as JSON.
    public static func of(_ document: ResultDocument) throws -> [String: Set<Kind>] {
        try of(json: document.rendered(as: .json))
    }
}
