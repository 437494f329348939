import GSL
import HoldModel
import HoldProfiles

/// What `holdlab compare` runs for one population: every design on the same people.
public struct ComparisonRequest: Sendable {
    public var designs: [Design]
    /// Index into `designs` of the design every other is compared with.
    public var baseline: Int
    public var population: Population
    public var users: Int
    public var seed: UInt64
    /// The GSL generator the people and Timer latencies are drawn from (`--rng`).
    public var rng: Generator.Kind
    public var threads: Int
    /// The formulas of the intervals (`--intervals`).
    public var intervals: IntervalRules
    /// `--precision`: stop at the first chunk after which every design's paired difference to the baseline meets
    /// every target (`users` stays the cap).
    public var precision: Precision?

    public init(designs: [Design], baseline: Int, population: Population, users: Int, seed: UInt64,
                rng: Generator.Kind = .users, threads: Int, intervals: IntervalRules = .current,
                precision: Precision? = nil) {
        self.designs = designs
        self.baseline = baseline
        self.population = population
        self.users = users
        self.seed = seed
        self.rng = rng
        self.threads = threads
        self.intervals = intervals
        self.precision = precision
    }
}

/// One row of the comparison: a metric of one design against the baseline, in one population.
public struct ComparisonRow: Sendable {
    public var population: String
    public var design: String
    public var baseline: String
    public var metric: ComparedMetric
    public var difference: PairedStatistics.Difference
    /// How the paired interval was computed (the `method` column).
    public var method: String
}

/// The result for one population: each design's `simulate` summary and its paired differences to the baseline.
public struct DesignComparison: Sendable {
    /// In design order; `profile` is the design's profile name (the label is in `designs`).
    public var summaries: [SimulationSummary]
    /// For every design but the baseline, every metric (`ComparedMetric.all` order).
    public var rows: [ComparisonRow]
}

