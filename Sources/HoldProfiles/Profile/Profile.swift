import GSL
import HoldModel

/// A control profile, schema version 1: the control plus what the simulation needs around it.
public struct Profile: Sendable {
    /// The schema version this build reads.
    public static let schemaVersion = 1

    public var name: String
    public var description: String
    /// Where the design comes from (a seed article, a peer component).
    public var source: String
    public var control: Control
    /// Lateness of each Timer tick in seconds (negative draws count as 0: a Timer never fires early).
    public var timerLatency: Distribution
    /// The population simulated against this control unless the command line names another.
    public var population: String
    /// Whether `fill.duration` was `match` (kept so the canonical form says so).
    public var fillDurationMatchesGesture: Bool
    /// Whether `retract.duration` was `match`.
    public var retractDurationMatches: Bool
    /// How the control draws its progress (`display.indicator`): only `holdlab preview` reads it; the model is the
    /// same for every shape.
    public var indicator: Indicator = .bar
    /// Where `population` is written (the profile's line, or the `--set` that gave it); nil when the key is absent.
    /// Not part of the profile's content: an unknown population is reported here, not in the population folder.
    public var populationOrigin: Origin? = nil
    /// The tree it was read from (its file with the overrides applied), keys without effect included (a
    /// `fill.duration` under `fill.model: none`): `applying(_:)` changes what the user wrote, not the canonical form,
    /// which leaves such keys out. Not part of the profile's content.
    var sourceTree: ConfigNode? = nil

    /// The shape of the progress indicator.
    public enum Indicator: String, Sendable, Hashable, CaseIterable {
        /// A horizontal bar filling from the left.
        case bar
        /// A ring trimming clockwise from twelve o'clock (SwiftUI `Circle().trim(from: 0, to: progress)`).
        case ring
    }

    /// This profile with one more override, applied to what it was read from (`sourceTree`), so that a key without
    /// effect here takes effect as it would in the user's file (`check`'s fix `fill.model=animation` then uses the
    /// file's `fill.duration`); to the canonical form for a profile built otherwise.
    public func applying(_ override: Override) throws(ProfileError) -> Profile {
        guard let tree = sourceTree else {
            return try Self.load(yaml: canonicalYAML, path: name, overrides: [override])
        }
        let changed = try tree.applying(override)
        var profile = try Self.validated(changed)
        profile.sourceTree = changed
        return profile
    }

    /// This profile with one more override where it leaves keys that some of the command line's `--set`s gave
    /// without effect (`retract.mode=instant` beside `--set retract.duration=0.3`): applied as `applying(_:)`,
    /// and where refused only because such a key has no effect, applied again with those `--set`s' values taken as
    /// the file's own. A key without effect changes nothing, so the profile is the one the override makes in place
    /// of those `--set`s.
    ///
    /// - Parameter given: the `--set` texts this profile was loaded with (others are never set aside).
    /// - Returns: the profile, and the `--set`s the override takes the place of (empty when none).
    public func applying(_ override: Override, settingAside given: [String]) throws(ProfileError) -> (Profile, [String]) {
        var aside: [String] = []
        while true {
            do {
                guard let tree = sourceTree, !aside.isEmpty else { return (try applying(override), []) }
                let changed = try tree.settingAside(Set(aside)).applying(override)
                var profile = try Self.validated(changed)
                profile.sourceTree = changed
                return (profile, aside)
            } catch {
                // Only a value the command line gave that this override leaves without effect, once each.
                guard sourceTree != nil, error.withoutEffect, case .override(let text) = error.origin,
                      text != override.text, given.contains(text), !aside.contains(text) else { throw error }
                aside.append(text)
            }
        }
    }

    /// The profile without its `sourceTree`: for the many profiles of a sweep, which never apply a fix.
    public func withoutSource() -> Profile {
        var profile = self
        profile.sourceTree = nil
        return profile
    }

