import GSL
import HoldLabIO
import HoldModel

/// Reads the keys of one YAML mapping, tracking the key path for errors and rejecting keys nobody read.
struct MappingReader {
    let keyPath: String
    let origin: Origin
    private let pairs: [(key: String, value: ConfigNode)]
    private var read: Set<String> = []
    /// A population file's numbers, with their evidence (nil for a profile: its numbers carry none).
    let log: ParameterLog?

    init(_ node: ConfigNode, keyPath: String, log: ParameterLog? = nil) throws(ProfileError) {
        guard case .mapping(let pairs, let origin) = node else {
            throw ProfileError(origin: node.origin, keyPath: keyPath, message: "must be a mapping (got \(node.kindName))")
        }
        self.keyPath = keyPath
        self.origin = origin
        self.pairs = pairs
        self.log = log
    }

    func path(_ key: String) -> String { keyPath.isEmpty ? key : "\(keyPath).\(key)" }

    func contains(_ key: String) -> Bool { pairs.contains { $0.key == key } }

    /// The node at `key`, marking it read.
    mutating func node(_ key: String) -> ConfigNode? {
        read.insert(key)
        return pairs.first { $0.key == key }?.value
    }

    /// Where `key` is written, or the mapping itself when it is absent.
    func origin(of key: String) -> Origin {
        pairs.first { $0.key == key }?.value.origin ?? origin
    }

    /// Rejects any key that was not read: a misspelt key must not be silently ignored.
    func finish() throws(ProfileError) {
        for (key, value) in pairs where !read.contains(key) {
            let known = read.sorted()
            throw ProfileError(origin: value.origin, keyPath: path(key),
                               message: "unknown key\(Suggestions.didYouMean(key, among: known)); allowed here: \(known.joined(separator: ", "))")
        }
    }

    func error(_ key: String, _ message: String) -> ProfileError {
        ProfileError(origin: origin(of: key), keyPath: path(key), message: message)
    }

    /// Refuses `key`, which has no effect given `cause` (the key that decides what is read), unless `cause` came
    /// from the command line and `key` from the file: the --set changed what the file's key is for.
    func refuseWithoutEffect(_ key: String, besides cause: String, _ why: String) throws(ProfileError) {
        try refuseWithoutEffect(key, causeOrigin: contains(cause) ? origin(of: cause) : nil, why)
    }

    /// `refuseWithoutEffect(_:besides:_:)` for a cause written elsewhere (another mapping's key), at `causeOrigin`
    /// (nil: not written, the default).
    func refuseWithoutEffect(_ key: String, causeOrigin: Origin?, _ why: String) throws(ProfileError) {
        // A value the command line gives at the key or inside it (`--set fill.timer.tick=…` under a file's timer
        // section) is the command line's, and refused even when the cause is too.
        let given = pairs.first { $0.key == key }?.value.firstOverrideOrigin
        guard !(causeOrigin?.isOverride ?? false) || given != nil else { return }
        var refusal = ProfileError(origin: given ?? origin(of: key), keyPath: path(key), message: why)
        refusal.withoutEffect = true
        throw refusal
    }

    // MARK: Typed values

    mutating func scalar(_ key: String) throws(ProfileError) -> (text: String, quoted: Bool, origin: Origin)? {
        guard let node = node(key) else { return nil }
        guard case .scalar(let text, let quoted, let origin) = node else {
            throw ProfileError(origin: node.origin, keyPath: path(key), message: "must be a single value (got \(node.kindName))")
        }
        return (text, quoted, origin)
    }

    mutating func string(_ key: String, default defaultValue: String? = nil) throws(ProfileError) -> String {
        guard let scalar = try scalar(key) else {
            if let defaultValue { return defaultValue }
            throw error(key, "is required")
        }
        return scalar.text
    }

