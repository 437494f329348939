import Foundation
import Testing

@Suite("holdlab check")
struct CheckCommandTests {
    static func status(_ csv: String, rule: String) -> (status: String, measured: String)? {
        for line in CLI.dataLines(csv).dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if fields.count > 3 && fields[1] == rule { return (fields[2], fields[3]) }
        }
        return nil
    }

    @Test("pointer-cancellation releases before the action on the nanosecond clock: a trigger at 1 ns is not fired by a release at it")
    func pointerCancellationAtANanosecond() throws {
        // The outside probe of 0.3.17: 90 % of a 1 ns trigger rounded onto it, "a release at 0.0 ms, before the
        // action at 0.0 ms, fires it", where trace --release-at 0 fires nothing.
        let result = try CLI.run(["check", "android-filling-button", "--set", "trigger.source=gesture", "--set",
                                  "trigger.offset=0.000000001", "--users", "2000"])
        #expect(result.status == 0 || result.status == 1, "\(result.stderr)")
        let row = try #require(Self.status(result.stdout, rule: "pointer-cancellation"), "\(result.stdout)")
        #expect(row.status != "fail", "\(result.stdout)")
        #expect(!result.stdout.contains("before the action at 0.0 ms, fires it"))
    }

    @Test("a failing rule exits 1 and is named on standard error; --set and thresholds reach the rules")
    func failing() throws {
        let bad = try CLI.run(["check", "--users", "2000", "hig-linear-bar", "--set", "retract.duration=1.5",
                               "--min-impaired-completion", "0.99"])
        #expect(bad.status == 1, "\(bad.stderr)")
        #expect(bad.stderr.contains("2 rule(s) failed: hig-linear-bar retract-time, hig-linear-bar motor-impaired-completion"),
                "\(bad.stderr)")
        #expect(Self.status(bad.stdout, rule: "retract-time")?.status == "fail")
        #expect(Self.status(bad.stdout, rule: "pointer-cancellation")?.status == "pass")
        // --rules 1: 0.1.0's rules, where the retract limit was part of pointer-cancellation.
        let old = try CLI.run(["check", "--users", "2000", "hig-linear-bar", "--set", "retract.duration=1.5", "--rules", "1"])
        #expect(old.status == 1 && Self.status(old.stdout, rule: "pointer-cancellation")?.status == "fail", "\(old.stderr)")
        #expect(CLI.dataLines(old.stdout)[0] == "profile,rule,status,measured,threshold,detail,source")
    }

    @Test("exit 0 when no rule fails (warnings allowed); the table has every rule per profile; docs/REPORT.md has the rules")
    func exitStatusAndTable() throws {
        let result = try CLI.run(["check", "hig-linear-bar", "hig-linear-ring", "--users", "4000"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = CLI.dataLines(result.stdout)
        #expect(lines[0] == "profile,rule,status,measured,threshold,detail,fix,basis,source")
        #expect(lines.count == 1 + 2 * 7)
        let warned = try CLI.run(["check", "kikocard-accelerating", "--users", "4000", "--feedback-ms", "600", "--max-pulse-rate", "120"])
        #expect(warned.status == 0, "\(warned.stderr)")
        #expect(Self.status(warned.stdout, rule: "timing-adjustable")?.status == "warn")
        let rules = try CLI.run(["check", "--list-rules"])
        #expect(rules.status == 0)
        let page = try String(contentsOf: CLI.root.appendingPathComponent("docs/REPORT.md"), encoding: .utf8)
        #expect(page.contains(rules.stdout), "docs/REPORT.md must hold `holdlab check --list-rules` as is")
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

    /// The second outside probe of 0.3.13: a fix of a key a `--set` already gives (inside its brace value) could not
    /// be pasted beside it ("give each key once", 64). The fix is the two merged, in place of the `--set`; and the
    /// Timer's elapsed-time form finds a duration that passes whatever duration the search starts from.
    @Test("a fix of a key a --set gives takes its place, merged; pasted there, the rule passes", arguments: ["2.5", "1.9"])
    func fixReplacesTheSetItOverlaps(duration: String) throws {
        let given = "fill.timer={tick: 0.02, duration: \(duration)}"
        let result = try CLI.run(["check", "kikocard-accelerating", "--set", given, "--fixed-hold-ms", "600", "--users", "2000",
                                  "--columns", "rule,status,fix", "--no-comments"])
        let row = try #require(CLI.dataLines(result.stdout).first { $0.hasPrefix("timing-adjustable,") })
        // As a fix, or as a value that passes by breaking another rule (then in code spans).
        let fix = String(row.dropFirst("timing-adjustable,warn,\"".count)).replacingOccurrences(of: "`", with: "")
        #expect(fix.hasPrefix("--set fill.timer={tick: 0.02, duration: 0.") && fix.contains("} in place of --set \(given)"), "\(fix)")
        let merged = String(fix.dropFirst("--set ".count).prefix { $0 != "}" }) + "}"
        let pasted = try CLI.run(["check", "kikocard-accelerating", "--set", merged, "--fixed-hold-ms", "600", "--users", "2000", "--no-comments"])
        #expect(pasted.status != 64, "\(pasted.stderr)")
        #expect(Self.status(pasted.stdout, rule: "timing-adjustable")?.status == "pass", "\(merged): \(pasted.stdout)")
        // Beside the --set it replaces, the fix is refused: why it must take its place.
        let beside = try CLI.run(["check", "kikocard-accelerating", "--set", given, "--set", merged, "--users", "2000"])
        #expect(beside.status == 64)
        // Where the fill starts past the limit, no Timer value can pass, and the cell says why.
        let late = try CLI.run(["check", "kikocard-accelerating", "--set", given, "--fixed-hold-ms", "300", "--users", "2000",
                                "--columns", "rule,fix", "--no-comments"])
        #expect(late.stdout.contains("the Timer's fill starts 500 ms into the hold, at or past the 300 ms limit"), "\(late.stdout)")
    }

    /// The second outside probe of 0.3.14: retract-time's fix was `retract.duration=0.2` whatever `--max-retract-ms`
    /// said (under 200 ms no fix was found), and `retract.mode=instant` was refused beside the `--set` of a key it
    /// leaves without effect, then said not to pass.
    @Test("retract-time's duration is the longest that passes at the threshold given; instant takes the place of a --set it voids",
          arguments: [("hig-linear-bar", 100), ("hig-linear-bar", 137), ("hig-linear-ring", 60)])
    func retractFixFollowsTheThreshold(profile: String, limit: Int) throws {
        let options = ["--max-retract-ms", String(limit), "--users", "2000", "--columns", "rule,status,fix", "--no-comments"]
        for given in [[], ["--set", "retract.duration=0.3"]] {
            let result = try CLI.run(["check", profile] + given + options)
            let row = try #require(CLI.dataLines(result.stdout).first { $0.hasPrefix("retract-time,") }, "\(result.stderr)")
            #expect(row.hasPrefix("retract-time,fail,--set retract.duration=0."), "\(row)")
            let setting = String(row.dropFirst("retract-time,fail,--set ".count).prefix { $0 != " " })
            #expect(given.isEmpty ? !row.contains("in place of") : row.hasSuffix("in place of --set retract.duration=0.3"), "\(row)")
            // Pasted (in place of the --set it merges with), the rule passes; a millisecond longer, it fails.
            let seconds = try #require(Double(setting.dropFirst("retract.duration=".count)))
            for (value, status) in [(seconds, "pass"), (seconds + 0.001, "fail")] {
                let again = try CLI.run(["check", profile, "--set", "retract.duration=\(value)"] + options)
                #expect(CLI.dataLines(again.stdout).contains { $0.hasPrefix("retract-time,\(status),") }, "\(value): \(again.stdout)")
            }
        }
        // A spring retract's curve leaves no duration to shorten; instant voids the --set curve and takes its place.
        let spring = "retract.curve=spring(0.6,0)"
        let voided = try CLI.run(["check", profile, "--set", spring] + options)
        let row = try #require(CLI.dataLines(voided.stdout).first { $0.hasPrefix("retract-time,") })
        #expect(row == "retract-time,fail,\"--set retract.mode=instant in place of --set \(spring)\"", "\(row)")
        let beside = try CLI.run(["check", profile, "--set", spring, "--set", "retract.mode=instant"] + options)
        #expect(beside.status == 64 && beside.stderr.contains("has no effect on an instant retract"), "\(beside.stderr)")
        let instead = try CLI.run(["check", profile, "--set", "retract.mode=instant"] + options)
        #expect(CLI.dataLines(instead.stdout).contains { $0.hasPrefix("retract-time,pass,") }, "\(instead.stdout)")
    }

    @Test("a profile's fixes are checked together and standard error says what they do (refused here); the rows are unchanged")
    func fixesTogetherOnStandardError() throws {
        let result = try CLI.run(["check", "kikocard-accelerating", "--users", "2000"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("holdlab: kikocard-accelerating: its fixes together (`--set fill.start=touchDown` "
            + "`--set haptics.minInterval=0.025` `--set fill.timer.tick=0.003`) are refused: trigger.offset: fires the action at 480 ms"),
                "\(result.stderr)")
        let quiet = try CLI.run(["check", "kikocard-accelerating", "--users", "2000", "-q"])
        #expect(quiet.stderr.isEmpty && quiet.stdout == result.stdout)
        // A fix in place of a --set is named with it; one value two rules give is listed once.
        let shared = try CLI.run(["check", "react-spectrum-hold-to-confirm", "--fixed-hold-ms", "1200", "--feedback-ms", "60",
                                  "--max-pulse-rate", "50", "--set", "trigger.offset=0.1", "--users", "2000"])
        #expect(shared.stderr.contains("its fixes together (`--set trigger.offset=0` in place of `--set trigger.offset=0.1`, "
            + "`--set fill.duration=0.95`) pass every rule"), "\(shared.stderr)")
    }

    /// The outside probe of 0.3.14's first build: on a Timer with latencies the fill's start was taken as the trigger
    /// less the ticks' time on time, so the duration found depended on the one the search started from, and a late
    /// fill was said to start past the limit; a fill starting exactly at the limit got "no single key" by rounding.
    @Test("timing-adjustable's Timer value is the trace's, whatever value it starts from; a fill at the limit is said to be")
    func timerFixFollowsTheTrace() throws {
        var found: Set<String> = []
        for duration in ["0.6", "2.5", "12"] {
            let given = "fill.timer={tick: 0.01, duration: \(duration), latency: {dist: exponential, mean: 0.0037}}"
            let result = try CLI.run(["check", "kikocard-article-latency", "--set", given, "--users", "2000", "--columns", "rule,fix", "--no-comments"])
            let row = try #require(CLI.dataLines(result.stdout).first { $0.hasPrefix("timing-adjustable,") })
            let text = row.replacingOccurrences(of: "`", with: "")
            let start = try #require(text.range(of: "--set fill.timer=")), end = try #require(text.range(of: " in place of"))
            let value = String(text[start.upperBound..<end.lowerBound])
            found.insert(value)
            // Pasted in place of the --set, the rule passes.
            let pasted = try CLI.run(["check", "kikocard-article-latency", "--set", "fill.timer=" + value, "--users", "2000", "--no-comments"])
            #expect(Self.status(pasted.stdout, rule: "timing-adjustable")?.status == "pass", "\(value)")
        }
        #expect(found == ["{tick: 0.01, duration: 0.42, latency: {dist: exponential, mean: 0.0037}}"], "\(found)")
        // The fill starts at the gesture's recognition: at exactly the limit no Timer value passes, and the cell says so.
        for seconds in ["0.3", "0.4", "0.7"] {
            let ms = String(Int((Double(seconds)! * 1000).rounded()))
            let result = try CLI.run(["check", "kikocard-accelerating", "--set", "gesture.minimumDuration=\(seconds)", "--fixed-hold-ms", ms,
                                      "--users", "2000", "--columns", "rule,fix", "--no-comments"])
            #expect(result.stdout.contains("the Timer's fill starts \(ms) ms into the hold, at or past the \(ms) ms limit"), "\(result.stdout)")
        }
        // Where no tick brings it within the limit, the cell says what was tried.
        let none = try CLI.run(["check", "kikocard-article-latency", "--fixed-hold-ms", "800", "--users", "2000", "--columns", "rule,fix", "--no-comments"])
        #expect(none.stdout.contains("no value of `fill.timer.tick` down to 0.0001 s brings the traced action within the 800 ms limit"), "\(none.stdout)")
    }
}
