/// Evaluates holds against one prepared control, reusing its buffers: one evaluator per thread.
///
/// Event-driven: closed forms where they exist, a loop over frames only for per-frame haptic checks and over
/// ticks only for the Timer fill. Every instant is on the integer clock of `Instant`. Deterministic: the same
/// control, phase and latencies give the same result.
///
/// Haptics, one rule for every pulse: requests (a progress step on a frame or tick, the completion pulse at the
/// trigger) are taken in time order, the completion pulse first at an instant it shares with a progress request;
/// a request at the same instant as the previous one is the same pulse (felt once, counted once); any other
/// request plays when at least `minInterval` has passed since the last played pulse and is dropped otherwise.
/// So `1 / shortest gap ≤ 1 / minInterval` whenever minInterval > 0.
///
/// Its buffers are marked `@exclusivity(unchecked)`: an evaluator belongs to one thread, and the per-user path
/// mutates them millions of times a second, where the dynamic exclusivity checks of class properties cost about
/// 13 % of a run. The compiler's static checks still apply.
public final class HoldEvaluator {
    public let prepared: PreparedControl
    /// Whether the shortcuts are taken (see `init(_:shortcuts:)`); always in a simulation.
    private let shortcuts: Bool

    // What the per-user path reads, copied out of the prepared control once: switching on `prepared.shape` or
    // reading `prepared.control` per call would copy curve values (a Bézier carries its spline samples).
    private enum FillKind { case none, bezier, spring, timer }
    private let fillKind: FillKind
    /// The fill's Bézier, nil for linear (with `fillKind == .bezier`).
    private let fillBezier: UnitBezier?
    /// The same curve stored unwrapped (`UnitBezier.linear` when there is none) with `fillIsBezier`: evaluating it in
    /// place avoids unwrapping, which copies the whole curve (its spline samples, about 170 bytes) on every frame.
    private let fillCurve: UnitBezier
    private let fillIsBezier: Bool
    /// Bounds on the fill curve's value from a table, for a Bézier fill that never decreases (else nil).
    private let fillBounds: UnitBezierBounds?
    private let fillDuration: Int64
    /// 1 / fillDuration: normalised time within a few ulps, for bounds (a division costs as much as the rest).
    private let fillRate: Double
    /// `UnitBezierBounds.reach` plus a nanosecond of the fill's clock in normalised time.
    private let fillBoundsReach: Double
    private let fillSpring: Spring
    /// Where the searches for the first frames that show a fill started and full begin, after its start
    /// (`searchStart`).
    private let visibleSearchStart: Int64
    private let fullSearchStart: Int64
    private let threshold: Double
    private let onComplete: Bool
    private let triggerFollowsGesture: Bool
    private let retractMode: Retract.Mode
    private let interruption: Retract.Interruption
    private let staysAfterTrigger: Bool
    /// The retract animation's Bézier, nil for linear or a spring.
    private let retractBezier: UnitBezier?
    /// The same, unwrapped (see `fillCurve`).
    private let retractCurve: UnitBezier
    private let retractIsBezier: Bool
    /// Bounds on the retract curve's value from a table, for a never-decreasing Bézier retract animation (else nil).
    private let retractBounds: UnitBezierBounds?
    /// 1 / the retract animation's duration, and `UnitBezierBounds.reach` plus a nanosecond of it.
    private let retractRate: Double
    private let retractBoundsReach: Double
    private let retractSpring: Spring?
    private let resolution: Double
    private let visibleLevel: Double
    private let fullLevel: Double
    private let nominalFill: Int64
    /// When the fill starts moving (it does not depend on the person); nil without a fill.
    private let fillStart: Int64?
    private let recognition: Int64
    private let triggerOffset: Int64
    private let tickInterval: Int64
    private let minInterval: Int64
    private let frameRate: FrameRate
    /// For a linear fill: the first clocks (nanoseconds after the fill's start) at which it shows at least
    /// `visibleLevel` and `fullLevel` (`Int64.max` for none); nil for other fills. See `hold`.
    private let linearThresholds: (visible: Int64, full: Int64)?
    /// A retract animation's duration: its own, or the fill's ("match").
    private let retractDurationNanoseconds: Int64
    /// Fill-clock time undone per unit of time of a `reverse` retract.
    private let reverseRate: Double
    /// How much earlier (nanoseconds) than the exact curve the solver may reach a level: its tolerance is 1e-7 of
    /// the normalised time, so 2e-7 of the retract's duration and the rounding of the instants cover it.
    private let retractSolverMargin: Int64
    /// For a retract animation along a tabulated curve (`PreparedControl.retractInverse`), else empty: entry j is the
    /// first-empty search's bound (see `firstEmptyFrame`) for a floor f = j / `floorCells`, in nanoseconds after the
    /// release: τ from the tabulated inverse at the target 1 − level/f (the model scales the floor: swiftui,
    /// fromCurrent, Timer fills) or f − level (additive), less 1e-12 of progress for rounding, times the duration,
    /// less the solver margin; 0 where the target is not in (0, 1). Every step is monotone in f, so the entry of the
    /// grid value at or below a floor is a bound no later than the formula at that floor: one load per refinement
    /// instead of a division and two conversions (2¹² cells: the grid costs far less than the inverse's own cells).
    private let retractBoundByFloor: [Int64]
    static let floorCells = 4096
    /// For a Bézier (or linear) fill that never decreases, with `retractBoundByFloor`: the first-empty search's bound
    /// as a function of the release instant alone, so a person's search starts with one load instead of refining a
    /// floor (a chain of divisions and loads per person). The floor under the progress the retract scales is the held
    /// progress at the release, rising with the held fill (swiftui, additive) as the bound moves on; each refinement's
    /// bound is a lower bound on the first empty frame, and every step is monotone in the release instant, so the
    /// refined bound for an earlier release is a lower bound for a later one too. Entry c is that bound, refined to
    /// convergence, for the release a nanosecond before cell c of the fill (`releaseCells` equal cells from its start);
    /// a release after the fill is complete scales a floor of 1 that no longer rises: `emptyOffsetWhenFull` after it.
    /// Empty where it does not apply (Timer and spring fills, curves that can decrease, other retracts).
    private let emptyBoundByRelease: [Int64]
    /// Whether anything reads the held progress at the release (`retractFrom.progress`): a Timer fill, a spring, a
    /// retract that scales the progress at the release (fromCurrent) or plays the fill backwards, and the first-empty
    /// search's refinement where `emptyBoundByRelease` does not apply. Elsewhere (swiftui and additive retracts
    /// scale the held fill itself) it is not computed: NaN.
    private let needsReleaseProgress: Bool
    private let releaseCellsPerNanosecond: Double
    private let emptyOffsetWhenFull: Int64
    static let releaseCells = 4096
    /// Nanoseconds after the release beyond which a retract animation along a never-decreasing curve can no longer
    /// look full (its model is at most 1 − done, and `done` has passed 1 − fullLevel), for a fill that never
    /// decreases (so never above 1); nil without such a bound.
    private let retractFullWindow: Int64?
    /// Nanoseconds after the release from which a retract animation along a never-decreasing curve draws the bar
    /// empty on every frame, for a fill that never decreases (`Int64.max` otherwise): the model is at most 1 − done
    /// (the progress it scales or subtracts from is at most 1), and from here on `done` is above 1 − resolution, on
    /// the exact division of a linear retract, or on the lower bound a Bézier's table certifies for the solver's
    /// value; `drawn` decides every such frame the same way without evaluating it.
    private let retractEmptyAfter: Int64

