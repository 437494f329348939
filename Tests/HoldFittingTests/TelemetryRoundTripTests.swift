import Foundation
import GSL
import HoldLabIO
import HoldLabTestSupport
import HoldProfiles
import HoldSimulation
import Testing
@testable import HoldFitting

/// Calibration from telemetry, end to end (issue 28, item 3): simulate a known population under two control settings,
/// export what an app would log, fit, emit a population, simulate it again.
@Suite("telemetry: round trip from a known population")
struct TelemetryRoundTripTests {
    /// The truth: reacting, anticipating and accidental people; the reacting ones drift (some holds end by moving out).
    static let truth = """
        version: 1
        name: truth
        classes:
          - {name: deliberate, weight: 0.6, intent: confirm, behavior: react, reaction: {dist: exgaussian, mu: 0.20, sigma: 0.03, tau: 0.06}, patience: {dist: lognormal, median: 1.5, sigma: 0.5}, movement: {drift: 3.0, touchRate: 120}}
          - {name: anticipating, weight: 0.25, intent: confirm, behavior: anticipate, bias: -0.03, weber: 0.08}
          - {name: accidental, weight: 0.15, intent: none, behavior: hold, hold: {dist: lognormal, median: 0.12, sigma: 0.5}}

        """

    /// The fit's classes and starting values: the same classes, other numbers (what a team would start from).
    static let base = """
        version: 1
        name: base
        classes:
          - {name: deliberate, weight: 0.7, intent: confirm, behavior: react, reaction: {dist: exgaussian, mu: 0.15, sigma: 0.025, tau: 0.04}, patience: {dist: lognormal, median: 1.5, sigma: 0.5}, movement: {drift: 3.0, touchRate: 120}}
          - {name: anticipating, weight: 0.15, intent: confirm, behavior: anticipate, bias: -0.05, weber: 0.1}
          - {name: accidental, weight: 0.15, intent: none, behavior: hold, hold: {dist: lognormal, median: 0.08, sigma: 0.6}}

        """

    /// The true value of every fitted number.
    static let truthValues: [String: Double] = [
        "deliberate.reaction.mu": 0.20, "deliberate.reaction.sigma": 0.03, "deliberate.reaction.tau": 0.06,
        "anticipating.bias": -0.03, "anticipating.weber": 0.08, "accidental.hold.median": 0.12, "accidental.hold.sigma": 0.5,
        "deliberate.weight": 0.6, "anticipating.weight": 0.25, "accidental.weight": 0.15,
    ]

    /// Two control settings: hig-linear-bar as shipped (1.0 s; the app logs the release) and at 0.6 s (the app stops
    /// watching when the action fires: those holds are censored there). One setting cannot tell reacting from
    /// anticipating people apart: both let go around its end.
    static let settings: [(trigger: Double, cut: Bool, seed: UInt64)] = [(1.0, false, 11), (0.6, true, 12)]

    /// The telemetry an app would log of `users` people of `population` per setting.
    static func telemetry(_ population: Population, users: Int, seedOffset: UInt64 = 0) throws -> String {
        var text = ""
        for setting in settings {
            let profile = try Make.library.loadProfile(
                "hig-linear-bar", overrides: [try Override(parsing: "gesture.minimumDuration=\(setting.trigger)")])
            let job = SimulationJob(profiles: [profile], populations: [population], users: users,
                                    seed: setting.seed + seedOffset, threads: 2, commandLine: "holdlab simulate")
            let perUser = try job.runWithPerUser().perUser
            // hig-linear-bar's fill matches the gesture and starts at touch-down: it ends at the trigger.
            let rows = try TelemetryExport.telemetry(perUser: perUser, path: "per-user", triggerMilliseconds: setting.trigger * 1000,
                                                     fillMilliseconds: setting.trigger * 1000, cutAtAction: setting.cut)
            text += text.isEmpty ? rows : String(rows.drop { $0 != "\n" }.dropFirst())
        }
        return text
    }

