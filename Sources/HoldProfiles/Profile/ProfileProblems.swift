extension Profile {
    /// Every problem in a profile, not just the first (`holdlab profiles check`): after a problem at a key, the key
    /// is taken as absent (its default) and the profile checked again, until it passes or a problem cannot be set
    /// aside (a YAML syntax error, a missing required key, a problem of the whole document). Sorted by line.
    ///
    /// A later problem can come from a default standing in for a removed value (the default `fill.duration` against
    /// the file's `trigger.offset`); the first problem is always the one `load` reports.
    ///
    /// A problem of the overrides (one the file alone does not have, `load`'s error naming `--set`s) is the only
    /// one reported: the file is not at fault.
    public static func problems(yaml text: String, path: String, overrides: [Override] = []) -> [ProfileError] {
        if !overrides.isEmpty {
            do {
                _ = try load(yaml: text, path: path, overrides: overrides)
                return []
            } catch {
                if error.origin.isOverride { return [error] }
            }
        }
        // A key given twice is one problem each, its later value standing for the rest of the check.
        let (parsed, duplicates) = ConfigNode.parseListingDuplicates(text, path: path)
        guard var root = parsed else { return duplicates }
        do {
            // An override of the value the file writes changes nothing: the file's problem there stays at its line.
            for override in overrides {
                if case .scalar(let written, _, let origin)? = root.node(atKeyPath: override.keyPath), !origin.isOverride,
                   ConfigNode.sameValue(written, override.value) { continue }
                root = try root.applying(override)
            }
        } catch {
            return ProfileError.inLineOrder(duplicates + [error])
        }
        return ProfileError.inLineOrder(duplicates + ConfigNode.problems(root) { root throws(ProfileError) in _ = try validated(root) })
    }

    /// The most problems reported for one file.
    public static let maximumProblems = 100
}

extension ConfigNode {
    /// Every problem `validate` finds in a tree, not just the first: after a problem at a key, the key is taken as
    /// absent (or the key the problem names to set aside, `ProfileError.setAside`) and the tree checked again,
    /// until it passes or a problem cannot be set aside (a missing required key, a problem of the whole document, or
    /// the same problem again: the default that took the key's place has it too, as a `trigger.offset` of 0 after a
    /// `gesture.minimumDuration` of 0). At most `Profile.maximumProblems`, sorted by line.
    static func problems(_ tree: ConfigNode, validate: (ConfigNode) throws(ProfileError) -> Void) -> [ProfileError] {
        problemsAndRest(tree, validate: validate).problems
    }

    /// `problems`, and the tree with the keys at fault set aside: what a check that goes on past them (a review's
    /// designs against the library) can still read.
    static func problemsAndRest(_ tree: ConfigNode, validate: (ConfigNode) throws(ProfileError) -> Void)
        -> (problems: [ProfileError], rest: ConfigNode) {
        var root = tree
        var problems: [ProfileError] = []
        // The keys taken as absent so far: a problem at one of them is the absence's (`description: is required`
        // after a `description` of the wrong type was removed), not the file's, and ends the search.
        var removed: Set<String> = []
        // Each round removes one key, so the rounds are bounded by the keys in the file (20,000 values at most).
        while problems.count < Profile.maximumProblems {
            do {
                try validate(root)
                break
            } catch {
                if removed.contains(error.keyPath) { break }
                // Likewise a problem of what holds a removed key (a population's `classes` left empty after its
                // only class, missing a required key, was set aside): the removal's, not the file's.
                if !error.keyPath.isEmpty, removed.contains(where: { $0.hasPrefix(error.keyPath + ".") || $0.hasPrefix(error.keyPath + "[") }) {
                    break
                }
                if problems.contains(where: { $0.keyPath == error.keyPath && $0.message == error.message }) { break }
                problems.append(error)
                let key = error.setAside ?? error.keyPath
                guard !key.isEmpty, let next = root.removing(keyPath: key) else { break }
                removed.insert(key)
                root = next
            }
        }
        return (ProfileError.inLineOrder(problems), root)
    }

    /// The tree without the value at a dotted key path (`fill.timer.latency.sigma`; a list index such as
    /// `components[1]` removes that item), or nil when nothing there can be removed.
    func removing(keyPath: String) -> ConfigNode? {
        var keys: [String] = []
        for part in keyPath.split(separator: ".") {
            // `components[1]` is the key `components`, then the item 1.
            var name = Substring(part)
            var indices: [String] = []
            while name.hasSuffix("]"), let open = name.lastIndex(of: "[") {
                indices.insert(String(name[name.index(after: open)..<name.index(before: name.endIndex)]), at: 0)
                name = name[..<open]
            }
            keys.append(String(name))
            keys += indices.map { "[\($0)]" }
        }
        return removing(keys[...])
    }

    private func removing(_ path: ArraySlice<String>) -> ConfigNode? {
        guard let head = path.first else { return nil }
        let rest = path.dropFirst()
        switch self {
        case .mapping(var pairs, let origin):
            guard let index = pairs.firstIndex(where: { $0.key == head }) else { return nil }
            if rest.isEmpty {
                pairs.remove(at: index)
            } else {
                guard let child = pairs[index].value.removing(rest) else {
                    // Nothing deeper can go: the whole value at this key does.
                    pairs.remove(at: index)
                    return .mapping(pairs, origin: origin)
                }
                pairs[index].value = child
            }
            return .mapping(pairs, origin: origin)
        case .sequence(var items, let origin):
            guard head.hasPrefix("["), let index = Int(head.dropFirst().dropLast()), items.indices.contains(index) else {
                return nil
            }
            if rest.isEmpty {
                items.remove(at: index)
            } else if let child = items[index].removing(rest) {
                items[index] = child
            } else {
                items.remove(at: index)
            }
            return .sequence(items, origin: origin)
        case .scalar:
            return nil
        }
    }
}

extension ProfileError {
    /// Problems in the order a reader meets them: by line and column where both have one, else as found.
    static func inLineOrder(_ problems: [ProfileError]) -> [ProfileError] {
        problems.enumerated().sorted { a, b in
            switch (a.element.origin, b.element.origin) {
            case let (.file(_, lineA, columnA), .file(_, lineB, columnB)):
                return (lineA, columnA, a.offset) < (lineB, columnB, b.offset)
            default:
                return a.offset < b.offset
            }
        }.map(\.element)
    }
}
