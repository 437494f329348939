import GSL
import HoldLabIO
import HoldProfiles

/// What a comparison runs: the designs, their `--set` texts, the baseline and the populations (`compare`,
/// `report`).
public struct ComparisonPlan: Sendable {
    public var designs: [Design]
    /// Per design, the `--set` values applied to its profile (common ones, then the variant's).
    public var sets: [[String]]
    /// Per design, the profile file its YAML comes from.
    public var paths: [String]
    /// Per design, the text of that file as the design was loaded from it (nil: read `paths` when asked): studies
    /// that load the profile again (a review's sweeps and knob shares) load this text, not the file again.
    public var texts: [String]?
    public var baseline: Int
    public var populations: [Population]
    /// The formulas of the intervals (`--intervals`).
    public var intervals: IntervalRules
    /// The GSL generator the people and Timer latencies are drawn from (`--rng`).
    public var rng: Generator.Kind

    public init(designs: [Design], sets: [[String]], paths: [String], texts: [String]? = nil, baseline: Int,
                populations: [Population], intervals: IntervalRules = .current, rng: Generator.Kind = .users) {
        self.rng = rng
        self.designs = designs
        self.sets = sets
        self.paths = paths
        self.texts = texts
        self.baseline = baseline
        self.populations = populations
        self.intervals = intervals
    }

    /// The profile text design `index` was loaded from (`texts`), else its file read now.
    public func profileText(of index: Int) throws(ProfileError) -> String {
        if let texts { return texts[index] }
        return try ProfileLibrary.read(paths[index], what: "profile")
    }

    /// The `--set` values of design `index` that reach its profile, parsed: what a study that loads the design's
    /// profile again applies to it (a review's sweeps and knob shares). Its population keys are left out: they were
    /// applied to `populations` already, and a profile has no such keys.
    public func profileOverrides(of index: Int) throws(ProfileError) -> [Override] {
        try sets[index].map { text throws(ProfileError) in try Override(parsing: text) }.filter { !$0.reachesPopulation }
    }

    /// Runs every population in turn, optionally streaming per-user rows with a `population` column first.
    ///
    /// - Parameters:
    ///   - precision: `--precision`: each population's comparison stops on its own at the first chunk where every
    ///     paired difference meets every target (`users` is then the cap).
    ///   - progress: users done so far over every population.
    public func run(users: Int, seed: UInt64, threads: Int, precision: Precision? = nil,
                    perUser: ((String) throws -> Void)? = nil,
                    progress: ((Int) -> Void)? = nil) throws -> [DesignComparison] {
        var results: [DesignComparison] = []
        for (index, population) in populations.enumerated() {
            let request = ComparisonRequest(
                designs: designs, baseline: baseline, population: population, users: users, seed: seed, rng: rng,
                threads: threads, intervals: intervals, precision: precision)
            results.append(try PairedComparison.run(
                request, perUser: perUser.map { populationRows(population.name, write: $0) },
                progress: { progress?(index * users + $0) }))
        }
        return results
    }

    /// The note `compare` prints when a difference between two designs that are not the same profile has a paired
    /// interval of zero width; nil when none has.
    ///
    /// Rates (`bonett-price-paired`, `bonett-price-delta`) never have zero width. A mean's interval has it when the
    /// difference is the same for every person both designs count (a gesture 100 ms later, one pulse per hold under
    /// both): the sample shows nothing that could move it. That is exact when the model makes it so, but a
    /// difference that occurs in fewer than about 3 in N people often does not show in a sample of N, and then the
    /// interval claims a certainty the sample cannot give (docs/INTERVALS.md). Identical designs (the same profile
    /// hash) differ by exactly 0 for every person and are not noted.
    public func zeroWidthNote(_ results: [DesignComparison]) -> String? {
        let hashes = Dictionary(designs.map { ($0.label, $0.profile.contentHash) }, uniquingKeysWith: { first, _ in first })
        let baselineHash = designs[baseline].profile.contentHash
        var entries: [String] = []
        // Each population's sample: with --precision one population can stop at fewer people than another.
        var samples: [(population: String, people: Int)] = []
        for result in results {
            let people = result.summaries.first?.users ?? 0
            var noted = false
            for row in result.rows where hashes[row.design] != baselineHash {
                guard let lower = row.difference.lower, let upper = row.difference.upper, lower == upper else { continue }
                entries.append("\(row.metric.name) (\(row.design), \(row.population))")
                if !noted, let population = result.summaries.first?.population {
                    samples.append((population, people))
                    noted = true
                }
            }
        }
        guard !entries.isEmpty else { return nil }
        let shown = entries.prefix(4).joined(separator: ", ")
        let more = entries.count > 4 ? " and \(entries.count - 4) more" : ""
        // "Fewer than about 3 in N" is a share only above 3 people; a sample that small can miss any difference
        // that not everyone shares.
        let sizes = Set(samples.map(\.people))
        let unseen: String
        if sizes.count > 1 {
            let each = samples.map { "\($0.people) for \($0.population)" }.joined(separator: ", ")
            unseen = "a difference that occurs in fewer than about 3 in N people may not show in a sample of N, N the "
                + "population's people (\(each))"
        } else {
            let people = sizes.first ?? 0
            unseen = people > 3
                ? "a difference that occurs in fewer than about 3 in \(people) people may not show in a sample of \(people)"
                : "a sample of \(people) \(people == 1 ? "person" : "people") can miss any difference that not every person shares"
        }
        return "note: a zero-width paired interval: these differences are the same for every person both designs count, "
            + "exact if the model makes them so, but \(unseen) (docs/INTERVALS.md): \(shown)\(more)"
    }

