import Foundation
import HoldLabTestSupport
import HoldModel
import HoldPreview
import HoldProfiles
import HoldSimulation
import Testing

/// Profiles from the package's Profiles folder.
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let library = ProfileLibrary(directory: root.appendingPathComponent("Profiles").path)

    static func profile(_ name: String, _ overrides: [String] = []) throws -> Profile {
        try library.loadProfile(name, overrides: overrides.map { text throws(ProfileError) in try Override(parsing: text) })
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("holdlab-preview-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The rows of `holdlab trace`'s CSV for the same hold: (t_ms, displayed_progress, event), read from the text
    /// `trace` writes, not from the preview's own timeline.
    static func traceRows(_ profile: Profile, releaseAt: Double?, phase: Double = 0) throws -> [(tMs: Double, displayed: Double, event: String)] {
        let csv = try TraceRequest(profile: profile, releaseAtSeconds: releaseAt, framePhase: phase).result(commandLine: "test").csv
        let lines = csv.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines.first == "t_ms,model_progress,displayed_progress,pulses,event")
        return lines.dropFirst().map { line in
            let fields = line.split(separator: ",")
            return (Double(fields[0]) ?? .nan, Double(fields[2]) ?? .nan, String(fields[4]))
        }
    }
}

@Suite("holdlab preview: the GIF, read back")
struct PreviewGIFTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var designs: [String]
        var releaseAt: Double?
        var testDescription: String { designs.joined(separator: " + ") + (releaseAt.map { " released at \($0) s" } ?? " held to the end") }
    }

    static let cases = [
        Case(designs: ["kikocard-accelerating", "hig-linear-bar"], releaseAt: nil),
        Case(designs: ["kikocard-accelerating", "hig-linear-bar"], releaseAt: 1.2),
        Case(designs: ["mismatched-fill", "filament-hold-to-confirm", "android-filling-button"], releaseAt: 0.6),
    ]

    /// Fill pixels (the fill's colour before or after the action) and track pixels along the bar's middle row.
    static func barPixels(_ frame: GIFReader.Frame, width: Int, panel: Int) -> (fill: Int, bar: Int) {
        let row = PreviewLayout.controlCentreFromTop
        var fill = 0
        var bar = 0
        let left = PreviewLayout.panelLeft(panel)
        // The bar's extent and 8 px either side (not the separator between panels, drawn in the track's colour).
        for x in (left + PreviewLayout.barInset - 8)..<(left + PreviewLayout.panelWidth - PreviewLayout.barInset + 8) {
            let pixel = frame.pixels[row * width + x]
            if pixel == UInt32(PreviewColor.fill) || pixel == UInt32(PreviewColor.fired) { fill += 1; bar += 1 }
            if pixel == UInt32(PreviewColor.track) { bar += 1 }
        }
        return (fill, bar)
    }

    @Test("frame count, 2 cs delays, looping, and the drawn fill equals trace's displayed progress within a pixel", arguments: cases)
    func fillAgainstTrace(_ testCase: Case) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let profiles = try testCase.designs.map { try Fixtures.profile($0) }
        let request = PreviewRequest(
            designs: profiles.map { Design(label: $0.name, profile: $0) }, releaseAtSeconds: testCase.releaseAt,
            commandLine: "holdlab preview (test)")
        let path = directory.appendingPathComponent("p.gif").path
        let timelines = try PreviewRenderer.renderGIF(request, to: path)
        let gif = try GIFReader(try Data(contentsOf: URL(fileURLWithPath: path)))

        let schedule = FrameSchedule.gif(through: timelines.end)
        #expect(gif.frames.count == schedule.times.count)
        #expect(gif.frames.allSatisfy { $0.delay == 2 }, "every frame 2/100 s: 50 frames per second")
        #expect(gif.loopCount == 0, "loops forever")
        #expect(gif.width == PreviewLayout.width(designs: profiles.count))
        // The animation lasts until every design's trace ends, plus the 0.6 s hold.
        let end = timelines.designs.map { Fixtures.rowsEnd($0) }.max() ?? 0
        #expect(abs(Double(schedule.times.last ?? 0) / 1e6 - (end + 600)) <= 20)

        var measured = 0
        for (panel, profile) in profiles.enumerated() {
            let rows = try Fixtures.traceRows(profile, releaseAt: testCase.releaseAt)
            for k in stride(from: 0, to: gif.frames.count, by: 3) {
                let tMs = Double(schedule.times[k]) / 1e6
                let shown = rows.last { $0.tMs <= tMs + 1e-9 }?.displayed ?? 0
                let (fill, bar) = Self.barPixels(gif.frames[k], width: gif.width, panel: panel)
                // gd fills a rectangle from x to x + n over the pixels x … x + n − 1 (n rounded): the track is
                // barLength pixels, and a fill of length p · barLength is that many pixels, to the pixel.
                #expect(bar == PreviewLayout.barLength, "frame \(k): the whole track is on the bar's row")
                #expect(abs(Double(fill) - shown * Double(PreviewLayout.barLength)) <= 1.0,
                        "\(profile.name) frame \(k) at \(tMs) ms: \(fill) of \(bar) px drawn, trace shows \(shown)")
                if shown == 0 { #expect(fill == 0, "nothing drawn when trace shows an empty bar") }
                if shown * Double(PreviewLayout.barLength) >= 1.5 { #expect(fill > 0, "a visible fill is drawn") }
                measured += 1
            }
        }
        #expect(measured >= 20 * profiles.count, "at least 20 sampled frames per design (every third)")
    }

    @Test("the same request gives the same bytes; the footer's provenance changes them")
    func byteIdentical() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let profile = try Fixtures.profile("hig-linear-ring")
        let request = PreviewRequest(designs: [Design(label: "ring", profile: profile)], releaseAtSeconds: 0.7,
                                     commandLine: "holdlab preview --profile hig-linear-ring")
        let first = directory.appendingPathComponent("a.gif").path
        let second = directory.appendingPathComponent("b.gif").path
        try PreviewRenderer.renderGIF(request, to: first)
        try PreviewRenderer.renderGIF(request, to: second)
        let a = try Data(contentsOf: URL(fileURLWithPath: first))
        #expect(a == (try Data(contentsOf: URL(fileURLWithPath: second))))
        var other = request
        other.commandLine += " --seed 1"
        try PreviewRenderer.renderGIF(other, to: second)
        #expect(a != (try Data(contentsOf: URL(fileURLWithPath: second))))
        // Nothing but the two GIFs is left in the folder (no temporaries).
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["a.gif", "b.gif"])
    }

    @Test("a ring fills clockwise from twelve o'clock: the drawn arc's share of the ring matches trace")
    func ring() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let profile = try Fixtures.profile("hig-linear-ring")
        #expect(profile.indicator == .ring)
        let request = PreviewRequest(designs: [Design(label: "ring", profile: profile)], commandLine: "test")
        let path = directory.appendingPathComponent("r.gif").path
        let timelines = try PreviewRenderer.renderGIF(request, to: path)
        let gif = try GIFReader(try Data(contentsOf: URL(fileURLWithPath: path)))
        let schedule = FrameSchedule.gif(through: timelines.end)
        let rows = try Fixtures.traceRows(profile, releaseAt: nil)
        // Sample the ring's middle circle every 2°, clockwise from twelve o'clock; count the filled samples.
        let cx = PreviewLayout.panelWidth / 2
        let cy = PreviewLayout.controlCentreFromTop
        let radius = Double(PreviewLayout.ringRadius) - Double(PreviewLayout.ringThickness) / 2
        for k in [10, 20, 30, 40, 45] {
            let tMs = Double(schedule.times[k]) / 1e6
            let shown = rows.last { $0.tMs <= tMs + 1e-9 }?.displayed ?? 0
            var filled = 0
            for step in 0..<180 {
                let angle = (Double(step) * 2 + 1) * .pi / 180
                let x = cx + Int((radius * sin(angle)).rounded())
                let y = cy - Int((radius * cos(angle)).rounded())
                let pixel = gif.frames[k].pixels[y * gif.width + x]
                if pixel == UInt32(PreviewColor.fill) || pixel == UInt32(PreviewColor.fired) { filled += 1 }
            }
            // One sample is 2° of 360°: allow one sample either side.
            #expect(abs(Double(filled) - shown * 180) <= 1.5, "frame \(k) at \(tMs) ms: \(filled)/180 filled, trace shows \(shown)")
        }
    }

    static let ffmpegPresent = PreviewRenderer.isInstalled("ffmpeg") && PreviewRenderer.isInstalled("ffprobe")

    @Test("MP4: one frame per display frame at the display's rate, checked with ffprobe",
          .enabled(if: ffmpegPresent, "SKIPPED LOUDLY: ffmpeg/ffprobe are not installed (sudo apt-get install ffmpeg); the MP4 is untested here"))
    func mp4() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let profiles = [try Fixtures.profile("hig-linear-bar"), try Fixtures.profile("flutter-punyawatdev")]
        let request = PreviewRequest(designs: profiles.map { Design(label: $0.name, profile: $0) },
                                     releaseAtSeconds: 0.5, commandLine: "test")
        let timelines = try PreviewTimelines(request)
        let path = directory.appendingPathComponent("v.mp4").path
        try PreviewRenderer.renderMP4(timelines, to: path)
        let expected = FrameSchedule.display(refreshRateHz: 120, phase: 0, through: timelines.end).times.count
        let probe = try Self.run("/usr/bin/env", ["ffprobe", "-v", "error", "-select_streams", "v:0", "-count_frames",
                                                  "-show_entries", "stream=codec_name,r_frame_rate,nb_read_frames,width,height",
                                                  "-of", "default=noprint_wrappers=1", path])
        #expect(probe.contains("codec_name=h264"))
        #expect(probe.contains("r_frame_rate=120/1"), "the fastest display, 120 Hz (the other is 60 Hz)")
        #expect(probe.contains("nb_read_frames=\(expected)"), "\(probe)")
        #expect(probe.contains("width=\(PreviewLayout.width(designs: 2))"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["v.mp4"], "no frame left behind")
    }

    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        try runProcess(tool, arguments, keepStandardError: false).stdout
    }
}

extension Fixtures {
    /// The last row's time of a design's trace, in ms.
    static func rowsEnd(_ design: DesignTimeline) -> Double { Double(design.end) / 1e6 }
}
