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
    public var baseline: Int
    public var populations: [Population]
    /// The formulas of the intervals (`--intervals`).
    public var intervals: IntervalRules

    public init(designs: [Design], sets: [[String]], paths: [String], baseline: Int, populations: [Population],
                intervals: IntervalRules = .current) {
        self.designs = designs
        self.sets = sets
        self.paths = paths
        self.baseline = baseline
        self.populations = populations
        self.intervals = intervals
    }

    /// Runs every population in turn, optionally streaming per-user rows with a `population` column first.
    ///
    /// - Parameter progress: users done so far over every population.
    public func run(users: Int, seed: UInt64, threads: Int, perUser: ((String) throws -> Void)? = nil,
                    progress: ((Int) -> Void)? = nil) throws -> [DesignComparison] {
        var results: [DesignComparison] = []
        for (index, population) in populations.enumerated() {
            let request = ComparisonRequest(
                designs: designs, baseline: baseline, population: population, users: users, seed: seed, threads: threads,
                intervals: intervals)
            results.append(try PairedComparison.run(
                request, perUser: perUser.map { populationRows(population.name, write: $0) },
                progress: { progress?(index * users + $0) }))
        }
        return results
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
