import Foundation
import HoldLabIO
import HoldLabTestSupport
import Testing
import GSL
@testable import HoldSimulation

/// The means' 95 % intervals (`SampleMean`, the `_lo`/`_hi` columns): the t quantile, exact sums, coverage, closed
/// forms through the simulator, and the shard columns that carry the sums of squares.
@Suite("mean intervals")
struct SampleMeanTests {
    /// The integer sums `Tally` keeps, of `values`.
    static func sample(_ values: [Int64], scale: Double = 1) -> SampleMean {
        SampleMean(sum: values.reduce(0) { $0 + Int128($1) }, squares: values.reduce(0) { $0 + Int128($1) * Int128($1) },
                   count: values.count, scale: scale)
    }

    @Test("t quantiles with closed forms: ν = 1 (Cauchy, tan(0.475π)) and ν = 2 ((2p − 1)/√(2p(1 − p))), to 1e-9")
    func smallCounts() throws {
        // {0, 2}: mean 1, s = √2, s/√2 = 1; t(0.975, 1) = tan(0.475π) = 12.7062047361747.
        let two = try #require(Self.sample([0, 2]).interval95)
        let t1 = tan(0.475 * Double.pi)
        #expect(abs(two.lower - (1 - t1)) < 1e-9 && abs(two.upper - (1 + t1)) < 1e-9)
        // {1, 2, 3}: mean 2, s = 1, s/√3; t(0.975, 2) = 0.95/√(2·0.975·0.025) = 4.30265272974946.
        let three = try #require(Self.sample([1, 2, 3]).interval95)
        let t2 = 0.95 / (2 * 0.975 * 0.025).squareRoot()
        #expect(abs(three.upper - (2 + t2 / 3.0.squareRoot())) < 1e-9 && abs(three.lower - (2 - t2 / 3.0.squareRoot())) < 1e-9)
        // Scale divides the mean and the half-width: microseconds to milliseconds.
        let scaled = try #require(Self.sample([1000, 2000, 3000], scale: 1000).interval95)
        #expect(abs(scaled.upper - (2 + t2 / 3.0.squareRoot())) < 1e-12)
        // The standard error is s/√n in the reported unit: 1/√3 ms here, the half-width over t.
        let error = try #require(Self.sample([1000, 2000, 3000], scale: 1000).standardError)
        #expect(abs(error - 1 / 3.0.squareRoot()) < 1e-15 && abs((scaled.upper - 2) / t2 - error) < 1e-12)
        #expect(Self.sample([7]).standardError == nil && Self.sample(Array(repeating: 5, count: 9)).standardError == 0)
    }

    @Test("fewer than two values: no interval (NaN in the CSV); none: no mean either; a constant: zero width exactly")
    func edges() {
        #expect(Self.sample([]).value == nil && Self.sample([]).interval95 == nil)
        #expect(Self.sample([7]).value == 7 && Self.sample([7]).interval95 == nil)
        let constant = Self.sample(Array(repeating: 1_000_000, count: 10_000), scale: 1000)
        #expect(constant.interval95 == SampleMean.Interval(lower: 1000, upper: 1000))
    }

    @Test("for large n the t quantile tends to the normal one: ν = 10⁴ and 10⁹ against SciPy to 1e-9")
    func largeCount() {
        // scipy.stats.t.ppf(0.975, ν) (SciPy 1.x): 1.960201239890626 at 10⁴, 1.959963986912325 at 10⁹; Φ⁻¹(0.975) =
        // 1.959963984540054.
        #expect(abs(StudentT.quantile(0.975, degreesOfFreedom: 1e4) - 1.960201239890626) < 1e-9)
        #expect(abs(StudentT.quantile(0.975, degreesOfFreedom: 1e9) - 1.959963986912325) < 1e-9)
        #expect(abs(StudentT.quantile(0.975, degreesOfFreedom: 1e9) - 1.959963984540054) < 1e-8)
    }

