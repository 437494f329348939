/// A fill driven by a spring from rest at 0 toward 1 (`Fill.Model.animation` with a spring curve, DOMAIN §4),
/// prepared: progress = 1 + displacement(t), the displacement starting at −1 at rest. The spring takes its pace from
/// its own parameters (the fill's duration is not used); it is complete when it has settled within the display's
/// resolution, and it may overshoot on the way.
///
/// Immutable; a class, as `BezierFill` is, so that the per-person path reads it in place.
final class SpringFill: PreparedFill {
    let spring: Spring
    /// Where the frame-by-frame searches for the first frames that show the fill started and full begin, after its
    /// start (`searchStart`).
    let visibleSearchStart: Int64
    let fullSearchStart: Int64
    /// Displayed progress at or above these looks started and full.
    let visibleLevel: Double
    let fullLevel: Double
    let nominalSeconds: Double?
    let nominalNanoseconds: Int64
    var neverDecreases: Bool { false }

    init(_ spring: Spring, visibleLevel: Double, fullLevel: Double) {
        self.spring = spring
        self.visibleLevel = visibleLevel
        self.fullLevel = fullLevel
        // Looking started is |x| ≤ fullLevel, looking full |x| ≤ the resolution (= visibleLevel).
        let visibleAfterStart = spring.firstEntry(x0: -1, v0: 0, epsilon: fullLevel)
        let fullAfterStart = spring.firstEntry(x0: -1, v0: 0, epsilon: visibleLevel)
        let nominal = spring.settlingTime(x0: -1, v0: 0, epsilon: visibleLevel)
        nominalSeconds = nominal
        nominalNanoseconds = Instant.nanoseconds(nominal)
        visibleSearchStart = Self.searchStart(afterStart: visibleAfterStart, level: visibleLevel, spring: spring)
        fullSearchStart = Self.searchStart(afterStart: fullAfterStart, level: fullLevel, spring: spring)
    }

    @inline(__always)
    func progress(at time: Int64, start: Int64, steps: FillSteps) -> Double {
        Self.progress(spring, clock: time - start)
    }

    /// A spring fill's progress `clock` nanoseconds after its start (from rest at 0 toward 1).
    @inline(__always)
    static func progress(_ spring: Spring, clock: Int64) -> Double {
        clock <= 0 ? 0 : 1 + spring.state(at: Instant.seconds(clock), x0: -1, v0: 0).displacement
    }

    func velocity(at time: Int64, start: Int64) -> Double {
        time <= start ? 0 : spring.state(at: Instant.seconds(time - start), x0: -1, v0: 0).velocity
    }

    @inline(__always)
    func shownFrames(start: Int64, clock: FrameClock, steps: FillSteps) -> ShownFrames {
        ShownFrames(
            visible: firstFrameByScan(showing: visibleLevel, from: start + visibleSearchStart, start: start,
                                      clock: clock, steps: steps) ?? .max,
            full: firstFrameByScan(showing: fullLevel, from: start + fullSearchStart, start: start, clock: clock,
                                   steps: steps) ?? .max)
    }

    /// The spring's envelope after `time` (`Spring.fillLowerBound`).
    @inline(__always)
    func progressFloor(from time: Int64, start: Int64) -> Double? {
        spring.fillLowerBound(afterSeconds: Instant.seconds(time - start))
    }

    /// Where the frame-by-frame search for the first frame that shows a fill at `level` may start, after the fill's
    /// start, when its first instant at the level is `seconds` after it: `earliestSearchStart(seconds)`, 50 ms early;
    /// for a spring, as late as its values allow.
    ///
    /// A spring fill from rest rises monotonically until it first reaches any level up to 1 (it overshoots only after
    /// its first peak, which comes after: x(t) = −e^(−αt)(cos ω_d t + (α/ω_d) sin ω_d t) climbs to e^(−απ/ω_d) > 0
    /// at t = π/ω_d, and a critically or over-damped one climbs for ever). Its closed form has no solver tolerance,
    /// so when its value some margin before `firstEntry` is still below the level by far more than rounding (10⁻⁹),
    /// so is every earlier value, and no earlier frame can show the level: the search starts there, the shortest of
    /// 10 µs, 100 µs, 1 ms and 10 ms that holds (50 ms when none does), and finds the frame it always found, after
    /// one or two evaluations instead of about seven.
    private static func searchStart(afterStart seconds: Double?, level: Double, spring: Spring) -> Int64 {
        let widest = earliestSearchStart(seconds)
        guard let seconds, seconds.isFinite else { return widest }
        let entry = Instant.nanoseconds(seconds)
        for margin: Int64 in [10_000, 100_000, 1_000_000, 10_000_000] {
            let from = entry - margin
            if from <= widest { break }
            if progress(spring, clock: from) < level - 1e-9 { return from }
        }
        return widest
    }
}
