import Foundation
import HoldLabIO
import HoldLabTestSupport
import HoldProfiles
import Testing
@testable import HoldSimulation

@Suite("The metric registry: one declaration per metric, everything else derived")
struct MetricRegistryTests {
    @Test("every metric compare differences is a simulate column, in simulate's order")
    func comparedAreColumns() {
        let columns = SimulationCSV.columns.map(\.name)
        let compared = ComparedMetric.all.map(\.name)
        #expect(compared.allSatisfy(columns.contains))
        #expect(compared == columns.filter(compared.contains), "compare's order is simulate's")
        // Every rate and every mean of the registry is compared.
        let expected = Metric.all.filter { metric in
            switch metric.kind {
            case .rate, .mean: true
            default: false
            }
        }.map(\.name)
        #expect(compared == expected)
    }

    @Test("every simulate column a tune metric can name is numeric, and every rate has its counts")
    func tuneMetrics() throws {
        let numeric = SimulationCSV.columns.filter(\.isNumeric).map(\.name)
        #expect(Set(numeric).isSuperset(of: Metric.all.map(\.name)))
        #expect(!numeric.contains("profile") && !numeric.contains("seed"))
        let profile = try Make.earlyFill()
        let population = try Make.population("""
              - {name: h, weight: 0.8, intent: confirm, behavior: hold, hold: {dist: lognormal, median: 0.9, sigma: 0.35}}
              - {name: a, weight: 0.2, intent: none, behavior: hold, hold: {dist: lognormal, median: 0.3, sigma: 0.5}}
            """)
        let summary = try #require(try Make.run([profile], population, users: 5_000).first)
        for metric in Metric.all where metric.isRate {
            let proportion = try #require(summary.proportion(metric), "\(metric.name)")
            let column = try #require(SimulationCSV.columns.first { $0.name == metric.name })
            #expect(column.numericValue(summary) == proportion.rate, "\(metric.name)")
        }
    }

    @Test("the columns derived from the registry: every metric once, bounds right after their value")
    func columns() {
        let names = SimulationCSV.columns.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(Array(names.prefix(4)) == ["profile", "population", "users", "seed"])
        for metric in Metric.all {
            guard let index = names.firstIndex(of: metric.name) else {
                Issue.record("\(metric.name) has no column")
                continue
            }
            switch metric.kind {
            case .mean, .rate(_, _, .columns):
                #expect(names[index + 1] == metric.name + "_lo" && names[index + 2] == metric.name + "_hi", "\(metric.name)")
            default:
                #expect(!names.contains(metric.name + "_lo"), "\(metric.name)")
            }
        }
    }

    @Test("the relations merge checks in a summary row come from the registry, and real rows hold them")
    func rowRelations() throws {
        // The relations as docs/COLUMNS.md states them; a new quantile, maximum or minimum joins them by itself.
        let pairs = Metric.orderedPairs.map { "\($0.smaller)<=\($0.larger)" }
        #expect(pairs == [
            "completion_time_p50_ms<=completion_time_p90_ms", "completion_time_p90_ms<=completion_time_p99_ms",
            "pulses_p50<=pulses_p95", "pulses_p95<=pulses_max", "pulses_mean<=pulses_max",
            "mismatch_p50_ms<=mismatch_p95_ms", "mismatch_p95_ms<=mismatch_max_ms", "mismatch_mean_ms<=mismatch_max_ms",
            "progress_at_trigger_min<=progress_at_trigger_mean",
        ])
        // Every rate over a count column; its numerator where that is a column too; `*` where its interval is columns.
        #expect(Metric.countRatios.map { "\($0.rate)=\($0.numerator ?? "?")/\($0.denominator)\($0.intervalColumns ? "*" : "")" } == [
            "completion_rate=completed/intent_users*", "premature_release_rate=?/intent_users",
            "premature_impatience_rate=?/intent_users", "premature_mismatch_rate=?/intent_users",
            "movement_cancel_rate=?/intent_users", "false_activation_rate=?/accidental_users*",
            "no_feedback_rate=?/intent_users",
        ])
        // Every shipped profile's rows against two populations hold every relation, so merge refuses none of them.
        let library = Make.library
        let columns = SimulationCSV.columns.map(\.name)
        for population in try ["default", "hurried", "motor-impaired", "hold-only"].map(library.loadPopulation) {
            let profiles = try library.profileNames().map { try library.loadProfile($0) }
            for summary in try Make.run(profiles, population, users: 3_000) {
                let fields = SimulationCSV.cells(summary).map(\.plainText)
                #expect(ShardMerge.summaryRowProblem(columns: columns, fields: fields) == nil, "\(summary.profile)")
            }
        }
    }

    @Test("a row's rate intervals are its counts' Wilson intervals, its completed holds' values defined exactly where one completed, a progress at most 1")
    func rowIntervalsAndValues() throws {
        let library = Make.library
        let columns = SimulationCSV.columns.map(\.name)
        let population = try library.loadPopulation("hold-only")
        func row(_ overrides: [String]) throws -> [String] {
            let profile = try library.loadProfile("hig-linear-bar", overrides: overrides.map { try Override(parsing: $0) })
            return SimulationCSV.cells(try #require(try Make.run([profile], population, users: 3_000).first)).map(\.plainText)
        }
        let real = try row([]), none = try row(["gesture.minimumDuration=100"])
        for fields in [real, none] { #expect(ShardMerge.summaryRowProblem(columns: columns, fields: fields) == nil) }
        func problem(_ fields: [String], _ changes: [String: String]) -> String {
            var changed = fields
            for (name, text) in changes { changed[columns.firstIndex(of: name)!] = text }
            return ShardMerge.summaryRowProblem(columns: columns, fields: changed) ?? "none"
        }
        func shifted(_ name: String, by amount: Double, in fields: [String] = real) -> String {
            String(format: "%.6f", Double(fields[columns.firstIndex(of: name)!])! + amount)
        }
        // A bound a millionth or more off (beyond the rounding of 6 decimals), from the counts or the rate's own.
        #expect(problem(real, ["completion_rate_lo": shifted("completion_rate_lo", by: -2e-6)])
            .hasPrefix("completion_rate_lo, _hi ["))
        #expect(problem(real, ["false_activation_rate_hi": shifted("false_activation_rate_hi", by: 0.001)])
            .contains("are not the 95 % Wilson interval of "))
        #expect(problem(none, ["completion_rate_hi": "0.030000"]).contains("the 95 % Wilson interval of 0 of "))
        // Undefined exactly where no hold completed.
        #expect(problem(real, ["completion_time_mean_ms": "NaN", "completion_time_mean_ms_lo": "NaN", "completion_time_mean_ms_hi": "NaN"])
            .hasPrefix("completion_time_mean_ms is NaN where completed is "))
        #expect(problem(none, ["pulses_mean": "1.000"]).hasPrefix("pulses_mean is 1.000 where completed is 0"))
        #expect(problem(real, ["progress_at_trigger_mean": "1.200000", "progress_at_trigger_mean_hi": "1.300000"])
            == "progress_at_trigger_mean 1.2 is above 1: a displayed progress is at most 1")
        // Counts read as doubles: Int.max is 2⁶³ there, which no Int holds (a conversion that traps).
        let huge: [String: Double] = ["accidental_users": 9.223372036854775807e18, "false_activation_rate": 0,
                                      "false_activation_rate_lo": 0, "false_activation_rate_hi": 0.1,
                                      "intent_users": 9.223372036854775807e18, "completed": 9.223372036854775807e18,
                                      "completion_rate": 1, "completion_rate_lo": 0.9, "completion_rate_hi": 1]
        #expect(ShardMerge.intervalProblem { huge[$0] } == nil)
    }
}

