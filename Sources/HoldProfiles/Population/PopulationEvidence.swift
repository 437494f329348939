import HoldLabIO

/// Where a population parameter's value comes from, and how far a review should vary it (schema version 2).
///
/// Written beside the value: `mu: {value: 0.170, range: [0.13, 0.25], source: "Woods et al. 2015 …"}`. A source
/// that starts with `assumption:` marks an assumption (label U, DOMAIN §7) and gives its reasoning; any other source
/// cites what someone measured or documented (M). Neither enters the population's hash: the hash is of the values
/// simulated.
public struct Evidence: Sendable, Equatable {
    /// DOMAIN §7's labels for a number.
    public enum Label: String, Sendable, CaseIterable {
        /// Someone measured (or a platform documented) it: the source cites who, what, on whom, with which device.
        case measured = "M"
        /// Our assumption: the source says `assumption:` and why this value.
        case assumed = "U"
    }

    /// The plausible interval a review varies the value over: lo < value < hi, or lo = value = hi for a value
    /// that is exact by definition.
    public var range: ClosedRange<Double>?
    /// A citation (who measured what, on whom, with which device, and the number taken from it), or
    /// `assumption: REASONING`.
    public var source: String?

    public init(range: ClosedRange<Double>? = nil, source: String? = nil) {
        self.range = range
        self.source = source
    }

    /// The prefix that marks a source as an assumption.
    public static let assumptionPrefix = "assumption:"

    /// M for a cited source, U for `assumption: …`, nil without a source.
    public var label: Label? {
        source.map { $0.hasPrefix(Self.assumptionPrefix) ? .assumed : .measured }
    }

    /// Whether both a source and a range are given.
    public var isComplete: Bool { source != nil && range != nil }
}

/// One number a population file gives: where it is (`deliberate.reaction.mu`: the class, then the key path inside
/// it, as `--set population.…` and `--vary population.…` name it), its value as written, and its evidence.
public struct PopulationParameter: Sendable, Equatable {
    public var keyPath: String
    public var value: Double
    public var evidence: Evidence
}

extension Population {
    /// How many of the file's numbers cite a measurement, rest on a stated assumption, or say nothing.
    public struct EvidenceCount: Sendable, Equatable {
        public var measured = 0
        public var assumed = 0
        public var unsourced = 0
    }

    /// The counts over `parameters`.
    public var evidenceCount: EvidenceCount {
        var count = EvidenceCount()
        for parameter in parameters {
            switch parameter.evidence.label {
            case .measured?: count.measured += 1
            case .assumed?: count.assumed += 1
            case nil: count.unsourced += 1
            }
        }
        return count
    }
}

/// Collects the numbers a population file gives, with their evidence, as its reader reads them; and reads a number
/// written `{value, range, source}`.
final class ParameterLog {
    /// Whether a number may be written with its evidence (schema version 2).
    let allowsEvidence: Bool
    /// The class being read: its key path in the file (`classes[0]`) and its name, which parameters are named by.
    var currentClass: (keyPath: String, name: String)?
    private(set) var parameters: [PopulationParameter] = []

    init(allowsEvidence: Bool) {
        self.allowsEvidence = allowsEvidence
    }

    /// A parameter's name: the file's key path with `classes[i]` replaced by the class's name.
    func name(of keyPath: String) -> String {
        guard let current = currentClass, keyPath.hasPrefix(current.keyPath + ".") else { return keyPath }
        return current.name + keyPath.dropFirst(current.keyPath.count)
    }

    func record(_ keyPath: String, value: Double, evidence: Evidence) {
        parameters.append(PopulationParameter(keyPath: name(of: keyPath), value: value, evidence: evidence))
    }

    /// The evidence of the parameter last recorded at `keyPath` (a file key path).
    func evidence(at keyPath: String) -> Evidence? {
        let name = name(of: keyPath)
        return parameters.last { $0.keyPath == name }?.evidence
    }

