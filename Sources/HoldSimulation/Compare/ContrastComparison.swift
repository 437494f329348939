import GSL
import HoldLabIO
import HoldModel
import HoldProfiles

/// A linear contrast of designs measured on the same people: Σ weightₐ·rateₐ / divisor, with integer weights so
/// that every person's contribution, and every sum over people, is an exact integer.
///
/// A design against a baseline is `[+1 at the design, −1 at the baseline]`; the interaction of two keys A and B is
/// `AB − A − B + ∅`; a Shapley value of one of k keys has weights |S|!(k − |S| − 1)! and divisor k!.
public struct Contrast: Sendable, Equatable {
    /// One weight per design of the request, in design order.
    public var weights: [Int]
    /// What the weighted sum is divided by (> 0).
    public var divisor: Int

    public init(weights: [Int], divisor: Int = 1) {
        precondition(divisor > 0, "a contrast's divisor is positive")
        self.weights = weights
        self.divisor = divisor
    }

    /// The smallest and largest contrast one person can have: every outcome is 0 or 1 under each design, so the
    /// negative weights' sum and the positive weights' sum.
    public var extremes: (lowest: Int, highest: Int) {
        (weights.filter { $0 < 0 }.reduce(0, +), weights.filter { $0 > 0 }.reduce(0, +))
    }

    /// `design − baseline` over `count` designs.
    public static func difference(_ design: Int, _ baseline: Int, count: Int) -> Contrast {
        var weights = Array(repeating: 0, count: count)
        weights[design] += 1
        weights[baseline] -= 1
        return Contrast(weights: weights)
    }
}

/// What `ContrastComparison.run` runs: designs on the same people, and the contrasts to estimate.
public struct ContrastRequest: Sendable {
    public var designs: [Design]
    public var population: Population
    public var users: Int
    public var seed: UInt64
    /// The GSL generator the people and Timer latencies are drawn from (`--rng`).
    public var rng: Generator.Kind
    public var threads: Int
    public var contrasts: [Contrast]
    /// The intervals' formulas (`--intervals`): `IntervalRules.contrastMethod`.
    public var intervals: IntervalRules

    public init(designs: [Design], population: Population, users: Int, seed: UInt64, rng: Generator.Kind = .users,
                threads: Int, contrasts: [Contrast], intervals: IntervalRules = .current) {
        precondition(contrasts.allSatisfy { $0.weights.count == designs.count }, "one weight per design")
        self.designs = designs
        self.population = population
        self.users = users
        self.seed = seed
        self.rng = rng
        self.threads = threads
        self.contrasts = contrasts
        self.intervals = intervals
    }
}

/// A contrast's estimate for one rate: the mean over the rate's people (intent or accidental users, the same under
/// every design) of each person's weighted outcome, with a 95 % interval on those per-person values
/// (`ContrastSums.estimate`).
public struct ContrastEstimate: Sendable, Equatable {
    /// The rate's people (its denominator).
    public var people: Int
    public var estimate: Double
    public var lower: Double
    public var upper: Double
}

/// The result for one population: each design's `simulate` summary, and per contrast the estimate of every rate over
/// people decided by their class (`ContrastComparison.metrics`).
public struct ContrastResult: Sendable {
    public var summaries: [SimulationSummary]
    /// `estimates[contrast][metric name]`; absent when the rate has no people.
    public var estimates: [[String: ContrastEstimate]]
}

/// Runs several designs on the same people (common random numbers, exactly as `PairedComparison`: chunk c draws its
/// people from stream 2c of the seed, each design its Timer latencies from stream 2c + 1) and estimates linear
/// contrasts of their rates person by person. Each design's summary equals its `simulate` row, and a difference
/// contrast equals `compare`'s difference; the interval is on the per-person contrasts, which for a contrast of
/// more than two designs (an interaction, a Shapley value) accounts for every design's correlation over the same
/// people. Sums are exact integers merged in any order, so nothing depends on
/// the thread count.
public enum ContrastComparison {
    /// The rates a contrast is estimated for: every registry rate over people decided by their class.
    public static var metrics: [String] { rateMetrics.map(\.name) }

