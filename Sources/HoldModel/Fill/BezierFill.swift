/// A fill animated along a cubic Bézier or linearly over a duration (`Fill.Model.animation` with a `linear` or
/// `bezier` curve, DOMAIN §3), prepared: progress is the curve's value at the normalised time, exactly 0 at the start
/// and exactly 1 from its last instant on.
///
/// A curve that never decreases gets tables (`inverse`, `bounds`) that let its searches jump to the frames that matter
/// and judge most frames without solving the curve.
///
/// Immutable. A class (like the other models that carry tables) so that the per-person path reads it in place: a
/// struct of this size (about 480 bytes) was copied at every call that took it.
final class BezierFill: PreparedFill {
    /// The curve, nil for linear.
    let bezier: UnitBezier?
    /// The same curve stored unwrapped (`UnitBezier.linear` when there is none) with `isBezier`: evaluating it in place
    /// avoids unwrapping, which copies the whole curve (its spline samples, about 170 bytes) on every frame.
    let curve: UnitBezier
    let isBezier: Bool
    /// The animation's duration on the integer clock.
    let duration: Int64
    /// 1 / duration: normalised time within a few ulps, for bounds (a division costs as much as the rest).
    let rate: Double
    /// `UnitBezierBounds.reach` plus a nanosecond of the fill's clock in normalised time.
    let boundsReach: Double
    /// Bounds on the curve's value from a table, for a Bézier that never decreases (else nil; nil for a fill of zero
    /// duration on the integer clock too).
    let bounds: UnitBezierBounds?
    /// For a fill that never decreases: `inverse[i]` is the first instant after the fill's start (nanoseconds) at which
    /// its progress is ≥ i/`inverseCells`, found exactly by bisection on the integer clock. A level between two grid
    /// points is reached no earlier than the lower one's instant, so the table gives every threshold search a safe
    /// start; nil for a curve that can decrease.
    let inverse: [Int64]?
    static let inverseCells = 4096
    /// For a linear fill: the first clocks (nanoseconds after the fill's start) at which it shows at least the visible
    /// and the full level (`Int64.max` for none); nil for a Bézier. See `shownFrames`.
    let linearThresholds: (visible: Int64, full: Int64)?
    /// Where the frame-by-frame searches for the first frames that show the fill started and full begin, after its
    /// start, when there is no table (`earliestSearchStart`).
    let visibleSearchStart: Int64
    let fullSearchStart: Int64
    /// Displayed progress at or above these looks started and full.
    let visibleLevel: Double
    let fullLevel: Double
    let nominalSeconds: Double?
    let nominalNanoseconds: Int64
    let neverDecreases: Bool

    /// Checks what a profile cannot check key by key.
    static func validate(durationSeconds duration: Double, in control: Control) throws(ControlError) {
        let hour = PreparedControl.maximumSeconds
        // At least a nanosecond: a duration that rounds to 0 ns on the integer clock would be complete before it starts.
        guard duration.isFinite && duration >= 1e-9 && duration <= hour else {
            throw ControlError(keyPath: "fill.duration",
                               message: "must be a number of seconds of at least a nanosecond (1e-9) and at most \(Int(hour)), or match (got \(duration))")
        }
    }

    /// - Parameters:
    ///   - bezier: the curve, nil for linear.
    ///   - tables: whether to build the tables the searches use (a control without them only answers
    ///     `PreparedControl.nominalFillSeconds(validating:)`).
    init(_ bezier: UnitBezier?, durationSeconds seconds: Double, visibleLevel: Double, fullLevel: Double, tables: Bool) {
        let duration = Instant.nanoseconds(seconds)
        let neverDecreases = bezier.map(\.neverDecreases) ?? true
        self.bezier = bezier
        curve = bezier ?? .linear
        isBezier = bezier != nil
        self.duration = duration
        rate = duration > 0 ? 1 / Double(duration) : 0
        boundsReach = UnitBezierBounds.reach + rate
        self.visibleLevel = visibleLevel
        self.fullLevel = fullLevel
        nominalSeconds = seconds
        nominalNanoseconds = Instant.nanoseconds(seconds)
        self.neverDecreases = neverDecreases
        let visibleAfterStart, fullAfterStart: Double
        if let bezier {
            visibleAfterStart = seconds * bezier.inverse(y: visibleLevel)
            fullAfterStart = seconds * bezier.inverse(y: fullLevel)
        } else {
            visibleAfterStart = seconds * visibleLevel
            fullAfterStart = seconds * fullLevel
        }
        visibleSearchStart = Self.earliestSearchStart(visibleAfterStart)
        fullSearchStart = Self.earliestSearchStart(fullAfterStart)
        if tables, neverDecreases {
            inverse = (0...Self.inverseCells).map { cell in
                Self.firstInstant(bezier, duration: duration, reaching: Double(cell) / Double(Self.inverseCells))
            }
        } else {
            inverse = nil
        }
        if tables, let bezier, duration > 0 {
            // nil for a curve that can decrease. A fill shorter than half a nanosecond has a zero duration on the
            // integer clock (progress jumps from 0 to 1): its normalised time is not defined, so its searches take
            // the exact path.
            bounds = UnitBezierBounds(bezier)
        } else {
            bounds = nil
        }
        if tables, bezier == nil {
            linearThresholds = (Self.firstInstant(nil, duration: duration, reaching: visibleLevel),
                                Self.firstInstant(nil, duration: duration, reaching: fullLevel))
        } else {
            linearThresholds = nil
        }
    }

