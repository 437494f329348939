import Yams
import HoldModel

/// A YAML value with the origin of every node, so errors can name a file and line after overrides are applied.
indirect enum ConfigNode: Sendable {
    case scalar(String, quoted: Bool, origin: Origin)
    case mapping([(key: String, value: ConfigNode)], origin: Origin)
    case sequence([ConfigNode], origin: Origin)

    var origin: Origin {
        switch self {
        case .scalar(_, _, let origin), .mapping(_, let origin), .sequence(_, let origin): origin
        }
    }

    /// The origin of the first value at or inside this node that came from the command line (`--set`), if any.
    var firstOverrideOrigin: Origin? {
        if origin.isOverride { return origin }
        switch self {
        case .scalar: return nil
        case .mapping(let pairs, _): return pairs.lazy.compactMap(\.value.firstOverrideOrigin).first
        case .sequence(let items, _): return items.lazy.compactMap(\.firstOverrideOrigin).first
        }
    }

    var kindName: String {
        switch self {
        case .scalar: "a scalar"
        case .mapping: "a mapping"
        case .sequence: "a list"
        }
    }

    /// The most nested lists and mappings a file may have (shipped profiles use 4).
    static let maximumDepth = 32
    /// The most items one list may hold (a mixture's components, a population's classes).
    static let maximumListItems = 1_000
    /// The most nodes (scalars, lists, mappings) a file may have (shipped profiles have about 60).
    static let maximumNodes = 20_000

    /// Parses YAML text; `path` names it in errors.
    ///
    /// Bounded: text over `ProfileLibrary.maximumYAMLBytes`, nesting deeper than `maximumDepth`, more than
    /// `maximumNodes` nodes or a list over `maximumListItems` items are refused, and so are anchors and aliases
    /// (`&a`, `*a`), which could otherwise expand ten lines into billions of nodes.
    static func parse(_ text: String, path: String) throws(ProfileError) -> ConfigNode {
        let parsed = try parseSettingDuplicatesAside(text, path: path)
        if let first = parsed.duplicates.first { throw first }
        return parsed.root
    }

    /// For a listing of every problem (`profiles check`): the tree with each key given twice set aside at its first
    /// place (its later value stands) and a problem for each, at its second place with its key path; or no tree and
    /// the one problem the text has when it does not compose otherwise.
    static func parseListingDuplicates(_ text: String, path: String) -> (root: ConfigNode?, problems: [ProfileError]) {
        do {
            let parsed = try parseSettingDuplicatesAside(text, path: path)
            return (parsed.root, parsed.duplicates)
        } catch {
            return (nil, [error])
        }
    }

    /// The one parse behind `parse` and `parseListingDuplicates`: the tree, with each key given twice renamed aside
    /// at its first place (the later value stands) and a problem for each, the first being what `parse` throws.
    /// A tree that does not convert when keys were given twice throws the first of those (the file's first problem).
    private static func parseSettingDuplicatesAside(_ text: String, path: String)
        throws(ProfileError) -> (root: ConfigNode, duplicates: [ProfileError]) {
        // A byte-order mark (some editors write one) is not part of the YAML.
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        try checkBounds(text, origin: { line, column in .file(path: path, line: line, column: column) })
        let node: Node?
        var duplicates: [ProfileError] = []
        // The parser owns the anchors its nodes point to (weakly): kept until the tree is converted, so that an
        // anchor or alias is found where the parser found it, never guessed from the text.
        var parser: Parser?
        defer { withExtendedLifetime(parser) {} }
        do {
            parser = try Parser(yaml: text)
            node = try parser?.singleRoot()
        } catch let error as YamlError {
            guard case .duplicatedKeysInMapping(let names, let context) = error, let name = names.first,
                  let composed = composeSettingDuplicatesAside(text, name: name, firstAt: context.mark) else {
                throw Self.describe(error, path: path)
            }
            node = composed.root
            parser = composed.parser
            duplicates = composed.found.map { $0.problem(path: path) }
        } catch {
            throw ProfileError(origin: .unknown(path: path), keyPath: "", message: "not valid YAML: \(error)")
        }
        guard let node else {
            throw ProfileError(origin: .file(path: path, line: 1, column: 1), keyPath: "", message: "the file is empty")
        }
        var budget = maximumNodes
        let root: ConfigNode
        do {
            root = try convert(node, path: path, keyPath: "", depth: 0, budget: &budget)
        } catch {
            throw duplicates.first ?? error
        }
        return (duplicates.isEmpty ? root : root.removingKeys(withPrefix: duplicatePlaceholder), duplicates)
    }

    /// Parses the value of a `--set key=value` as a YAML flow value.
    static func parseOverrideValue(_ text: String, override: String, keyPath: String = "") throws(ProfileError) -> ConfigNode {
        try checkBounds(text, origin: { _, _ in .override(override) })
        let node: Node?
        var parser: Parser?
        defer { withExtendedLifetime(parser) {} }
        do {
            parser = try Parser(yaml: text)
            node = try parser?.singleRoot()
        } catch YamlError.duplicatedKeysInMapping(let duplicates, let context) {
            // A flow mapping's key given twice (`{value: 0, value: 1}`): where in the value, with its key path.
            guard let name = duplicates.first, let found = locateDuplicate(name, firstAt: context.mark, in: text) else {
                throw ProfileError(origin: .override(override), keyPath: keyPath, message: "the value gives a key twice")
            }
            let path = keyPath.isEmpty ? found.keyPath : "\(keyPath).\(found.keyPath)"
            let at = context.mark.line == 1 && found.again.line == 1
                ? "at column \(found.again.column) of the value, first at column \(context.mark.column)"
                : "at line \(found.again.line), column \(found.again.column) of the value, first at line \(context.mark.line), column \(context.mark.column)"
            throw ProfileError(origin: .override(override), keyPath: path, message: "given twice (\(at)); give it once")
        } catch {
            throw ProfileError(origin: .override(override), keyPath: "", message: "the value is not valid YAML")
        }
        guard let node else { return .scalar("", quoted: false, origin: .override(override)) }
        var budget = maximumNodes
        return try convert(node, path: nil, keyPath: "", override: override, depth: 0, budget: &budget)
    }

    /// Refuses, before the YAML parser sees it, text that is too large or nests flow collections (`[[[[…`)
    /// deeper than `maximumDepth` (the composer recurses once per level). One pass over the text.
    ///
    /// Only brackets that open a flow collection count: inside one, or where a node starts (after `: `, `- `, `? `,
    /// or first on a line); not those in a plain scalar (`x{{{`), a quoted one, a comment, or a block scalar's
    /// lines (`|`, `>`). Anchors and aliases are found by the parser (`convert`), not here: `*` and `&` are text
    /// everywhere else (`fill 1.0 s, *not* 0.8 s`).
    static func checkBounds(_ text: String, origin: (Int, Int) -> Origin) throws(ProfileError) {
        if text.utf8.count > ProfileLibrary.maximumYAMLBytes {
            throw ProfileError(origin: origin(1, 1), keyPath: "",
                               message: "more than \(ProfileLibrary.maximumYAMLBytes) bytes of YAML; at most that is read")
        }
        let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), newline = UInt8(0x0A), carriageReturn = UInt8(0x0D)
        let dash = UInt8(ascii: "-")
        var depth = 0
        var line = 1
        var column = 0
        var quote: UInt8? = nil
        var comment = false
        var previous: UInt8 = newline
        // Whether a node may start here: at a line's start, after `- `, `: `, `? `, an opening bracket, or a comma
        // inside a flow collection. Any other byte outside quotes and comments is a plain scalar's.
        var atNodeStart = true
        // Where the line's node starts: its leading spaces and any `- ` entries before it.
        var lineIndent = 0
        var atLineStart = true
        // A block scalar (`key: |`) opened on a line whose node starts at n: its lines are those indented more, and
        // blank lines; `blockIndicator` is n when this line's `|` or `>` stood at a node start.
        var blockScalarIndent: Int? = nil
        var blockIndicator: Int? = nil
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            // A line of a block scalar is skipped whole; a line indented no more ends it.
            if atLineStart, column == 0, let indent = blockScalarIndent {
                var end = index
                while end < bytes.count, bytes[end] == space { end += 1 }
                let blank = end >= bytes.count || bytes[end] == newline || bytes[end] == carriageReturn
                if blank || end - index > indent {
                    while index < bytes.count, bytes[index] != newline { index += 1 }
                    if index < bytes.count { line += 1; index += 1; previous = newline }
                    continue
                }
                blockScalarIndent = nil
            }
            let byte = bytes[index]
            index += 1
            column += 1
            defer { previous = byte }
            let next = index < bytes.count ? bytes[index] : newline
            let nextIsBreak = next == space || next == tab || next == newline || next == carriageReturn
            if byte == newline {
                if let indicator = blockIndicator, quote == nil { blockScalarIndent = indicator }
                line += 1
                column = 0
                comment = false
                atNodeStart = true
                atLineStart = true
                lineIndent = 0
                blockIndicator = nil
                continue
            }
            let entryDash = atLineStart && byte == dash && nextIsBreak
            if atLineStart {
                if byte == space || entryDash { lineIndent += 1 } else { atLineStart = false }
            }
            if comment { continue }
            if let open = quote {
                if byte == open { quote = nil; atNodeStart = false }
                continue
            }
            if byte == space || byte == tab || byte == carriageReturn { continue }
            // `|` or `>` is followed on its line by indicators only (`-`, `+`, a digit) and a comment: anything
            // else means it was not a block scalar's.
            if blockIndicator != nil, byte != UInt8(ascii: "#"),
               !(byte == dash || byte == UInt8(ascii: "+") || (byte >= 0x31 && byte <= 0x39)) {
                blockIndicator = nil
            }
            let nodeMayStart = atNodeStart
            atNodeStart = false
            switch byte {
            case UInt8(ascii: "#") where previous == newline || previous == space || previous == tab:
                comment = true
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                if nodeMayStart { quote = byte }
            case dash:
                atNodeStart = entryDash
            case UInt8(ascii: ":"), UInt8(ascii: "?"):
                atNodeStart = nextIsBreak || (depth > 0 && (next == UInt8(ascii: ",") || next == UInt8(ascii: "]") || next == UInt8(ascii: "}")))
            case UInt8(ascii: ","):
                atNodeStart = depth > 0
            case UInt8(ascii: "|"), UInt8(ascii: ">"):
                // A block scalar's indicator, at a node start outside flow collections.
                if depth == 0 && nodeMayStart { blockIndicator = lineIndent }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                // A flow collection opens inside another or where a node starts; elsewhere it is a plain scalar's.
                guard depth > 0 || nodeMayStart else { break }
                depth += 1
                atNodeStart = true
                if depth > maximumDepth {
                    throw ProfileError(origin: origin(line, column), keyPath: "",
                                       message: "lists and mappings nested more than \(maximumDepth) deep")
                }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if depth > 0 { depth -= 1 }
            default:
                break
            }
        }
    }

    private static func convert(
        _ node: Node, path: String?, keyPath: String, override: String? = nil, depth: Int, budget: inout Int
    ) throws(ProfileError) -> ConfigNode {
        func origin(_ mark: Mark?) -> Origin {
            if let override { return .override(override) }
            guard let mark, let path else { return .unknown(path: path ?? "") }
            return .file(path: path, line: mark.line, column: mark.column)
        }
        let shownPath = keyPath.isEmpty ? "" : keyPath
        if let anchor = node.anchor {
            throw ProfileError(
                origin: origin(node.mark), keyPath: shownPath,
                message: "anchors and aliases (&\(anchor.rawValue), *\(anchor.rawValue)) are not supported; write the value out")
        }
        budget -= 1
        if budget < 0 {
            throw ProfileError(origin: origin(node.mark), keyPath: shownPath,
                               message: "more than \(maximumNodes) values (aliases expanded) in the file; at most that is read")
        }
        if depth > maximumDepth {
            throw ProfileError(origin: origin(node.mark), keyPath: shownPath,
                               message: "lists and mappings nested more than \(maximumDepth) deep")
        }
        switch node {
        case .scalar(let scalar):
            let quoted = scalar.style == .singleQuoted || scalar.style == .doubleQuoted
            return .scalar(scalar.string, quoted: quoted, origin: origin(scalar.mark))
        case .sequence(let sequence):
            if sequence.count > maximumListItems {
                throw ProfileError(origin: origin(sequence.mark), keyPath: shownPath,
                                   message: "a list of \(sequence.count) items; at most \(maximumListItems)")
            }
            var items: [ConfigNode] = []
            items.reserveCapacity(sequence.count)
            for (index, item) in sequence.enumerated() {
                items.append(try convert(item, path: path, keyPath: "\(keyPath)[\(index)]", override: override,
                                         depth: depth + 1, budget: &budget))
            }
            return .sequence(items, origin: origin(sequence.mark))
        case .mapping(let mapping):
            var pairs: [(key: String, value: ConfigNode)] = []
            var seen: Set<String> = []
            for (key, value) in mapping {
                guard case .scalar(let keyScalar) = key else {
                    throw ProfileError(origin: origin(key.mark), keyPath: keyPath, message: "keys must be plain names")
                }
                // An anchor on a key (`&k gesture: …`) is one too.
                if let anchor = key.anchor {
                    throw ProfileError(
                        origin: origin(key.mark), keyPath: keyPath,
                        message: "anchors and aliases (&\(anchor.rawValue), *\(anchor.rawValue)) are not supported; write the value out")
                }
                let name = keyScalar.string
                let childPath = keyPath.isEmpty ? name : "\(keyPath).\(name)"
                guard seen.insert(name).inserted else {
                    throw ProfileError(origin: origin(key.mark), keyPath: childPath, message: "appears twice")
                }
                pairs.append((name, try convert(value, path: path, keyPath: childPath, override: override,
                                                depth: depth + 1, budget: &budget)))
            }
            return .mapping(pairs, origin: origin(mapping.mark))
        case .alias(let alias):
            throw ProfileError(origin: origin(alias.mark), keyPath: keyPath,
                               message: "anchors and aliases (*\(alias.anchor.rawValue)) are not supported; write the value out")
        }
    }

    /// A key given twice in one mapping, reported where it is given again with its key path (`fill.curve`): the
    /// parser names only the key and its first place. The first occurrence's token is renamed and the text composed
    /// again, which finds the mapping (other keys given twice are renamed the same way until it composes); nil when
    /// that does not work (the caller reports the parser's words).
    private static func locateDuplicate(_ name: String, firstAt mark: Mark, in text: String) -> DuplicateKey? {
        guard let composed = composeSettingDuplicatesAside(text, name: name, firstAt: mark), let first = composed.found.first,
              first.first.line == mark.line, first.first.column == mark.column else { return nil }
        return first
    }

    /// A key given twice in one mapping: its key path, where it is given again and where first (line and column).
    struct DuplicateKey {
        let keyPath: String
        let again: (line: Int, column: Int)
        let first: (line: Int, column: Int)

        /// The problem, at the second place in the file `path`.
        func problem(path: String) -> ProfileError {
            ProfileError(origin: .file(path: path, line: again.line, column: again.column), keyPath: keyPath,
                         message: "given twice (first at line \(first.line), column \(first.column)); give it once")
        }
    }

    /// The prefix of the names a key given twice is renamed to at its first place.
    static let duplicatePlaceholder = "holdlab-duplicate-key-"

    /// The text composed with each key given twice renamed at its first place (`duplicatePlaceholder` and a number;
    /// the later value stands), starting with `name` at `mark`, and where each was given: its key path, its second
    /// place (the file's line and column) and its first. Nil when a token cannot be renamed or the text still does
    /// not compose.
    static func composeSettingDuplicatesAside(_ text: String, name: String, firstAt mark: Mark)
        -> (root: Node, found: [DuplicateKey], parser: Parser)? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array(String($0).unicodeScalars) }
        /// Renames the key token at `mark` (a quoted scalar to its closing quote, or the plain `key`); its line, first
        /// column and how many columns the line moved after it, or nil.
        func rename(_ key: String, at mark: Mark, to placeholder: String) -> (line: Int, start: Int, shift: Int)? {
            guard mark.line >= 1, mark.line <= lines.count, mark.column >= 1, mark.column <= lines[mark.line - 1].count else { return nil }
            let line = lines[mark.line - 1], start = mark.column - 1
            var end = start
            if line[start] == "'" || line[start] == "\"" {
                let quote = line[start]
                end = start + 1
                while end < line.count {
                    if line[end] == "\\", quote == "\"" { end += 2; continue }
                    if line[end] == quote {
                        if quote == "'", end + 1 < line.count, line[end + 1] == "'" { end += 2; continue }
                        break
                    }
                    end += 1
                }
                guard end < line.count else { return nil }
                end += 1
            } else {
                let scalars = Array(key.unicodeScalars)
                guard start + scalars.count <= line.count, Array(line[start..<start + scalars.count]) == scalars else { return nil }
                end = start + scalars.count
            }
            lines[mark.line - 1] = Array(line[..<start]) + Array(placeholder.unicodeScalars) + Array(line[end...])
            return (mark.line, mark.column, placeholder.unicodeScalars.count - (end - start))
        }
        // Each rename: its placeholder, the key, where it was first given (in the file), and how its line moved.
        var renames: [(placeholder: String, key: String, first: (line: Int, column: Int), line: Int, start: Int, shift: Int)] = []
        /// A column of the renamed text back in the file's: undo the renames of its line before it, last first.
        func fileColumn(_ column: Int, line: Int) -> Int {
            var column = column
            for renamed in renames.reversed() where renamed.line == line && column > renamed.start { column -= renamed.shift }
            return column
        }
        let stem = "\(duplicatePlaceholder)\(text.utf8.count)-"
        var next: (key: String, mark: Mark)? = (name, mark)
        var root: Node?
        var parser: Parser?
        for attempt in 0..<64 {
            guard let (key, at) = next else { break }
            let placeholder = stem + "\(attempt)"
            let first = (line: at.line, column: fileColumn(at.column, line: at.line))
            guard let renamed = rename(key, at: at, to: placeholder) else { return nil }
            renames.append((placeholder, key, first, renamed.line, renamed.start, renamed.shift))
            next = nil
            do {
                let attemptParser = try Parser(yaml: lines.map { String(String.UnicodeScalarView($0)) }.joined(separator: "\n"))
                root = try attemptParser.singleRoot()
                parser = attemptParser
            } catch YamlError.duplicatedKeysInMapping(let others, let context) {
                guard let other = others.first else { return nil }
                next = (other, context.mark)
            } catch {
                return nil
            }
        }
        guard let root, let parser else { return nil }

        func find(_ node: Node, _ keyPath: String, placeholder: String, key name: String) -> (keyPath: String, again: Mark)? {
            switch node {
            case .mapping(let mapping):
                if mapping.contains(where: { $0.key.string == placeholder }) {
                    guard let again = mapping.first(where: { $0.key.string == name })?.key.mark else { return nil }
                    return (keyPath.isEmpty ? name : "\(keyPath).\(name)", again)
                }
                for (key, value) in mapping {
                    let child = keyPath.isEmpty ? (key.string ?? "") : "\(keyPath).\(key.string ?? "")"
                    if let found = find(value, child, placeholder: placeholder, key: name) { return found }
                }
            case .sequence(let sequence):
                for (index, item) in sequence.enumerated() {
                    if let found = find(item, "\(keyPath)[\(index)]", placeholder: placeholder, key: name) { return found }
                }
            default:
                break
            }
            return nil
        }
        var found: [DuplicateKey] = []
        for renamed in renames {
            guard let where_ = find(root, "", placeholder: renamed.placeholder, key: renamed.key) else { return nil }
            found.append(DuplicateKey(
                keyPath: where_.keyPath, again: (where_.again.line, fileColumn(where_.again.column, line: where_.again.line)),
                first: renamed.first))
        }
        return (root, found, parser)
    }

    /// The tree without the mapping keys that start with `prefix`, at any depth.
    func removingKeys(withPrefix prefix: String) -> ConfigNode {
        switch self {
        case .mapping(let pairs, let origin):
            return .mapping(pairs.filter { !$0.key.hasPrefix(prefix) }.map { ($0.key, $0.value.removingKeys(withPrefix: prefix)) }, origin: origin)
        case .sequence(let items, let origin):
            return .sequence(items.map { $0.removingKeys(withPrefix: prefix) }, origin: origin)
        case .scalar:
            return self
        }
    }

    private static func describe(_ error: YamlError, path: String) -> ProfileError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
             .composer(_, let problem, let mark, _):
            return ProfileError(
                origin: .file(path: path, line: mark.line, column: mark.column), keyPath: "",
                message: "not valid YAML: \(problem)")
        case .reader(let problem, let offset, _, let yaml):
            let prefix = yaml.utf8.prefix(offset ?? 0)
            let line = 1 + prefix.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            let column = 1 + prefix.reversed().prefix { $0 != 0x0A }.count
            return ProfileError(origin: .file(path: path, line: line, column: column), keyPath: "",
                                message: "not valid YAML: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.sorted().map { "'\($0)'" }.joined(separator: ", ")
            return ProfileError(
                origin: .file(path: path, line: context.mark.line, column: context.mark.column), keyPath: "",
                message: "a mapping has the key \(keys) twice")
        default:
            return ProfileError(origin: .unknown(path: path), keyPath: "", message: "not valid YAML: \(error)")
        }
    }

    /// Sets `value` at a dotted key path, creating mappings on the way.
    func setting(_ path: ArraySlice<String>, to value: ConfigNode, override: String) throws(ProfileError) -> ConfigNode {
        guard let head = path.first else { return value }
        guard case .mapping(var pairs, let origin) = self else {
            throw ProfileError(
                origin: .override(override), keyPath: "",
                message: "cannot set a key inside \(kindName) (at \(self.origin))")
        }
        let rest = path.dropFirst()
        if let index = pairs.firstIndex(where: { $0.key == head }) {
            pairs[index].value = try pairs[index].value.setting(rest, to: value, override: override)
        } else {
            let empty = ConfigNode.mapping([], origin: .override(override))
            pairs.append((head, try empty.setting(rest, to: value, override: override)))
        }
        return .mapping(pairs, origin: origin)
    }

    /// The keys whose value decides which keys beside them are read, with their defaults: a `--set` that changes
    /// one leaves the file's keys it no longer reads moot (`MappingReader.refuseWithoutEffect`).
    static let switches: [String: String] = [
        "fill.model": "animation", "retract.mode": "animation", "gesture.movementCancels": "always",
        "fill.curve": "linear", "retract.curve": "easeOut",
    ]

    /// This tree with one `--set` applied: its value parsed as a YAML flow value and set at its key path. The one
    /// place an override meets a profile's tree (loading, `Profile.applying`, `profiles check`).
    ///
    /// A `--set` of a deciding key (`switches`) to the value the file already has, or to the default the file
    /// leaves it at, however spelt (`spring(0.3, 0)` for `spring(0.3,0)`), changes nothing and switches nothing:
    /// it is not applied, so the file's keys without effect stay refused at their lines (`--set fill.model=none` on
    /// a file of `model: none, delay: 0.3`). Any other key takes the `--set`'s origin whatever its value, so a key
    /// without effect given on the command line is refused as the command line's (a problem the file has at that
    /// key with the same value stays the file's: `ProfileError.filesOwn`).
    func applying(_ override: Override) throws(ProfileError) -> ConfigNode {
        let value = try ConfigNode.parseOverrideValue(override.value, override: override.text, keyPath: override.keyPath)
        if let fallback = Self.switches[override.keyPath], case .scalar(let new, _, _) = value {
            var current: String? = fallback
            if let written = node(atKeyPath: override.keyPath) {
                current = nil
                if case .scalar(let text, _, let origin) = written, !origin.isOverride { current = text }
            }
            if let current, Self.sameValue(current, new) { return self }
        }
        return try setting(override.keyPath.split(separator: ".").map(String.init)[...], to: value, override: override.text)
    }

    /// This tree with the values the `--set`s `texts` gave taken as the file's own: a key one of them gives that a
    /// later value leaves without effect is then accepted, as a file's is, rather than refused as the command
    /// line's (`Profile.applying(_:settingAside:)`).
    func settingAside(_ texts: Set<String>) -> ConfigNode {
        func own(_ origin: Origin) -> Origin {
            if case .override(let text) = origin, texts.contains(text) { return .unknown(path: "--set \(text)") }
            return origin
        }
        switch self {
        case .scalar(let text, let quoted, let origin): return .scalar(text, quoted: quoted, origin: own(origin))
        case .mapping(let pairs, let origin):
            return .mapping(pairs.map { (key: $0.key, value: $0.value.settingAside(texts)) }, origin: own(origin))
        case .sequence(let items, let origin): return .sequence(items.map { $0.settingAside(texts) }, origin: own(origin))
        }
    }

    /// The scalar a document's text writes at a key path (nil: none, or not a scalar, or no document).
    static func writtenScalar(_ text: String, path: String, at keyPath: String) -> String? {
        guard let root = try? parse(text, path: path), case .scalar(let value, _, _)? = root.node(atKeyPath: keyPath) else {
            return nil
        }
        return value
    }

    /// Whether two texts of a key say the same: equal, the same number, or the same timing curve however spelt.
    static func sameValue(_ a: String, _ b: String) -> Bool {
        let (a, b) = (a.trimmingWhitespace(), b.trimmingWhitespace())
        if a == b { return true }
        if let x = Double(a), let y = Double(b) { return x == y }
        guard let x = try? TimingCurve(parsing: a), let y = try? TimingCurve(parsing: b) else { return false }
        return x == y
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
        while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
        return String(slice)
    }
}
