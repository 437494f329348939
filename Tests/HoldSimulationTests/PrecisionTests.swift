import Foundation
import HoldLabIO
import HoldLabTestSupport
import HoldProfiles
import Testing
@testable import HoldSimulation

/// `--precision` in process: the parsing of targets, and that a run stops at a chunk boundary that does not depend on
/// the thread count, with exactly the result of a fixed run of that many users. Runs are compared with runs: no
/// number depends on the generator.
@Suite("--precision: targets and where a run stops, in process")
struct PrecisionTests {
    @Test("targets: absolute, relative, comma-separated; bad ones are refused with the allowed metrics")
    func parsing() throws {
        let precision = try Precision(parsing: ["completion_rate=0.002,completion_time_mean_ms=1%"], allowed: Precision.summaryMetrics)
        #expect(precision.targets.map(\.metric) == ["completion_rate", "completion_time_mean_ms"])
        #expect(precision.targets[0].width == .absolute(0.002))
        #expect(precision.targets[1].width == .relative(1))
        #expect(precision.description == "completion_rate=0.002,completion_time_mean_ms=1%")
        for bad in ["completion_rate=0", "completion_rate=-1", "completion_rate=nan", "completion_rate=inf", "completion_rate=50%%",
                    "completion_rate=100%", "completion_rate", "completion_time_p50_ms=1", "nope=1", "completion_rate=++0.5",
                    "completion_rate=+-0.5", "completion_rate=+", "completion_rate=+nan"] {
            #expect(throws: PrecisionError.self, "\(bad)") { try Precision(parsing: [bad], allowed: Precision.summaryMetrics) }
        }
        // One spelling and one order for one meaning: what the provenance says and --resume compares.
        let written = try Precision(parsing: ["mismatch_mean_ms=2.0%,completion_rate=5e-3"], allowed: Precision.summaryMetrics)
        #expect(written.description == "completion_rate=0.005,mismatch_mean_ms=2%")
        #expect(try Precision(parsing: ["completion_rate=0.0050", "mismatch_mean_ms=2%"], allowed: Precision.summaryMetrics) == written)
        #expect(try Precision(parsing: ["completion_rate=.5"], allowed: Precision.summaryMetrics).description == "completion_rate=0.5")
        // A leading '+', as --users and --set take it.
        #expect(try Precision(parsing: ["completion_rate=+0.005,mismatch_mean_ms=+2%"], allowed: Precision.summaryMetrics) == written)
        #expect(try Precision(parsing: ["completion_rate=1e-7"], allowed: Precision.summaryMetrics).description == "completion_rate=0.0000001")
        #expect(Precision.summaryMetrics.contains("false_activation_rate"))
        #expect(!Precision.summaryMetrics.contains("premature_release_rate"))
        #expect(Precision.differenceMetrics.contains("premature_release_rate"))
    }

    @Test("a target is met when the larger half of the interval is at most the width; an undefined interval never is")
    func halfWidth() {
        let absolute = PrecisionTarget(metric: "m", width: .absolute(0.1), widthText: "0.1")
        #expect(absolute.isMet(estimate: 1, lower: 0.95, upper: 1.08))
        #expect(!absolute.isMet(estimate: 1, lower: 0.85, upper: 1.05))
        #expect(!absolute.isMet(estimate: nil, lower: nil, upper: nil))
        let relative = PrecisionTarget(metric: "m", width: .relative(10), widthText: "10%")
        #expect(relative.isMet(estimate: -2, lower: -2.18, upper: -1.9))
        #expect(!relative.isMet(estimate: -2, lower: -2.3, upper: -1.9))
    }

    @Test("the interval is read as printed: each bound rounded to the column's decimals decides, either way")
    func printedInterval() throws {
        let target = try #require(try Precision(parsing: ["completion_rate=0.00414"], allowed: Precision.summaryMetrics).targets.first)
        #expect(target.decimals == 6)
        // Unrounded 0.0041402 (above the target), printed 0.880252 / 0.876112 / 0.884392: a half of 0.004140, met.
        #expect(target.isMet(estimate: 0.8802521, lower: 0.8761119, upper: 0.8843921))
        #expect(target.halfWidth(estimate: 0.8802521, lower: 0.8761119, upper: 0.8843921) == 0.00414)
        // Unrounded 0.0041395 (below a target of 0.0041397), printed 0.880252 / 0.876113 / 0.884392: 0.004140, not met.
        let finer = try #require(try Precision(parsing: ["completion_rate=0.0041397"], allowed: Precision.summaryMetrics).targets.first)
        #expect(!finer.isMet(estimate: 0.8802524, lower: 0.8761129, upper: 0.8843919))
        // A relative target of a mean printed with 3 decimals: 1 % of the printed 100.000.
        let mean = try #require(try Precision(parsing: ["completion_time_mean_ms=1%"], allowed: Precision.summaryMetrics).targets.first)
        #expect(mean.isMet(estimate: 100.0004, lower: 99.0004, upper: 101.0004))
        #expect(!mean.isMet(estimate: 99.9996, lower: 98.9991, upper: 100.9996))
    }

