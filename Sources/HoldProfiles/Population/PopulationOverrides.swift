import HoldLabIO

extension Override {
    /// What starts a key that reaches a population rather than a profile (`population.deliberate.reaction.mu`).
    /// The profile key `population` itself (which population a profile names) has no dot after it.
    public static let populationPrefix = "population."

    /// Whether the key reaches a population: `population.CLASS.key…` or `population.NAME.CLASS.key…`.
    public var reachesPopulation: Bool { Self.reachesPopulation(keyPath) }

    /// Whether a key path (`--set`, `--vary`) reaches a population.
    public static func reachesPopulation(_ keyPath: String) -> Bool { keyPath.hasPrefix(populationPrefix) }
}

extension Population {
    /// The populations with the population keys of `overrides` applied; other keys are left to the profiles.
    ///
    /// A key is `population.CLASS.key…` when one population runs, and `population.NAME.CLASS.key…` for the
    /// population named NAME, which must be one of `populations` (needed when several run; allowed with one).
    /// CLASS is a class's name; `key…` a key path inside the class as the file writes it (`weight`, `bias`,
    /// `reaction.mu`, `hold.median`, `movement.drift`). The value replaces the number and its evidence: what the
    /// command line sets, no source measured. Every population is validated again.
    ///
    /// - Throws: `ProfileError` with the override as its origin for a key that names no running population or no
    ///   class (with suggestions), or a value the population refuses.
    public static func applying(_ overrides: [Override], to populations: [Population]) throws(ProfileError) -> [Population] {
        var assignments = Array(repeating: [(path: [String], override: Override)](), count: populations.count)
        for override in overrides where override.reachesPopulation {
            let (index, path) = try target(of: override, among: populations)
            assignments[index].append((path, override))
        }
        var result = populations
        for index in populations.indices where !assignments[index].isEmpty {
            result[index] = try populations[index].applying(assignments[index])
        }
        return result
    }

    /// Whether `override` is a population key that reaches `populations[index]` (false for a profile key, or one
    /// that reaches no population of them): which `--set` values a command of that population alone takes.
    public static func override(_ override: Override, reaches index: Int, among populations: [Population]) -> Bool {
        guard override.reachesPopulation, let (target, _) = try? target(of: override, among: populations) else { return false }
        return target == index
    }

    /// Why a report's sweep of `keyPath` cannot run: a report's sweeps vary its baseline against its first
    /// population, and the key reaches another of `populations` (`population.NAME.…`); nil when it reaches the
    /// first, is no population key, or reaches none (`applying` says why).
    public static func sweepProblem(_ keyPath: String, among populations: [Population]) -> String? {
        guard Override.reachesPopulation(keyPath), populations.count > 1,
              let override = try? Override(parsing: "\(keyPath)=0"),
              let (index, _) = try? target(of: override, among: populations), index > 0 else { return nil }
        let (first, named) = (populations[0].name, populations[index].name)
        return "a report's sweeps vary the baseline against its first population, \(first), and \(keyPath) reaches "
            + "\(named): list \(named) first among the populations, or vary it with holdlab sweep --population \(named)"
    }

