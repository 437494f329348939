import Foundation
import GSL
import HoldLabIO
import HoldProfiles

/// One assumption about people that feeds a review's findings, the plausible range a review varies it over, and
/// where that range comes from: the one place `holdlab report`'s robustness section takes its ranges from.
///
/// `keyPath` names the value inside a population as `--set population.…` and `--vary population.…` do (a class's
/// name, then the key inside the class: `deliberate.reaction.mu`), with `*` for every class that has the key
/// (`*.movement.drift`). A *share* assumption (`anticipating.weight`) varies the class's share of the population,
/// the other classes keeping their relative weights.
public struct BehaviourAssumption: Sendable, Equatable {
    /// What it is, in words a designer reads (`reaction delay`).
    public var name: String
    /// The key path inside a population (class, then key).
    public var keyPath: String
    /// The unit of the values (`s`, `share`, `fraction`, `pt/√s`).
    public var unit: String
    /// Whether the value is the class's share of the population rather than a number in the file.
    public var isShare: Bool
    /// The plausible range per population name; `*` for any population not listed.
    public var ranges: [String: ClosedRange<Double>]
    /// Where the range comes from: a citation, or `assumption: …` with the reasoning (DOMAIN §7's M and U).
    public var source: String

    public init(name: String, keyPath: String, unit: String, isShare: Bool = false, ranges: [String: ClosedRange<Double>],
                source: String) {
        self.name = name
        self.keyPath = keyPath
        self.unit = unit
        self.isShare = isShare
        self.ranges = ranges
        self.source = source
    }

    /// The range for a population by name, from this table.
    public func range(for population: String) -> ClosedRange<Double>? { ranges[population] ?? ranges["*"] }

    /// The range a review varies the assumption over in `population`, and its source: the one place the robustness
    /// section asks. The population file's own `{value, range, source}` for `keyPath` comes first (schema v2; for
    /// `*.key`, the widest range its classes give); this table is the fallback, for a file without ranges and for
    /// the shares, which a file gives as raw class weights rather than shares.
    public func plausibleRange(in population: Population) -> (range: ClosedRange<Double>, source: String)? {
        if !isShare {
            let (className, key) = parts
            let suffix = "." + key.joined(separator: ".")
            let given = population.parameters.filter { parameter in
                parameter.evidence.range != nil
                    && (className == "*" ? parameter.keyPath.hasSuffix(suffix) : parameter.keyPath == keyPath)
            }
            if let first = given.first, let firstRange = first.evidence.range {
                let range = given.dropFirst().reduce(firstRange) { widest, parameter in
                    guard let next = parameter.evidence.range else { return widest }
                    return Swift.min(widest.lowerBound, next.lowerBound)...Swift.max(widest.upperBound, next.upperBound)
                }
                return (range, first.evidence.source ?? source)
            }
        }
        return range(for: population.name).map { ($0, source) }
    }

    /// The class name (or `*`) and the key inside the class.
    var parts: (className: String, key: [String]) {
        let split = keyPath.split(separator: ".").map(String.init)
        return (split.first ?? "", Array(split.dropFirst()))
    }
}

