import Foundation
import Testing

@Suite("holdlab sweep")
struct SweepCommandTests {
    static let arguments = ["sweep", "--vary", "gesture.minimumDuration=0.4:1.4:0.1", "--users", "3000", "--seed", "4"]

    @Test("a sweep row equals the matching simulate row; --out - streams the same rows in point order")
    func matchesSimulate() throws {
        let sweep = try CLI.run(Self.arguments + ["--out", "-"])
        #expect(sweep.status == 0, "\(sweep.stderr)")
        let rows = CLI.dataLines(sweep.stdout)
        #expect(rows.count == 12)
        #expect(rows[0].hasPrefix("param_gesture_minimumDuration,profile,population,users,seed,"))
        let simulate = try CLI.run(["simulate", "--set", "gesture.minimumDuration=0.7", "--users", "3000", "--seed", "4"])
        #expect(rows[4] == "0.7," + (CLI.dataLines(simulate.stdout).last ?? ""))
    }

    @Test("--population a,b runs every point for each population, rows population by population; killed and resumed, the same file")
    func populations() throws {
        let arguments = ["sweep", "--vary", "gesture.minimumDuration=0.6,0.8,1.0", "--population", "default,motor-impaired",
                         "--users", "2000", "--seed", "3", "--out", "sweep.csv"]
        let wholeDirectory = try CLI.temporaryDirectory()
        let directory = try CLI.temporaryDirectory()
        defer { for url in [wholeDirectory, directory] { try? FileManager.default.removeItem(at: url) } }
        let whole = try CLI.run(arguments, in: wholeDirectory)
        #expect(whole.status == 0, "\(whole.stderr)")
        let text = try String(contentsOf: wholeDirectory.appendingPathComponent("sweep.csv"), encoding: .utf8)
        let rows = CLI.dataLines(text)
        #expect(rows.count == 1 + 6)
        #expect(rows.dropFirst().map { $0.split(separator: ",")[2] } == ["default", "default", "default", "motor-impaired", "motor-impaired", "motor-impaired"])
        #expect(text.contains("# sweep_population: default fnv1a64:ee0953067463ce23 ; motor-impaired fnv1a64:"))
        // Each population's rows are that population's own sweep.
        for (index, population) in ["default", "motor-impaired"].enumerated() {
            let single = try CLI.run(["sweep", "--vary", "gesture.minimumDuration=0.6,0.8,1.0", "--population", population,
                                      "--users", "2000", "--seed", "3"])
            #expect(Array(CLI.dataLines(single.stdout).dropFirst()) == Array(rows[(1 + 3 * index)...(3 + 3 * index)]))
        }
        // Killed after the first population's batch (its 3 points).
        let killed = try CLI.run(arguments, in: directory, environment: ["HOLDLAB_TEST_KILL_AFTER_POINTS": "3"])
        #expect(killed.status == SIGKILL)
        let resume = try CLI.run(arguments + ["--resume"], in: directory)
        #expect(resume.status == 0 && resume.stderr.contains("3 of 6 rows (points × populations) done"), "\(resume.stderr)")
        #expect(try String(contentsOf: directory.appendingPathComponent("sweep.csv"), encoding: .utf8) == text)
        // Resuming with other populations is refused.
        let other = try CLI.run(["sweep", "--vary", "gesture.minimumDuration=0.6,0.8,1.0", "--population", "default",
                                 "--users", "2000", "--seed", "3", "--out", "sweep.csv", "--resume"], in: directory)
        #expect(other.status == 65 && other.stderr.contains("different population"), "\(other.stderr)")
    }

