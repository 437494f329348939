import Foundation
import HoldLabIO
import Testing
import HoldModel
@testable import HoldProfiles

/// A minimal valid profile; tests replace or append lines to break it in one place at a time.
private let valid = """
    version: 1
    name: test
    description: a test profile
    gesture: {minimumDuration: 1.0, maximumDistance: 10}
    trigger: {source: gesture, offset: 0}
    fill:
      start: touchDown
      model: animation
      curve: linear
      duration: match
    retract: {mode: animation, curve: easeOut, duration: 0.2, interruption: swiftui}
    haptics: {threshold: 0, minInterval: 0, onComplete: true}
    display: {refreshRate: 120}
    """

private func load(_ text: String, overrides: [String] = []) throws -> Profile {
    try Profile.load(yaml: text, path: "p.yaml", overrides: overrides.map { try Override(parsing: $0) })
}

/// The error text for a profile that must fail.
private func failure(_ text: String, overrides: [String] = []) -> String {
    do {
        _ = try load(text, overrides: overrides)
        return "loaded without error"
    } catch {
        return "\(error)"
    }
}

private func replacing(_ old: String, with new: String) -> String {
    valid.replacingOccurrences(of: old, with: new)
}

@Suite("Profiles: loading")
struct ProfileLoadingTests {
    @Test("a valid profile loads, with match resolved to minimumDuration")
    func loads() throws {
        let profile = try load(valid)
        #expect(profile.name == "test")
        #expect(profile.control.fill.model == .animation(curve: .linear, durationSeconds: 1.0))
        #expect(profile.control.retract.afterTrigger == .stay)
        #expect(profile.population == "default")
    }

