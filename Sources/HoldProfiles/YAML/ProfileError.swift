import HoldModel

/// Where a value came from: a line of a file, or a `--set` on the command line.
public enum Origin: Sendable, Equatable, CustomStringConvertible {
    case file(path: String, line: Int, column: Int)
    case override(String)
    /// Several `--set`s together: a check across keys that the file passes and these values, applied together,
    /// break (`Profile.load`), in the order given.
    case overrides([String])
    case unknown(path: String)

    public var description: String {
        switch self {
        case .file(let path, let line, let column): "\(path):\(line):\(column)"
        case .override(let text): "--set \(text)"
        case .overrides(let texts): texts.map { "--set \($0)" }.joined(separator: " ")
        case .unknown(let path): path
        }
    }

    /// The `--set` texts the value came from, in the order given; empty for a file's value.
    public var overrideTexts: [String] {
        switch self {
        case .override(let text): [text]
        case .overrides(let texts): texts
        case .file, .unknown: []
        }
    }

    /// Whether the value came from the command line (`--set`, or what a command passes as one: `--vary`, `--param`,
    /// `--variant`): a problem there is a usage error (64), not the file's (65).
    public var isOverride: Bool { !overrideTexts.isEmpty }
}

/// A problem in a profile or population file: where, which key, and what is allowed.
///
/// Printed as `Profiles/x.yaml:12:3: fill.curve: unknown curve 'wobbly'; allowed: …`.
public struct ProfileError: Error, Equatable, CustomStringConvertible {
    public let origin: Origin
    /// The key path, e.g. `fill.timer.latency.sigma`; empty for the whole document.
    public let keyPath: String
    public let message: String
    /// The file could not be opened at all (missing, unreadable, a directory), as opposed to invalid content.
    public let cannotOpen: Bool
    /// The key `holdlab profiles check` takes as absent to look past this problem, when it is not `keyPath`: a
    /// `fill.duration: match` that resolves to a `gesture.minimumDuration` of 0 is set aside by the latter
    /// (`ConfigNode.problems`). Nil: `keyPath`.
    var setAside: String? = nil
    /// A key that has no effect where it is written (`MappingReader.refuseWithoutEffect`): a study that varies the
    /// key refuses it as a whole rather than skip the values where it is refused (`tune --param`).
    public internal(set) var withoutEffect = false
    /// A problem of a file that the command line's `--set`s are part of (a review checked with them,
    /// `reviewProblems(commandLineSets:)`): said at the file's entry, yet the command line's to mend (64).
    public internal(set) var commandLineAtFault = false
    /// Whether the command line is to mend it (64): a `--set`'s problem, or a file's that a `--set` is part of.
    public var isCommandLines: Bool { origin.isOverride || commandLineAtFault }

    public init(origin: Origin, keyPath: String, message: String, cannotOpen: Bool = false) {
        self.origin = origin
        self.keyPath = keyPath
        self.message = message
        self.cannotOpen = cannotOpen
    }

    init(origin: Origin, keyPath: String, message: String, setAside: String) {
        self.init(origin: origin, keyPath: keyPath, message: message)
        self.setAside = setAside
    }

    public var description: String { "\(origin): \(keyedMessage)" }

    /// The message after its key path (`fill.duration: match resolves to …`), without the origin: what a caller
    /// that names the origin its own way (a review file's entry, a sweep's point) prints.
    public var keyedMessage: String { keyPath.isEmpty ? message : "\(keyPath): \(message)" }

    /// This problem of a `--set` that applies to each of `count` profiles, said of the profile `name` that has it.
    func said(ofProfile name: String, among count: Int) -> ProfileError {
        said(in: "profile \(name)", note: "the --set applies to each of the \(count) profiles")
    }

    /// Whether a `--set` (or a review's `set`) that applies to several inputs is refused by every one of them
    /// alike: `refusals` holds each input's problems of it (as said), and they are all one problem. Such a problem
    /// is said once, naming no input (naming one would suggest the others take it); any other is said of each
    /// input that has it (`said(in:note:)`).
    public static func refusedAlike(_ refusals: [[String]]) -> Bool {
        refusals.count > 1 && refusals.allSatisfy { !$0.isEmpty } && Set(refusals.joined()).count == 1
    }

    /// This problem said of the input `place` that has it ("profile hig-linear-bar", "Profiles/a.yaml"), with a
    /// note: "… (in `place`; `note`)". The message alone names the value and the key, which the others may take.
    public func said(in place: String, note: String) -> ProfileError {
        var error = ProfileError(
            origin: origin, keyPath: keyPath, message: message + " (in \(place); \(note))", cannotOpen: cannotOpen)
        error.setAside = setAside
        error.withoutEffect = withoutEffect
        return error
    }