/// Runs designs against one population with common random numbers and paired tallies.
///
/// The chunking and streams are `Simulator`'s exactly (chunk c of `Simulator.chunkSize` users draws its people from
/// stream 2c of the seed and each design's Timer latencies from its own generator on stream 2c + 1), so each
/// design's summary is byte for byte the `simulate` row of its profile with the same population, users and seed.
/// Everything a person brings — class, frame phase, hold duration or reaction, patience, anticipation error, the
/// uniform that places a movement cancel — is drawn once per person by `PreparedPopulation.draw` with no
/// reference to a design, and every design is then run on that one `DrawnUser`. Timer latencies are the
/// device's, not the person's: each design draws them in sequence from its own generator on the chunk's latency
/// stream, so they are common to the designs only until designs consume different numbers of ticks.
///
/// Per chunk and per design, the person's measures are paired with the baseline's in exact integer tallies; chunks
/// merge in any order, so results do not depend on `threads`. Memory is per thread and per design, not per user.
public enum PairedComparison {
    /// Runs the request.
    ///
    /// - Parameters:
    ///   - perUser: receives per-user rows (`Simulator.perUserColumns`, the design label in `profile`), in user
    ///     order, a chunk at a time; nil skips them.
    ///   - progress: called after each batch of chunks with the number of users done.
    public static func run(
        _ request: ComparisonRequest,
        perUser: ((String) throws -> Void)? = nil,
        progress: ((Int) -> Void)? = nil
    ) throws -> DesignComparison {
        precondition(request.designs.indices.contains(request.baseline), "the baseline is one of the designs")
        let population = PreparedPopulation(request.population)
        let profiles = request.designs.map(\.profile)
        let controls = try profiles.map { try ChunkRunner.prepare($0, population: request.population) }
        let chunks = Simulator.chunkCount(users: request.users)
        let threads = max(1, min(request.threads, chunks))
        let workers = (0..<threads).map { _ in
            PairedWorker(designs: request.designs, prepared: controls, baseline: request.baseline, population: population,
                         seed: request.seed, rng: request.rng, perUser: perUser != nil)
        }
        var tallies: [Tally]
        var pairs: [PairTally]
        if let precision = request.precision {
            // Each chunk's own tallies, folded in chunk order: the run stops at the first chunk after which every
            // paired difference meets every target, and is then exactly the run of that many users.
            var folded: ([Tally], [PairTally])?
            _ = try ChunkRunner.run(0..<chunks, users: request.users, workers: workers, take: { worker in
                var own = (Array(repeating: Tally(), count: worker.tallies.count),
                           Array(repeating: PairTally(), count: worker.pairs.count))
                swap(&own.0, &worker.tallies)
                swap(&own.1, &worker.pairs)
                for index in own.0.indices { own.0[index].finish() }
                return own
            }, perUser: perUser, progress: progress) { chunk in
                if folded == nil {
                    folded = chunk
                } else {
                    for index in chunk.0.indices { folded!.0[index].merge(chunk.0[index]) }
                    for index in chunk.1.indices { folded!.1[index].merge(chunk.1[index]) }
                }
                return precision.isMet(folded!.1, baseline: request.baseline, rules: request.intervals)
            }
            (tallies, pairs) = folded ?? (Array(repeating: Tally(), count: profiles.count),
                                          Array(repeating: PairTally(), count: profiles.count))
        } else {
            try ChunkRunner.run(0..<chunks, users: request.users, workers: workers, perUser: perUser, progress: progress)
            for worker in workers {
                for index in worker.tallies.indices { worker.tallies[index].finish() }
            }
            tallies = workers[0].tallies
            pairs = workers[0].pairs
            for worker in workers.dropFirst() {
                for index in tallies.indices { tallies[index].merge(worker.tallies[index]) }
                for index in pairs.indices { pairs[index].merge(worker.pairs[index]) }
            }
        }
        let summaries = zip(profiles, tallies).map { profile, tally in
            SimulationSummary(profile: profile.name, population: request.population.name, seed: request.seed, tally: tally)
        }
        var rows: [ComparisonRow] = []
        let baseline = request.designs[request.baseline].label
        for (index, design) in request.designs.enumerated() where index != request.baseline {
            for metric in ComparedMetric.all {
                rows.append(ComparisonRow(
                    population: request.population.name, design: design.label, baseline: baseline, metric: metric,
                    difference: pairs[index].difference(metric, rules: request.intervals),
                    method: metric.method(request.intervals)))
            }
        }
        return DesignComparison(summaries: summaries, rows: rows)
    }
}

/// One thread's state for a comparison: its evaluators, a `Tally` per design and a `PairTally` per design (the
/// baseline's stays empty).
private final class PairedWorker: ChunkWorker, @unchecked Sendable {
    let controls: [ControlUnderTest]
    let labels: [String]
    let baseline: Int
    let population: PreparedPopulation
    let latencyDistributions: [Distribution]
    let seed: UInt64
    let rng: Generator.Kind
    let keepsRows: Bool
    var tallies: [Tally]
    var pairs: [PairTally]
    private var measures: [PersonMeasures]
    /// Without rows: the chunk's people, each design's measures of them (design by design), and the block runner.
    private var drawn: [DrawnUser] = []
    private var personMeasures: [PersonMeasures] = []
    private let blocks = BlockRunner()
    /// Draws the chunk's people a block at a time.
    private let drawBuffers: DrawBuffers
    private var rows: [Int: String] = [:]
    /// Per design, its `--per-user` row writer.
    private let rowWriters: [PerUserRow]

    init(designs: [Design], prepared: [(PreparedControl, [Movement?])], baseline: Int,
         population: PreparedPopulation, seed: UInt64, rng: Generator.Kind, perUser: Bool) {
        controls = zip(designs, prepared).map { ControlUnderTest(profile: $0.profile, prepared: $1.0, movements: $1.1) }
        labels = designs.map(\.label)
        latencyDistributions = designs.map(\.profile.timerLatency)
        self.baseline = baseline
        self.population = population
        drawBuffers = DrawBuffers(classes: population.traits.count)
        self.seed = seed
        self.rng = rng
        keepsRows = perUser
        tallies = Array(repeating: Tally(), count: designs.count)
        pairs = Array(repeating: PairTally(), count: designs.count)
        measures = Array(repeating: PersonMeasures(), count: designs.count)
        rowWriters = designs.map { PerUserRow(profile: $0.label, classes: population.population.classes) }
    }

