/// A design review written as YAML: what `holdlab report`'s options give, in a file a team can keep beside its
/// profiles.
///
/// ```yaml
/// question: A 1.0 s linear fill, or a 0.6 s easeIn fill with the action at 0.8 s?
/// profiles: [hig-linear-bar]           # designs: profile names or YAML files (default hig-linear-bar)
/// set: {haptics.onComplete: true}      # --set values every design gets (optional)
/// variants:                            # labelled --set variants of the first profile
///   fast: {fill.curve: easeIn, fill.duration: 0.6, gesture.minimumDuration: 0.8}
/// populations: [default, motor-impaired]
/// baseline: hig-linear-bar             # a design's label (default: the first)
/// users: 20000
/// seed: 1
/// sweeps: ["fill.duration=0.6:1.4:0.2"] # key=values, as holdlab sweep --vary
/// prefer: completion_rate              # the decision rule: --prefer
/// guard: ["false_activation_rate<=+0.5pt"] # --guard (a text or a list; [] for none)
/// ```
///
/// Every key is optional; an unknown key, a wrong type or an invalid label is refused with the file, line and key
/// path. `arguments` is the equivalent command line, which is what the report records and re-runs.
public struct ReviewFile: Sendable, Equatable {
    /// A labelled variant of the first profile: its `key=value` texts, in file order.
    public struct Variant: Sendable, Equatable {
        public var label: String
        public var sets: [String]
        /// Each of `sets` with where the file writes it (`variants.LABEL.KEY`).
        public var located: [Located] = []
    }

    /// A text with where it is written, for errors found after loading (e.g. a sweep's values).
    public struct Located: Sendable, Equatable {
        public var text: String
        public var origin: Origin
        public var keyPath: String
    }

    public var question: String?
    public var profiles: [String] = []
    public var sets: [String] { setsLocated.map(\.text) }
    /// The `set` entries with where the file writes them (`set.KEY`).
    public var setsLocated: [Located] = []
    public var variants: [Variant] = []
    public var populations: [String] = []
    public var baseline: String?
    public var users: Int?
    public var seed: UInt64?
    public var sweeps: [Located] = []
    /// The decision rule: `--prefer`, and `--guard` (nil: the default guardrails; empty: none).
    public var prefer: Located?
    public var guards: [Located]?
    /// The keys the file writes, in file order (a key written empty, `sweeps: []` or `guard: []`, included): the
    /// options it gives (`ReviewFile.options`), which the command line may not give again.
    public var givenKeys: [String] = []

    /// Each key and the `holdlab report` option it gives.
    public static let options: [(key: String, option: String)] = [
        ("question", "--question"), ("profiles", "--profile"), ("set", "--set"), ("variants", "--variant"),
        ("populations", "--population"), ("baseline", "--baseline"), ("users", "--users"), ("seed", "--seed"),
        ("sweeps", "--sweep"), ("prefer", "--prefer"), ("guard", "--guard"),
    ]

    /// The options the file gives: those of the keys it writes.
    public var givenOptions: [String] {
        Self.options.filter { givenKeys.contains($0.key) }.map(\.option)
    }


    /// The most users a review may ask for (as `--users`).
    static let maximumUsers = 10_000_000_000

    /// Reads and checks a review file.
    public static func load(path: String) throws(ProfileError) -> ReviewFile {
        try parse(try ProfileLibrary.read(path, what: "review"), path: path)
    }

    /// Parses review YAML; `path` names it in errors.
    public static func parse(_ text: String, path: String) throws(ProfileError) -> ReviewFile {
        try decode(try ConfigNode.parse(text, path: path))
    }

    /// The keys a review may have (every one optional).
    public static let keys = ["question", "profiles", "set", "variants", "populations", "baseline", "users", "seed", "sweeps"]

    /// The review a YAML tree describes, checked.
    static func decode(_ root: ConfigNode) throws(ProfileError) -> ReviewFile {
        var reader = try MappingReader(root, keyPath: "")
        var review = ReviewFile()
        review.givenKeys = root.keys
        if let question = try reader.scalar("question") {
            guard !question.text.isEmpty else { throw ProfileError(origin: question.origin, keyPath: "question", message: "needs text") }
            review.question = question.text
        }
        review.profiles = try names(&reader, "profiles").map(\.text)
        review.setsLocated = try assignments(&reader, "set")
        if let node = reader.node("variants") {
            var variants = try MappingReader(node, keyPath: "variants")
            for label in node.keys {
                try checkLabel(label, origin: variants.origin(of: label), keyPath: variants.path(label))
                let sets = try assignments(&variants, label)
                review.variants.append(Variant(label: label, sets: sets.map(\.text), located: sets))
            }
            try variants.finish()
        }
        review.populations = try names(&reader, "populations").map(\.text)
        review.baseline = try reader.scalar("baseline")?.text
        if let users = try reader.scalar("users") {
            guard let value = Int(users.text.filter { $0 != "_" }), (1...maximumUsers).contains(value) else {
                throw ProfileError(origin: users.origin, keyPath: "users",
                                   message: "must be a whole number from 1 to 10000000000 (got '\(users.text)')")
            }
            review.users = value
        }
        if let seed = try reader.scalar("seed") {
            guard let value = UInt64(seed.text.filter { $0 != "_" }) else {
                throw ProfileError(origin: seed.origin, keyPath: "seed",
                                   message: "must be a whole number from 0 to \(UInt64.max) (got '\(seed.text)')")
            }
            review.seed = value
        }
        review.sweeps = try names(&reader, "sweeps")
        for sweep in review.sweeps where !sweep.text.contains("=") {
            throw ProfileError(origin: sweep.origin, keyPath: sweep.keyPath,
                               message: "a sweep is key=values, e.g. fill.duration=0.6:1.4:0.2 (got '\(sweep.text)')")
        }
        review.prefer = try reader.scalar("prefer").map { Located(text: $0.text, origin: $0.origin, keyPath: "prefer") }
        if let node = reader.node("guard") {
            if case .sequence(let items, _) = node, items.isEmpty { review.guards = [] } else { review.guards = try names(&reader, "guard") }
        }
        try reader.finish()
        return review
    }

