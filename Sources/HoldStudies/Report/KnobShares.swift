import GSL
import HoldLabIO
import HoldProfiles
import HoldSimulation

/// Each knob's share of a variant's effect: for a variant that sets more than one key, the effect of each key alone
/// from the profile it varies, of each key removed from the variant, the interaction left over, and (with at most
/// `KnobShares.maximumShapleyKeys` keys) each key's Shapley value, all on the same people with paired intervals.
public struct KnobDecomposition: Sendable {
    /// One key's part.
    public struct Term: Sendable {
        /// `key=value` as the variant sets it.
        public var key: String
        /// The key alone, from the base design: v({key}) − v(∅).
        public var alone: ContrastEstimate?
        /// What the variant loses without the key: v(K) − v(K ∖ {key}).
        public var removed: ContrastEstimate?
        /// The key's Shapley value (the average of its effect over every order of adding the keys); nil above
        /// `KnobShares.maximumShapleyKeys` keys.
        public var shapley: ContrastEstimate?
    }

    public var variant: String
    /// The design the variant's keys are added to (its profile with the common `--set` values).
    public var base: String
    public var population: String
    public var metric: String
    /// The variant against its base: v(K) − v(∅).
    public var total: ContrastEstimate?
    /// What the keys alone do not explain: v(K) − v(∅) − Σ (v({key}) − v(∅)).
    public var interaction: ContrastEstimate?
    public var terms: [Term]
}

/// A variant to decompose: its label, the design it is built from, and the keys it sets.
public struct KnobVariant: Sendable {
    public var label: String
    public var base: String
    /// The base design's profile file, its text, and the `--set` values every design shares.
    public var profilePath: String
    public var profileText: String
    public var common: [Override]
    /// The variant's own `key=value` texts.
    public var keys: [String]

    public init(label: String, base: String, profilePath: String, profileText: String, common: [Override], keys: [String]) {
        self.label = label
        self.base = base
        self.profilePath = profilePath
        self.profileText = profileText
        self.common = common
        self.keys = keys
    }
}

public enum KnobShares {
    /// Up to this many keys every subset is simulated (2^k designs) and Shapley values are given; above it, each key
    /// alone and each key removed (2k + 2 designs).
    public static let maximumShapleyKeys = 4

    /// The subsets of the keys that are simulated, as bit masks (bit i: key i set), in design order.
    static func subsets(keys k: Int) -> [Int] {
        let full = (1 << k) - 1
        if k <= maximumShapleyKeys { return Array(0...full) }
        return [0] + (0..<k).map { 1 << $0 } + (0..<k).map { full & ~(1 << $0) } + [full]
    }

    static func factorial(_ n: Int) -> Int { n <= 1 ? 1 : (2...n).reduce(1, *) }

    /// The contrasts, in order: total, interaction, then per key alone, removed and (up to the limit) Shapley.
    static func contrasts(keys k: Int) -> [Contrast] {
        let masks = subsets(keys: k)
        let full = (1 << k) - 1
        func index(_ mask: Int) -> Int { masks.firstIndex(of: mask)! }
        func difference(_ a: Int, _ b: Int) -> Contrast { Contrast.difference(index(a), index(b), count: masks.count) }
        var result = [difference(full, 0)]
        var interaction = difference(full, 0)
        for key in 0..<k {
            interaction.weights[index(1 << key)] -= 1
            interaction.weights[index(0)] += 1
        }
        result.append(interaction)
        for key in 0..<k {
            result.append(difference(1 << key, 0))
            result.append(difference(full, full & ~(1 << key)))
            if k <= maximumShapleyKeys {
                // φ = Σ over S not holding the key of |S|!(k − |S| − 1)!/k! · (v(S ∪ {key}) − v(S)).
                var weights = Array(repeating: 0, count: masks.count)
                for mask in masks where mask & (1 << key) == 0 {
                    let size = mask.nonzeroBitCount
                    let weight = factorial(size) * factorial(k - size - 1)
                    weights[index(mask | (1 << key))] += weight
                    weights[index(mask)] -= weight
                }
                result.append(Contrast(weights: weights, divisor: factorial(k)))
            }
        }
        return result
    }