    /// The note for the values written NaN because a design has no value of a metric (and so no difference from
    /// the baseline, or none for the designs against it): per design and population, the reason
    /// (`SimulationSummary.whyUndefined`: `completed = 0`, `no completed hold had a fill`); then the intervals
    /// undefined although both designs have the value (a mean of one value under a design); nil when every cell is
    /// defined.
    public func undefinedNote(_ results: [DesignComparison]) -> String? {
        var groups = NameGroups()
        for result in results {
            for (index, summary) in result.summaries.enumerated() where index < designs.count {
                for metric in ComparedMetric.all {
                    guard let why = summary.whyUndefined(metric.name) else { continue }
                    groups.add(metric.name, to: "\(designs[index].label) (\(summary.population)), \(why)")
                }
            }
        }
        // Where both designs have a value, its intervals can still be undefined: a mean's needs two values under each
        // design (`PairedMeanTally.difference`).
        var few = NameGroups()
        for result in results {
            for row in result.rows {
                let d = row.difference
                guard d.designValue != nil, d.baselineValue != nil,
                      d.diff == nil || d.lower == nil || d.upper == nil || d.unpairedLower == nil || d.unpairedUpper == nil
                else { continue }
                few.add(row.metric.name, to: "\(row.design) (\(row.population))")
            }
        }
        var parts: [String] = []
        if !groups.isEmpty {
            parts.append("undefined values are written as NaN where a design has no value, and so no difference: "
                + groups.joined { "\($0) of \($1)" })
        }
        if !few.isEmpty {
            parts.append("intervals are written as NaN where a design or the baseline has the value for only one person "
                + "(a mean's 95 % interval needs two values under each design, as simulate writes none for a mean of one): "
                + few.joined { "\($0) of \($1)" })
        }
        return parts.isEmpty ? nil : "note: " + parts.joined(separator: ". ")
    }

    /// How each population's comparison ended under `precision`.
    public func outcomes(_ results: [DesignComparison], precision: Precision, cap: Int) -> [PrecisionOutcome] {
        results.map { precision.outcome($0, cap: cap) }
    }

    /// The provenance of a run with `--precision` once it has ended: the `# users:` line says the users taken (per
    /// population when they differ) and a `# precision:` line per population whether the targets were met.
    public func provenance(outcomes: [PrecisionOutcome], seed: UInt64) -> Provenance {
        var lines = Provenance(provenance(users: 0, seed: seed).entries.filter { $0.key != "users" && $0.key != "method" })
        let taken = Set(outcomes.map(\.users))
        let counts = taken.count == 1 ? "\(outcomes.first?.users ?? 0)"
            : zip(populations, outcomes).map { "\($1.users) (\($0.name))" }.joined(separator: ", ")
        lines.append("users", "\(counts) per population, seed \(seed) (common random numbers)")
        lines.append("method", intervals.provenance)
        for (population, outcome) in zip(populations, outcomes) {
            lines.append("precision", (populations.count > 1 ? "\(population.name): " : "") + outcome.provenanceValue)
        }
        return lines
    }

    /// Provenance lines: populations, designs (profile, hash, the values set) and the sample.
    public func provenance(users: Int, seed: UInt64) -> Provenance {
        var lines = Provenance(populations.map { ("population", "\($0.name) fnv1a64:\($0.contentHash)") })
        for (design, sets) in zip(designs, sets) {
            let setText = sets.isEmpty ? "" : " --set " + sets.map { CSV.commandLine([$0]) }.joined(separator: " --set ")
            lines.append("design", "\(design.label) = \(design.profile.name) fnv1a64:\(design.profile.contentHash)\(setText)")
        }
        lines.append("baseline", designs[baseline].label)
        lines.append("users", "\(users) per population, seed \(seed) (common random numbers)")
        lines.append("rng", rng.rawValue)
        lines.append("method", intervals.provenance)
        return lines
    }
}

/// A per-user writer that puts a `population` field before every line (for runs over several populations).
public func populationRows(_ population: String, write: @escaping (String) throws -> Void) -> (String) throws -> Void {
    let prefix = CSV.field(population) + ","
    return { text in
        var lines = ""
        for line in text.split(separator: "\n") { lines += prefix + line + "\n" }
        try write(lines)
    }
}
