import Foundation
import Testing

@Suite("holdlab trace and profiles")
struct TraceCommandTests {
    @Test("help lists the subcommands; trace help documents its columns")
    func help() throws {
        let root = try CLI.run(["--help"])
        #expect(root.status == 0)
        #expect(root.stdout.contains("trace") && root.stdout.contains("profiles"))
        let trace = try CLI.run(["trace", "--help"])
        #expect(trace.status == 0)
        for column in ["t_ms", "model_progress", "displayed_progress", "pulses", "event"] {
            #expect(trace.stdout.contains(column))
        }
    }

    @Test("help names every event; a trace longer than its frame limit says where its frames end and shows no stale bar after it")
    func longTrace() throws {
        let help = try CLI.run(["trace", "--help"])
        for event in ["displayed_empty", "cancel", "completion_pulse_dropped", "retract_end"] {
            #expect(help.stdout.contains(event), "\(event)")
        }
        // 300 s at 1,000 Hz: 300,450 frames to rest, 250,000 drawn.
        let result = try CLI.run(["trace", "--set", "display.refreshRate=1000", "--set", "gesture.minimumDuration=300"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("holdlab: warning: the trace is drawn up to frame 250000 at 250000.000 ms"))
        #expect(result.stdout.contains("# frames: drawn up to frame 250000 at 250000.000 ms"))
        let rows = CLI.dataLines(result.stdout).dropFirst().map { $0.split(separator: ",").map(String.init) }
        #expect(rows.filter { $0[4] == "frame" }.count == 250_001)
        for row in rows where (Double(row[0]) ?? 0) > 250_000 {
            #expect(row[2] == "NaN", "\(row)")
        }
        #expect(rows.contains { $0[4] == "trigger" && $0[0] == "300000.000" })
        // A whole trace has no such line.
        #expect(!(try CLI.run(["trace"])).stdout.contains("# frames:"))
    }

    @Test("`holdlab trace` alone traces the default profile until the fill is back at rest")
    func defaultTrace() throws {
        let result = try CLI.run(["trace"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines[0].hasPrefix("# holdlab: "))
        #expect(lines.contains { $0.hasPrefix("# profile: hig-linear-bar fnv1a64:") })
        #expect(lines.contains("# command: holdlab trace"))
        let data = CLI.dataLines(result.stdout)
        #expect(data.first == "t_ms,model_progress,displayed_progress,pulses,event")
        for event in ["touch_down", "fill_start", "trigger", "completion_pulse", "displayed_full", "release", "retract_end"] {
            #expect(data.contains { $0.hasSuffix(",\(event)") }, "missing \(event)")
        }
        #expect(data.last?.hasSuffix(",frame") == true || data.last?.hasSuffix(",retract_end") == true)
    }

    @Test("--out writes the file atomically; the data rows equal stdout's")
    func outFile() throws {
        let directory = try CLI.temporaryDirectory()
        let file = directory.appendingPathComponent("trace.csv")
        let written = try CLI.run(["trace", "--profile", "kikocard-accelerating", "--out", file.path])
        #expect(written.status == 0 && written.stdout.isEmpty)
        let text = try String(contentsOf: file, encoding: .utf8)
        let printed = try CLI.run(["trace", "--profile", "kikocard-accelerating", "--out", "-"])
        #expect(CLI.dataLines(text) == CLI.dataLines(printed.stdout))
        // Nothing else is left in the directory (no temporary files).
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["trace.csv"])
    }

    @Test("exit codes: 64 bad flag, 65 invalid profile, 66 missing profile, 73 unwritable output; nothing written")
    func exitCodes() throws {
        let directory = try CLI.temporaryDirectory()
        let out = directory.appendingPathComponent("never.csv").path
        let badFlag = try CLI.run(["trace", "--phase", "1.5", "--out", out])
        #expect(badFlag.status == 64)
        #expect(badFlag.stderr.contains("--phase must be at least 0 and below 1"))
        let badValue = try CLI.run(["trace", "--set", "fill.curve=wobbly", "--out", out])
        #expect(badValue.status == 64)  // a --set value is a command-line value
        #expect(badValue.stderr.hasPrefix("holdlab: error: --set fill.curve=wobbly: fill.curve: timing curve 'wobbly': not recognised"))
        let missing = try CLI.run(["trace", "--profile", "no-such-profile", "--out", out])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("no profile of that name"))
        let unwritable = try CLI.run(["trace", "--out", directory.appendingPathComponent("no/dir/x.csv").path])
        #expect(unwritable.status == 73)
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("profiles show exits 0; check prints ok for each good file, every problem of a bad one, and exits 65")
    func profilesCommands() throws {
        let show = try CLI.run(["profiles", "show", "kikocard-accelerating", "--set", "fill.timer.tick=0.016"])
        #expect(show.status == 0 && show.stdout.hasPrefix("# ") && show.stdout.contains("/kikocard-accelerating.yaml (resolved, fnv1a64:"))
        let directory = try CLI.temporaryDirectory()
        let bad = directory.appendingPathComponent("bad.yaml")
        try "version: 1\nname: bad\ndescription: x\nfill: {model: sprinkler}\n".write(to: bad, atomically: true, encoding: .utf8)
        let check = try CLI.run(["profiles", "check", "Profiles/hig-linear-bar.yaml", bad.path])
        #expect(check.status == 65)
        #expect(check.stdout.contains("ok: Profiles/hig-linear-bar.yaml (hig-linear-bar)"))
        #expect(check.stderr.contains("bad.yaml:4:15: fill.model: unknown value 'sprinkler'; allowed: animation, timer, none"))
    }
}