    /// Without a Timer fill or progress pulses, the held timeline but for its frames does not depend on the person:
    /// recognition, the fill's start and completion and the trigger are computed once, into `lastHeld`, and every
    /// hold sets the rest of it.
    private let phaseOnlyTimeline: Bool
    /// The completion pulse's request with such a timeline, when `haptics.onComplete` and the action can fire.
    private let completionRequest: PulseRequest?

    // The Timer fill's fires (instant, progress after the fire before capping at 1), when the fill is a timer.
    @exclusivity(unchecked) private var tickTimes = ReusedArray<Int64>()
    @exclusivity(unchecked) private var tickProgress = ReusedArray<Double>()
    // Progress steps reached while held (instant), before the throttle.
    @exclusivity(unchecked) private var progressRequests = ReusedArray<Int64>()
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
    @exclusivity(unchecked) private var retractFrom = (progress: 0.0, velocity: 0.0, clock: Int64(0))
    @exclusivity(unchecked) private var retracting = false
    /// The action fired and the fill stays: the held fill runs on after the press.
    @exclusivity(unchecked) private var runsOn = false

    public convenience init(_ prepared: PreparedControl) {
        self.init(prepared, shortcuts: true)
    }

    /// - Parameter shortcuts: false takes the general path everywhere (no phase-only timeline, no release-indexed
    ///   retract bound, no certain-empty stop, no lone-completion-pulse count), so tests can hold the shortcuts
    ///   against it.
    init(_ prepared: PreparedControl, shortcuts: Bool) {
        self.prepared = prepared
        self.shortcuts = shortcuts
        let control = prepared.control
        switch prepared.shape {
        case .none:
            fillKind = .none; fillBezier = nil; fillDuration = 0; fillSpring = .smooth
        case .bezier(let bezier, let duration):
            fillKind = .bezier; fillBezier = bezier; fillDuration = duration; fillSpring = .smooth
        case .spring(let spring):
            fillKind = .spring; fillBezier = nil; fillDuration = 0; fillSpring = spring
        case .timer:
            fillKind = .timer; fillBezier = nil; fillDuration = 0; fillSpring = .smooth
        }
        fillCurve = fillBezier ?? .linear
        fillRate = fillDuration > 0 ? 1 / Double(fillDuration) : 0
        fillBoundsReach = UnitBezierBounds.reach + fillRate
        fillIsBezier = fillBezier != nil
        fillBounds = prepared.fillBounds
        threshold = control.haptics.threshold
        onComplete = control.haptics.onComplete
        triggerFollowsGesture = control.trigger.source == .gesture
        retractMode = control.retract.mode
        interruption = control.retract.interruption
        staysAfterTrigger = control.retract.afterTrigger == .stay
        switch control.retract.curve {
        case .linear: retractBezier = nil; retractSpring = nil
        case .bezier(let curve): retractBezier = curve; retractSpring = nil
        case .spring(let spring): retractBezier = nil; retractSpring = spring
        }
        retractCurve = retractBezier ?? .linear
        retractIsBezier = retractBezier != nil
        resolution = control.display.resolution
        visibleLevel = prepared.visibleLevel
        fullLevel = prepared.fullLevel
        let spring: Spring? = if case .spring(let spring) = prepared.shape { spring } else { nil }
        visibleSearchStart = Self.searchStart(afterStart: prepared.visibleAfterStart, level: visibleLevel, spring: spring)
        fullSearchStart = Self.searchStart(afterStart: prepared.fullAfterStart, level: fullLevel, spring: spring)
        nominalFill = prepared.nominalFillNanoseconds ?? 0
        recognition = Instant.nanoseconds(control.gesture.minimumDurationSeconds)
        triggerOffset = Instant.nanoseconds(control.trigger.offsetSeconds)
        minInterval = Instant.nanoseconds(control.haptics.minIntervalSeconds)
        frameRate = FrameRate(control.display.refreshRateHz)
        retractDurationNanoseconds = control.retract.durationSeconds.map(Instant.nanoseconds)
            ?? prepared.nominalFillNanoseconds ?? 0
        if let duration = control.retract.durationSeconds, let nominal = prepared.nominalFillSeconds {
            reverseRate = nominal / duration
        } else {
            reverseRate = 1
        }
        retractSolverMargin = Int64((2e-7 * Double(retractDurationNanoseconds)).rounded(.up)) + 2
        retractBounds = prepared.retractBounds
        if control.retract.mode == .animation, let inverse = prepared.retractInverse {
            // The factor the retract scales, else (additive, not a Timer fill) the progress it subtracts from.
            let scales = interruption != .additive || fillKind == .timer
            let level = prepared.visibleLevel
            let cells = Double(PreparedControl.retractInverseCells)
            let duration = Double(retractDurationNanoseconds)
            let margin = retractSolverMargin
            retractBoundByFloor = (0...Self.floorCells).map { index in
                let floor = Double(index) / Double(Self.floorCells)
                let target = (scales ? (floor > level ? 1 - level / floor : 0) : floor - level) - 1e-12
                guard target > 0 && target < 1 else { return 0 }
                return Swift.max(0, Int64(inverse[Int(target * cells)] * duration) - margin)
            }
        } else {
            retractBoundByFloor = []
        }
        retractRate = retractDurationNanoseconds > 0 ? 1 / Double(retractDurationNanoseconds) : 0
        retractBoundsReach = UnitBezierBounds.reach + retractRate
        if control.retract.mode == .animation, let inverse = prepared.retractInverse, prepared.fillNeverDecreases {
            // Looking full needs fl(model) ≥ fullLevel with model ≤ 1 − done, so done ≤ 1 − fullLevel (plus rounding);
            // the table's next cell above that level is a later instant of the exact curve.
            let cells = PreparedControl.retractInverseCells
            let cell = Swift.min(cells, Int((1 - prepared.fullLevel + 1e-12) * Double(cells)) + 1)
            retractFullWindow = Int64((inverse[cell] * Double(retractDurationNanoseconds)).rounded(.up))
                + retractSolverMargin
        } else {
            retractFullWindow = nil
        }
        retractEmptyAfter = !shortcuts ? .max : Self.retractEmptyAfter(
            prepared, duration: retractDurationNanoseconds, rate: retractRate, reach: retractBoundsReach)
        if case .none = prepared.shape {
            fillStart = nil
        } else {
            fillStart = (control.fill.start == .touchDown ? 0 : recognition) + Instant.nanoseconds(control.fill.delaySeconds)
        }
        if shortcuts, case .bezier(let bezier, let duration) = prepared.shape, prepared.fillNeverDecreases, duration > 0,
           !retractBoundByFloor.isEmpty, let start = fillStart {
            let table = retractBoundByFloor
            let rises = interruption != .fromCurrent
            func held(_ instant: Int64) -> Double {
                PreparedControl.bezierProgress(bezier, duration: duration, clock: instant - start)
            }
            // The search's refinement (see `firstEmptyFrame`), run until the bound stops moving.
            let width = Double(duration) / Double(Self.releaseCells)
            emptyBoundByRelease = (0..<Self.releaseCells).map { cell in
                let release = start + Int64((Double(cell) * width).rounded(.down)) - 1
                return Self.refinedBound(release: release, floor: held(release), rises: rises, table: table, steps: 64,
                                         held: held)
            }
            releaseCellsPerNanosecond = Double(Self.releaseCells) / Double(duration)
            emptyOffsetWhenFull = table[Self.floorCells]
        } else {
            emptyBoundByRelease = []
            releaseCellsPerNanosecond = 0
            emptyOffsetWhenFull = 0
        }
        if case .bezier(nil, let duration) = prepared.shape {
            linearThresholds = (PreparedControl.firstInstant(nil, duration: duration, reaching: prepared.visibleLevel),
                                PreparedControl.firstInstant(nil, duration: duration, reaching: prepared.fullLevel))
        } else {
            linearThresholds = nil
        }
        if shortcuts && fillKind != .timer && threshold == 0 {
            var timeline = HeldTimeline(framePhase: 0, recognition: recognition)
            if let start = fillStart {
                timeline.fillStart = start
                timeline.fillComplete = start + nominalFill
            }
            timeline.trigger = Self.trigger(followsGesture: triggerFollowsGesture, recognition: recognition,
                                            offset: triggerOffset, fillComplete: timeline.fillComplete)
            phaseOnlyTimeline = true
            lastHeld = timeline
            completionRequest = onComplete ? timeline.trigger.map { PulseRequest(time: $0, kind: .completion, status: .played) }
                : nil
        } else {
            phaseOnlyTimeline = false
            completionRequest = nil
        }
        needsReleaseProgress = !shortcuts || fillKind == .timer || fillKind == .spring || retractSpring != nil
            || interruption == .fromCurrent || retractMode != .animation || emptyBoundByRelease.isEmpty
        if case .timer(let timer, let ticks) = prepared.shape {
            tickInterval = Instant.nanoseconds(timer.tickSeconds)
            tickTimes.reserveCapacity(ticks)
            tickProgress.reserveCapacity(ticks)
        } else {
            tickInterval = 0
        }
        progressRequests.reserveCapacity(256)
        pulseRequests.reserveCapacity(256)
    }

