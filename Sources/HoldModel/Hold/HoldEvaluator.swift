/// Supplies the lateness of each Timer tick in seconds. A Timer never fires early, so negative values are taken
/// as 0. Simulations draw these from the profile's latency distribution; `OnTimeTicks` gives ideal ticks.
public protocol TickLatencySource {
    mutating func nextLatencySeconds() -> Double
}

/// Every tick exactly on its schedule.
public struct OnTimeTicks: TickLatencySource {
    public init() {}
    @inline(__always)
    public mutating func nextLatencySeconds() -> Double { 0 }
}

/// What happens during a hold if the finger stays down (and still): the control's own timeline for one
/// touch-down phase and one draw of Timer latencies. Times are seconds after touch-down.
///
/// Everything a person can perceive before they let go is here, so a synthetic user can decide when to let go
/// from it; `HoldEvaluator.resolve` then applies the release.
public struct HeldTimeline: Sendable, Equatable {
    /// Fraction of a frame interval from touch-down to the first frame.
    public var framePhase: Double
    /// When the gesture recognises (minimumDuration).
    public var recognitionTime: Double
    /// When the fill starts moving; nil without a fill.
    public var fillStartTime: Double?
    /// When the fill completes; nil without a fill.
    public var fillCompleteTime: Double?
    /// When the action fires if the finger is still down then; nil if it never can.
    public var triggerTime: Double?
    /// The first frame on which the fill looks started (displayed progress ≥ resolution).
    public var firstVisibleFrameTime: Double?
    /// The first frame on which the fill looks full (displayed progress ≥ 1 − resolution).
    public var firstFullFrameTime: Double?
    /// The first progress pulse actually played.
    public var firstPlayedPulseTime: Double?
    /// The first moment anything tells the person the hold is working: a visible fill change, a pulse, or the
    /// action firing (with its completion pulse).
    public var firstFeedbackTime: Double? {
        var first = Double.infinity
        if let time = firstVisibleFrameTime { first = min(first, time) }
        if let time = firstPlayedPulseTime { first = min(first, time) }
        if let time = triggerTime { first = min(first, time) }
        return first.isFinite ? first : nil
    }
}

/// The result of one hold once the finger has lifted (or the gesture was cancelled by movement).
public struct HoldOutcome: Sendable, Equatable {
    /// When the finger lifted or the gesture was cancelled.
    public var pressEndTime: Double
    /// Whether the press ended by movement beyond `maximumDistance` rather than by a release.
    public var cancelled: Bool
    /// The action fired (the finger was down at the trigger time).
    public var completed: Bool
    /// Progress pulses played while the finger was down, plus the completion pulse.
    public var pulses: Int
    /// Progress pulses requested but dropped by `minInterval`.
    public var droppedPulses: Int
    /// The highest rate between consecutive played pulses, 1 / shortest gap (Hz); nil with fewer than two pulses.
    public var peakPulseRateHz: Double?
    /// Trigger time − first frame displayed full, when the action fired and the fill ever looks full (seconds).
    public var mismatchSeconds: Double?
    /// Progress on screen when the action fired (the last frame at or before it), when it fired.
    public var displayedProgressAtTrigger: Double?
    /// When the fill is back at rest: empty after a retract, or full and still after the action fired.
    public var restTime: Double
    /// Seconds from the end of the press to the fill being empty again, when the fill retracted.
    public var retractSeconds: Double?
}

/// Evaluates holds against one prepared control, reusing its buffers: one evaluator per thread.
///
/// Event-driven: closed forms where they exist, a loop over frames only for per-frame haptic checks and over
/// ticks only for the Timer fill. Deterministic: the same control, phase and latencies give the same result.
public final class HoldEvaluator {
    public let prepared: PreparedControl
    private var control: Control { prepared.control }
    /// When the fill starts moving (it does not depend on the person); nil without a fill.
    private let fillStart: Double?

    // The Timer fill's fires (time, progress after the fire before capping at 1), when the fill is a timer.
    private var tickTimes: [Double] = []
    private var tickProgress: [Double] = []
    // Progress pulses requested while held: time and whether played (false = dropped by minInterval).
    private var pulseTimes: [Double] = []
    private var pulsePlayed: [Bool] = []