    /// The outside probe of 0.3.14: `yes` was a boolean and `True` was refused, with a message that named only
    /// true and false.
    @Test("booleans as YAML writes them: true/True/TRUE, yes/no and on/off in the same cases; anything else names them")
    func booleans() throws {
        for (text, value) in [("true", true), ("True", true), ("TRUE", true), ("yes", true), ("On", true), ("false", false),
                              ("False", false), ("NO", false), ("off", false)] {
            #expect(try load(valid, overrides: ["haptics.onComplete=\(text)"]).control.haptics.onComplete == value, "\(text)")
        }
        for text in ["tRue", "y", "1", "yep"] {
            #expect(failure(valid, overrides: ["haptics.onComplete=\(text)"]).hasSuffix(
                "haptics.onComplete: must be true or false (or yes/no, on/off; lower case, Capitalised or UPPER) (got '\(text)')"), "\(text)")
        }
        // The canonical form (and so the content hash) does not depend on the spelling.
        #expect(try load(valid, overrides: ["haptics.onComplete=TRUE"]).contentHash == load(valid, overrides: ["haptics.onComplete=true"]).contentHash)
    }

    @Test("match quoted reads as match, as every quoted keyword and number does: a profile written as JSON")
    func quotedMatch() throws {
        let json = #"{"version": 1, "name": "j", "description": "x", "gesture": {"minimumDuration": "1.2"}, "#
            + #""fill": {"duration": "match"}, "retract": {"mode": "animation", "duration": 'match'}}"#
        let profile = try load(json)
        let plain = try load("""
            version: 1
            name: j
            description: x
            gesture: {minimumDuration: 1.2}
            fill: {duration: match}
            retract: {mode: animation, duration: match}
            """)
        #expect(profile.control == plain.control)
        #expect(profile.control.fill.model == .animation(curve: .linear, durationSeconds: 1.2))
        #expect(try load(valid, overrides: [#"fill.duration="match""#]).control == load(valid).control)
    }

    @Test("--set overrides any value by key path, including whole distributions and new sections")
    func overrides() throws {
        let profile = try load(valid, overrides: [
            "gesture.minimumDuration=0.8", "haptics.threshold=0.05",
            "fill.timer.latency={dist: lognormal, median: 0.002, sigma: 0.5}", "fill.model=timer",
        ])
        #expect(profile.control.gesture.minimumDurationSeconds == 0.8)
        #expect(profile.control.haptics.threshold == 0.05)
        guard case .timer = profile.control.fill.model else {
            Issue.record("fill.model was not overridden")
            return
        }
        #expect(abs(profile.timerLatency.mean - 0.002 * exp(0.125)) < 1e-12)
        let curve = try load(valid, overrides: ["fill.curve=easeInOut", "gesture.minimumDuration=0.8"])
        #expect(curve.control.fill.model == .animation(curve: .easeInOut, durationSeconds: 0.8))
    }

    @Test("the canonical form loads back to the same content and hash")
    func canonicalRoundTrip() throws {
        // A --set of the retract mode leaves the file's animation keys moot: they are dropped, not written back as
        // keys the instant or reverse retract would refuse.
        let animated = valid.replacingOccurrences(of: "curve: easeOut, duration: 0.2, interruption: swiftui",
                                                  with: "curve: easeIn, duration: 0.5, interruption: additive")
        #expect(animated != valid)
        let switched = try ["instant", "reverse"].map { try load(animated, overrides: ["retract.mode=\($0)"]) }
        #expect(switched.map(\.control.retract.curve) == [.easeOut, .easeOut])
        #expect(switched.map(\.control.retract.interruption) == [.swiftui, .swiftui])
        #expect(switched.map(\.control.retract.durationSeconds) == [0.2, 0.5])
        for profile in switched + [try load(valid)] {
            let again = try Profile.load(yaml: profile.canonicalYAML, path: "canonical.yaml")
            #expect(again.canonicalYAML == profile.canonicalYAML)
        }
        for text in [valid, replacing("model: animation", with: "model: timer")] {
            let profile = try load(text)
            let again = try Profile.load(yaml: profile.canonicalYAML, path: "canonical.yaml")
            #expect(again.canonicalYAML == profile.canonicalYAML)
            #expect(again.contentHash == profile.contentHash)
        }
        // Any change to the resolved content changes the hash.
        #expect(try load(valid).contentHash != (try load(valid, overrides: ["display.refreshRate=60"])).contentHash)
    }

    @Test("the canonical form loads back to the same text and hash: a spring retract without a duration, control characters, names YAML reads otherwise")
    func canonicalRoundTripOddTexts() throws {
        let texts = [
            // A spring retract with no duration key is paced by its curve: match, not a timing curve's 0.2 s.
            "version: 1\nname: r1\ndescription: spring retract\nretract: {curve: bouncy}\n",
            "version: 1\nname: r2\ndescription: spring retract\nretract: {curve: \"spring(0.4,0.3)\", mode: animation}\n",
            // A CR folds to a space raw, C0, DEL and C1 characters are refused raw; a tab loads back as itself.
            "version: 1\nname: q\ndescription: \"a\\rb\\ttab\"\nsource: \"bell\\u0007 del\\x7f c1\\x85 nel\\u0085 ls\\u2028 ps\\u2029\"\n",
            // The byte-order mark and the two non-characters YAML refuses raw.
            "version: 1\nname: q2\ndescription: \"bom\\uFEFF fffe\\uFFFE ffff\\uFFFF\"\n",
            // Names YAML reads as something else written plain: a sequence entry, null.
            "version: 1\nname: \"-\"\ndescription: d\npopulation: \"~\"\n",
            "version: 1\nname: \"null\"\ndescription: d\npopulation: \"-\"\n",
        ]
        for text in texts {
            let profile = try Profile.load(yaml: text, path: "odd.yaml")
            let again = try Profile.load(yaml: profile.canonicalYAML, path: "canonical.yaml")
            #expect(again.canonicalYAML == profile.canonicalYAML, "\(text)")
            #expect(again.description == profile.description && again.source == profile.source && again.name == profile.name
                    && again.population == profile.population, "\(text)")
        }
        let spring = try Profile.load(yaml: texts[0], path: "r1.yaml")
        #expect(spring.control.retract.durationSeconds == nil && spring.canonicalYAML.contains("duration: match"))
        // Every shipped profile too (react-spectrum-hold-to-confirm has a spring retract without a duration).
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Profiles")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }
        #expect(files.count >= 13)
        for file in files {
            let profile = try Profile.load(yaml: try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8), path: file)
            let again = try Profile.load(yaml: profile.canonicalYAML, path: "canonical.yaml")
            #expect(again.contentHash == profile.contentHash, "\(file)")
        }
    }

    @Test("the canonical form loads back for every curve a fill or a retract can take, commas and all")
    func canonicalRoundTripEveryCurve() throws {
        let curves = ["linear", "easeIn", "easeOut", "easeInOut", "ease", "bezier(0.2,0,0.4,1)", "spring(0.5,0.2)",
                      "interpolatingSpring(500,30)", "smooth", "snappy", "bouncy"]
        for key in ["retract.curve", "fill.curve"] {
            for curve in curves {
                // A spring retract takes its pace from its curve.
                let spring = key == "retract.curve" && ["spring", "interpolatingSpring", "smooth", "snappy", "bouncy"]
                    .contains { curve.hasPrefix($0) }
                let profile = try load(valid, overrides: ["\(key)=\(curve)"] + (spring ? ["retract.duration=match"] : []))
                let again = try Profile.load(yaml: profile.canonicalYAML, path: "canonical.yaml")
                #expect(again.canonicalYAML == profile.canonicalYAML, "\(key)=\(curve)")
                #expect(again.contentHash == profile.contentHash, "\(key)=\(curve)")
            }
        }
        // A curve without a comma is written as before (its profile's hash did not move).
        #expect(try load(valid, overrides: ["retract.curve=easeOut"]).canonicalYAML.contains("curve: easeOut, duration:"))
        #expect(try load(valid, overrides: ["retract.curve=bezier(0.2,0,0.4,1)"]).canonicalYAML
                .contains("curve: \"bezier(0.2,0,0.4,1)\", duration:"))
    }

    @Test("a --set that switches what a key is for leaves the file's key moot; one that changes nothing switches nothing")
    func mootUnderSwitch() throws {
        // A spring chosen on the command line takes its pace from its curve: the file's duration is moot and the
        // resolved profile writes match, for the fill and the retract.
        let fill = try load(replacing("duration: match", with: "duration: 0.8"), overrides: ["fill.curve=bouncy"])
        #expect(fill.fillDurationMatchesGesture)
        let retract = try load(valid, overrides: ["retract.curve=spring(0.3,0)"])
        #expect(retract.control.retract.durationSeconds == nil)
        for profile in [fill, retract] {
            let again = try Profile.load(yaml: profile.canonicalYAML, path: "canonical.yaml")
            #expect(again.contentHash == profile.contentHash)
        }
        // The same in the file is refused, at the duration.
        #expect(failure(replacing("retract: {mode: animation, curve: easeOut,", with: "retract: {mode: animation, curve: snappy,"))
            == "p.yaml:11:53: retract.duration: a spring retract takes its pace from its curve; leave duration as match")
        // A --set of the value the file has is no switch: the file's key without effect stays refused.
        let noFill = replacing("  model: animation\n  curve: linear\n  duration: match\n", with: "  model: none\n  delay: 0.3\n")
        #expect(failure(noFill) == "p.yaml:9:10: fill.delay: has no effect: fill.model none draws no fill")
        #expect(failure(noFill, overrides: ["fill.model=none"]) == failure(noFill))
        #expect(try load(noFill, overrides: ["fill.model=animation"]).control.fill.delaySeconds == 0.3)
        let instant = replacing("retract: {mode: animation, curve: easeOut, duration: 0.2,", with: "retract: {mode: instant, duration: 0.5,")
        #expect(failure(instant, overrides: ["retract.mode=instant"]) == failure(instant))
        #expect(failure(instant).hasPrefix("p.yaml:11:36: retract.duration: has no effect on an instant retract"))
        // A Timer section of defaults only says nothing beside an animation, as `curve: linear` says nothing to a
        // Timer; one value of its own is refused.
        let defaults = replacing("  duration: match\n", with: "  duration: match\n  timer: {tick: 0.01, latency: {dist: constant, value: 0}}\n")
        #expect(try load(defaults).control.fill.model == .animation(curve: .linear, durationSeconds: 1.0))
        #expect(failure(replacing("  duration: match\n", with: "  duration: match\n  timer: {tick: 0.02}\n"))
            == "p.yaml:11:10: fill.timer: is for fill.model timer; an animation takes its pace from duration and curve")
    }

    @Test("a --set for a key inside another --set's value merges into it: one value, pasteable in its place, the same profile")
    func mergedOverrides() throws {
        let timer = replacing("  model: animation\n  curve: linear\n  duration: match\n", with: "  model: timer\n  timer: {tick: 0.01, initialIncrement: 0.0007, acceleration: 0.00007}\n")
        let cases: [(given: String, later: String, merged: String?)] = [
            ("fill.timer={tick: 0.02, duration: 2.5}", "fill.timer.duration=1.2", "fill.timer={tick: 0.02, duration: 1.2}"),
            ("fill.timer={tick: 0.02, latency: {dist: constant, value: 0}}", "fill.timer.latency.value=0.004",
             "fill.timer={tick: 0.02, latency: {dist: constant, value: 0.004}}"),
            ("fill={model: timer, timer: {tick: 0.02, duration: 2.5}}", "fill.timer.tick=0.003",
             "fill={model: timer, timer: {tick: 0.003, duration: 2.5}}"),
            // A key the value does not write is added to it; a later value of the same or an enclosing key replaces it.
            ("fill.timer={duration: 2.5}", "fill.timer.tick=0.005", "fill.timer={duration: 2.5, tick: 0.005}"),
            ("fill.timer.tick=0.02", "fill.timer.tick=0.003", "fill.timer.tick=0.003"),
            ("fill.timer.tick=0.02", "fill.timer={tick: 0.003}", "fill.timer={tick: 0.003}"),
            ("haptics.minInterval=0.01", "fill.timer.tick=0.003", nil),
        ]
        for (given, later, merged) in cases {
            let result = try Override(parsing: given).merged(with: try Override(parsing: later))
            #expect(result == merged, "\(given) then \(later)")
            guard let result else { continue }
            // The merged value loads the profile both values give, in order.
            #expect(try load(timer, overrides: [result]).contentHash == load(timer, overrides: [given, later]).contentHash, "\(result)")
        }
        // A scalar a flow indicator would end is quoted, and reads back as itself.
        let curve = try #require(try Override(parsing: "fill={model: animation, curve: \"bezier(0.2,0,0.4,1)\", duration: 0.8}")
            .merged(with: Override(parsing: "fill.duration=0.6")))
        #expect(curve == "fill={model: animation, curve: \"bezier(0.2,0,0.4,1)\", duration: 0.6}")
        #expect(try load(valid, overrides: [curve]).control.fill.model == .animation(curve: try TimingCurve(parsing: "bezier(0.2,0,0.4,1)"), durationSeconds: 0.6))
    }

    @Test("FNV-1a 64 matches its published test vectors")
    func fnv() {
        #expect(fnv1a64Hex("") == "cbf29ce484222325")
        #expect(fnv1a64Hex("a") == "af63dc4c8601ec8c")
        #expect(fnv1a64Hex("foobar") == "85944171f73967e8")
    }
}