    /// The control, validated and precomputed.
    public func prepared() throws(ControlError) -> PreparedControl { try PreparedControl(control) }
}

extension Profile {
    /// Loads a profile from YAML text, applying `overrides` before validation.
    ///
    /// A problem the file alone does not have is the overrides': it names the ones at fault (`--set
    /// gesture.minimumDuration=0: fill.duration: …`, exit 64) instead of the file's unchanged line, also when a check
    /// across keys fails at a key no override sets (`ProfileError.blaming`).
    ///
    /// - Parameter path: the file name used in error messages.
    public static func load(yaml text: String, path: String, overrides: [Override] = []) throws(ProfileError) -> Profile {
        do {
            let tree = try parse(yaml: text, path: path, overrides: overrides)
            var profile = try validated(tree)
            profile.sourceTree = tree
            return profile
        } catch {
            throw ProfileError.blaming(error, among: overrides, everyProblem: { problems(yaml: text, path: path) },
                                       written: { ConfigNode.writtenScalar(text, path: path, at: $0) }) {
                subset throws(ProfileError) in
                _ = try validated(try parse(yaml: text, path: path, overrides: subset))
            }
        }
    }

    /// The YAML tree with the overrides applied.
    static func parse(yaml text: String, path: String, overrides: [Override]) throws(ProfileError) -> ConfigNode {
        var root = try ConfigNode.parse(text, path: path)
        for override in overrides { root = try root.applying(override) }
        return root
    }

    /// The profile a tree describes, checked: schema, values, the control's own rules, the cross-field rule.
    static func validated(_ root: ConfigNode) throws(ProfileError) -> Profile {
        let profile = try decode(root)
        let nominalFill: Double?
        do {
            nominalFill = try PreparedControl.nominalFillSeconds(validating: profile.control)
        } catch {
            if error.keyPath == "fill.duration", profile.fillDurationMatchesGesture,
               case .animation(_, let seconds) = profile.control.fill.model {
                // The duration is `match`: the value at fault is the gesture's, which alone may be 0. Blamed on
                // fill.duration where it is written, else on the gesture's own line (not on an absent key at 1:1).
                let limits = "an animation fill's duration must be at least a nanosecond (1e-9 s) and at most "
                    + "\(Int(PreparedControl.maximumSeconds)) s"
                let gesture = "a gesture.minimumDuration from 1e-9 to \(Int(PreparedControl.maximumSeconds)) s"
                if root.hasKeyPath("fill.duration") {
                    throw ProfileError(
                        origin: root.origin(ofKeyPath: "fill.duration"), keyPath: "fill.duration",
                        message: "match resolves to \(seconds.shortText) s (gesture.minimumDuration); \(limits): give "
                            + "fill.duration in seconds, or \(gesture)",
                        setAside: "gesture.minimumDuration")
                }
                throw ProfileError(
                    origin: root.origin(ofKeyPath: "gesture.minimumDuration"), keyPath: "gesture.minimumDuration",
                    message: "is \(seconds.shortText) s, which the fill's duration takes (match, the default: no "
                        + "fill.duration is written); \(limits): give \(gesture), or fill.duration in seconds",
                    setAside: "gesture.minimumDuration")
            }
            throw ProfileError(origin: root.origin(ofKeyPath: error.keyPath), keyPath: error.keyPath, message: error.message)
        }
        if let problem = actionBeforeRecognition(profile.control, nominalFillSeconds: nominalFill) {
            throw ProfileError(origin: root.origin(ofKeyPath: "trigger.offset"), keyPath: "trigger.offset", message: problem)
        }
        return profile
    }