    static let rateMetrics: [(name: String, event: HoldEvent, over: HoldEvent)] = Metric.all.compactMap { metric in
        guard case .rate(let event, let denominator, _) = metric.kind, denominator == .intent || denominator == .accidental else {
            return nil
        }
        return (metric.name, event, denominator)
    }

    public static func run(_ request: ContrastRequest, progress: ((Int) -> Void)? = nil) throws -> ContrastResult {
        let population = PreparedPopulation(request.population)
        let profiles = request.designs.map(\.profile)
        let controls = try profiles.map { try ChunkRunner.prepare($0, population: request.population) }
        let chunks = Simulator.chunkCount(users: request.users)
        let threads = max(1, min(request.threads, chunks))
        let workers = (0..<threads).map { _ in
            ContrastWorker(designs: request.designs, prepared: controls, population: population, seed: request.seed,
                           rng: request.rng, contrasts: request.contrasts)
        }
        try ChunkRunner.run(0..<chunks, users: request.users, workers: workers, perUser: nil, progress: progress)
        for worker in workers {
            for index in worker.tallies.indices { worker.tallies[index].finish() }
        }
        var tallies = workers[0].tallies
        var sums = workers[0].sums
        for worker in workers.dropFirst() {
            for index in tallies.indices { tallies[index].merge(worker.tallies[index]) }
            for index in sums.indices { sums[index].merge(worker.sums[index]) }
        }
        let summaries = zip(profiles, tallies).map { profile, tally in
            SimulationSummary(profile: profile.name, population: request.population.name, seed: request.seed, tally: tally)
        }
        var estimates: [[String: ContrastEstimate]] = []
        for (index, contrast) in request.contrasts.enumerated() {
            var byMetric: [String: ContrastEstimate] = [:]
            for (metricIndex, metric) in rateMetrics.enumerated() {
                byMetric[metric.name] = sums[index * rateMetrics.count + metricIndex].estimate(
                    divisor: contrast.divisor, extremes: contrast.extremes, rules: request.intervals)
            }
            estimates.append(byMetric)
        }
        return ContrastResult(summaries: summaries, estimates: estimates)
    }
}

/// Σc and Σc² of the per-person contrasts c over a rate's people, exact.
struct ContrastSums: Sendable {
    var people = 0
    var sum: Int64 = 0
    var squares: Int64 = 0

    @inline(__always)
    mutating func add(_ value: Int64) {
        people &+= 1
        sum &+= value
        squares &+= value &* value
    }

    mutating func merge(_ other: ContrastSums) {
        people += other.people
        sum += other.sum
        squares += other.squares
    }

    /// The mean of c / divisor with its 95 % interval; nil without people. c lies in `extremes` for every person.
    ///
    /// - `v0_3`: Bonett and Price's adjustment (`PairedStatistics.bonettPricePaired`) carried to a contrast: two
    ///   pseudo-people, one at each extreme, are added, and the Wald interval of the augmented n + 2 values (their
    ///   second moment less the square of their mean, over n + 2) is centred on their mean and clipped to the
    ///   extremes. For a difference of two designs (extremes −1 and +1) this is Bonett and Price's interval exactly,
    ///   `compare`'s; like it, it never has zero width, so a sample in which nobody differs still leaves a share of
    ///   about 1/n possible. The estimate stays the plain mean.
    /// - `v0_1`, `v0_2`: the Wald interval of the per-person contrasts (sample variance over n − 1), which has no
    ///   width with one person or every person's contrast equal.
    func estimate(divisor: Int, extremes: (lowest: Int, highest: Int), rules: IntervalRules) -> ContrastEstimate? {
        guard people > 0 else { return nil }
        let n = Double(people)
        let scale = Double(divisor)
        let mean = Double(sum) / n
        if rules == .v0_3 {
            let lowest = Double(extremes.lowest), highest = Double(extremes.highest)
            let augmented = n + 2
            let centre = (Double(sum) + lowest + highest) / augmented
            let second = (Double(squares) + lowest * lowest + highest * highest) / augmented
            let half = Proportion.z95 * (max(0, second - centre * centre) / augmented).squareRoot()
            return ContrastEstimate(people: people, estimate: mean / scale, lower: max(lowest, centre - half) / scale,
                                    upper: min(highest, centre + half) / scale)
        }
        // Σ(c − c̄)² = Σc² − (Σc)²/n, from exact integers.
        let centred = max(0, Double(squares) - Double(sum) * Double(sum) / n)
        let variance = people > 1 ? centred / (n - 1) : 0
        let half = Proportion.z95 * (variance / n).squareRoot()
        return ContrastEstimate(people: people, estimate: mean / scale, lower: (mean - half) / scale, upper: (mean + half) / scale)
    }
}

