// Damped springs (DOMAIN §4).

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif

/// A damped harmonic oscillator with mass 1: x″ + c·x′ + k·x = 0, where x is the displacement from the target
/// (value − target, in the animated quantity's units, here progress) and t is in seconds (DOMAIN §4).
///
/// Two springs are equal when their physics is equal (same `stiffness` and `dampingRatio`), whichever initializer
/// made them; the initializer's own numbers are remembered only so that `TimingCurve.description` can print the
/// spring the way it was written.
///
/// Preconditions (not trapped, the profile parser enforces them): finite stiffness k > 0 and damping ratio ζ ≥ 0.
/// Outside them the formulas are evaluated as written and may give NaN or infinity.
public struct Spring: Sendable, Hashable {
    /// Stiffness k in 1/s² (force per unit displacement, mass 1).
    public let stiffness: Double
    /// Damping ratio ζ (unitless): < 1 under-damped (overshoots), 1 critically damped, > 1 over-damped.
    public let dampingRatio: Double
    /// How the spring was written, for printing only (not part of equality).
    let notation: Notation

    /// The parameters a spring was written with.
    enum Notation: Sendable {
        case durationBounce(duration: Double, bounce: Double)
        case stiffnessDamping(stiffness: Double, damping: Double)
    }

    /// Half-width of the band around ζ = 1 that uses the critically damped form: |ζ − 1| ≤ 1e-8.
    ///
    /// Inside the band the critical form differs from the exact solution by O(|ζ − 1|) relative to the motion's
    /// size (≲ 1e-8 × (|x₀| + |v₀|/ω₀)); just outside it the under-/over-damped forms lose about
    /// 1e-16/√(2·1e-8) ≈ 1e-12 relative to cancellation (ω_d and r₁ − r₂ are then of order ω₀·1.4e-4). Both are
    /// orders of magnitude below anything a display can show, so x(t) is continuous in ζ for every practical purpose.
    public static let criticalBand = 1e-8

    private init(stiffness: Double, dampingRatio: Double, notation: Notation) {
        self.stiffness = stiffness
        self.dampingRatio = dampingRatio
        self.notation = notation
    }

    /// SwiftUI's `spring(duration:bounce:)`: k = (2π/d)², ζ = 1 − b for b ≥ 0 and ζ = 1/(1 + b) for b < 0
    /// (DOMAIN §4, label **RE**, matching Apple's example d 0.5, b 0.3 → k 157.9, c 17.6).
    ///
    /// - Parameters:
    ///   - duration: perceptual duration d in seconds; expected > 0.
    ///   - bounce: b, unitless; expected in (−1, 1). 0 is critically damped, > 0 bouncy, < 0 over-damped.
    public init(duration: Double, bounce: Double) {
        let omega = 2 * Double.pi / duration
        self.init(
            stiffness: omega * omega,
            dampingRatio: bounce >= 0 ? 1 - bounce : 1 / (1 + bounce),
            notation: .durationBounce(duration: duration, bounce: bounce))
    }

    /// A spring from stiffness k (1/s²) and damping coefficient c (1/s) with mass 1, as SwiftUI's
    /// `interpolatingSpring(stiffness:damping:)` and react-spring write it: ζ = c / (2√k) (DOMAIN §4, **D**;
    /// the react example in DOMAIN §8 uses k 500, c 30).
    public init(stiffness: Double, damping: Double) {
        self.init(
            stiffness: stiffness,
            dampingRatio: damping / (2 * stiffness.squareRoot()),
            notation: .stiffnessDamping(stiffness: stiffness, damping: damping))
    }

    /// SwiftUI's classic `spring(response:dampingFraction:)`: k = (2π/response)², ζ = dampingFraction
    /// (DOMAIN §4, **D**). `response` is in seconds; `dampingFraction` is unitless.
    ///
    /// So that every spring has profile text that reads back to an equal spring, this is stored as
    /// `spring(duration: response, bounce: 1 − f)` when 0.5 ≤ f ≤ 1 (then ζ = f exactly in floating point), and
    /// otherwise as `interpolatingSpring(stiffness: k, damping: 2f√k)`, whose ζ = c/(2√k) may differ from f in the
    /// last bit.
    public init(response: Double, dampingFraction: Double) {
        if dampingFraction >= 0.5 && dampingFraction <= 1 {
            self.init(duration: response, bounce: 1 - dampingFraction)
        } else {
            let omega = 2 * Double.pi / response
            let stiffness = omega * omega
            self.init(stiffness: stiffness, damping: 2 * dampingFraction * stiffness.squareRoot())
        }
    }

