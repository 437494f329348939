/// What the fill does once the press has ended and the action has not kept it (DOMAIN §5): the retract's rules, the
/// model of the bar after the release, and the searches for the first frames that draw it empty and full, with the
/// tables that let them start late. Built once per evaluator from the control; the state of one release is a
/// `RetractOrigin`.
///
/// Every method that reads the held fill takes it as a generic `Fill` (with its start and its steps), so it is
/// specialised for the control's fill model.
///
/// Immutable. A class so that the per-person path reads it in place: a struct of this size (about 380 bytes, a retract
/// curve with its spline samples and a dozen tables and bounds) was copied at every call that took it.
final class RetractPlan {
    let mode: Retract.Mode
    let interruption: Retract.Interruption
    let staysAfterTrigger: Bool
    /// The retract animation's curve stored unwrapped (`UnitBezier.linear` for a linear retract or a spring) with
    /// `isBezier`: evaluating it in place avoids unwrapping, which copies the whole curve (its spline samples, about
    /// 170 bytes) on every frame.
    let curve: UnitBezier
    let isBezier: Bool
    /// The retract's spring, which merges with the fill keeping position and velocity; nil for a timing curve.
    let spring: Spring?
    /// Bounds on the retract curve's value from a table, for a never-decreasing Bézier retract animation (else nil).
    let bounds: UnitBezierBounds?
    /// A retract animation's duration: its own, or the fill's ("match").
    let duration: Int64
    /// 1 / the retract animation's duration, and `UnitBezierBounds.reach` plus a nanosecond of it.
    let rate: Double
    let boundsReach: Double
    /// Fill-clock time undone per unit of time of a `reverse` retract.
    let reverseRate: Double
    /// How much earlier (nanoseconds) than the exact curve the solver may reach a level: its tolerance is 1e-7 of
    /// the normalised time, so 2e-7 of the retract's duration and the rounding of the instants cover it.
    let solverMargin: Int64
    /// For a retract animation along a tabulated curve (`PreparedControl.retractInverse`), else empty: entry j is the
    /// first-empty search's bound (see `firstEmptyFrame`) for a floor f = j / `floorCells`, in nanoseconds after the
    /// release: τ from the tabulated inverse at the target 1 − level/f (the model scales the floor: swiftui,
    /// fromCurrent, Timer fills) or f − level (additive), less 1e-12 of progress for rounding, times the duration,
    /// less the solver margin; 0 where the target is not in (0, 1). Every step is monotone in f, so the entry of the
    /// grid value at or below a floor is a bound no later than the formula at that floor: one load per refinement
    /// instead of a division and two conversions (2¹² cells: the grid costs far less than the inverse's own cells).
    let boundByFloor: [Int64]
    static let floorCells = 4096
    /// For a Bézier (or linear) fill that never decreases, with `boundByFloor`: the first-empty search's bound
    /// as a function of the release instant alone, so a person's search starts with one load instead of refining a
    /// floor (a chain of divisions and loads per person). The floor under the progress the retract scales is the held
    /// progress at the release, rising with the held fill (swiftui, additive) as the bound moves on; each refinement's
    /// bound is a lower bound on the first empty frame, and every step is monotone in the release instant, so the
    /// refined bound for an earlier release is a lower bound for a later one too. Entry c is that bound, refined to
    /// convergence, for the release a nanosecond before cell c of the fill (`releaseCells` equal cells from its start);
    /// a release after the fill is complete scales a floor of 1 that no longer rises: `emptyOffsetWhenFull` after it.
    /// Empty where it does not apply (Timer and spring fills, curves that can decrease, other retracts; see
    /// `PreparedFill.releaseIndexedDuration`).
    let emptyBoundByRelease: [Int64]
    /// The fill's duration the cells of `emptyBoundByRelease` divide.
    let releaseFillDuration: Int64
    let releaseCellsPerNanosecond: Double
    let emptyOffsetWhenFull: Int64
    static let releaseCells = 4096
    /// Whether anything reads the held progress at the release (`RetractOrigin.progress`): a Timer fill, a spring, a
    /// retract that scales the progress at the release (fromCurrent) or plays the fill backwards, and the first-empty
    /// search's refinement where `emptyBoundByRelease` does not apply (every fill but a never-decreasing Bézier).
    /// Elsewhere (swiftui and additive retracts scale the held fill itself) it is not computed: NaN.
    let needsReleaseProgress: Bool
    /// Nanoseconds after the release beyond which a retract animation along a never-decreasing curve can no longer
    /// look full (its model is at most 1 − done, and `done` has passed 1 − fullLevel), for a fill that never
    /// decreases (so never above 1); nil without such a bound.
    let fullWindow: Int64?
    /// Nanoseconds after the release from which a retract animation along a never-decreasing curve draws the bar
    /// empty on every frame, for a fill that never decreases (`Int64.max` otherwise): the model is at most 1 − done
    /// (the progress it scales or subtracts from is at most 1), and from here on `done` is above 1 − resolution, on
    /// the exact division of a linear retract, or on the lower bound a Bézier's table certifies for the solver's
    /// value; `drawn` decides every such frame the same way without evaluating it.
    let emptyAfter: Int64
    /// Whether the bar after the release is at most the held progress (swiftui, additive) or the progress at the
    /// release (fromCurrent, reverse, Timer fills): a fill that never decreases, retracting along a never-decreasing
    /// curve (see `firstFullFrame`).
    let monotone: Bool
    let fillNeverDecreases: Bool
    let resolution: Double
    let visibleLevel: Double
    let fullLevel: Double