    /// The timeline of the last `hold` call.
    public private(set) var held = HeldTimeline(framePhase: 0, recognitionTime: 0)
    /// The outcome of the last `resolve` call.
    public private(set) var outcome = HoldOutcome(
        pressEndTime: 0, cancelled: false, completed: false, pulses: 0, droppedPulses: 0, peakPulseRateHz: nil,
        restTime: 0)
    private var retractFrom = (progress: 0.0, velocity: 0.0, clock: 0.0)
    private var retracting = false

    public init(_ prepared: PreparedControl) {
        self.prepared = prepared
        let control = prepared.control
        if case .none = prepared.shape {
            fillStart = nil
        } else {
            fillStart = (control.fill.start == .touchDown ? 0 : control.gesture.minimumDurationSeconds)
                + control.fill.delaySeconds
        }
        if case .timer(_, let ticks) = prepared.shape {
            tickTimes.reserveCapacity(ticks)
            tickProgress.reserveCapacity(ticks)
        }
        pulseTimes.reserveCapacity(256)
        pulsePlayed.reserveCapacity(256)
    }

    /// Requested progress pulses of the last `hold` (time, played).
    var requestedPulses: [(time: Double, played: Bool)] {
        zip(pulseTimes, pulsePlayed).map { ($0, $1) }
    }

    // MARK: - The held timeline

    /// Computes what happens if the finger stays down: recognition, the fill (drawing one latency per Timer tick
    /// until the fill completes, so the number of draws never depends on the person), the trigger, the frames on
    /// which the fill looks started and full, and the progress pulses.
    @discardableResult
    public func hold<Latencies: TickLatencySource>(framePhase: Double, latencies: inout Latencies) -> HeldTimeline {
        let control = control
        let clock = FrameClock(refreshRateHz: control.display.refreshRateHz, phase: framePhase)
        let recognition = control.gesture.minimumDurationSeconds
        var timeline = HeldTimeline(framePhase: framePhase, recognitionTime: recognition)
        tickTimes.removeAll(keepingCapacity: true)
        tickProgress.removeAll(keepingCapacity: true)
        pulseTimes.removeAll(keepingCapacity: true)
        pulsePlayed.removeAll(keepingCapacity: true)

        switch prepared.shape {
        case .none:
            break
        case .bezier, .spring:
            guard let start = fillStart else { break }
            timeline.fillStartTime = start
            timeline.fillCompleteTime = start + (prepared.nominalFillSeconds ?? 0)
        case .timer(let timer, let ticks):
            guard let start = fillStart else { break }
            timeline.fillStartTime = start
            runTimer(timer, ticks: ticks, start: start, latencies: &latencies)
            timeline.fillCompleteTime = tickTimes.last
        }
        switch control.trigger.source {
        case .gesture: timeline.triggerTime = recognition + control.trigger.offsetSeconds
        case .fill: timeline.triggerTime = timeline.fillCompleteTime.map { $0 + control.trigger.offsetSeconds }
        }
        if let start = timeline.fillStartTime {
            timeline.firstVisibleFrameTime = firstFrame(
                showing: prepared.visibleLevel, from: start + (prepared.visibleAfterStart ?? 0), clock: clock)
            timeline.firstFullFrameTime = firstFrame(
                showing: prepared.fullLevel, from: start + (prepared.fullAfterStart ?? 0), clock: clock)
            if control.haptics.threshold > 0 { requestPulses(start: start, clock: clock) }
        }
        if let index = pulsePlayed.firstIndex(of: true) { timeline.firstPlayedPulseTime = pulseTimes[index] }
        held = timeline
        return timeline
    }

    private func runTimer<Latencies: TickLatencySource>(
        _ timer: TimerFill, ticks: Int, start: Double, latencies: inout Latencies
    ) {
        var progression = timer.progression
        var slot = 1
        for _ in 0..<ticks {
            // Never early; NaN counts as on time; an hour at most (a pathological draw cannot overflow the slots).
            let drawn = latencies.nextLatencySeconds()
            let latency = drawn > 0 ? min(drawn, TimerFill.maximumLatencySeconds) : 0
            let fireTime = start + Double(slot) * timer.tickSeconds + latency
            let progress = progression.next()
            // Stored as computed: the pulse check sees it before the fill caps it at 1 (seed 000's order).
            tickTimes.append(fireTime)
            tickProgress.append(progress)
            // A repeating timer keeps its schedule; slots that passed while it was late are coalesced.
            let missed = latency >= timer.tickSeconds ? Int((latency / timer.tickSeconds).rounded(.down)) : 0
            slot += 1 + missed
        }
    }