    /// `.smooth`: spring(duration 0.5, bounce 0), critically damped, k ≈ 157.91 (DOMAIN §4, RE).
    public static let smooth = Spring(duration: 0.5, bounce: 0)
    /// `.snappy`: spring(duration 0.5, bounce 0.15), ζ = 0.85 (DOMAIN §4, RE).
    public static let snappy = Spring(duration: 0.5, bounce: 0.15)
    /// `.bouncy`: spring(duration 0.5, bounce 0.3), ζ = 0.7 (DOMAIN §4, RE).
    public static let bouncy = Spring(duration: 0.5, bounce: 0.3)
    /// `Animation.default` since iOS 17: spring(response 0.55, dampingFraction 1), k ≈ 130.50, ζ = 1 (DOMAIN §4, D).
    public static let swiftUIDefault = Spring(response: 0.55, dampingFraction: 1)

    /// Undamped angular frequency ω₀ = √k, in rad/s.
    public var angularFrequency: Double { stiffness.squareRoot() }

    /// Damping coefficient c = 2ζω₀, in 1/s (mass 1).
    public var damping: Double { 2 * dampingRatio * angularFrequency }

    /// Equality of the physics: same stiffness and damping ratio (the written notation is ignored).
    public static func == (lhs: Spring, rhs: Spring) -> Bool {
        lhs.stiffness == rhs.stiffness && lhs.dampingRatio == rhs.dampingRatio
    }