    @Test("a sweep killed midway and resumed gives the same file as an uninterrupted one")
    func killAndResume() throws {
        // The same relative file name in two directories: the provenance records --out as typed.
        let wholeDirectory = try CLI.temporaryDirectory()
        let directory = try CLI.temporaryDirectory()
        let whole = wholeDirectory.appendingPathComponent("sweep.csv")
        let resumed = directory.appendingPathComponent("sweep.csv")
        #expect(try CLI.run(Self.arguments + ["--out", "sweep.csv"], in: wholeDirectory).status == 0)
        // The test seam kills the process (SIGKILL) right after the first batch of 4 points reached the file.
        let killed = try CLI.run(Self.arguments + ["--out", "sweep.csv"], in: directory,
                                 environment: ["HOLDLAB_TEST_KILL_AFTER_POINTS": "4"])
        #expect(killed.status == SIGKILL)
        let partial = try String(contentsOf: resumed, encoding: .utf8)
        #expect(CLI.dataLines(partial).count == 1 + 4)
        let resume = try CLI.run(Self.arguments + ["--out", "sweep.csv", "--resume"], in: directory)
        #expect(resume.status == 0)
        #expect(resume.stderr.contains("resuming") && resume.stderr.contains("4 of 11 points done"))
        #expect(try String(contentsOf: resumed, encoding: .utf8) == String(contentsOf: whole, encoding: .utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["sweep.csv"])
    }

    @Test("--design FILE: the rows of a sample (scipy.stats.qmc's layout) are the points, in file order; killed and resumed, the same file")
    func designFile() throws {
        let directory = try CLI.temporaryDirectory()
        // A sample as scipy.stats.qmc or SALib writes it, with the keys as its header; values as written.
        let sample = "gesture.minimumDuration,fill.curve\n1.0,easeIn\n0.6,linear\n0.8,bezier(0.2,0,0,1)\n0.7,linear\n1.2,easeOut\n0.9,linear\n"
        try Data(sample.replacingOccurrences(of: "bezier(0.2,0,0,1)", with: "\"bezier(0.2,0,0,1)\"").utf8)
            .write(to: directory.appendingPathComponent("sample.csv"))
        let common = ["sweep", "--design", "sample.csv", "--users", "3000", "--seed", "5"]
        let made = try CLI.run(common + ["--out", "d.csv"], in: directory)
        #expect(made.status == 0, "\(made.stderr)")
        let file = try String(contentsOf: directory.appendingPathComponent("d.csv"), encoding: .utf8)
        let rows = CLI.dataLines(file)
        #expect(rows.count == 1 + 6 && rows[0].hasPrefix("param_gesture_minimumDuration,param_fill_curve,profile,"))
        #expect(rows[1].hasPrefix("1.0,easeIn,") && rows[3].hasPrefix("0.8,\"bezier(0.2,0,0,1)\","))
        // Each row is the simulate row of its point, with the same seed.
        for (index, (duration, curve)) in [("0.6", "linear"), ("0.8", "bezier(0.2,0,0,1)")].enumerated() {
            let alone = try CLI.run(["simulate", "--set", "gesture.minimumDuration=\(duration)", "--set", "fill.curve=\(curve)",
                                     "--users", "3000", "--seed", "5", "--format", "csv"], in: directory)
            let simulated = CLI.dataLines(alone.stdout)[1]
            let row = rows[2 + index]
            let fields = row.split(separator: ",", omittingEmptySubsequences: false)
            let tail = fields.dropFirst(curve.contains(",") ? 5 : 2).joined(separator: ",")
            #expect(tail == simulated, "point \(index + 2)")
        }
        #expect(file.contains("# sweep_design: file, 6 points, vary gesture.minimumDuration ; fill.curve ; points fnv1a64:"))
        // Killed after the first 4 points and resumed: the uninterrupted file, byte for byte.
        let killed = try CLI.run(common + ["--out", "r.csv"], in: directory, environment: ["HOLDLAB_TEST_KILL_AFTER_POINTS": "4"])
        #expect(killed.status == SIGKILL)
        let resumed = try CLI.run(common + ["--out", "r.csv", "--resume"], in: directory)
        #expect(resumed.status == 0 && resumed.stderr.contains("4 of 6 points done"))
        let again = try String(contentsOf: directory.appendingPathComponent("r.csv"), encoding: .utf8)
        #expect(CLI.dataLines(again) == rows)
        // Another file's points are another sweep: --resume refuses it.
        try Data(sample.replacingOccurrences(of: "0.9,linear", with: "0.95,linear").utf8)
            .write(to: directory.appendingPathComponent("sample.csv"))
        let other = try CLI.run(common + ["--out", "r.csv", "--resume"], in: directory)
        #expect(other.status == 65, "\(other.stderr)")
    }