    /// A finite number satisfying `isAllowed`; `requirement` says what is allowed, e.g. "a number of seconds ≥ 0".
    ///
    /// In a population file (`log`) the number is recorded as a parameter; from schema version 2 on it may be
    /// written with its evidence, `{value: x, range: [lo, hi], source: "…"}`.
    mutating func number(
        _ key: String, default defaultValue: Double? = nil, requirement: String,
        where isAllowed: (Double) -> Bool = { _ in true }
    ) throws(ProfileError) -> Double {
        if let log, let node = pairs.first(where: { $0.key == key })?.value, case .mapping = node {
            read.insert(key)
            let (value, evidence) = try log.structured(node, keyPath: path(key), requirement: requirement, where: isAllowed)
            log.record(path(key), value: value, evidence: evidence)
            return value
        }
        guard let scalar = try scalar(key) else {
            if let defaultValue { return defaultValue }
            throw error(key, "is required: \(requirement)")
        }
        guard let value = Self.parseNumber(scalar.text), value.isFinite, isAllowed(value) else {
            throw ProfileError(origin: scalar.origin, keyPath: path(key),
                               message: "must be \(Self.finite(requirement, scalar.text)) (got '\(scalar.text)')")
        }
        log?.record(path(key), value: value, evidence: Evidence())
        return value
    }

    /// A number, or `match` (returned as nil).
    mutating func numberOrMatch(
        _ key: String, default defaultValue: Double?, requirement: String, where isAllowed: (Double) -> Bool
    ) throws(ProfileError) -> Double? {
        guard let scalar = try scalar(key) else { return defaultValue }
        // Quoted or not, as every other keyword and number is read (a profile written as JSON quotes it).
        if scalar.text == "match" { return nil }
        guard let value = Self.parseNumber(scalar.text), value.isFinite, isAllowed(value) else {
            throw ProfileError(
                origin: scalar.origin, keyPath: path(key),
                message: "must be \(Self.finite(requirement, scalar.text)) or match (got '\(scalar.text)')")
        }
        return value
    }

    /// What a number must be, said of `text`: for a number that is not finite (`.inf`, `1e400`), which meets a bound
    /// like "≥ 0", that it must be finite too.
    static func finite(_ requirement: String, _ text: String) -> String {
        parseNumber(text)?.isFinite == false ? "\(requirement), and finite" : requirement
    }

    mutating func bool(_ key: String, default defaultValue: Bool) throws(ProfileError) -> Bool {
        guard let scalar = try scalar(key) else { return defaultValue }
        // YAML's booleans as its 1.2 core schema writes them (true, True, TRUE) and 1.1's yes/no and on/off, in the
        // same three cases; a bare y or n is no boolean in either reading that HoldLab takes.
        switch scalar.text {
        case "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON": return true
        case "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF": return false
        default:
            throw ProfileError(origin: scalar.origin, keyPath: path(key),
                               message: "must be true or false (or yes/no, on/off; lower case, Capitalised or UPPER) (got '\(scalar.text)')")
        }
    }

    mutating func choice<Choice: RawRepresentable & CaseIterable>(
        _ key: String, default defaultValue: Choice
    ) throws(ProfileError) -> Choice where Choice.RawValue == String {
        guard let scalar = try scalar(key) else { return defaultValue }
        guard let value = Choice(rawValue: scalar.text) else {
            let allowed = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw ProfileError(
                origin: scalar.origin, keyPath: path(key), message: "unknown value '\(scalar.text)'; allowed: \(allowed)")
        }
        return value
    }

    mutating func curve(_ key: String, default defaultValue: TimingCurve) throws(ProfileError) -> TimingCurve {
        guard let scalar = try scalar(key) else { return defaultValue }
        do {
            return try TimingCurve(parsing: scalar.text)
        } catch {
            throw ProfileError(origin: scalar.origin, keyPath: path(key), message: error.description)
        }
    }

    mutating func distribution(_ key: String, default defaultValue: Distribution) throws(ProfileError) -> Distribution {
        guard let node = node(key) else { return defaultValue }
        return try Self.distribution(node, keyPath: path(key), log: log)
    }