    var releaseIndexedDuration: Int64? { neverDecreases && duration > 0 ? duration : nil }

    @inline(__always)
    func progress(at time: Int64, start: Int64, steps: FillSteps) -> Double {
        progress(clock: time - start)
    }

    /// Progress `clock` nanoseconds after the fill's start.
    @inline(__always)
    func progress(clock: Int64) -> Double {
        if clock <= 0 { return 0 }
        if clock >= duration { return 1 }
        let u = Double(clock) / Double(duration)
        guard isBezier else { return u }
        return curve.value(at: u)
    }

    func velocity(at time: Int64, start: Int64) -> Double {
        Self.velocity(bezier, duration: duration, clock: time - start)
    }

    /// The first frames on which the fill looks started and full.
    @inline(__always)
    func shownFrames(start: Int64, clock: FrameClock, steps: FillSteps) -> ShownFrames {
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
            visible: firstFrame(showing: visibleLevel, from: start + visibleSearchStart, start: start, clock: clock,
                                steps: steps) ?? .max,
            full: firstFrame(showing: fullLevel, from: start + fullSearchStart, start: start, clock: clock,
                             steps: steps) ?? .max)
    }

    /// The first frame at or after `earliest` whose progress is at least `level`: from the tabulated inverse when there
    /// is one (`firstFrameReaching`), else frame by frame.
    private func firstFrame(showing level: Double, from earliest: Int64, start: Int64, clock: FrameClock,
                            steps: FillSteps) -> Int64? {
        // A level is the level after a step of 0 (exact in floating point: level + 0 − 0 is level).
        if let (frame, _) = firstFrameReaching(
            after: (level, level), at: start, step: 0, tolerance: 0, start: start, from: 0, through: Int.max - 1,
            clock: clock) {
            return frame == .max ? nil : clock.time(ofFrame: frame)
        }
        return firstFrameByScan(showing: level, from: earliest, start: start, clock: clock, steps: steps)
    }

    /// Checked on every frame while the fill moves, and on the first frame after it completes (see
    /// `requestProgressPulsesOnFrames`); a fill that never decreases jumps to the first frame that can reach each next
    /// step: the same frames the frame-by-frame loop would find, without evaluating the frames in between.
    func requestProgressPulses(start: Int64, clock: FrameClock, threshold: Double, steps: FillSteps,
                               into requests: inout ReusedArray<Int64>) {
        guard inverse != nil else {
            requestProgressPulsesOnFrames(start: start, clock: clock, threshold: threshold, steps: steps, into: &requests)
            return
        }
        let end = start + nominalNanoseconds
        var index = clock.firstFrame(atOrAfter: start)
        // The last request's progress is kept as bounds (`firstFrameReaching`); its exact value, from its frame, only
        // when a step is too close to call.
        let last = clock.firstFrame(atOrAfter: end)
        var reached = (lower: 0.0, upper: 0.0)
        var reachedAt = start
        let tolerance = HapticSchedule.stepTolerance
        while let (frame, progress) = firstFrameReaching(
            after: reached, at: reachedAt, step: threshold, tolerance: tolerance, start: start, from: index,
            through: last, clock: clock), frame <= last {
            reached = progress
            reachedAt = clock.time(ofFrame: frame)
            requests.append(reachedAt)
            index = frame + 1
        }
    }

    /// People whose pulse searches `requestProgressPulses(start:clocks:…)` interleaves.
    static let pulseLanes = 4

    /// `requestProgressPulses` for several people at once who differ only in their display clock (the fill's start
    /// and steps are the same: a Bézier fill draws no latencies): person i's requests are
    /// `requests[ends[i − 1]..<ends[i]]` (from 0 for the first), the same requests, in the same order, as one call
    /// per clock. Needs the tabulated inverse (`inverse`); nothing is written without it.
    ///
    /// Each search step of one person depends on the last (a level, its cell of the inverse, a frame, the frame's
    /// bounds, the next level): a chain of latencies that leaves the core mostly idle. Here `pulseLanes` people take
    /// their steps in turn, each lane running the same steps as the one-person loop (`firstFrameReaching`), so their
    /// chains proceed together. A lane writes into a region of `requests` sized for every request it can make (one
    /// a frame at most, and no more than the steps fit in the fill), and the regions are closed up when the lanes
    /// are done.
    func requestProgressPulses(start: Int64, clocks: UnsafeBufferPointer<FrameClock>, threshold: Double,
                               into requests: inout [Int64], ends: inout [Int]) {
        requests.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        guard inverse != nil else { return }
        let end = start + nominalNanoseconds
        let tolerance = HapticSchedule.stepTolerance
        // A request's progress is at least the last one's plus the step less the tolerance (and a few ulps of its
        // sum), and at most 1: so no more requests than 1 / (step − 2·tolerance), plus one. Without that bound (a
        // step within the tolerance), one a frame.
        let perStep = threshold > 4 * tolerance ? Int(1 / (threshold - 2 * tolerance)) + 2 : Int.max
        struct Lane {
            var clock: FrameClock
            var reached: (lower: Double, upper: Double)
            var reachedAt: Int64
            var index: Int
            var last: Int
            var region: Int
            var written: Int
            var active: Bool
        }
        withUnsafeTemporaryAllocation(of: Lane.self, capacity: Self.pulseLanes) { lanes in
            var group = 0
            while group < clocks.count {
                let count = min(Self.pulseLanes, clocks.count - group)
                var size = requests.count
                for lane in 0..<count {
                    let clock = clocks[group + lane]
                    let index = clock.firstFrame(atOrAfter: start)
                    let last = clock.firstFrame(atOrAfter: end)
                    (lanes.baseAddress! + lane).initialize(to: Lane(
                        clock: clock, reached: (0, 0), reachedAt: start, index: index, last: last, region: size,
                        written: 0, active: true))
                    size += min(perStep, max(0, last - index + 1))
                }
                let base = requests.count
                requests.append(contentsOf: repeatElement(0, count: size - base))
                var active = count
                requests.withUnsafeMutableBufferPointer { buffer in
                    while active > 0 {
                        for lane in 0..<count where lanes[lane].active {
                            let state = lanes[lane]
                            if let (frame, progress) = firstFrameReaching(
                                after: state.reached, at: state.reachedAt, step: threshold, tolerance: tolerance,
                                start: start, from: state.index, through: state.last, clock: state.clock), frame <= state.last {
                                let time = state.clock.time(ofFrame: frame)
                                assert(state.region + state.written < (lane + 1 < count ? lanes[lane + 1].region : buffer.count))
                                buffer[state.region + state.written] = time
                                lanes[lane].reached = progress
                                lanes[lane].reachedAt = time
                                lanes[lane].index = frame + 1
                                lanes[lane].written = state.written + 1
                            } else {
                                lanes[lane].active = false
                                active -= 1
                            }
                        }
                    }
                    // Close up the regions: each lane's requests follow the last's.
                    var to = base
                    for lane in 0..<count {
                        let state = lanes[lane]
                        for k in 0..<state.written { buffer[to + k] = buffer[state.region + k] }
                        to += state.written
                        ends.append(to)
                    }
                }
                requests.removeLast(requests.count - (ends.last ?? 0))
                group += count
            }
        }
    }

    /// Bounds on the progress the fill shows on `frame`, without solving its curve and without placing the frame on the
    /// integer clock: the frame's normalised time from its real instant is within half a nanosecond (plus far less in
    /// rounding) of the exact one, which `boundsReach` covers (see `UnitBezierBounds`).
    @inline(__always)
    private func progressBounds(frame: Int, start: Int64, clock: FrameClock,
                                bounds: UnitBezierBounds) -> (lower: Double, upper: Double) {
        let u = ((Double(frame) + clock.phase) * clock.intervalNanoseconds - Double(start)) * rate
        return bounds.bounds(at: u, reach: boundsReach)
    }

    /// The first frame from `index` through `last` on which the fill shows at least a level, with bounds on the progress
    /// it shows: from the tabulated inverse forward (see `inverse`). `(Int.max, 0)` when none does; nil when the fill
    /// has no table.
    ///
    /// The level is a step of `step` − `tolerance` above a progress `reached` (known as bounds) first shown at `reachedAt`,
    /// so it comes as bounds too; its exact value is computed (`exactLevel`, from the frame's exact progress) only when
    /// needed. Each frame is first judged on bounds of its progress (`progressBounds`), and only a frame the bounds
    /// cannot settle is evaluated, against the exact level. So the answer is the frame the exact values give, found with
    /// about one solve in fifty. (The level is a parameter rather than a closure: a closure that captured the fill was
    /// specialised with a retain and a release per search.)
    @inline(__always)
    private func firstFrameReaching(after reached: (lower: Double, upper: Double), at reachedAt: Int64, step: Double,
                                    tolerance: Double, start: Int64, from index: Int, through last: Int,
                                    clock: FrameClock) -> (frame: Int, progress: (lower: Double, upper: Double))?
    {
        guard let table = inverse else { return nil }
        var level = (lower: reached.lower + step - tolerance, upper: reached.upper + step - tolerance)
        func exactLevel() -> Double {
            let exact = reached.lower == reached.upper ? reached.lower : progress(clock: reachedAt - start)
            return exact + step - tolerance
        }
        let cells = Self.inverseCells
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
        guard let bounds else {
            // A linear fill (its exact progress is a division) or a fill without bounds: the exact progress.
            let exact = level.lower == level.upper ? level.lower : exactLevel()
            while frame <= last {
                let progress = progress(clock: clock.time(ofFrame: frame) - start)
                if progress >= exact { return (frame, (progress, progress)) }
                frame += 1
            }
            return (Int.max, (0, 0))
        }
        while frame <= last {
            let shown = progressBounds(frame: frame, start: start, clock: clock, bounds: bounds)
            if shown.lower >= level.upper { return (frame, shown) }
            if shown.upper >= level.lower {
                let elapsed = clock.time(ofFrame: frame) - start
                // Too close to call on bounds: the exact progress against the exact level.
                if level.lower != level.upper {
                    let exact = exactLevel()
                    level = (exact, exact)
                }
                let progress = progress(clock: elapsed)
                if progress >= level.lower { return (frame, (progress, progress)) }
            }
            frame += 1
        }
        return (Int.max, (0, 0))
    }

    /// The first clock (nanoseconds after the start) at which a never-decreasing Bézier animation's progress is
    /// ≥ `level`, by bisection on the integer clock; `duration` when it first gets there at its end (progress is 1
    /// from then on), `Int64.max` for a level above 1.
    static func firstInstant(_ bezier: UnitBezier?, duration: Int64, reaching level: Double) -> Int64 {
        if level <= 0 { return 0 }
        if level > 1 { return .max }
        var low: Int64 = 0, high = duration
        while high - low > 1 {
            let mid = low + (high - low) / 2
            if progress(bezier, duration: duration, clock: mid) >= level { high = mid } else { low = mid }
        }
        return progress(bezier, duration: duration, clock: low) >= level ? low : high
    }

    /// Progress of a Bézier (or linear, nil) animation `clock` nanoseconds after its start: exactly 0 at the start
    /// and exactly 1 from its last instant on.
    @inline(__always)
    static func progress(_ bezier: UnitBezier?, duration: Int64, clock: Int64) -> Double {
        if clock <= 0 { return 0 }
        if clock >= duration { return 1 }
        let u = Double(clock) / Double(duration)
        return bezier?.value(at: u) ?? u
    }

    /// Progress per second of the same animation.
    @inline(__always)
    static func velocity(_ bezier: UnitBezier?, duration: Int64, clock: Int64) -> Double {
        if clock <= 0 || clock >= duration { return 0 }
        let u = Double(clock) / Double(duration)
        return (bezier?.slope(at: u) ?? 1) / Instant.seconds(duration)
    }
}