    /// The most frames a search after the release visits (over two hours at 120 Hz).
    static let frameScanLimit = 1_000_000

    /// - Parameters:
    ///   - fillStart: when the fill starts moving (nil without a fill).
    ///   - shortcuts: false builds none of the shortcuts' tables (`emptyBoundByRelease`, `emptyAfter`).
    init<Fill: PreparedFill>(_ prepared: PreparedControl, fill: Fill, fillStart: Int64?, shortcuts: Bool) {
        let control = prepared.control
        mode = control.retract.mode
        interruption = control.retract.interruption
        staysAfterTrigger = control.retract.afterTrigger == .stay
        let bezier: UnitBezier?
        switch control.retract.curve {
        case .linear: bezier = nil; spring = nil
        case .bezier(let curve): bezier = curve; spring = nil
        case .spring(let spring): bezier = nil; self.spring = spring
        }
        curve = bezier ?? .linear
        isBezier = bezier != nil
        resolution = control.display.resolution
        visibleLevel = prepared.visibleLevel
        fullLevel = prepared.fullLevel
        fillNeverDecreases = prepared.fillNeverDecreases
        let duration = control.retract.durationSeconds.map(Instant.nanoseconds) ?? prepared.nominalFillNanoseconds ?? 0
        self.duration = duration
        if let seconds = control.retract.durationSeconds, let nominal = prepared.nominalFillSeconds {
            reverseRate = nominal / seconds
        } else {
            reverseRate = 1
        }
        solverMargin = Int64((2e-7 * Double(duration)).rounded(.up)) + 2
        bounds = prepared.retractBounds
        monotone = prepared.fillNeverDecreases && spring == nil && (mode == .reverse || prepared.retractInverse != nil)
        if mode == .animation, let inverse = prepared.retractInverse {
            // The factor the retract scales, else (additive, not a Timer fill) the progress it subtracts from.
            let scales = interruption != .additive || Fill.advancesOnTicks
            let level = prepared.visibleLevel
            let cells = Double(PreparedControl.retractInverseCells)
            let duration = Double(duration)
            let margin = solverMargin
            boundByFloor = (0...Self.floorCells).map { index in
                let floor = Double(index) / Double(Self.floorCells)
                let target = (scales ? (floor > level ? 1 - level / floor : 0) : floor - level) - 1e-12
                guard target > 0 && target < 1 else { return 0 }
                return Swift.max(0, Int64(inverse[Int(target * cells)] * duration) - margin)
            }
        } else {
            boundByFloor = []
        }
        rate = duration > 0 ? 1 / Double(duration) : 0
        boundsReach = UnitBezierBounds.reach + rate
        if mode == .animation, let inverse = prepared.retractInverse, prepared.fillNeverDecreases {
            // Looking full needs fl(model) ≥ fullLevel with model ≤ 1 − done, so done ≤ 1 − fullLevel (plus rounding);
            // the table's next cell above that level is a later instant of the exact curve.
            let cells = PreparedControl.retractInverseCells
            let cell = Swift.min(cells, Int((1 - prepared.fullLevel + 1e-12) * Double(cells)) + 1)
            fullWindow = Int64((inverse[cell] * Double(duration)).rounded(.up)) + solverMargin
        } else {
            fullWindow = nil
        }
        emptyAfter = !shortcuts ? .max : Self.emptyAfter(prepared, duration: duration, rate: rate, reach: boundsReach)
        if shortcuts, let fillDuration = fill.releaseIndexedDuration, !boundByFloor.isEmpty, let start = fillStart {
            let table = boundByFloor
            let rises = interruption != .fromCurrent
            let steps = FillSteps()
            func held(_ instant: Int64) -> Double { fill.progress(at: instant, start: start, steps: steps) }
            // The search's refinement (see `firstEmptyFrame`), run until the bound stops moving.
            let width = Double(fillDuration) / Double(Self.releaseCells)
            emptyBoundByRelease = (0..<Self.releaseCells).map { cell in
                let release = start + Int64((Double(cell) * width).rounded(.down)) - 1
                return Self.refinedBound(release: release, floor: held(release), rises: rises, table: table, steps: 64,
                                         held: held)
            }
            releaseFillDuration = fillDuration
            releaseCellsPerNanosecond = Double(Self.releaseCells) / Double(fillDuration)
            emptyOffsetWhenFull = table[Self.floorCells]
        } else {
            emptyBoundByRelease = []
            releaseFillDuration = 0
            releaseCellsPerNanosecond = 0
            emptyOffsetWhenFull = 0
        }
        // A Timer or spring fill never has `emptyBoundByRelease`, so the last condition covers them.
        needsReleaseProgress = !shortcuts || spring != nil || interruption == .fromCurrent || mode != .animation
            || emptyBoundByRelease.isEmpty
    }