@Suite("SimulationJob and ComparisonPlan, in process")
struct SimulationJobTests {
    @Test("a job over two populations: one row per profile and population, provenance naming both, names kept as text")
    func twoPopulations() throws {
        let library = Make.library
        var first = try library.loadProfile("hig-linear-bar")
        first.name = "007"
        var second = try library.loadProfile("static-long-press")
        second.name = "2024"
        let populations = try ["default", "hurried"].map(library.loadPopulation)
        let job = SimulationJob(profiles: [first, second], populations: populations, users: 3_000, seed: 4, threads: 2,
                                commandLine: "holdlab simulate")
        let table = try job.run()
        #expect(table.rows.count == 4)
        #expect(table.rows.map { $0[1].plainText } == ["default", "default", "hurried", "hurried"])
        #expect(job.provenance.value(of: "users") == "3000 per profile and population, seed 4")
        // The rows are the single-population runs' rows, population by population.
        for (index, population) in populations.enumerated() {
            let alone = try Simulator.run(job.request(population)).map(SimulationCSV.cells)
            #expect(Array(table.rows[(2 * index)..<(2 * index + 2)]) == alone)
        }
        let json = try ResultDocument(table).rendered(as: .json)
        for line in json.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["profile"] is String && object["seed"] as? Int == 4)
        }
        #expect(json.contains("\"profile\":\"007\"") && json.contains("\"profile\":\"2024\""))
    }

    @Test("without --population, the profiles must name one; a job's CSV renders its provenance first")
    func populationChoice() throws {
        let library = Make.library
        let bar = try library.loadProfile("hig-linear-bar")
        #expect(try SimulationJob.populationNames(given: [], profiles: [bar, bar]) == [bar.population])
        var other = bar
        other.population = "hurried"
        #expect(throws: SimulationError.self) { try SimulationJob.populationNames(given: [], profiles: [bar, other]) }
        #expect(try SimulationJob.populationNames(given: ["x"], profiles: [bar, other]) == ["x"])
    }

    @Test("a comparison plan runs each population with the same people as a single-population comparison")
    func comparisonPlan() throws {
        let library = Make.library
        let base = try library.loadProfile("hig-linear-bar")
        let fast = try library.loadProfile("hig-linear-bar", overrides: [try Override(parsing: "fill.duration=0.6")])
        let designs = [Design(label: "base", profile: base), Design(label: "fast", profile: fast)]
        let populations = try ["default", "motor-impaired"].map(library.loadPopulation)
        let plan = ComparisonPlan(designs: designs, sets: [[], ["fill.duration=0.6"]], paths: ["a", "a"], baseline: 0,
                                  populations: populations)
        var done = 0
        let results = try plan.run(users: 2_000, seed: 3, threads: 2, progress: { done = $0 })
        #expect(done == 4_000)
        let single = try PairedComparison.run(ComparisonRequest(
            designs: designs, baseline: 0, population: populations[1], users: 2_000, seed: 3, threads: 1))
        let table = ComparisonCSV.differences(results, provenance: plan.provenance(users: 2_000, seed: 3))
        let alone = ComparisonCSV.differences([single], provenance: Provenance())
        #expect(Array(table.rows.suffix(alone.rows.count)) == alone.rows)
        #expect(plan.provenance(users: 2_000, seed: 3).value(of: "design") == "base = hig-linear-bar fnv1a64:\(base.contentHash)")
    }
}
