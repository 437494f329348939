import GSL
import HoldLabIO
import HoldModel

/// The `fill` section of a profile (schema version 1): how each fill model is read and written back, in one place.
///
/// A new fill model (HoldModel, `Fill/FillModels.swift`) gets its `fill.model` name here, a branch in `decode` that
/// builds its `Fill.Model`, a branch in `canonicalLines` that prints it back, and its preview caption
/// (`Fill.Model.caption`).
enum FillSchema {
    /// The `fill.model` names.
    enum ModelName: String, CaseIterable {
        case animation, timer, none
    }

    /// Reads the `fill` mapping into `control.fill`; returns the Timer's latency distribution (`fill.timer.latency`,
    /// constant 0 unless given) and whether `fill.duration` was `match`.
    ///
    /// - Parameter recognisedAtTouchDown: where `gesture.minimumDuration: 0` is written (nil for a longer gesture):
    ///   the gesture then recognises at touch-down, and `start: recognized` is `touchDown`.
    static func decode(_ node: ConfigNode, into control: inout Control, recognisedAtTouchDown: Origin? = nil)
        throws(ProfileError) -> (timerLatency: Distribution, durationMatches: Bool)
    {
        var latency = Distribution.zeroLatency
        var f = try MappingReader(node, keyPath: "fill")
        control.fill.start = try f.choice("start", default: .touchDown)
        // 0.3.17 took `start: recognized` under minimumDuration 0 with rows byte-identical to touchDown's; dropped
        // under a --set of minimumDuration 0.
        if control.fill.start == .recognized, let cause = recognisedAtTouchDown {
            try f.refuseWithoutEffect("start", causeOrigin: cause,
                "recognized has no effect with gesture.minimumDuration 0: the gesture recognises at touch-down, so the fill "
                + "starts there either way; leave it out or as touchDown")
            control.fill.start = .touchDown
        }
        control.fill.delaySeconds = try f.number(
            "delay", default: 0, requirement: "a number of seconds ≥ 0", where: { $0 >= 0 })
        let model = try f.choice("model", default: ModelName.animation)
        let curve = try f.curve("curve", default: .linear)
        var duration = try f.numberOrMatch(
            "duration", default: nil, requirement: "a number of seconds > 0", where: { $0 > 0 })
        if curve.isSpringCurve, duration != nil, model == .animation {
            // Moot, not refused, when a --set chose the spring over the file's duration.
            try f.refuseWithoutEffect("duration", besides: "curve",
                                      "a spring fill takes its pace from its curve (spring(duration, bounce)); leave duration as match")
            duration = nil
        }
        var timer = TimerFill()
        if let timerNode = f.node("timer") {
            var t = try MappingReader(timerNode, keyPath: "fill.timer")
            timer.tickSeconds = try t.number("tick", default: timer.tickSeconds, requirement: "a number of seconds > 0", where: { $0 > 0 })
            timer.initialIncrement = try t.number(
                "initialIncrement", default: timer.initialIncrement, requirement: "a progress step ≥ 0", where: { $0 >= 0 })
            timer.acceleration = try t.number(
                "acceleration", default: timer.acceleration, requirement: "a progress step ≥ 0", where: { $0 >= 0 })
            if t.contains("duration") {
                timer.durationSeconds = try t.number(
                    "duration", default: 1, requirement: "a number of seconds > 0", where: { $0 > 0 })
                // The duration form replaces the increments: written beside it they would be silently ignored.
                for other in ["initialIncrement", "acceleration"] where t.contains(other) {
                    try t.refuseWithoutEffect(other, besides: "duration",
                        "has no effect beside fill.timer.duration (seed 004's form: progress = elapsed / duration), which "
                            + "sets the pace; give one form: duration, or initialIncrement and acceleration")
                }
            }
            latency = try t.distribution("latency", default: latency)
            try t.finish()
        }
        // A key the model does not read is refused rather than silently ignored (a "2 s Timer fill" that runs the
        // Timer's own pace), unless a --set changed the model under the file's keys (check's suggested
        // `--set fill.model=animation`: the file's Timer section then has nothing to say). The defaults written out
        // (`curve: linear`, `duration: match`, a timer section of defaults only) say nothing either way and pass.
        let timerSays = f.contains("timer") && (timer != TimerFill() || latency != Distribution.zeroLatency)
        let unread: [(key: String, present: Bool, why: String)]
        switch model {
        case .animation:
            unread = [("timer", timerSays, "is for fill.model timer; an animation takes its pace from duration and curve")]
        case .timer:
            unread = [
                ("curve", curve != .linear, "has no effect on a Timer fill, whose progress follows its ticks (fill.timer); it is for fill.model animation"),
                ("duration", duration != nil, "has no effect on a Timer fill, which takes its pace from fill.timer (tick with initialIncrement and acceleration, or timer.duration); leave it out or as match"),
            ]
        case .none:
            unread = [
                ("curve", curve != .linear), ("duration", duration != nil), ("timer", timerSays),
                ("start", control.fill.start != .touchDown), ("delay", control.fill.delaySeconds != 0),
            ].map { key, present in
                (key, present, "has no effect: fill.model none draws no fill")
            }
        }
        for (key, present, why) in unread where present {
            try f.refuseWithoutEffect(key, besides: "model", why)
        }
        switch model {
        case .animation:
            control.fill.model = .animation(
                curve: curve, durationSeconds: duration ?? control.gesture.minimumDurationSeconds)
        case .timer:
            control.fill.model = .timer(timer)
        case .none:
            control.fill.model = .none
            // Moot under a --set that chose no fill (refused otherwise): the resolved profile writes the defaults.
            control.fill.start = .touchDown
            control.fill.delaySeconds = 0
        }
        try f.finish()
        return (latency, duration == nil)
    }

    /// The canonical lines of `fill.model` and what belongs to it, after `start` and `delay` (see
    /// `Profile.canonicalYAML`).
    static func canonicalLines(_ model: Fill.Model, durationMatches: Bool, timerLatency: Distribution) -> [String] {
        switch model {
        case .animation(let curve, let duration):
            return ["  model: animation", "  curve: \(curve)",
                    "  duration: \(durationMatches ? "match" : duration.shortText)"]
        case .timer(let timer):
            let pace = timer.durationSeconds.map { "duration: \($0.shortText)" }
                ?? "initialIncrement: \(timer.initialIncrement.shortText), acceleration: \(timer.acceleration.shortText)"
            return ["  model: timer",
                    "  timer: {tick: \(timer.tickSeconds.shortText), \(pace), latency: \(timerLatency)}"]
        case .none:
            return ["  model: none"]
        }
    }
}

extension Fill.Model {
    /// The fill in a few words, as `holdlab preview` captions a design ("fill easeInOut 0.80 s").
    public var caption: String {
        func fixed(_ value: Double, _ decimals: Int) -> String {
            let text = CSV.number(value, decimals: decimals)
            return text.hasPrefix("-") && Double(text) == 0 ? String(text.dropFirst()) : text
        }
        switch self {
        case .animation(let curve, let duration):
            return "fill \(curve) \(fixed(duration, 2)) s"
        case .timer(let timer):
            return "Timer fill every \(fixed(timer.tickSeconds * 1000, 0)) ms"
        case .none:
            return "no fill"
        }
    }
}
