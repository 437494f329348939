import Foundation
import HoldLabTestSupport
import Testing

/// `--precision` (issue 32, item 1): where a run stops is a chunk boundary fixed by the seed, and what it writes is the
/// fixed `--users` run of that many users. No number here depends on the generator: runs are compared with runs.
@Suite("--precision: stop at the first chunk where the intervals are narrow enough")
struct PrecisionCommandTests {
    static let chunk = 4096
    /// Two designs whose completion differs by a few points: the paired interval needs several chunks to reach 0.002.
    static let designs = ["--profile", "hig-linear-bar", "--variant", "slow=gesture.minimumDuration=2.0"]

    /// The data lines, without the `#` lines.
    static func data(_ text: String) -> [Substring] { CSVRecords.dataLines(text) }

    /// The larger half of the paired interval of `metric`, read from a compare CSV.
    static func pairedHalfWidth(_ text: String, metric: String) throws -> Double {
        let row = try #require(CSVRecords.records(text).first { $0["metric"] == metric })
        let diff = try #require(row["diff"].flatMap(Double.init))
        let lower = try #require(row["diff_lo"].flatMap(Double.init))
        let upper = try #require(row["diff_hi"].flatMap(Double.init))
        return max(upper - diff, diff - lower)
    }

    static func users(_ text: String, key: String = "# users: ") throws -> Int {
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(key) })
        return try #require(Int(line.dropFirst(key.count).prefix { $0.isNumber }))
    }

    @Test("compare stops at the first chunk where the paired half-width is at most 0.002, and equals the --users run of that many, for 1 and 2 threads")
    func compareStopsAtTheFirstChunk() throws {
        var stops: [Int] = []
        var outputs: [String] = []
        for threads in ["1", "2"] {
            let result = try CLI.run(["compare"] + Self.designs + ["--precision", "completion_rate=0.002", "--threads", threads])
            #expect(result.status == 0, "\(result.stderr)")
            stops.append(try Self.users(result.stdout))
            outputs.append(result.stdout)
        }
        #expect(stops[0] == stops[1])
        #expect(outputs[0] == outputs[1], "the output does not depend on --threads")
        let stop = stops[0]
        #expect(stop % Self.chunk == 0 && stop > Self.chunk && stop < 100_000, "stopped at \(stop)")
        #expect(outputs[0].contains("# precision: completion_rate=0.002 met at \(stop) users\n"))
        #expect(outputs[0].contains("# command: holdlab compare --profile hig-linear-bar --variant slow=gesture.minimumDuration=2.0 --precision completion_rate=0.002\n"))
        #expect(try Self.pairedHalfWidth(outputs[0], metric: "completion_rate") <= 0.002)

        let fixed = try CLI.run(["compare"] + Self.designs + ["--users", "\(stop)"])
        #expect(fixed.status == 0, "\(fixed.stderr)")
        #expect(Self.data(fixed.stdout) == Self.data(outputs[0]), "the rows are the fixed run's")
        let before = try CLI.run(["compare"] + Self.designs + ["--users", "\(stop - Self.chunk)"])
        #expect(before.status == 0, "\(before.stderr)")
        #expect(try Self.pairedHalfWidth(before.stdout, metric: "completion_rate") > 0.002, "a chunk earlier it was not met")
    }

    @Test("report with two populations that stop apart: the checks take the first population's users, as check --users does")
    func reportChecksTakeTheFirstPopulationsUsers() throws {
        // default stops a chunk or more before hold-only; motor-impaired (the impaired population) is not among them,
        // so its check and every suggested fix are simulations of their own.
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("review").path
        let result = try CLI.run(["report"] + Self.designs + ["--population", "default,hold-only", "--precision",
                                  "completion_rate=0.01", "--users", "200000", "--robustness-users", "0", "--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        let checks = try String(contentsOfFile: out + "/checks.csv", encoding: .utf8)
        let designs = try String(contentsOfFile: out + "/designs.csv", encoding: .utf8)
        let usersLine = try #require(designs.split(separator: "\n").first { $0.hasPrefix("# users: ") })
        // "# users: 4096 (default), 12288 (hold-only) per population, seed 1 …"
        let counts = try #require(usersLine.components(separatedBy: " per population").first)
        let taken = counts.split(separator: " ").compactMap { Int($0) }
        #expect(taken.count == 2 && taken[0] < taken[1], "\(usersLine): the populations stop apart")
        let first = try #require(taken.first)
        #expect(checks.contains("\n# check_users: \(first) per simulation (the users default took)\n"))
        // The baseline's and the variant's rows are `holdlab check`'s at the first population's users.
        for (label, sets) in [("hig-linear-bar", [String]()), ("slow", ["--set", "gesture.minimumDuration=2.0"])] {
            let check = try CLI.run(["check", "--profile", "hig-linear-bar"] + sets + ["--users", "\(first)"])
            #expect(check.status == 0 || check.status == 1, "\(check.stderr)")
            let expected = Self.data(check.stdout).dropFirst().map { $0.drop { $0 != "," } }
            let rows = Self.data(checks).dropFirst().filter { $0.hasPrefix(label + ",") }.map { $0.drop { $0 != "," } }
            #expect(rows.count == expected.count && rows.count > 5)
            #expect(rows == expected, "\(label): checks.csv's rows are check --users \(first)'s")
        }
    }

    @Test("report with populations that stop apart: report.md quotes each one's users; knob-shares.csv and the sweeps say the users their rows took")
    func reportQuotesTheUsersTaken() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("review").path
        let result = try CLI.run(["report", "--profile", "hig-linear-bar", "--variant", "slow=gesture.minimumDuration=1.1 fill.curve=easeIn",
                                  "--population", "default,motor-impaired", "--users", "20000", "--precision", "completion_rate=0.004",
                                  "--robustness-users", "0", "--sweep", "fill.duration=0.8,1.0", "--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        func file(_ name: String) throws -> String { try String(contentsOfFile: out + "/" + name, encoding: .utf8) }
        let designs = try file("designs.csv")
        let usersLine = try #require(designs.split(separator: "\n").first { $0.hasPrefix("# users: ") })
        let taken = try #require(usersLine.components(separatedBy: " per population").first).split(separator: " ").compactMap { Int($0) }
        #expect(taken.count == 2 && taken[0] < taken[1], "\(usersLine): the populations stop apart")
        let (first, most) = (taken[0], taken[1])
        let report = try file("report.md")
        #expect(report.contains(": \(first) synthetic users for `default` and \(most) for `motor-impaired` (seed 1); "), "\(report.prefix(1500))")
        #expect(!report.contains("\(most) synthetic users per population"))
        #expect(try file("report.html").contains("\(first) synthetic users for default and \(most) for motor-impaired"))
        // The knob shares take each population's comparison's people (their users line is designs.csv's), the sweep
        // the most users a population took; each says so.
        let shares = try file("knob-shares.csv")
        #expect(shares.contains("\n\(usersLine)\n"), "\(shares.prefix(1200))")
        #expect(try file("sweep-fill.duration.csv").contains("\n# sweep_users: \(most) per point, seed 1\n"))
        // A NaN in designs.csv or a sweep's CSV is noted with its reason, as simulate and sweep note it.
        #expect(result.stderr.contains("note: designs.csv: undefined values are written as NaN"), "\(result.stderr)")
        #expect(result.stderr.contains("note: sweep-fill.duration.csv: undefined values are written as NaN"), "\(result.stderr)")
        // Every CSV of the review says whether the targets were met, the sweep's as the comparison's.
        let precisionLines = designs.split(separator: "\n").filter { $0.hasPrefix("# precision: ") }
        #expect(!precisionLines.isEmpty)
        for name in ["designs.csv", "differences.csv", "checks.csv", "knob-shares.csv", "sweep-fill.duration.csv"] {
            let lines = try file(name).split(separator: "\n").filter { $0.hasPrefix("# precision: ") }
            #expect(lines == precisionLines, "\(name)")
        }
        // Their people are the comparison's: default's intent users at its `first` users, and a variant's total is its
        // difference in differences.csv, population by population (the outside probe of 0.3.17: with the most users
        // any population took, report.md gave +2.4 and +2.6 points for one effect).
        let simulate = try CLI.run(["simulate", "--population", "default", "--users", "\(first)", "--columns", "intent_users",
                                    "--format", "csv", "--no-comments"])
        let intent = try #require(simulate.stdout.split(separator: "\n").dropFirst().first)
        let row = try #require(CSVRecords.records(shares).first { $0["population"] == "default" && $0["metric"] == "completion_rate" })
        #expect(row["people"] == String(intent))
        let differences = CSVRecords.records(try file("differences.csv"))
        for population in ["default", "motor-impaired"] {
            for metric in ["completion_rate", "false_activation_rate"] {
                let total = try #require(CSVRecords.records(shares).first {
                    $0["population"] == population && $0["metric"] == metric && $0["term"] == "total" })
                let difference = try #require(differences.first {
                    $0["design"] == "slow" && $0["population"] == population && $0["metric"] == metric })
                let (a, b) = (try #require(total["alone"].flatMap(Double.init)), try #require(difference["diff"].flatMap(Double.init)))
                #expect(abs(a - b) < 1e-6, "\(population) \(metric): knob total \(a), difference \(b)")
            }
        }
        // The rule table: a rationale is a sentence of its own after its source.
        #expect(report.contains("the population's other numbers are assumptions. Rationale: "))
        #expect(report.range(of: #"[a-z0-9)] Rationale:"#, options: .regularExpression) == nil)
    }

    @Test("simulate with a relative target on a mean equals the --users run of the users it took")
    func simulateRelativeMean() throws {
        let arguments = ["simulate", "--profile", "kikocard-accelerating", "--users", "60000"]
        let result = try CLI.run(arguments + ["--precision", "completion_time_mean_ms=0.5%", "--threads", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        let stop = try Self.users(result.stdout)
        #expect(stop % Self.chunk == 0 || stop == 60000)
        let record = try #require(CSVRecords.records(result.stdout).first)
        #expect(record["users"] == "\(stop)")
        let mean = try #require(record["completion_time_mean_ms"].flatMap(Double.init))
        let lower = try #require(record["completion_time_mean_ms_lo"].flatMap(Double.init))
        let upper = try #require(record["completion_time_mean_ms_hi"].flatMap(Double.init))
        if result.stdout.contains(" met at \(stop) users") {
            #expect(max(upper - mean, mean - lower) <= 0.005 * mean + 0.001)
        }
        let fixed = try CLI.run(["simulate", "--profile", "kikocard-accelerating", "--users", "\(stop)", "--threads", "1"])
        #expect(Self.data(fixed.stdout) == Self.data(result.stdout))
    }

    @Test("a cap too low: a warning names the metric that fell short, the status is 0, the provenance says so")
    func capTooLow() throws {
        let result = try CLI.run(["simulate", "--users", "5000", "--precision", "completion_rate=0.001,completion_time_mean_ms=5"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: --precision not met at the cap of 5000 users (--users 5000): completion_rate half-width"),
                "\(result.stderr)")
        #expect(result.stdout.contains("# precision: completion_rate=0.001,completion_time_mean_ms=5 not met at the cap of 5000 users"))
        #expect(result.stdout.contains("# users: 5000 per profile, seed 1\n"))
        let fixed = try CLI.run(["simulate", "--users", "5000"])
        #expect(Self.data(fixed.stdout) == Self.data(result.stdout))
    }

    @Test("sweep: each point stops on its own, its row the simulate --precision row; --resume refuses another precision")
    func sweepPerPoint() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("sweep.csv").path
        let result = try CLI.run(["sweep", "--vary", "gesture.minimumDuration=0.6,2.0", "--precision", "completion_rate=0.006",
                                  "--users", "40000", "--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.contains("# sweep_precision: completion_rate=0.006: each point stops"))
        let rows = CSVRecords.records(text)
        #expect(rows.count == 2)
        for row in rows {
            let value = try #require(row["param_gesture_minimumDuration"])
            let single = try CLI.run(["simulate", "--set", "gesture.minimumDuration=\(value)", "--precision", "completion_rate=0.006",
                                      "--users", "40000"])
            let expected = try #require(CSVRecords.records(single.stdout).first)
            for (column, field) in expected { #expect(row[column] == field, "point \(value), column \(column)") }
        }
        let again = try CLI.run(["sweep", "--vary", "gesture.minimumDuration=0.6,2.0", "--precision", "completion_rate=0.004",
                                 "--users", "40000", "--out", out, "--resume"])
        #expect(again.status == 65, "\(again.stderr)")
        #expect(again.stderr.contains("came from a different precision"), "\(again.stderr)")
        // The same precision written otherwise is the same precision.
        for written in ["completion_rate=6e-3", "completion_rate=0.0060", " completion_rate = 0.006 "] {
            let same = try CLI.run(["sweep", "--vary", "gesture.minimumDuration=0.6,2.0", "--precision", written,
                                    "--users", "40000", "--out", out, "--resume"])
            #expect(same.status == 0, "\(written): \(same.stderr)")
            #expect(try String(contentsOfFile: out, encoding: .utf8) == text, "\(written)")
        }
    }

    /// The larger half of a `simulate` row's printed interval of `metric`, in units of its last printed decimal (the
    /// digits as written: no rounding of its own).
    static func printedHalf(_ text: String, metric: String) throws -> (units: Int, text: String) {
        let row = try #require(CSVRecords.records(text).first)
        let fields = try [metric, metric + "_lo", metric + "_hi"].map { try #require(row[$0]) }
        let decimals = fields[0].split(separator: ".").last?.count ?? 0
        let units = try fields.map { try #require(Int($0.filter { $0 != "." })) }
        let half = max(units[2] - units[0], units[0] - units[1])
        var digits = String(half)
        while digits.count <= decimals { digits = "0" + digits }
        return (half, String(digits.dropLast(decimals)) + "." + String(digits.suffix(decimals)))
    }

    @Test("the stop is read from the printed columns: a target equal to a printed half-width is met where it is printed, not a chunk before")
    func printedIntervalDecides() throws {
        let base = ["simulate", "--profile", "hig-linear-bar", "--population", "hold-only"]
        for users in [28_672, 40_960] {
            let fixed = try CLI.run(base + ["--users", "\(users)"])
            #expect(fixed.status == 0, "\(fixed.stderr)")
            let target = try Self.printedHalf(fixed.stdout, metric: "completion_rate")
            let run = try CLI.run(base + ["--users", "200000", "--precision", "completion_rate=\(target.text)"])
            #expect(run.status == 0, "\(run.stderr)")
            let stop = try Self.users(run.stdout)
            #expect(stop <= users, "a target of \(target.text), printed at \(users) users, stopped at \(stop)")
            #expect(try Self.printedHalf(run.stdout, metric: "completion_rate").units <= target.units, "at \(stop)")
            guard stop > Self.chunk else { continue }
            let before = try CLI.run(base + ["--users", "\(stop - Self.chunk)"])
            #expect(try Self.printedHalf(before.stdout, metric: "completion_rate").units > target.units,
                    "a chunk before \(stop) the printed interval met \(target.text)")
        }
    }

    @Test("sweep --resume warns of the rows an earlier run capped, as the whole run does")
    func resumedSweepWarns() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("sweep.csv").path
        let arguments = ["sweep", "--vary", "gesture.minimumDuration=0.4,1.2", "--precision", "false_activation_rate=0.01",
                         "--users", "8192", "--out", out]
        let whole = try CLI.run(arguments)
        #expect(whole.status == 0, "\(whole.stderr)")
        let warning = try #require(whole.stderr.split(separator: "\n").first { $0.contains("not met at the cap") })
        #expect(warning.contains("for 1 of 2 rows: 0.4: false_activation_rate half-width"), "\(warning)")
        // The file as an interrupted run leaves it: the capped first row, not the second.
        let text = try String(contentsOfFile: out, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let kept = lines.prefix { !$0.hasPrefix("1.2,") }.joined(separator: "\n") + "\n"
        try kept.write(toFile: out, atomically: true, encoding: .utf8)
        let resumed = try CLI.run(arguments + ["--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.split(separator: "\n").contains(warning), "\(resumed.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == text)
    }

    @Test("sweep's warning gives the advice each point's shortfall calls for: more users for an interval too wide, a width in the unit for an estimate of 0")
    func sweepWarningAdvice() throws {
        // At 0.4 s some accidental touches fire (an interval too wide for 5 % of it at 8,192 users); at 3 s none
        // does (a rate of 0, which no percentage of it is met by).
        let result = try CLI.run(["sweep", "--vary", "gesture.minimumDuration=0.4,3.0", "--precision", "false_activation_rate=5%",
                                  "--users", "8192"])
        #expect(result.status == 0, "\(result.stderr)")
        let warning = try #require(result.stderr.split(separator: "\n").first { $0.contains("not met at the cap") })
        #expect(warning.contains("for 2 of 2 rows: 0.4: false_activation_rate half-width"), "\(warning)")
        #expect(warning.contains(" | 3.0: false_activation_rate half-width"), "\(warning)")
        #expect(warning.contains("not met at the cap of 8192 users (--users 8192) for 2 of 2 rows"), "\(warning)")
        #expect(warning.hasSuffix("; raise --users or widen the target; give false_activation_rate a width in its unit: "
                                  + "a percentage of an estimate that prints as 0 is met only by an interval of no width"), "\(warning)")
    }

    @Test("simulate keeps each way a metric falls short across profiles, and the advice for each: an interval too wide, no interval")
    func simulateKeepsEveryKindOfShortfall() throws {
        // hig-linear-bar's bar looks full (a mismatch interval, too wide for 0.0001 ms); static-long-press has no fill
        // (no mismatch at all). The wider interval alone used to stand for both.
        let result = try CLI.run(["simulate", "--profile", "hig-linear-bar", "--profile", "static-long-press",
                                  "--precision", "mismatch_mean_ms=0.0001", "--users", "4096"])
        #expect(result.status == 0, "\(result.stderr)")
        let warning = try #require(result.stderr.split(separator: "\n").first { $0.contains("not met at the cap") })
        #expect(warning.contains("mismatch_mean_ms half-width") && warning.contains("(hig-linear-bar, default)"), "\(warning)")
        #expect(warning.contains("mismatch_mean_ms has no interval (static-long-press, default)"), "\(warning)")
        #expect(warning.hasSuffix("; raise --users or widen the target; mismatch_mean_ms needs completed holds whose bar looked full (with none, no --users meets it)"),
                "\(warning)")
        let provenance = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("# precision:") })
        #expect(provenance.contains("(hig-linear-bar, default)") && provenance.contains("has no interval (static-long-press, default)"),
                "\(provenance)")
    }

    @Test("compare keeps each way a paired difference falls short across designs: too wide, and a percentage of 0")
    func compareKeepsEveryKindOfShortfall() throws {
        // static-long-press − kikocard-accelerating: false activations differ (an interval too wide for 5 % of it);
        // h − kikocard-accelerating changes only the haptic interval, so its difference is exactly 0.
        let result = try CLI.run(["compare", "--profile", "kikocard-accelerating", "--profile", "static-long-press",
                                  "--variant", "h=haptics.minInterval=0.025", "--precision", "false_activation_rate=5%",
                                  "--users", "8192"])
        #expect(result.status == 0, "\(result.stderr)")
        let warning = try #require(result.stderr.split(separator: "\n").first { $0.contains("not met at the cap") })
        #expect(warning.contains("(static-long-press − kikocard-accelerating, default)"), "\(warning)")
        #expect(warning.contains("(of an estimate of 0) (h − kikocard-accelerating, default)"), "\(warning)")
        #expect(warning.hasSuffix("; raise --users or widen the target; give false_activation_rate a width in its unit: "
                                  + "a percentage of an estimate that prints as 0 is met only by an interval of no width"), "\(warning)")
    }
}
