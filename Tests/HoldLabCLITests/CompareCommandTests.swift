import Foundation
import HoldLabTestSupport
import Testing

@Suite("holdlab compare")
struct CompareCommandTests {
    // The paired and unpaired intervals, the summaries and the thread count: CompareJobTests, in process.

    @Test("--baseline picks the design the others are compared with; bad designs are usage errors", arguments: [
        (["--profile", "hig-linear-bar"], "at least two designs"),
        (["--profile", "hig-linear-bar", "--profile", "hig-linear-bar"], "two designs are labelled 'hig-linear-bar'"),
        (["--profile", "hig-linear-bar", "--variant", "x"], "--variant x: write LABEL="),
        (["--profile", "hig-linear-bar", "--variant", "a b=fill.curve=easeIn"], "a label is letters"),
        (["--profile", "hig-linear-bar", "--variant", "a=fill.curve"], "'fill.curve' is not key=value"),
        // The last of two values used to win silently.
        (["--profile", "hig-linear-bar", "--variant", "a=fill.duration=0.5 fill.duration=0.6"], "--variant a: fill.duration is given twice"),
        (["--profile", "hig-linear-bar", "--variant", "a=fill.curve=easeIn", "--baseline", "nope"], "--baseline nope is none of the designs"),
        (["--profile", "hig-linear-bar", "--variant", "a=fill.duration=0.6", "--set", "fill.duration=0.5"], "--set also sets"),
        (["--profile", "hig-linear-bar", "--variant", "a=fill.duration=-1"], "fill.duration"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let result = try CLI.run(["compare", "--users", "100"] + arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("--baseline: rows compare every other design with it; a variant's YAML value may hold spaces")
    func baseline() throws {
        let result = try CLI.run(["compare", "--profile", "kikocard-accelerating", "--variant",
                                  "late=fill.timer.latency={dist: exponential, mean: 0.004} haptics.threshold=0.02",
                                  "--baseline", "late", "--users", "2000"])
        #expect(result.status == 0, "\(result.stderr)")
        let records = CSVRecords.records(result.stdout)
        #expect(records.count == 15)
        #expect(records.allSatisfy { $0["design"] == "kikocard-accelerating" && $0["baseline"] == "late" })
        #expect(result.stdout.contains("--set 'fill.timer.latency={dist: exponential, mean: 0.004}'"))
    }

    @Test("--summaries: a NaN its columns beyond the differences' have (peak_pulse_rate_hz) is noted with its reason, as simulate notes it")
    func summariesNaNIsNoted() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let summaries = directory.appendingPathComponent("s.csv").path
        let result = try CLI.run(["compare", "--profile", "hig-linear-bar", "--variant", "slow=gesture.minimumDuration=1.2",
                                  "--population", "hold-only", "--users", "2000", "--summaries", summaries])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = CSVRecords.records(try String(contentsOfFile: summaries, encoding: .utf8))
        #expect(rows.count == 2 && rows.allSatisfy { $0["peak_pulse_rate_hz"] == "NaN" })
        #expect(result.stderr.contains("note: --summaries: undefined values are written as NaN (2 of 2 rows) where none of the holds counted had them: peak_pulse_rate_hz (no completed hold rendered two pulses)"),
                "\(result.stderr)")
    }

    @Test("--per-user rows start with the run's provenance, as simulate's do")
    func perUserProvenance() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let users = directory.appendingPathComponent("users.csv")
        let out = directory.appendingPathComponent("d.csv")
        let result = try CLI.run(["compare", "--variant", "slow=gesture.minimumDuration=1.2", "--users", "300",
                                  "--per-user", users.path, "--out", out.path])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOf: users, encoding: .utf8)
        let comments = text.split(separator: "\n").prefix { $0.hasPrefix("#") }
        let differences = try String(contentsOf: out, encoding: .utf8).split(separator: "\n").prefix { $0.hasPrefix("#") }
        #expect(!comments.isEmpty && comments == differences, "\(comments)")
        #expect(comments.contains { $0.hasPrefix("# design: slow = hig-linear-bar fnv1a64:") })
        #expect(text.split(separator: "\n").dropFirst(comments.count).first?.hasPrefix("population,") == true)
    }

