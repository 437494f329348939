import Foundation
import Testing

@Suite("holdlab preview and holdlab haptics")
struct PreviewCommandTests {
    @Test("help names the frame rate, the designs, the formats and their defaults")
    func help() throws {
        let preview = try CLI.run(["preview", "--help"])
        #expect(preview.status == 0)
        let text = preview.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("50 frames per second"))
        #expect(text.contains("--variant"))
        #expect(text.contains("holdlab preview --profile kikocard-accelerating --profile hig-linear-bar"))
        let haptics = try CLI.run(["haptics", "--help"])
        let hapticsText = haptics.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(haptics.status == 0)
        #expect(hapticsText.contains("intensity 0.5, sharpness 0.3"))
        #expect(hapticsText.contains("createWaveform"))
    }

    struct Refusal: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var status: Int32
        var message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let refusals = [
        Refusal(arguments: ["preview", "--out", "x.png"], status: 64, message: "name a .gif file"),
        Refusal(arguments: ["preview", "--profile", "a", "--profile", "b", "--profile", "c", "--profile", "d",
                            "--variant", "e=fill.duration=1"], status: 64, message: "at most 4 designs"),
        Refusal(arguments: ["preview", "--variant", "nolabel"], status: 64, message: "write LABEL="),
        Refusal(arguments: ["preview", "--variant", "x=fill.duration=1", "--variant", "x=fill.duration=2"], status: 64, message: "--variant x is given twice"),
        Refusal(arguments: ["preview", "--variant", "fast=fill.duration=abc", "--no-mp4"], status: 64, message: "--variant fast: fill.duration=abc"),
        // One --variant parser for preview and compare: the same label rule and the same refusal of a repeated key.
        Refusal(arguments: ["preview", "--variant", "my fast=fill.duration=1"], status: 64, message: "a label is letters, digits"),
        Refusal(arguments: ["preview", "--variant", "x=fill.duration=1 fill.duration=2"], status: 64,
                message: "--variant x: fill.duration is given twice"),
        // One loader of variants for preview and compare: a variant changes the control only, and not a key --set fixes.
        Refusal(arguments: ["preview", "--variant", "x=population.intent.duration={dist: constant, value: 1}", "--no-mp4"],
                status: 64, message: "--variant x sets population.intent.duration: a variant changes the control"),
        Refusal(arguments: ["preview", "--set", "fill.duration=1", "--variant", "x=fill.duration=2", "--no-mp4"],
                status: 64, message: "--variant x sets fill.duration, which --set also sets"),
        Refusal(arguments: ["preview", "--mp4", "a.mp4", "--no-mp4"], status: 64, message: "contradict"),
        Refusal(arguments: ["preview", "--phase", "1"], status: 64, message: "--phase"),
        Refusal(arguments: ["preview", "--profile", "no-such-profile"], status: 66, message: "no-such-profile"),
        Refusal(arguments: ["preview", "--out", "/nonexistent-dir/x.gif", "--no-mp4"], status: 73, message: "/nonexistent-dir"),
        // Without a fill no threshold pulses: that fix is tried, plays nothing, and is not offered.
        Refusal(arguments: ["haptics", "--profile", "static-long-press"], status: 65,
                message: "plays no haptic pulse: haptics.onComplete is false; haptics.threshold is 0, and without a fill (fill.model: none) there is no progress to pulse on; try --set haptics.onComplete=true; nothing to export"),
        Refusal(arguments: ["haptics", "--profile", "hig-linear-bar", "--set", "haptics.onComplete=false"], status: 65,
                message: "plays no haptic pulse: haptics.onComplete is false; haptics.threshold is 0 (no progress pulses); try --set haptics.onComplete=true or --set haptics.threshold=0.05; nothing to export"),
        // onComplete is already true: the reason is the release before the action, and the fix is to hold past it.
        Refusal(arguments: ["haptics", "--profile", "hig-linear-bar", "--release-at", "0.5"], status: 65,
                message: "plays no haptic pulse: the finger lifts at 500 ms, before the action fires at 1000 ms, so the completion pulse (haptics.onComplete) never plays; haptics.threshold is 0 (no progress pulses); try hold past the action: --release-at 1.25 (or leave --release-at out) or --set haptics.threshold=0.05; nothing to export"),
        Refusal(arguments: ["haptics", "--intensity", "1.5"], status: 64, message: "--intensity must be from 0 to 1"),
        Refusal(arguments: ["haptics", "--completion-pulse-ms", "0"], status: 64, message: "--completion-pulse-ms"),
        Refusal(arguments: ["haptics", "--format", "wav"], status: 64, message: "wav"),
    ]

    @Test("bad command lines and holds without pulses are refused with the documented status", arguments: refusals)
    func refused(_ refusal: Refusal) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try PlotCommandTests.run(refusal.arguments + ["--profiles-dir", CLI.root.appendingPathComponent("Profiles").path],
                                              environment: [:], in: directory)
        #expect(result.status == refusal.status, "\(result.stderr)")
        #expect(result.stderr.contains(refusal.message), "\(result.stderr)")
        #expect(try PlotCommandTests.contents(directory).isEmpty, "nothing written")
    }

    @Test("the same command writes the same GIF; without ffmpeg a note says no MP4 was written; --mp4 then is 69 before drawing")
    func gifAndMissingFFmpeg() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A PATH with gnuplot and nothing else.
        let bin = directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let gnuplot = try #require(["/usr/bin/gnuplot", "/usr/local/bin/gnuplot"].first { FileManager.default.isExecutableFile(atPath: $0) })
        try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent("gnuplot").path, withDestinationPath: gnuplot)
        let profiles = ["--profiles-dir", CLI.root.appendingPathComponent("Profiles").path]
        let arguments = ["preview", "--profile", "hig-linear-bar", "--release-at", "0.3", "--out", "a.gif"] + profiles
        let first = try PlotCommandTests.run(arguments, environment: ["PATH": bin.path], in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("ffmpeg is not installed, so no MP4 was written"))
        #expect(!first.stderr.contains("frames in animation sequence"), "gnuplot's count is not passed on")
        let bytes = try Data(contentsOf: directory.appendingPathComponent("a.gif"))
        #expect(bytes.starts(with: Array("GIF89a".utf8)))
        let again = try PlotCommandTests.run(arguments, environment: ["PATH": bin.path], in: directory)
        #expect(again.status == 0)
        #expect(try Data(contentsOf: directory.appendingPathComponent("a.gif")) == bytes, "byte-identical for the same command")

        let video = try PlotCommandTests.run(["preview", "--out", "b.gif", "--mp4", "b.mp4"] + profiles, environment: ["PATH": bin.path], in: directory)
        #expect(video.status == 69)
        #expect(video.stderr.contains("ffmpeg is not installed"))
        #expect(try PlotCommandTests.contents(directory) == ["a.gif", "bin"], "nothing drawn, no temporary left")

        let noGnuplot = try PlotCommandTests.run(["preview", "--out", "c.gif"] + profiles, environment: ["PATH": directory.path], in: directory)
        #expect(noGnuplot.status == 69)
        #expect(noGnuplot.stderr.contains("sudo apt-get install gnuplot-nox"))
    }

    @Test("haptics: the format follows --out's extension; the same command writes the same bytes")
    func hapticsFormats() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let profiles = ["--profiles-dir", CLI.root.appendingPathComponent("Profiles").path]
        for (name, opening) in [("k.ahap", "{\n  \"Version\": 1.0,"), ("k.json", "{\n  \"api\": \"android.os.VibrationEffect"),
                                ("k.kt", "// holdlab ")] {
            let result = try PlotCommandTests.run(["haptics", "--profile", "kikocard-accelerating", "--out", name] + profiles,
                                                  environment: [:], in: directory)
            #expect(result.status == 0, "\(result.stderr)")
            let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            #expect(text.hasPrefix(opening), "\(name)")
        }
        let ahap = try String(contentsOf: directory.appendingPathComponent("k.ahap"), encoding: .utf8)
        #expect(ahap.components(separatedBy: "\"HapticTransient\"").count - 1 == 77, "77 pulses (DOMAIN §2)")
        let stdout = try PlotCommandTests.run(["haptics", "--profile", "kikocard-accelerating", "--out", "k.ahap"] + profiles,
                                              environment: [:], in: directory)
        #expect(stdout.status == 0)
        #expect(try String(contentsOf: directory.appendingPathComponent("k.ahap"), encoding: .utf8) == ahap)
        let kotlin = try PlotCommandTests.run(["haptics", "--profile", "kikocard-accelerating", "--format", "kotlin"] + profiles,
                                              environment: [:], in: directory)
        #expect(kotlin.stdout.contains("val holdEffect = VibrationEffect.createWaveform(longArrayOf(600L, "))
        // A command line with a line break (a --set value) stays one comment line: every other line is code.
        let broken = try PlotCommandTests.run(["haptics", "--profile", "kikocard-accelerating", "--format", "kotlin",
                                               "--set", "description=x\ny\u{2028}z"] + profiles, environment: [:], in: directory)
        #expect(broken.status == 0, "\(broken.stderr)")
        let lines = broken.stdout.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
        #expect(lines.count == 2 && lines[0].hasPrefix("// ") && lines[1].hasPrefix("val holdEffect = "), "\(broken.stdout)")
    }
}