    /// Decomposes a variant against each population, for the rates named in `metrics` that are rates of people
    /// (`ContrastComparison.metrics`); any other (a mean, a rate over holds) has no per-person contrast and is left out.
    public static func run(_ variant: KnobVariant, populations: [Population], metrics: [String], users: Int, seed: UInt64,
                           rng: Generator.Kind = .users, threads: Int, intervals: IntervalRules = .current)
        throws -> [KnobDecomposition] {
        let k = variant.keys.count
        let overrides = try variant.keys.map { text throws(ProfileError) in try Override(parsing: text) }
        var designs: [Design] = []
        for mask in subsets(keys: k) {
            let chosen = (0..<k).filter { mask & (1 << $0) != 0 }
            let profile = try Profile.load(yaml: variant.profileText, path: variant.profilePath,
                                           overrides: variant.common + chosen.map { overrides[$0] })
            let label = chosen.isEmpty ? variant.base : chosen.map { variant.keys[$0] }.joined(separator: " ")
            designs.append(Design(label: label, profile: profile))
        }
        let contrasts = contrasts(keys: k)
        let perKey = k <= maximumShapleyKeys ? 3 : 2
        var result: [KnobDecomposition] = []
        for population in populations {
            let run = try ContrastComparison.run(ContrastRequest(
                designs: designs, population: population, users: users, seed: seed, rng: rng, threads: threads,
                contrasts: contrasts, intervals: intervals))
            for metric in metrics where ContrastComparison.metrics.contains(metric) {
                let estimates = run.estimates.map { $0[metric] }
                let terms = (0..<k).map { key in
                    KnobDecomposition.Term(
                        key: variant.keys[key], alone: estimates[2 + key * perKey], removed: estimates[3 + key * perKey],
                        shapley: perKey == 3 ? estimates[4 + key * perKey] : nil)
                }
                result.append(KnobDecomposition(
                    variant: variant.label, base: variant.base, population: population.name, metric: metric,
                    total: estimates[0], interaction: estimates[1], terms: terms))
            }
        }
        return result
    }

    /// `knob-shares.csv`: one row per variant, population, metric and term (each key, the interaction, the total).
    public static func table(_ decompositions: [KnobDecomposition], provenance: Provenance) -> ResultTable {
        let columns: [ResultColumn] = [
            ResultColumn("variant", .text), ResultColumn("base", .text), ResultColumn("population", .text),
            ResultColumn("metric", .text), ResultColumn("term", .text, definition: "key=value, interaction or total"),
            ResultColumn("people", .integer, definition: "the rate's denominator: intent or accidental users"),
        ] + ["alone", "removed", "shapley"].flatMap { name in
            [ResultColumn(name, .number, unit: "0–1"), ResultColumn(name + "_lo", .number, unit: "0–1", role: .lowerBound(of: name)),
             ResultColumn(name + "_hi", .number, unit: "0–1", role: .upperBound(of: name))]
        }
        func cells(_ estimate: ContrastEstimate?) -> [ResultCell] {
            [.number(estimate?.estimate, decimals: 6), .number(estimate?.lower, decimals: 6), .number(estimate?.upper, decimals: 6)]
        }
        var rows: [[ResultCell]] = []
        for d in decompositions {
            let people = d.total?.people ?? 0
            func head(_ term: String) -> [ResultCell] {
                [.text(d.variant), .text(d.base), .text(d.population), .text(d.metric), .text(term), .integer(people)]
            }
            for term in d.terms { rows.append(head(term.key) + cells(term.alone) + cells(term.removed) + cells(term.shapley)) }
            rows.append(head("interaction") + cells(d.interaction) + cells(nil) + cells(nil))
            rows.append(head("total") + cells(d.total) + cells(nil) + cells(nil))
        }
        return ResultTable(provenance: provenance, columns: columns, rows: rows)
    }
}

extension ComparisonPlan {
    /// The designs made of the first profile with `--set` values of their own (`--variant`): their index and
    /// their own `key=value` texts (the common `--set` values left out).
    public var variants: [(index: Int, keys: [String])] {
        guard let first = paths.first, let common = sets.first else { return [] }
        return designs.indices.dropFirst().compactMap { index in
            guard paths[index] == first, sets[index].count > common.count, Array(sets[index].prefix(common.count)) == common else {
                return nil
            }
            return (index, Array(sets[index].dropFirst(common.count)))
        }
    }
}
