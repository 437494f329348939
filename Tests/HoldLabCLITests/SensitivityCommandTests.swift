import Foundation
import HoldLabIO
import Testing

@Suite("holdlab sensitivity")
struct SensitivityCommandTests {
    static let small = ["sensitivity", "--vary", "gesture.minimumDuration=0.4:1.5", "--vary", "trigger.offset=0:0.3",
                        "--points", "8", "--users", "300", "--seed", "3"]

    @Test("the same bytes for any --threads: the command line recorded leaves it out")
    func threads() throws {
        let outputs = try ["1", "2"].map { threads in
            let directory = try CLI.temporaryDirectory()
            let run = try CLI.run(Self.small + ["--threads", threads, "--samples", "samples.csv", "--out", "indices.csv"], in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            return try ["samples.csv", "indices.csv"].map { try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8) }
        }
        #expect(outputs[0] == outputs[1])
        #expect(!outputs[0][1].contains("--threads"))
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
            (["sensitivity", "--method", "morris", "--vary", "gesture.minimumDuration=0.4:1.5", "--samples", "-"],
             "cannot all be standard output"),
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
                     "hig-linear-bar × default population, 300 users per point, 32 simulations", "holdlab \(HoldLabVersion.current) sensitivity ",
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
