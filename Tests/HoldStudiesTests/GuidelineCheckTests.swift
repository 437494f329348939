import GSL
import HoldLabIO
import HoldLabTestSupport
import HoldProfiles
@testable import HoldStudies
import HoldSimulation
import Testing

@Suite("check: the job's typed result")
struct GuidelineCheckTests {
    /// `holdlab check PROFILES… --users N [--set …]`: the library's profiles against their own populations.
    static func check(_ names: [String], overrides: [String] = [], users: Int = 4_000,
                      thresholds: GuidelineThresholds = GuidelineThresholds(), commandLine: String = "holdlab check",
                      populationFile: String? = nil, rng: Generator.Kind = .users)
        throws -> GuidelineCheckResult
    {
        let library = Make.library
        let parsed = try overrides.map { text throws(ProfileError) in try Override(parsing: text) }
        let subjects = try names.map { name in
            let profile = try library.loadProfile(name, overrides: parsed)
            // `populationFile` reads another file for the profile's population (0.1.0's: `v1/default`).
            return GuidelineSubject(profile: profile, population: try library.loadPopulation(populationFile ?? profile.population),
                                    populationArgument: profile.population)
        }
        return try GuidelineCheckRequest(subjects: subjects, impairedPopulation: try library.loadPopulation("motor-impaired"),
                                         users: users, seed: 1, rng: rng, threads: 2, thresholds: thresholds,
                                         commandLine: commandLine).run()
    }

    /// The status and measured figure of `rule` in a result.
    static func status(_ result: GuidelineCheckResult, rule: String) -> (status: String, measured: String)? {
        result.results.first { $0.rule.id == rule }.map { ($0.status.rawValue, $0.measured) }
    }

