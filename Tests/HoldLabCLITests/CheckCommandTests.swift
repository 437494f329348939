import Foundation
import Testing

@Suite("holdlab check")
struct CheckCommandTests {
    /// Each rule with a command line that passes it and one that fails it (warns, for the informative rule).
    static let cases: [(rule: String, passing: [String], failing: [String], failStatus: String)] = [
        ("fill-matches-action", ["hig-linear-bar"], ["mismatched-fill"], "fail"),
        ("first-feedback", ["hig-linear-bar"], ["static-long-press"], "fail"),
        ("haptic-rate", ["kikocard-accelerating", "--set", "haptics.minInterval=0.03"], ["kikocard-accelerating"], "fail"),
        ("pointer-cancellation", ["hig-linear-bar"], ["hig-linear-bar", "--set", "retract.duration=1.5"], "fail"),
        ("timing-adjustable", ["hig-linear-bar"], ["kikocard-accelerating"], "warn"),
        ("motor-impaired-completion", ["hig-linear-bar"], ["hig-linear-bar", "--min-impaired-completion", "0.9"], "fail"),
    ]

    static func status(_ csv: String, rule: String) -> (status: String, measured: String)? {
        for line in CLI.dataLines(csv).dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if fields.count > 3 && fields[1] == rule { return (fields[2], fields[3]) }
        }
        return nil
    }

    @Test("every rule has a case that passes it and one that fails it", arguments: cases.indices)
    func rule(index: Int) throws {
        let (rule, passing, failing, failStatus) = Self.cases[index]
        let good = try CLI.run(["check", "--users", "4000"] + passing)
        #expect(Self.status(good.stdout, rule: rule)?.status == "pass", "\(rule): \(good.stdout)")
        let bad = try CLI.run(["check", "--users", "4000"] + failing)
        #expect(Self.status(bad.stdout, rule: rule)?.status == failStatus, "\(rule): \(bad.stdout)")
        if failStatus == "fail" {
            #expect(bad.status == 1, "\(bad.stderr)")
            #expect(bad.stderr.contains(rule))
        }
    }

    @Test("measured figures: mismatched-fill looks full 200 ms early; KikoCard pulses every 10 ms tick; 2.1 s hold")
    func figures() throws {
        let mismatched = try CLI.run(["check", "mismatched-fill", "--users", "4000"])
        let p95 = try #require(Double(Self.status(mismatched.stdout, rule: "fill-matches-action")?.measured.split(separator: " ").first ?? ""))
        // An 0.8 s fill under a 1.0 s gesture at 120 Hz: full on the first frame at or after 0.8 s, so 192–200 ms early.
        #expect(p95 > 191.6 && p95 <= 200.5)
        let kiko = try CLI.run(["check", "kikocard-accelerating", "--users", "4000"])
        #expect(Self.status(kiko.stdout, rule: "haptic-rate")?.measured == "100.000 Hz")
        #expect(Self.status(kiko.stdout, rule: "timing-adjustable")?.measured == "2100.000 ms")
    }

    @Test("exit 0 when no rule fails (warnings allowed); the table has every rule per profile; README has the rules")
    func exitStatusAndTable() throws {
        let result = try CLI.run(["check", "hig-linear-bar", "hig-linear-ring", "--users", "4000"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = CLI.dataLines(result.stdout)
        #expect(lines[0] == "profile,rule,status,measured,threshold,detail,source")
        #expect(lines.count == 1 + 2 * 6)
        let warned = try CLI.run(["check", "kikocard-accelerating", "--users", "4000", "--feedback-ms", "600", "--max-pulse-rate", "120"])
        #expect(warned.status == 0, "\(warned.stderr)")
        #expect(Self.status(warned.stdout, rule: "timing-adjustable")?.status == "warn")
        let rules = try CLI.run(["check", "--list-rules"])
        #expect(rules.status == 0)
        let readme = try String(contentsOf: CLI.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains(rules.stdout), "README.md must hold `holdlab check --list-rules` as is")
    }

    @Test("bad thresholds and no profile are usage errors; a missing profile is 66", arguments: [
        (["--users", "10"], 64, "Name at least one profile"),
        (["hig-linear-bar", "--feedback-ms", "-1"], 64, "--feedback-ms"),
        (["hig-linear-bar", "--min-impaired-completion", "2"], 64, "--min-impaired-completion"),
        (["nope"], 66, "nope"),
    ])
    func errors(arguments: [String], status: Int32, message: String) throws {
        let result = try CLI.run(["check"] + arguments)
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
