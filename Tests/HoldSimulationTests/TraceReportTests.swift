import HoldLabIO
import Testing
import HoldModel
import HoldProfiles
@testable import HoldSimulation

@Suite("Trace report")
struct TraceReportTests {
    static let profileText = """
        version: 1
        name: tiny
        description: 0.1 s linear fill at 60 Hz
        gesture: {minimumDuration: 0.1}
        fill: {model: animation, curve: linear, duration: match}
        retract: {mode: instant}
        display: {refreshRate: 60}
        """

    @Test("provenance, header and rows: every frame from touch-down to rest, events at their exact times")
    func csv() throws {
        let profile = try Profile.load(yaml: Self.profileText, path: "tiny.yaml")
        let text = try TraceReport.csv(TraceRequest(profile: profile, releaseAtSeconds: 0.05), commandLine: "holdlab trace")
        let lines = text.split(separator: "\n")
        #expect(lines[0] == "# holdlab: \(HoldLabVersion.current) trace")
        #expect(lines[1] == "# profile: tiny fnv1a64:\(profile.contentHash)")
        #expect(lines[2] == "# command: holdlab trace")
        let data = lines.filter { !$0.hasPrefix("#") }
        #expect(data == [
            "t_ms,model_progress,displayed_progress,pulses,event",
            "0.000,0.000000,0.000000,0,touch_down",
            "0.000,0.000000,0.000000,0,fill_start",
            "0.000,0.000000,0.000000,0,frame",
            "16.667,0.166667,0.166667,0,frame",
            "33.333,0.333333,0.333333,0,frame",
            // A release at a frame's instant is processed before the frame renders.
            "50.000,0.000000,0.333333,0,release",
            "50.000,0.000000,0.000000,0,frame",
            // That frame is the first drawn empty: the retract as the eye sees it.
            "50.000,0.000000,0.000000,0,displayed_empty",
            "50.000,0.000000,0.000000,0,retract_end",
        ])
    }

    @Test("CSV numbers: fixed decimals, NaN for missing, no negative zero; fields quoted only when needed")
    func formatting() {
        #expect(CSV.number(-0.0000001, decimals: 3) == "0.000")
        #expect(CSV.number(nil, decimals: 3) == "NaN")
        #expect(CSV.number(.infinity, decimals: 3) == "NaN")
        #expect(CSV.number(1.23456, decimals: 2) == "1.23")
        #expect(CSV.field("a,b") == "\"a,b\"")
        #expect(CSV.commandLine(["holdlab", "--set", "fill.timer.latency={dist: exponential}"])
                == "holdlab --set 'fill.timer.latency={dist: exponential}'")
    }
}