/// The behaviour assumptions a review varies, with their plausible ranges and sources.
///
/// A population file's own ranges (schema v2: `{value, range, source}` beside each number) come first
/// (`plausibleRange(in:)`); these are the fallback, for a file without ranges and for the class shares: the ones
/// proposed, with their sources, in the evidence review of the shipped populations (`docs/POPULATIONS.md`): wide
/// where the evidence is thin. Each range is the
/// value's, not its mean's: `reaction.mu` is the ex-Gaussian's normal part (mean = mu + tau).
public enum BehaviourAssumptions {
    public static let all: [BehaviourAssumption] = [
        BehaviourAssumption(
            name: "reaction delay", keyPath: "deliberate.reaction.mu", unit: "s",
            ranges: ["*": 0.13...0.25, "motor-impaired": 0.10...0.65],
            source: "Woods et al. 2015 (Front Hum Neurosci 9:131): calibrated visual simple reaction time 213 ms after hardware correction (231 ms raw), N = 1469, 18–65 y; mu 0.13–0.25 s gives means of 0.17–0.29 s with tau 0.04. Motor-impaired: assumption (no measurement found), means 0.25–0.80 s"),
        BehaviourAssumption(
            name: "patience with a control that shows nothing", keyPath: "deliberate.patience.median", unit: "s",
            ranges: ["*": 0.5...4.0, "hurried": 0.4...1.5, "motor-impaired": 1.0...6.0],
            source: "assumption: nobody has measured it; bounds only (a cause is no longer linked to its effect beyond about 2 s, Shanks et al. 1989)"),
        BehaviourAssumption(
            name: "share of anticipating users", keyPath: "anticipating.weight", unit: "share", isShare: true,
            ranges: ["*": 0.05...0.40],
            source: "assumption: no base rate of people who aim at the fill's end has been published"),
        BehaviourAssumption(
            name: "how early anticipating users let go", keyPath: "anticipating.bias", unit: "fraction of the fill",
            ranges: ["*": -0.15...0.10, "hurried": -0.20...0.05],
            source: "assumption: the sign is not settled (taps precede a beat, Miyake et al. 2004; older adults show little bias, Haywood 1980)"),
        BehaviourAssumption(
            name: "anticipation spread (Weber fraction)", keyPath: "anticipating.weber", unit: "fraction",
            ranges: ["*": 0.05...0.25, "motor-impaired": 0.10...0.35],
            source: "interval-timing Weber fractions 0.05–0.22 (Fechner Day proceedings: 0.14 for unpaced production; Wackermann 2006: about 0.22); none measured with a visible fill"),
        BehaviourAssumption(
            name: "accidental touch length", keyPath: "accidental.hold.median", unit: "s",
            ranges: ["*": 0.03...0.15, "hurried": 0.03...0.20, "motor-impaired": 0.06...1.5],
            source: "Matero & Colley 2012 (DIS): 99.7 % of intentional touches last 70–400 ms, unintentional ones are much shorter; no distribution published. Motor-impaired: per-user mean touch times of 58–1563 ms (Vatavu et al., CHI EA 2026, N = 7)"),
        BehaviourAssumption(
            name: "share of accidental touches", keyPath: "accidental.weight", unit: "share", isShare: true,
            ranges: ["*": 0.02...0.30],
            source: "assumption: no base rate; about 1500 of 4000 touches were unintentional in 17 people chosen for the problem (Matero & Colley 2012), an upper end"),
        BehaviourAssumption(
            name: "hesitant touch length", keyPath: "hesitant.hold.median", unit: "s",
            ranges: ["*": 0.25...1.0, "motor-impaired": 0.4...2.0],
            source: "assumption: no study of people who start a hold and abort it was found"),
        BehaviourAssumption(
            name: "finger drift while holding", keyPath: "*.movement.drift", unit: "pt/√s",
            ranges: ["*": 1.0...4.0, "hurried": 1.5...5.0, "motor-impaired": 2.5...8.0],
            source: "assumption: nothing gives pt/√s; resting tremor is about 0.2 pt (Growdon et al. 2000, N = 40) and a careful finger holds within 1.1 pt (Bérard & Rochet-Capellan 2012)"),
    ]
}

/// Why an assumption cannot be set in a population: a class or key it does not have, or a value it refuses.
public struct AssumptionError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension BehaviourAssumption {
    /// The classes of `population` the assumption reaches (by index); empty when it has none of them.
    func classIndices(in population: Population) -> [Int] {
        let (className, key) = parts
        return population.classes.indices.filter { index in
            let userClass = population.classes[index]
            guard className == "*" || userClass.name == className else { return false }
            return (try? Self.value(of: key, in: userClass)) != nil
        }
    }

    /// Whether the assumption can vary in `population`: it has a class the assumption reaches, and for a share,
    /// another class with weight (a class that is the whole population has no share to vary).
    public func applies(to population: Population) -> Bool {
        let indices = classIndices(in: population)
        guard let first = indices.first else { return false }
        guard isShare else { return true }
        return population.classes.indices.contains { $0 != first && population.classes[$0].weight > 0 }
    }

    /// The population's value (for `*`, the first class's that has the key; for a share, the class's share).
    public func value(in population: Population) throws(AssumptionError) -> Double {
        let indices = classIndices(in: population)
        guard let first = indices.first else {
            throw AssumptionError("population \(population.name) has no class with \(keyPath); classes: "
                + population.classes.map(\.name).joined(separator: ", "))
        }
        if isShare { return population.normalizedWeights[first] }
        return try Self.value(of: parts.key, in: population.classes[first])
    }

    /// The population with the assumption set to `value` (every class it reaches), checked as a file's value is.
    public func setting(_ value: Double, in population: Population) throws(AssumptionError) -> Population {
        let indices = classIndices(in: population)
        guard !indices.isEmpty else {
            throw AssumptionError("population \(population.name) has no class with \(keyPath); classes: "
                + population.classes.map(\.name).joined(separator: ", "))
        }
        var result = population
        if isShare {
            guard value >= 0, value < 1 else { throw AssumptionError("\(keyPath): a share is from 0 to below 1 (got \(value.shortText))") }
            let index = indices[0]
            let rest = population.classes.indices.filter { $0 != index }.reduce(0.0) { $0 + population.classes[$1].weight }
            guard rest > 0 else { throw AssumptionError("\(keyPath): the class is the whole population; its share cannot vary") }
            result.classes[index].weight = value * rest / (1 - value)
            return result
        }
        for index in indices {
            result.classes[index] = try Self.setting(parts.key, to: value, in: population.classes[index], path: keyPath)
        }
        return result
    }

