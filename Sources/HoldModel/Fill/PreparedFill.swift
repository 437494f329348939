/// A fill model made ready for holds: how progress advances while the finger is down, with whatever its searches need
/// computed once per control. One type per model, each in its own file (`BezierFill`, `SpringFill`, `TickedFill`,
/// `NoFill`), listed once in `PreparedFillModel`.
///
/// `HoldEvaluator` calls a model only through generics that `PreparedFillModel.run` specialises for its concrete type,
/// so the per-person path has no dynamic dispatch and every `static` property below is a constant there.
///
/// Instants are nanoseconds after touch-down (`Instant`); `start` is when the fill starts moving. A model is immutable
/// and shared by every thread; what one hold makes of it (a Timer's fires) is written into the caller's `FillSteps`.
protocol PreparedFill: Sendable {
    /// Whether there is a fill to see. Without one (the static long press) the hold has no fill start, nothing is
    /// drawn and nothing retracts, so none of the instance requirements is called.
    static var isVisible: Bool { get }
    /// Whether progress advances on a Timer's fires instead of along a curve of time. Such a fill's timeline draws a
    /// latency per fire, so it depends on the person beyond the frame phase; a fire at the instant of the release
    /// comes before it (as the trigger does), while a frame renders after it; and the Timer stops at the release, so a
    /// retract scales the progress at the release whatever `Retract.Interruption` says.
    static var advancesOnTicks: Bool { get }

    /// Seconds from the fill's start until it is complete: the end of the animation, a spring's settling time, or the
    /// completing tick with every tick on time. nil without a fill.
    var nominalSeconds: Double? { get }
    /// The same on the integer clock (0 without a fill).
    var nominalNanoseconds: Int64 { get }
    /// Whether the held fill's progress never decreases (linear, a Bézier with y1, y2 in [0, 1], a Timer).
    var neverDecreases: Bool { get }
    /// The Timer latencies one hold draws (one per tick with every tick on time); nil for a fill that draws none.
    var latencyDrawsPerHold: Int? { get }
    /// For a fill whose progress is a closed form of its clock that never decreases and reaches 1 at the end of a
    /// positive duration (a Bézier or linear animation), that duration: the retract's first-empty search may then start
    /// from a bound looked up by the release instant (`RetractPlan.emptyBoundByRelease`). nil otherwise.
    var releaseIndexedDuration: Int64? { get }

    /// Runs the fill of one hold as if the finger stays down, from the latencies drawn for it (`steps.latencies`,
    /// `latencyDrawsPerHold` of them), recording its steps in `steps`. Returns when it completes, nil for never.
    func hold(start: Int64, steps: FillSteps) -> Int64?

    /// Progress at `time` if the finger stays down (0 before the start). May leave [0, 1] (springs, curves that
    /// overshoot).
    func progress(at time: Int64, start: Int64, steps: FillSteps) -> Double

    /// Progress per second at `time` if the finger stays down: what a spring retract carries on.
    func velocity(at time: Int64, start: Int64) -> Double

    /// The first frames on which the held fill looks started (displayed progress ≥ the display's resolution) and full
    /// (≥ 1 − resolution), `.max` for never.
    func shownFrames(start: Int64, clock: FrameClock, steps: FillSteps) -> ShownFrames

    /// Appends the instants at which progress passes the last request's progress + `threshold` (progress pulses,
    /// before the throttle). The default checks every frame (`requestProgressPulsesOnFrames`).
    func requestProgressPulses(start: Int64, clock: FrameClock, threshold: Double, steps: FillSteps,
                               into requests: inout ReusedArray<Int64>)

    /// A lower bound on the held progress at every instant from `time` on, when the model has one cheaper than
    /// evaluating it frame by frame (a spring's envelope, `Spring.fillLowerBound`); nil otherwise.
    func progressFloor(from time: Int64, start: Int64) -> Double?
}

extension PreparedFill {
    static var isVisible: Bool { true }
    static var advancesOnTicks: Bool { false }
    var latencyDrawsPerHold: Int? { nil }
    var releaseIndexedDuration: Int64? { nil }

    /// A fill that follows a curve of time completes at its nominal end, drawing nothing.
    @inline(__always)
    func hold(start: Int64, steps: FillSteps) -> Int64? {
        start + nominalNanoseconds
    }

    @inline(__always)
    func requestProgressPulses(start: Int64, clock: FrameClock, threshold: Double, steps: FillSteps,
                               into requests: inout ReusedArray<Int64>) {
        requestProgressPulsesOnFrames(start: start, clock: clock, threshold: threshold, steps: steps, into: &requests)
    }

    func progressFloor(from time: Int64, start: Int64) -> Double? { nil }

    /// The first frame at or after `earliest` whose held progress is at least `level`, checking every frame (progress
    /// may dip again for curves that leave [0, 1], hence the check): what a model without a table searches with.
    func firstFrameByScan(showing level: Double, from earliest: Int64, start: Int64, clock: FrameClock,
                          steps: FillSteps) -> Int64? {
        var index = clock.firstFrame(atOrAfter: earliest)
        let limit = index + 1_000_000
        while index < limit {
            let time = clock.time(ofFrame: index)
            if progress(at: time, start: start, steps: steps) >= level { return time }
            index += 1
        }
        return nil
    }

    /// A safe earliest instant for a search that starts at `seconds` after the fill's start: 50 ms earlier, because
    /// the level comes from an exact inverse while the curve is evaluated by a solver whose 1e-7 tolerance (of the
    /// duration: 0.4 ms for an hour-long fill) can reach it a little sooner. The search checks every frame from there.
    static func earliestSearchStart(_ seconds: Double?) -> Int64 {
        max(0, Instant.nanoseconds(seconds ?? 0) - 50_000_000)
    }
}

/// What a stepping fill did in the hold being evaluated: the latencies drawn for it, and the instants of its steps and
/// its progress after each, as computed (a Timer's fires: progress before the fill caps it at 1, which is what the
/// seed's pulse check sees). Empty for a fill that follows a curve.
///
/// One per evaluator (so per thread), emptied and refilled each hold with its storage kept. A class held in a `let`,
/// so that the per-person path passes it to the fill's methods without copying (or retaining) its arrays; its arrays
/// are marked `@exclusivity(unchecked)` as the evaluator's buffers are (see `HoldEvaluator`).
final class FillSteps {
    /// The Timer latencies of this hold in seconds, one per tick with every tick on time (`PreparedFill.
    /// latencyDrawsPerHold`), drawn before the fill runs (`HoldEvaluator.evaluateHold`): the same draws in the same
    /// order as drawing each at its tick, without the models being generic over the source.
    @exclusivity(unchecked) var latencies = ReusedArray<Double>()
    @exclusivity(unchecked) var times = ReusedArray<Int64>()
    @exclusivity(unchecked) var progress = ReusedArray<Double>()

    @inline(__always)
    func removeAll() {
        latencies.removeAll()
        times.removeAll()
        progress.removeAll()
    }

    func reserveCapacity(_ capacity: Int) {
        latencies.reserveCapacity(capacity)
        times.reserveCapacity(capacity)
        progress.reserveCapacity(capacity)
    }
}