/// One thread's state: its evaluators, a `Tally` per design and `ContrastSums` per contrast and rate.
private final class ContrastWorker: ChunkWorker, @unchecked Sendable {
    let controls: [ControlUnderTest]
    let population: PreparedPopulation
    let latencyDistributions: [Distribution]
    let seed: UInt64
    let rng: Generator.Kind
    let contrasts: [Contrast]
    var tallies: [Tally]
    var sums: [ContrastSums]
    private var drawn: [DrawnUser] = []
    private var personMeasures: [PersonMeasures] = []
    private let blocks = BlockRunner()
    /// Draws the chunk's people a block at a time.
    private let drawBuffers: DrawBuffers

    init(designs: [Design], prepared: [(PreparedControl, [Movement?])], population: PreparedPopulation, seed: UInt64,
         rng: Generator.Kind, contrasts: [Contrast]) {
        controls = zip(designs, prepared).map { ControlUnderTest(profile: $0.profile, prepared: $1.0, movements: $1.1) }
        latencyDistributions = designs.map(\.profile.timerLatency)
        self.population = population
        drawBuffers = DrawBuffers(classes: population.traits.count)
        self.seed = seed
        self.rng = rng
        self.contrasts = contrasts
        tallies = Array(repeating: Tally(), count: designs.count)
        sums = Array(repeating: ContrastSums(), count: contrasts.count * ContrastComparison.rateMetrics.count)
    }

    func run(chunk: Int, users: Int) {
        // The chunk's people, drawn once before any design runs (as PairedComparison does).
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
                let mine = measures.baseAddress! + index * users
                blocks.run(controls[index], people: drawn, traits: traits) {
                    DrawnLatencies(latencyDistributions[index], generator: Generator(seed: seed, stream: UInt64(chunk) * 2 + 1, kind: rng))
                } accidental: { offset, fired in
                    tallies[index].addAccidental(fired: fired)
                    mine[offset] = PersonMeasures(accidentalFired: fired)
                } person: { offset, hold in
                    tallies[index].add(hold)
                    mine[offset] = PersonMeasures(hold)
                }
            }
        }}}}
        let metrics = ContrastComparison.rateMetrics
        let designs = controls.count
        personMeasures.withUnsafeBufferPointer { measures in
            for offset in 0..<users {
                // Whose rates the person is in is decided by the class: the same under every design.
                let first = measures[offset]
                for (metricIndex, metric) in metrics.enumerated() where first.happened(metric.over) {
                    for (contrastIndex, contrast) in contrasts.enumerated() {
                        var value: Int64 = 0
                        for design in 0..<designs where contrast.weights[design] != 0 {
                            if measures[design * users + offset].happened(metric.event) { value += Int64(contrast.weights[design]) }
                        }
                        sums[contrastIndex * metrics.count + metricIndex].add(value)
                    }
                }
            }
        }
    }

    func takeRows(chunk: Int) -> String { "" }
}
