import Foundation
import HoldLabIO
import HoldLabTestSupport
import Testing

@Suite("holdlab simulate")
struct SimulateCommandTests {
    @Test("`holdlab simulate` alone: hig-linear-bar against default, 100,000 users, seed 1, to stdout (the columns: SimulateJobTests)")
    func defaults() throws {
        let result = try CLI.run(["simulate"])
        #expect(result.status == 0, "\(result.stderr)")
        let data = CLI.dataLines(result.stdout)
        #expect(data.count == 2)
        #expect(data[1].hasPrefix("hig-linear-bar,default,100000,1,"))
        #expect(!data[1].contains("nan") && !data[1].contains("inf"))
        #expect(result.stdout.contains("# population: default fnv1a64:"))
        #expect(result.stdout.contains("# profile: hig-linear-bar fnv1a64:"))
    }

    @Test("a class drawn at 0 s for much of its distribution is warned about, even with --quiet, by every command that simulates it; the rows are as without the warning")
    func negativeDurations() throws {
        let set = ["--set", "population.hold-only.intentional.hold={dist: normal, mean: 0.8, sd: 0.5}"]
        let warning = "holdlab: warning: population hold-only, class intentional: 5.48 % of its hold distribution {dist: normal, mean: 0.8, sd: 0.5} is below 0 s; those draws are taken as 0 s (a release at touch-down)\n"
        let simulate = try CLI.run(["simulate", "--population", "hold-only", "--users", "2000", "--quiet"] + set)
        #expect(simulate.status == 0 && simulate.stderr == warning, "\(simulate.stderr)")
        for command in [["compare", "--profile", "hig-linear-bar", "--profile", "hig-linear-ring"],
                        ["sweep", "--profile", "hig-linear-bar", "--vary", "fill.duration=0.5,0.6"],
                        ["check", "hig-linear-bar"]] {
            let result = try CLI.run(command + ["--population", "hold-only", "--users", "2000", "--quiet"] + set)
            #expect(result.stderr.components(separatedBy: warning).count == 2, "\(command[0]): \(result.stderr)")
        }
        // check's and report's --impaired-population too, once (also when it runs as --population).
        let impaired = try TemporaryFiles.write("""
            version: 1
            name: negimp
            description: test
            classes:
              - {name: slow, weight: 1, intent: confirm, behavior: hold, hold: {dist: uniform, min: -0.2, max: 1.8}}
            """, name: "negimp.yaml")
        let impairedWarning = "holdlab: warning: population negimp, class slow: 10 % of its hold distribution {dist: uniform, min: -0.2, max: 1.8} is below 0 s; those draws are taken as 0 s (a release at touch-down)\n"
        for extra in [[], ["--population", impaired]] {
            let check = try CLI.run(["check", "hig-linear-bar", "--impaired-population", impaired, "--users", "1000", "--quiet"] + extra)
            #expect(check.stderr.components(separatedBy: impairedWarning).count == 2, "\(extra): \(check.stderr)")
        }
        // Under the name of a population --set values edit, the impaired population as its file gives it says so.
        let edited = try CLI.run(["check", "hig-linear-bar", "--population", impaired, "--impaired-population", impaired,
                                  "--set", "population.slow.hold.max=3.8", "--users", "1000", "--quiet"])
        #expect(edited.stderr.contains("holdlab: warning: population negimp, class slow: 5 % of its hold distribution {dist: uniform, min: -0.2, max: 3.8}"), "\(edited.stderr)")
        #expect(edited.stderr.contains(impairedWarning.dropLast() + " (the --impaired-population, as its file gives it: --set values do not reach it)\n"), "\(edited.stderr)")
        // Every note of it, also one the edited population says alike.
        let two = try TemporaryFiles.write("""
            version: 1
            name: negtwo
            description: test
            classes:
              - {name: slow, weight: 0.5, intent: confirm, behavior: hold, hold: {dist: uniform, min: -0.2, max: 1.8}}
              - {name: quick, weight: 0.5, intent: none, behavior: hold, hold: {dist: uniform, min: -0.5, max: 0.5}}
            """, name: "negtwo.yaml")
        let both = try CLI.run(["check", "hig-linear-bar", "--population", two, "--impaired-population", two,
                                "--set", "population.slow.hold.max=3.8", "--users", "1000", "--quiet"])
        #expect(both.stderr.components(separatedBy: "class quick: 50 %").count == 3
                && both.stderr.contains("class quick: 50 % of its hold distribution {dist: uniform, min: -0.5, max: 0.5} is below 0 s; those draws are taken as 0 s (a release at touch-down) (the --impaired-population"),
                "\(both.stderr)")
        // An output that cannot be made (73): nothing ran, nothing to warn of.
        let unwritable = try CLI.run(["simulate", "--population", "hold-only", "--users", "2000", "--out", "/nonexistent/x.csv"] + set)
        #expect(unwritable.status == 73 && !unwritable.stderr.contains("warning"), "\(unwritable.stderr)")
        // The library's populations say nothing of the kind.
        let plain = try CLI.run(["simulate", "--population", "hold-only", "--users", "2000", "--quiet"])
        #expect(plain.status == 0 && plain.stderr.isEmpty, "\(plain.stderr)")
    }

    @Test("a sweep over a population's own value warns point by point; a dry run and a refused command line warn of nothing")
    func negativeDurationsPerPoint() throws {
        let population = try TemporaryFiles.write("""
            version: 1
            name: negpoints
            description: test
            classes:
              - {name: intentional, weight: 0.8, intent: confirm, behavior: hold, hold: {dist: normal, mean: 1, sd: 0.5}}
              - {name: accidental, weight: 0.2, intent: none, behavior: hold, hold: {dist: normal, mean: -1, sd: 0.1}}
            """, name: "negpoints.yaml")
        func said(_ class_: String, _ percent: String, _ distribution: String) -> String {
            "population negpoints, class \(class_): \(percent) of its hold distribution \(distribution) is below 0 s; those draws are taken as 0 s (a release at touch-down)"
        }
        let accidental = said("accidental", "100 %", "{dist: normal, mean: -1.0, sd: 0.1}")
        let vary = ["--population", population, "--vary", "population.intentional.hold.mean=-1,1,3"]
        let sweep = try CLI.run(["sweep", "--profile", "hig-linear-bar", "--users", "1000", "--quiet"] + vary)
        #expect(sweep.status == 0)
        #expect(sweep.stderr == """
            holdlab: warning: \(accidental)
            holdlab: warning: point 1 (population.intentional.hold.mean=-1): \(said("intentional", "97.7 %", "{dist: normal, mean: -1.0, sd: 0.5}"))
            holdlab: warning: point 2 (population.intentional.hold.mean=1): \(said("intentional", "2.28 %", "{dist: normal, mean: 1.0, sd: 0.5}"))

            """, "\(sweep.stderr)")
        // A report's sweep of that value: its points, named with its file; the comparison's population as loaded.
        let out = try CLI.temporaryDirectory().appendingPathComponent("review").path
        let report = try CLI.run(["report", "--profile", "hig-linear-bar", "--variant", "slow=fill.duration=1.2", "--population", population,
                                  "--sweep", "population.intentional.hold.mean=-1,1,3", "--users", "1000", "--robustness-users", "0",
                                  "--quiet", "--out", out])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stderr.contains("holdlab: warning: \(said("intentional", "2.28 %", "{dist: normal, mean: 1.0, sd: 0.5}"))\n"), "\(report.stderr)")
        #expect(report.stderr.contains("holdlab: warning: sweep-population.intentional.hold.mean.csv: point 1 (population.intentional.hold.mean=-1): \(said("intentional", "97.7 %", "{dist: normal, mean: -1.0, sd: 0.5}"))\n"), "\(report.stderr)")
        #expect(report.stderr.components(separatedBy: "point 2 (").count == 1, "\(report.stderr)")
        // Nothing simulated, nothing to warn of: a dry run, a command line refused (64).
        let dry = try CLI.run(["sweep", "--profile", "hig-linear-bar", "--dry-run"] + vary)
        #expect(dry.status == 0 && !dry.stderr.contains("warning"), "\(dry.stderr)")
        let refused = try CLI.run(["simulate", "--population", population, "--set", "fill.duration=-3", "--users", "100"])
        #expect(refused.status == 64 && !refused.stderr.contains("warning"), "\(refused.stderr)")
    }

    @Test("--list-columns prints every column with its unit and definition, in CSV order, and simulates nothing")
    func listColumns() throws {
        let result = try CLI.run(["simulate", "--list-columns", "--users", "1"])
        #expect(result.status == 0)
        let rows = result.stdout.split(separator: "\n").dropFirst(2)
        let names = rows.map { $0.split(separator: "`")[1] }
        let header = CLI.dataLines(try CLI.run(["simulate", "--users", "10"]).stdout)[0].split(separator: ",")
        #expect(names == header)
        #expect(rows.first { $0.contains("`completion_time_p50_ms`") }?.contains("| ms |") == true)
    }

    @Test("--per-user writes the provenance lines, a header and one row per user and profile, atomically")
    func perUser() throws {
        let directory = try CLI.temporaryDirectory()
        let file = directory.appendingPathComponent("users.csv")
        let result = try CLI.run(["simulate", "--users", "5000", "--per-user", file.path, "--out",
                                  directory.appendingPathComponent("summary.csv").path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        // The summary's six provenance lines (holdlab, command, population, profile, users, rng), then the rows.
        #expect(lines.count == 6 + 5001)
        #expect(lines.prefix(6).allSatisfy { $0.hasPrefix("# ") } && lines[0].hasPrefix("# holdlab: "))
        #expect(lines[5] == "# rng: taus2")
        #expect(lines[6].hasPrefix("profile,user,class,intent,behavior,frame_phase,release_ms"))
        #expect(lines[7].hasPrefix("hig-linear-bar,1,"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["summary.csv", "users.csv"])
    }

    @Test("bad input: --users 0, --threads 0, a missing population, bad weights; nothing written")
    func badInput() throws {
        let directory = try CLI.temporaryDirectory()
        let out = directory.appendingPathComponent("never.csv").path
        let zero = try CLI.run(["simulate", "--users", "0", "--out", out])
        #expect(zero.status == 64 && zero.stderr.contains("--users must be from 1"))
        let threads = try CLI.run(["simulate", "--threads", "0", "--out", out])
        #expect(threads.status == 64 && threads.stderr.contains("--threads must be from 1 to 256"))
        let missing = try CLI.run(["simulate", "--population", "nobody", "--out", out])
        #expect(missing.status == 66 && missing.stderr.contains("no population of that name"))
        let bad = directory.appendingPathComponent("bad.yaml")
        try "version: 1\nname: bad\ndescription: x\nclasses:\n  - {name: a, weight: 0, behavior: hold, hold: {dist: constant, value: 1}}\n"
            .write(to: bad, atomically: true, encoding: .utf8)
        let weights = try CLI.run(["simulate", "--population", bad.path, "--out", out])
        #expect(weights.status == 65 && weights.stderr.contains("the class weights must sum to a finite number > 0"))
        let nan = try CLI.run(["simulate", "--set", "gesture.minimumDuration=.nan", "--out", out])
        #expect(nan.status == 64 && nan.stderr.contains("gesture.minimumDuration: must be a number of seconds ≥ 0"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["bad.yaml"])
    }
}

@Suite("Output files")
struct OutputFileTests {
    @Test("--out to a device writes into it and leaves it a device; --per-user to /dev/null too")
    func device() throws {
        let result = try CLI.run(["simulate", "--users", "100", "--out", "/dev/null", "--per-user", "/dev/null"])
        #expect(result.status == 0, "\(result.stderr)")
        var status = stat()
        #expect(stat("/dev/null", &status) == 0 && (status.st_mode & S_IFMT) == S_IFCHR)
        #expect(try CLI.run(["trace", "--out", "/dev/null"]).status == 0)
        #expect(stat("/dev/null", &status) == 0 && (status.st_mode & S_IFMT) == S_IFCHR)
    }

    @Test("--population a,b and repeated --population are one list; a population given twice, or several with --shard or check, are usage errors")
    func populations() throws {
        let profiles = ["--profile", "hig-linear-bar", "--profile", "static-long-press", "--users", "3000", "--seed", "4"]
        let listed = try CLI.run(["simulate"] + profiles + ["--population", "default,motor-impaired", "--threads", "2"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let repeated = try CLI.run(["simulate"] + profiles + ["--population", "default", "--population", "motor-impaired"])
        #expect(CLI.dataLines(repeated.stdout) == CLI.dataLines(listed.stdout))
        #expect(CLI.dataLines(listed.stdout).count == 5)
        #expect(listed.stdout.contains("# population: default fnv1a64:") && listed.stdout.contains("# population: motor-impaired fnv1a64:"))
        // Each population's rows, and --per-user's population column: SimulateJobTests, in process.

        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let twice = try CLI.run(["simulate", "--population", "default,default", "--users", "10"])
        #expect(twice.status == 64 && twice.stderr.contains("given twice"), "\(twice.stderr)")
        let shard = try CLI.run(["simulate", "--population", "default,hurried", "--users", "10", "--shard", "1/2", "--out",
                                 directory.appendingPathComponent("shard.csv").path])
        #expect(shard.status == 64 && shard.stderr.contains("one population"), "\(shard.stderr)")
        let tune = try CLI.run(["check", "hig-linear-bar", "--population", "default,hurried", "--users", "10"])
        #expect(tune.status == 64 && tune.stderr.contains("one population"), "\(tune.stderr)")
    }

    @Test("golden: the binary's output for one named population is byte-identical to before population lists (the profiles' own: SimulateJobTests); --rng mt19937 gives 0.2.0's rows")
    func singlePopulationGolden() throws {
        // Written by 0.2.0 (mt19937); 0.3.0 draws users from taus2 and adds a `# rng:` line.
        let golden = try String(contentsOf: CLI.root.appendingPathComponent("Tests/HoldLabCLITests/Golden/simulate-two-profiles.csv"),
                                encoding: .utf8)
        let arguments = ["simulate", "--profile", "hig-linear-bar", "--profile", "static-long-press", "--users", "2000", "--seed", "3"]
        let named = try CLI.run(arguments + ["--population", "v1/default", "--rng", "mt19937"])
        #expect(named.status == 0 && Golden.comparable(named.stdout) == Golden.comparable(golden))
        #expect(named.stdout.contains("\n# rng: mt19937\n") && named.stdout.hasPrefix("# holdlab: \(HoldLabVersion.current) simulate\n"))
        // The default generator: the same rows every run (golden), other numbers than mt19937's.
        let taus2 = try CLI.run(arguments + ["--population", "v1/default"])
        let expected = try Golden.text("simulate-two-profiles-taus2.csv")
        #expect(taus2.status == 0 && taus2.stdout == expected)
        #expect(CLI.dataLines(taus2.stdout) != CLI.dataLines(golden))
    }
}
