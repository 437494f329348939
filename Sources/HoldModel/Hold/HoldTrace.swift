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
    case completionPulseDropped = "completion_pulse_dropped"
    case displayedFull = "displayed_full"
    case displayedEmpty = "displayed_empty"
    case release
    case cancel
    case retractEnd = "retract_end"

    /// Order of rows at the same instant: causes before effects. The gesture, the fill's clock, the trigger and a
    /// release (or a Timer tick) at a frame's instant are processed before that frame renders, so the frame shows
    /// them; pulses requested on a frame follow it, and a Timer fill's progress pulses (`onTicks`: requested by its
    /// ticks, which advance it) come with their tick, before the fill's completion, the trigger, a release and the
    /// frame (0.3.17 listed them after the frame, whose pulse count was then one short). `simulate` applies the same
    /// order: a release at the trigger's instant still completes, a Timer pulse at a release's instant is felt, a
    /// movement cancel at the recognition instant comes after the recognition.
    func rank(onTicks: Bool) -> Int {
        switch self {
        case .touchDown: 0
        case .recognized: 10
        case .fillStart: 20
        case .pulse, .pulseDropped: onTicks ? 25 : 80
        case .fillComplete: 30
        case .trigger: 40
        case .completionPulse, .completionPulseDropped: 50
        case .release, .cancel: 60
        case .frame: 70
        case .displayedFull, .displayedEmpty: 90
        case .retractEnd: 100
        }
    }
}

/// One row of a trace: the state of the control at an instant.
public struct TraceRow: Sendable, Equatable {
    /// Nanoseconds after touch-down.
    public var time: Int64
    /// Seconds after touch-down.
    public var timeSeconds: Double { Instant.seconds(time) }
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
    /// When the trace stopped drawing frames at `maximumFrames` before the fill came to rest: that last frame's
    /// instant (rows after it have no displayed progress: NaN); nil when every frame to rest is drawn.
    public var framesEndAt: Int64?

    /// The most frames a trace renders (over 4 minutes at 1,000 Hz, 34 minutes at 120 Hz), so that a trace's rows
    /// stay in memory; a longer hold is drawn up to there (`framesEndAt`).
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
        let end = pressEndTime.map(Instant.nanoseconds) ?? Self.defaultPressEnd(timeline)
        let outcome = evaluator.resolve(pressEnd: end, cancelled: cancelled)
        self.timeline = timeline
        self.outcome = outcome

        var events: [(time: Int64, event: TraceEvent)] = [(0, .touchDown)]
        if timeline.recognition <= end {
            events.append((timeline.recognition, .recognized))
        }
        if let start = timeline.fillStart, start <= end { events.append((start, .fillStart)) }
        // The pulses felt (or dropped) while the finger was down: the evaluator's one schedule, as simulate counts it.
        for request in evaluator.pulseRequests where evaluator.countsWhileDown(request.time, kind: request.kind, end: end) {
            switch (request.kind, request.status) {
            case (.progress, .played): events.append((request.time, .pulse))
            case (.progress, .dropped): events.append((request.time, .pulseDropped))
            case (.completion, .played): events.append((request.time, .completionPulse))
            case (.completion, .dropped): events.append((request.time, .completionPulseDropped))
            }
        }
        if let complete = timeline.fillComplete,
           complete <= end || (outcome.completed && evaluator.prepared.control.retract.afterTrigger == .stay) {
            events.append((complete, .fillComplete))
        }
        if outcome.completed, let trigger = timeline.trigger { events.append((trigger, .trigger)) }
        events.append((end, cancelled ? .cancel : .release))
        if let empty = outcome.firstEmptyFrame {
            events.append((empty, .displayedEmpty))
            events.append((outcome.rest, .retractEnd))
        }

        // Frames from touch-down to the first frame at or after the fill comes to rest.
        let control = evaluator.prepared.control
        let clock = FrameClock(refreshRateHz: control.display.refreshRateHz, phase: framePhase)
        let restFrame = clock.firstFrame(atOrAfter: max(outcome.rest, end))
        let lastFrame = min(restFrame, Self.maximumFrames)
        let framesEndAt = restFrame > lastFrame ? clock.time(ofFrame: lastFrame) : nil
        self.framesEndAt = framesEndAt
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
        let onTicks = evaluator.prepared.timelineDrawsLatencies
        events.sort { ($0.time, $0.event.rank(onTicks: onTicks)) < ($1.time, $1.event.rank(onTicks: onTicks)) }

        var rows: [TraceRow] = []
        rows.reserveCapacity(events.count)
        var shown = 0.0
        var pulses = 0
        for (time, event) in events {
            let progress = evaluator.progress(at: time)
            if event == .frame { shown = HoldEvaluator.displayed(progress) }
            // After the last frame drawn nothing says what the bar shows.
            if let framesEndAt, time > framesEndAt { shown = .nan }
            if event == .pulse || event == .completionPulse { pulses += 1 }
            rows.append(TraceRow(
                time: time, modelProgress: progress, displayedProgress: shown, pulses: pulses, event: event))
        }
        self.rows = rows
    }

    /// Holds until the action has fired and the fill has completed (or looks full), then 0.25 s more.
    static func defaultPressEnd(_ timeline: HeldTimeline) -> Int64 {
        let landmarks = [timeline.trigger, timeline.fillComplete, timeline.firstFullFrame, timeline.recognition]
        return (landmarks.compactMap { $0 }.max() ?? 0) + Instant.nanoseconds(0.25)
    }
}
