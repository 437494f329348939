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
                    "completion_rate=100%", "completion_rate", "completion_time_p50_ms=1", "nope=1"] {
            #expect(throws: PrecisionError.self, "\(bad)") { try Precision(parsing: [bad], allowed: Precision.summaryMetrics) }
        }
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
