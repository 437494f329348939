import Foundation
import Testing
@testable import HoldProfiles

private func failure(_ yaml: String) -> String {
    do {
        _ = try ReviewFile.parse(yaml, path: "review.yaml")
        return "loaded without error"
    } catch {
        return "\(error)"
    }
}

@Suite("Review files")
struct ReviewFileTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("the shipped review gives the issue's question as report options, in file order")
    func shipped() throws {
        let path = Self.root.appendingPathComponent("Profiles/reviews/fast-fill.yaml").path
        let review = try ReviewFile.load(path: path)
        #expect(review.arguments == [
            "--question", "A 1.0 s linear fill, or a 0.6 s easeIn fill with the action at 0.8 s, for default and motor-impaired users?",
            "--profile", "hig-linear-bar",
            "--variant", "fast=fill.curve=easeIn fill.duration=0.6 gesture.minimumDuration=0.8",
            "--population", "default,motor-impaired", "--baseline", "hig-linear-bar", "--users", "20000", "--seed", "1",
            "--sweep", "fill.duration=0.6,0.8,1.0,1.2",
        ])
        #expect(review.sweeps.first?.origin == .file(path: path, line: 17, column: 5))
    }

    @Test("scalars or lists; common sets; values with spaces quoted and flow values kept; every key optional")
    func forms() throws {
        let review = try ReviewFile.parse("""
            profiles: hig-linear-bar
            set: {haptics.enabled: true}
            variants:
              calm: {fill.curve: "cubic-bezier(0.4, 0, 0.2, 1)", fill.timer.latency: '{dist: constant, value: 0}'}
            populations: default
            users: 1_000
            seed: 18446744073709551615
            """, path: "review.yaml")
        #expect(review.arguments == [
            "--profile", "hig-linear-bar", "--set", "haptics.enabled=true",
            "--variant", "calm=fill.curve=\"cubic-bezier(0.4, 0, 0.2, 1)\" fill.timer.latency={dist: constant, value: 0}",
            "--population", "default", "--users", "1000", "--seed", "18446744073709551615",
        ])
        #expect(try ReviewFile.parse("{}", path: "review.yaml").arguments.isEmpty)
    }

    @Test("the decision rule: prefer and guard (a text, a list, or [] for none) become --prefer and --guard")
    func decisionRule() throws {
        let one = try ReviewFile.parse("prefer: false_activation_rate\nguard: completion_rate>=-1pt\n", path: "review.yaml")
        #expect(one.arguments == ["--prefer", "false_activation_rate", "--guard", "completion_rate>=-1pt"])
        #expect(one.prefer?.origin.description.hasPrefix("review.yaml:1:") == true)
        let list = try ReviewFile.parse("guard: [a<=1pt, b<=2%]\n", path: "review.yaml")
        #expect(list.arguments == ["--guard", "a<=1pt", "--guard", "b<=2%"])
        #expect(try ReviewFile.parse("guard: []\n", path: "review.yaml").arguments == ["--guard", "none"])
        #expect(failure("guard: {a: 1}\n").hasPrefix("review.yaml:1:8: guard: must be a name or a list of names"))
    }

    @Test("bad input names the file, line, column and key path, and what is allowed")
    func errors() {
        #expect(failure("profiles: [a]\nusers: 100\nuser: 3\n")
                == "review.yaml:3:7: user: unknown key (did you mean 'users'?); allowed here: baseline, guard, populations, prefer, profiles, question, seed, set, sweeps, users, variants")
        #expect(failure("users: lots\n") == "review.yaml:1:8: users: must be a whole number from 1 to 10000000000 (got 'lots')")
        #expect(failure("users: 0\n").hasPrefix("review.yaml:1:8: users: must be a whole number"))
        #expect(failure("seed: -1\n").hasPrefix("review.yaml:1:7: seed: must be a whole number from 0 to 18446744073709551615"))
        #expect(failure("question: [a, b]\n") == "review.yaml:1:11: question: must be a single value (got a list)")
        #expect(failure("populations: [default, {a: 1}]\n")
                == "review.yaml:1:24: populations[1]: must be a name or a list of names (got a mapping)")
        #expect(failure("variants:\n  fast:\n    fill.timer.latency: {dist: constant, value: 0}\n")
                .hasPrefix("review.yaml:3:25: variants.fast.fill.timer.latency: must be a single value (got a mapping); write a distribution as quoted text"))
        #expect(failure("variants:\n  \"fast one\": {fill.curve: easeIn}\n")
                == "review.yaml:2:15: variants.fast one: a variant label is letters, digits, '-', '_' and '.'")
        #expect(failure("variants: [fast]\n") == "review.yaml:1:11: variants: must be a mapping (got a list)")
        #expect(failure("sweeps: [fill.duration]\n")
                == "review.yaml:1:10: sweeps[0]: a sweep is key=values, e.g. fill.duration=0.6:1.4:0.2 (got 'fill.duration')")
        #expect(failure("question: ''\n") == "review.yaml:1:11: question: needs text")
        #expect(failure("set: {fill.curve: }\n").hasPrefix("review.yaml:1:"))
        #expect(failure("profiles: [a\n").hasPrefix("review.yaml:"))
    }

    @Test("a set value or variant that breaks a check across keys is reported where the review writes it")
    func crossFieldProblems() {
        let library = ProfileLibrary(directory: Self.root.appendingPathComponent("Profiles").path)
        let match = "fill.duration: match resolves to 0 s (gesture.minimumDuration); an animation fill's duration must be at least a nanosecond (1e-9 s) and at most 3600 s: give fill.duration in seconds, or a gesture.minimumDuration from 1e-9 to 3600 s"
        #expect(library.reviewProblems(yaml: "profiles: [hig-linear-bar]\nvariants:\n  quick: {gesture.minimumDuration: 0}\n", path: "r.yaml")
                    .map(\.description) == ["r.yaml:3:36: variants.quick.gesture.minimumDuration: \(match)"])
        #expect(library.reviewProblems(yaml: "profiles: [hig-linear-bar]\nset:\n  gesture.minimumDuration: 0\n", path: "r.yaml")
                    .map(\.description) == ["r.yaml:3:28: set.gesture.minimumDuration: \(match)"])
        // A set value and a variant's together: at the entry of the key the problem is about, naming the other
        // where it is written.
        #expect(library.reviewProblems(
            yaml: "profiles: [hig-linear-bar]\nset:\n  gesture.minimumDuration: 0.01\nvariants:\n  f: {trigger.offset: -0.02}\n", path: "r.yaml")
                    .map(\.description) == ["r.yaml:5:23: variants.f.trigger.offset: with set gesture.minimumDuration=0.01: fires the action at minimumDuration + trigger.offset = -0.01 s; it must be after touch-down (minimumDuration + offset > 0, or trigger.source: fill)"])
    }

    static let oneDesign = "a review compares at least two designs, and this one has one; give a second profile in profiles, or a variant of the first in variants (or --variant beside a file without variants)"

    @Test("every problem of a review is listed: its schema's with those keys set aside, then the library's, a baseline that is none of the designs and a sweep value the first profile refuses")
    func everyProblem() {
        let library = ProfileLibrary(directory: Self.root.appendingPathComponent("Profiles").path)
        let problems = library.reviewProblems(
            yaml: "profiles: [hig-linear-bar]\nvariants:\n  fast: {fill.wobble: 1}\nbaseline: zz\npopulations: [nobody]\nsweeps: [\"fill.curve=wobbly\"]\nusers: many\n",
            path: "r.yaml",
            // A sweep of listed values, one point each (the command's parser, sweep's, is the CLI tests' to check).
            checks: ReviewValueChecks(sweepPoints: { text in
                let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
                return parts[1].split(separator: ",").map { "\(parts[0])=\($0)" }
            }, rule: { _, _ in }))
        #expect(problems.map { "\($0.origin) \($0.keyPath)" } == [
            "r.yaml:3:23 variants.fast.fill.wobble", "r.yaml:4:11 baseline", "r.yaml:5:15 populations[0]", "r.yaml:6:10 sweeps[0]",
            "r.yaml:7:8 users",
        ])
        #expect(problems[1].message == "zz is none of the designs: hig-linear-bar, fast")
        #expect(problems[3].message.hasPrefix("fill.curve=wobbly: fill.curve: timing curve 'wobbly': not recognised"))
    }

    @Test("a baseline that is none of the designs is reported beside a profile that does not load (its name stands for its label)")
    func baselineBesideAnUnknownProfile() {
        let library = ProfileLibrary(directory: Self.root.appendingPathComponent("Profiles").path)
        let problems = library.reviewProblems(yaml: "profiles: [hig-linear-bar, nosuch]\nbaseline: nobody\n", path: "r.yaml")
        #expect(problems.map { "\($0.origin) \($0.keyPath)" } == ["r.yaml:1:28 profiles[1]", "r.yaml:2:11 baseline"])
        #expect(problems.last?.message == "nobody is none of the designs: hig-linear-bar, nosuch")
        // The unknown profile itself as the baseline is its own problem only.
        #expect(library.reviewProblems(yaml: "profiles: [hig-linear-bar, nosuch]\nbaseline: nosuch\n", path: "r.yaml").count == 1)
    }

    @Test("a review that gives its profiles and variants and has one design is refused where it gives them (65, not compare's 64); one without variants is report's to count with --variant")
    func oneDesign() {
        let library = ProfileLibrary(directory: Self.root.appendingPathComponent("Profiles").path)
        #expect(library.reviewProblems(yaml: "profiles: [hig-linear-bar]\nvariants: {}\nusers: 2000\n", path: "r.yaml")
                    .map(\.description) == ["r.yaml:2:11: variants: \(Self.oneDesign)"])
        // Without variants, report --variant adds designs: the file alone is no problem, and report counts them all.
        let open = "users: 2000\nprofiles: [hig-linear-bar]\n"
        #expect(library.reviewProblems(yaml: open, path: "r.yaml").isEmpty)
        #expect(ProfileLibrary.oneDesignProblem(yaml: open, path: "r.yaml", designs: 1)?.description == "r.yaml:2:11: profiles: \(Self.oneDesign)")
        #expect(ProfileLibrary.oneDesignProblem(yaml: open, path: "r.yaml", designs: 2) == nil)
        #expect(library.reviewProblems(yaml: "profiles: [hig-linear-bar]\nvariants: {slow: {gesture.minimumDuration: 1.2}}\n", path: "r.yaml").isEmpty)
    }

    @Test("a key both set and a variant give is reported at the variant's entry (the file's fault, 65), as report refuses it")
    func setAndVariantOverlap() {
        let library = ProfileLibrary(directory: Self.root.appendingPathComponent("Profiles").path)
        let problems = library.reviewProblems(
            yaml: "profiles: [hig-linear-bar]\nset: {fill.curve: easeOut}\nvariants:\n  fast:\n    fill.duration: 0.6\n    fill.curve: easeIn\n",
            path: "r.yaml")
        #expect(problems.map(\.description) == ["r.yaml:6:17: variants.fast.fill.curve: fill.curve is also given by set; give it in one place"])
        #expect(problems.allSatisfy { !$0.origin.isOverride })
    }

    @Test("a set value every profile refuses alike is one problem, not one per profile")
    func oneProblemForEveryProfile() {
        let library = ProfileLibrary(directory: Self.root.appendingPathComponent("Profiles").path)
        let problems = library.reviewProblems(
            yaml: "profiles: [hig-linear-bar, mismatched-fill]\nset: {haptics.enabled: true}\n", path: "r.yaml").map(\.description)
        #expect(problems.count == 1 && problems.first?.hasPrefix("r.yaml:2:24: set.haptics.enabled: unknown key") == true, "\(problems)")
        // Two different problems stay two.
        let two = library.reviewProblems(
            yaml: "profiles: [hig-linear-bar, mismatched-fill]\nset: {haptics.enabled: true, fill.curve: wobbly}\n", path: "r.yaml")
        #expect(two.count >= 1 && Set(two.map(\.description)).count == two.count, "\(two.map(\.description))")
    }

    @Test("a missing review file cannot be opened (not invalid content)")
    func missing() {
        #expect(throws: ProfileError.self) { try ReviewFile.load(path: "/nonexistent/review.yaml") }
        do {
            _ = try ReviewFile.load(path: "/nonexistent/review.yaml")
        } catch {
            #expect(error.cannotOpen && error.description.contains("no such review file"))
        }
    }
}
