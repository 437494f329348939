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

    /// The `--per-user` file's head: provenance and header (with several populations, a `population` column first,
    /// as `compare --per-user` has).
    public var perUserHead: String {
        provenance.lines + ((populations.count > 1 ? ["population"] : []) + Simulator.perUserColumns).joined(separator: ",") + "\n"
    }

    /// The request of one population.
    public func request(_ population: Population) -> SimulationRequest {
        SimulationRequest(profiles: profiles, population: population, users: users, seed: seed, rng: rng, threads: threads)
    }

    /// Runs every population in turn: one summary row per profile and population.
    ///
    /// - Parameters:
    ///   - perUser: receives per-user rows (no head), in order; nil skips them.
    ///   - progress: users done so far over every population.
    public func run(perUser: ((String) throws -> Void)? = nil, progress: ((Int) -> Void)? = nil) throws -> ResultTable {
        SimulationCSV.table(try summaries(perUser: perUser, progress: progress), provenance: provenance)
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