    /// Reads `{value: x, range: [lo, hi], source: "…"}` at `keyPath`: the value checked as a plain number would
    /// be (`requirement`, `isAllowed`), both ends of the range too, the range around the value, the source a text.
    func structured(
        _ node: ConfigNode, keyPath: String, requirement: String, where isAllowed: (Double) -> Bool
    ) throws(ProfileError) -> (value: Double, evidence: Evidence) {
        guard allowsEvidence else {
            throw ProfileError(origin: node.origin, keyPath: keyPath, message:
                "a number with its evidence ({value, range, source}) needs version: 2; this file says version: 1")
        }
        var reader = try MappingReader(node, keyPath: keyPath)
        guard let valueNode = reader.node("value") else {
            throw ProfileError(origin: node.origin, keyPath: keyPath + ".value", message:
                "is required: the number, e.g. {value: 0.17, range: [0.13, 0.25], source: \"assumption: …\"}")
        }
        let value = try Self.number(valueNode, keyPath: keyPath + ".value", requirement: requirement, where: isAllowed)
        var evidence = Evidence()
        if let rangeNode = reader.node("range") {
            let range = try Self.range(rangeNode, keyPath: keyPath + ".range", requirement: requirement, where: isAllowed)
            let inside = range.lowerBound < value && value < range.upperBound
            let exact = range.lowerBound == value && value == range.upperBound
            guard inside || exact else {
                throw ProfileError(origin: rangeNode.origin, keyPath: keyPath + ".range", message:
                    "the value \(value.shortText) must lie inside its range [\(range.lowerBound.shortText), "
                    + "\(range.upperBound.shortText)] (lo < value < hi; [v, v] for a value exact by definition)")
            }
            evidence.range = range
        }
        if let sourceNode = reader.node("source") {
            guard case .scalar(let text, _, let origin) = sourceNode else {
                throw ProfileError(origin: sourceNode.origin, keyPath: keyPath + ".source",
                                   message: "must be a text (got \(sourceNode.kindName))")
            }
            let source = text.trimmingWhitespace()
            guard !source.isEmpty else {
                throw ProfileError(origin: origin, keyPath: keyPath + ".source", message:
                    "needs text: who measured what, on whom, with which device; or assumption: and the reasoning")
            }
            if source.lowercased().hasPrefix("assumption") {
                guard source.hasPrefix(Evidence.assumptionPrefix) else {
                    throw ProfileError(origin: origin, keyPath: keyPath + ".source", message:
                        "an assumption is written 'assumption: REASONING' (lower case, then a colon)")
                }
                guard !String(source.dropFirst(Evidence.assumptionPrefix.count)).trimmingWhitespace().isEmpty else {
                    throw ProfileError(origin: origin, keyPath: keyPath + ".source",
                                       message: "an assumption gives its reasoning after 'assumption:'")
                }
            }
            evidence.source = source
        }
        try reader.finish()
        return (value, evidence)
    }

    /// A finite number satisfying `isAllowed` at a node.
    static func number(
        _ node: ConfigNode, keyPath: String, requirement: String, where isAllowed: (Double) -> Bool
    ) throws(ProfileError) -> Double {
        guard case .scalar(let text, _, let origin) = node else {
            throw ProfileError(origin: node.origin, keyPath: keyPath, message: "must be a single value (got \(node.kindName))")
        }
        guard let value = MappingReader.parseNumber(text), value.isFinite, isAllowed(value) else {
            throw ProfileError(origin: origin, keyPath: keyPath,
                               message: "must be \(MappingReader.finite(requirement, text)) (got '\(text)')")
        }
        return value
    }

    /// `[lo, hi]`: two finite numbers, lo ≤ hi, each a value the parameter may take.
    static func range(
        _ node: ConfigNode, keyPath: String, requirement: String, where isAllowed: (Double) -> Bool
    ) throws(ProfileError) -> ClosedRange<Double> {
        guard case .sequence(let items, _) = node, items.count == 2 else {
            throw ProfileError(origin: node.origin, keyPath: keyPath,
                               message: "must be a list of two finite numbers [lo, hi] (got \(node.kindName))")
        }
        var ends: [Double] = []
        for (index, item) in items.enumerated() {
            let end = index == 0 ? "low" : "high"
            guard case .scalar(let text, _, let origin) = item, let value = MappingReader.parseNumber(text), value.isFinite else {
                throw ProfileError(origin: item.origin, keyPath: keyPath,
                                   message: "the \(end) end must be a finite number (got \(Self.shown(item)))")
            }
            guard isAllowed(value) else {
                throw ProfileError(origin: origin, keyPath: keyPath,
                                   message: "the \(end) end \(value.shortText) is not a value this parameter may take: \(requirement)")
            }
            ends.append(value)
        }
        guard ends[0] <= ends[1] else {
            throw ProfileError(origin: node.origin, keyPath: keyPath,
                               message: "lo must not be above hi (got [\(ends[0].shortText), \(ends[1].shortText)])")
        }
        return ends[0]...ends[1]
    }

    private static func shown(_ node: ConfigNode) -> String {
        if case .scalar(let text, _, _) = node { return "'\(text)'" }
        return node.kindName
    }
}