@Suite("Profiles: bad input, each with its own message")
struct BadProfileTests {
    static let cases: [(String, String, [String], String)] = [
        ("unknown key", valid + "\ncolour: red", [],
         "p.yaml:14:9: colour: unknown key; allowed here: description, display, fill, gesture, haptics, name, population, retract, source, trigger, version"),
        ("misspelt nested key", replacing("minimumDuration: 1.0", with: "minDuration: 1.0"), [],
         "p.yaml:4:24: gesture.minDuration: unknown key; allowed here: maximumDistance, minimumDuration, movementCancels"),
        ("wrong type", replacing("minimumDuration: 1.0", with: "minimumDuration: soon"), [],
         "p.yaml:4:28: gesture.minimumDuration: must be a number of seconds ≥ 0 (got 'soon')"),
        ("out of range", replacing("refreshRate: 120", with: "refreshRate: 0"), [],
         "p.yaml:13:24: display.refreshRate: must be frames per second from 1 to 1000 (got '0')"),
        ("unknown choice", replacing("source: gesture", with: "source: timer"), [],
         "p.yaml:5:19: trigger.source: unknown value 'timer'; allowed: gesture, fill"),
        ("contradiction: fill trigger without fill", replacing("source: gesture", with: "source: fill")
            .replacingOccurrences(of: "model: animation", with: "model: none"), [],
         "p.yaml:5:19: trigger.source: is fill, but fill.model is none: with no fill the action can only follow the gesture"),
        ("contradiction: spring fill with a duration", replacing("curve: linear", with: "curve: bouncy")
            .replacingOccurrences(of: "duration: match", with: "duration: 1.0"), [],
         "p.yaml:10:13: fill.duration: a spring fill takes its pace from its curve (spring(duration, bounce)); leave duration as match"),
        ("version", replacing("version: 1", with: "version: 2"), [],
         "p.yaml:1:10: version: unsupported schema version 2; this holdlab reads version 1"),
        ("missing description", valid.replacingOccurrences(of: "description: a test profile\n", with: ""), [],
         "p.yaml:1:1: description: is required"),
        ("not YAML", valid + "\n  - [", [], "p.yaml:14:3: not valid YAML: did not find expected key"),
        ("bad distribution parameter", valid, ["fill.timer.latency={dist: lognormal, median: 0.002, sigma: -1}"],
         "--set fill.timer.latency={dist: lognormal, median: 0.002, sigma: -1}: fill.timer.latency: lognormal sigma must be > 0 (got -1.0)"),
        ("unknown distribution", valid, ["fill.timer.latency={dist: cauchy, scale: 1}"],
         "--set fill.timer.latency={dist: cauchy, scale: 1}: fill.timer.latency.dist: unknown distribution 'cauchy'; allowed: constant, uniform, normal, lognormal, gamma, weibull, exponential, exgaussian, loglogistic, mixture"),
        ("unknown distribution parameter", valid, ["fill.timer.latency={dist: exponential, rate: 3}"],
         "--set fill.timer.latency={dist: exponential, rate: 3}: fill.timer.latency.rate: unknown parameter for exponential; allowed: mean"),
        ("unknown curve", valid, ["fill.curve=wobbly"],
         "--set fill.curve=wobbly: fill.curve: timing curve 'wobbly': not recognised; allowed: linear, easeIn, easeOut, easeInOut, ease, bezier(x1,y1,x2,y2), spring(duration,bounce), interpolatingSpring(stiffness,damping), smooth, snappy, bouncy"),
        ("override into a scalar", valid, ["fill.curve.x=1"],
         "--set fill.curve.x=1: cannot set a key inside a scalar (at p.yaml:9:10)"),
        ("override without =", valid, ["fill.curve"], "--set fill.curve: expected key.path=value"),
        // Both values stop the timer: both are named, not the first that happened to create `fill.timer`.
        ("never-completing timer", replacing("model: animation", with: "model: timer"),
         ["fill.timer.initialIncrement=0", "fill.timer.acceleration=0"],
         "--set fill.timer.initialIncrement=0 --set fill.timer.acceleration=0: fill.timer: initialIncrement and acceleration are both 0: the fill would never move"),
        ("duplicate key", replacing("threshold: 0,", with: "threshold: 0, threshold: 1,"), [],
         "p.yaml:12:25: haptics.threshold: given twice (first at line 12, column 11); give it once"),
        ("duplicate key in a --set flow mapping", valid, ["fill.timer.latency={dist: constant, value: 0, value: 1}"],
         "--set fill.timer.latency={dist: constant, value: 0, value: 1}: fill.timer.latency.value: given twice (at column 28 of the value, first at column 18); give it once"),
        ("haptic threshold above 1", replacing("threshold: 0,", with: "threshold: 1.5,"), [],
         "p.yaml:12:22: haptics.threshold: must be a progress step from 0 to 1 (0 = no progress pulses) (got '1.5')"),
        ("non-finite number", replacing("offset: 0", with: "offset: .inf"), [],
         "p.yaml:5:36: trigger.offset: must be a number of seconds, and finite (got '.inf')"),
        // A check across keys that the file passes and the overrides break names the overrides at fault, not the
        // file's unchanged line (exit 64, not 65); one the file fails itself stays the file's.
        ("file: match resolves to a minimumDuration of 0", replacing("minimumDuration: 1.0", with: "minimumDuration: 0"), [],
         "p.yaml:10:13: fill.duration: match resolves to 0 s (gesture.minimumDuration); an animation fill's duration must be at least a nanosecond (1e-9 s) and at most 3600 s: give fill.duration in seconds, or a gesture.minimumDuration from 1e-9 to 3600 s"),
        ("file: match resolves to 0 with fill left out", replacing("minimumDuration: 1.0", with: "minimumDuration: 0")
            .replacingOccurrences(of: "fill:\n  start: touchDown\n  model: animation\n  curve: linear\n  duration: match\n", with: ""), [],
         "p.yaml:4:28: gesture.minimumDuration: is 0 s, which the fill's duration takes (match, the default: no fill.duration is written); an animation fill's duration must be at least a nanosecond (1e-9 s) and at most 3600 s: give a gesture.minimumDuration from 1e-9 to 3600 s, or fill.duration in seconds"),
        ("file's own problem, an unrelated override", replacing("minimumDuration: 1.0", with: "minimumDuration: 0"),
         ["display.refreshRate=60"],
         "p.yaml:10:13: fill.duration: match resolves to 0 s (gesture.minimumDuration); an animation fill's duration must be at least a nanosecond (1e-9 s) and at most 3600 s: give fill.duration in seconds, or a gesture.minimumDuration from 1e-9 to 3600 s"),
        ("override: match resolves to 0", valid, ["gesture.minimumDuration=0"],
         "--set gesture.minimumDuration=0: fill.duration: match resolves to 0 s (gesture.minimumDuration); an animation fill's duration must be at least a nanosecond (1e-9 s) and at most 3600 s: give fill.duration in seconds, or a gesture.minimumDuration from 1e-9 to 3600 s"),
        ("override: an override not at fault is not named", valid, ["display.refreshRate=60", "gesture.minimumDuration=0", "haptics.threshold=0.1"],
         "--set gesture.minimumDuration=0: fill.duration: match resolves to 0 s (gesture.minimumDuration); an animation fill's duration must be at least a nanosecond (1e-9 s) and at most 3600 s: give fill.duration in seconds, or a gesture.minimumDuration from 1e-9 to 3600 s"),
        ("override: action at touch-down", valid, ["gesture.minimumDuration=0", "fill.duration=0.5"],
         "--set gesture.minimumDuration=0 --set fill.duration=0.5: gesture.minimumDuration: fires the action at minimumDuration + trigger.offset = 0.0 s; it must be after touch-down (minimumDuration + offset > 0, or trigger.source: fill)"),
        ("override: the fill completes before recognition", valid, ["trigger.source=fill", "fill.duration=0.5"],
         "--set trigger.source=fill --set fill.duration=0.5: trigger.offset: fires the action at 500 ms (the fill's completion + offset), before the gesture recognises at 1000 ms (gesture.minimumDuration); an action cannot fire before its gesture is recognised: use an offset of at least 0.5 s"),
        ("override: a timer that never completes", replacing("model: animation", with: "model: timer"),
         ["fill.timer.initialIncrement=1e-12", "fill.timer.acceleration=0"],
         "--set fill.timer.initialIncrement=1e-12 --set fill.timer.acceleration=0: fill.timer: the timer never completes the fill within 100000 ticks; raise initialIncrement or acceleration"),
        // The duration form's limit is its tick count, and the advice says so (not the increment's).
        ("override: a timer duration of more ticks than allowed", replacing("model: animation", with: "model: timer"),
         ["fill.timer.duration=1001"],
         "--set fill.timer.duration=1001: fill.timer.duration: needs more than 100000 ticks of 0.01 s (fill.timer.tick) to reach 1001.0 s (about 100100); a Timer fill completes within 100000 ticks: raise fill.timer.tick or shorten fill.timer.duration"),
        // A tick below a nanosecond would never advance the integer clock (and 1e-300 made the tick count trap).
        ("override: a tick below a nanosecond", replacing("model: animation", with: "model: timer"),
         ["fill.timer.tick=1e-300", "fill.timer.duration=1"],
         "--set fill.timer.tick=1e-300: fill.timer.tick: must be a number of seconds of at least a nanosecond (1e-9) and at most 3600 (got 1e-300)"),
        // A duration that rounds to 0 ns would be complete before it starts.
        ("override: a fill shorter than a nanosecond", valid, ["fill.duration=1e-10"],
         "--set fill.duration=1e-10: fill.duration: must be a number of seconds of at least a nanosecond (1e-9) and at most 3600, or match (got 1e-10)"),
        ("override: a spring curve with a duration of its own", valid, ["fill.curve=bouncy", "fill.duration=0.8"],
         "--set fill.curve=bouncy --set fill.duration=0.8: fill.duration: a spring fill takes its pace from its curve (spring(duration, bounce)); leave duration as match"),
        ("override: no fill for the retract to match", replacing("duration: 0.2,", with: "duration: match,"), ["fill.model=none"],
         "--set fill.model=none: retract.duration: is match, but there is no fill duration to match (fill.model is none)"),
        ("override: a timer slower than an hour", replacing("model: animation", with: "model: timer"), ["fill.timer.tick=100"],
         "--set fill.timer.tick=100: fill: the fill would take 16000.0 s to complete; at most 3600 s"),
    ]

