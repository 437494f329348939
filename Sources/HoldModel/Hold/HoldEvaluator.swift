/// Evaluates holds against one prepared control, reusing its buffers: one evaluator per thread.
///
/// Event-driven: closed forms where they exist, a loop over frames only for per-frame haptic checks and over
/// ticks only for the Timer fill. Every instant is on the integer clock of `Instant`. Deterministic: the same
/// control, phase and latencies give the same result.
///
/// A coordinator: the fill's model (`PreparedFill`, one type per model, reached through `PreparedFillModel.run` so that
/// every step is specialised for it), the display (`DisplayFrames`), the haptics (`HapticSchedule`), the retract
/// (`RetractPlan`) and the block fast path (`PhaseOnlyTimeline`) each live in their own type; this class holds them
/// with the state of the last hold and puts the steps of a hold in order.
///
/// Its buffers are marked `@exclusivity(unchecked)`: an evaluator belongs to one thread, and the per-user path
/// mutates them millions of times a second, where the dynamic exclusivity checks of class properties cost about
/// 13 % of a run. The compiler's static checks still apply.
public final class HoldEvaluator {
    public let prepared: PreparedControl
    /// Whether the shortcuts are taken (see `Shortcuts`): always in a simulation, and in any release build.
    let shortcuts: Shortcuts
    let display: DisplayFrames
    let haptics: HapticSchedule
    let retract: RetractPlan
    /// The block fast path's timeline, when a hold depends on the person only through the frame phase.
    let phaseOnly: PhaseOnlyTimeline?
    /// When the gesture recognises (minimumDuration).
    let recognition: Int64
    /// When the fill starts moving (it does not depend on the person); nil without a fill.
    let fillStart: Int64?
    let triggerOffset: Int64
    let triggerFollowsGesture: Bool
    /// The Timer latencies a hold draws (`PreparedFill.latencyDrawsPerHold`; 0 for a fill without ticks).
    let latencyDraws: Int

    /// The fill's steps in the last `hold` (a Timer's fires).
    let steps = FillSteps()
    // Progress steps reached while held (instant), before the throttle.
    @exclusivity(unchecked) var progressRequests = ReusedArray<Int64>()
    /// Progress-pulse requests found ahead for the people of a block (`preparePulses`), taken in order by `hold`:
    /// person i's are `preparedRequests[preparedEnds[i − 1]..<preparedEnds[i]]`, for the phase `preparedPhases[i]`.
    @exclusivity(unchecked) var preparedRequests: [Int64] = []
    @exclusivity(unchecked) var preparedEnds: [Int] = []
    @exclusivity(unchecked) var preparedPhases: [UInt64] = []
    @exclusivity(unchecked) var preparedClocks: [FrameClock] = []
    @exclusivity(unchecked) var preparedNext = 0
    /// The haptic requests of the last `hold`, assuming the finger stays down.
    @exclusivity(unchecked) public private(set) var pulseRequests = ReusedArray<PulseRequest>()

    /// The timeline of the last `hold` call.
    @inlinable public var held: HeldTimeline { lastHeld }
    /// The outcome of the last `resolve` call.
    @inlinable public var outcome: HoldOutcome { lastOutcome }
    /// The same hold as a summary (`outcome.summary`, kept as `release` computed it: a tally reads it without
    /// rebuilding it from the outcome).
    @inlinable public var summary: HoldSummary { lastSummary }
    // Their storage. The getters are inlinable so that another module's per-user path reads single fields in place,
    // without a copy of the whole struct and without the dynamic exclusivity checks its own access would carry.
    @usableFromInline @exclusivity(unchecked) var lastHeld = HeldTimeline(framePhase: 0, recognition: 0)
    @usableFromInline @exclusivity(unchecked) var lastOutcome = HoldOutcome(pressEnd: 0, cancelled: false)
    @usableFromInline @exclusivity(unchecked) var lastSummary = HoldSummary()
    /// Where the last release's retract started.
    @exclusivity(unchecked) var origin = RetractOrigin()
    @exclusivity(unchecked) var retracting = false
    /// The action fired and the fill stays: the held fill runs on after the press.
    @exclusivity(unchecked) var runsOn = false

    public convenience init(_ prepared: PreparedControl) {
        self.init(prepared, .all)
    }

