import GSL
import HoldLabIO
import HoldModel
import HoldProfiles

/// A problem found while preparing a simulation (a bad profile × population combination).
public struct SimulationError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// What `holdlab simulate` runs: several profiles against one population with one seed.
public struct SimulationRequest: Sendable {
    public var profiles: [Profile]
    public var population: Population
    /// Synthetic users per profile.
    public var users: Int
    public var seed: UInt64
    /// The GSL generator the people and Timer latencies are drawn from (`--rng`).
    public var rng: Generator.Kind
    /// Worker threads; results do not depend on it.
    public var threads: Int
    /// `--precision`: stop at the first chunk after which every profile meets every target (`users` stays the cap).
    public var precision: Precision?

    public init(profiles: [Profile], population: Population, users: Int, seed: UInt64, rng: Generator.Kind = .users,
                threads: Int, precision: Precision? = nil) {
        self.profiles = profiles
        self.population = population
        self.users = users
        self.seed = seed
        self.rng = rng
        self.threads = threads
        self.precision = precision
    }
}

/// Runs synthetic users against profiles, in parallel, deterministically.
///
/// Users are split into fixed chunks of `chunkSize`. Chunk c draws its people from generator stream 2c and its
/// Timer latencies from stream 2c + 1 of the master seed, so a user's draws never depend on the thread count,
/// on the other profiles in the run, or on the order chunks finish in. Every profile sees the same people
/// (common random numbers). Tallies hold exact integers and merge in any order; memory is per thread and per
/// profile, never per user.
public enum Simulator {
    /// Users per chunk: the unit of work and of random streams. Changing it changes results.
    public static let chunkSize = 4096

    /// Per-user CSV columns (`--per-user`).
    public static let perUserColumns = [
        "profile", "user", "class", "intent", "behavior", "frame_phase", "release_ms", "cancel_ms", "press_end_ms",
        "outcome", "trigger_ms", "first_feedback_ms", "first_full_frame_ms", "pulses", "dropped_pulses", "mismatch_ms",
        "progress_at_trigger", "retract_ms",
    ]

    /// Runs the request (with `precision`, until every profile meets it or `users` is reached: the summaries are
    /// then exactly those of a run of the users taken).
    ///
    /// - Parameters:
    ///   - perUser: receives per-user CSV rows (no header), in user order, a chunk at a time; nil skips them.
    ///   - progress: called after each batch of chunks with the number of users done per profile.
    /// - Returns: one summary per profile, in request order.
    public static func run(
        _ request: SimulationRequest,
        perUser: ((String) throws -> Void)? = nil,
        progress: ((Int) -> Void)? = nil
    ) throws -> [SimulationSummary] {
        let tallies = try tallies(request, chunks: 0..<chunkCount(users: request.users), perUser: perUser, progress: progress)
        return zip(request.profiles, tallies).map { profile, tally in
            SimulationSummary(profile: profile.name, population: request.population.name, seed: request.seed, tally: tally)
        }
    }

    /// The number of chunks `users` users make.
    public static func chunkCount(users: Int) -> Int { (users + chunkSize - 1) / chunkSize }

