import Foundation
import HoldModel
import HoldPreview
import HoldProfiles
import HoldSimulation
import Testing

/// The AHAP keys and ranges Apple documents ("Representing haptic patterns in AHAP files", Core Haptics): the
/// top level holds `Version` and `Pattern` (Apple's sample files add `Metadata` with `Project`, `Created`,
/// `Description`); a pattern is an array of dictionaries each with one `Event`; an event has `Time` (seconds),
/// `EventType` and `EventParameters` (a transient has no `EventDuration`); a parameter is `ParameterID` and
/// `ParameterValue`; `HapticIntensity` runs from weak 0.0 to strong 1.0 and `HapticSharpness` from dull 0.0 to
/// sharp 1.0.
enum AHAPSchema {
    static let topLevel: Set<String> = ["Version", "Pattern", "Metadata"]
    static let metadata: Set<String> = ["Project", "Created", "Description", "Created By"]
    static let eventKeys: Set<String> = ["Time", "EventType", "EventParameters"]
    static let eventTypes: Set<String> = ["HapticTransient", "HapticContinuous", "AudioContinuous", "AudioCustom"]
    static let parameterRanges: [String: ClosedRange<Double>] = ["HapticIntensity": 0...1, "HapticSharpness": 0...1]

    /// The events' (time, intensity, sharpness), after checking every key and range; a failed check is an issue.
    static func events(_ text: String) throws -> [(time: Double, intensity: Double, sharpness: Double)] {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(Set(root.keys).isSubset(of: topLevel), "top-level keys: \(root.keys.sorted())")
        #expect((root["Version"] as? Double) == 1.0)
        if let meta = root["Metadata"] {
            let dictionary = try #require(meta as? [String: Any])
            #expect(Set(dictionary.keys).isSubset(of: metadata))
            #expect(dictionary.values.allSatisfy { $0 is String })
        }
        let pattern = try #require(root["Pattern"] as? [[String: Any]])
        var events: [(Double, Double, Double)] = []
        for element in pattern {
            #expect(Array(element.keys) == ["Event"])
            let event = try #require(element["Event"] as? [String: Any])
            #expect(Set(event.keys) == eventKeys, "a transient: Time, EventType, EventParameters, no EventDuration")
            #expect(event["EventType"] as? String == "HapticTransient")
            #expect(eventTypes.contains(event["EventType"] as? String ?? ""))
            let time = try #require(event["Time"] as? Double)
            #expect(time >= 0)
            let parameters = try #require(event["EventParameters"] as? [[String: Any]])
            var values: [String: Double] = [:]
            for parameter in parameters {
                #expect(Set(parameter.keys) == ["ParameterID", "ParameterValue"])
                let id = try #require(parameter["ParameterID"] as? String)
                let value = try #require(parameter["ParameterValue"] as? Double)
                let range = try #require(parameterRanges[id], "\(id) is a haptic event parameter")
                #expect(range.contains(value), "\(id) = \(value) outside \(range)")
                #expect(values.updateValue(value, forKey: id) == nil, "\(id) given once")
            }
            events.append((time, try #require(values["HapticIntensity"]), try #require(values["HapticSharpness"])))
        }
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.0 <= $1.0 }, "events in time order")
        return events
    }
}