    /// Reads `{dist: family, parameter: value, …}`; a mixture lists `components: [{weight: w, dist: …}, …]`.
    ///
    /// - Parameter log: a population file's parameters: each number is recorded, and may carry its evidence; a
    ///   range must then give a valid distribution at both ends, the other parameters as written.
    static func distribution(_ node: ConfigNode, keyPath: String, log: ParameterLog? = nil) throws(ProfileError) -> Distribution {
        var reader = try MappingReader(node, keyPath: keyPath, log: log)
        let familyNames = Distribution.families.joined(separator: ", ")
        guard reader.contains("dist") else {
            throw ProfileError(
                origin: node.origin, keyPath: keyPath,
                message: "a distribution needs dist: one of \(familyNames), e.g. {dist: lognormal, median: 0.12, sigma: 0.6}")
        }
        let family = try reader.string("dist")
        if family == "mixture" {
            guard let list = reader.node("components"), case .sequence(let items, _) = list, !items.isEmpty else {
                throw reader.error("components", "a mixture needs components: a list of {weight: w, dist: …}")
            }
            var components: [(weight: Double, distribution: Distribution)] = []
            for (index, item) in items.enumerated() {
                let itemPath = "\(keyPath).components[\(index)]"
                var itemReader = try MappingReader(item, keyPath: itemPath, log: log)
                if case .mapping? = itemReader.node("dist") {
                    // {weight: 1, dist: {dist: constant, value: 0.2}}: the distribution's keys go beside the weight.
                    throw itemReader.error("dist", "a component is {weight: w, dist: FAMILY, its parameters…}: write the "
                                           + "distribution's keys beside weight, e.g. {weight: 1, dist: constant, value: 0.2}")
                }
                let weight = try itemReader.number("weight", requirement: "a weight ≥ 0", where: { $0 >= 0 })
                let rest = item.removing("weight")
                components.append((weight, try distribution(rest, keyPath: itemPath, log: log)))
            }
            try reader.finish()
            do {
                return try Distribution(mixture: components)
            } catch {
                throw ProfileError(origin: node.origin, keyPath: keyPath, message: error.description)
            }
        }
        guard let names = Distribution.parameterNames(of: family) else {
            throw reader.error("dist", "unknown distribution '\(family)'; allowed: \(familyNames)")
        }
        var parameters: [String: Double] = [:]
        var ranges: [String: ClosedRange<Double>] = [:]
        for name in names where reader.contains(name) {
            parameters[name] = try reader.number(name, requirement: "a finite number")
            if let range = log?.evidence(at: reader.path(name))?.range { ranges[name] = range }
        }
        do {
            try reader.finish()
        } catch {
            let key = String(error.keyPath.split(separator: ".").last ?? "")
            throw ProfileError(
                origin: error.origin, keyPath: error.keyPath,
                message: "unknown parameter for \(family)\(Suggestions.didYouMean(key, among: names)); allowed: \(names.joined(separator: ", "))")
        }
        let distribution: Distribution
        do {
            distribution = try Distribution(family: family, parameters: parameters)
        } catch {
            throw ProfileError(origin: node.origin, keyPath: keyPath, message: error.description)
        }
        // A review varies each parameter over its range, the others as written: both ends must be valid.
        for name in names {
            guard let range = ranges[name] else { continue }
            for (end, value) in [("low", range.lowerBound), ("high", range.upperBound)] {
                var varied = parameters
                varied[name] = value
                do {
                    _ = try Distribution(family: family, parameters: varied)
                } catch {
                    throw ProfileError(origin: reader.origin(of: name), keyPath: reader.path(name) + ".range",
                                       message: "the \(end) end \(value.shortText) does not give a valid distribution: \(error.description)")
                }
            }
        }
        return distribution
    }

    /// Parses a YAML number the way the profile schema writes them: decimal or exponent notation; a spelling of
    /// infinity (`.inf`, `-.inf`, `inf`, `infinity`, any case, signed) or a number too large for a double is
    /// infinite. Every caller refuses what is not finite, and says so (`finite`); nil for anything else.
    static func parseNumber(_ text: String) -> Double? {
        let spelled = text.trimmingWhitespace()
        let unsigned = spelled.first.map { "+-".contains($0) } == true ? spelled.dropFirst() : Substring(spelled)
        if [".inf", "inf", "infinity"].contains(unsigned.lowercased()) {
            return spelled.hasPrefix("-") ? -.infinity : .infinity
        }
        let trimmed = spelled.replacingUnderscores()
        guard !trimmed.isEmpty, trimmed.allSatisfy({ "0123456789+-.eE".contains($0) }) else { return nil }
        return Double(trimmed)
    }
}

extension ConfigNode {
    /// The same mapping without `key`.
    func removing(_ key: String) -> ConfigNode {
        guard case .mapping(let pairs, let origin) = self else { return self }
        return .mapping(pairs.filter { $0.key != key }, origin: origin)
    }
}

extension String {
    fileprivate func replacingUnderscores() -> String { String(filter { $0 != "_" }) }
}
