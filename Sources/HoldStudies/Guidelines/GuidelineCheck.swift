import GSL
import HoldLabIO
import HoldProfiles
import HoldSimulation

/// A profile to check and the population its simulated rules run against.
public struct GuidelineSubject: Sendable {
    public var profile: Profile
    public var population: Population
    /// The name or file the population was loaded by (`--population`, or the profile's own): the provenance lists
    /// the populations in the order of these names.
    public var populationArgument: String

    public init(profile: Profile, population: Population, populationArgument: String) {
        self.profile = profile
        self.population = population
        self.populationArgument = populationArgument
    }
}

/// `holdlab check`: every rule of ``Guidelines`` on each profile, one row per profile and rule.
public struct GuidelineCheckRequest: Sendable {
    /// The profiles, in order, each with its population.
    public var subjects: [GuidelineSubject]
    /// The population of `motor-impaired-completion`.
    public var impairedPopulation: Population
    /// Synthetic users per simulation, and the seed of every simulation and trace.
    public var users: Int
    public var seed: UInt64
    /// The GSL generator the simulations' people and Timer latencies are drawn from (`--rng`).
    public var rng: Generator.Kind
    /// Worker threads; results do not depend on them.
    public var threads: Int
    public var thresholds: GuidelineThresholds
    /// The command line the result records (`CommandRecord.line`).
    public var commandLine: String
    /// The `--set` values every profile was loaded with: a fix of a key one gives takes its place.
    public var sets: [String]

    public init(subjects: [GuidelineSubject], impairedPopulation: Population, users: Int, seed: UInt64,
                rng: Generator.Kind = .users, threads: Int, thresholds: GuidelineThresholds = GuidelineThresholds(),
                commandLine: String, sets: [String] = []) {
        self.sets = sets
        self.rng = rng
        self.subjects = subjects
        self.impairedPopulation = impairedPopulation
        self.users = users
        self.seed = seed
        self.threads = threads
        self.thresholds = thresholds
        self.commandLine = commandLine
    }

    /// Checks every profile (simulating each against its population and the impaired one) and returns the results
    /// with the typed result: the provenance (tool, command, profiles, populations, users and seed) and a row per
    /// profile and rule.
    ///
    /// - Parameter progress: called with the number of profiles checked so far.
    public func run(progress: ((Int) -> Void)? = nil) throws -> GuidelineCheckResult {
        var results: [GuidelineResult] = []
        var together: [(profile: String, text: String)] = []
        for (index, subject) in subjects.enumerated() {
            let request = GuidelineRequest(
                profile: subject.profile, population: subject.population, impairedPopulation: impairedPopulation,
                users: users, seed: seed, rng: rng, threads: threads, thresholds: thresholds, sets: sets)
            let own = try Guidelines.check(request)
            if let fixes = try Guidelines.together(request, own) {
                together.append((subject.profile.name, fixes.sentence { setting, replaced in
                    "`--set \(setting)`" + (replaced.isEmpty ? "" : " in place of `\(replaced.map { "--set \($0)" }.joined(separator: " "))`")
                }))
            }
            results += own
            progress?(index + 1)
        }
        let set = thresholds.ruleSet
        let table = ResultTable(provenance: provenance, columns: Guidelines.resultColumns(set),
                                rows: results.map { Guidelines.cells($0, set) })
        return GuidelineCheckResult(results: results, document: ResultDocument(table), together: together)
    }

    var provenance: Provenance {
        var provenance = Provenance.made(by: "check", commandLine: commandLine)
        for subject in subjects {
            provenance.append("profile", "\(subject.profile.name) fnv1a64:\(subject.profile.contentHash)")
        }
        var populations: [String: Population] = [:]
        for subject in subjects { populations[subject.populationArgument] = populations[subject.populationArgument] ?? subject.population }
        for argument in populations.keys.sorted() {
            if let population = populations[argument] {
                provenance.append("population", "\(population.name) fnv1a64:\(population.contentHash)")
            }
        }
        provenance.append("impaired_population", "\(impairedPopulation.name) fnv1a64:\(impairedPopulation.contentHash)")
        provenance.append("users", "\(users) per simulation, seed \(seed)")
        // The trace rules draw a Timer fill's latencies from mt19937 whatever `--rng` says (`Guidelines.timeline`):
        // the line says so where such draws happen.
        let tracesDraw = rng != .mt19937 && subjects.contains { subject in
            guard case .timer = subject.profile.control.fill.model else { return false }
            return subject.profile.timerLatency.variance != 0
        }
        provenance.append("rng", tracesDraw
            ? "\(rng.rawValue) (the simulated users; the trace rules' Timer latencies are mt19937's)" : rng.rawValue)
        return provenance
    }
}

/// What `holdlab check` found: each rule's result for each profile, and the result every format is rendered from.
public struct GuidelineCheckResult: Sendable {
    public let results: [GuidelineResult]
    /// One row per profile and rule (``Guidelines/resultColumns``).
    public let document: ResultDocument
    /// Per profile with two fixes or more, what they do together (`Guidelines.together`): standard error's to say.
    public var together: [(profile: String, text: String)] = []

    /// The rules that failed: the answer is "no" when there is one.
    public var failures: [GuidelineResult] { results.filter { $0.status == .fail } }
}
