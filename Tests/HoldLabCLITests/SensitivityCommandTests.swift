import Foundation
import Testing

@Suite("holdlab sensitivity")
struct SensitivityCommandTests {
    /// The issue's case, small: hig-linear-bar × default with six numeric knobs.
    static let knobs = ["--vary", "gesture.minimumDuration=0.4:1.5", "--vary", "gesture.maximumDistance=5:20",
                        "--vary", "trigger.offset=0:0.3", "--vary", "fill.delay=0:0.3",
                        "--vary", "haptics.threshold=0:0.1", "--vary", "display.refreshRate=60:120"]
    static let small = ["sensitivity", "--vary", "gesture.minimumDuration=0.4:1.5", "--vary", "trigger.offset=0:0.3",
                        "--points", "8", "--users", "300", "--seed", "3"]

    /// The index table's data rows by metric and parameter, as numbers.
    static func indices(_ csv: String) -> [String: [String: [String: Double]]] {
        let lines = CLI.dataLines(csv).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let header = lines.first else { return [:] }
        var result: [String: [String: [String: Double]]] = [:]
        for fields in lines.dropFirst() {
            var values: [String: Double] = [:]
            for (name, field) in zip(header, fields).dropFirst(2) { values[name] = Double(field) }
            result[fields[0], default: [:]][fields[1]] = values
        }
        return result
    }