    /// See `retractEmptyAfter`.
    private static func retractEmptyAfter(_ prepared: PreparedControl, duration: Int64, rate: Double, reach: Double)
        -> Int64
    {
        let control = prepared.control
        guard control.retract.mode == .animation, prepared.fillNeverDecreases, duration > 0 else { return .max }
        let level = prepared.visibleLevel
        switch control.retract.curve {
        case .linear:
            // done = elapsed / duration never decreases in elapsed: the first elapsed with 1 − done below the level.
            func empty(_ elapsed: Int64) -> Bool { 1 - Double(elapsed) / Double(duration) < level }
            guard empty(duration) else { return .max }
            var low: Int64 = 0, high = duration
            while high - low > 1 {
                let middle = low + (high - low) / 2
                if empty(middle) { high = middle } else { low = middle }
            }
            return empty(low) ? low : high
        case .bezier:
            // 1 − lower < level for every x at or after the table's time (1 − lower is exact near 1).
            guard let bounds = prepared.retractBounds,
                  let time = bounds.firstTime(lowerBoundAbove: 1 - level, reach: reach) else { return .max }
            // Double(elapsed) · rate is within a few ulps of elapsed / duration: two nanoseconds more cover it.
            return Swift.min(duration, Int64((time / rate).rounded(.up)) + 2)
        case .spring:
            return .max
        }
    }

    /// Requested pulses of the last `hold` (time in seconds, played).
    var requestedPulses: [(time: Double, played: Bool)] {
        pulseRequests.map { (Instant.seconds($0.time), $0.status == .played) }
    }

    @inline(__always)
    private func frameClock(_ phase: Double) -> FrameClock {
        FrameClock(frameRate, phase: phase)
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
        let clock = frameClock(framePhase)
        progressRequests.removeAll()
        pulseRequests.removeAll()
        if phaseOnlyTimeline {
            // Everything but the phase and the frames is the same for every person and already in `lastHeld` (set
            // in `init`); the only haptic request is the completion pulse.
            lastHeld.framePhase = framePhase
            if let start = fillStart { findShownFrames(&lastHeld, start: start, clock: clock) }
            if let completionRequest { pulseRequests.append(completionRequest) }
            return
        }
        var timeline = HeldTimeline(framePhase: framePhase, recognition: recognition)
        tickTimes.removeAll()
        tickProgress.removeAll()

        switch fillKind {
        case .none:
            break
        case .bezier, .spring:
            guard let start = fillStart else { break }
            timeline.fillStart = start
            timeline.fillComplete = start + nominalFill
        case .timer:
            guard let start = fillStart, case .timer(let timer, let ticks) = prepared.shape else { break }
            timeline.fillStart = start
            runTimer(timer, ticks: ticks, start: start, latencies: &latencies)
            timeline.fillComplete = tickTimes.last
        }
        timeline.trigger = Self.trigger(followsGesture: triggerFollowsGesture, recognition: recognition,
                                        offset: triggerOffset, fillComplete: timeline.fillComplete)
        if let start = timeline.fillStart {
            findShownFrames(&timeline, start: start, clock: clock)
            if threshold > 0 { requestProgressPulses(start: start, clock: clock) }
        }
        schedulePulses(completion: onComplete ? timeline.trigger : nil)
        if !progressRequests.isEmpty {
            timeline.firstPlayedPulse = pulseRequests.first { $0.kind == .progress && $0.status == .played }?.time
        }
        lastHeld = timeline
    }