    @Test("each bad profile names the file, line, key path and what is allowed", arguments: 0..<cases.count)
    func badProfile(index: Int) {
        let (_, text, overrides, expected) = Self.cases[index]
        #expect(failure(text, overrides: overrides) == expected)
    }
}

@Suite("Profiles: the shipped library")
struct ShippedProfileTests {
    static var library: ProfileLibrary {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return ProfileLibrary(directory: root.appendingPathComponent("Profiles").path)
    }

    @Test("a library lists only the files its names reach: not -.yaml (standard input) nor x.yaml.yaml (a path)")
    func namesThatArePaths() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("holdlab-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("populations"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for stem in ["-", "x.yaml", "ok"] {
            try "version: 1\nname: \"\(stem)\"\ndescription: d\n".write(to: folder.appendingPathComponent("\(stem).yaml"), atomically: true, encoding: .utf8)
            try "".write(to: folder.appendingPathComponent("populations/\(stem).yaml"), atomically: true, encoding: .utf8)
        }
        let library = ProfileLibrary(directory: folder.path)
        #expect(library.profileNames() == ["ok"])
        #expect(library.populationNames() == ["ok"])
    }

    @Test("every shipped profile loads, names itself after its file and says where it comes from")
    func everyProfileLoads() throws {
        let names = Self.library.profileNames()
        #expect(names.count >= 12)
        for name in ["kikocard-accelerating", "hig-linear-ring", "hig-linear-bar", "static-long-press", "mismatched-fill"] {
            #expect(names.contains(name))
        }
        for name in names {
            let profile = try Self.library.loadProfile(name)
            #expect(profile.name == name)
            #expect(!profile.description.isEmpty && !profile.source.isEmpty)
        }
    }

    @Test("a missing profile lists the known ones")
    func missingProfile() {
        #expect(throws: ProfileError.self) { try Self.library.loadProfile("no-such-profile") }
    }
}