    /// The equivalent `holdlab report` options (without `--out`).
    /// A value that begins with `-` (`question: "- which one?"`, a variant labelled `-fast`) is joined to its option
    /// (`--question=- which one?`), where a parser would take it for an option; every other value follows its option
    /// as before, so the command lines recorded from earlier files are unchanged.
    public var arguments: [String] {
        func option(_ name: String, _ value: String) -> [String] { value.hasPrefix("-") ? ["\(name)=\(value)"] : [name, value] }
        var arguments: [String] = []
        if let question { arguments += option("--question", question) }
        arguments += profiles.flatMap { option("--profile", $0) }
        arguments += sets.flatMap { option("--set", $0) }
        arguments += variants.flatMap { option("--variant", $0.label + "=" + $0.sets.joined(separator: " ")) }
        if !populations.isEmpty { arguments += option("--population", populations.joined(separator: ",")) }
        if let baseline { arguments += option("--baseline", baseline) }
        if let users { arguments += ["--users", "\(users)"] }
        if let seed { arguments += ["--seed", "\(seed)"] }
        arguments += sweeps.flatMap { option("--sweep", $0.text) }
        if let prefer { arguments += option("--prefer", prefer.text) }
        if let guards { arguments += guards.isEmpty ? ["--guard", "none"] : guards.flatMap { option("--guard", $0.text) } }
        return arguments
    }

    /// A design label, as `--variant` and a review's `variants` take it: letters, digits, '-', '_' and '.'.
    public static func isLabel(_ label: String) -> Bool {
        !label.isEmpty && label.allSatisfy { $0.isLetter || $0.isNumber || "-_.".contains($0) }
    }

    static func checkLabel(_ label: String, origin: Origin, keyPath: String) throws(ProfileError) {
        guard isLabel(label) else {
            throw ProfileError(origin: origin, keyPath: keyPath, message: "a variant label is letters, digits, '-', '_' and '.'")
        }
    }

    /// A name or a list of names (non-empty texts), each with where it is written.
    private static func names(_ reader: inout MappingReader, _ key: String) throws(ProfileError) -> [Located] {
        guard let node = reader.node(key) else { return [] }
        let items: [(node: ConfigNode, keyPath: String)]
        switch node {
        case .sequence(let list, _): items = list.enumerated().map { ($0.element, "\(key)[\($0.offset)]") }
        default: items = [(node, key)]
        }
        var result: [Located] = []
        for (item, keyPath) in items {
            guard case .scalar(let text, _, let origin) = item, !text.isEmpty else {
                throw ProfileError(origin: item.origin, keyPath: keyPath, message: "must be a name or a list of names (got \(item.kindName))")
            }
            result.append(Located(text: text, origin: origin, keyPath: keyPath))
        }
        return result
    }

    /// A mapping of key paths to single values, as `key=value` texts (`--set`); a value with spaces is quoted.
    private static func assignments(_ reader: inout MappingReader, _ key: String) throws(ProfileError) -> [Located] {
        guard let node = reader.node(key) else { return [] }
        var values = try MappingReader(node, keyPath: reader.path(key))
        var result: [Located] = []
        for name in node.keys {
            if let node = values.node(name), !node.isScalar {
                throw ProfileError(origin: node.origin, keyPath: values.path(name), message:
                    "must be a single value (got \(node.kindName)); write a distribution as quoted text, e.g. '{dist: constant, value: 0}'")
            }
            guard let value = try values.scalar(name) else { continue }
            guard !value.text.isEmpty else {
                throw ProfileError(origin: value.origin, keyPath: values.path(name), message: "needs a value")
            }
            let flow = value.text.first.map { "{[\"'".contains($0) } ?? false
            let text = !flow && value.text.contains(where: { $0 == " " || $0 == "\t" })
                ? "\"" + String(value.text.flatMap { $0 == "\"" ? ["\\", "\""] : [$0] }) + "\"" : value.text
            result.append(Located(text: name + "=" + text, origin: values.origin(of: name), keyPath: values.path(name)))
        }
        try values.finish()
        return result
    }
}

extension ConfigNode {
    var isScalar: Bool {
        if case .scalar = self { return true }
        return false
    }

    /// A mapping's keys in file order (none for other nodes).
    var keys: [String] {
        guard case .mapping(let pairs, _) = self else { return [] }
        return pairs.map(\.key)
    }
}