    /// The cross-field rule: the action belongs to the gesture, so it cannot fire before the gesture recognises.
    ///
    /// The action fires at minimumDuration + offset (`trigger.source: gesture`) or when the fill completes + offset
    /// (`fill`: the fill starts at touch-down or at recognition, plus `fill.delay`, and completes at the earliest
    /// after its nominal duration: a Timer's ticks are only ever late). That time must not be before
    /// `gesture.minimumDuration`. Returns why not, or nil when the rule holds.
    static func actionBeforeRecognition(_ control: Control, nominalFillSeconds: Double?) -> String? {
        // On the engine's clock: each time rounded to the nanosecond as `HoldEvaluator` takes it, then added
        // exactly, so 0.4 + 0.6 is 1.0 and an offset of −1e-9 s fires 1 ns before recognition, as trace shows.
        let ns = Instant.nanoseconds
        let recognition = ns(control.gesture.minimumDurationSeconds)
        let offset = ns(control.trigger.offsetSeconds)
        let earliest: Int64
        switch control.trigger.source {
        case .gesture:
            earliest = recognition + offset
        case .fill:
            guard let nominal = nominalFillSeconds else { return nil }
            let start = (control.fill.start == .touchDown ? 0 : recognition) + ns(control.fill.delaySeconds)
            earliest = start + ns(nominal) + offset
        }
        guard earliest < recognition else { return nil }
        let source = control.trigger.source == .gesture ? "minimumDuration + offset" : "the fill's completion + offset"
        return "fires the action at \(milliseconds(Instant.seconds(earliest))) ms (\(source)), before the gesture recognises at "
            + "\(milliseconds(Instant.seconds(recognition))) ms (gesture.minimumDuration); an action cannot fire before its gesture is "
            + "recognised: use an offset of at least \(Instant.seconds(offset + recognition - earliest).shortText) s"
    }

    /// Milliseconds to the nanosecond, the clock's resolution.
    private static func milliseconds(_ seconds: Double) -> String {
        let value = (seconds * 1e9).rounded() / 1e6
        return value.shortText
    }