@Suite("Profiles: a check across keys, blamed on the value at fault")
struct CrossFieldBlameTests {
    @Test("an override that breaks a check across keys is the command line's problem (its origin is the override)")
    func overrideOrigin() throws {
        for overrides in [["gesture.minimumDuration=0"], ["gesture.minimumDuration=0", "fill.duration=0.5"],
                          ["trigger.source=fill", "fill.duration=0.25"]] {
            do {
                _ = try load(valid, overrides: overrides)
                Issue.record("\(overrides) loaded")
            } catch let error as ProfileError {
                #expect(error.origin.isOverride, "\(overrides): \(error)")
                #expect(Set(error.origin.overrideTexts).isSubset(of: Set(overrides)), "\(error)")
            }
        }
        // The file's own problem stays the file's, whatever else is set.
        do {
            _ = try load(replacing("minimumDuration: 1.0", with: "minimumDuration: 0"), overrides: ["fill.curve=easeIn"])
            Issue.record("loaded")
        } catch let error as ProfileError {
            #expect(!error.origin.isOverride)
            #expect(error.origin == .file(path: "p.yaml", line: 10, column: 13))
        }
    }

    @Test("profiles check: match resolving to a minimumDuration of 0 is one problem, and the check goes on past it")
    func matchIsOneProblem() {
        let file = replacing("minimumDuration: 1.0", with: "minimumDuration: 0")
        let problems = Profile.problems(yaml: file, path: "p.yaml")
        #expect(problems.map(\.description) == [
            "p.yaml:10:13: fill.duration: match resolves to 0 s (gesture.minimumDuration); an animation fill's duration must be at least a nanosecond (1e-9 s) and at most 3600 s: give fill.duration in seconds, or a gesture.minimumDuration from 1e-9 to 3600 s",
        ])
        // A later problem is still found.
        let two = Profile.problems(yaml: file.replacingOccurrences(of: "refreshRate: 120", with: "refreshRate: 0"), path: "p.yaml")
        #expect(two.map(\.keyPath) == ["fill.duration", "display.refreshRate"])
    }

    @Test("profiles check: a problem the default that replaces the key has too is reported once")
    func repeatedProblemOnce() {
        // minimumDuration 0 with offset 0: the default offset (0) fires at touch-down too.
        let file = replacing("minimumDuration: 1.0", with: "minimumDuration: 0").replacingOccurrences(of: "duration: match", with: "duration: 0.5")
        let problems = Profile.problems(yaml: file, path: "p.yaml")
        #expect(problems.map(\.description) == [
            "p.yaml:4:28: gesture.minimumDuration: fires the action at minimumDuration + trigger.offset = 0.0 s; it must be after touch-down (minimumDuration + offset > 0, or trigger.source: fill)",
        ])
    }

    @Test("profiles check: taking a faulty key as absent never reports its absence (a required key, a population's classes)")
    func noProblemOfTheRemovedKey() {
        // A description of the wrong type: one problem, not also "description: is required".
        let listed = Profile.problems(yaml: replacing("description: a test profile", with: "description: [a, b]"), path: "p.yaml")
        #expect(listed.map(\.keyPath) == ["description"], "\(listed.map(\.description))")
        #expect(listed.first?.message.contains("required") == false)
        // Weights summing to 0: one problem at classes, not also "a population needs classes".
        let population = """
            version: 1
            name: p
            classes:
              - {name: a, weight: 0, intent: confirm, behavior: hold, hold: {dist: constant, value: 1}}
              - {name: b, weight: 0, intent: none, behavior: hold, hold: {dist: constant, value: 0.1}}
            """
        let problems = Population.problems(yaml: population, path: "p.yaml")
        #expect(problems.count == 1 && problems.first?.message.contains("sum to a finite number > 0") == true,
                "\(problems.map(\.description))")
    }

    @Test("profiles check with --set: an override's problem is the one problem, named by the override")
    func checkWithOverrides() throws {
        let problems = Profile.problems(yaml: valid, path: "p.yaml", overrides: [try Override(parsing: "gesture.minimumDuration=0")])
        #expect(problems.count == 1)
        #expect(problems.first?.origin == .override("gesture.minimumDuration=0"))
        #expect(Profile.problems(yaml: valid, path: "p.yaml", overrides: [try Override(parsing: "fill.duration=0.5")]).isEmpty)
    }
}