    /// A number of a class: `weight`, `bias`, `weber`, `movement.drift`, `movement.touchRate`, or a parameter of
    /// its `reaction`, `patience` or `hold` distribution (`reaction.mu`, `hold.median`).
    static func value(of key: [String], in userClass: UserClass) throws(AssumptionError) -> Double {
        switch (key.first, key.count) {
        case ("weight"?, 1): return userClass.weight
        case ("bias"?, 1):
            if case .anticipate(let bias, _) = userClass.behavior { return bias }
        case ("weber"?, 1):
            if case .anticipate(_, let weber) = userClass.behavior { return weber }
        case ("movement"?, 2):
            guard let movement = userClass.movement else { break }
            if key[1] == "drift" { return movement.driftPointsPerSqrtSecond }
            if key[1] == "touchRate" { return movement.touchRateHz }
        case (let name?, 2):
            if let distribution = distribution(name, of: userClass), let value = parameter(key[1], of: distribution) { return value }
        default: break
        }
        throw AssumptionError("class \(userClass.name) has no \(key.joined(separator: "."))")
    }

    static func distribution(_ name: String, of userClass: UserClass) -> Distribution? {
        switch (name, userClass.behavior) {
        case ("reaction", .react(let reaction, _)): reaction
        case ("patience", .react(_, let patience)): patience
        case ("hold", .hold(let duration)): duration
        default: nil
        }
    }

    /// A distribution's parameters as a file names them (a lognormal's `median` as well as its `mu`).
    static func parameters(of distribution: Distribution) -> (family: String, values: [String: Double])? {
        switch distribution {
        case .constant(let value): ("constant", ["value": value])
        case .uniform(let min, let max): ("uniform", ["min": min, "max": max])
        case .normal(let mean, let sd): ("normal", ["mean": mean, "sd": sd])
        case .lognormal(let mu, let sigma): ("lognormal", ["mu": mu, "sigma": sigma])
        case .gamma(let shape, let scale): ("gamma", ["shape": shape, "scale": scale])
        case .weibull(let shape, let scale): ("weibull", ["shape": shape, "scale": scale])
        case .exponential(let mean): ("exponential", ["mean": mean])
        case .exgaussian(let mu, let sigma, let tau): ("exgaussian", ["mu": mu, "sigma": sigma, "tau": tau])
        case .loglogistic(let scale, let shape): ("loglogistic", ["scale": scale, "shape": shape])
        case .mixture: nil
        }
    }

    static func parameter(_ name: String, of distribution: Distribution) -> Double? {
        guard let (family, values) = parameters(of: distribution) else { return nil }
        // A median as written (0.08, not 0.07999999999999999): 12 significant digits.
        if family == "lognormal", name == "median", let mu = values["mu"] { return Double(String(format: "%.12g", exp(mu))) ?? exp(mu) }
        return values[name]
    }

    static func setting(_ key: [String], to value: Double, in userClass: UserClass, path: String) throws(AssumptionError) -> UserClass {
        var result = userClass
        func refuse(_ requirement: String) -> AssumptionError {
            AssumptionError("\(path)=\(value.shortText): \(requirement)")
        }
        guard value.isFinite else { throw refuse("must be a finite number") }
        switch (key.first, key.count, userClass.behavior) {
        case ("weight"?, 1, _):
            guard value >= 0 else { throw refuse("a weight ≥ 0") }
            result.weight = value
        case ("bias"?, 1, .anticipate(_, let weber)):
            guard value > -1 else { throw refuse("a fraction > −1 (−0.05 = 5 % early)") }
            result.behavior = .anticipate(bias: value, weber: weber)
        case ("weber"?, 1, .anticipate(let bias, _)):
            guard value >= 0 else { throw refuse("a Weber fraction ≥ 0") }
            result.behavior = .anticipate(bias: bias, weber: value)
        case ("movement"?, 2, _):
            guard var movement = userClass.movement else { throw refuse("class \(userClass.name) has no movement") }
            if key[1] == "drift" {
                guard value >= 0 else { throw refuse("points per √second ≥ 0") }
                movement.driftPointsPerSqrtSecond = value
            } else if key[1] == "touchRate" {
                guard (1...1000).contains(value) else { throw refuse("touch samples per second from 1 to 1000") }
                movement.touchRateHz = value
            } else {
                throw refuse("movement has drift and touchRate")
            }
            result.movement = movement
        case (let name?, 2, _):
            guard let distribution = distribution(name, of: userClass), let (family, values) = parameters(of: distribution) else {
                throw refuse("class \(userClass.name) has no \(name) distribution with parameters")
            }
            var updated = values
            if family == "lognormal", key[1] == "median" {
                guard value > 0 else { throw refuse("a median > 0 s") }
                updated["mu"] = log(value)
            } else {
                guard values[key[1]] != nil else {
                    throw refuse("a \(family) distribution has " + values.keys.sorted().joined(separator: ", "))
                }
                updated[key[1]] = value
            }
            let rebuilt: Distribution
            do {
                rebuilt = try Distribution(family: family, parameters: updated)
            } catch {
                throw refuse("\(error)")
            }
            switch (name, userClass.behavior) {
            case ("reaction", .react(_, let patience)): result.behavior = .react(reaction: rebuilt, patience: patience)
            case ("patience", .react(let reaction, _)): result.behavior = .react(reaction: reaction, patience: rebuilt)
            default: result.behavior = .hold(duration: rebuilt)
            }
        default:
            throw refuse("class \(userClass.name) (\(userClass.behavior.name)) has no \(key.joined(separator: "."))")
        }
        return result
    }
}