    static func decode(_ root: ConfigNode) throws(ProfileError) -> Profile {
        var top = try MappingReader(root, keyPath: "")
        let version = try top.number("version", requirement: "the schema version, 1")
        guard version == Double(schemaVersion) else {
            throw top.error("version", "unsupported schema version \(version.shortText); this holdlab reads version \(schemaVersion)")
        }
        let name = try top.string("name")
        guard LibraryName.isValid(name) else { throw top.error("name", LibraryName.rule(name)) }
        let description = try top.string("description")
        let source = try top.string("source", default: "")
        let populationOrigin = top.contains("population") ? top.origin(of: "population") : nil
        let population = try top.string("population", default: "default")

        var control = Control()
        var indicator = Indicator.bar
        // Where gesture.minimumDuration is written: at 0 the gesture recognises at touch-down, and keys that read the
        // recognition are moot under it.
        var recognisedAtTouchDown: Origin?
        if let node = top.node("gesture") {
            var g = try MappingReader(node, keyPath: "gesture")
            control.gesture.minimumDurationSeconds = try g.number(
                "minimumDuration", default: 0.5, requirement: "a number of seconds ≥ 0", where: { $0 >= 0 })
            if control.gesture.minimumDurationSeconds == 0 { recognisedAtTouchDown = g.origin(of: "minimumDuration") }
            control.gesture.maximumDistancePoints = try g.number(
                "maximumDistance", default: 10, requirement: "a number of points > 0", where: { $0 > 0 })
            control.gesture.movementCancels = try g.choice("movementCancels", default: .always)
            // Movement that never cancels reads no distance: another than the default (which the canonical form
            // writes out) is refused, unless a --set chose `never` under the file's; then it is moot and dropped.
            if control.gesture.movementCancels == .never {
                if control.gesture.maximumDistancePoints != 10 {
                    try g.refuseWithoutEffect("maximumDistance", besides: "movementCancels",
                        "has no effect with movementCancels: never, where no movement cancels the hold; it is for always or untilRecognized")
                }
                control.gesture.maximumDistancePoints = 10
            }
            // Movement that cancels until recognition, with recognition at touch-down, cancels nothing: the distance
            // is moot (0.3.17 took 5 and 50 with byte-identical rows), dropped under a --set of minimumDuration 0.
            if control.gesture.movementCancels == .untilRecognized, let atZero = recognisedAtTouchDown {
                // Two causes: a --set of either makes a file's distance moot (dropped), as one cause's --set does.
                let cancels = g.contains("movementCancels") ? g.origin(of: "movementCancels") : nil
                let cause = cancels?.isOverride == true ? cancels! : atZero
                if control.gesture.maximumDistancePoints != 10 {
                    try g.refuseWithoutEffect("maximumDistance", causeOrigin: cause,
                        "has no effect with minimumDuration 0 under movementCancels: untilRecognized: the gesture recognises at "
                        + "touch-down, so no movement cancels the hold; it is for a minimumDuration above 0 or movementCancels: always")
                }
                control.gesture.maximumDistancePoints = 10
            }
            try g.finish()
        }
        if let node = top.node("trigger") {
            var t = try MappingReader(node, keyPath: "trigger")
            control.trigger.source = try t.choice("source", default: .gesture)
            control.trigger.offsetSeconds = try t.number("offset", default: 0, requirement: "a number of seconds")
            try t.finish()
        }

        var latency = Distribution.zeroLatency
        var fillMatches = true
        let fillNode = top.node("fill")
        if let node = fillNode {
            (latency, fillMatches) = try FillSchema.decode(node, into: &control, recognisedAtTouchDown: recognisedAtTouchDown)
        } else {
            control.fill.model = .animation(curve: .linear, durationSeconds: control.gesture.minimumDurationSeconds)
        }

        var retractMatches = false
        if let node = top.node("retract") {
            var r = try MappingReader(node, keyPath: "retract")
            control.retract.mode = try r.choice("mode", default: .animation)
            control.retract.curve = try r.curve("curve", default: .easeOut)
            let explicitDuration = r.contains("duration")
            // A spring retract animation takes its pace from its curve: its duration is match, never the 0.2 s a
            // timing curve's takes, so that the canonical YAML (`duration: match`) loads back.
            let springPaced = control.retract.curve.isSpringCurve && control.retract.mode == .animation
            control.retract.durationSeconds = try r.numberOrMatch(
                "duration", default: control.retract.mode == .reverse || springPaced ? nil : 0.2,
                requirement: "a number of seconds > 0", where: { $0 > 0 })
            if explicitDuration, control.retract.curve.isSpringCurve, control.retract.mode == .animation,
               control.retract.durationSeconds != nil {
                // Moot, not refused, when a --set chose the spring over the file's duration.
                try r.refuseWithoutEffect("duration", besides: "curve",
                                          "a spring retract takes its pace from its curve; leave duration as match")
                control.retract.durationSeconds = nil
            }
            retractMatches = control.retract.durationSeconds == nil
            control.retract.interruption = try r.choice("interruption", default: .swiftui)
            control.retract.afterTrigger = try r.choice("afterTrigger", default: .stay)
            // What a mode does not read would be silently ignored: an instant retract empties the bar on the next
            // frame (no curve, duration or interruption rule), a reverse one plays the fill backwards over its
            // duration (no curve or interruption rule). Values other than the defaults (which the canonical form
            // writes out) are refused, unless a --set changed the mode under the file's keys; then they are moot and
            // dropped, so that the resolved profile (`profiles show`, tune's emitted profile) loads back.
            let mode = control.retract.mode
            if mode != .animation {
                let unread: [(key: String, present: Bool, why: String)] = [
                    ("curve", control.retract.curve != .easeOut, "it is for mode animation"),
                    ("duration", mode == .instant && explicitDuration && control.retract.durationSeconds.map { $0 != 0.2 } ?? false,
                     "it is for mode animation or reverse"),
                    ("interruption", control.retract.interruption != .swiftui, "it is for mode animation"),
                ]
                let what = mode == .instant ? "an instant retract (mode: instant), which empties the bar on the next frame"
                    : "a reverse retract (mode: reverse), which plays the fill backwards over its duration"
                for (key, present, why) in unread where present {
                    try r.refuseWithoutEffect(key, besides: "mode", "has no effect on \(what); \(why)")
                }
                control.retract.curve = .easeOut
                control.retract.interruption = .swiftui
                if mode == .instant, control.retract.durationSeconds != nil { control.retract.durationSeconds = 0.2 }
            } else if control.retract.interruption != .swiftui {
                // How a retract animation combines with a running fill is a timing curve's question: a spring
                // merges with the fill keeping position and velocity, and a Timer fill's retract runs from the
                // progress its ticks reached (both read no rule).
                var unread: (cause: Origin?, why: String)?
                if control.retract.curve.isSpringCurve {
                    unread = (r.contains("curve") ? r.origin(of: "curve") : nil,
                              "has no effect on a spring retract, which merges with the fill keeping position and velocity; it is for timing curves")
                } else if case .timer = control.fill.model {
                    unread = (fillNode?.node(atKeyPath: "model")?.origin,
                              "has no effect with a Timer fill (fill.model timer), whose retract runs from the progress its ticks reached; it is for animated fills")
                }
                if let unread {
                    try r.refuseWithoutEffect("interruption", causeOrigin: unread.cause, unread.why)
                    control.retract.interruption = .swiftui
                }
            }
            if case .none = control.fill.model {
                // No fill, nothing to retract: a value that says something would be silently ignored (a sweep of it
                // would give the same rows at every point). The defaults, and an instant mode (the empty bar stays
                // empty), say nothing and pass; a --set of the mode is refused whatever its value.
                let modeSet = r.contains("mode") && r.origin(of: "mode").isOverride
                let unread: [(key: String, present: Bool)] = [
                    ("mode", control.retract.mode == .reverse || modeSet),
                    ("curve", control.retract.curve != .easeOut),
                    ("duration", control.retract.durationSeconds.map { $0 != 0.2 } ?? false),
                    ("interruption", control.retract.interruption != .swiftui),
                    ("afterTrigger", control.retract.afterTrigger != .stay),
                ]
                let cause = fillNode?.node(atKeyPath: "model")?.origin
                for (key, present) in unread where present {
                    try r.refuseWithoutEffect(key, causeOrigin: cause,
                                              "has no effect: fill.model none draws no fill, so nothing retracts")
                }
                // Moot under a --set of the model: the defaults, so that the resolved profile loads back.
                // (A reverse mode's implied match goes with it; a written match is refused below: nothing to match.)
                if control.retract.mode == .reverse {
                    control.retract.mode = .animation
                    if !explicitDuration { control.retract.durationSeconds = 0.2 }
                }
                control.retract.curve = .easeOut
                if control.retract.durationSeconds != nil { control.retract.durationSeconds = 0.2 }
                control.retract.interruption = .swiftui
                control.retract.afterTrigger = .stay
            }
            try r.finish()
        }
        if let node = top.node("haptics") {
            var h = try MappingReader(node, keyPath: "haptics")
            control.haptics.threshold = try h.number(
                "threshold", default: 0, requirement: "a progress step from 0 to 1 (0 = no progress pulses)",
                where: { $0 >= 0 && $0 <= 1 })
            control.haptics.minIntervalSeconds = try h.number(
                "minInterval", default: 0, requirement: "a number of seconds ≥ 0", where: { $0 >= 0 })
            control.haptics.onComplete = try h.bool("onComplete", default: false)
            control.haptics.actuatorMinIntervalSeconds = try h.number(
                "actuatorMinInterval", default: Haptics.defaultActuatorMinIntervalSeconds,
                requirement: "a number of seconds from 0 to 1 (an assumption about the device)", where: { $0 >= 0 && $0 <= 1 })
            // What makes the threshold what it is: its own key, or a model that leaves it at 0 (below).
            var thresholdCause = h.contains("threshold") ? h.origin(of: "threshold") : nil
            if case .none = control.fill.model, control.haptics.threshold != 0 {
                // No fill, no progress to cross a step: the pulses would silently never come.
                try h.refuseWithoutEffect("threshold", causeOrigin: fillNode?.node(atKeyPath: "model")?.origin,
                                          "has no effect: fill.model none draws no fill, so no progress crosses a step; onComplete pulses when the action fires")
                control.haptics.threshold = 0
                thresholdCause = fillNode?.node(atKeyPath: "model")?.origin
            }
            if control.haptics.threshold == 0, control.haptics.minIntervalSeconds != 0 {
                // Without progress pulses a hold plays at most one pulse (onComplete's): no interval to keep. (The
                // actuator's interval describes the device, not the control: a study sets it across designs.)
                try h.refuseWithoutEffect("minInterval", causeOrigin: thresholdCause,
                                          "has no effect: with threshold 0 a hold plays at most one pulse (onComplete's), so there is no interval between pulses to keep; it is for a threshold above 0")
                // Moot under a --set of the threshold (or the model): the default, so that the resolved profile loads back.
                control.haptics.minIntervalSeconds = 0
            }
            try h.finish()
        }
        if let node = top.node("display") {
            var d = try MappingReader(node, keyPath: "display")
            control.display.refreshRateHz = try d.number(
                "refreshRate", default: 120, requirement: "frames per second from 1 to 1000", where: { $0 >= 1 && $0 <= 1000 })
            control.display.resolution = try d.number(
                "resolution", default: 0.001, requirement: "a progress above 0 and below 0.5", where: { $0 > 0 && $0 < 0.5 })
            indicator = try d.choice("indicator", default: .bar)
            if case .none = control.fill.model, control.display.resolution != 0.001 {
                // No fill, nothing drawn to look started or full. (The refresh rate describes the device, not the
                // control: a study sets it across designs.)
                try d.refuseWithoutEffect("resolution", causeOrigin: fillNode?.node(atKeyPath: "model")?.origin,
                                          "has no effect: fill.model none draws no fill, so no progress is drawn at any resolution")
                control.display.resolution = 0.001
            }
            try d.finish()
        }
        try top.finish()
        return Profile(
            name: name, description: description, source: source, control: control, timerLatency: latency,
            population: population, fillDurationMatchesGesture: fillMatches, retractDurationMatches: retractMatches,
            indicator: indicator, populationOrigin: populationOrigin)
    }
}