    /// The first frame at or after `earliest` whose held progress is at least `level` (progress may dip again
    /// for curves that leave [0, 1], hence the check). A Timer fill's progress only rises and changes on its
    /// fires, so the answer is the first frame at or after the first fire that reaches the level.
    private func firstFrame(showing level: Double, from earliest: Double, clock: FrameClock) -> Double? {
        if case .timer = prepared.shape {
            guard let tick = tickProgress.firstIndex(where: { min(1, $0) >= level }) else { return nil }
            return clock.time(ofFrame: clock.firstFrame(atOrAfter: tickTimes[tick]))
        }
        var index = clock.firstFrame(atOrAfter: earliest)
        let limit = index + 1_000_000
        while index < limit {
            let time = clock.time(ofFrame: index)
            if heldProgress(at: time) >= level { return time }
            index += 1
        }
        return nil
    }

    private func requestPulses(start: Double, clock: FrameClock) {
        let haptics = control.haptics
        var lastRequestProgress = 0.0
        var lastPlayed = -Double.infinity
        func request(_ time: Double, _ progress: Double) {
            guard progress >= lastRequestProgress + haptics.threshold else { return }
            lastRequestProgress = progress
            let played = time - lastPlayed >= haptics.minIntervalSeconds
            if played { lastPlayed = time }
            pulseTimes.append(time)
            pulsePlayed.append(played)
        }
        if case .timer = prepared.shape {
            // Checked on every tick, after the increment (seed 000's order).
            for index in tickTimes.indices { request(tickTimes[index], tickProgress[index]) }
            return
        }
        // Checked on every frame while the fill moves, and on the first frame after it completes.
        let end = start + (prepared.nominalFillSeconds ?? 0)
        var index = clock.firstFrame(atOrAfter: start)
        while true {
            let time = clock.time(ofFrame: index)
            request(time, heldProgress(at: time))
            if time >= end { break }
            index += 1
        }
    }

    /// Model progress at `time` if the finger stays down.
    @inline(__always)
    public func heldProgress(at time: Double) -> Double {
        guard let start = fillStart else { return 0 }
        let clock = time - start
        switch prepared.shape {
        case .none:
            return 0
        case .bezier(let bezier, let duration):
            return PreparedControl.bezierProgress(bezier, duration: duration, clock: clock)
        case .spring(let spring):
            return clock <= 0 ? 0 : 1 + spring.state(at: clock, x0: -1, v0: 0).displacement
        case .timer:
            return timerProgress(at: time)
        }
    }

