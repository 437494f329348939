import Foundation
import HoldLabIO
import Testing

/// Issue 16: a new user's first hour — formats, pipes, suggestions, every problem, provenance, tune's answer,
/// benchmark's own memory.
@Suite("first hour: --format, --columns, pipes, suggestions, provenance")
struct FirstHourTests {
    /// Runs holdlab with `input` on standard input (the package root as working directory).
    static func run(_ arguments: [String], input: String, in directory: URL? = nil) throws -> CLI.Result {
        try CLI.run(arguments, in: directory, input: input)
    }

    /// The lines of a CSV but its `# command:` line (which records the options given).
    static func withoutCommand(_ text: String) -> [Substring] {
        text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("# command:") }
    }

    @Test("simulate: --format csv is the default into a pipe and the CSV bytes do not change")
    func csvUnchanged() throws {
        let plain = try CLI.run(["simulate", "--users", "3000"])
        let csv = try CLI.run(["simulate", "--users", "3000", "--format", "csv"])
        #expect(plain.status == 0 && csv.status == 0)
        #expect(Self.withoutCommand(plain.stdout) == Self.withoutCommand(csv.stdout))
        #expect(plain.stdout.hasPrefix("# holdlab: ") && plain.stdout.contains("\nprofile,population,users,seed,"))
        let bare = try CLI.run(["simulate", "--users", "3000", "--no-comments"])
        #expect(bare.stdout == plain.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n") + "\n")
    }

    @Test("simulate --format table: one metric a line, rates as rate [lo, hi] to the digits the interval supports")
    func table() throws {
        // 0.2.0's people (mt19937), whose figures the comments give.
        let result = try CLI.run(["simulate", "--users", "20000", "--format", "table", "--no-comments", "--rng", "mt19937"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "profile                    hig-linear-bar")
        // 17,040 intent users at seed 1: completion 0.878580 with Wilson [0.873585, 0.883388] (half-width 0.005).
        #expect(lines.contains("completion_rate            0.879 [0.874, 0.883]"))
        #expect(lines.contains { $0.hasPrefix("premature_release_rate ") && $0.hasSuffix("0.121 [0.116, 0.126]") })
        // A gesture-triggered completion time is constant: its interval has no width, shown to the CSV's digits.
        #expect(lines.contains("completion_time_mean_ms    1000.000 [1000.000, 1000.000] ms"))
        #expect(!lines.contains { $0.hasPrefix("completion_rate_lo") || $0.hasPrefix("completion_time_mean_ms_lo") })
        #expect(lines.count == 52 - 18)  // 52 columns less the 9 pairs of bounds folded into their rates and means
    }

    @Test("--columns selects and orders in every format; markdown and json read back")
    func columnsEveryFormat() throws {
        let base = ["simulate", "--users", "3000", "--profile", "hig-linear-bar", "--profile", "mismatched-fill",
                    "--columns", "completion_rate,profile"]
        let csv = try CLI.run(base + ["--format", "csv", "--no-comments"])
        #expect(csv.stdout.hasPrefix("completion_rate,profile\n") && csv.stdout.split(separator: "\n").count == 3)
        let table = try CLI.run(base + ["--format", "table", "--no-comments"])
        #expect(table.stdout.split(separator: "\n").first?.trimmingCharacters(in: .whitespaces).hasPrefix("completion_rate") == true)
        #expect(table.stdout.contains("] hig-linear-bar") || table.stdout.contains("]  hig-linear-bar"))
        let markdown = try CLI.run(base + ["--format", "markdown"])
        #expect(markdown.stdout.contains("| `completion_rate` | `profile` |\n|---:|---|\n"))
        #expect(markdown.stdout.hasPrefix("<!--\nholdlab: "))
        let json = try CLI.run(base + ["--format", "json"])
        let objects = try json.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.count == 2 && objects[1]["profile"] as? String == "mismatched-fill")
        #expect((objects[0]["completion_rate"] as? Double).map { $0 > 0.8 && $0 < 0.95 } == true)
        let unknown = try CLI.run(["simulate", "--users", "10", "--columns", "completion_rat"])
        #expect(unknown.status == 64 && unknown.stderr.contains("did you mean 'completion_rate'"))
    }

    @Test("sweep, fit, tune and profiles list take --format and --columns")
    func otherCommands() throws {
        let sweep = try CLI.run(["sweep", "--vary", "gesture.minimumDuration=0.5,1.0", "--users", "2000", "--format", "json",
                                 "--columns", "param_gesture_minimumDuration,false_activation_rate"])
        #expect(sweep.status == 0, "\(sweep.stderr)")
        #expect(sweep.stdout.split(separator: "\n").first?.hasPrefix(#"{"param_gesture_minimumDuration":0.5,"false_activation_rate":"#) == true)
        #expect(try CLI.run(["sweep", "--vary", "fill.duration=1", "--out", "/tmp/x.csv", "--resume", "--format", "json"]).status == 64)
        let directory = try CLI.temporaryDirectory()
        let users = directory.appendingPathComponent("users.csv").path
        _ = try CLI.run(["simulate", "--population", "hold-only", "--users", "3000", "--per-user", users, "--out", "/dev/null"])
        let fit = try CLI.run(["fit", users, "--column", "press_end_ms", "--bootstrap", "0", "--family", "lognormal",
                               "--format", "table", "--columns", "family,zeta,sigma", "--no-comments"])
        #expect(fit.status == 0, "\(fit.stderr)")
        // One row: a parameter a line, each estimate with its standard error to two of the error's digits.
        #expect(fit.stdout.hasPrefix("family  lognormal\n"))
        #expect(fit.stdout.range(of: #"\nzeta +-?\d+\.\d+ ± 0\.0\d\d?\n"#, options: .regularExpression) != nil, "\(fit.stdout)")
        let tune = try CLI.run(["tune", "--param", "gesture.minimumDuration=0.3:1.5", "--minimize", "gesture.minimumDuration",
                                "--constraint", "false_activation_rate<=0.05", "--users", "2000", "--format", "json",
                                "--columns", "evaluation,feasible,completion_rate"])
        #expect(tune.status == 0, "\(tune.stderr)")
        let lines = tune.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix(#"{"block":0,"evaluation":1,"feasible":"#) == true)
        #expect(lines.last?.hasPrefix(#"{"block":1,"completion_rate":"#) == true)
    }

    @Test("'-' reads a profile, a population and fit data from standard input, and writes per-user rows to standard output")
    func pipes() throws {
        let profile = try String(contentsOf: CLI.root.appendingPathComponent("Profiles/mismatched-fill.yaml"), encoding: .utf8)
        let fromFile = try CLI.run(["simulate", "--users", "3000", "--profile", "mismatched-fill", "--no-comments"])
        let fromStdin = try Self.run(["simulate", "--users", "3000", "--profile", "-", "--no-comments"], input: profile)
        #expect(fromStdin.status == 0 && fromStdin.stdout == fromFile.stdout, "\(fromStdin.stderr)")
        let population = try String(contentsOf: CLI.root.appendingPathComponent("Profiles/populations/hurried.yaml"), encoding: .utf8)
        let hurried = try Self.run(["simulate", "--users", "3000", "--population", "-", "--no-comments"], input: population)
        #expect(hurried.status == 0 && hurried.stdout.contains(",hurried,3000,"))
        #expect(try CLI.run(["simulate", "--profile", "-", "--population", "-"]).status == 64)

        let directory = try CLI.temporaryDirectory()
        let summary = directory.appendingPathComponent("s.csv").path
        let perUser = try CLI.run(["simulate", "--users", "500", "--per-user", "-", "--out", summary])
        #expect(perUser.status == 0)
        #expect(perUser.stdout.split(separator: "\n").filter { $0.hasPrefix("hig-linear-bar,") }.count == 500)
        #expect(try CLI.run(["simulate", "--users", "10", "--per-user", "-"]).status == 64)

        let fitFile = try CLI.run(["fit", "--data", summary.replacingOccurrences(of: "s.csv", with: "u.csv"), "--column", "x"])
        #expect(fitFile.status == 66)
        _ = try CLI.run(["simulate", "--population", "hold-only", "--users", "3000", "--out", "/dev/null",
                         "--per-user", directory.appendingPathComponent("u.csv").path])
        let text = try String(contentsOf: directory.appendingPathComponent("u.csv"), encoding: .utf8)
        let byPath = try CLI.run(["fit", "--data", directory.appendingPathComponent("u.csv").path, "--column", "press_end_ms",
                                  "--bootstrap", "0", "--no-comments"])
        let byStdin = try Self.run(["fit", "-", "--column", "press_end_ms", "--bootstrap", "0", "--no-comments"], input: text)
        #expect(byStdin.status == 0 && byStdin.stdout == byPath.stdout, "\(byStdin.stderr)")
        let provenance = try Self.run(["fit", "-", "--column", "press_end_ms", "--bootstrap", "0"], input: text)
        #expect(provenance.stdout.contains("# data: standard input fnv1a64:"))
        let emitted = try Self.run(["fit", "-", "--column", "press_end_ms", "--bootstrap", "0", "--out",
                                    directory.appendingPathComponent("fit.csv").path, "--emit-population", "-"], input: text)
        #expect(emitted.status == 0 && emitted.stdout.hasPrefix("version: 1\nname: fitted\n"), "\(emitted.stderr)")
        #expect(try CLI.run(["fit", "--column", "x"]).status == 64)
    }

    @Test("an unknown profile, population, column or key path answers with the closest names")
    func suggestions() throws {
        let profile = try CLI.run(["simulate", "--profile", "kikocard", "--users", "10"])
        #expect(profile.status == 66 && profile.stderr.contains("(did you mean 'kikocard-accelerating' or 'kikocard-article-latency'?)"))
        let population = try CLI.run(["simulate", "--population", "hury", "--users", "10"])
        #expect(population.stderr.contains("(did you mean 'hurried'?)"))
        let key = try CLI.run(["simulate", "--set", "gesture.minimumDuraton=1", "--users", "10"])
        #expect(key.status == 64 && key.stderr.contains("(did you mean 'minimumDuration'?)"))
        let metric = try CLI.run(["tune", "--param", "gesture.minimumDuration=0.3:1.5", "--minimize", "completion_rat"])
        #expect(metric.status == 64 && metric.stderr.contains("did you mean 'completion_rate'"))
        let directory = try CLI.temporaryDirectory()
        let users = directory.appendingPathComponent("u.csv").path
        _ = try CLI.run(["simulate", "--users", "200", "--per-user", users, "--out", "/dev/null"])
        let column = try CLI.run(["fit", users, "--column", "press_end_m"])
        #expect(column.status == 65 && column.stderr.contains("(did you mean 'press_end_ms'?)"))
    }

    @Test("profiles check: a --set two files refuse differently is said of each (64), the instant on the nanosecond clock")
    func setRefusedByEach() throws {
        let directory = try CLI.temporaryDirectory()
        for (name, duration) in [("a", "0.5"), ("b", "0.6")] {
            try "version: 1\nname: \(name)\ndescription: d\ngesture: {minimumDuration: \(duration)}\n"
                .write(to: directory.appendingPathComponent("\(name).yaml"), atomically: true, encoding: .utf8)
        }
        let result = try CLI.run(["profiles", "check", "a.yaml", "b.yaml", "--set", "trigger.offset=-0.7"], in: directory)
        #expect(result.status == 64)
        let rule = "it must be after touch-down (minimumDuration + offset > 0, or trigger.source: fill)"
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("holdlab: error: ") }
        #expect(errors == [
            "holdlab: error: --set trigger.offset=-0.7: trigger.offset: fires the action at minimumDuration + trigger.offset = -0.2 s; \(rule) (in a.yaml; one of the 2 files checked)",
            "holdlab: error: --set trigger.offset=-0.7: trigger.offset: fires the action at minimumDuration + trigger.offset = -0.1 s; \(rule) (in b.yaml; one of the 2 files checked)",
        ], "\(result.stderr)")
    }

    @Test("profiles check reports every problem with file:line:column and key path, then exits 1")
    func everyProblem() throws {
        let directory = try CLI.temporaryDirectory()
        let bad = directory.appendingPathComponent("bad.yaml")
        try "version: 1\nname: bad\ndescription: d\ngesture:\n  minimumDuraton: 1\nfill:\n  curv: linear\n  duration: abc\n"
            .write(to: bad, atomically: true, encoding: .utf8)
        let result = try CLI.run(["profiles", "check", bad.path, "Profiles/hig-linear-bar.yaml"])
        #expect(result.status == 65)
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("holdlab: error: ") }
        #expect(errors.count == 3, "\(result.stderr)")
        #expect(errors[0].contains("bad.yaml:5:19: gesture.minimumDuraton: unknown key"))
        #expect(errors[1].contains("bad.yaml:7:9: fill.curv: unknown key (did you mean 'curve'?)"))
        #expect(errors[2].contains("bad.yaml:8:13: fill.duration:"))
        #expect(result.stdout.contains("ok: Profiles/hig-linear-bar.yaml"))
        let shown = try CLI.run(["profiles", "show", "kikocard-accelerating"])
        let piped = try Self.run(["profiles", "check", "-"], input: shown.stdout)
        #expect(piped.status == 0 && piped.stdout == "ok: standard input (kikocard-accelerating)\n")
    }

    @Test("the per-user CSV carries the summary's provenance lines")
    func perUserProvenance() throws {
        let directory = try CLI.temporaryDirectory()
        let users = directory.appendingPathComponent("u.csv").path
        let summary = try CLI.run(["simulate", "--users", "300", "--per-user", users])
        let perUser = try String(contentsOfFile: users, encoding: .utf8)
        let summaryComments = summary.stdout.split(separator: "\n").filter { $0.hasPrefix("#") }
        let perUserComments = perUser.split(separator: "\n").prefix { $0.hasPrefix("#") }
        #expect(summaryComments.count == 6 && Array(perUserComments) == summaryComments)
        #expect(perUser.split(separator: "\n")[6].hasPrefix("profile,user,class,"))
    }

    @Test("tune: status 1 and the violated constraint when nothing is feasible; --emit-profile named after its file, with its source")
    func tune() throws {
        let no = try CLI.run(["tune", "--param", "gesture.minimumDuration=0.3:1.5", "--minimize", "gesture.minimumDuration",
                              "--constraint", "premature_release_rate<=0.02", "--users", "2000"])
        #expect(no.status == 1)
        #expect(no.stderr.contains("no point in the range meets premature_release_rate<=0.02"))
        let directory = try CLI.temporaryDirectory()
        let file = directory.appendingPathComponent("short-gesture.yaml")
        let yes = try CLI.run(["tune", "--param", "gesture.minimumDuration=0.3:1.5", "--minimize", "gesture.minimumDuration",
                               "--constraint", "false_activation_rate<=0.05", "--users", "2000", "--seed", "3",
                               "--out", "/dev/null", "--emit-profile", file.path])
        #expect(yes.status == 0, "\(yes.stderr)")
        let yaml = try String(contentsOf: file, encoding: .utf8)
        #expect(yaml.contains("\nname: short-gesture\n"))
        #expect(yaml.contains("source: \"tuned from hig-linear-bar (fnv1a64:") && yaml.contains("seed 3, 2000 users per evaluation"))
        // A metric at the check seed is shown to the digits its interval supports (not 6 significant digits).
        let line = try #require(yes.stderr.split(separator: "\n").first { $0.contains("false_activation_rate<=0.05:") })
        #expect(line.range(of: #": 0\.\d{2,3} \[0\.\d{2,3}, 0\.\d{2,3}\] at the check seed"#, options: .regularExpression) != nil, "\(line)")
        #expect(try CLI.run(["tune", "--param", "gesture.minimumDuration=0.3:1.5", "--minimize", "completion_rate",
                             "--emit-profile", directory.appendingPathComponent("bad name.yaml").path]).status == 64)
    }

    @Test("tune: a mean at the check seed shows its 95 % t interval; a constant mean (zero width) shows 4 digits")
    func tuneMeanInterval() throws {
        let result = try CLI.run(["tune", "--param", "retract.duration=0.1:0.4", "--minimize", "retract_mean_ms",
                                  "--constraint", "completion_time_mean_ms<=1200", "--users", "2000", "--seed", "3",
                                  "--out", "/dev/null"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        // Retract times vary from person to person: an interval around the mean.
        let retract = try #require(lines.first { $0.hasPrefix("  retract_mean_ms:") })
        #expect(retract.range(of: #": [0-9.]+ \[[0-9.]+, [0-9.]+\] at the check seed"#, options: .regularExpression) != nil,
                "\(retract)")
        // The action fires at minimumDuration for everyone who completes: no interval to show.
        let completion = try #require(lines.first { $0.hasPrefix("  completion_time_mean_ms<=1200:") })
        #expect(completion.contains(": 1000 at the check seed (holds)"), "\(completion)")
    }

    @Test("benchmark measures its own memory: a large parent that spawns it does not show in max_rss_mib")
    func benchmarkOwnMemory() throws {
        // Spawning (vfork + exec) from a process whose peak is ≥ 256 MiB: getrusage's ru_maxrss would carry that
        // peak into the child; the benchmark's own peak for 2,000 hold-only users is below 100 MiB.
        let size = 256 << 20
        let ballast = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 4096)
        defer { ballast.deallocate() }
        for offset in stride(from: 0, to: size, by: 4096) { ballast.storeBytes(of: 1, toByteOffset: offset, as: UInt8.self) }
        let result = try CLI.run(["benchmark", "--users", "2000", "--threads", "1", "--case", "hold-only", "--fit-rows", "0",
                                  "--no-numpy"])
        #expect(result.status == 0)
        let row = try #require(MiscCommandTests.benchmarkRows(result.stdout).last)
        let peak = try #require(Double(row["max_rss_mib"] ?? ""))
        #expect(peak > 1 && peak < 100, "\(row)")
    }
}

