import HoldLabIO
import HoldLabTestSupport
import HoldModel
import HoldProfiles
import Testing

@Suite("trace: the job's typed result")
struct TraceResultTests {
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
        let text = try TraceRequest(profile: profile, releaseAtSeconds: 0.05).result(commandLine: "holdlab trace").csv
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

    @Test("golden: hig-linear-bar released at 0.6 s with frame phase 0.5, byte for byte as `holdlab trace` writes it")
    func golden() throws {
        let profile = try Make.library.loadProfile("hig-linear-bar")
        let request = TraceRequest(profile: profile, releaseAtSeconds: 0.6, framePhase: 0.5)
        let document = try request.result(commandLine: "holdlab trace --profile hig-linear-bar --release-at 0.6 --phase 0.5")
        #expect(document.csv == (try Golden.text("trace-hig-linear-bar-0.6.csv")))
    }

    @Test("JSON types: times and progress are numbers, pulses whole numbers, events strings")
    func jsonTypes() throws {
        let profile = try Make.profile("gesture: {minimumDuration: 0.1}\n", name: "007")
        let document = try TraceRequest(profile: profile).result(commandLine: "holdlab trace --profile 007")
        #expect(try JSONTypes.of(document) == [
            "t_ms": [.number], "model_progress": [.number], "displayed_progress": [.number], "pulses": [.number],
            "event": [.string],
        ])
        #expect(document.tables[0].provenance.value(of: "profile")?.hasPrefix("007 fnv1a64:") == true)
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

@Suite("trace: every shipped profile")
struct ShippedTraceTests {
    @Test("every shipped profile traces, early and late releases alike: times never go back, the display stays in 0…1")
    func everyProfileTraces() throws {
        let library = Make.library
        let names = library.profileNames()
        #expect(names.count >= 12)
        for name in names {
            let profile = try library.loadProfile(name)
            for release in [nil, 0.3] {
                let table = try TraceRequest(profile: profile, releaseAtSeconds: release).result(commandLine: "holdlab trace")
                    .tables[0]
                #expect(table.rows.count > 10, "\(name)")
                let times = table.rows.compactMap { $0[0].numericValue }
                #expect(times.count == table.rows.count && zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "\(name)")
                #expect(table.rows.compactMap { $0[2].numericValue }.allSatisfy { $0 >= 0 && $0 <= 1 }, "\(name)")
            }
        }
    }
}

extension TraceResultTests {
    @Test("a Timer fill's progress pulse comes with its tick: before the frame at the same instant, which counts it")
    func timerPulseBeforeItsFrame() throws {
        // The outside probe of 0.3.17: at 600 ms kikocard-accelerating's trace listed the frame (pulses 0) before the
        // tick's pulse (pulses 1); at 2,100 ms the frame read 76 of the 77 pulses the hold has by then.
        let profile = try Make.library.loadProfile("kikocard-accelerating")
        let rows = try TraceRequest(profile: profile).run().rows
        for instant: Int64 in [600_000_000, 2_100_000_000] {
            let here = rows.filter { $0.time == instant }.map { ($0.event, $0.pulses) }
            let pulse = try #require(here.firstIndex { $0.0 == .pulse }, "\(instant): \(here)")
            let frame = try #require(here.firstIndex { $0.0 == .frame }, "\(instant): \(here)")
            #expect(pulse < frame && here[frame].1 == here[pulse].1, "\(instant): \(here)")
        }
        let last = try #require(rows.filter { $0.time == 2_100_000_000 }.map(\.event).first)
        #expect(last == .pulse)
        // A curve's pulses are its frames': they still follow the frame that requests them.
        let linear = try Make.library.loadProfile("android-filling-button", overrides: [try Override(parsing: "haptics.threshold=0.1")])
        let curveRows = try TraceRequest(profile: linear).run().rows
        let pulseTimes = Set(curveRows.filter { $0.event == .pulse }.map(\.time))
        #expect(!pulseTimes.isEmpty)
        for time in pulseTimes {
            let events = curveRows.filter { $0.time == time }.map(\.event)
            #expect(events.firstIndex(of: .frame)! < events.firstIndex(of: .pulse)!, "\(time): \(events)")
        }
    }
}