    /// The first frames on which the fill looks started and full.
    @inline(__always)
    private func findShownFrames(_ timeline: inout HeldTimeline, start: Int64, clock: FrameClock) {
        let shown = shownFrames(start: start, clock: clock)
        timeline.firstVisibleFrame = shown.visible == .max ? nil : shown.visible
        timeline.firstFullFrame = shown.full == .max ? nil : shown.full
    }

    /// The first frames on which a fill starting at `start` looks started and full (`.max` for never).
    @inline(__always)
    private func shownFrames(start: Int64, clock: FrameClock) -> ShownFrames {
        if let (visible, full) = linearThresholds {
            // A linear fill's progress, Double(clock) / Double(duration) clamped to [0, 1], never decreases in the
            // integer clock (division by a positive constant is monotone in floating point), so the first frame
            // showing a level is the first frame at or after the first clock that reaches it (found once per
            // control by bisection): the frame the search from the tabulated inverse finds, without evaluating it.
            return ShownFrames(
                visible: visible == .max ? .max : clock.time(ofFrame: clock.firstFrame(atOrAfter: start + visible)),
                full: full == .max ? .max : clock.time(ofFrame: clock.firstFrame(atOrAfter: start + full)))
        }
        return ShownFrames(
            visible: firstFrame(showing: visibleLevel, from: start + visibleSearchStart, clock: clock) ?? .max,
            full: firstFrame(showing: fullLevel, from: start + fullSearchStart, clock: clock) ?? .max)
    }

    /// Where the frame-by-frame search for the first frame that shows a fill at `level` may start, after the fill's
    /// start, when its first instant at the level is `seconds` after it: `lowerBound(seconds)`, 50 ms early; for a
    /// spring, as late as its values allow.
    ///
    /// A spring fill from rest rises monotonically until it first reaches any level up to 1 (it overshoots only after
    /// its first peak, which comes after: x(t) = −e^(−αt)(cos ω_d t + (α/ω_d) sin ω_d t) climbs to e^(−απ/ω_d) > 0
    /// at t = π/ω_d, and a critically or over-damped one climbs for ever). Its closed form has no solver tolerance,
    /// so when its value some margin before `firstEntry` is still below the level by far more than rounding (10⁻⁹),
    /// so is every earlier value, and no earlier frame can show the level: the search starts there, the shortest of
    /// 10 µs, 100 µs, 1 ms and 10 ms that holds (50 ms when none does), and finds the frame it always found, after
    /// one or two evaluations instead of about seven.
    private static func searchStart(afterStart seconds: Double?, level: Double, spring: Spring?) -> Int64 {
        let widest = lowerBound(seconds)
        guard let spring, let seconds, seconds.isFinite else { return widest }
        let entry = Instant.nanoseconds(seconds)
        for margin: Int64 in [10_000, 100_000, 1_000_000, 10_000_000] {
            let from = entry - margin
            if from <= widest { break }
            if springProgress(spring, clock: from) < level - 1e-9 { return from }
        }
        return widest
    }

    /// When the action fires if the finger is still down: at recognition plus the offset when it follows the gesture,
    /// else when the fill completes plus the offset (never without a fill).
    private static func trigger(followsGesture: Bool, recognition: Int64, offset: Int64, fillComplete: Int64?) -> Int64? {
        followsGesture ? recognition + offset : fillComplete.map { $0 + offset }
    }

    /// How far below a haptic step a frame's progress may be and still reach it (rounding of `last + threshold`).
    static let stepTolerance = 1e-12

    /// A safe earliest instant for a search that starts at `seconds` after the fill's start: 50 ms earlier, because
    /// the level comes from an exact inverse while the curve is evaluated by a solver whose 1e-7 tolerance (of the
    /// duration: 0.4 ms for an hour-long fill) can reach it a little sooner. The search checks every frame from there.
    private static func lowerBound(_ seconds: Double?) -> Int64 {
        max(0, Instant.nanoseconds(seconds ?? 0) - 50_000_000)
    }

    private func runTimer<Latencies: TickLatencySource>(
        _ timer: TimerFill, ticks: Int, start: Int64, latencies: inout Latencies
    ) {
        var progression = timer.progression
        var slot: Int64 = 1
        let maximumLatency = Instant.nanoseconds(TimerFill.maximumLatencySeconds)
        for _ in 0..<ticks {
            // Never early; NaN counts as on time; an hour at most (a pathological draw cannot overflow the slots).
            let drawn = latencies.nextLatencySeconds()
            let latency = drawn > 0 ? min(Instant.nanoseconds(drawn), maximumLatency) : 0
            let fireTime = start + slot * tickInterval + latency
            let progress = progression.next()
            // Stored as computed: the pulse check sees it before the fill caps it at 1 (seed 000's order).
            tickTimes.append(fireTime)
            tickProgress.append(progress)
            // A repeating timer keeps its schedule; slots that passed while it was late are coalesced.
            slot += 1 + latency / tickInterval
        }
    }