    @Test("golden: two profiles, every rule, byte for byte as `holdlab check` wrote them: 0.2.0's under --rng mt19937, and taus2's")
    func golden() throws {
        let result = try Self.check(["hig-linear-bar", "kikocard-accelerating"], users: 2_000,
                                    commandLine: "holdlab check hig-linear-bar kikocard-accelerating --users 2000 --rng mt19937",
                                    rng: .mt19937)
        #expect(Golden.comparable(result.document.csv) == Golden.comparable(try Golden.text("check-two-profiles.csv")))
        let taus2 = try Self.check(["hig-linear-bar", "kikocard-accelerating"], users: 2_000,
                                   commandLine: "holdlab check hig-linear-bar kikocard-accelerating --users 2000")
        #expect(taus2.document.csv == (try Golden.text("check-two-profiles-taus2.csv")))
        #expect(result.failures.map { "\($0.profile) \($0.rule.id)" }
                == ["kikocard-accelerating first-feedback", "kikocard-accelerating haptic-rate"])
    }

    /// A fix's value and its reason are kept apart: checks.csv writes `--set key=value (why)`, and report.md's
    /// scorecard puts the value alone in the code span, pasteable, with the reason after it; a fix that found no
    /// value is a sentence without a code span of its own.
    @Test("report.md's fix is the --set value alone in its code span, the reason after it")
    func fixValueApartFromItsReason() throws {
        let result = try Self.check(["kikocard-accelerating"], users: 2_000)
        let rate = try #require(result.results.first { $0.rule.id == "haptic-rate" })
        let suggestion = try #require(rate.suggestion)
        #expect(suggestion.setting == "haptics.minInterval=0.025")
        #expect(rate.fix == "--set haptics.minInterval=0.025 (" + suggestion.note + ")" && !suggestion.note.isEmpty)
        let cell = ReviewReport.checkCell(rate)
        #expect(cell.hasPrefix("**FAIL**: "))
        #expect(cell.hasSuffix(". Fix: `--set haptics.minInterval=0.025` (" + suggestion.note + ")."), "\(cell)")
        // Every code span of the cell is a whole command line option and its value: no prose inside.
        let spans = cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        #expect(spans == ["--set haptics.minInterval=0.025"], "\(spans)")
        // A variant's fix goes among its own values, not in a --set that changes every design.
        func placed(_ common: [String], _ variant: (String, [String])?) -> String {
            ReviewReport.checkCell(rate, ReviewReport.Placement(common: common, variant: variant))
        }
        #expect(placed([], ("h", ["fill.start=touchDown"])).hasSuffix(
            ". Fix: `haptics.minInterval=0.025` added to the values of `--variant h` (" + suggestion.note + ")."))
        // A plain profile among other designs: in its profile, since a --set would change every design, with the
        // check command of the report's context (the profile as typed, its --set values, population, users, seed,
        // thresholds), quoted for a shell, the fix's --set last.
        let check = ["holdlab", "check", "my profiles/k.yaml", "--population", "default", "--set", "gesture.minimumDuration=0.3",
                     "--users", "2000", "--seed", "1", "--fixed-hold-ms", "1500"]
        #expect(ReviewReport.checkCell(rate, ReviewReport.Placement(profile: ("my profiles/k.yaml", check))).contains(
            "Fix: `haptics.minInterval=0.025` in the profile `my profiles/k.yaml` (`holdlab check 'my profiles/k.yaml' "
            + "--population default --set gesture.minimumDuration=0.3 --users 2000 --seed 1 --fixed-hold-ms 1500 "
            + "--set haptics.minInterval=0.025`; in this report a `--set` would change every design)"))
        // A key the variant (or every design, by --set) already gives is replaced there, not given twice.
        #expect(placed([], ("h", ["haptics.minInterval=0.012"])).hasSuffix(
            ". Fix: `haptics.minInterval=0.025` in place of `haptics.minInterval=0.012` among the values of `--variant h` ("
            + suggestion.note + ")."))
        #expect(placed(["haptics.minInterval=0.012"], ("h", ["fill.start=touchDown"])).contains(
            "Fix: `--set haptics.minInterval=0.025` in place of `--set haptics.minInterval=0.012` (a value every design has)"))
        #expect(placed(["haptics={minInterval: 0.012}"], nil).contains("in place of `--set haptics={minInterval: 0.012}`"))
        // A plain profile's fix of a key every design's --set gives: in the profile, its check line with the fix in
        // place of that --set (given beside it, check refuses the key twice).
        let common = ["holdlab", "check", "p", "--set", "haptics={minInterval: 0.012}", "--users", "2000"]
        #expect(ReviewReport.placed("haptics={minInterval: 0.025}", ReviewReport.Placement(common: ["haptics={minInterval: 0.012}"], profile: ("p", common)))
            == "`haptics={minInterval: 0.025}` in the profile `p` in place of `--set haptics={minInterval: 0.012}` (a value every design has) "
            + "(`holdlab check p --users 2000 --set 'haptics={minInterval: 0.025}'`; in this report a `--set` would change every design)")
        // A fix that voids a key another value gives (GuidelineFix.replaces) takes that value's place where it is given.
        let instant = "retract.mode=instant", curve = "retract.curve=spring(0.6,0)"
        #expect(ReviewReport.placed(instant, ReviewReport.Placement(variant: ("h", ["fill.start=touchDown", curve])), replaces: [curve])
            == "`\(instant)` in place of `\(curve)` among the values of `--variant h`")
        #expect(ReviewReport.placed(instant, ReviewReport.Placement(common: [curve]), replaces: [curve])
            == "`--set \(instant)` in place of `--set \(curve)` (a value every design has)")
        #expect(ReviewReport.placed(instant, ReviewReport.Placement(common: [curve], profile: ("p", ["holdlab", "check", "p", "--set", curve])), replaces: [curve])
            == "`\(instant)` in the profile `p` in place of `--set \(curve)` (a value every design has) "
            + "(`holdlab check p --set \(instant)`; in this report a `--set` would change every design)")
        // Two values it voids: both named, both taken out of the check line (0.3.15 joined them into one string that
        // matched neither, and said the fix without them).
        let duration = "retract.duration=0.3"
        #expect(ReviewReport.placed(instant, ReviewReport.Placement(common: [curve, duration]), replaces: [curve, duration])
            == "`--set \(instant)` in place of `--set \(curve)` and `--set \(duration)` (values every design has)")
        #expect(ReviewReport.placed(instant, ReviewReport.Placement(variant: ("h", [curve, "fill.start=touchDown", duration])), replaces: [curve, duration])
            == "`\(instant)` in place of `\(curve)` and `\(duration)` among the values of `--variant h`")
        #expect(ReviewReport.placed(instant, ReviewReport.Placement(common: [curve, duration], profile: ("p", ["holdlab", "check", "p", "--set", curve, "--set", duration])), replaces: [curve, duration])
            == "`\(instant)` in the profile `p` in place of `--set \(curve)` and `--set \(duration)` (values every design has) "
            + "(`holdlab check p --set \(instant)`; in this report a `--set` would change every design)")
        // Split between a --set and a variant's own values (report --set retract.curve=easeIn --variant
        // slow=retract.duration=3): both go, each named where it is given (0.3.15 named the --set only, and the
        // command with the fix pasted was refused for the variant's value).
        #expect(ReviewReport.placed(instant, ReviewReport.Placement(common: [curve], variant: ("slow", ["fill.start=touchDown", duration])), replaces: [curve, duration])
            == "`--set \(instant)` in place of `--set \(curve)` (a value every design has) and of `\(duration)` among the values of `--variant slow`")
        // The variant's only value voided: no run of the review keeps the variant and passes, said as such (an empty
        // --variant is refused, and a report of one design is no comparison).
        #expect(ReviewReport.placed(instant, ReviewReport.Placement(common: [curve], variant: ("slow", [duration])), replaces: [curve, duration])
            == "`--set \(instant)` in place of `--set \(curve)` (a value every design has) passes this rule, and leaves `--variant slow` nothing of its own (`\(duration)`, its only value, has no effect beside it): it would be the design it is compared with, so no run of this review keeps slow and passes; slow needs another change to pass beside the other designs' values")
        // A variant value of the fix's own key would override the --set: it goes too.
        #expect(ReviewReport.placed(instant, ReviewReport.Placement(common: [curve], variant: ("slow", ["retract.mode=animated", "fill.duration=0.8"])), replaces: [curve])
            == "`--set \(instant)` in place of `--set \(curve)` (a value every design has) and of `retract.mode=animated` among the values of `--variant slow`")
        // check's own text is unchanged: the values as they are pasted.
        #expect(GuidelineFix(setting: instant, replaces: [curve, duration]).text == "--set \(instant) in place of --set \(curve) --set \(duration)")
        // A code span holding a backtick is fenced by more of them, so it does not end early.
        #expect(ReviewReport.code("--set description=`x`") == "`` --set description=`x` ``")
        #expect(ReviewReport.code("a``b|c") == "``` a``b\\|c ```")
        // A spring fill that fires the action takes its pace from its curve: no single key sets its hold.
        let spring = try Self.check(["hig-linear-bar"], overrides: ["fill.curve=spring(3,0)", "trigger.source=fill"], users: 2_000)
        let none = try #require(spring.results.first { $0.rule.id == "timing-adjustable" })
        #expect(none.status == .warn && none.suggestion?.setting == nil)
        #expect(ReviewReport.checkCell(none).hasSuffix(" No single key HoldLab knows to try changes this."), "\(ReviewReport.checkCell(none))")
        let passing = try #require(result.results.first { $0.status == .pass })
        #expect(passing.suggestion == nil && passing.fix.isEmpty && !ReviewReport.checkCell(passing).contains("Fix"))
    }

    /// swiftui-hold-to-confirm-button: a 1.5 s gesture under a 1.5 s fill. Shortening the gesture lets motor-impaired
    /// people complete, and makes the action fire on a partly filled bar: the fix must say so, not offer it as one
    /// that works. A Timer fill's trigger does not wait for the gesture: timing-adjustable tries no gesture value.
    @Test("a fix that passes its rule but makes a passing rule fail is named as such; no key is tried that does not set the trigger")
    func fixesDoNotTradeFailures() throws {
        let result = try Self.check(["swiftui-hold-to-confirm-button", "kikocard-accelerating"], users: 2_000)
        func fix(_ profile: String, _ rule: String) -> String {
            result.results.first { $0.profile == profile && $0.rule.id == rule }?.fix ?? "(none)"
        }
        #expect(Self.status(result, rule: "fill-matches-action")?.status == "pass")
        let impaired = fix("swiftui-hold-to-confirm-button", "motor-impaired-completion")
        #expect(impaired.hasPrefix("`--set gesture.minimumDuration=1.2` passes this rule but then `fill-matches-action` no longer passes"), "\(impaired)")
        // A Timer fill that fires the action: a shorter tick, sized by what the hold leaves after the fill starts.
        #expect(fix("kikocard-accelerating", "timing-adjustable") == "--set fill.timer.tick=0.003")
        let ticked = try Self.check(["kikocard-accelerating"], overrides: ["fill.timer.tick=0.003"], users: 2_000)
        #expect(Self.status(ticked, rule: "timing-adjustable")?.status == "pass")
        // Seed 004's elapsed-time form fills in its timer.duration whatever the tick: the duration is what is tried
        // (here it passes and then pulses too fast, and says so).
        let elapsed = try Self.check(["kikocard-accelerating"], overrides: ["fill.timer={tick: 0.01, duration: 2.5}"], users: 2_000)
        let shorter = elapsed.results.first { $0.rule.id == "timing-adjustable" }?.fix ?? ""
        #expect(shorter.hasPrefix("`--set fill.timer.duration=0.5` passes this rule but then `haptic-rate` no longer passes"), "\(shorter)")
        // The same trade, for a variant: the value is placed among its values, the rest of the sentence kept.
        let trade = try #require(elapsed.results.first { $0.rule.id == "timing-adjustable" })
        #expect(trade.suggestion?.trades == true && trade.suggestion?.setting == "fill.timer.duration=0.5")
        let cell = ReviewReport.checkCell(trade, ReviewReport.Placement(variant: ("e", ["fill.timer={tick: 0.01, duration: 2.5}"])))
        #expect(cell.contains(" `fill.timer.duration=0.5` in place of `fill.timer={tick: 0.01, duration: 2.5}` among the values of "
            + "`--variant e` passes this rule but then `haptic-rate` no longer passes"), "\(cell)")
        #expect(!cell.contains("--set"))
        // A tick under a millisecond, and one the millisecond would round into a fill done before recognition, are
        // tried to the tenth of a millisecond; a latency that coalesces ticks gets the millisecond below.
        for (overrides, hold, tick) in [([String](), 600.0, "0.0006"),
                                        (["fill.start=touchDown", "gesture.minimumDuration=0.9"], 950, "0.0059")] {
            var thresholds = GuidelineThresholds()
            thresholds.fixedHoldMs = hold
            let found = try Self.check(["kikocard-accelerating"], overrides: overrides, users: 2_000, thresholds: thresholds)
            #expect(found.results.first { $0.rule.id == "timing-adjustable" }?.fix == "--set fill.timer.tick=\(tick)")
            let fixed = try Self.check(["kikocard-accelerating"], overrides: overrides + ["fill.timer.tick=\(tick)"], users: 2_000,
                                       thresholds: thresholds)
            #expect(Self.status(fixed, rule: "timing-adjustable")?.status == "pass", "\(overrides) \(hold)")
        }
        var longer = GuidelineThresholds()
        longer.fixedHoldMs = 1500
        let latency = try Self.check(["kikocard-article-latency"], users: 2_000, thresholds: longer)
        #expect(latency.results.first { $0.rule.id == "timing-adjustable" }?.fix == "--set fill.timer.tick=0.004")
        // A file's key without effect under the checked model (mismatched-fill's 0.8 s duration under --set
        // fill.model=none) takes effect with the fix, as it does when the advice is followed on the user's file: the
        // fill then looks full 200 ms before the action. (A --set of such a key is refused: it has no effect.)
        let noFill = try Self.check(["mismatched-fill"], overrides: ["fill.model=none"], users: 2_000)
        let feedback = noFill.results.first { $0.rule.id == "first-feedback" }?.fix ?? ""
        #expect(feedback.hasPrefix("`--set fill.model=animation` passes this rule but then `fill-matches-action`"), "\(feedback)")
    }

    @Test("# rng: names mt19937 for the trace rules' Timer latencies where a checked profile draws them, and only there")
    func rngLineNamesTraceDraws() throws {
        func rngLine(_ profiles: [String], rng: Generator.Kind = .users) throws -> String? {
            let result = try Self.check(profiles, users: 500, commandLine: "holdlab check", rng: rng)
            return result.document.csv.split(separator: "\n").first { $0.hasPrefix("# rng: ") }.map(String.init)
        }
        // Drawn latencies (exponential): the trace rules' draws are mt19937's whatever --rng says.
        #expect(try rngLine(["kikocard-article-latency"])
                == "# rng: taus2 (the simulated users; the trace rules' Timer latencies are mt19937's)")
        #expect(try rngLine(["hig-linear-bar", "kikocard-article-latency"])
                == "# rng: taus2 (the simulated users; the trace rules' Timer latencies are mt19937's)")
        // No fill that draws (a Bézier fill; a Timer of constant latency), or mt19937 throughout: the generator alone.
        #expect(try rngLine(["hig-linear-bar", "kikocard-accelerating"]) == "# rng: taus2")
        #expect(try rngLine(["kikocard-article-latency"], rng: .mt19937) == "# rng: mt19937")
    }

    @Test("rules 1 give 0.1.0's check byte for byte, apart from the version")
    func rules1Golden() throws {
        var old = GuidelineThresholds()
        old.ruleSet = .rules1
        let result = try Self.check(["hig-linear-bar", "kikocard-accelerating"],
                                    users: 2_000, thresholds: old,
                                    commandLine: "holdlab check hig-linear-bar kikocard-accelerating --users 2000",
                                    populationFile: "v1/default", rng: .mt19937)
        #expect(Golden.comparable(result.document.csv) == Golden.comparable(try Golden.text("check-two-profiles-0.1.0.csv")))
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
    /// `fill-matches-action` fails on both sides: mismatched-fill looks full before the action, a 1.2 s fill under a
    /// 1.0 s gesture fires on a bar about 83 % full.
    static let cases: [(rule: String, passing: (String, [String]), failing: (String, [String]), failStatus: String)] = [
        ("fill-matches-action", ("hig-linear-bar", []), ("mismatched-fill", []), "fail"),
        ("fill-matches-action", ("hig-linear-bar", ["fill.duration=match"]), ("hig-linear-bar", ["fill.duration=1.2"]), "fail"),
        ("first-feedback", ("hig-linear-bar", []), ("static-long-press", []), "fail"),
        ("haptic-rate", ("kikocard-accelerating", ["haptics.minInterval=0.03"]), ("kikocard-accelerating", []), "fail"),
        ("retract-time", ("hig-linear-bar", []), ("hig-linear-bar", ["retract.duration=1.5"]), "fail"),
        ("timing-adjustable", ("hig-linear-bar", []), ("kikocard-accelerating", []), "warn"),
    ]

    @Test("every rule has a case that passes it and one that fails it; the failure names a fix that passes", arguments: cases.indices)
    func rule(index: Int) throws {
        let (rule, passing, failing, failStatus) = Self.cases[index]
        let passed = try Self.check([passing.0], overrides: passing.1)
        #expect(Self.status(passed, rule: rule)?.status == "pass", "\(rule)")
        #expect(passed.results.first { $0.rule.id == rule }?.fix == "", "\(rule): a passing rule suggests nothing")
        let failed = try Self.check([failing.0], overrides: failing.1)
        #expect(Self.status(failed, rule: rule)?.status == failStatus, "\(rule)")
        let fix = try #require(failed.results.first { $0.rule.id == rule }?.fix)
        guard rule != "timing-adjustable" else { return }
        // The fix is one `--set key=value`; with it the rule passes.
        #expect(fix.hasPrefix("--set "), "\(rule): \(fix)")
        let set = String(fix.dropFirst(6).prefix { $0 != " " })
        let fixed = try Self.check([failing.0], overrides: failing.1 + [set])
        #expect(Self.status(fixed, rule: rule)?.status == "pass", "\(rule) with \(set)")
    }

    @Test("fill-matches-action, late side: the action on a partly filled bar fails rules 2 and passed rules 1")
    func lateSide() throws {
        let late = try Self.check(["hig-linear-bar"], overrides: ["fill.duration=1.2"])
        let result = try #require(late.results.first { $0.rule.id == "fill-matches-action" })
        #expect(result.status == .fail)
        // The bar is full 200 ms after the action (1.2 s − 1.0 s), plus up to a frame of 8.33 ms.
        let measured = try #require(Double(result.measured.split(separator: " ").first ?? ""))
        #expect(measured > 199 && measured <= 208.4)
        #expect(result.detail.contains("partly filled"))
        #expect(result.fix == "--set fill.duration=match")
        var old = GuidelineThresholds()
        old.ruleSet = .rules1
        #expect(Self.status(try Self.check(["hig-linear-bar"], overrides: ["fill.duration=1.2"], thresholds: old),
                            rule: "fill-matches-action")?.status == "pass")
    }

    @Test("fill-matches-action, early side with no completed hold that saw the bar full: traced, so a worse mismatch fails as a milder one does")
    func earlySideEveryoneLetsGo() throws {
        // A 0.3 s fill under a 1 s hold: full 700 ms early (less up to a frame), and every intent user who sees it
        // full lets go, so no simulated completed hold has a mismatch. 0.5 s fails on the simulated p95.
        let worse = try Self.check(["hig-linear-bar"], overrides: ["fill.duration=0.3"], users: 2_000)
        let result = try #require(worse.results.first { $0.rule.id == "fill-matches-action" })
        #expect(result.status == .fail)
        let measured = try #require(Double(result.measured.split(separator: " ").first ?? ""))
        #expect(measured > 691.6 && measured <= 700.3, "\(result.measured)")
        #expect(result.measured.hasSuffix("ms early") && result.detail.contains("let go on the full bar"))
        #expect(result.fix == "--set fill.duration=match")
        #expect(Self.status(try Self.check(["hig-linear-bar"], overrides: ["fill.duration=0.5"], users: 2_000),
                            rule: "fill-matches-action")?.status == "fail")
        // Without a fill, nothing looks full: a pass that says it traced.
        let none = try Self.check(["static-long-press"], users: 2_000)
        let pass = try #require(none.results.first { $0.rule.id == "fill-matches-action" })
        #expect(pass.status == .pass && pass.measured == "NaN" && pass.detail.contains("traced"))
    }

    /// A fill that shows 96 ms after touch-down on a 60 Hz display: at phases 0 and 0.999999 (rules 1) the first
    /// frame to show it is at 100 ms or just before, but a frame just before 96 ms puts it at 96 + 16.67 ms.
    @Test("first-feedback is the worst over every display phase, not two phases: 112.7 ms fails where rules 1 saw 100 ms")
    func worstPhase() throws {
        let sets = ["display.refreshRate=60", "fill.delay=0.095"]
        let new = try Self.check(["hig-linear-bar"], overrides: sets)
        let result = try #require(new.results.first { $0.rule.id == "first-feedback" })
        #expect(result.status == .fail)
        let worst = try #require(Double(result.measured.split(separator: " ").first ?? ""))
        // The supremum is 96 ms + 1000/60 ms = 112.667 ms, approached from below (bisection to 2⁻⁴⁰ of a cell).
        #expect(worst > 112.6 && worst <= 112.667, "\(worst)")
        #expect(result.fix == "--set fill.delay=0")
        var old = GuidelineThresholds()
        old.ruleSet = .rules1
        let before = try Self.check(["hig-linear-bar"], overrides: sets, thresholds: old)
        #expect(Self.status(before, rule: "first-feedback")?.status == "pass")
        // The simulated mean over people (uniform phases) is below the worst case, as "at the latest" promises.
        let library = Make.library
        let profile = try library.loadProfile("hig-linear-bar", overrides: sets.map { try Override(parsing: $0) })
        let summary = try Simulator.run(SimulationRequest(
            profiles: [profile], population: try library.loadPopulation("default"), users: 4_000, seed: 1, threads: 2))[0]
        let mean = try #require(summary.value(named: "first_feedback_ms"))
        #expect(mean < worst && mean > 96)
    }

    @Test("worstOverPhases finds the supremum of a frame-quantised time, which no grid phase reaches")
    func supremum() {
        // The first frame at or after 0.3 frames: (k + phase) frames for the smallest k with k + phase ≥ 0.3.
        let worst = Guidelines.worstOverPhases { phase in phase >= 0.3 ? phase : 1 + phase }
        #expect(worst.someMissing == false)
        #expect(abs((worst.worst ?? 0) - 1.3) < 1e-9)
        #expect(Guidelines.worstOverPhases { _ in nil as Double? }.worst == nil)
    }

    @Test("pointer-cancellation passes when no early release fires, and fails when a release at the trigger's instant does")
    func pointerCancellation() throws {
        let library = Make.library
        let profile = try library.loadProfile("hig-linear-bar")
        let t = GuidelineThresholds()
        #expect(try Guidelines.earlyReleases(profile, t, seed: 1).cancellation.status == .pass)
        // The model never fires after the finger lifted: at the trigger's instant the action comes first.
        let fired = try Guidelines.earlyReleases(profile, t, seed: 1, fractions: [1]).cancellation
        #expect(fired.status == .fail)
        #expect(fired.detail.contains("fires it"))
        // It cites WCAG, and only the WCAG part: the retract limit is HoldLab's own rule.
        let rule = Guidelines.rule("pointer-cancellation")
        #expect(rule.basis == .standard && rule.option.isEmpty && rule.source.contains("2.5.2"))
        let retract = Guidelines.rule("retract-time")
        #expect(retract.basis == .judgement && !retract.rationale.isEmpty && retract.source.contains("not WCAG"))
    }

    @Test("every rule says its basis; HoldLab's judgements give a rationale; no source points into docs/")
    func bases() {
        for rule in Guidelines.rules {
            if rule.basis == .judgement { #expect(!rule.rationale.isEmpty, "\(rule.id)") }
            #expect(!rule.source.contains("docs/"), "\(rule.id)")
            #expect(rule.basis != .standard || rule.source.hasPrefix("WCAG"), "\(rule.id)")
        }
        #expect(Guidelines.markdownTable().contains("| `retract-time` |"))
    }

    /// Profiles with pulses closer than the actuator renders: KikoCard's 10 ms ticks (and the Timer's coalesced
    /// fires, microseconds apart), an easeInOut fill pulsing on every frame at 240 Hz.
    @Test("no pulse rate above the actuator's is ever reported", arguments: [0.0, 0.004, 0.01, 0.02, 0.05])
    func actuatorLimit(interval: Double) throws {
        let library = Make.library
        let population = try library.loadPopulation("default")
        var peaks: [Double] = []
        for (name, sets) in [("kikocard-accelerating", [String]()), ("kikocard-article-latency", []),
                             ("hig-linear-bar", ["haptics.threshold=0.001", "display.refreshRate=240"])] {
            let overrides = try (sets + ["haptics.actuatorMinInterval=\(interval)"]).map { try Override(parsing: $0) }
            let profile = try library.loadProfile(name, overrides: overrides)
            let summary = try Simulator.run(SimulationRequest(profiles: [profile], population: population, users: 3_000,
                                                              seed: 3, threads: 2))[0]
            let peak = try #require(summary.value(named: "peak_pulse_rate_hz"), "\(name)")
            if interval > 0 { #expect(peak <= 1 / interval + 1e-9, "\(name) at \(interval): \(peak)") }
            peaks.append(peak)
        }
        // 0 renders every played pulse, 0.1.0's figure: the 240 Hz frame pulses come through.
        if interval == 0 { #expect((peaks.max() ?? 0) >= 239.9, "\(peaks)") }
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

    /// The first outside probe of 0.3.13: each fix is checked alone, and on kikocard-accelerating the three cannot be
    /// followed together (the action would fire before the gesture recognises), which no cell said.
    @Test("fixes checked alone are checked together: refused, or passing, as checking them together independently says")
    func fixesTogether() throws {
        let result = try Self.check(["kikocard-accelerating", "mismatched-fill", "flutter-punyawatdev", "hig-linear-bar"], users: 2_000)
        let said = Dictionary(uniqueKeysWithValues: result.together.map { ($0.profile, $0.text) })
        // hig-linear-bar has no fix: nothing to say.
        #expect(said["hig-linear-bar"] == nil)
        let settings = ["fill.start=touchDown", "haptics.minInterval=0.025", "fill.timer.tick=0.003"]
        #expect(said["kikocard-accelerating"]?.hasPrefix("its fixes together (" + settings.map { "`--set \($0)`" }.joined(separator: " ")
            + ") are refused: trigger.offset: fires the action at 480 ms") == true, "\(said)")
        // Independently: the profile with the three --set values does not load.
        #expect(throws: (any Error).self) { try Self.check(["kikocard-accelerating"], overrides: settings, users: 2_000) }
        // mismatched-fill's two pass every rule, and do when given as --set values.
        #expect(said["mismatched-fill"] == "its fixes together (`--set fill.duration=match` `--set gesture.minimumDuration=0.8`) pass every rule")
        let fixed = try Self.check(["mismatched-fill"], overrides: ["fill.duration=match", "gesture.minimumDuration=0.8"], users: 2_000)
        #expect(fixed.results.allSatisfy { $0.status == .pass })
        // flutter-punyawatdev: a rule that warned without a fix among them (timing-adjustable) is as it was, not
        // blamed on the fixes; the rules they fix pass.
        let punyawat = try #require(said["flutter-punyawatdev"])
        #expect(punyawat.hasSuffix(") pass the rules each fixes and break none that passed"), "\(punyawat)")
        let fixes = result.results.filter { $0.profile == "flutter-punyawatdev" }.compactMap { $0.suggestion?.setting }
        let followed = try Self.check(["flutter-punyawatdev"], overrides: fixes, users: 2_000)
        for before in result.results where before.profile == "flutter-punyawatdev" {
            let after = try #require(followed.results.first { $0.rule.id == before.rule.id })
            #expect(after.status == .pass || (before.status != .pass && before.suggestion?.setting == nil), "\(before.rule.id)")
        }
        #expect(followed.results.contains { $0.status != .pass })
        // The second outside probe of 0.3.14: fixes of one key were skipped in silence. Two values of one key
        // cannot both be followed, and the sentence says so; one value two rules give is one fix.
        var strict = GuidelineThresholds()
        (strict.maxPulseRateHz, strict.feedbackMs, strict.fixedHoldMs, strict.maxRetractMs) = (20, 50, 600, 100)
        let conflicting = try Self.check(["mismatched-fill"], users: 2_000, thresholds: strict)
        #expect(conflicting.together.first?.text == "two of its fixes give one key different values (`gesture.minimumDuration=0.6` "
            + "and `gesture.minimumDuration=0.8`): they cannot both be followed; follow one, then check again", "\(conflicting.together)")
        var looser = GuidelineThresholds()
        (looser.fixedHoldMs, looser.feedbackMs, looser.maxPulseRateHz) = (1200, 60, 50)
        let shared = try Self.check(["react-spectrum-hold-to-confirm"], overrides: ["trigger.offset=0.1"], users: 2_000, thresholds: looser)
        #expect(shared.results.filter { $0.suggestion?.setting == "trigger.offset=0" }.count == 2)
        let text = try #require(shared.together.first?.text)
        // (This helper checks without the --set texts, so no fix names the value it replaces: CheckCommandTests.)
        #expect(text == "its fixes together (`--set trigger.offset=0` `--set fill.duration=0.95`) pass every rule", "\(text)")
        let both = try Self.check(["react-spectrum-hold-to-confirm"], overrides: ["trigger.offset=0", "fill.duration=0.95"], users: 2_000,
                                  thresholds: looser)
        #expect(both.results.allSatisfy { $0.status == .pass })
    }
}