    @Test("--resume refuses a file from another seed, profile or design, saying which")
    func resumeRefuses() throws {
        let directory = try CLI.temporaryDirectory()
        let file = directory.appendingPathComponent("s.csv")
        #expect(try CLI.run(Self.arguments + ["--out", file.path]).status == 0)
        let before = try String(contentsOf: file, encoding: .utf8)
        let seed = try CLI.run(["sweep", "--vary", "gesture.minimumDuration=0.4:1.4:0.1", "--users", "3000", "--seed", "5",
                                "--out", file.path, "--resume"])
        #expect(seed.status == 65 && seed.stderr.contains("came from a different users and seed (file: 3000 per point, seed 4; now: 3000 per point, seed 5)"))
        let profile = try CLI.run(Self.arguments + ["--profile", "static-long-press", "--out", file.path, "--resume"])
        #expect(profile.status == 65 && profile.stderr.contains("came from a different profile"))
        let vary = try CLI.run(["sweep", "--vary", "gesture.minimumDuration=0.4:1.4:0.2", "--users", "3000", "--seed", "4",
                                "--out", file.path, "--resume"])
        #expect(vary.status == 65 && vary.stderr.contains("came from a different design"))
        #expect(try String(contentsOf: file, encoding: .utf8) == before)
    }

    @Test("--dry-run lists the points; bad input is refused before anything is written")
    func dryRunAndErrors() throws {
        let dry = try CLI.run(["sweep", "--design", "sobol", "--points", "3", "--vary", "gesture.minimumDuration=0:2", "--dry-run"])
        #expect(dry.status == 0 && dry.stdout == "param_gesture_minimumDuration\n1\n1.5\n0.5\n")
        let directory = try CLI.temporaryDirectory()
        let out = directory.appendingPathComponent("never.csv").path
        let none = try CLI.run(["sweep", "--out", out])
        #expect(none.status == 64 && none.stderr.contains("Name at least one --vary"))
        let bad = try CLI.run(["sweep", "--vary", "display.refreshRate=60,0", "--users", "10", "--out", out])
        #expect(bad.status == 64 && bad.stderr.contains("point 2 (display.refreshRate=0)"))
        let unknown = try CLI.run(["sweep", "--vary", "fill.colour=red", "--users", "10", "--out", out])
        #expect(unknown.status == 64 && unknown.stderr.contains("fill.colour: unknown key"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("HOLDLAB_NO_COMMENTS=1 leaves a sweep's file its '#' lines, so --resume reads it back; standard output goes without")
    func noCommentsVariableKeepsAResumableFile() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("s.csv").path
        let arguments = ["sweep", "--vary", "fill.duration=0.6,0.8,1.0", "--users", "300", "--threads", "1"]
        let first = try CLI.run(arguments + ["--out", out], environment: ["HOLDLAB_NO_COMMENTS": "1"])
        #expect(first.status == 0, "\(first.stderr)")
        let written = try String(contentsOfFile: out, encoding: .utf8)
        #expect(written.hasPrefix("# holdlab: "))
        let resumed = try CLI.run(arguments + ["--out", out, "--resume"], environment: ["HOLDLAB_NO_COMMENTS": "1"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == written)
        // The rows are the same; standard output follows the variable.
        let streamed = try CLI.run(arguments + ["--out", "-"], environment: ["HOLDLAB_NO_COMMENTS": "1"])
        #expect(streamed.status == 0 && !streamed.stdout.contains("#"))
        #expect(written.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n") + "\n" == streamed.stdout)
    }
}