@Suite("first hour: completions and the help the man page is made from")
struct CompletionTests {
    @Test("bash, zsh and fish completions name every subcommand and the --format choices")
    func completions() throws {
        for shell in ["bash", "zsh", "fish"] {
            let result = try CLI.run(["--generate-completion-script", shell])
            #expect(result.status == 0, "\(shell): \(result.stderr)")
            for word in ["simulate", "sweep", "fit", "tune", "profiles", "format", "columns", "no-comments", "markdown"] {
                #expect(result.stdout.contains(word), "\(shell) completion lacks \(word)")
            }
        }
    }

    @Test("--experimental-dump-help, which generate-manual reads, lists every subcommand with its options")
    func manualSource() throws {
        let result = try CLI.run(["--experimental-dump-help"])
        #expect(result.status == 0)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let command = try #require(root["command"] as? [String: Any])
        let subcommands = try #require(command["subcommands"] as? [[String: Any]])
        let names = subcommands.compactMap { $0["commandName"] as? String }
        #expect(Set(["simulate", "sweep", "trace", "plot", "profiles", "fit", "fit-curve", "tune", "benchmark"]).isSubset(of: names))
        let simulate = try #require(subcommands.first { $0["commandName"] as? String == "simulate" })
        let options = (simulate["arguments"] as? [[String: Any]] ?? []).flatMap { ($0["names"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String } }
        #expect(Set(["format", "columns", "no-comments", "per-user"]).isSubset(of: options))
    }

    @Test("the repository carries the Apache-2.0 LICENSE and the docs README.md points to; the pages' links stay inside it")
    func licenseAndDocs() throws {
        let license = try String(contentsOf: CLI.root.appendingPathComponent("LICENSE"), encoding: .utf8)
        #expect(license.contains("Apache License") && license.contains("Version 2.0, January 2004"))
        let readme = try String(contentsOf: CLI.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("GPL"), "README.md lacks the GSL licence note")
        // README.md and the pages its reference moved to (docs/, docs/commands/, CONTRIBUTING.md): every relative
        // link target (from the page's folder) and every `docs/…` or `Notebooks/…` path it names (from the
        // repository's root) exists.
        let docs = CLI.root.appendingPathComponent("docs")
        let folders = [docs, docs.appendingPathComponent("commands")]
        let pages = try ["README.md", "CONTRIBUTING.md"] + folders.flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }.sorted()
                .map { String(folder.path.dropFirst(CLI.root.path.count + 1)) + "/" + $0 }
        }
        let pattern = try NSRegularExpression(pattern: #"\]\(([^)#:]+)(?:#[^)]*)?\)|`((?:docs|Notebooks)/[A-Za-z0-9_./-]+\.[a-z]+)`"#)
        var checked = 0
        for page in pages {
            let text = try String(contentsOf: CLI.root.appendingPathComponent(page), encoding: .utf8)
            let folder = CLI.root.appendingPathComponent(page).deletingLastPathComponent()
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                for (group, base) in [(1, folder), (2, CLI.root)] {
                    guard let r = Range(match.range(at: group), in: text) else { continue }
                    let path = String(text[r])
                    #expect(FileManager.default.fileExists(atPath: base.appendingPathComponent(path).path), "\(page) names \(path)")
                    checked += 1
                }
            }
            // No DOMAIN reference outside the repository (in the other pages a quoted `DOMAIN §N`, the form profiles
            // cite, aside).
            let prose = page == "README.md" ? text
                : text.replacingOccurrences(of: "`[^`\n]*`", with: "", options: .regularExpression)
            #expect(!prose.contains("shared/DOMAIN") && !prose.contains("DOMAIN §"), "\(page)")
        }
        #expect(checked >= 3)
        let domain = try String(contentsOf: CLI.root.appendingPathComponent("docs/DOMAIN.md"), encoding: .utf8)
        for section in ["## 1. The control", "## 7. People", "## 8. Peer components", "## 12. Columns", "## 13. Sources"] {
            #expect(domain.contains(section))
        }
        // The column definitions are the ones simulate prints, so they cannot drift apart (docs/COLUMNS.md has the
        // table; docs/DOMAIN.md §12 links to it).
        let dictionary = try String(contentsOf: CLI.root.appendingPathComponent("docs/COLUMNS.md"), encoding: .utf8)
        let columns = try CLI.run(["simulate", "--list-columns"])
        for line in columns.stdout.split(separator: "\n") where line.hasPrefix("| `") {
            #expect(dictionary.contains(line), "docs/COLUMNS.md lacks \(line)")
        }
    }
}

