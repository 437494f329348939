import HoldModel

/// Key paths that set the same value: equal, or one inside the other (`gesture` and `gesture.minimumDuration`).
/// Given together, whichever is applied last would silently win, so every `--set`, `--vary`, `--param`, variant
/// and review entry refuses them as it refuses a key given twice.
public enum KeyPaths {
    public static func overlap(_ a: String, _ b: String) -> Bool {
        a == b || a.hasPrefix(b + ".") || b.hasPrefix(a + ".")
    }

    /// The first pair of `keys` that overlap (the earlier first), if any.
    public static func firstOverlap(_ keys: [String]) -> (String, String)? {
        for (index, key) in keys.enumerated() {
            if let earlier = keys[..<index].first(where: { overlap($0, key) }) { return (earlier, key) }
        }
        return nil
    }

    /// `gesture.minimumDuration is given twice` or `gesture and gesture.minimumDuration both set
    /// gesture.minimumDuration`, naming `option` with each.
    public static func twice(_ pair: (String, String), option: String, otherOption: String? = nil) -> String {
        let other = otherOption ?? option
        if pair.0 == pair.1 { return "\(option) \(pair.0) is given twice" }
        let inner = pair.0.count > pair.1.count ? pair.0 : pair.1
        return "\(option) \(pair.0) and \(other) \(pair.1) both set \(inner)"
    }
}

/// One `--set key.path=value` from the command line.
public struct Override: Sendable, Equatable {
    public let keyPath: String
    public let value: String
    /// The text as typed, for error messages.
    public let text: String

    /// The key path of a `key.path=value` text as `init(parsing:)` reads it (what precedes the first `=`, trimmed),
    /// without checking it: to tell which key a `--set`, `--vary` or `--param` text names.
    public static func keyPath(of text: String) -> String {
        String(text.prefix { $0 != "=" }).trimmingWhitespace()
    }

    /// Parses `key.path=value`.
    public init(parsing text: String) throws(ProfileError) {
        guard let equals = text.firstIndex(of: "=") else {
            throw ProfileError(origin: .override(text), keyPath: "", message: "expected key.path=value")
        }
        let key = String(text[..<equals]).trimmingWhitespace()
        let parts = key.split(separator: ".", omittingEmptySubsequences: false)
        guard !key.isEmpty, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" } }) else {
            throw ProfileError(
                origin: .override(text), keyPath: "",
                message: "'\(key)' is not a key path; write names separated by dots, e.g. fill.timer.tick")
        }
        self.keyPath = key
        self.value = String(text[text.index(after: equals)...])
        self.text = text
    }

    /// `parsing`, for a value the user gives (`--set`, a variant, a review's `set`): `name` and `version` are
    /// refused. A profile's name is how the library finds it and how its rows are labelled (a renamed library
    /// profile is not its file's; two designs of one name are rows nobody can tell apart); the version is the file's
    /// schema.
    public init(userParsing text: String) throws(ProfileError) {
        try self.init(parsing: text)
        switch keyPath {
        case "name":
            throw ProfileError(origin: .override(text), keyPath: "", message:
                "a profile's name is how the library finds it and how its rows are labelled; it cannot be set (rename the file, or label designs with compare's or report's --variant LABEL=…)")
        case "version":
            throw ProfileError(origin: .override(text), keyPath: "", message: "version is the file's schema version; it cannot be set")
        default:
            break
        }
    }
}

extension Override {
    /// The one `--set` text that gives what `self` and then `later` give together, when their keys overlap: `later`
    /// itself where its key is this one's or encloses it (it replaces the whole value), else this value with
    /// `later`'s set inside it (`fill.timer={tick: 0.02, duration: 2.5}` then `fill.timer.duration=1.2` is
    /// `fill.timer={tick: 0.02, duration: 1.2}`), so that a fix for a key a `--set` already gives can be pasted in its
    /// place. Nil when the keys do not overlap, or when this value has no mapping where `later` sets a key inside it.
    public func merged(with later: Override) -> String? {
        guard KeyPaths.overlap(keyPath, later.keyPath) else { return nil }
        guard later.keyPath.hasPrefix(keyPath + ".") else { return later.text }
        let inner = later.keyPath.dropFirst(keyPath.count + 1).split(separator: ".").map(String.init)
        guard let value = try? ConfigNode.parseOverrideValue(self.value, override: text, keyPath: keyPath),
              case .mapping = value,
              let laterValue = try? ConfigNode.parseOverrideValue(later.value, override: later.text, keyPath: later.keyPath),
              let merged = try? value.setting(inner[...], to: laterValue, override: later.text)
        else { return nil }
        return "\(keyPath)=\(merged.flowText)"
    }
}

extension ConfigNode {
    /// The node as a YAML flow value that parses back to the same tree: mappings in braces, sequences in brackets,
    /// a scalar as it was written unless it was quoted or a flow indicator would end or nest it, then double-quoted.
    var flowText: String {
        switch self {
        case .mapping(let pairs, _):
            return "{" + pairs.map { "\(Self.flowScalar($0.key, quoted: false)): \($0.value.flowText)" }.joined(separator: ", ") + "}"
        case .sequence(let items, _):
            return "[" + items.map(\.flowText).joined(separator: ", ") + "]"
        case .scalar(let text, let quoted, _):
            return Self.flowScalar(text, quoted: quoted)
        }
    }

    private static func flowScalar(_ text: String, quoted: Bool) -> String {
        let plain = !quoted && !text.isEmpty && !text.contains(where: { ",[]{}#\"'\\\n".contains($0) })
            && !text.contains(": ") && !text.hasSuffix(":") && !["- ", "? ", ": "].contains(where: text.hasPrefix)
            && text != "-" && !" &*!|>%@`".contains(text.first!) && text.last != " "
        return plain ? text : Profile.quoted(text)
    }
}
