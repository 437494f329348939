/// Something that happens during a hold, as a trace row names it.
public enum TraceEvent: String, Sendable, CaseIterable {
    case touchDown = "touch_down"
    case recognized
    case fillStart = "fill_start"
    case frame
    case pulse
    case pulseDropped = "pulse_dropped"
    case fillComplete = "fill_complete"
    case trigger
    case completionPulse = "completion_pulse"
    case displayedFull = "displayed_full"
    case release
    case cancel
    case retractEnd = "retract_end"

    /// Order of rows at the same instant: causes before effects. A release at a frame's instant is processed
    /// before that frame renders (touch events come before the display callback), so the frame shows it.
    var rank: Int {
        switch self {
        case .touchDown: 0
        case .recognized: 1
        case .fillStart: 2
        case .fillComplete: 3
        case .trigger: 4
        case .completionPulse: 5
        case .release, .cancel: 6
        case .frame: 7
        case .pulse, .pulseDropped: 8
        case .displayedFull: 9
        case .retractEnd: 10
        }
    }
}

/// One row of a trace: the state of the control at an instant.
public struct TraceRow: Sendable, Equatable {
    /// Seconds after touch-down.
    public var timeSeconds: Double
    /// The model's progress (may leave [0, 1]: spring overshoot, additive retracts).
    public var modelProgress: Double
    /// What the screen shows: the last frame at or before this instant, clamped to [0, 1].
    public var displayedProgress: Double
    /// Pulses played so far, including this row's.
    public var pulses: Int
    public var event: TraceEvent
}

/// A frame-by-frame account of one hold, from touch-down until the fill is back at rest.
public struct HoldTrace: Sendable {
    public var timeline: HeldTimeline
    public var outcome: HoldOutcome
    public var rows: [TraceRow]

    /// The most frames a trace renders (over 4 minutes at 1,000 Hz), so a pathological profile cannot run away.
    public static let maximumFrames = 250_000

    /// Traces one hold.
    ///
    /// - Parameters:
    ///   - evaluator: the control to trace.
    ///   - framePhase: fraction of a frame interval from touch-down to the first frame.
    ///   - pressEndTime: when the finger lifts (or movement cancels); nil holds until the action has fired and
    ///     the fill has completed, then 0.25 s more.
    ///   - cancelled: the press ends by movement instead of a release.
    ///   - latencies: Timer tick latencies.
    public init<Latencies: TickLatencySource>(
        evaluator: HoldEvaluator, framePhase: Double, pressEndTime: Double?, cancelled: Bool = false,
        latencies: inout Latencies
    ) {
        let timeline = evaluator.hold(framePhase: framePhase, latencies: &latencies)
        let end = pressEndTime ?? Self.defaultPressEnd(timeline)
        let outcome = evaluator.resolve(pressEndTime: end, cancelled: cancelled)
        self.timeline = timeline
        self.outcome = outcome

        var events: [(time: Double, event: TraceEvent)] = [(0, .touchDown)]
        if timeline.recognitionTime <= end {
            events.append((timeline.recognitionTime, .recognized))
        }
        if let start = timeline.fillStartTime, start <= end { events.append((start, .fillStart)) }
        for (time, played) in evaluator.requestedPulses where time <= end {
            events.append((time, played ? .pulse : .pulseDropped))
        }
        if let complete = timeline.fillCompleteTime,
           complete <= end || (outcome.completed && evaluator.prepared.control.retract.afterTrigger == .stay) {
            events.append((complete, .fillComplete))
        }
        if outcome.completed, let trigger = timeline.triggerTime {
            events.append((trigger, .trigger))
            if evaluator.prepared.control.haptics.onComplete {
                // A progress pulse at the same instant is the completion pulse (one pulse is felt, not two).
                let merged = evaluator.requestedPulses.contains { $0.played && abs($0.time - trigger) <= 1e-9 }
                if !merged { events.append((trigger, .completionPulse)) }
            }
        }
        events.append((end, cancelled ? .cancel : .release))
        if outcome.retractSeconds != nil { events.append((outcome.restTime, .retractEnd)) }

        // Frames from touch-down to the first frame at or after the fill comes to rest.
        let control = evaluator.prepared.control
        let clock = FrameClock(refreshRateHz: control.display.refreshRateHz, phase: framePhase)
        let lastFrame = min(clock.firstFrame(atOrAfter: max(outcome.restTime, end)), Self.maximumFrames)
        let fullLevel = 1 - control.display.resolution
        var sawFull = false
        for index in 0...lastFrame {
            let time = clock.time(ofFrame: index)
            events.append((time, .frame))
            if !sawFull && HoldEvaluator.displayed(evaluator.progress(at: time)) >= fullLevel {
                sawFull = true
                events.append((time, .displayedFull))
            }
        }
        events.sort { ($0.time, $0.event.rank) < ($1.time, $1.event.rank) }

        var rows: [TraceRow] = []
        rows.reserveCapacity(events.count)
        var shown = 0.0
        var pulses = 0
        for (time, event) in events {
            let progress = evaluator.progress(at: time)
            if event == .frame { shown = HoldEvaluator.displayed(progress) }
            if event == .pulse || event == .completionPulse { pulses += 1 }
            rows.append(TraceRow(
                timeSeconds: time, modelProgress: progress, displayedProgress: shown, pulses: pulses, event: event))
        }
        self.rows = rows
    }

    /// Holds until the action has fired and the fill has completed (or looks full), then 0.25 s more.
    static func defaultPressEnd(_ timeline: HeldTimeline) -> Double {
        let landmarks = [timeline.triggerTime, timeline.fillCompleteTime, timeline.firstFullFrameTime,
                         timeline.recognitionTime]
        return (landmarks.compactMap { $0 }.max() ?? 0) + 0.25
    }
}