@Suite("first hour: progress on a terminal, never on a pipe")
struct ProgressTests {
    static let script = "/usr/bin/script"

    /// Runs holdlab under a pseudo-terminal (util-linux `script`), returning what the terminal showed.
    static func onTerminal(_ arguments: [String]) throws -> String {
        let executable = try CLI.executable.path
        let command = ([executable] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            .joined(separator: " ")
        return try CLI.runTool(script, ["-qec", command, "/dev/null"])
    }

    static let tune = ["tune", "--param", "gesture.minimumDuration=0.3:1.5", "--minimize", "gesture.minimumDuration",
                       "--constraint", "false_activation_rate<=0.05", "--users", "8000", "--out", "/dev/null"]
    static let sweep = ["sweep", "--vary", "gesture.minimumDuration=0.5:1.5:0.25", "--users", "20000", "--out", "/dev/null"]

    @Test("tune and sweep draw a progress line on a terminal (tune's after its first second)",
          .enabled(if: FileManager.default.isExecutableFile(atPath: script), "util-linux script(1) is not installed"))
    func terminal() throws {
        let tune = try Self.onTerminal(Self.tune)
        #expect(tune.contains("\rtune: ") && tune.contains(" evaluations/s "), "\(tune.suffix(300))")
        let sweep = try Self.onTerminal(Self.sweep)
        // A sweep counts in its own unit, points (issue 31).
        #expect(sweep.contains("\rsweep [") && sweep.contains(" of 5 points ") && sweep.contains("points/s  ETA"), "\(sweep.suffix(300))")
    }

    @Test("into a pipe, tune, sweep and fit write no progress")
    func pipe() throws {
        for arguments in [Self.tune, Self.sweep] {
            let result = try CLI.run(arguments)
            #expect(result.status == 0 && !result.stderr.contains("\r"), "\(arguments[0]): \(result.stderr)")
        }
        let fit = try CLI.run(["fit", "docs/examples/holds.csv", "--column", "hold_ms", "--bootstrap", "300"])
        // No progress: nothing but fit's warnings (a family's NaN standard errors and why), each on a line of its own.
        let lines = fit.stderr.split(separator: "\n")
        #expect(fit.status == 0 && !fit.stderr.contains("\r") && lines.allSatisfy { $0.hasPrefix("holdlab: warning: ") }, "\(fit.stderr)")
    }
}