    /// Which of `populations` a population key reaches, and the path inside it (CLASS, key…).
    static func target(of override: Override, among populations: [Population]) throws(ProfileError) -> (Int, [String]) {
        let parts = override.keyPath.dropFirst(Override.populationPrefix.count).split(separator: ".").map(String.init)
        let names = populations.map(\.name)
        // population.NAME.CLASS.key…, or population.NAME.CLASS (a whole class: `setting` says to name a value in it).
        if let first = parts.first, let index = names.firstIndex(of: first),
           parts.count >= 3 || (parts.count == 2 && populations[index].classes.contains { $0.name == parts[1] }),
           populations.count > 1 || !populations[index].classes.contains(where: { $0.name == first }) {
            return (index, Array(parts.dropFirst()))
        }
        if populations.count == 1 { return (0, parts) }
        let first = parts.first ?? ""
        let rest = parts.dropFirst().joined(separator: ".")
        // A running population named with no class after it, or one it does not have.
        if let index = names.firstIndex(of: first), !populations.contains(where: { $0.classes.contains { $0.name == first } }) {
            let classes = populations[index].classes.map(\.name)
            let given = parts.count > 1 ? parts[1] : ""
            throw ProfileError(origin: .override(override.text), keyPath: "", message:
                (given.isEmpty ? "name a class of population \(first) and a value in it"
                    : "no class '\(given)' in population \(first)\(Suggestions.didYouMean(given, among: classes))")
                + "; classes: \(classes.joined(separator: ", ")), e.g. population.\(first).\(classes.first ?? "CLASS").weight=0.5")
        }
        // A first part that is neither a running population nor a class of one: said as that, not as a class to be
        // named after a population (population.hurried.deliberate.… with hurried not running).
        let classes = populations.flatMap { $0.classes.map(\.name) }
        if !classes.contains(first) {
            throw ProfileError(origin: .override(override.text), keyPath: "", message:
                "'\(first)' is neither a population that runs here (\(names.joined(separator: ", "))) nor a class of one"
                + Suggestions.didYouMean(first, among: names + classes))
        }
        let message = populations.isEmpty
            ? "no population runs here"
            : "several populations run (\(names.joined(separator: ", "))): name one, population.NAME.\(parts.joined(separator: "."))"
                + (Suggestions.closest(to: first, among: names).first.map { "; did you mean population.\($0).\(rest)?" } ?? "")
        throw ProfileError(origin: .override(override.text), keyPath: "", message: message)
    }

    /// This population with `CLASS.key…=value` assignments set in its tree, validated again. A problem the
    /// population alone does not have (the class weights summing to 0) names the assignments at fault
    /// (`ProfileError.blaming`).
    func applying(_ assignments: [(path: [String], override: Override)]) throws(ProfileError) -> Population {
        do {
            return try validated(assignments)
        } catch {
            throw ProfileError.blaming(error, among: assignments.map(\.override)) { subset throws(ProfileError) in
                _ = try validated(assignments.filter { assignment in subset.contains(assignment.override) })
            }
        }
    }

    /// This population with the assignments set in its tree, decoded.
    private func validated(_ assignments: [(path: [String], override: Override)]) throws(ProfileError) -> Population {
        var root = document
        for (path, override) in assignments {
            root = try Self.setting(path, override: override, in: root, population: name)
        }
        return try Self.decode(root)
    }

    /// Sets the value of `override` at `path` (a class name, then keys inside the class) in a population's tree.
    static func setting(_ path: [String], override: Override, in root: ConfigNode, population: String) throws(ProfileError) -> ConfigNode {
        guard case .mapping(var pairs, let rootOrigin) = root,
              let listIndex = pairs.firstIndex(where: { $0.key == "classes" }),
              case .sequence(var items, let listOrigin) = pairs[listIndex].value else {
            throw ProfileError(origin: .override(override.text), keyPath: "", message: "the population \(population) has no classes to set")
        }
        let classNames = items.map { item -> String in
            guard case .mapping(let fields, _) = item, case .scalar(let name, _, _)? = fields.first(where: { $0.key == "name" })?.value else {
                return ""
            }
            return name
        }
        guard let className = path.first, let classIndex = classNames.firstIndex(of: className) else {
            let given = path.first ?? ""
            throw ProfileError(origin: .override(override.text), keyPath: "", message:
                "no class '\(given)' in population \(population)\(Suggestions.didYouMean(given, among: classNames)); "
                + "classes: \(classNames.joined(separator: ", "))")
        }
        guard path.count > 1 else {
            throw ProfileError(origin: .override(override.text), keyPath: "", message:
                "name a value of class \(className), e.g. \(override.keyPath).weight=0.5 or \(override.keyPath).movement.drift=3")
        }
        if path[1] == "name" {
            throw ProfileError(origin: .override(override.text), keyPath: "", message:
                "a class's name is how keys find it; it cannot be set")
        }
        let value = try ConfigNode.parseOverrideValue(override.value, override: override.text, keyPath: override.keyPath)
        items[classIndex] = try items[classIndex].setting(path.dropFirst(), to: value, override: override.text)
        pairs[listIndex].value = .sequence(items, origin: listOrigin)
        return .mapping(pairs, origin: rootOrigin)
    }
}