    /// The `--set` texts this problem is blamed on other than `given` (those the caller names itself), in order:
    /// the values a check across keys found at fault together with them.
    public func overrides(besides given: [String]) -> [String] {
        origin.overrideTexts.filter { !given.contains($0) }
    }
}

extension ProfileError {
    /// `error`, found in a document with `overrides` applied, blamed on the overrides at fault when the document
    /// alone does not have it: a check across keys (`fill.duration: match` against a `gesture.minimumDuration` of 0,
    /// an action before touch-down, a timer that never completes) reports at a key of the file that no override
    /// changed, yet the value at fault is the command line's (exit 64, not the file's 65).
    ///
    /// `validate` checks the document with a subset of the overrides, throwing its first problem. The problem is the
    /// file's when the document alone fails at the same key path: its first problem, or any of `everyProblem` (the
    /// document alone's, all of them: an override may mend the first problem of a file that has two, and the second
    /// is still the file's); it is then said at the file's place with the numbers the run uses (`filesOwn`), unless
    /// an override gives that key a value other than the one the file writes (`written`). Otherwise each
    /// override is left out in turn, and stays out when the rest still give the same problem (key path and message,
    /// whose values show what it depends on): what remains is named, in the order given. Costs one validation per
    /// override, on failure only.
    static func blaming(
        _ error: ProfileError, among overrides: [Override], everyProblem: () -> [ProfileError] = { [] },
        written: (String) -> String? = { _ in nil }, validate: ([Override]) throws(ProfileError) -> Void
    ) -> ProfileError {
        guard !overrides.isEmpty, !error.cannotOpen else { return error }
        func problem(_ subset: [Override]) -> ProfileError? {
            do {
                try validate(subset)
                return nil
            } catch {
                return error
            }
        }
        if let own = problem([]).flatMap({ $0.keyPath == error.keyPath ? $0 : nil })
            ?? everyProblem().first(where: { $0.keyPath == error.keyPath }) {
            return error.filesOwn(like: own, written: written)
        }
        var atFault = overrides
        var index = 0
        while index < atFault.count, atFault.count > 1 {
            var without = atFault
            without.remove(at: index)
            if let same = problem(without), same.keyPath == error.keyPath, same.message == error.message {
                atFault = without
            } else {
                index += 1
            }
        }
        return error.blamed(on: atFault.map(\.text))
    }

    /// This problem, found with overrides, when the document alone has `own` at the same key: the file's, said at
    /// the file's place with the numbers the run uses (an override that mends the file's first problem, or gives
    /// this key the value the file writes there, however spelt, changes nothing about it: `written` says what the
    /// file writes at a key path). It stays an override's own when one gives this very key another value.
    func filesOwn(like own: ProfileError, written: (String) -> String?) -> ProfileError {
        guard origin.isOverride, !own.origin.isOverride else { return self }
        if let setting = origin.overrideTexts.first(where: { Override.keyPath(of: $0) == keyPath }) {
            guard let value = written(keyPath), let given = try? Override(parsing: setting),
                  ConfigNode.sameValue(value, given.value) else { return self }
        }
        var placed = ProfileError(origin: own.origin, keyPath: keyPath, message: message)
        placed.setAside = setAside
        placed.withoutEffect = withoutEffect
        return placed
    }

    /// Whether this problem is one of `texts` (the command line's `key=value`s: a sweep's point, a `--set`) by
    /// itself: it names none but them and is about one of their keys, a value its key never takes
    /// (`haptics.threshold=abc`), not a check across keys that found it at fault with another value.
    public func isOwnValue(among texts: [String]) -> Bool {
        let named = origin.overrideTexts
        guard !named.isEmpty, named.allSatisfy(texts.contains) else { return false }
        return named.contains { Override.keyPath(of: $0) == keyPath }
    }

    /// This problem blamed on the `--set` texts `texts` (non-empty) instead of those it names.
    public func blamed(on texts: [String]) -> ProfileError {
        guard origin.overrideTexts != texts, !texts.isEmpty else { return self }
        var blamed = ProfileError(
            origin: texts.count == 1 ? .override(texts[0]) : .overrides(texts), keyPath: keyPath, message: message)
        blamed.setAside = setAside
        blamed.withoutEffect = withoutEffect
        return blamed
    }
}