    /// The first frame at or after `earliest` whose held progress is at least `level` (progress may dip again
    /// for curves that leave [0, 1], hence the check). A Timer fill's progress only rises and changes on its
    /// fires, so the answer is the first frame at or after the first fire that reaches the level (a frame at the
    /// instant of a fire shows it: the Timer fires before the frame renders).
    private func firstFrame(showing level: Double, from earliest: Int64, clock: FrameClock) -> Int64? {
        if fillKind == .timer {
            guard let tick = tickProgress.firstIndex(where: { min(1, $0) >= level }) else { return nil }
            return clock.time(ofFrame: clock.firstFrame(atOrAfter: tickTimes[tick]))
        }
        if let start = fillStart, let (frame, _) = firstFrameReaching(
            (level, level), exactLevel: { level }, start: start, from: 0, through: Int.max - 1, clock: clock) {
            return frame == .max ? nil : clock.time(ofFrame: frame)
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

    /// The instants at which progress passes the last request's progress + threshold.
    private func requestProgressPulses(start: Int64, clock: FrameClock) {
        var lastRequestProgress = 0.0
        if fillKind == .timer {
            // Checked on every tick, after the increment (seed 000's order).
            for index in tickTimes.indices where tickProgress[index] >= lastRequestProgress + threshold {
                lastRequestProgress = tickProgress[index]
                progressRequests.append(tickTimes[index])
            }
            return
        }
        // Checked on every frame while the fill moves, and on the first frame after it completes. A frame that lands
        // exactly on a step (0.95 = 114/120 after 0.90 with threshold 0.05) reaches it: the comparison forgives the
        // rounding of `last + threshold` (1e-12 of progress, far below anything a display or a hand can tell).
        let end = start + nominalFill
        var index = clock.firstFrame(atOrAfter: start)
        if prepared.fillInverse != nil {
            // A fill that never decreases: jump to the first frame that can reach each next step (the same frames
            // the loop below would find, without evaluating the frames in between).
            // The last request's progress is kept as bounds (`firstFrameReaching`); its exact value, from its
            // frame, only when a step is too close to call.
            let last = clock.firstFrame(atOrAfter: end)
            var reached = (lower: 0.0, upper: 0.0)
            var reachedAt = start
            let threshold = threshold
            while let (frame, progress) = firstFrameReaching(
                (reached.lower + threshold - Self.stepTolerance, reached.upper + threshold - Self.stepTolerance),
                exactLevel: {
                    let exact = reached.lower == reached.upper ? reached.lower : fillProgress(clock: reachedAt - start)
                    return exact + threshold - Self.stepTolerance
                },
                start: start, from: index, through: last, clock: clock), frame <= last {
                reached = progress
                reachedAt = clock.time(ofFrame: frame)
                progressRequests.append(reachedAt)
                index = frame + 1
            }
            return
        }
        while true {
            let time = clock.time(ofFrame: index)
            let progress = heldProgress(at: time)
            if progress >= lastRequestProgress + threshold - Self.stepTolerance {
                lastRequestProgress = progress
                progressRequests.append(time)
            }
            if time >= end { break }
            index += 1
        }
    }

    /// Merges the progress requests with the completion request and applies the throttle (see the type's rule).
    private func schedulePulses(completion: Int64?) {
        if progressRequests.isEmpty {
            // The completion pulse alone (no progress steps): the first request always plays.
            if let completion { pulseRequests.append(PulseRequest(time: completion, kind: .completion, status: .played)) }
            return
        }
        var lastRequest: Int64?
        var lastPlayed: Int64?
        var pendingCompletion = completion
        func take(_ time: Int64, _ kind: PulseRequest.Kind) {
            if time == lastRequest { return }
            lastRequest = time
            let played = lastPlayed.map { time - $0 >= minInterval } ?? true
            if played { lastPlayed = time }
            pulseRequests.append(PulseRequest(time: time, kind: kind, status: played ? .played : .dropped))
        }
        for time in progressRequests {
            if let completion = pendingCompletion, completion <= time {
                take(completion, .completion)
                pendingCompletion = nil
            }
            take(time, .progress)
        }
        if let completion = pendingCompletion { take(completion, .completion) }
    }

    /// Model progress at `time` (nanoseconds) if the finger stays down.
    @inline(__always)
    public func heldProgress(at time: Int64) -> Double {
        guard let start = fillStart else { return 0 }
        let clock = time - start
        switch fillKind {
        case .none:
            return 0
        case .bezier:
            return fillProgress(clock: clock)
        case .spring:
            return Self.springProgress(fillSpring, clock: clock)
        case .timer:
            return timerProgress(at: time)
        }
    }

    /// A spring fill's progress `clock` nanoseconds after its start (from rest at 0 toward 1).
    @inline(__always)
    private static func springProgress(_ spring: Spring, clock: Int64) -> Double {
        clock <= 0 ? 0 : 1 + spring.state(at: Instant.seconds(clock), x0: -1, v0: 0).displacement
    }

    /// A Bézier (or linear) fill's progress `clock` nanoseconds after its start.
    @inline(__always)
    private func fillProgress(clock: Int64) -> Double {
        if clock <= 0 { return 0 }
        if clock >= fillDuration { return 1 }
        let u = Double(clock) / Double(fillDuration)
        guard fillIsBezier else { return u }
        return fillCurve.value(at: u)
    }

    /// Bounds on the progress a never-decreasing fill shows on `frame`, without solving its curve and without placing
    /// the frame on the integer clock: the frame's normalised time from its real instant is within half a nanosecond
    /// (plus far less in rounding) of the exact one, which `fillBoundsReach` covers (see `UnitBezierBounds`).
    @inline(__always)
    private func fillProgressBounds(frame: Int, start: Int64, clock: FrameClock,
                                    bounds: UnitBezierBounds) -> (lower: Double, upper: Double) {
        let u = ((Double(frame) + clock.phase) * clock.intervalNanoseconds - Double(start)) * fillRate
        return bounds.bounds(at: u, reach: fillBoundsReach)
    }

    /// The first frame from `index` through `last` on which a never-decreasing Bézier fill shows at least a level,
    /// with bounds on the progress it shows: from the fill's tabulated inverse forward (see
    /// `PreparedControl.fillInverse`). `(Int.max, 0)` when none does; nil when the fill has no table.
    ///
    /// The level comes as bounds, with `exactLevel` to compute it; each frame is first judged on bounds of its
    /// progress (`fillProgressBounds`), and only a frame the bounds cannot settle is evaluated, against the exact
    /// level. So the answer is the frame the exact values give, found with about one solve in fifty.
    @inline(__always)
    private func firstFrameReaching(_ level: (lower: Double, upper: Double), exactLevel: () -> Double, start: Int64,
                                    from index: Int, through last: Int, clock: FrameClock)
        -> (frame: Int, progress: (lower: Double, upper: Double))?
    {
        guard let table = prepared.fillInverse else { return nil }
        var level = level
        let cells = PreparedControl.fillInverseCells
        func cell(_ level: Double) -> Int { level <= 0 ? 0 : min(cells, Int(level * Double(cells))) }
        // The search starts from the lower level's cell: no frame before the exact level's start reaches it (that
        // start is the first frame at or after the first instant whose progress reaches the cell's level), so a frame
        // in between is at worst evaluated and found short, and the answer is the same.
        if level.upper > 1 && level.lower <= 1 {
            let exact = exactLevel()
            level = (exact, exact)
        }
        if level.lower > 1 { return (Int.max, (0, 0)) }
        // Any frame up to the first at or after that instant is a safe start: the loops check every frame from it.
        var frame = max(index, clock.frameNoLaterThanFirst(atOrAfter: start + table[cell(level.lower)]))
        guard let bounds = fillBounds else {
            // A linear fill (its exact progress is a division) or a fill without bounds: the exact progress.
            let exact = level.lower == level.upper ? level.lower : exactLevel()
            while frame <= last {
                let progress = fillProgress(clock: clock.time(ofFrame: frame) - start)
                if progress >= exact { return (frame, (progress, progress)) }
                frame += 1
            }
            return (Int.max, (0, 0))
        }
        while frame <= last {
            let shown = fillProgressBounds(frame: frame, start: start, clock: clock, bounds: bounds)
            if shown.lower >= level.upper { return (frame, shown) }
            if shown.upper >= level.lower {
                let elapsed = clock.time(ofFrame: frame) - start
                // Too close to call on bounds: the exact progress against the exact level.
                if level.lower != level.upper {
                    let exact = exactLevel()
                    level = (exact, exact)
                }
                let progress = fillProgress(clock: elapsed)
                if progress >= level.lower { return (frame, (progress, progress)) }
            }
            frame += 1
        }
        return (Int.max, (0, 0))
    }

    /// Model progress at `seconds` after touch-down if the finger stays down.
    public func heldProgress(atSeconds seconds: Double) -> Double {
        heldProgress(at: Instant.nanoseconds(seconds))
    }

    /// Progress of the Timer fill at `time`: that of the last fire at or before it.
    private func timerProgress(at time: Int64) -> Double {
        var low = 0
        var high = tickTimes.count
        while low < high {
            let mid = (low + high) / 2
            if tickTimes[mid] <= time { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? 0 : min(1, tickProgress[low - 1])
    }

    private func heldVelocity(at time: Int64) -> Double {
        guard let start = fillStart else { return 0 }
        switch fillKind {
        case .bezier:
            return PreparedControl.bezierVelocity(fillBezier, duration: fillDuration, clock: time - start)
        case .spring:
            return time <= start ? 0 : fillSpring.state(at: Instant.seconds(time - start), x0: -1, v0: 0).velocity
        case .none, .timer:
            return 0
        }
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
        let held = lastHeld
        let (summary, rest) = release(
            end: end, phase: held.framePhase, shown: ShownFrames(visible: held.firstVisibleFrame ?? .max,
                                                                 full: held.firstFullFrame ?? .max),
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
    private func release(end: Int64, phase: Double, shown: ShownFrames, firstPlayedPulse: Int64?, trigger: Int64?,
                         fillStart: Int64?, fillComplete: Int64?) -> (summary: HoldSummary, rest: Int64) {
        // The searches read the press end through `progress(at:)`.
        lastOutcome.pressEnd = end
        var summary = HoldSummary()
        let completed = trigger.map { $0 <= end } ?? false
        summary.completed = completed

        // Pulses while the finger is down. The schedule assumed the finger stays down; requests up to the end of
        // the press did not depend on that (the completion request is at the trigger, so it is in only if the
        // action fired, and it changes only what follows it).
        if progressRequests.isEmpty && shortcuts {
            // The completion pulse alone, at the trigger: the first request, so played, and felt if the action fired.
            if completed && onComplete { summary.pulses = 1 }
        } else {
            var previousPlayed: Int64?
            var shortestGap = Int64.max
            for request in pulseRequests {
                guard countsWhileDown(request.time, kind: request.kind, end: end) else { break }
                guard request.status == .played else { summary.droppedPulses += 1; continue }
                if let previous = previousPlayed { shortestGap = min(shortestGap, request.time - previous) }
                previousPlayed = request.time
                summary.pulses += 1
            }
            summary.shortestPulseGap = shortestGap
        }
        // Feedback felt while the finger was down: a frame at the release instant renders after the release.
        var feedback = Int64.max
        if shown.visible < end { feedback = shown.visible }
        if let pulse = firstPlayedPulse, countsWhileDown(pulse, kind: .progress, end: end) {
            feedback = min(feedback, pulse)
        }
        if let trigger, trigger <= end { feedback = min(feedback, trigger) }
        summary.feedback = feedback

        let clock = frameClock(phase)
        if completed, let trigger {
            if let frame = clock.lastFrame(atOrBefore: trigger) {
                summary.displayedProgressAtTrigger = Self.displayed(heldProgress(at: clock.time(ofFrame: frame)))
            } else {
                summary.displayedProgressAtTrigger = 0
            }
        }

        // What the fill does after the press: it runs on (the action fired and the fill stays), retracts (it had
        // started), or shows nothing (it had not started yet).
        var rest = end
        retracting = false
        runsOn = completed && staysAfterTrigger
        if runsOn {
            rest = max(end, fillComplete ?? end)
        } else if let start = fillStart, end > start {
            retracting = true
            rest = retractEnd(pressEnd: end, start: start, fillComplete: fillComplete)
            summary.firstEmptyFrame = firstEmptyFrame(after: end, rest: rest, clock: clock)
        }

        // What the person saw: the first frame that drew the bar full in this hold, if any.
        summary.firstFullFrameSeen = firstFullFrameSeen(
            full: shown.full, end: end, emptyFrame: summary.firstEmptyFrame, clock: clock)
        return (summary, rest)
    }

    // MARK: - Blocks of holds

    /// Whether the held timeline depends on the person only through the frame phase (no Timer fill, no progress
    /// pulses), so that a simulation can take a block of people through `shownFrames(phases:into:)`, decide when each
    /// lets go, and `summarize` the block: the same answers as `evaluateHold` and `evaluateRelease` person by person
    /// (the same code), without a timeline and an outcome built and read back for each. The trigger, recognition
    /// and fill instants are then the same for everyone: `held`'s.
    public var summarizes: Bool { phaseOnlyTimeline }

    /// The first frames that show the fill started and full for each frame phase. Requires `summarizes`.
    public func shownFrames(phases: UnsafeBufferPointer<Double>, into shown: UnsafeMutablePointer<ShownFrames>) {
        precondition(phaseOnlyTimeline, "shownFrames(phases:into:) needs a timeline that depends on the phase alone")
        guard let start = fillStart else {
            for index in phases.indices { shown[index] = ShownFrames(visible: .max, full: .max) }
            return
        }
        for index in phases.indices { shown[index] = shownFrames(start: start, clock: frameClock(phases[index])) }
    }

    /// The summaries of a block of holds: person i held with frame phase `phases[i]` (its frames `shown[i]`) and
    /// the press ended at `ends[i]`. Requires `summarizes`. Afterwards `outcome` and the model (`progress(at:)`) are
    /// the last person's retract state only; read them after `evaluateRelease`.
    public func summarize(phases: UnsafeBufferPointer<Double>, shown: UnsafePointer<ShownFrames>,
                          ends: UnsafePointer<Int64>, into summaries: UnsafeMutablePointer<HoldSummary>) {
        precondition(phaseOnlyTimeline, "summarize(phases:shown:ends:into:) needs a timeline that depends on the phase alone")
        let held = lastHeld
        for index in phases.indices {
            summaries[index] = release(
                end: ends[index], phase: phases[index], shown: shown[index], firstPlayedPulse: nil,
                trigger: held.trigger, fillStart: held.fillStart, fillComplete: held.fillComplete).summary
        }
    }

    /// Whether a haptic request at `time` is felt for a press that ends at `end`, in the documented same-instant
    /// order: the trigger (and its completion pulse) and a Timer tick come before a release at their instant, a
    /// frame (and the progress pulse it requests) after it.
    @inline(__always)
    func countsWhileDown(_ time: Int64, kind: PulseRequest.Kind, end: Int64) -> Bool {
        time < end || (time == end && (kind == .completion || fillKind == .timer))
    }

    /// The first frame of this hold that draws the bar full (displayed progress ≥ 1 − resolution), or nil.
    ///
    /// Before the press ends the screen shows the held fill, so a held full frame before the end is it; a fill that
    /// runs on shows its own first full frame. After a release (a frame at the release instant renders after it)
    /// the retracting bar is checked frame by frame up to the first frame drawn empty, starting where it can be
    /// full at all: for a fill that never decreases and a retract along a never-decreasing curve the model is at
    /// most the held progress (swiftui, additive) or the progress at the release (fromCurrent, reverse, Timer
    /// fills), so no frame before the held fill's first full frame can be full, and none at all when the progress
    /// at the release is short of full for the latter.
    @inline(__always)
    private func firstFullFrameSeen(full heldFull: Int64, end: Int64, emptyFrame: Int64, clock: FrameClock) -> Int64 {
        if heldFull != .max, heldFull < end || runsOn { return heldFull }
        guard retracting, retractMode != .instant, emptyFrame != .max else { return .max }
        return retractedFullFrame(full: heldFull, end: end, emptyFrame: emptyFrame, clock: clock)
    }

    /// The first frame after the release that draws the retracting bar full, before `emptyFrame` (`.max` for none).
    private func retractedFullFrame(full heldFull: Int64, end: Int64, emptyFrame empty: Int64, clock: FrameClock)
        -> Int64
    {
        // Frames shown at instants in [from, until) are checked.
        var from = end
        var until = empty
        let monotone = prepared.fillNeverDecreases && retractSpring == nil
            && (retractMode == .reverse || prepared.retractInverse != nil)
        if monotone {
            if isTimer || retractMode == .reverse || interruption == .fromCurrent {
                guard retractFrom.progress >= fullLevel else { return .max }
            } else {
                guard heldFull != .max else { return .max }
                from = max(from, heldFull)
            }
        }
        if retractMode == .animation, let window = retractFullWindow { until = min(until, end + window + 1) }
        guard from < until else { return .max }
        let first = clock.firstFrame(atOrAfter: from)
        let last = min(clock.firstFrame(atOrAfter: until), first + Self.frameScanLimit)
        var index = first
        while index < last {
            let time = clock.time(ofFrame: index)
            if drawn(atLeast: fullLevel, at: time) { return time }
            index += 1
        }
        return .max
    }

    /// The most frames a search after the release visits (over two hours at 120 Hz).
    static let frameScanLimit = 1_000_000

    /// The first frame at or after `end` that draws the bar empty (displayed progress below the resolution).
    ///
    /// Frames are checked in order from a safe lower bound: when the retract curve e never decreases, the model is
    /// at least f·(1 − e(τ)) (swiftui, fromCurrent, Timer fills) or f − e(τ) (additive), f a floor under the progress
    /// the retract scales (the progress at the release p for fromCurrent and Timer fills; for a fill that never
    /// decreases, its held progress at any instant already passed, so the floor rises as the bound moves on; for a
    /// spring fill, its envelope after the release, `Spring.fillLowerBound`). No frame before e(τ) reaches
    /// 1 − level/f (or f − level) can be empty, and the tabulated inverse of e gives that τ from below, less the
    /// solver's tolerance (`retractBoundByFloor`, at the grid floor below f). The bound is refined a few times, so
    /// the scan usually evaluates one frame.
    private func firstEmptyFrame(after end: Int64, rest: Int64, clock: FrameClock) -> Int64 {
        var earliest = end
        if retractMode == .instant { return clock.time(ofFrame: clock.firstFrame(atOrAfter: end)) }
        if !emptyBoundByRelease.isEmpty, let start = fillStart {
            // The refined bound of the cell's first release (see `emptyBoundByRelease`); the conversion truncates, and
            // the cell's release is a nanosecond early, so it is never after this release.
            let offset = end - start
            if offset >= fillDuration {
                earliest = end + emptyOffsetWhenFull
            } else {
                let cell = Swift.min(Self.releaseCells - 1, Int(Double(offset) * releaseCellsPerNanosecond))
                earliest = Swift.max(end, emptyBoundByRelease[cell])
            }
        } else if retractMode == .animation, !retractBoundByFloor.isEmpty {
            // Whether the floor scales or is subtracted from is the table's (see `retractBoundByFloor`).
            var floor = -Double.infinity
            var rises = false
            if isTimer || interruption == .fromCurrent {
                floor = retractFrom.progress
            } else if prepared.fillNeverDecreases {
                floor = retractFrom.progress
                rises = true
            } else if fillKind == .spring, let start = fillStart {
                floor = Swift.min(retractFrom.progress,
                                  fillSpring.fillLowerBound(afterSeconds: Instant.seconds(end - start)))
            }
            earliest = Self.refinedBound(release: end, floor: floor, rises: rises, table: retractBoundByFloor,
                                         steps: 3, held: heldProgress(at:))
        }
        // Frames from the first at or after the bound; the first at or after `rest` draws the model at rest, empty.
        // (The bound is at most the first empty frame, which is at most that frame, so the scan reaches it from below.)
        let first = clock.firstFrame(atOrAfter: earliest)
        var index = first
        while index < first + Self.frameScanLimit {
            let time = clock.time(ofFrame: index)
            if time >= rest || time - end >= retractEmptyAfter || !drawn(atLeast: visibleLevel, at: time) { return time }
            index += 1
        }
        return clock.time(ofFrame: index)
    }

    /// The first-empty search's bound for a release at `release`, from a floor under the progress the retract scales
    /// (see `firstEmptyFrame`), refined up to `steps` times: each step reads the search's formula at the grid floor
    /// below the floor (exact in binary: 4,096 cells) from `table`, a bound no later than the formula's own at this
    /// floor, which never decreases in the floor; when the floor `rises` (a held fill that never decreases), the held
    /// progress at the new bound is a higher floor from there on. `release` itself when the floor is not above 0.
    @inline(__always)
    private static func refinedBound(release end: Int64, floor start: Double, rises: Bool, table: [Int64], steps: Int,
                                     held: (Int64) -> Double) -> Int64 {
        var floor = start
        var earliest = end
        for _ in 0..<steps {
            guard floor > 0 else { break }
            let bound = end + table[floor >= 1 ? floorCells : Int(floor * Double(floorCells))]
            guard bound > earliest else { break }
            earliest = bound
            guard rises else { break }
            let next = held(earliest)
            guard next > floor else { break }
            floor = next
        }
        return earliest
    }

    /// Sets up the retract from the state at `end` and returns when its model comes to rest.
    @inline(__always)
    private func retractEnd(pressEnd end: Int64, start: Int64, fillComplete: Int64?) -> Int64 {
        let fillEnd = fillComplete ?? end
        // The velocity carries into a spring retract only; the progress is needed only where a retract scales it.
        let progress = needsReleaseProgress ? heldProgress(at: end) : .nan
        retractFrom = (progress, retractSpring == nil ? 0 : heldVelocity(at: end), min(end, fillEnd) - start)
        switch retractMode {
        case .instant:
            return end
        case .reverse:
            return end + Int64((Double(retractFrom.clock) / reverseRate).rounded(.up))
        case .animation:
            if let spring = retractSpring {
                return end + Instant.nanoseconds(spring.settlingTime(
                    x0: retractFrom.progress, v0: retractFrom.velocity, epsilon: resolution))
            }
            let duration = retractDuration
            if interruption == .additive, !isTimer { return max(end + duration, fillEnd) }
            return end + duration
        }
    }

    private var isTimer: Bool { fillKind == .timer }

    private var retractDuration: Int64 { retractDurationNanoseconds }

    /// Model progress at `time` (nanoseconds) for the last resolved hold: the held fill while the finger is down
    /// (and after it if the action fired and the fill stays), then the retract. May leave [0, 1] (springs,
    /// additive retracts). At the press end itself the retract has begun (a release is processed before a frame at
    /// the same instant renders).
    public func progress(at time: Int64) -> Double {
        let end = lastOutcome.pressEnd
        if time < end { return heldProgress(at: time) }
        if !retracting { return runsOn ? heldProgress(at: time) : 0 }
        let elapsed = time - end
        switch retractMode {
        case .instant:
            return 0
        case .reverse:
            let clock = Double(retractFrom.clock) - Double(elapsed) * reverseRate
            guard clock > 0, let start = fillStart else { return 0 }
            return heldProgress(at: start + Instant.nearest(clock))
        case .animation:
            if let spring = retractSpring {
                return spring.state(at: Instant.seconds(elapsed), x0: retractFrom.progress, v0: retractFrom.velocity)
                    .displacement
            }
            let done = retractDone(elapsed)
            let current = retractFrom.progress
            if isTimer { return current * (1 - done) }
            switch interruption {
            case .swiftui: return heldProgress(at: time) * (1 - done)
            case .additive: return heldProgress(at: time) - done
            case .fromCurrent: return current * (1 - done)
            }
        }
    }

    /// Whether the frame at `time` draws the bar at `level` or above, for the last resolved hold: decided on
    /// `retractProgressBounds` where they settle it, else on `progress(at:)`.
    @inline(__always)
    private func drawn(atLeast level: Double, at time: Int64) -> Bool {
        if let (lower, upper) = retractProgressBounds(at: time) {
            if Self.displayed(lower) >= level { return true }
            if Self.displayed(upper) < level { return false }
        }
        return Self.displayed(progress(at: time)) >= level
    }

    /// Bounds on `progress(at:)` after the press end of a retract animation along a never-decreasing Bézier, without
    /// solving the retract curve (`UnitBezierBounds`); nil where they do not apply (then `progress(at:)` decides).
    ///
    /// `progress(at:)` computes c·(1 − done), h·(1 − done) or h − done in floating point, with c, h exact and done the
    /// solver's value. Rounding is monotone and each form is monotone in done for fixed c or h, so the same
    /// expressions at the two bounds of done bound the exact result.
    @inline(__always)
    private func retractProgressBounds(at time: Int64) -> (lower: Double, upper: Double)? {
        guard retracting, let bounds = retractBounds else { return nil }
        let end = lastOutcome.pressEnd
        guard time >= end else { return nil }
        let elapsed = time - end
        // The ends are exact in retractDone: no bounds needed.
        guard elapsed > 0 && elapsed < retractDurationNanoseconds else { return nil }
        let done = bounds.bounds(at: Double(elapsed) * retractRate, reach: retractBoundsReach)
        func scaled(_ factor: Double) -> (lower: Double, upper: Double) {
            let a = factor * (1 - done.upper), b = factor * (1 - done.lower)
            return (Swift.min(a, b), Swift.max(a, b))
        }
        if isTimer { return scaled(retractFrom.progress) }
        switch interruption {
        case .swiftui: return scaled(heldProgress(at: time))
        case .additive:
            let held = heldProgress(at: time)
            return (held - done.upper, held - done.lower)
        case .fromCurrent: return scaled(retractFrom.progress)
        }
    }

    /// How far a Bézier (or linear) retract animation has come `elapsed` nanoseconds after the release.
    @inline(__always)
    private func retractDone(_ elapsed: Int64) -> Double {
        let duration = retractDurationNanoseconds
        if elapsed <= 0 { return 0 }
        if elapsed >= duration { return 1 }
        let u = Double(elapsed) / Double(duration)
        guard retractIsBezier else { return u }
        return retractCurve.value(at: u)
    }

    /// Model progress at `seconds` after touch-down for the last resolved hold.
    public func progress(atSeconds seconds: Double) -> Double {
        progress(at: Instant.nanoseconds(seconds))
    }

    /// What the screen shows for a model progress: negative values draw an empty bar, overshoot a full one.
    @inline(__always)
    public static func displayed(_ progress: Double) -> Double {
        min(1, max(0, progress))
    }
}