    @Test("six knobs: gesture.minimumDuration dominates false activations, haptics.threshold's ST interval holds 0; the same bytes for any --threads")
    func issueCase() throws {
        let directory = try CLI.temporaryDirectory()
        var outputs: [String] = []
        for threads in ["1", "2"] {
            let arguments = ["sensitivity", "--method", "sobol", "--points", "32", "--users", "600"] + Self.knobs + [
                "--metric", "false_activation_rate", "--metric", "completion_rate", "--threads", threads,
                "--samples", "samples-\(threads).csv", "--out", "indices-\(threads).csv"]
            let run = try CLI.run(arguments, in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            outputs.append(try String(contentsOf: directory.appendingPathComponent("indices-\(threads).csv"), encoding: .utf8))
        }
        // The provenance records the command without --threads, and --out and --samples differ by name only.
        let strip = { (text: String) in text.replacingOccurrences(of: "-1.csv", with: "").replacingOccurrences(of: "-2.csv", with: "") }
        #expect(strip(outputs[0]) == strip(outputs[1]))
        let samples = try (1...2).map { try String(contentsOf: directory.appendingPathComponent("samples-\($0).csv"), encoding: .utf8) }
        #expect(strip(samples[0]) == strip(samples[1]))
        #expect(CLI.dataLines(samples[0]).count == 1 + 32 * 8)
        #expect(CLI.dataLines(outputs[0]).first == "metric,parameter,S1,S1_lo,S1_hi,ST,ST_lo,ST_hi")

        let table = Self.indices(outputs[0])
        let falseActivation = try #require(table["false_activation_rate"])
        let duration = try #require(falseActivation["gesture.minimumDuration"])
        for (name, values) in falseActivation where name != "gesture.minimumDuration" {
            #expect(values["ST"]! < duration["ST"]! && values["S1"]! < duration["S1"]!, "\(name) rivals minimumDuration")
            #expect(values["ST_hi"]! < duration["ST_lo"]!, "\(name)'s ST interval overlaps minimumDuration's")
        }
        #expect(duration["ST_lo"]! > 0.3)
        let threshold = try #require(falseActivation["haptics.threshold"])
        #expect(threshold["ST_lo"]! <= 0 && 0 <= threshold["ST_hi"]!)
    }

    @Test("killed (SIGKILL) midway and resumed: the same samples and the same indices as an uninterrupted run")
    func killAndResume() throws {
        let wholeDirectory = try CLI.temporaryDirectory()
        let directory = try CLI.temporaryDirectory()
        let arguments = Self.small + ["--samples", "samples.csv", "--out", "indices.csv", "--second-order", "s2.csv"]
        #expect(try CLI.run(arguments, in: wholeDirectory).status == 0)
        let killed = try CLI.run(arguments, in: directory, environment: ["HOLDLAB_TEST_KILL_AFTER_POINTS": "8"])
        #expect(killed.status == SIGKILL)
        #expect(CLI.dataLines(try String(contentsOf: directory.appendingPathComponent("samples.csv"), encoding: .utf8)).count == 1 + 8)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("indices.csv").path))
        let resume = try CLI.run(arguments + ["--resume"], in: directory)
        #expect(resume.status == 0, "\(resume.stderr)")
        #expect(resume.stderr.contains("8 of 48 points done"))
        for name in ["samples.csv", "indices.csv", "s2.csv"] {
            #expect(try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
                    == String(contentsOf: wholeDirectory.appendingPathComponent(name), encoding: .utf8), "\(name) differs")
        }
        let s2 = try String(contentsOf: directory.appendingPathComponent("s2.csv"), encoding: .utf8)
        #expect(CLI.dataLines(s2) == [
            "metric,parameter_1,parameter_2,S2,S2_lo,S2_hi",
        ] + CLI.dataLines(s2).dropFirst().prefix(2))
        #expect(CLI.dataLines(s2).count == 3 && s2.contains("completion_rate,gesture.minimumDuration,trigger.offset,"))
        // Another design in the same file is refused, and the file is left as it was.
        let other = try CLI.run(Self.small.map { $0 == "8" ? "16" : $0 } + ["--samples", "samples.csv", "--resume"], in: directory)
        #expect(other.status == 65 && other.stderr.contains("came from a different design"), "\(other.stderr)")
    }

    @Test("morris: mu, mu_star and its interval, sigma per metric and parameter; a list is a discrete factor")
    func morris() throws {
        let run = try CLI.run(["sensitivity", "--method", "morris", "--points", "6", "--levels", "4", "--users", "300",
                               "--vary", "gesture.minimumDuration=0.4:1.5", "--vary", "fill.curve=linear,easeIn,easeOut,easeInOut",
                               "--metric", "completion_time_p50_ms", "--samples", "-"])
        #expect(run.status != 0)  // --out and --samples both standard output
        #expect(run.stderr.contains("cannot all be standard output"))
        let directory = try CLI.temporaryDirectory()
        let good = try CLI.run(["sensitivity", "--method", "morris", "--points", "6", "--users", "300",
                                "--vary", "gesture.minimumDuration=0.4:1.5", "--vary", "fill.curve=linear,easeIn,easeOut,easeInOut",
                                "--metric", "completion_time_p50_ms", "--samples", directory.appendingPathComponent("m.csv").path])
        #expect(good.status == 0, "\(good.stderr)")
        let lines = CLI.dataLines(good.stdout)
        #expect(lines.first == "metric,parameter,mu,mu_star,mu_star_lo,mu_star_hi,sigma")
        let table = Self.indices(good.stdout)["completion_time_p50_ms"]!
        let duration = table["gesture.minimumDuration"]!
        // The median completion time is the gesture's duration (trigger: gesture): an effect of ≈ 1.1 s per range,
        // 1100 ms, the same on every trajectory; the fill curve does not move it.
        #expect(abs(duration["mu"]! - 1100) < 20 && abs(duration["mu_star"]! - 1100) < 20 && duration["sigma"]! < 20)
        #expect(table["fill.curve"]!["mu_star"]! < 1)
        let samples = try String(contentsOf: directory.appendingPathComponent("m.csv"), encoding: .utf8)
        #expect(CLI.dataLines(samples).count == 1 + 6 * 3)
        #expect(good.stdout.contains("# sensitivity_design: morris: r = 6 trajectories × 3 = 18 simulations, p = 4 levels"))
    }

    @Test("bad command lines exit 64 before anything is simulated or written; a warning for N not a power of two")
    func errors() throws {
        let directory = try CLI.temporaryDirectory()
        let out = directory.appendingPathComponent("never.csv").path
        let cases: [([String], String)] = [
            (["sensitivity", "--out", out], "Name at least one --vary"),
            (Self.small + ["--metric", "colour", "--out", out], "--metric colour: not a numeric simulate column; allowed: users,"),
            (Self.small + ["--metric", "profile", "--out", out], "--metric profile: not a numeric simulate column"),
            (Self.small + ["--metric", "completion_rate", "--metric", "completion_rate", "--out", out], "--metric completion_rate is given twice"),
            (Self.small + ["--levels", "4", "--out", out], "--levels goes with --method morris"),
            (Self.small + ["--resume", "--out", out], "--resume needs --samples FILE"),
            (Self.small + ["--bootstrap", "1", "--out", out], "--bootstrap must be 0"),
            (["sensitivity", "--method", "morris", "--vary", "gesture.minimumDuration=0.4:1.5:0.1", "--out", out], "a Morris range is start:stop"),
            (["sensitivity", "--method", "morris", "--levels", "5", "--vary", "gesture.minimumDuration=0.4:1.5", "--out", out], "--levels must be an even number"),
            (["sensitivity", "--method", "morris", "--second-order", "x.csv", "--vary", "gesture.minimumDuration=0.4:1.5", "--out", out], "--second-order goes with --method sobol"),
            (["sensitivity", "--points", "40000", "--vary", "gesture.minimumDuration=0.4:1.5", "--vary", "fill.delay=0:1", "--out", out], "at most 100000"),
            (["sensitivity", "--vary", "display.refreshRate=0:0.5", "--points", "4", "--out", out], "point 1 (display.refreshRate=0.046875)"),
            (["sweep", "--design", "saltelli", "--points", "4", "--vary", "fill.delay=0:1", "--out", out], "--design"),
        ]
        for (arguments, message) in cases {
            let result = try CLI.run(arguments)
            #expect(result.status == 64 && result.stderr.contains(message), "\(arguments): \(result.status) \(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        let warned = try CLI.run(["sensitivity", "--points", "6", "--users", "50", "--vary", "fill.delay=0:0.2", "--out", out])
        #expect(warned.status == 0 && warned.stderr.contains("warning: --points 6 is not a power of two; a Sobol sequence is balanced over 2^k points, so --points 4 or 8"))
    }

    @Test("holdlab plot sensitivity draws one panel per metric with S1, ST, intervals and the provenance footer; a Morris table is refused")
    func notebook() throws {
        let directory = try CLI.temporaryDirectory()
        let indices = directory.appendingPathComponent("i.csv").path
        #expect(try CLI.run(Self.small + ["--out", indices]).status == 0)
        let figure = directory.appendingPathComponent("s.svg").path
        let plot = try CLI.run(["plot", "sensitivity", "--data", indices, "--out", figure])
        #expect(plot.status == 0 && plot.stderr.isEmpty, "\(plot.stderr)")
        let svg = try String(contentsOfFile: figure, encoding: .utf8)
        for text in [">completion_rate<", ">false_activation_rate<", ">gesture.minimumDuration<", ">trigger.offset<", ">S1<", ">ST<",
                     "hig-linear-bar × default population, 300 users per point, 32 simulations", "holdlab 0.1.0 sensitivity ",
                     "population default"] {
            #expect(svg.contains(text), "the figure lacks \(text)")
        }
        let morris = directory.appendingPathComponent("m.csv").path
        #expect(try CLI.run(["sensitivity", "--method", "morris", "--points", "2", "--users", "50",
                             "--vary", "fill.delay=0:0.2", "--out", morris]).status == 0)
        let refused = try CLI.run(["plot", "sensitivity", "--data", morris, "--out", directory.appendingPathComponent("m.svg").path])
        #expect(refused.status == 65 && refused.stderr.contains("missing column(s) S1"), "\(refused.stderr)")
    }
}