    /// See `emptyAfter`.
    private static func emptyAfter(_ prepared: PreparedControl, duration: Int64, rate: Double, reach: Double) -> Int64 {
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

    // MARK: - One release

    /// Sets up the retract from the held fill at the press end `end` and returns where it starts from and when its
    /// model comes to rest.
    @inline(__always)
    func start<Fill: PreparedFill>(_ fill: Fill, pressEnd end: Int64, fillStart start: Int64, fillComplete: Int64?,
                                   steps: FillSteps) -> (origin: RetractOrigin, rest: Int64) {
        let fillEnd = fillComplete ?? end
        // The velocity carries into a spring retract only; the progress is needed only where a retract scales it.
        let progress = needsReleaseProgress ? fill.progress(at: end, start: start, steps: steps) : .nan
        let origin = RetractOrigin(progress: progress, velocity: spring == nil ? 0 : fill.velocity(at: end, start: start),
                                   clock: Swift.min(end, fillEnd) - start)
        switch mode {
        case .instant:
            return (origin, end)
        case .reverse:
            return (origin, end + Int64((Double(origin.clock) / reverseRate).rounded(.up)))
        case .animation:
            if let spring {
                return (origin, end + Instant.nanoseconds(spring.settlingTime(
                    x0: origin.progress, v0: origin.velocity, epsilon: resolution)))
            }
            if interruption == .additive, !Fill.advancesOnTicks { return (origin, Swift.max(end + duration, fillEnd)) }
            return (origin, end + duration)
        }
    }

    /// Model progress at `time`, at or after the press end `end` of a hold whose fill is retracting from `origin`. May
    /// leave [0, 1] (springs, additive retracts). At the press end itself the retract has begun (a release is processed
    /// before a frame at the same instant renders).
    @inline(__always)
    func progress<Fill: PreparedFill>(at time: Int64, pressEnd end: Int64, origin: RetractOrigin, fill: Fill,
                                      fillStart start: Int64, steps: FillSteps) -> Double {
        let elapsed = time - end
        switch mode {
        case .instant:
            return 0
        case .reverse:
            let clock = Double(origin.clock) - Double(elapsed) * reverseRate
            guard clock > 0 else { return 0 }
            return fill.progress(at: start + Instant.nearest(clock), start: start, steps: steps)
        case .animation:
            if let spring {
                return spring.state(at: Instant.seconds(elapsed), x0: origin.progress, v0: origin.velocity).displacement
            }
            let done = done(elapsed)
            let current = origin.progress
            if Fill.advancesOnTicks { return current * (1 - done) }
            switch interruption {
            case .swiftui: return fill.progress(at: time, start: start, steps: steps) * (1 - done)
            case .additive: return fill.progress(at: time, start: start, steps: steps) - done
            case .fromCurrent: return current * (1 - done)
            }
        }
    }

    /// How far a Bézier (or linear) retract animation has come `elapsed` nanoseconds after the release.
    @inline(__always)
    func done(_ elapsed: Int64) -> Double {
        let duration = duration
        if elapsed <= 0 { return 0 }
        if elapsed >= duration { return 1 }
        let u = Double(elapsed) / Double(duration)
        guard isBezier else { return u }
        return curve.value(at: u)
    }

    /// Whether the frame at `time` draws the retracting bar at `level` or above: decided on `progressBounds` where they
    /// settle it, else on `progress(at:…)`.
    @inline(__always)
    func drawn<Fill: PreparedFill>(atLeast level: Double, at time: Int64, pressEnd end: Int64, origin: RetractOrigin,
                                   fill: Fill, fillStart start: Int64, steps: FillSteps) -> Bool {
        if let (lower, upper) = progressBounds(at: time, pressEnd: end, origin: origin, fill: fill, fillStart: start,
                                               steps: steps) {
            if DisplayFrames.displayed(lower) >= level { return true }
            if DisplayFrames.displayed(upper) < level { return false }
        }
        let progress = progress(at: time, pressEnd: end, origin: origin, fill: fill, fillStart: start, steps: steps)
        return DisplayFrames.displayed(progress) >= level
    }

    /// Bounds on `progress(at:…)` after the press end of a retract animation along a never-decreasing Bézier, without
    /// solving the retract curve (`UnitBezierBounds`); nil where they do not apply (then `progress(at:…)` decides).
    ///
    /// `progress(at:…)` computes c·(1 − done), h·(1 − done) or h − done in floating point, with c, h exact and done the
    /// solver's value. Rounding is monotone and each form is monotone in done for fixed c or h, so the same
    /// expressions at the two bounds of done bound the exact result.
    @inline(__always)
    private func progressBounds<Fill: PreparedFill>(at time: Int64, pressEnd end: Int64, origin: RetractOrigin,
                                                    fill: Fill, fillStart start: Int64, steps: FillSteps)
        -> (lower: Double, upper: Double)?
    {
        guard let bounds else { return nil }
        guard time >= end else { return nil }
        let elapsed = time - end
        // The ends are exact in `done`: no bounds needed.
        guard elapsed > 0 && elapsed < duration else { return nil }
        let done = bounds.bounds(at: Double(elapsed) * rate, reach: boundsReach)
        func scaled(_ factor: Double) -> (lower: Double, upper: Double) {
            let a = factor * (1 - done.upper), b = factor * (1 - done.lower)
            return (Swift.min(a, b), Swift.max(a, b))
        }
        if Fill.advancesOnTicks { return scaled(origin.progress) }
        switch interruption {
        case .swiftui: return scaled(fill.progress(at: time, start: start, steps: steps))
        case .additive:
            let held = fill.progress(at: time, start: start, steps: steps)
            return (held - done.upper, held - done.lower)
        case .fromCurrent: return scaled(origin.progress)
        }
    }

    /// The first frame at or after `end` that draws the bar empty (displayed progress below the resolution), for a
    /// retract that comes to rest at `rest`.
    ///
    /// Frames are checked in order from a safe lower bound: when the retract curve e never decreases, the model is
    /// at least f·(1 − e(τ)) (swiftui, fromCurrent, Timer fills) or f − e(τ) (additive), f a floor under the progress
    /// the retract scales (the progress at the release p for fromCurrent and Timer fills; for a fill that never
    /// decreases, its held progress at any instant already passed, so the floor rises as the bound moves on; for a
    /// spring fill, its envelope after the release, `Spring.fillLowerBound`). No frame before e(τ) reaches
    /// 1 − level/f (or f − level) can be empty, and the tabulated inverse of e gives that τ from below, less the
    /// solver's tolerance (`boundByFloor`, at the grid floor below f). The bound is refined a few times, so the scan
    /// usually evaluates one frame.
    func firstEmptyFrame<Fill: PreparedFill>(after end: Int64, rest: Int64, clock: FrameClock, origin: RetractOrigin,
                                             fill: Fill, fillStart start: Int64, steps: FillSteps) -> Int64 {
        var earliest = end
        if mode == .instant { return clock.time(ofFrame: clock.firstFrame(atOrAfter: end)) }
        if !emptyBoundByRelease.isEmpty {
            // The refined bound of the cell's first release (see `emptyBoundByRelease`); the conversion truncates, and
            // the cell's release is a nanosecond early, so it is never after this release.
            let offset = end - start
            if offset >= releaseFillDuration {
                earliest = end + emptyOffsetWhenFull
            } else {
                let cell = Swift.min(Self.releaseCells - 1, Int(Double(offset) * releaseCellsPerNanosecond))
                earliest = Swift.max(end, emptyBoundByRelease[cell])
            }
        } else if mode == .animation, !boundByFloor.isEmpty {
            // Whether the floor scales or is subtracted from is the table's (see `boundByFloor`).
            var floor = -Double.infinity
            var rises = false
            if Fill.advancesOnTicks || interruption == .fromCurrent {
                floor = origin.progress
            } else if fillNeverDecreases {
                floor = origin.progress
                rises = true
            } else if let envelope = fill.progressFloor(from: end, start: start) {
                floor = Swift.min(origin.progress, envelope)
            }
            earliest = Self.refinedBound(release: end, floor: floor, rises: rises, table: boundByFloor, steps: 3,
                                         held: { fill.progress(at: $0, start: start, steps: steps) })
        }
        // Frames from the first at or after the bound; the first at or after `rest` draws the model at rest, empty.
        // (The bound is at most the first empty frame, which is at most that frame, so the scan reaches it from below.)
        let first = clock.firstFrame(atOrAfter: earliest)
        var index = first
        while index < first + Self.frameScanLimit {
            let time = clock.time(ofFrame: index)
            if time >= rest || time - end >= emptyAfter
                || !drawn(atLeast: visibleLevel, at: time, pressEnd: end, origin: origin, fill: fill, fillStart: start,
                          steps: steps) {
                return time
            }
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
    static func refinedBound(release end: Int64, floor start: Double, rises: Bool, table: [Int64], steps: Int,
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

    /// The first frame after the release that draws the retracting bar full, before `emptyFrame` (`.max` for none),
    /// when the held fill's first full frame is `heldFull`.
    ///
    /// Checked frame by frame up to the first frame drawn empty, starting where it can be full at all: for a fill that
    /// never decreases and a retract along a never-decreasing curve (`monotone`) the model is at most the held progress
    /// (swiftui, additive) or the progress at the release (fromCurrent, reverse, Timer fills), so no frame before the
    /// held fill's first full frame can be full, and none at all when the progress at the release is short of full for
    /// the latter.
    func firstFullFrame<Fill: PreparedFill>(heldFull: Int64, pressEnd end: Int64, emptyFrame empty: Int64,
                                            clock: FrameClock, origin: RetractOrigin, fill: Fill, fillStart start: Int64,
                                            steps: FillSteps) -> Int64 {
        // Frames shown at instants in [from, until) are checked.
        var from = end
        var until = empty
        if monotone {
            if Fill.advancesOnTicks || mode == .reverse || interruption == .fromCurrent {
                guard origin.progress >= fullLevel else { return .max }
            } else {
                guard heldFull != .max else { return .max }
                from = Swift.max(from, heldFull)
            }
        }
        if mode == .animation, let window = fullWindow { until = Swift.min(until, end + window + 1) }
        guard from < until else { return .max }
        let first = clock.firstFrame(atOrAfter: from)
        let last = Swift.min(clock.firstFrame(atOrAfter: until), first + Self.frameScanLimit)
        var index = first
        while index < last {
            let time = clock.time(ofFrame: index)
            if drawn(atLeast: fullLevel, at: time, pressEnd: end, origin: origin, fill: fill, fillStart: start,
                     steps: steps) {
                return time
            }
            index += 1
        }
        return .max
    }
}

/// Where the retract of one release starts: the held fill's progress (NaN where nothing reads it, see
/// `RetractPlan.needsReleaseProgress`) and velocity at the press end, and its clock then (nanoseconds since its start,
/// at most its completion).
struct RetractOrigin {
    var progress = 0.0
    var velocity = 0.0
    var clock: Int64 = 0
}