    /// Hashes the physics (stiffness and damping ratio), consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(stiffness)
        hasher.combine(dampingRatio)
    }

    // MARK: Closed form

    /// Displacement from the target and its velocity at time t ≥ 0 (seconds), starting from displacement x₀ and
    /// velocity v₀ (units/s) at t = 0, in closed form exactly as DOMAIN §4 writes it, with ω₀ = √k:
    ///
    /// - under-damped (ζ < 1 − `criticalBand`), ω_d = ω₀√(1 − ζ²):
    ///   x = e^(−ζω₀t)[x₀ cos ω_d t + ((v₀ + ζω₀x₀)/ω_d) sin ω_d t];
    /// - critically damped (|ζ − 1| ≤ `criticalBand`, see its documentation for the error bound):
    ///   x = e^(−ω₀t)[x₀ + (v₀ + ω₀x₀)t];
    /// - over-damped (ζ > 1 + `criticalBand`): x = A e^(r₁t) + B e^(r₂t), r₁,₂ = −ω₀(ζ ∓ √(ζ² − 1)),
    ///   A = (v₀ − r₂x₀)/(r₁ − r₂), B = x₀ − A. The slow root is computed as r₁ = −ω₀/(ζ + √(ζ² − 1)), the same
    ///   number without cancellation for large ζ.
    ///
    /// The velocity is the exact time derivative of each form. t < 0 is treated as 0; t = +∞ gives (0, 0) for a
    /// damped spring. This is the analytic solution (as `interpolatingSpring` is, D); SwiftUI's `spring` integrates
    /// the same equation numerically at 1/300 s (RE), which differs by far less than a display can show.
    public func state(at t: Double, x0: Double, v0: Double) -> (displacement: Double, velocity: Double) {
        if !(t > 0) { return t.isNaN ? (t, t) : (x0, v0) }
        if t == .infinity && dampingRatio > 0 { return (0, 0) }
        let omega0 = angularFrequency
        let zeta = dampingRatio
        if abs(zeta - 1) <= Self.criticalBand {
            let decay = exp(-omega0 * t)
            let slope = v0 + omega0 * x0
            return (decay * (x0 + slope * t), decay * (v0 - omega0 * slope * t))
        }
        if zeta < 1 {
            let alpha = zeta * omega0
            let omegaD = omega0 * ((1 - zeta) * (1 + zeta)).squareRoot()
            let b = (v0 + alpha * x0) / omegaD
            let decay = exp(-alpha * t)
            let cosine = cos(omegaD * t)
            let sine = sin(omegaD * t)
            return (decay * (x0 * cosine + b * sine), decay * (v0 * cosine - (alpha * b + x0 * omegaD) * sine))
        }
        let (r1, r2, a, b) = overdampedTerms(x0: x0, v0: v0)
        let e1 = exp(r1 * t), e2 = exp(r2 * t)
        return (a * e1 + b * e2, a * r1 * e1 + b * r2 * e2)
    }

    /// A lower bound on 1 + x(s) for every s ≥ t (seconds), for the motion from x₀ = −1 at rest: the progress of
    /// a spring fill from 0 to 1 from `t` on, whatever it does later. 1e-9 below the exact bound, which covers the
    /// rounding of `state` by many orders of magnitude.
    /// - Under-damped (0 < ζ < 1): x(s) = e^(−αs)(x₀ cos ω_d s + b sin ω_d s) with b = −α/ω_d, so
    ///   |x(s)| ≤ e^(−αs)·√(1 + b²) ≤ e^(−αt)·√(1 + b²) for s ≥ t (the envelope).
    /// - Critically damped from rest at −1: x(s) = −e^(−ω₀s)(1 + ω₀s), v(s) = ω₀²s e^(−ω₀s) ≥ 0; over-damped from rest:
    ///   v(s) = A r₁ (e^(r₁s) − e^(r₂s)) with A r₁ > 0 and r₂ < r₁ < 0, so v(s) ≥ 0. Either way x rises
    ///   monotonically to 0 and 1 + x(s) ≥ 1 + x(t).
    /// - Undamped or unstable (ζ ≤ 0): −∞ (no bound).
    func fillLowerBound(afterSeconds t: Double) -> Double {
        guard t >= 0, t.isFinite, dampingRatio > 0 else { return -.infinity }
        let margin = 1e-9
        switch regime {
        case .critical, .over:
            return 1 + state(at: t, x0: -1, v0: 0).displacement - margin
        case .under:
            let omega0 = angularFrequency
            let alpha = dampingRatio * omega0
            let omegaD = omega0 * ((1 - dampingRatio) * (1 + dampingRatio)).squareRoot()
            let b = alpha / omegaD
            return 1 - exp(-alpha * t) * (1 + b * b).squareRoot() - margin
        }
    }

    /// Roots and amplitudes of the over-damped form (ζ > 1): x = A e^(r₁t) + B e^(r₂t), r₂ < r₁ < 0.
    private func overdampedTerms(x0: Double, v0: Double) -> (r1: Double, r2: Double, a: Double, b: Double) {
        let omega0 = angularFrequency
        let zeta = dampingRatio
        let root = ((zeta - 1) * (zeta + 1)).squareRoot()
        let r1 = -omega0 / (zeta + root)
        let r2 = -omega0 * (zeta + root)
        let a = (v0 - r2 * x0) / (r1 - r2)
        return (r1, r2, a, x0 - a)
    }

    private enum Regime { case under, critical, over }

    private var regime: Regime {
        if abs(dampingRatio - 1) <= Self.criticalBand { return .critical }
        return dampingRatio < 1 ? .under : .over
    }

    /// For a critically or over-damped spring: the time of the single extremum of x(t) if it lies in t > 0, else 0.
    /// Such an x(t) has at most one extremum and at most one zero, so |x| is monotone on [0, t_e] and strictly
    /// decreasing to 0 on [t_e, ∞).
    private func lastExtremum(x0: Double, v0: Double) -> Double {
        let omega0 = angularFrequency
        switch regime {
        case .critical:
            // v(t) = e^(−ω₀t)[v₀ − ω₀(v₀ + ω₀x₀)t] vanishes at t = v₀ / (ω₀(v₀ + ω₀x₀)).
            let slope = v0 + omega0 * x0
            guard slope != 0 else { return 0 }
            let te = v0 / (omega0 * slope)
            return te > 0 && te.isFinite ? te : 0
        case .over:
            // v(t) = A r₁ e^(r₁t) + B r₂ e^(r₂t) vanishes where e^((r₁−r₂)t) = −B r₂ / (A r₁).
            let (r1, r2, a, b) = overdampedTerms(x0: x0, v0: v0)
            let denominator = a * r1
            guard denominator != 0 else { return 0 }
            let q = -(b * r2) / denominator
            guard q > 1 else { return 0 }
            let te = log(q) / (r1 - r2)
            return te.isFinite ? te : 0
        case .under:
            return 0
        }
    }

    /// Earliest time (seconds) after which |displacement| ≤ epsilon forever, for a spring starting at (x₀, v₀).
    ///
    /// Guarantee: |x(t)| ≤ epsilon for every t ≥ the returned time (up to floating-point rounding of x itself).
    /// - Under-damped: the exact last exit. x(t) = R e^(−αt) cos(ω_d t − φ) has its extrema exactly π/ω_d apart,
    ///   starting at the first zero t₀ ≥ 0 of the velocity, and their magnitudes fall by e^(−απ/ω_d) each, so the
    ///   last extremum outside the band is found in closed form (checked against x itself); after it x runs
    ///   monotonically through zero, and the exit is bisected on that descent. (The envelope bound
    ///   ln(R/ε)/(ζω₀) alone is late by up to a half period and more: 51 ms for spring(0.2, 0.8).)
    /// - Critically/over-damped: x(t) has at most one extremum t_e, after which |x| decreases monotonically; the exact
    ///   last exit from the band is found by bisection (on [t_e, ∞) with a doubling bracket, or on [0, t_e] where x is
    ///   monotone), returning the bracket end inside the band, within about 1e-15 relative of the true time.
    ///
    /// Returns 0 when the spring never leaves the band (e.g. already at rest). Returns `.infinity` when it never
    /// settles: epsilon ≤ 0 with any motion, or an undamped/unstable spring (ζ ≤ 0) whose motion exceeds epsilon.
    public func settlingTime(x0: Double, v0: Double, epsilon: Double) -> Double {
        if x0 == 0 && v0 == 0 { return 0 }
        guard epsilon > 0 else { return .infinity }
        switch regime {
        case .under:
            return underdampedLastExit(x0: x0, v0: v0, epsilon: epsilon)
        case .critical, .over:
            let te = lastExtremum(x0: x0, v0: v0)
            if abs(state(at: te, x0: x0, v0: v0).displacement) > epsilon {
                // |x| decreases strictly to 0 after te: bracket by doubling, then bisect.
                let step = 1 / angularFrequency
                var low = te
                var width = step
                var high = te + width
                var found = false
                for _ in 0..<2100 {
                    if abs(state(at: high, x0: x0, v0: v0).displacement) <= epsilon { found = true; break }
                    low = high
                    width *= 2
                    high = te + width
                    if !high.isFinite { break }
                }
                guard found else { return .infinity }
                return bisectBandEntry(low: low, high: high, x0: x0, v0: v0, epsilon: epsilon)
            }
            if abs(x0) <= epsilon { return 0 }
            // x is monotone on [0, te] from outside the band to inside it.
            return bisectBandEntry(low: 0, high: te, x0: x0, v0: v0, epsilon: epsilon)
        }
    }

    /// The exact last exit from |x| ≤ epsilon of an under-damped spring (see `settlingTime`).
    private func underdampedLastExit(x0: Double, v0: Double, epsilon: Double) -> Double {
        let alpha = dampingRatio * angularFrequency
        let omegaD = angularFrequency * ((1 - dampingRatio) * (1 + dampingRatio)).squareRoot()
        let b = (v0 + alpha * x0) / omegaD
        let amplitude = hypot(x0, b)
        if amplitude <= epsilon { return 0 }
        guard alpha > 0 else { return .infinity }
        func x(_ t: Double) -> Double { state(at: t, x0: x0, v0: v0).displacement }
        let halfPeriod = Double.pi / omegaD
        // v(t) = e^(−αt)[v₀ cos ω_d t − (αb + x₀ω_d) sin ω_d t] vanishes at ω_d t = θ + kπ.
        var theta = atan2(v0, alpha * b + x0 * omegaD)
        if theta < 0 { theta += Double.pi }
        if theta >= Double.pi { theta -= Double.pi }
        let firstExtremum = theta / omegaD
        let firstPeak = abs(x(firstExtremum))
        // The descent that contains the last exit starts at `from` (an extremum outside the band, or t = 0).
        var from: Double
        var next: Double
        if firstPeak > epsilon {
            let decayPerHalfPeriod = alpha * halfPeriod
            var k = (log(firstPeak / epsilon) / decayPerHalfPeriod).rounded(.down)
            // The closed form can be off by one through rounding: check the peaks themselves.
            while k > 0 && abs(x(firstExtremum + k * halfPeriod)) <= epsilon { k -= 1 }
            while abs(x(firstExtremum + (k + 1) * halfPeriod)) > epsilon { k += 1 }
            from = firstExtremum + k * halfPeriod
            next = from + halfPeriod
        } else {
            if abs(x0) <= epsilon { return 0 }
            from = 0
            next = firstExtremum
        }
        // x is monotone from `from` to the next extremum; |x| falls to zero on the way, then rises to ≤ epsilon.
        let start = x(from)
        var zero = next
        if start * x(next) < 0 {
            var a = from, c = next
            while true {
                let mid = 0.5 * (a + c)
                if mid <= a || mid >= c { break }
                if x(mid) * start > 0 { a = mid } else { c = mid }
            }
            zero = c
        }
        return bisectBandEntry(low: from, high: zero, x0: x0, v0: v0, epsilon: epsilon)
    }

    /// Earliest time t ≥ 0 (seconds) with |displacement(t)| ≤ epsilon: the first entry into the band, which an
    /// under-damped spring may leave again (it overshoots). Used to find when a spring fill first *looks* full.
    ///
    /// Method (scan, then bisect): x(t) is sampled from 0 in steps shorter than a quarter of the half period π/ω_d
    /// (under-damped) or 1/32 of `settlingTime` (otherwise). A step whose end is in the band or on the other side of
    /// zero contains the first entry. This cannot miss a brief pass through the band: an under-damped x(t) has
    /// alternating-sign extrema with zeros exactly π/ω_d apart, and a critically/over-damped one has at most one
    /// extremum and one zero, so within one step x cannot dip into the band and return to the same side. The entry
    /// is then bisected to double precision; |x| at the returned time is epsilon to within rounding.
    ///
    /// Returns 0 when |x₀| ≤ epsilon; never later than `settlingTime(x0:v0:epsilon:)`; `.infinity` when the band is
    /// never entered (epsilon ≤ 0 with motion, or an unstable spring).
    public func firstEntry(x0: Double, v0: Double, epsilon: Double) -> Double {
        if abs(x0) <= epsilon { return 0 }
        guard epsilon > 0 else { return .infinity }
        let limit: Double
        let step: Double
        switch regime {
        case .under:
            let omegaD = angularFrequency * ((1 - dampingRatio) * (1 + dampingRatio)).squareRoot()
            let halfPeriod = Double.pi / omegaD
            // The first zero of x comes within one half period of t = 0 (x = R e^(−αt) cos(ω_d t − φ)).
            limit = Swift.min(settlingTime(x0: x0, v0: v0, epsilon: epsilon), 1.01 * halfPeriod)
            step = 0.25 * halfPeriod
        case .critical, .over:
            limit = settlingTime(x0: x0, v0: v0, epsilon: epsilon)
            step = limit / 32
        }
        guard limit.isFinite, step > 0 else { return .infinity }
        let side: Double = x0 > 0 ? 1 : -1
        var low = 0.0
        while low < limit {
            let high = Swift.min(low + step, limit)
            let x = state(at: high, x0: x0, v0: v0).displacement
            if side * x <= epsilon {
                return bisectBandEntry(low: low, high: high, x0: x0, v0: v0, epsilon: epsilon, side: side)
            }
            low = high
        }
        return .infinity
    }

    /// Bisects [low, high] for the boundary between "outside the band" at `low` and "inside" at `high`.
    ///
    /// With `side` = ±1 the test is side·x > epsilon (outside on the starting side); otherwise it is |x| > epsilon.
    /// Returns the end that satisfies the inside test, so the result is never early.
    private func bisectBandEntry(
        low: Double, high: Double, x0: Double, v0: Double, epsilon: Double, side: Double? = nil
    ) -> Double {
        var a = low, b = high
        while true {
            let mid = 0.5 * (a + b)
            if mid <= a || mid >= b { break }
            let x = state(at: mid, x0: x0, v0: v0).displacement
            let outside = side.map { $0 * x > epsilon } ?? (abs(x) > epsilon)
            if outside { a = mid } else { b = mid }
        }
        return b
    }
}
