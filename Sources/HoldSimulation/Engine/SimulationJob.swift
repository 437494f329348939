import GSL
import HoldLabIO
import HoldProfiles

/// What `holdlab simulate` runs: profiles against one or more populations with one seed, every profile on the same
/// people (common random numbers), population by population; and what the output records of it.
public struct SimulationJob: Sendable {
    public var profiles: [Profile]
    /// At least one.
    public var populations: [Population]
    /// Synthetic users per profile and population.
    public var users: Int
    public var seed: UInt64
    /// The GSL generator the people and Timer latencies are drawn from (`--rng`).
    public var rng: Generator.Kind
    public var threads: Int
    /// The command line the output records (`CommandRecord`).
    public var commandLine: String
    /// `--precision`: each population's run stops at the first chunk where every profile meets every target;
    /// `users` is then the cap.
    public var precision: Precision?

    public init(profiles: [Profile], populations: [Population], users: Int, seed: UInt64, rng: Generator.Kind = .users,
                threads: Int, commandLine: String) {
        precondition(!populations.isEmpty, "a simulation needs a population")
        self.profiles = profiles
        self.populations = populations
        self.users = users
        self.seed = seed
        self.rng = rng
        self.threads = threads
        self.commandLine = commandLine
    }

    /// The populations to run: the ones given, else the one every profile names.
    ///
    /// - Throws: `SimulationError` when none is given and the profiles name different ones.
    public static func populationNames(given: [String], profiles: [Profile]) throws(SimulationError) -> [String] {
        if !given.isEmpty { return given }
        let named = Set(profiles.map(\.population))
        guard named.count == 1, let only = named.first else {
            let list = profiles.map { "\($0.name): \($0.population)" }.joined(separator: ", ")
            throw SimulationError(message: "The profiles name different populations (\(list)); choose one with --population.")
        }
        return [only]
    }

    /// What identifies the results: populations and profiles with their hashes, users and seed (a shard's merge
    /// writes these back).
    public var identity: Provenance {
        var lines = Provenance(populations.map { ("population", "\($0.name) fnv1a64:\($0.contentHash)") })
        for profile in profiles { lines.append("profile", "\(profile.name) fnv1a64:\(profile.contentHash)") }
        lines.append("users", "\(users) per profile\(populations.count > 1 ? " and population" : ""), seed \(seed)")
        lines.append("rng", rng.rawValue)
        return lines
    }

    /// The provenance of every file the run writes.
    public var provenance: Provenance { Provenance.made(by: "simulate", commandLine: commandLine) + identity }

    /// The provenance of a run with `--precision` once it has ended: the `# users:` line says the users taken
    /// (per population when they differ), and a `# precision:` line per population says whether the targets were
    /// met there. Without `--precision`, `provenance`.
    public func provenance(outcomes: [PrecisionOutcome]) -> Provenance {
        guard precision != nil, outcomes.count == populations.count else { return provenance }
        var lines = Provenance.made(by: "simulate", commandLine: commandLine)
        for entry in identity.entries where entry.key != "users" { lines.append(entry.key, entry.value) }
        let taken = Set(outcomes.map(\.users))
        let counts = taken.count == 1 ? "\(outcomes[0].users)"
            : zip(populations, outcomes).map { "\($1.users) (\($0.name))" }.joined(separator: ", ")
        lines.append("users", "\(counts) per profile\(populations.count > 1 ? " and population" : ""), seed \(seed)")
        for (population, outcome) in zip(populations, outcomes) {
            lines.append("precision", (populations.count > 1 ? "\(population.name): " : "") + outcome.provenanceValue)
        }
        return lines
    }

    /// How each population's run ended under `--precision` (empty without it), from `summaries`' rows.
    public func outcomes(_ summaries: [SimulationSummary]) -> [PrecisionOutcome] {
        guard let precision else { return [] }
        return populations.indices.map { index in
            let rows = summaries.dropFirst(index * profiles.count).prefix(profiles.count)
            return precision.outcome(Array(rows), cap: users)
        }
    }

    /// The `--per-user` file's head: provenance and header (with several populations, a `population` column first,
    /// as `compare --per-user` has). It is written before the run: with `--precision` its `# users:` line is the
    /// cap and a `# precision:` line says the rows stop where the summary says.
    /// Without `comments` (`--no-comments`, `HOLDLAB_NO_COMMENTS=1`) the header alone.
    public func perUserHead(comments: Bool = true) -> String {
        Self.perUserHead(provenance: provenance, precision: precision, populationColumn: populations.count > 1,
                         comments: comments, stops: "the rows", counted: "the summary's")
    }

    /// The provenance lines (unless `comments` is false) and header of a per-user file: `simulate --per-user`'s and
    /// `compare --per-user`'s (which always has the population column). Under `precision` a line says where the rows
    /// stop: `stops` names the rows, `counted` the output whose `# users:` line says how many.
    public static func perUserHead(provenance: Provenance, precision: Precision?, populationColumn: Bool,
                                   comments: Bool, stops: String, counted: String) -> String {
        let header = ((populationColumn ? ["population"] : []) + Simulator.perUserColumns).joined(separator: ",") + "\n"
        guard comments else { return header }
        var lines = provenance
        if let precision {
            lines.append("precision", "\(precision): \(stops) stop at the first chunk of \(Simulator.chunkSize) users where every target is met (at most --users; \(counted) # users: line says how many)")
        }
        return lines.lines + header
    }

    /// The request of one population.
    public func request(_ population: Population) -> SimulationRequest {
        SimulationRequest(profiles: profiles, population: population, users: users, seed: seed, rng: rng, threads: threads,
                          precision: precision)
    }

    /// Runs every population in turn: one summary row per profile and population.
    ///
    /// - Parameters:
    ///   - perUser: receives per-user rows (no head), in order; nil skips them.
    ///   - progress: users done so far over every population.
    public func run(perUser: ((String) throws -> Void)? = nil, progress: ((Int) -> Void)? = nil) throws -> ResultTable {
        let summaries = try summaries(perUser: perUser, progress: progress)
        return SimulationCSV.table(summaries, provenance: provenance(outcomes: outcomes(summaries)))
    }

    /// `run`'s summaries, before they become rows (for the notes a command prints about them).
    public func summaries(perUser: ((String) throws -> Void)? = nil, progress: ((Int) -> Void)? = nil) throws -> [SimulationSummary] {
        var summaries: [SimulationSummary] = []
        for (index, population) in populations.enumerated() {
            summaries += try Simulator.run(
                request(population),
                perUser: populations.count > 1 ? perUser.map { populationRows(population.name, write: $0) } : perUser,
                progress: { progress?(index * users + $0) })
        }
        return summaries
    }
}
