import Foundation

/// The name of a profile or a population: the first cell of every row it labels, and how the library finds its file
/// (`NAME.yaml`). One rule for both, and for the files `tune --emit-profile` and `fit --emit-population` write.
public enum LibraryName {
    /// Whether `name` can name a profile or a population: letters, digits, `-` and `_`. No separator, quote, `#` or
    /// line break: a row's first cell stays one cell that gnuplot does not skip as a comment.
    public static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
    }

    /// A valid name as a YAML scalar: as is, which keeps every hash, unless YAML would not read it back as that text
    /// (`-` alone is a sequence entry; `~` and `null` are null), then double-quoted (a valid name needs no escapes).
    public static func yamlScalar(_ name: String) -> String {
        needsQuotes(name) ? "\"\(name)\"" : name
    }

    /// Whether YAML would read `text` as written plain as something else than that text.
    static func needsQuotes(_ text: String) -> Bool {
        ["-", "~", "null", "Null", "NULL"].contains(text) || text.isEmpty
    }

    /// What a `name:` must be, for its error.
    public static func rule(_ name: String) -> String { "must be letters, digits, - and _ (got '\(name)')" }

    /// The name the library finds a file at `path` by: its last component without the extension (`.yaml`).
    public static func stem(ofFile path: String) -> String {
        ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    /// The name of a profile or population written to `path`: its stem when that is a valid name; nil otherwise,
    /// and for standard output (`-`), which the caller names.
    public static func ofFile(_ path: String) -> String? {
        guard path != "-" else { return nil }
        let stem = stem(ofFile: path)
        // `-` names standard input wherever a profile or population is named: a file `-.yaml` is not found by it.
        return isValid(stem) && stem != "-" ? stem : nil
    }
}