    @Test("a shortfall's advice fits it: no interval, a percentage of an estimate of 0, an interval too wide")
    func shortfallAdvice() throws {
        let precision = try Precision(parsing: ["false_activation_rate=10%,mismatch_mean_ms=1,completion_rate=0.001"],
                                      allowed: Precision.summaryMetrics)
        let byMetric = Dictionary(uniqueKeysWithValues: precision.targets.map { ($0.metric, $0) })
        let zero = PrecisionOutcome.Shortfall(target: byMetric["false_activation_rate"]!, halfWidth: 0.00207, estimate: 0, row: "p, q")
        let none = PrecisionOutcome.Shortfall(target: byMetric["mismatch_mean_ms"]!, halfWidth: nil, estimate: nil, row: "p, q")
        let wide = PrecisionOutcome.Shortfall(target: byMetric["completion_rate"]!, halfWidth: 0.0031, estimate: 0.8, row: "p, q")
        #expect(zero.description == "false_activation_rate half-width 0.00207 (of an estimate of 0) (p, q), wanted 10%")
        let outcome = PrecisionOutcome(precision: precision, users: 12288, cap: 12288, shortfalls: [zero, none, wide, wide])
        let warning = try #require(outcome.warning())
        #expect(warning.hasSuffix("; give false_activation_rate a width in its unit: a percentage of an estimate that prints as 0 is met only by an interval of no width"
            + "; mismatch_mean_ms needs completed holds whose bar looked full (with none, no --users meets it); raise --users or widen the target"), "\(warning)")
    }

    @Test("of one target's shortfalls over rows, the worst of each kind is kept, in the order the kinds first appear")
    func worstOfEachKind() throws {
        let precision = try Precision(parsing: ["false_activation_rate=10%"], allowed: Precision.summaryMetrics)
        let target = try #require(precision.targets.first)
        let narrow = PrecisionOutcome.Shortfall(target: target, halfWidth: 0.001, estimate: 0.004, row: "a")
        let zero = PrecisionOutcome.Shortfall(target: target, halfWidth: 0.0005, estimate: 0, row: "b")
        let wide = PrecisionOutcome.Shortfall(target: target, halfWidth: 0.003, estimate: 0.01, row: "c")
        let zeroWider = PrecisionOutcome.Shortfall(target: target, halfWidth: 0.0009, estimate: 0, row: "d")
        let none = PrecisionOutcome.Shortfall(target: target, halfWidth: nil, estimate: nil, row: "e")
        let noneLater = PrecisionOutcome.Shortfall(target: target, halfWidth: nil, estimate: nil, row: "f")
        #expect([narrow, zero, wide, none].map(\.kind) == [.tooWide, .neverMet, .tooWide, .noInterval])
        #expect(PrecisionOutcome.worstOfEachKind([narrow, zero, wide, zeroWider, none, noneLater]).map(\.row) == ["c", "d", "e"])
        #expect(PrecisionOutcome.worstOfEachKind([none, narrow]).map(\.row) == ["e", "a"])
        #expect(PrecisionOutcome.worstOfEachKind([]).isEmpty)
        // Under a percentage the worst is the furthest from its target: 0.002 of 0.01 (20 %) before 0.005 of 0.1 (5 %).
        let percent = try #require(try Precision(parsing: ["completion_rate=1%"], allowed: Precision.summaryMetrics).targets.first)
        let small = PrecisionOutcome.Shortfall(target: percent, halfWidth: 0.002, estimate: 0.01, row: "small")
        let large = PrecisionOutcome.Shortfall(target: percent, halfWidth: 0.005, estimate: 0.1, row: "large")
        #expect(PrecisionOutcome.worstOfEachKind([large, small]).map(\.row) == ["small"])
        #expect(PrecisionOutcome.worstOfEachKind([small, large]).map(\.row) == ["small"])
        // A width in the unit: the widest.
        let absolute = try #require(try Precision(parsing: ["completion_rate=0.001"], allowed: Precision.summaryMetrics).targets.first)
        #expect(PrecisionOutcome.worstOfEachKind([
            PrecisionOutcome.Shortfall(target: absolute, halfWidth: 0.002, estimate: 0.01, row: "small"),
            PrecisionOutcome.Shortfall(target: absolute, halfWidth: 0.005, estimate: 0.1, row: "large"),
        ]).map(\.row) == ["large"])
        // No interval: the advice names whom the metric is over.
        let rate = try #require(try Precision(parsing: ["false_activation_rate=0.01"], allowed: Precision.summaryMetrics).targets.first)
        #expect(PrecisionOutcome.advice([PrecisionOutcome.Shortfall(target: rate, halfWidth: nil, estimate: nil, row: "r")])
                == "false_activation_rate needs accidental users (with none, no --users meets it)")
        // A shortfall is only of an interval that misses: one that meets its target gives none.
        #expect(PrecisionOutcome.Shortfall(target: target, estimate: 0.5, lower: 0.49, upper: 0.51, row: "g") == nil)
        #expect(PrecisionOutcome.Shortfall(target: target, estimate: 0.5, lower: 0.4, upper: 0.6, row: "g")?.kind == .tooWide)
    }

    @Test("simulate stops at the same chunk for 1 and 3 threads, with the fixed run's summaries")
    func simulateStops() throws {
        let library = Make.library
        let profile = try library.loadProfile("hig-linear-bar", overrides: [try Override(parsing: "gesture.minimumDuration=0.6")])
        let population = try library.loadPopulation("default")
        let precision = try Precision(parsing: ["completion_rate=0.006"], allowed: Precision.summaryMetrics)
        var rows: [String] = []
        for threads in [1, 3] {
            let summaries = try Simulator.run(SimulationRequest(profiles: [profile], population: population, users: 200_000, seed: 3,
                                                                threads: threads, precision: precision))
            #expect(precision.outcome(summaries, cap: 200_000).met)
            rows.append(SimulationCSV.row(summaries[0]))
        }
        #expect(rows[0] == rows[1])
        let users = try #require(Int(rows[0].split(separator: ",")[2]))
        #expect(users % Simulator.chunkSize == 0 && users > Simulator.chunkSize)
        let fixed = try Simulator.run(SimulationRequest(profiles: [profile], population: population, users: users, seed: 3, threads: 2))
        #expect(SimulationCSV.row(fixed[0]) == rows[0])
        let before = try Simulator.run(SimulationRequest(profiles: [profile], population: population, users: users - Simulator.chunkSize,
                                                         seed: 3, threads: 2))
        #expect(!precision.outcome(before, cap: 200_000).met, "a chunk earlier it was not met")
    }

    @Test("a shortfall never prints as its own target: the half-width takes the digits that show it above the width")
    func shortfallDigits() throws {
        let precision = try Precision(parsing: ["completion_rate=0.01,completion_time_mean_ms=1%"], allowed: Precision.summaryMetrics)
        // Just above each target: three significant digits would print the target itself.
        let absolute = PrecisionOutcome.Shortfall(target: precision.targets[0], halfWidth: 0.0100041, estimate: 0.9, row: "p, q")
        #expect(absolute.description == "completion_rate half-width 0.010004 (p, q), wanted 0.01")
        let relative = PrecisionOutcome.Shortfall(target: precision.targets[1], halfWidth: 10.0002, estimate: 1000, row: "p, q")
        #expect(relative.description == "completion_time_mean_ms half-width 10 (1.00002% of 1e+03) (p, q), wanted 1%")
        // Far from the target: three digits.
        let far = PrecisionOutcome.Shortfall(target: precision.targets[0], halfWidth: 0.0312345, estimate: 0.9, row: "p, q")
        #expect(far.description == "completion_rate half-width 0.0312 (p, q), wanted 0.01")
        for halfWidth in stride(from: 0.01, through: 0.0101, by: 1e-7) where halfWidth > 0.01 {
            let shortfall = PrecisionOutcome.Shortfall(target: precision.targets[0], halfWidth: halfWidth, estimate: 0.5, row: "r")
            let printed = try #require(Double(shortfall.description.split(separator: " ")[2]))
            #expect(printed > 0.01, "\(halfWidth) printed as \(printed)")
        }
    }
}