    /// Progress of the Timer fill at `time`: that of the last fire at or before it.
    private func timerProgress(at time: Double) -> Double {
        var low = 0
        var high = tickTimes.count
        while low < high {
            let mid = (low + high) / 2
            if tickTimes[mid] <= time { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? 0 : min(1, tickProgress[low - 1])
    }

    private func heldVelocity(at time: Double) -> Double {
        guard let start = fillStart else { return 0 }
        switch prepared.shape {
        case .bezier(let bezier, let duration):
            return PreparedControl.bezierVelocity(bezier, duration: duration, clock: time - start)
        case .spring(let spring):
            return time <= start ? 0 : spring.state(at: time - start, x0: -1, v0: 0).velocity
        case .none, .timer:
            return 0
        }
    }

    // MARK: - Resolving the end of the press

    /// Applies the end of the press to the last held timeline.
    ///
    /// - Parameters:
    ///   - pressEndTime: when the finger lifted, or when movement cancelled the gesture (only if before the
    ///     trigger: later movement no longer matters).
    ///   - cancelled: whether the press ended by movement.
    @discardableResult
    public func resolve(pressEndTime end: Double, cancelled: Bool = false) -> HoldOutcome {
        let control = control
        let timeline = held
        var result = HoldOutcome(
            pressEndTime: end, cancelled: cancelled, completed: false, pulses: 0, droppedPulses: 0,
            peakPulseRateHz: nil, restTime: end)
        let trigger = timeline.triggerTime
        result.completed = trigger.map { $0 <= end } ?? false

        // Pulses while the finger is down, the completion pulse merged with a progress pulse at the same instant.
        var previousPlayed = -Double.infinity
        var shortestGap = Double.infinity
        var completionPulse = (result.completed && control.haptics.onComplete) ? trigger : nil
        func play(_ time: Double) {
            shortestGap = min(shortestGap, time - previousPlayed)
            previousPlayed = time
            result.pulses += 1
        }
        for index in pulseTimes.indices where pulseTimes[index] <= end {
            let time = pulseTimes[index]
            guard pulsePlayed[index] else { result.droppedPulses += 1; continue }
            if let completion = completionPulse, completion < time - 1e-9 {
                play(completion)
                completionPulse = nil
            }
            if let completion = completionPulse, abs(completion - time) <= 1e-9 { completionPulse = nil }
            play(time)
        }
        if let completion = completionPulse { play(completion) }
        result.peakPulseRateHz = shortestGap.isFinite && shortestGap > 0 ? 1 / shortestGap : nil

        if result.completed, let trigger {
            if let full = timeline.firstFullFrameTime { result.mismatchSeconds = trigger - full }
            let clock = FrameClock(refreshRateHz: control.display.refreshRateHz, phase: timeline.framePhase)
            if let frame = clock.lastFrame(atOrBefore: trigger) {
                result.displayedProgressAtTrigger = Self.displayed(heldProgress(at: clock.time(ofFrame: frame)))
            } else {
                result.displayedProgressAtTrigger = 0
            }
        }

        // What the fill does after the press.
        retracting = false
        if result.completed && control.retract.afterTrigger == .stay {
            result.restTime = max(end, timeline.fillCompleteTime ?? end)
        } else if let start = timeline.fillStartTime, end > start {
            retracting = true
            let rest = retractEnd(pressEnd: end, start: start)
            result.restTime = rest
            result.retractSeconds = rest - end
        }
        outcome = result
        return result
    }

    /// Sets up the retract from the state at `end` and returns when it comes to rest.
    private func retractEnd(pressEnd end: Double, start: Double) -> Double {
        let control = control
        let fillEnd = held.fillCompleteTime ?? end
        let progress = heldProgress(at: end)
        retractFrom = (progress, heldVelocity(at: end), min(end, fillEnd) - start)
        let retract = control.retract
        switch retract.mode {
        case .instant:
            return end
        case .reverse:
            return end + retractFrom.clock / reverseRate
        case .animation:
            if case .spring(let spring) = retract.curve {
                return end + spring.settlingTime(
                    x0: retractFrom.progress, v0: retractFrom.velocity, epsilon: control.display.resolution)
            }
            let duration = retractDuration
            if retract.interruption == .additive, !isTimer { return max(end + duration, fillEnd) }
            return end + duration
        }
    }

    private var isTimer: Bool {
        if case .timer = prepared.shape { return true }
        return false
    }

    private var retractDuration: Double {
        control.retract.durationSeconds ?? prepared.nominalFillSeconds ?? 0
    }

    /// Fill-clock seconds undone per second of a `reverse` retract.
    private var reverseRate: Double {
        guard let duration = control.retract.durationSeconds, let nominal = prepared.nominalFillSeconds else { return 1 }
        return nominal / duration
    }

    /// Model progress at `time` for the last resolved hold: the held fill while the finger is down (and after it
    /// if the action fired and the fill stays), then the retract. May leave [0, 1] (springs, additive retracts).
    public func progress(at time: Double) -> Double {
        let end = outcome.pressEndTime
        if time < end { return heldProgress(at: time) }
        if !retracting { return outcome.completed ? heldProgress(at: time) : 0 }
        let elapsed = time - end
        let retract = control.retract
        switch retract.mode {
        case .instant:
            return 0
        case .reverse:
            let clock = retractFrom.clock - elapsed * reverseRate
            guard clock > 0, let start = fillStart else { return 0 }
            return heldProgress(at: start + clock)
        case .animation:
            if case .spring(let spring) = retract.curve {
                return spring.state(at: elapsed, x0: retractFrom.progress, v0: retractFrom.velocity).displacement
            }
            let bezier: UnitBezier?
            if case .bezier(let curve) = retract.curve { bezier = curve } else { bezier = nil }
            let done = PreparedControl.bezierProgress(bezier, duration: retractDuration, clock: elapsed)
            let current = retractFrom.progress
            if isTimer { return current * (1 - done) }
            switch retract.interruption {
            case .swiftui: return heldProgress(at: time) * (1 - done)
            case .additive: return heldProgress(at: time) - done
            case .fromCurrent: return current * (1 - done)
            }
        }
    }

    /// What the screen shows for a model progress: negative values draw an empty bar, overshoot a full one.
    @inline(__always)
    public static func displayed(_ progress: Double) -> Double {
        min(1, max(0, progress))
    }
}