    init(_ prepared: PreparedControl, _ shortcuts: Shortcuts) {
        self.prepared = prepared
        self.shortcuts = shortcuts
        let control = prepared.control
        display = DisplayFrames(prepared)
        haptics = HapticSchedule(control.haptics)
        recognition = Instant.nanoseconds(control.gesture.minimumDurationSeconds)
        triggerOffset = Instant.nanoseconds(control.trigger.offsetSeconds)
        triggerFollowsGesture = control.trigger.source == .gesture
        let fillStart: Int64? = prepared.hasFill
            ? (control.fill.start == .touchDown ? 0 : recognition) + Instant.nanoseconds(control.fill.delaySeconds) : nil
        self.fillStart = fillStart
        latencyDraws = prepared.idealTimerTicks ?? 0
        (retract, phaseOnly) = prepared.fill.run(Parts(prepared: prepared, fillStart: fillStart, shortcuts: shortcuts,
                                                       recognition: recognition, triggerOffset: triggerOffset,
                                                       triggerFollowsGesture: triggerFollowsGesture))
        if let phaseOnly { lastHeld = phaseOnly.timeline }
        steps.reserveCapacity(latencyDraws)
        progressRequests.reserveCapacity(256)
        pulseRequests.reserveCapacity(256)
    }

    /// The parts of an evaluator that depend on the fill's model.
    private struct Parts: FillWork {
        let prepared: PreparedControl
        let fillStart: Int64?
        let shortcuts: Shortcuts
        let recognition: Int64
        let triggerOffset: Int64
        let triggerFollowsGesture: Bool

        func run<Fill: PreparedFill>(_ fill: Fill) -> (RetractPlan, PhaseOnlyTimeline?) {
            let retract = RetractPlan(prepared, fill: fill, fillStart: fillStart, shortcuts: shortcuts.taken)
            let phaseOnly = PhaseOnlyTimeline(
                fill, fillStart: fillStart, haptics: prepared.control.haptics, shortcuts: shortcuts.taken,
                trigger: { HoldEvaluator.trigger(followsGesture: triggerFollowsGesture, recognition: recognition,
                                                 offset: triggerOffset, fillComplete: $0) },
                recognition: recognition)
            return (retract, phaseOnly)
        }
    }

    // MARK: - The held timeline

    /// Computes what happens if the finger stays down: recognition, the fill (drawing one latency per Timer tick
    /// until the fill completes, so the number of draws never depends on the person), the trigger, the frames on
    /// which the fill looks started and full, and the haptic requests.
    @discardableResult
    public func hold<Latencies: TickLatencySource>(framePhase: Double, latencies: inout Latencies) -> HeldTimeline {
        evaluateHold(framePhase: framePhase, latencies: &latencies)
        return lastHeld
    }

    /// `hold` without returning a copy of the timeline: the result is in `held`. What a simulation's per-user path
    /// calls.
    public func evaluateHold<Latencies: TickLatencySource>(framePhase: Double, latencies: inout Latencies) {
        // The fill's latencies first (one per tick with every tick on time, see `FillSteps.latencies`), so that the
        // rest is not generic over the source and is specialised for the fill's model.
        steps.removeAll()
        if phaseOnly == nil && fillStart != nil {
            for _ in 0..<latencyDraws { steps.latencies.append(latencies.nextLatencySeconds()) }
        }
        evaluateHold(framePhase: framePhase)
    }

    private func evaluateHold(framePhase: Double) {
        prepared.fill.run(Hold(evaluator: self, framePhase: framePhase))
    }

    private struct Hold: FillWork {
        let evaluator: HoldEvaluator
        let framePhase: Double

        @inline(__always)
        func run<Fill: PreparedFill>(_ fill: Fill) { evaluator.hold(fill, framePhase: framePhase) }
    }

    @inline(__always)
    private func hold<Fill: PreparedFill>(_ fill: Fill, framePhase: Double) {
        let clock = display.clock(phase: framePhase)
        progressRequests.removeAll()
        pulseRequests.removeAll()
        if let phaseOnly {
            // Everything but the phase and the frames is the same for every person and already in `lastHeld` (set
            // in `init`); the only haptic request is the completion pulse.
            lastHeld.framePhase = framePhase
            if let start = fillStart { Self.setShownFrames(&lastHeld, fill.shownFrames(start: start, clock: clock, steps: steps)) }
            if let request = phaseOnly.completionRequest { pulseRequests.append(request) }
            return
        }
        var timeline = HeldTimeline(framePhase: framePhase, recognition: recognition)
        if let start = fillStart {
            timeline.fillStart = start
            timeline.fillComplete = fill.hold(start: start, steps: steps)
        }
        timeline.trigger = Self.trigger(followsGesture: triggerFollowsGesture, recognition: recognition,
                                        offset: triggerOffset, fillComplete: timeline.fillComplete)
        if let start = timeline.fillStart {
            Self.setShownFrames(&timeline, fill.shownFrames(start: start, clock: clock, steps: steps))
            if haptics.threshold > 0 && !takePreparedPulses(phase: framePhase) {
                fill.requestProgressPulses(start: start, clock: clock, threshold: haptics.threshold, steps: steps,
                                           into: &progressRequests)
            }
        }
        haptics.schedule(progress: progressRequests, completion: haptics.onComplete ? timeline.trigger : nil,
                         into: &pulseRequests)
        if !progressRequests.isEmpty {
            timeline.firstPlayedPulse = pulseRequests.first { $0.kind == .progress && $0.status == .played }?.time
        }
        lastHeld = timeline
    }