    func run(chunk: Int, users: Int) {
        if keepsRows {
            runWithRows(chunk: chunk, users: users)
            return
        }
        // The chunk's people, drawn once before any design runs: every design sees the very same DrawnUser. Each
        // design then runs them all (a Timer design draws its latencies from its own generator in person order, as
        // person by person), and the pairs are counted person by person.
        let people = Generator(seed: seed, stream: UInt64(chunk) * 2, kind: rng)
        if !drawn.isEmpty { drawn.removeAll(keepingCapacity: true) }
        population.draw(users, from: people, into: &drawn, buffers: drawBuffers)
        if personMeasures.count < controls.count * users {
            personMeasures = Array(repeating: PersonMeasures(), count: controls.count * Simulator.chunkSize)
        }
        personMeasures.withUnsafeMutableBufferPointer { measures in
        tallies.withUnsafeMutableBufferPointer { tallies in
        drawn.withUnsafeBufferPointer { drawn in
        population.traits.withUnsafeBufferPointer { traits in
            for index in controls.indices {
                let control = controls[index]
                let mine = measures.baseAddress! + index * users
                blocks.run(control, people: drawn, traits: traits) {
                    DrawnLatencies(latencyDistributions[index],
                                   generator: Generator(seed: seed, stream: UInt64(chunk) * 2 + 1, kind: rng))
                } accidental: { offset, fired in
                    tallies[index].addAccidental(fired: fired)
                    mine[offset] = PersonMeasures(accidentalFired: fired)
                } person: { offset, hold in
                    tallies[index].add(hold)
                    mine[offset] = PersonMeasures(hold)
                }
            }
        }}}}
        let plan = PairPlan.compared
        personMeasures.withUnsafeBufferPointer { measures in
            let baseline = measures.baseAddress! + self.baseline * users
            for index in controls.indices where index != self.baseline {
                let design = measures.baseAddress! + index * users
                // Counted into a local tally (its arrays then have one owner and the worker is not accessed per
                // person), then put back.
                var tally = PairTally()
                swap(&tally, &pairs[index])
                for offset in 0..<users { tally.add(design: design[offset], baseline: baseline[offset], plan: plan) }
                swap(&tally, &pairs[index])
            }
        }
    }

    /// `run` writing per-user rows: person by person, every design on each person in turn.
    private func runWithRows(chunk: Int, users: Int) {
        let people = Generator(seed: seed, stream: UInt64(chunk) * 2, kind: rng)
        var latencies = latencyDistributions.map {
            DrawnLatencies($0, generator: Generator(seed: seed, stream: UInt64(chunk) * 2 + 1, kind: rng))
        }
        var text: [UInt8] = []
        let plan = PairPlan.compared
        for offset in 0..<users {
            // One draw per person, before any design runs: every design sees this very DrawnUser.
            let user = population.draw(people)
            let traits = population.traits[user.classIndex]
            for index in controls.indices {
                let run = controls[index].run(user, traits: traits, latencies: &latencies[index])
                tallies[index].add(run)
                measures[index] = PersonMeasures(run)
                rowWriters[index].append(
                    user: chunk * Simulator.chunkSize + offset + 1, drawn: user,
                    cancelTime: controls[index].cancelTime(user), run: run, to: &text)
            }
            for index in controls.indices where index != baseline {
                pairs[index].add(design: measures[index], baseline: measures[baseline], plan: plan)
            }
        }
        rows[chunk] = String(decoding: text, as: UTF8.self)
    }

    func takeRows(chunk: Int) -> String {
        rows.removeValue(forKey: chunk) ?? ""
    }
}
