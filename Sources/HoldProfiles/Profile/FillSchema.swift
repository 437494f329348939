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
    static func decode(_ node: ConfigNode, into control: inout Control)
        throws(ProfileError) -> (timerLatency: Distribution, durationMatches: Bool)
    {
        var latency = Distribution.zeroLatency
        var f = try MappingReader(node, keyPath: "fill")
        control.fill.start = try f.choice("start", default: .touchDown)
        control.fill.delaySeconds = try f.number(
            "delay", default: 0, requirement: "a number of seconds ≥ 0", where: { $0 >= 0 })
        let model = try f.choice("model", default: ModelName.animation)
        let curve = try f.curve("curve", default: .linear)
        let duration = try f.numberOrMatch(
            "duration", default: nil, requirement: "a number of seconds > 0", where: { $0 > 0 })
        if curve.isSpringCurve, duration != nil, model == .animation {
            throw f.error("duration", "a spring fill takes its pace from its curve (spring(duration, bounce)); leave duration as match")
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
            }
            latency = try t.distribution("latency", default: latency)
            try t.finish()
        }
        switch model {
        case .animation:
            control.fill.model = .animation(
                curve: curve, durationSeconds: duration ?? control.gesture.minimumDurationSeconds)
        case .timer:
            control.fill.model = .timer(timer)
        case .none:
            control.fill.model = .none
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