@Suite("holdlab haptics: AHAP and Android patterns from trace's pulses")
struct HapticPatternTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var profile: String
        var overrides: [String]
        var releaseAt: Double?
        var testDescription: String { ([profile] + overrides).joined(separator: " ") + (releaseAt.map { " released at \($0)" } ?? "") }
    }

    static let cases = [
        // 77 pulses, no completion pulse.
        Case(profile: "kikocard-accelerating", overrides: [], releaseAt: nil),
        // minInterval drops pulses; the completion pulse is on (and may itself be dropped).
        Case(profile: "kikocard-accelerating", overrides: ["haptics.minInterval=0.025", "haptics.onComplete=true"], releaseAt: nil),
        // Released early: only the pulses felt while the finger was down.
        Case(profile: "kikocard-accelerating", overrides: ["haptics.threshold=0.05"], releaseAt: 1.5),
        // Timer latencies drawn with the seed.
        Case(profile: "kikocard-article-latency", overrides: ["haptics.onComplete=true"], releaseAt: nil),
        // A completion pulse only.
        Case(profile: "hig-linear-bar", overrides: [], releaseAt: nil),
        Case(profile: "swiftui-hold-to-confirm-button", overrides: ["haptics.threshold=0.1"], releaseAt: nil),
    ]

    /// trace's played and dropped pulses as written in its CSV: (t_ms, event).
    static func tracePulses(_ profile: Profile, releaseAt: Double?) throws -> (played: [(Double, Bool)], dropped: [Double]) {
        let rows = try Fixtures.traceRows(profile, releaseAt: releaseAt)
        let played = rows.filter { $0.event == "pulse" || $0.event == "completion_pulse" }.map { ($0.tMs, $0.event == "completion_pulse") }
        let dropped = rows.filter { $0.event.hasSuffix("_dropped") }.map(\.tMs)
        return (played, dropped)
    }

    static func text(_ format: HapticPattern.Format, _ profile: Profile, releaseAt: Double?, style: HapticStyle = .standard) throws -> String {
        let request = TraceRequest(profile: profile, releaseAtSeconds: releaseAt)
        let (trace, pulses) = try HapticPattern.pulses(request)
        return HapticPattern.text(format, pulses: pulses, style: style, request: request, trace: trace, commandLine: "holdlab haptics (test)")
    }

    @Test("AHAP: Apple's keys and ranges; one HapticTransient per played pulse at trace's time to the microsecond", arguments: cases)
    func ahap(_ testCase: Case) throws {
        let profile = try Fixtures.profile(testCase.profile, testCase.overrides)
        let (played, dropped) = try Self.tracePulses(profile, releaseAt: testCase.releaseAt)
        #expect(!played.isEmpty)
        let events = try AHAPSchema.events(try Self.text(.ahap, profile, releaseAt: testCase.releaseAt))
        #expect(events.count == played.count)
        for (event, pulse) in zip(events, played) {
            // trace writes t_ms with three decimals, i.e. whole microseconds; the AHAP writes seconds with six.
            #expect((event.time * 1e6).rounded() == (pulse.0 * 1e3).rounded(), "event at \(event.time) s, trace pulse at \(pulse.0) ms")
            let style = HapticStyle.standard
            #expect(event.intensity == (pulse.1 ? style.completionIntensity : style.intensity))
            #expect(event.sharpness == (pulse.1 ? style.completionSharpness : style.sharpness))
        }
        for time in dropped where !played.contains(where: { $0.0 == time }) {
            #expect(!events.contains { ($0.time * 1e6).rounded() == (time * 1e3).rounded() }, "dropped pulse at \(time) ms is absent")
        }
        if testCase.overrides.contains("haptics.minInterval=0.025") { #expect(!dropped.isEmpty, "this case drops pulses") }
    }

    @Test("the completion pulse is distinct, with the chosen parameters")
    func completionDistinct() throws {
        let profile = try Fixtures.profile("kikocard-accelerating", ["haptics.onComplete=true", "haptics.threshold=0.1"])
        let style = HapticStyle(intensity: 0.25, sharpness: 0.1, completionIntensity: 0.9, completionSharpness: 0.95,
                                pulseMilliseconds: 5, completionPulseMilliseconds: 40)
        let events = try AHAPSchema.events(try Self.text(.ahap, profile, releaseAt: nil, style: style))
        let last = try #require(events.last)
        #expect(last.intensity == 0.9 && last.sharpness == 0.95)
        #expect(events.dropLast().allSatisfy { $0.intensity == 0.25 && $0.sharpness == 0.1 })
        #expect(abs(last.time - 2.1) < 1e-9, "the completion pulse at the trigger, 2.100 s")
    }

    @Test("Android: createWaveform's timings and amplitudes; each pulse starts at trace's time to the millisecond", arguments: cases)
    func android(_ testCase: Case) throws {
        let profile = try Fixtures.profile(testCase.profile, testCase.overrides)
        let (played, _) = try Self.tracePulses(profile, releaseAt: testCase.releaseAt)
        let text = try Self.text(.android, profile, releaseAt: testCase.releaseAt)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let timings = try #require(root["timings_ms"] as? [Int])
        let amplitudes = try #require(root["amplitudes"] as? [Int])
        let times = try #require(root["pulse_times_us"] as? [Int])
        let completion = try #require(root["completion_pulse"] as? [Bool])
        #expect(root["repeat"] as? Int == -1)
        // VibrationEffect.createWaveform: as many amplitudes as timings, timings ≥ 0, amplitudes 0–255.
        #expect(timings.count == amplitudes.count && timings.count == 2 * played.count)
        #expect(timings.allSatisfy { $0 >= 0 })
        #expect(amplitudes.allSatisfy { (0...255).contains($0) })
        #expect(times == played.map { Int(($0.0 * 1e3).rounded()) }, "pulse times to the microsecond")
        #expect(completion == played.map(\.1))
        // Walk the waveform: each on segment (amplitude > 0) starts at a pulse's time rounded to the millisecond.
        var clock = 0
        var starts: [Int] = []
        for (timing, amplitude) in zip(timings, amplitudes) {
            if amplitude > 0 {
                starts.append(clock)
                #expect(timing >= 1)
            }
            clock += timing
        }
        #expect(starts == played.map { Int(($0.0).rounded()) })
        let expectedAmplitudes = played.map { $0.1 ? 255 : 128 }  // round(255 × 1.0), round(255 × 0.5)
        #expect(amplitudes.enumerated().filter { $0.offset % 2 == 1 }.map(\.element) == expectedAmplitudes)
        #expect(amplitudes.enumerated().filter { $0.offset % 2 == 0 }.allSatisfy { $0.element == 0 })

        let kotlin = try Self.text(.kotlin, profile, releaseAt: testCase.releaseAt)
        let code = try #require(kotlin.split(separator: "\n").last)
        #expect(code == "val holdEffect = VibrationEffect.createWaveform(longArrayOf(\(timings.map { "\($0)L" }.joined(separator: ", "))), "
                + "intArrayOf(\(amplitudes.map(String.init).joined(separator: ", "))), -1)")
        #expect(kotlin.hasPrefix("// holdlab "))
    }

    @Test("Android on-times: the style's length, cut to half the gap to the next pulse")
    func androidOnTimes() {
        let pulses = [HapticPulse(time: 0, isCompletion: false), HapticPulse(time: 10_000_000, isCompletion: false),
                      HapticPulse(time: 13_400_000, isCompletion: false), HapticPulse(time: 100_000_000, isCompletion: true)]
        let waveform = AndroidWaveform(pulses, style: .standard)
        // Starts at 0, 10, 13 (13.4 rounded), 100 ms; on for min(8, gap/2): 5, 1, 8, then the completion's 30.
        #expect(waveform.timings == [0, 5, 5, 1, 2, 8, 79, 30])
        #expect(waveform.amplitudes == [0, 128, 0, 128, 0, 128, 0, 255])
    }
}