    @Test("Σ(y − ȳ)² from Int128 sums: exact where n·Σy² overflows, and no cancellation at large offsets")
    func centredSquares() {
        // 10⁶ values alternating 9·10¹² ± 1: Σ(y − ȳ)² = 10⁶ exactly from the integers (n·Σy² ≈ 8.1·10³⁷ still
        // fits), where Σy² − (Σy)²/n in doubles (Σy² ≈ 8.1·10³¹, a unit in the last place ≈ 10¹⁶) loses it all.
        let n = 1_000_000
        let big: Int128 = 9_000_000_000_000
        let sum = Int128(n) * big
        let squares = Int128(n) * big * big + Int128(n)
        #expect(SampleMean.centredSquares(squares: squares, sum: sum, count: n) == Double(n))
        #expect(max(0, Double(squares) - Double(sum) * Double(sum) / Double(n)) != Double(n))
        // 10⁶ values of 9·10¹⁵ ± 1 (µs near the clock's limit): n·Σy² overflows Int128, q·Σy does not, and the
        // q, r path is still exact.
        let huge: Int128 = 9_000_000_000_000_000
        let (_, overflow) = (Int128(n) * huge * huge).multipliedReportingOverflow(by: Int128(n))
        #expect(overflow)
        #expect(SampleMean.centredSquares(squares: Int128(n) * huge * huge + Int128(n), sum: Int128(n) * huge, count: n) == Double(n))
        // A remainder: {1, 2} has Σy = 3 = 1·2 + 1, Σ(y − ȳ)² = 0.5.
        #expect(SampleMean.centredSquares(squares: 5, sum: 3, count: 2) == 0.5)
    }

    @Test("Monte Carlo coverage of normal samples of 5 and of 400: within 4 standard errors of 95 % (z would give 88 % at 5)")
    func coverage() {
        // 4,000 samples each; the coverage's standard error is √(0.95·0.05/4000) = 0.0034, so ±0.0138 is 4 of them.
        // At n = 5 an interval with z = 1.96 in place of t(0.975, 4) = 2.776 covers 87.8 % only: 20 standard errors off.
        let generator = Generator(seed: 2026, kind: .mt19937)
        let trueMean = 1_000_000.0, sigma = 50_000.0
        for n in [5, 400] {
            var covered = 0
            let replications = 4000
            for _ in 0..<replications {
                let values = (0..<n).map { _ in Int64((trueMean + generator.gaussian(sigma: sigma)).rounded()) }
                if let interval = Self.sample(values, scale: 1000).interval95,
                   interval.lower <= trueMean / 1000, trueMean / 1000 <= interval.upper { covered += 1 }
            }
            let rate = Double(covered) / Double(replications)
            #expect(abs(rate - 0.95) <= 4 * (0.95 * 0.05 / Double(replications)).squareRoot(), "n = \(n): coverage \(rate)")
        }
    }

