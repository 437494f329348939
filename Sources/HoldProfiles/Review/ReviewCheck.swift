import HoldLabIO

extension ProfileLibrary {
    /// Every problem of a review file (`holdlab profiles check`), in line order: first what `ReviewFile.parse`
    /// refuses (every problem, as for a profile); then, against this library, what `holdlab report --review` would
    /// refuse: a profile or population that does not load, a `set` value or a variant that a profile or population
    /// refuses, a baseline that is none of the designs, a sweep `checkSweep` refuses. Each is reported where the
    /// review writes it, with the underlying error (which may name another file) as its message.
    public func reviewProblems(yaml text: String, path: String, checkSweep: ((String) -> String?)? = nil) -> [ProfileError] {
        let root: ConfigNode
        do {
            root = try ConfigNode.parse(text, path: path)
        } catch {
            return [error]
        }
        let structural = ConfigNode.problems(root) { root throws(ProfileError) in _ = try ReviewFile.decode(root) }
        guard structural.isEmpty else { return structural }
        let review: ReviewFile
        do {
            review = try ReviewFile.decode(root)
        } catch {
            return [error]
        }
        var problems: [ProfileError] = []
        func problem(_ keyPath: String, _ error: Error) {
            problems.append(ProfileError(origin: root.origin(ofReviewKey: keyPath), keyPath: keyPath, message: "\(error)"))
        }
        func overrides(_ sets: [String], at keyPath: String) -> [Override]? {
            do {
                return try sets.map { text throws(ProfileError) in try Override(parsing: text) }
            } catch {
                problem(keyPath, error)
                return nil
            }
        }
        guard let common = overrides(review.sets, at: "set") else { return problems }
        let profileSets = common.filter { !$0.reachesPopulation }
        var labels: [String] = []
        var firstProfile: Profile?
        let names = review.profiles.isEmpty ? ["hig-linear-bar"] : review.profiles
        for (index, name) in names.enumerated() {
            let keyPath = review.profiles.isEmpty ? "profiles" : (root.isListAt("profiles") ? "profiles[\(index)]" : "profiles")
            do {
                let profile = try loadProfile(name, overrides: profileSets)
                labels.append(profile.name)
                if index == 0 { firstProfile = profile }
            } catch {
                problem(keyPath, error)
            }
        }
        var populations: [Population] = []
        let populationNames = review.populations.isEmpty ? firstProfile.map { [$0.population] } ?? [] : review.populations
        for (index, name) in populationNames.enumerated() {
            let keyPath = review.populations.isEmpty ? "populations" : (root.isListAt("populations") ? "populations[\(index)]" : "populations")
            do {
                populations.append(try loadPopulation(name))
            } catch {
                problem(keyPath, error)
            }
        }
        let populationsLoaded = populations.count == populationNames.count
        if populationsLoaded {
            do { _ = try Population.applying(common, to: populations) } catch { problem("set", error) }
        }
        for variant in review.variants {
            let keyPath = "variants.\(variant.label)"
            labels.append(variant.label)
            guard let sets = overrides(variant.sets, at: keyPath) else { continue }
            if let key = sets.first(where: \.reachesPopulation) {
                problem(keyPath, ReviewProblem("sets \(key.keyPath): a variant changes the control, and every design meets the same people; set a population value for all designs in set"))
                continue
            }
            if firstProfile != nil {
                do {
                    _ = try loadProfile(names[0], overrides: profileSets + sets.filter { !$0.reachesPopulation })
                } catch {
                    problem(keyPath, error)
                }
            }
        }
        if let baseline = review.baseline, problems.isEmpty, !labels.contains(baseline) {
            problem("baseline", ReviewProblem("\(baseline) is none of the designs: \(labels.joined(separator: ", "))"))
        }
        for sweep in review.sweeps {
            if let message = checkSweep?(sweep.text) {
                problems.append(ProfileError(origin: sweep.origin, keyPath: sweep.keyPath, message: message))
            }
        }
        return problems.enumerated().sorted { a, b in
            switch (a.element.origin, b.element.origin) {
            case let (.file(_, lineA, columnA), .file(_, lineB, columnB)):
                return (lineA, columnA, a.offset) < (lineB, columnB, b.offset)
            default:
                return a.offset < b.offset
            }
        }.map(\.element)
    }
}

/// A problem of a review found against the library, as a message.
private struct ReviewProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension ConfigNode {
    /// Whether the top-level key holds a list.
    fileprivate func isListAt(_ key: String) -> Bool {
        guard case .mapping(let pairs, _) = self, case .sequence? = pairs.first(where: { $0.key == key })?.value else {
            return false
        }
        return true
    }

    /// Where a review writes `key`, `key[i]` or `variants.LABEL` (the document when it is absent).
    fileprivate func origin(ofReviewKey keyPath: String) -> Origin {
        guard case .mapping(let pairs, let origin) = self else { return self.origin }
        var key = keyPath
        var index: Int?
        if key.hasSuffix("]"), let open = key.lastIndex(of: "[") {
            index = Int(key[key.index(after: open)..<key.index(before: key.endIndex)])
            key = String(key[..<open])
        }
        var label: String?
        if key.hasPrefix("variants.") {
            label = String(key.dropFirst("variants.".count))
            key = "variants"
        }
        guard let node = pairs.first(where: { $0.key == key })?.value else { return origin }
        if let index, case .sequence(let items, _) = node, items.indices.contains(index) { return items[index].origin }
        if let label, case .mapping(let entries, _) = node, let entry = entries.first(where: { $0.key == label }) {
            return entry.value.origin
        }
        return node.origin
    }
}