extension TimingCurve {
    var isSpringCurve: Bool {
        if case .spring = self { return true }
        return false
    }
}

extension Distribution {
    /// Timer ticks exactly on schedule.
    static var zeroLatency: Distribution {
        (try? Distribution(family: "constant", parameters: ["value": 0])) ?? .constant(value: 0)
    }
}

extension ConfigNode {
    /// The node at a dotted key path; nil when a key on the way is missing.
    func node(atKeyPath keyPath: String) -> ConfigNode? {
        var node = self
        for key in keyPath.split(separator: ".") {
            guard case .mapping(let pairs, _) = node, let next = pairs.first(where: { $0.key == key })?.value else { return nil }
            node = next
        }
        return node
    }

    /// Whether the tree writes `keyPath` (a file's key or a --set's).
    func hasKeyPath(_ keyPath: String) -> Bool { node(atKeyPath: keyPath) != nil }

    /// The origin of the deepest node along a dotted key path (for errors found after decoding).
    func origin(ofKeyPath keyPath: String) -> Origin {
        var node = self
        for key in keyPath.split(separator: ".") {
            guard case .mapping(let pairs, _) = node, let next = pairs.first(where: { $0.key == key })?.value else { break }
            node = next
        }
        return node.origin
    }
}

extension Double {
    /// Shortest text that reads back as the same number ("1.0" prints as "1").
    public var shortText: String {
        if self == rounded(), abs(self) < 1e15 { return String(Int64(self)) }
        return "\(self)"
    }
}