    /// The tallies of the chunks in `chunkRange` only (a shard of the run; `run` takes every chunk): one per
    /// profile, finished. Chunk c is the same people and streams whatever the range, so merging the tallies of
    /// ranges that cover every chunk once gives exactly `run`'s tallies.
    ///
    /// - Parameter progress: users done so far in this range, per profile.
    static func tallies(
        _ request: SimulationRequest, chunks chunkRange: Range<Int>,
        perUser: ((String) throws -> Void)? = nil,
        progress: ((Int) -> Void)? = nil
    ) throws -> [Tally] {
        let population = PreparedPopulation(request.population)
        let prepared = try request.profiles.map { try ChunkRunner.prepare($0, population: request.population) }
        // More workers than chunks would only allocate tallies that stay empty.
        let threads = max(1, min(request.threads, chunkRange.count))
        let workers = (0..<threads).map { _ in
            Worker(profiles: request.profiles, prepared: prepared, population: population, seed: request.seed,
                   rng: request.rng, perUser: perUser != nil)
        }
        if let precision = request.precision {
            // Each chunk's own tallies, folded in chunk order: the run stops at the first chunk after which every
            // profile meets every target, and is then exactly the run of that many users.
            var folded: [Tally]?
            _ = try ChunkRunner.run(chunkRange, users: request.users, workers: workers, take: { worker in
                var own = Array(repeating: Tally(), count: worker.tallies.count)
                swap(&own, &worker.tallies)
                for index in own.indices { own[index].finish() }
                return own
            }, perUser: perUser, progress: progress) { chunk in
                if folded == nil {
                    folded = chunk
                } else {
                    for index in chunk.indices { folded![index].merge(chunk[index]) }
                }
                return folded!.allSatisfy { precision.isMet($0) }
            }
            return folded ?? Array(repeating: Tally(), count: request.profiles.count)
        }
        try ChunkRunner.run(chunkRange, users: request.users, workers: workers, perUser: perUser, progress: progress)
        // Each worker's pending runs of equal values go into its own histograms (unshared: no copy), then merge.
        for worker in workers {
            for index in worker.tallies.indices { worker.tallies[index].finish() }
        }
        var tallies = workers[0].tallies
        for worker in workers.dropFirst() {
            for index in tallies.indices { tallies[index].merge(worker.tallies[index]) }
        }
        return tallies
    }
}

/// One thread's state: its own evaluators and tallies; touched by one thread at a time.
private final class Worker: ChunkWorker, @unchecked Sendable {
    let controls: [ControlUnderTest]
    let population: PreparedPopulation
    let latencyDistributions: [Distribution]
    let seed: UInt64
    let rng: Generator.Kind
    let keepsRows: Bool
    // One thread's own state, mutated per user: no dynamic exclusivity checks (see HoldEvaluator).
    @exclusivity(unchecked) var tallies: [Tally]
    @exclusivity(unchecked) private var rows: [Int: String] = [:]

    init(profiles: [Profile], prepared: [(PreparedControl, [Movement?])], population: PreparedPopulation, seed: UInt64,
         rng: Generator.Kind, perUser: Bool) {
        controls = zip(profiles, prepared).map { ControlUnderTest(profile: $0, prepared: $1.0, movements: $1.1) }
        latencyDistributions = profiles.map(\.timerLatency)
        self.population = population
        drawBuffers = DrawBuffers(classes: population.traits.count)
        self.seed = seed
        self.rng = rng
        keepsRows = perUser
        tallies = Array(repeating: Tally(), count: profiles.count)
        rowWriters = profiles.map { PerUserRow(profile: $0.name, classes: population.population.classes) }
    }

    /// The chunk's people, drawn once for every profile.
    @exclusivity(unchecked) private var drawn: [DrawnUser] = []
    /// Runs them through controls whose held timeline depends on the phase alone.
    private let blocks = BlockRunner()
    /// Draws the chunk's people a block at a time.
    private let drawBuffers: DrawBuffers
    /// Per profile, its `--per-user` row writer; the chunk's rows, in user order.
    let rowWriters: [PerUserRow]
    @exclusivity(unchecked) private var chunkText: [UInt8] = []

    /// Runs one chunk: its people are drawn first (user by user, as ever), then each profile runs them all into its
    /// own tally (`BlockRunner`). With per-user rows each person runs every profile in turn, the rows of a person
    /// together. A profile's Timer latencies come from its own generator on the chunk's latency stream, so the
    /// order of the loops changes no draw.
    func run(chunk: Int, users: Int) {
        let people = Generator(seed: seed, stream: UInt64(chunk) * 2, kind: rng)
        if !drawn.isEmpty { drawn.removeAll(keepingCapacity: true) }
        population.draw(users, from: people, into: &drawn, buffers: drawBuffers)
        if keepsRows {
            runWithRows(chunk: chunk, users: users)
            return
        }
        tallies.withUnsafeMutableBufferPointer { tallies in
            drawn.withUnsafeBufferPointer { drawn in
                population.traits.withUnsafeBufferPointer { traits in
                    for index in controls.indices {
                        blocks.run(controls[index], people: drawn, traits: traits) {
                            DrawnLatencies(latencyDistributions[index],
                                           generator: Generator(seed: seed, stream: UInt64(chunk) * 2 + 1, kind: rng))
                        } accidental: { _, fired in
                            tallies[index].addAccidental(fired: fired)
                        } person: { _, hold in
                            tallies[index].add(hold)
                        }
                    }
                }
            }
        }
    }

