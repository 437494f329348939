import HoldLabIO
import HoldLabTestSupport
import HoldProfiles
import HoldStudies
import Testing

@Suite("check: the job's typed result")
struct GuidelineCheckTests {
    /// `holdlab check PROFILES… --users N [--set …]`: the library's profiles against their own populations.
    static func check(_ names: [String], overrides: [String] = [], users: Int = 4_000,
                      thresholds: GuidelineThresholds = GuidelineThresholds(), commandLine: String = "holdlab check")
        throws -> GuidelineCheckResult
    {
        let library = Make.library
        let parsed = try overrides.map { text throws(ProfileError) in try Override(parsing: text) }
        let subjects = try names.map { name in
            let profile = try library.loadProfile(name, overrides: parsed)
            return GuidelineSubject(profile: profile, population: try library.loadPopulation(profile.population),
                                    populationArgument: profile.population)
        }
        return try GuidelineCheckRequest(subjects: subjects, impairedPopulation: try library.loadPopulation("motor-impaired"),
                                         users: users, seed: 1, threads: 2, thresholds: thresholds,
                                         commandLine: commandLine).run()
    }

    /// The status and measured figure of `rule` in a result.
    static func status(_ result: GuidelineCheckResult, rule: String) -> (status: String, measured: String)? {
        result.results.first { $0.rule.id == rule }.map { ($0.status.rawValue, $0.measured) }
    }

    @Test("golden: two profiles, every rule, byte for byte as `holdlab check` wrote them")
    func golden() throws {
        let result = try Self.check(["hig-linear-bar", "kikocard-accelerating"], users: 2_000,
                                    commandLine: "holdlab check hig-linear-bar kikocard-accelerating --users 2000")
        #expect(result.document.csv == (try Golden.text("check-two-profiles.csv")))
        #expect(result.failures.map { "\($0.profile) \($0.rule.id)" }
                == ["kikocard-accelerating first-feedback", "kikocard-accelerating haptic-rate"])
    }

    @Test("JSON types: every column is text, a profile named 007, 2024 or NaN and a measured figure alike")
    func jsonTypes() throws {
        let population = try Make.population("  - {name: c, weight: 1, intent: confirm, behavior: hold, hold: {dist: constant, value: 2}}\n")
        let subjects = try ["007", "2024", "NaN"].map { name in
            GuidelineSubject(profile: try Make.profile("gesture: {minimumDuration: 0.5}\n", name: name), population: population,
                             populationArgument: "q")
        }
        let result = try GuidelineCheckRequest(subjects: subjects, impairedPopulation: population, users: 200, seed: 1,
                                               threads: 2, commandLine: "holdlab check").run()
        let kinds = try JSONTypes.of(result.document)
        #expect(kinds == Dictionary(uniqueKeysWithValues: Guidelines.resultColumns.map { ($0.name, [JSONTypes.Kind.string]) }))
        let json = try result.document.rendered(as: .json)
        for name in ["007", "2024", "NaN"] { #expect(json.contains("{\"profile\":\"\(name)\",")) }
        #expect(result.document.tables[0].provenance.value(of: "population") == "q fnv1a64:\(population.contentHash)")
    }

    /// Each rule with profiles that pass it and profiles that fail it (warn, for the informative rule).
    static let cases: [(rule: String, passing: (String, [String]), failing: (String, [String]), failStatus: String)] = [
        ("fill-matches-action", ("hig-linear-bar", []), ("mismatched-fill", []), "fail"),
        ("first-feedback", ("hig-linear-bar", []), ("static-long-press", []), "fail"),
        ("haptic-rate", ("kikocard-accelerating", ["haptics.minInterval=0.03"]), ("kikocard-accelerating", []), "fail"),
        ("pointer-cancellation", ("hig-linear-bar", []), ("hig-linear-bar", ["retract.duration=1.5"]), "fail"),
        ("timing-adjustable", ("hig-linear-bar", []), ("kikocard-accelerating", []), "warn"),
    ]

    @Test("every rule has a case that passes it and one that fails it", arguments: cases.indices)
    func rule(index: Int) throws {
        let (rule, passing, failing, failStatus) = Self.cases[index]
        #expect(Self.status(try Self.check([passing.0], overrides: passing.1), rule: rule)?.status == "pass", "\(rule)")
        #expect(Self.status(try Self.check([failing.0], overrides: failing.1), rule: rule)?.status == failStatus, "\(rule)")
    }

    @Test("motor-impaired-completion passes at the default 0.8 and fails at 0.9")
    func impairedCompletion() throws {
        #expect(Self.status(try Self.check(["hig-linear-bar"]), rule: "motor-impaired-completion")?.status == "pass")
        var strict = GuidelineThresholds()
        strict.minImpairedCompletion = 0.9
        let failed = try Self.check(["hig-linear-bar"], thresholds: strict)
        #expect(Self.status(failed, rule: "motor-impaired-completion")?.status == "fail")
        #expect(failed.failures.map(\.rule.id) == ["motor-impaired-completion"])
    }

    @Test("measured figures: mismatched-fill looks full 200 ms early; KikoCard pulses every 10 ms tick; 2.1 s hold")
    func figures() throws {
        let mismatched = try Self.check(["mismatched-fill"])
        let p95 = try #require(Double(Self.status(mismatched, rule: "fill-matches-action")?.measured.split(separator: " ").first ?? ""))
        // An 0.8 s fill under a 1.0 s gesture at 120 Hz: full on the first frame at or after 0.8 s, so 192–200 ms early.
        #expect(p95 > 191.6 && p95 <= 200.5)
        let kiko = try Self.check(["kikocard-accelerating"])
        #expect(Self.status(kiko, rule: "haptic-rate")?.measured == "100.000 Hz")
        #expect(Self.status(kiko, rule: "timing-adjustable")?.measured == "2100.000 ms")
    }
}