    @Test("values a design does not have are NaN with a note naming the design, the population and why")
    func undefinedNote() throws {
        // An hour's hold: nobody completes the variant, so its completed-hold means (and their differences) are NaN.
        let result = try CLI.run(["compare", "--variant", "slow=gesture.minimumDuration=3600 fill.duration=match", "--users", "2000"])
        #expect(result.status == 0)
        let rows = CLI.dataLines(result.stdout).filter { $0.contains(",completion_time_mean_ms,") }
        #expect(rows.count == 1 && rows[0].contains("NaN"), "\(rows)")
        #expect(result.stderr.contains("holdlab: note: undefined values are written as NaN where a design has no value, and so no difference: completion_time_mean_ms, pulses_mean, dropped_pulses_mean, completed_unseen_rate, mismatch_mean_ms, progress_at_trigger_mean of slow (default), completed = 0"),
                "\(result.stderr)")
        // Every value defined: no such note.
        let defined = try CLI.run(["compare", "--variant", "fast=fill.duration=0.6", "--users", "2000"])
        #expect(defined.status == 0 && !defined.stderr.contains("undefined values"), "\(defined.stderr)")
    }

    @Test("the zero-width note says what a sample can miss, also when it is too small for '3 in N'")
    func zeroWidthNote() throws {
        let arguments = ["compare", "--variant", "slow=gesture.minimumDuration=1.1"]
        let tiny = try CLI.run(arguments + ["--users", "2"])
        #expect(tiny.status == 0 && tiny.stderr.contains("but a sample of 2 people can miss any difference that not every person shares (docs/INTERVALS.md)"),
                "\(tiny.stderr)")
        #expect(!tiny.stderr.contains("3 in 2 "))
        let small = try CLI.run(arguments + ["--users", "4"])
        #expect(small.stderr.contains("a difference that occurs in fewer than about 3 in 4 people may not show in a sample of 4"), "\(small.stderr)")
        // With --precision each population stops on its own: the note names each one's sample (the outside probe of
        // 0.3.17: "3 in 24576 people" for a population that stopped at 4,096).
        let stopped = try CLI.run(["compare", "--variant", "slow=gesture.minimumDuration=1.2", "--population", "default,motor-impaired",
                                   "--precision", "completion_rate=0.003", "--users", "60000"])
        #expect(stopped.status == 0, "\(stopped.stderr)")
        // "# users: 4096 (default), 24576 (motor-impaired) per population, seed 1 …"
        let usersLine = try #require(stopped.stdout.split(separator: "\n").first { $0.hasPrefix("# users: ") })
        let counts = try #require(usersLine.dropFirst("# users: ".count).components(separatedBy: " per population").first)
        var usersOf: [String: String] = [:]
        for part in counts.components(separatedBy: ", ") {
            let words = part.split(separator: " ")
            if words.count == 2 { usersOf[String(words[1].dropFirst().dropLast())] = String(words[0]) }
        }
        #expect(usersOf.count == 2 && Set(usersOf.values).count == 2, "\(usersLine)")
        let note = stopped.stderr.split(separator: "\n").first { $0.contains("zero-width paired interval") } ?? ""
        let named = usersOf.filter { note.contains("(slow, \($0.key))") }
        #expect(!named.isEmpty, "\(note)")
        for (name, count) in named {
            #expect(named.count == 1 ? note.contains("fewer than about 3 in \(count) people may not show in a sample of \(count)")
                                     : note.contains("\(count) for \(name)"), "\(note)")
        }
    }

    @Test("a variant's faulty value is blamed on the variant (64), with any --set blamed with it, in compare, report and preview",
          arguments: [
            (["compare", "--variant", "a=fill.duration=0"], "--variant a: fill.duration=0: fill.duration: must be a number of seconds > 0"),
            (["compare", "--variant", "a={fill.curve=easeIn"], "--variant a: {fill.curve=easeIn: '{fill.curve' is not a key path"),
            (["report", "--variant", "fast=fill.curve=wobbly"], "--variant fast: fill.curve=wobbly: fill.curve: timing curve 'wobbly'"),
            (["preview", "--variant", "fast=fill.curve=wobbly"], "--variant fast: fill.curve=wobbly: fill.curve: timing curve 'wobbly'"),
            // A check across keys: the variant's value and the --set it fails with.
            (["compare", "--set", "fill.duration=match", "--set", "fill.delay=0.1", "--variant",
              "a=gesture.minimumDuration=0 fill.curve=easeIn"],
             "--variant a: gesture.minimumDuration=0: fill.duration: match resolves to 0 s"),
            // --set's own fault stays --set's.
            (["compare", "--set", "fill.duration=0", "--variant", "a=fill.curve=easeIn"], "error: --set fill.duration=0: fill.duration"),
          ])
    func variantBlame(arguments: [String], message: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent(arguments[0] == "preview" ? "out.gif" : "out").path
        let result = try CLI.run(arguments + (arguments[0] == "preview" ? [] : ["--users", "100"]) + ["--out", out])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!result.stderr.contains("--set fill.curve") && !result.stderr.contains("--set gesture"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("a missing profile is 66 and no output file appears")
    func missingProfile() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("d.csv")
        let result = try CLI.run(["compare", "--profile", "hig-linear-bar", "--profile", "nope", "--out", out.path])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