    @Test("through the simulator: a gesture-triggered completion is constant (zero width), and a frame-quantised mismatch has the uniform's spread")
    func closedForms() throws {
        // Hold users who all hold 2 s on a 1.0 s gesture trigger with a 0.8 s linear fill at 120 Hz: every hold
        // completes at exactly 1000 ms, with 0 pulses: both intervals have zero width. The bar looks full at
        // t* = 0.7992 s and is first drawn full at t* + δ, δ uniform on [0, 1/120) (touch-down uniform against
        // vsync), so mismatch = 200.8 ms − δ: mean 200.8 − 1000/240 = 196.633 ms, σ = (1000/120)/√12 = 2.4056 ms.
        let profile = try Make.earlyFill()
        let population = try Make.population("""
              - {name: h, weight: 1, intent: confirm, behavior: hold, hold: {dist: constant, value: 2.0}}
            """)
        let n = 100_000
        let summary = try #require(try Make.run([profile], population, users: n, seed: 11).first)
        #expect(summary.completion.successes == n)
        #expect(summary.interval(named: "completion_time_mean_ms") == SampleMean.Interval(lower: 1000, upper: 1000))
        #expect(summary.interval(named: "pulses_mean") == SampleMean.Interval(lower: 0, upper: 0))
        let mean = 200.8 - 1000.0 / 240, sigma = 1000.0 / 120 / 12.0.squareRoot()
        let interval = try #require(summary.interval(named: "mismatch_mean_ms"))
        let centre = (interval.lower + interval.upper) / 2
        // The centre is the mean (to rounding) and within 4 standard errors of the closed form.
        #expect(abs(centre - (summary.value(named: "mismatch_mean_ms") ?? .nan)) < 1e-9)
        #expect(abs(centre - mean) <= 4 * sigma / Double(n).squareRoot(), "mean \(centre), closed form \(mean)")
        // The half-width is t·σ/√n: the sample σ of 10⁵ uniforms is within 1 % of the closed form (its relative
        // standard error is √((κ − 1)/4n) = 0.14 %, κ = 1.8 for a uniform).
        let half = (interval.upper - interval.lower) / 2
        let expected = StudentT.quantile(0.975, degreesOfFreedom: Double(n - 1)) * sigma / Double(n).squareRoot()
        #expect(abs(half / expected - 1) < 0.01, "half-width \(half), closed form \(expected)")
    }

    @Test("simulator coverage: 200 runs of 500 users cover the mean of all their users about 95 % of the time")
    func simulatorCoverage() throws {
        // kikocard-article-latency's completion time and first feedback vary with Timer latency, its mismatch and
        // retract with the frame phase too (its pulse count is a constant 77: no test of coverage). Each run's
        // interval is checked against the average of all 200 runs' means (whose own sampling error is 1/√200 of
        // one run's, negligible here). 200 runs: coverage standard error 0.0154; 0.90–0.99 is more than 2.6 of
        // them either side (an interval with z for t, or without the √n, would be far off).
        let library = Make.library
        let profile = try library.loadProfile("kikocard-article-latency")
        let population = try library.loadPopulation("default")
        var summaries: [SimulationSummary] = []
        for seed in 1...200 { summaries += try Make.run([profile], population, users: 500, seed: UInt64(seed), threads: 1) }
        func check(_ name: String) {
            func mean(_ summary: SimulationSummary) -> Double? { summary.value(named: name) }
            func interval(_ summary: SimulationSummary) -> SampleMean.Interval? { summary.interval(named: name) }
            let pooled = summaries.map { mean($0) ?? .nan }.reduce(0, +) / Double(summaries.count)
            let covered = summaries.filter { summary in
                guard let i = interval(summary) else { return false }
                return i.lower <= pooled && pooled <= i.upper
            }.count
            let rate = Double(covered) / Double(summaries.count)
            #expect(rate >= 0.90 && rate <= 0.99, "\(name): coverage \(rate)")
        }
        check("completion_time_mean_ms")
        check("first_feedback_ms")
        check("mismatch_mean_ms")
        check("retract_mean_ms")
        #expect(summaries.allSatisfy { $0.interval(named: "pulses_mean") == SampleMean.Interval(lower: 77, upper: 77) })
    }

    @Test("a tally with sums of squares survives the shard columns exactly (format 2)")
    func shardColumns() throws {
        var tally = Tally()
        let squares: [(HoldValue, Int128)] = [
            (.completionTime, Int128(1) << 100), (.pulses, 12_345), (.droppedPulses, 7), (.mismatch, 99_999_999_999_999_999_999),
            (.progressAtTrigger, 1_000_000_000_000_000_000), (.firstFeedback, 42), (.retract, 3),
        ]
        for (value, square) in squares { tally.squares[value.rawValue] = square }
        let values = TallyCoding.encode(tally)
        #expect(values.count == TallyCoding.columns.count)
        let read = try TallyCoding.decode(values)
        for (value, square) in squares { #expect(read.squares[value.rawValue] == square, "\(value)") }
        #expect(TallyCoding.columns.contains("completion_time_squares_us2") && ShardFormat.version == 2)
    }
}