    /// Rates the telemetry itself shows, per setting: the share of holds that fired and that moved out.
    static func rates(_ text: String) throws -> [(fired: Double, movedOut: Double, n: Int)] {
        let data = try TelemetryFile.parse(text, path: "t")
        return data.settings.map { setting in
            let holds = data.holds.filter { $0.triggerSeconds == setting.triggerSeconds }
            let n = holds.count
            let movedOut = holds.filter { $0.censored && !$0.fired }.count
            return (Double(holds.filter(\.fired).count) / Double(n), Double(movedOut) / Double(n), n)
        }
    }

    @Test("fit then simulate: every fitted number within its Bonferroni interval of the truth, the telemetry's rates within Monte Carlo error",
          arguments: [1_500, 4_000])
    func roundTrip(users: Int) throws {
        let truth = try Population.load(yaml: Self.truth, path: "truth")
        let text = try Self.telemetry(truth, users: users)
        let file = try TemporaryFiles.directory().appendingPathComponent("telemetry.csv")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let result = try TelemetryFitRequest(path: file.path, base: try Population.load(yaml: Self.base, path: "base"),
                                             commandLine: "holdlab fit --telemetry telemetry.csv").run()
        #expect(result.parameters.count == Self.truthValues.count)
        // Simultaneous 95 % over the 10 numbers: Bonferroni, each at 1 − 0.05/10 (z = 2.807), from its standard error.
        let z = Distribution.normal(mean: 0, sd: 1).quantile(1 - 0.05 / (2 * Double(Self.truthValues.count)))
        for parameter in result.parameters {
            let truth = try #require(Self.truthValues[parameter.keyPath])
            #expect(parameter.standardError > 0)
            #expect(abs(parameter.value - truth) <= z * parameter.standardError,
                    "\(parameter.keyPath): \(parameter.value) ± \(parameter.standardError), truth \(truth), n = \(users) per setting")
        }
        // The emitted population validates and cites the telemetry.
        let emitted = try Population.load(yaml: result.populationYAML, path: "fitted")
        #expect(emitted.parameters.filter { Self.truthValues[$0.keyPath] != nil }.allSatisfy {
            $0.evidence.isComplete && $0.evidence.source?.contains("fnv1a64:\(result.data.contentHash)") == true })
        #expect(emitted.parameters.first { $0.keyPath == "deliberate.movement.drift" }?.evidence.source?.hasPrefix("assumption: not fitted") == true)
        // Written to a file, it is named after it (the library finds a population by its file's name); to standard
        // output it keeps its base's name.
        let named = try Population.load(yaml: result.populationYAML(path: "Profiles/populations/ours.yaml"), path: "ours.yaml")
        #expect(named.name == "ours")
        #expect(named.parameters.map(\.value) == emitted.parameters.map(\.value))
        #expect(result.populationYAML(path: "-") == result.populationYAML)
        #expect(emitted.name.hasSuffix("-fitted"))

        // Simulating the fitted population again (other seeds, 4× the people) gives the telemetry's own rates. Each rate's
        // difference has the telemetry's sampling variance, at most as much again from the fitted parameters, and the
        // new run's: tolerance z·√(2·p(1 − p)/n + p(1 − p)/4n), z Bonferroni over 4 rates (2.50), with p the two runs'
        // pooled rate (the rate both estimate if they agree: a telemetry rate of 0 would otherwise allow no difference).
        let observed = try Self.rates(text)
        let again = try Self.rates(try Self.telemetry(emitted, users: 4 * users, seedOffset: 100))
        let zRates = Distribution.normal(mean: 0, sd: 1).quantile(1 - 0.05 / 8)
        for (old, new) in zip(observed, again) {
            for (a, b, name) in [(old.fired, new.fired, "fired"), (old.movedOut, new.movedOut, "moved_out")] {
                let p = (a * Double(old.n) + b * Double(new.n)) / Double(old.n + new.n)
                let tolerance = zRates * (2 * p * (1 - p) / Double(old.n) + p * (1 - p) / Double(new.n)).squareRoot()
                #expect(abs(a - b) <= tolerance, "\(name): telemetry \(a), simulated \(b), tolerance \(tolerance)")
            }
        }
        // Both kinds of censoring occur: holds cut by the action (0.6 s) and, at 1.0 s, holds ended by moving out.
        #expect(observed[0].movedOut > 0 && observed.allSatisfy { $0.fired > 0.3 })
    }

    @Test("bad telemetry: a clear error naming the file, the line, the column and what is allowed")
    func badTelemetry() {
        func message(_ body: String) -> String {
            do {
                _ = try TelemetryFile.parse("down_ms,up_ms,fired,fired_ms,moved_out,trigger_ms\n" + body, path: "t.csv")
                return ""
            } catch {
                return error.description
            }
        }
        #expect(message("0,300,0,,0,1000\n") == "")
        #expect(message("0,300,0,,0,1000\n0,abc,0,,0,1000\n") == "t.csv:3: up_ms: 'abc' is not a finite number of milliseconds")
        #expect(message("0,300,2,,0,1000\n") == "t.csv:2: fired: '2' is not a flag (allowed: 0, 1, true, false, in any case)")
        #expect(message("0,,0,,0,1000\n") == "t.csv:2: up_ms: is empty: allowed only for a hold the action cut (fired 1, with fired_ms)")
        #expect(message("0,300,0,,0,0\n") == "t.csv:2: trigger_ms: must be > 0 (the control's hold time)")
        #expect(message("5,5,0,,0,1000\n") == "t.csv:2: up_ms: 5.0 is not after down_ms 5.0: a hold lasts > 0 ms")
        #expect(message("0,300,0,250,0,1000\n").contains("fired_ms: is given but fired is 0"))
        #expect(message("0,,1,1000,1,1000\n").contains("moved_out: is 1 on a hold the action cut"))
        #expect(message("0,,1,1000,0,1000\n").contains("every hold is censored"))
        #expect(message("0,300,0,,0\n").contains("t.csv:2"))
        // A row that contradicts its trigger: fired on a release before it, or fired before it; a millisecond short
        // (whole-millisecond clocks) is allowed.
        #expect(message("0,300,1,,0,1000\n") == "t.csv:2: fired: is 1 on a hold of 300.000 ms, shorter than its trigger_ms 1000.000: a hold let go before the trigger does not fire the action")
        #expect(message("0,1200,1,300,0,1000\n") == "t.csv:2: fired_ms: 300.0 is 300.000 ms after down_ms, before trigger_ms 1000.000: the action fires once the hold reaches its trigger")
        #expect(message("0,300,0,,0,1000\n10,1009.2,1,1009.5,0,1000\n") == "")
        // The outside probe of 0.3.14: a time after touch-down beyond 10⁷ s (1e10 ms, `Instant.limit`) is a corrupt
        // row: one moved a fit with no word, or failed it as the population's fault. At the limit it is a hold.
        for (row, column) in [("0,1e12,0,,0,1000", "up_ms"), ("5,1e300,0,,0,1000", "up_ms"), ("0,300,0,,0,2e10", "trigger_ms"),
                              ("0,,1,1.5e10,0,1000", "fired_ms")] {
            #expect(message("0,300,0,,0,1000\n" + row + "\n").hasPrefix("t.csv:3: \(column): is ")
                    && message("0,300,0,,0,1000\n" + row + "\n").contains("ms after down_ms, beyond the longest time HoldLab takes (10⁷ s, 1e10 ms)"),
                    "\(row): \(message("0,300,0,,0,1000\n" + row + "\n"))")
        }
        #expect(message("0,300,0,,0,1000\n0,1e10,0,,0,1000\n") == "")
        do {
            _ = try TelemetryFile.parse("down_ms,up,fired,trigger_ms\n0,1,0,1\n", path: "t.csv")
            Issue.record("a file without up_ms was read")
        } catch {
            #expect(error.description.hasPrefix("t.csv: no 'up_ms' column") && error.description.contains("the file's columns are: down_ms, up, fired, trigger_ms"))
        }
    }

    @Test("one trigger setting is refused: reacting and anticipating people cannot be told apart")
    func oneSetting() throws {
        let file = try TemporaryFiles.directory().appendingPathComponent("one.csv")
        try "down_ms,up_ms,fired,trigger_ms\n0,1200,1,1000\n0,900,0,1000\n0,80,0,1000\n".write(to: file, atomically: true, encoding: .utf8)
        let request = TelemetryFitRequest(path: file.path, base: try Population.load(yaml: Self.base, path: "base"), commandLine: "")
        #expect(throws: FitError.self) { try request.run() }
        do { _ = try request.run() } catch { #expect(error.description.contains("at least two trigger settings")) }
    }
}