    /// Whether `preparePulses` finds the progress pulses of a block's people ahead, interleaved: a Bézier fill with
    /// its tabulated inverse, progress pulses, and a timeline that is the person's own (no Timer latencies).
    public var preparesPulses: Bool {
        guard phaseOnly == nil, fillStart != nil, haptics.threshold > 0, latencyDraws == 0,
              case .bezier(let fill) = prepared.fill else { return false }
        return fill.inverse != nil
    }

    /// Finds ahead the progress-pulse requests of people with these frame phases, in the order their holds will
    /// come (`BezierFill.requestProgressPulses(start:clocks:…)`, which interleaves their searches); each `hold` of
    /// the next of these phases takes its requests from here. A hold of any other phase (or out of order) finds its
    /// own, so what is found is only ever a person's own requests. Nothing when `preparesPulses` is false.
    public func preparePulses(phases: UnsafeBufferPointer<Double>) {
        preparedNext = 0
        preparedPhases.removeAll(keepingCapacity: true)
        guard preparesPulses, let start = fillStart, case .bezier(let fill) = prepared.fill else {
            preparedRequests.removeAll(keepingCapacity: true)
            preparedEnds.removeAll(keepingCapacity: true)
            return
        }
        preparedClocks.removeAll(keepingCapacity: true)
        for phase in phases {
            preparedClocks.append(display.clock(phase: phase))
            preparedPhases.append(phase.bitPattern)
        }
        preparedClocks.withUnsafeBufferPointer { clocks in
            fill.requestProgressPulses(start: start, clocks: clocks, threshold: haptics.threshold,
                                       into: &preparedRequests, ends: &preparedEnds)
        }
    }

    /// The next prepared person's progress requests into `progressRequests`, when `phase` is theirs.
    @inline(__always)
    private func takePreparedPulses(phase: Double) -> Bool {
        let next = preparedNext
        guard next < preparedPhases.count, preparedPhases[next] == phase.bitPattern else { return false }
        for index in (next == 0 ? 0 : preparedEnds[next - 1])..<preparedEnds[next] {
            progressRequests.append(preparedRequests[index])
        }
        preparedNext = next + 1
        return true
    }

    /// The first frames on which the fill looks started and full, into a timeline (nil for never).
    @inline(__always)
    private static func setShownFrames(_ timeline: inout HeldTimeline, _ shown: ShownFrames) {
        timeline.firstVisibleFrame = shown.visible == .max ? nil : shown.visible
        timeline.firstFullFrame = shown.full == .max ? nil : shown.full
    }

    /// When the action fires if the finger is still down: at recognition plus the offset when it follows the gesture,
    /// else when the fill completes plus the offset (never without a fill).
    static func trigger(followsGesture: Bool, recognition: Int64, offset: Int64, fillComplete: Int64?) -> Int64? {
        followsGesture ? recognition + offset : fillComplete.map { $0 + offset }
    }

    /// Model progress at `time` (nanoseconds) if the finger stays down.
    public func heldProgress(at time: Int64) -> Double {
        prepared.fill.run(HeldProgress(evaluator: self, time: time))
    }

    private struct HeldProgress: FillWork {
        let evaluator: HoldEvaluator
        let time: Int64

        @inline(__always)
        func run<Fill: PreparedFill>(_ fill: Fill) -> Double { evaluator.heldProgress(fill, at: time) }
    }

    @inline(__always)
    func heldProgress<Fill: PreparedFill>(_ fill: Fill, at time: Int64) -> Double {
        guard let start = fillStart else { return 0 }
        return fill.progress(at: time, start: start, steps: steps)
    }

    /// Model progress at `seconds` after touch-down if the finger stays down.
    public func heldProgress(atSeconds seconds: Double) -> Double {
        heldProgress(at: Instant.nanoseconds(seconds))
    }

    // MARK: - Resolving the end of the press