    /// `run` writing per-user rows: every person is run whole, every profile on each person in turn.
    private func runWithRows(chunk: Int, users: Int) {
        var latencies = latencyDistributions.map {
            DrawnLatencies($0, generator: Generator(seed: seed, stream: UInt64(chunk) * 2 + 1, kind: rng))
        }
        chunkText.removeAll(keepingCapacity: true)
        for offset in 0..<users {
            let user = drawn[offset]
            let traits = population.traits[user.classIndex]
            for index in controls.indices {
                let control = controls[index]
                let run = control.run(user, traits: traits, latencies: &latencies[index])
                tallies[index].add(run)
                rowWriters[index].append(
                    user: chunk * Simulator.chunkSize + offset + 1, drawn: user, cancelTime: control.cancelTime(user),
                    run: run, to: &chunkText)
            }
        }
        rows[chunk] = String(decoding: chunkText, as: UTF8.self)
    }

    func takeRows(chunk: Int) -> String {
        rows.removeValue(forKey: chunk) ?? ""
    }
}

/// Writes `--per-user` rows (`Simulator.perUserColumns`) for one profile (or design label) and population: the
/// fields that are names are made once, every row is appended to a byte buffer.
struct PerUserRow {
    private let profile: [UInt8]
    /// Per class: its name, intent and behaviour fields, each followed by its comma.
    private let classFields: [[UInt8]]

    init(profile: String, classes: [UserClass]) {
        self.profile = Array(CSV.field(profile).utf8)
        classFields = classes.map { userClass in
            Array((CSV.field(userClass.name) + "," + userClass.intent.rawValue + "," + userClass.behavior.name + ",").utf8)
        }
    }

    /// Appends one person's row, newline included.
    func append(user: Int, drawn: DrawnUser, cancelTime: Double, run: UserRun, to bytes: inout [UInt8]) {
        let comma = UInt8(ascii: ",")
        func ms(_ seconds: Double?) {
            CSV.appendNumber(seconds.map { $0 * 1000 }, decimals: 3, to: &bytes)
            bytes.append(comma)
        }
        let hold = run.hold
        bytes.append(contentsOf: profile)
        bytes.append(comma)
        CSV.appendInteger(user, to: &bytes)
        bytes.append(comma)
        bytes.append(contentsOf: classFields[drawn.classIndex])
        CSV.appendNumber(drawn.framePhase, decimals: 6, to: &bytes)
        bytes.append(comma)
        // On the one clock, as press_end_ms: the drawn release rounded to its nanosecond (0.3.5 printed the drawn
        // seconds, which could round to the other side of a half microsecond from the same instant).
        ms(run.release.isFinite ? Instant.seconds(Instant.nanoseconds(run.release)) : run.release)
        ms(cancelTime.isFinite ? cancelTime : nil)
        ms(hold.pressEndTime)
        bytes.append(contentsOf: run.outcome.rawValue.utf8)
        bytes.append(comma)
        ms(hold.completed ? run.timeline.triggerTime : nil)
        ms(hold.feedback.map(Instant.seconds))
        ms(run.timeline.firstFullFrameTime)
        CSV.appendInteger(hold.pulses, to: &bytes)
        bytes.append(comma)
        CSV.appendInteger(hold.droppedPulses, to: &bytes)
        bytes.append(comma)
        ms(hold.mismatchSeconds)
        CSV.appendNumber(hold.displayedProgressAtTrigger, decimals: 6, to: &bytes)
        bytes.append(comma)
        CSV.appendNumber(hold.retractSeconds.map { $0 * 1000 }, decimals: 3, to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
    }
}
