import GSL
import HoldLabIO

/// A synthetic population: a weighted mixture of classes of people (schema versions 1 and 2: see `load`).
public struct Population: Sendable {
    public var name: String
    public var description: String
    /// Where the numbers come from (which are measured, which are assumptions), in words.
    public var source: String
    public var classes: [UserClass]
    /// The schema version the file says it is written in.
    public var version: Int = Population.schemaVersion
    /// Every number the file gives, in file order, with its evidence (version 2: `{value, range, source}`).
    public var parameters: [PopulationParameter] = []
    /// The file's tree with the overrides applied so far: what `applying(_:)` sets values in.
    var document: ConfigNode = .mapping([], origin: .unknown(path: ""))

    /// Class weights normalised to sum to 1, in file order.
    public var normalizedWeights: [Double] {
        let total = classes.reduce(0) { $0 + $1.weight }
        return classes.map { $0.weight / total }
    }
}

/// One class of people in a population.
public struct UserClass: Sendable {
    /// Whether the person means to confirm: completion rates are over `confirm`, false activations over `none`.
    public enum Intent: String, Sendable, CaseIterable {
        case confirm
        case none
    }

    /// How the person decides when to let go.
    public enum Behavior: Sendable {
        /// Lets go after a drawn duration whatever happens (taps, accidental and hesitant touches).
        case hold(duration: Distribution)
        /// Lets go a drawn reaction time after the first completion cue perceived (the action firing, its
        /// completion pulse, or a visible fill first displayed full); gives up at a drawn patience if by then
        /// nothing at all has shown the hold is working (no visible fill change, no pulse).
        case react(reaction: Distribution, patience: Distribution)
        /// Lets go at a perceived target: the fill's nominal end × (1 + bias + weber·N(0, 1)).
        case anticipate(bias: Double, weber: Double)

        public var name: String {
            switch self {
            case .hold: "hold"
            case .react: "react"
            case .anticipate: "anticipate"
            }
        }
    }

    /// The finger's drift while held: each axis a random walk with per-axis standard deviation
    /// `driftPointsPerSqrtSecond`·√t, observed at `touchRateHz`.
    public struct Movement: Sendable, Equatable {
        public var driftPointsPerSqrtSecond: Double
        public var touchRateHz: Double
    }

    public var name: String
    public var weight: Double
    public var intent: Intent
    public var behavior: Behavior
    public var movement: Movement?
}

extension Population {
    /// The newest schema version this build reads. Version 2 adds evidence: any number may be written
    /// `{value: x, range: [lo, hi], source: "…"}` (`Evidence`); a version-1 file reads as it always did.
    public static let schemaVersion = 2
    /// The schema versions this build reads.
    public static let schemaVersions = [1, 2]
    /// The version `canonicalYAML` says: the canonical form is of the values alone, so a version-1 file and a
    /// version-2 file with the same values have the same canonical text and hash.
    static let canonicalVersion = 1
    /// The behaviours a class may have.
    public static let behaviorNames = ["hold", "react", "anticipate"]

    /// Loads a population from YAML text; `path` names it in errors.
    public static func load(yaml text: String, path: String) throws(ProfileError) -> Population {
        try decode(try ConfigNode.parse(text, path: path))
    }

    /// The population a YAML tree describes, checked.
    static func decode(_ root: ConfigNode) throws(ProfileError) -> Population {
        var top = try MappingReader(root, keyPath: "")
        let versions = schemaVersions.map(String.init).joined(separator: " or ")
        let version = try top.number("version", requirement: "the schema version, \(versions)")
        guard let known = schemaVersions.first(where: { Double($0) == version }) else {
            throw top.error("version", "unsupported schema version \(version.shortText); this holdlab reads version \(versions)")
        }
        let log = ParameterLog(allowsEvidence: known >= 2)
        let name = try top.string("name")
        guard LibraryName.isValid(name) else { throw top.error("name", LibraryName.rule(name)) }
        let description = try top.string("description", default: "")
        let source = try top.string("source", default: "")
        guard let list = top.node("classes"), case .sequence(let items, _) = list, !items.isEmpty else {
            throw top.error("classes", "a population needs classes: a non-empty list of {name, weight, intent, behavior, …}")
        }
        var classes: [UserClass] = []
        for (index, item) in items.enumerated() {
            let userClass = try decodeClass(item, keyPath: "classes[\(index)]", log: log)
            if classes.contains(where: { $0.name == userClass.name }) {
                throw ProfileError(origin: item.origin, keyPath: "classes[\(index)].name",
                                   message: "the class name '\(userClass.name)' is used twice")
            }
            classes.append(userClass)
        }
        try top.finish()
        let total = classes.reduce(0) { $0 + $1.weight }
        guard total > 0, total.isFinite else {
            throw ProfileError(origin: list.origin, keyPath: "classes",
                               message: "the class weights must sum to a finite number > 0 (they sum to \(total.shortText))")
        }
        return Population(name: name, description: description, source: source, classes: classes, version: known,
                          parameters: log.parameters, document: root)
    }