    /// Applies the end of the press (seconds after touch-down) to the last held timeline.
    @discardableResult
    public func resolve(pressEndTime end: Double, cancelled: Bool = false) -> HoldOutcome {
        resolve(pressEnd: Instant.nanoseconds(end), cancelled: cancelled)
    }

    /// Applies the end of the press to the last held timeline.
    ///
    /// - Parameters:
    ///   - end: when the finger lifted, or when movement cancelled the gesture (only if before the
    ///     trigger: later movement no longer matters).
    ///   - cancelled: whether the press ended by movement.
    @discardableResult
    public func resolve(pressEnd end: Int64, cancelled: Bool = false) -> HoldOutcome {
        evaluateRelease(pressEnd: end, cancelled: cancelled)
        return outcome
    }

    /// `resolve` without returning a copy of the outcome: the result is in `outcome`, written from the summary that
    /// `release` (shared with `summarize`) computes. What a simulation's per-person path calls (with per-user rows,
    /// Timer fills and progress pulses; other controls go through `summarize` in blocks). With a timeline that
    /// depends on the phase alone, the trigger and fill instants are the control's from the start, so resolving
    /// before any hold reads them rather than an empty timeline.
    public func evaluateRelease(pressEnd end: Int64, cancelled: Bool) {
        prepared.fill.run(Release(evaluator: self, end: end, cancelled: cancelled))
    }

    private struct Release: FillWork {
        let evaluator: HoldEvaluator
        let end: Int64
        let cancelled: Bool

        @inline(__always)
        func run<Fill: PreparedFill>(_ fill: Fill) { evaluator.evaluateRelease(fill, pressEnd: end, cancelled: cancelled) }
    }

    @inline(__always)
    private func evaluateRelease<Fill: PreparedFill>(_ fill: Fill, pressEnd end: Int64, cancelled: Bool) {
        let held = lastHeld
        let (summary, rest) = release(
            fill, end: end, phase: held.framePhase,
            shown: ShownFrames(visible: held.firstVisibleFrame ?? .max, full: held.firstFullFrame ?? .max),
            firstPlayedPulse: held.firstPlayedPulse, trigger: held.trigger, fillStart: held.fillStart,
            fillComplete: held.fillComplete)
        lastSummary = summary
        lastOutcome = HoldOutcome(pressEnd: end, cancelled: cancelled)
        lastOutcome.completed = summary.completed
        lastOutcome.pulses = summary.pulses
        lastOutcome.droppedPulses = summary.droppedPulses
        if summary.shortestPulseGap != .max { lastOutcome.shortestPulseGap = summary.shortestPulseGap }
        if summary.feedback != .max { lastOutcome.feedback = summary.feedback }
        if summary.completed { lastOutcome.displayedProgressAtTrigger = summary.displayedProgressAtTrigger }
        lastOutcome.rest = rest
        if summary.firstEmptyFrame != .max { lastOutcome.firstEmptyFrame = summary.firstEmptyFrame }
        if summary.firstFullFrameSeen != .max {
            lastOutcome.firstFullFrameSeen = summary.firstFullFrameSeen
            if summary.completed, let trigger = held.trigger { lastOutcome.mismatch = trigger - summary.firstFullFrameSeen }
        }
    }