@Suite("check: the sentence for a profile's fixes together")
struct FixesTogetherSentenceTests {
    static let settings = ["retract.mode=instant", "haptics.minInterval=0.05"]
    static func sentence(_ outcome: FixesTogether.Outcome, replaces: [[String]] = [[], []]) -> String {
        FixesTogether(settings: settings, replaces: replaces, outcome: outcome).sentence { setting, replaced in
            "`--set \(setting)`" + (replaced.isEmpty ? "" : " in place of " + replaced.map { "`--set \($0)`" }.joined(separator: " "))
        }
    }

    @Test("each outcome in its words: a rule a fix fixed that still fails or warns, a rule that passed and no longer does")
    func outcomes() {
        let list = "`--set retract.mode=instant` `--set haptics.minInterval=0.05`"
        #expect(Self.sentence(.passEvery) == "its fixes together (\(list)) pass every rule")
        #expect(Self.sentence(.passFixed) == "its fixes together (\(list)) pass the rules each fixes and break none that passed")
        #expect(Self.sentence(.refused("retract.duration: no effect")) == "its fixes together (\(list)) are refused: retract.duration: no effect; follow one, then check again")
        #expect(Self.sentence(.conflict("a=1", "a=2")) == "two of its fixes give one key different values (`a=1` and `a=2`): they cannot both be followed; follow one, then check again")
        #expect(Self.sentence(.broken([(rule: "retract-time", status: .fail, fixed: true), (rule: "haptic-rate", status: .warn, fixed: false)]))
            == "with its fixes together (\(list)), `retract-time` still fails and `haptic-rate` no longer passes (warns); follow one, then check again")
        #expect(Self.sentence(.broken([(rule: "first-feedback", status: .warn, fixed: true)])).contains("`first-feedback` still warns;"))
        // A value that names the one it replaces is set off by commas, so each pair reads as one.
        #expect(Self.sentence(.passEvery, replaces: [["retract.curve=easeIn"], []])
            == "its fixes together (`--set retract.mode=instant` in place of `--set retract.curve=easeIn`, `--set haptics.minInterval=0.05`) pass every rule")
    }
}