    private static func decodeClass(_ node: ConfigNode, keyPath: String, log: ParameterLog) throws(ProfileError) -> UserClass {
        var reader = try MappingReader(node, keyPath: keyPath, log: log)
        let name = try reader.string("name")
        log.currentClass = (keyPath, name)
        defer { log.currentClass = nil }
        let weight = try reader.number("weight", requirement: "a weight ≥ 0", where: { $0 >= 0 })
        let intent = try reader.choice("intent", default: UserClass.Intent.confirm)
        let behaviorName = try reader.string("behavior")
        let behavior: UserClass.Behavior
        switch behaviorName {
        case "hold":
            behavior = .hold(duration: try reader.requiredDistribution("hold"))
        case "react":
            behavior = .react(
                reaction: try reader.requiredDistribution("reaction"),
                patience: try reader.requiredDistribution("patience"))
        case "anticipate":
            behavior = .anticipate(
                bias: try reader.number("bias", default: 0, requirement: "a fraction > −1 (−0.05 = 5 % early)", where: { $0 > -1 }),
                weber: try reader.number("weber", requirement: "a Weber fraction ≥ 0 (timing spread per unit interval)", where: { $0 >= 0 }))
        default:
            throw reader.error("behavior", "unknown behaviour '\(behaviorName)'; allowed: \(behaviorNames.joined(separator: ", "))")
        }
        var movement: UserClass.Movement?
        if let movementNode = reader.node("movement") {
            var m = try MappingReader(movementNode, keyPath: "\(keyPath).movement", log: log)
            movement = UserClass.Movement(
                driftPointsPerSqrtSecond: try m.number("drift", requirement: "points per √second ≥ 0", where: { $0 >= 0 }),
                touchRateHz: try m.number("touchRate", default: 120, requirement: "touch samples per second from 1 to 1000",
                                          where: { $0 >= 1 && $0 <= 1000 }))
            try m.finish()
        }
        try reader.finish()
        return UserClass(name: name, weight: weight, intent: intent, behavior: behavior, movement: movement)
    }

    /// Provenance text: the resolved population, one class per line. The values alone: sources and ranges do not
    /// enter it, so adding evidence to a file changes no hash.
    public var canonicalYAML: String {
        var lines = ["version: \(Self.canonicalVersion)", "name: \(name)", "classes:"]
        for userClass in classes {
            var fields = ["name: \(userClass.name)", "weight: \(userClass.weight.shortText)",
                          "intent: \(userClass.intent.rawValue)", "behavior: \(userClass.behavior.name)"]
            switch userClass.behavior {
            case .hold(let duration): fields.append("hold: \(duration)")
            case .react(let reaction, let patience): fields += ["reaction: \(reaction)", "patience: \(patience)"]
            case .anticipate(let bias, let weber): fields += ["bias: \(bias.shortText)", "weber: \(weber.shortText)"]
            }
            if let movement = userClass.movement {
                fields.append("movement: {drift: \(movement.driftPointsPerSqrtSecond.shortText), touchRate: \(movement.touchRateHz.shortText)}")
            }
            lines.append("  - {" + fields.joined(separator: ", ") + "}")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// FNV-1a 64-bit hash of `canonicalYAML`.
    public var contentHash: String { fnv1a64Hex(canonicalYAML) }
}

extension MappingReader {
    mutating func requiredDistribution(_ key: String) throws(ProfileError) -> Distribution {
        guard let node = node(key) else {
            throw error(key, "is required: a distribution of seconds, e.g. {dist: lognormal, median: 0.5, sigma: 0.4}")
        }
        return try Self.distribution(node, keyPath: path(key), log: log)
    }
}

extension ProfileLibrary {
    /// Loads a population by name or path.
    public func loadPopulation(_ nameOrPath: String) throws(ProfileError) -> Population {
        let path = populationPath(nameOrPath)
        let text = try populationText(nameOrPath)
        let population: Population
        do {
            population = try Population.load(yaml: text, path: Self.displayPath(path))
        } catch {
            throw Self.wrongKindProblem(text, path: Self.displayPath(path), expected: .population) ?? error
        }
        if let problem = libraryNameProblem(population.name, file: path, text: text, in: directory + "/populations") {
            throw problem
        }
        return population
    }
}

extension Population {
    /// Every problem in a population file, not just the first (`holdlab profiles check`), in line order; then, if
    /// it has none, the problem of any population key of `overrides` (`population.CLASS.key…`, this population
    /// being the one that runs).
    public static func problems(yaml text: String, path: String, overrides: [Override] = []) -> [ProfileError] {
        // A key given twice is one problem each, its later value standing for the rest of the check.
        let (parsed, duplicates) = ConfigNode.parseListingDuplicates(text, path: path)
        guard let root = parsed else { return duplicates }
        let problems = ProfileError.inLineOrder(duplicates + ConfigNode.problems(root) { root throws(ProfileError) in _ = try decode(root) })
        guard problems.isEmpty, overrides.contains(where: \.reachesPopulation) else { return problems }
        do {
            _ = try applying(overrides, to: [try decode(root)])
            return []
        } catch {
            return [error]
        }
    }
}