    /// The end of one press against a held timeline (given by its parts): everything a summary keeps, and when the
    /// fill's model comes to rest. What `evaluateRelease` records and `summarize` gives for a block of people; it
    /// leaves the retract's state (and the press end in `outcome`) set for `progress(at:)`.
    @inline(__always)
    func release<Fill: PreparedFill>(_ fill: Fill, end: Int64, phase: Double, shown: ShownFrames,
                                     firstPlayedPulse: Int64?, trigger: Int64?, fillStart: Int64?,
                                     fillComplete: Int64?) -> (summary: HoldSummary, rest: Int64) {
        // The searches read the press end through `progress(at:)`.
        lastOutcome.pressEnd = end
        var summary = HoldSummary()
        let completed = trigger.map { $0 <= end } ?? false
        summary.completed = completed

        // Pulses while the finger is down (`HapticSchedule.count`).
        if progressRequests.isEmpty && shortcuts.taken {
            // The completion pulse alone, at the trigger: the first request, so played, and felt if the action fired.
            if completed && haptics.onComplete { summary.pulses = 1 }
        } else {
            HapticSchedule.count(pulseRequests, pressEnd: end, onTicks: Fill.advancesOnTicks,
                                 actuatorMinInterval: haptics.actuatorMinInterval, into: &summary)
        }
        // Feedback felt while the finger was down: a frame at the release instant renders after the release.
        var feedback = Int64.max
        if shown.visible < end { feedback = shown.visible }
        if let pulse = firstPlayedPulse,
           HapticSchedule.countsWhileDown(pulse, kind: .progress, end: end, onTicks: Fill.advancesOnTicks) {
            feedback = min(feedback, pulse)
        }
        if let trigger, trigger <= end { feedback = min(feedback, trigger) }
        summary.feedback = feedback

        let clock = display.clock(phase: phase)
        if completed, let trigger {
            if let frame = clock.lastFrame(atOrBefore: trigger) {
                summary.displayedProgressAtTrigger = DisplayFrames.displayed(
                    heldProgress(fill, at: clock.time(ofFrame: frame)))
            } else {
                summary.displayedProgressAtTrigger = 0
            }
        }

        // What the fill does after the press: it runs on (the action fired and the fill stays), retracts (it had
        // started), or shows nothing (it had not started yet).
        var rest = end
        retracting = false
        runsOn = completed && retract.staysAfterTrigger
        if runsOn {
            rest = max(end, fillComplete ?? end)
        } else if let start = fillStart, end > start {
            retracting = true
            (origin, rest) = retract.start(fill, pressEnd: end, fillStart: start, fillComplete: fillComplete,
                                           steps: steps)
            summary.firstEmptyFrame = retract.firstEmptyFrame(after: end, rest: rest, clock: clock, origin: origin,
                                                              fill: fill, fillStart: start, steps: steps)
        }

        // What the person saw: the first frame that drew the bar full in this hold, if any.
        summary.firstFullFrameSeen = firstFullFrameSeen(
            fill, full: shown.full, end: end, emptyFrame: summary.firstEmptyFrame, clock: clock)
        return (summary, rest)
    }

    /// The first frame of this hold that draws the bar full (displayed progress ≥ 1 − resolution), `.max` for none.
    ///
    /// Before the press ends the screen shows the held fill, so a held full frame before the end is it; a fill that
    /// runs on shows its own first full frame. After a release (a frame at the release instant renders after it)
    /// the retracting bar is checked frame by frame up to the first frame drawn empty (`RetractPlan.firstFullFrame`).
    @inline(__always)
    private func firstFullFrameSeen<Fill: PreparedFill>(_ fill: Fill, full heldFull: Int64, end: Int64,
                                                        emptyFrame: Int64, clock: FrameClock) -> Int64 {
        if heldFull != .max, heldFull < end || runsOn { return heldFull }
        guard retracting, retract.mode != .instant, emptyFrame != .max, let start = fillStart else { return .max }
        return retract.firstFullFrame(heldFull: heldFull, pressEnd: end, emptyFrame: emptyFrame, clock: clock,
                                      origin: origin, fill: fill, fillStart: start, steps: steps)
    }

    /// Whether a haptic request at `time` is felt for a press that ends at `end` (`HapticSchedule.countsWhileDown`).
    @inline(__always)
    func countsWhileDown(_ time: Int64, kind: PulseRequest.Kind, end: Int64) -> Bool {
        HapticSchedule.countsWhileDown(time, kind: kind, end: end, onTicks: prepared.timelineDrawsLatencies)
    }

    // MARK: - The model after the press

    /// Model progress at `time` (nanoseconds) for the last resolved hold: the held fill while the finger is down
    /// (and after it if the action fired and the fill stays), then the retract. May leave [0, 1] (springs,
    /// additive retracts). At the press end itself the retract has begun (a release is processed before a frame at
    /// the same instant renders).
    public func progress(at time: Int64) -> Double {
        prepared.fill.run(Progress(evaluator: self, time: time))
    }

    private struct Progress: FillWork {
        let evaluator: HoldEvaluator
        let time: Int64

        func run<Fill: PreparedFill>(_ fill: Fill) -> Double { evaluator.progress(fill, at: time) }
    }

    private func progress<Fill: PreparedFill>(_ fill: Fill, at time: Int64) -> Double {
        let end = lastOutcome.pressEnd
        if time < end { return heldProgress(fill, at: time) }
        guard retracting, let start = fillStart else { return runsOn ? heldProgress(fill, at: time) : 0 }
        return retract.progress(at: time, pressEnd: end, origin: origin, fill: fill, fillStart: start, steps: steps)
    }

    /// Model progress at `seconds` after touch-down for the last resolved hold.
    public func progress(atSeconds seconds: Double) -> Double {
        progress(at: Instant.nanoseconds(seconds))
    }

    /// What the screen shows for a model progress: negative values draw an empty bar, overshoot a full one.
    @inline(__always)
    public static func displayed(_ progress: Double) -> Double {
        DisplayFrames.displayed(progress)
    }
}
