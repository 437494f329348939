// Cubic Bézier timing curves (DOMAIN §3, label D).

/// A cubic Bézier timing curve with P0 = (0, 0), P1 = (x1, y1), P2 = (x2, y2), P3 = (1, 1), evaluated the way
/// WebKit's `UnitBezier` and Chromium's `gfx::CubicBezier` evaluate it (DOMAIN §3, label **D**).
///
/// The curve is the parametric pair X(t), Y(t) for t ∈ [0, 1], stored as polynomial coefficients
/// c = 3·p1, b = 3·(p2 − p1) − c, a = 1 − c − b, so X(t) = ((aₓt + bₓ)t + cₓ)t and likewise Y(t).
/// Both axes are unitless fractions: x is normalised time, y is progress.
///
/// Evaluation is allocation-free and constant-time (at most 10 spline samples, 4 Newton steps and a bounded
/// bisection), so it is safe to call once per display frame for millions of simulated holds.
///
/// Control points must be finite; the profile parser (`TimingCurve(parsing:)`) guarantees that. Non-finite control
/// points give NaN results rather than trapping.
public struct UnitBezier: Sendable, Hashable {
    /// x of the first control point P1, clamped to [0, 1] (normalised time).
    public let x1: Double
    /// y of the first control point P1 (progress; may lie outside [0, 1] for overshooting curves).
    public let y1: Double
    /// x of the second control point P2, clamped to [0, 1] (normalised time).
    public let x2: Double
    /// y of the second control point P2 (progress; may lie outside [0, 1] for overshooting curves).
    public let y2: Double

    private let ax: Double, bx: Double, cx: Double
    private let ay: Double, by: Double, cy: Double
    /// True when P1 and P2 lie on the diagonal (x1 = y1 and x2 = y2): then X(t) = Y(t) for every t and the curve
    /// is exactly y = x, which `value(at:)` returns without solving.
    let isIdentity: Bool
    /// X(i/10) for i = 0…10, computed once as Chromium's `InitSpline` does: the solver's initial guess then costs
    /// comparisons, not ten polynomial evaluations per call. Derived from the control points (a tuple: plain,
    /// 8-byte aligned storage inside the curve value).
    private let splineX: SplineSamples
    typealias SplineSamples = (Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double)

    /// Newton tolerance in x and the derivative floor below which Newton gives up (Chromium's `kBezierEpsilon`).
    static let epsilon = 1e-7
    /// Maximum Newton iterations (Chromium's `kMaxNewtonIterations`).
    static let maxNewtonIterations = 4
    /// Number of spline samples of X used for the initial guess (Chromium's `CUBIC_BEZIER_SPLINE_SAMPLES`).
    static let splineSamples = 11

    /// Creates the curve through P1 = (x1, y1) and P2 = (x2, y2).
    ///
    /// The x coordinates are clamped to [0, 1] (as WebKit and Chromium do), which keeps X(t) monotone so that every
    /// normalised time has exactly one parameter t. The y coordinates are kept as given. Source: DOMAIN §3 (D).
    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        let cx1 = Swift.min(Swift.max(x1, 0), 1)
        let cx2 = Swift.min(Swift.max(x2, 0), 1)
        self.x1 = cx1
        self.y1 = y1
        self.x2 = cx2
        self.y2 = y2
        let cx = 3 * cx1
        let bx = 3 * (cx2 - cx1) - cx
        self.cx = cx
        self.bx = bx
        self.ax = 1 - cx - bx
        let cy = 3 * y1
        let by = 3 * (y2 - y1) - cy
        self.cy = cy
        self.by = by
        self.ay = 1 - cy - by
        self.isIdentity = cx1 == y1 && cx2 == y2
        let deltaT = 1.0 / Double(Self.splineSamples - 1)
        let ax = self.ax
        func sample(_ i: Int) -> Double {
            let ti = deltaT * Double(i)
            return ((ax * ti + bx) * ti + cx) * ti
        }
        self.splineX = (sample(0), sample(1), sample(2), sample(3), sample(4), sample(5), sample(6), sample(7),
                        sample(8), sample(9), sample(10))
    }

    /// Two curves are equal when their (clamped) control points are: everything else is derived from them.
    public static func == (lhs: UnitBezier, rhs: UnitBezier) -> Bool {
        lhs.x1 == rhs.x1 && lhs.y1 == rhs.y1 && lhs.x2 == rhs.x2 && lhs.y2 == rhs.y2
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(x1)
        hasher.combine(y1)
        hasher.combine(x2)
        hasher.combine(y2)
    }

    @inline(__always)
    private func splineSample(_ i: Int) -> Double {
        withUnsafeBytes(of: splineX) { $0.load(fromByteOffset: i &* MemoryLayout<Double>.stride, as: Double.self) }
    }

    /// The identity curve bezier(0, 0, 1, 1): y = x exactly (DOMAIN §3, D).
    public static let linear = UnitBezier(x1: 0, y1: 0, x2: 1, y2: 1)
    /// CSS / Core Animation `ease-in`, bezier(0.42, 0, 1, 1) (DOMAIN §3, D).
    public static let easeIn = UnitBezier(x1: 0.42, y1: 0, x2: 1, y2: 1)
    /// CSS / Core Animation `ease-out`, bezier(0, 0, 0.58, 1) (DOMAIN §3, D).
    public static let easeOut = UnitBezier(x1: 0, y1: 0, x2: 0.58, y2: 1)
    /// CSS / Core Animation `ease-in-out`, bezier(0.42, 0, 0.58, 1) (DOMAIN §3, D).
    public static let easeInOut = UnitBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
    /// CSS `ease`, the Core Animation default, bezier(0.25, 0.1, 0.25, 1) (DOMAIN §3, D).
    public static let ease = UnitBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)

    // MARK: Polynomials (Horner form, as WebKit/Chromium sample them)

    /// Whether the curve never decreases: its y control points lie in [0, 1] (then Y(t) never decreases either).
    public var neverDecreases: Bool { (0...1).contains(y1) && (0...1).contains(y2) }

    @inline(__always) private func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    @inline(__always) private func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }

    /// dX/dt in Bernstein form, 3[(1−t)²·x1 + 2(1−t)t·(x2−x1) + t²·(1−x2)], which is exactly 3·x1 at t = 0 and
    /// exactly 3·(1 − x2) at t = 1, so a vanishing end tangent is detected as an exact zero.
    @inline(__always) private func derivativeX(_ t: Double) -> Double {
        Self.bernsteinDerivative(t, p1: x1, p2: x2)
    }

    @inline(__always) private func derivativeY(_ t: Double) -> Double {
        Self.bernsteinDerivative(t, p1: y1, p2: y2)
    }

    @inline(__always) private static func bernsteinDerivative(_ t: Double, p1: Double, p2: Double) -> Double {
        let s = 1 - t
        return 3 * (s * s * p1 + 2 * s * t * (p2 - p1) + t * t * (1 - p2))
    }

    /// r if it lies strictly inside (0, 1), else 1 (a break at 1 is no break at all).
    @inline(__always) private static func insideUnit(_ r: Double) -> Double { r > 0 && r < 1 ? r : 1 }

    // MARK: Public evaluation

    /// Progress y for normalised time x: Y(solveX(x)) (DOMAIN §3, D).
    ///
    /// x ≤ 0 returns exactly 0 and x ≥ 1 returns exactly 1 (the end points are exact, and inputs outside [0, 1] are
    /// clamped rather than extrapolated); NaN returns NaN. Accuracy: the solver stops when |X(t) − x| < 1e-7, so the
    /// result is within about 1e-7 × (local slope dy/dx) of the exact curve. Unitless.
    /// Inlined (with `solveX`) so a caller evaluating a stored curve reads its fields in place: a call would first
    /// copy the whole curve (about 170 bytes with its spline samples) to the stack, once per frame evaluated.
    @inline(__always)
    public func value(at x: Double) -> Double {
        if x.isNaN { return x }
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        if isIdentity { return x }
        return sampleY(solveX(x))
    }

    /// The slope dy/dx of the curve at normalised time x, i.e. Y′(t)/X′(t) at t = solveX(x) (unitless).
    ///
    /// x is clamped to [0, 1]. Where both derivatives vanish (for example easeIn at x = 1 or easeOut at x = 0) the
    /// limit is taken by L'Hôpital's rule on the next derivatives, so easeIn's slope at 1 is 1/0.58 ≈ 1.7241 rather
    /// than Chromium's 0 (a documented deviation: Chromium returns 0 there). Where only X′ vanishes the tangent is
    /// vertical and the result is ±infinity. NaN returns NaN.
    public func slope(at x: Double) -> Double {
        if x.isNaN { return x }
        let t = solveX(Swift.min(Swift.max(x, 0), 1))
        let dx = derivativeX(t)
        let dy = derivativeY(t)
        if dx != 0 || dy != 0 { return dy / dx }
        // Second derivatives, Bernstein form: 6[(1−t)(p2 − 2p1) + t(1 − 2p2 + p1)].
        let s = 1 - t
        let ddx = 6 * (s * (x2 - 2 * x1) + t * (1 - 2 * x2 + x1))
        let ddy = 6 * (s * (y2 - 2 * y1) + t * (1 - 2 * y2 + y1))
        if ddx != 0 || ddy != 0 { return ddy / ddx }
        // Third derivatives are the constants 6a; 6aₓ ≠ 0 whenever X′ and X″ both vanish, since X(0) = 0 ≠ X(1) = 1.
        return ay / ax
    }

    /// The curve parameter t ∈ [0, 1] with X(t) = x, solved as Chromium's `CubicBezier::SolveCurveX` (DOMAIN §3, D).
    ///
    /// 1. Initial guess: linear interpolation between the 11 samples X(i/10), i = 0…10.
    /// 2. At most 4 Newton steps; stop when |X(t) − x| < 1e-7, give up Newton when |X′(t)| < 1e-7.
    /// 3. Otherwise bisection inside the sample interval that brackets x, until |X(t) − x| < 1e-7.
    ///
    /// Deviation from Chromium (documented): a Newton iterate that leaves [0, 1] is abandoned for bisection instead
    /// of being used to seed it, so the result always lies in [0, 1]. x ≤ 0 gives 0, x ≥ 1 gives 1, NaN gives NaN.
    @inline(__always)
    public func solveX(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let epsilon = Self.epsilon
        let deltaT = 1.0 / Double(Self.splineSamples - 1)

        // 1. Spline initial guess: the first sample at or above x brackets it with the previous one.
        var t0 = 0.0, t1 = 1.0, t2 = x
        var previous = 0.0
        for i in 1..<Self.splineSamples {
            let ti = deltaT * Double(i)
            let sample = splineSample(i)
            if x <= sample {
                t1 = ti
                t0 = ti - deltaT
                if sample > previous {
                    t2 = t0 + (t1 - t0) * (x - previous) / (sample - previous)
                } else {
                    t2 = t0
                }
                break
            }
            previous = sample
        }

        // 2. Newton.
        var guess = t2
        for _ in 0..<Self.maxNewtonIterations {
            let error = sampleX(guess) - x
            if abs(error) < epsilon { return guess }
            let derivative = derivativeX(guess)
            if abs(derivative) < epsilon { break }
            guess -= error / derivative
            if !(guess >= 0 && guess <= 1) { break }
        }
        if guess >= 0 && guess <= 1 && abs(sampleX(guess) - x) < epsilon { return guess }

        // 3. Bisection on the bracket [t0, t1] (X(t0) ≤ x ≤ X(t1) up to rounding); 64 halvings exhaust a double.
        var low = t0, high = t1
        var t = (t2 > low && t2 < high) ? t2 : 0.5 * (low + high)
        for _ in 0..<64 {
            let value = sampleX(t)
            if abs(value - x) < epsilon { return t }
            if x > value { low = t } else { high = t }
            let next = 0.5 * (low + high)
            if next == t { break }
            t = next
        }
        return t
    }

    /// The smallest normalised time x ∈ [0, 1] with value(x) ≥ y: when a fill drawn with this curve first reaches
    /// progress y (unitless; multiply by the fill duration for seconds).
    ///
    /// Works for curves that overshoot or undershoot (y1 or y2 outside [0, 1]), where Y(t) is not monotone: [0, 1]
    /// is split at the roots of Y′(t), the monotone pieces are visited in order, and the first crossing is found by
    /// bisection to full double precision in t, then mapped to x = X(t). So `value(inverse(y:))` equals y to within
    /// the forward solver's tolerance (about 1e-7 × slope). y ≤ 0 returns 0; a level the curve never reaches (only
    /// possible above 1, or above the overshoot's peak) returns `.infinity`; NaN returns NaN.
    public func inverse(y: Double) -> Double {
        if y.isNaN { return y }
        if y <= 0 { return 0 }
        if isIdentity { return y <= 1 ? y : .infinity }
        // Critical points of Y on (0, 1): roots of Y′(t) = 3aᵧt² + 2bᵧt + cᵧ, in increasing order.
        var first = 1.0, second = 1.0
        let qa = 3 * ay, qb = 2 * by, qc = cy
        if qa == 0 {
            if qb != 0 { first = Self.insideUnit(-qc / qb) }
        } else {
            let discriminant = qb * qb - 4 * qa * qc
            if discriminant > 0 {
                // Numerically stable quadratic roots (no cancellation between qb and the square root).
                let q = -0.5 * (qb + (qb >= 0 ? 1 : -1) * discriminant.squareRoot())
                let rootA = Self.insideUnit(q / qa)
                let rootB = Self.insideUnit(q != 0 ? qc / q : 1)
                first = Swift.min(rootA, rootB)
                second = Swift.max(rootA, rootB)
            }
        }
        // Visit the monotone pieces [0, first], [first, second], [second, 1] in order. Every earlier piece ended
        // below y (and Y(0) = 0 < y), so the first piece whose upper end reaches y is increasing and holds the
        // first crossing.
        var low = 0.0
        for piece in 0..<3 {
            let high = piece == 0 ? first : piece == 1 ? second : 1.0
            if high <= low { continue }
            let reached = high == 1 ? y <= 1 : sampleY(high) >= y  // Y(1) = 1 exactly.
            if reached {
                var a = low, b = high
                while true {
                    let mid = 0.5 * (a + b)
                    if mid <= a || mid >= b { break }
                    if sampleY(mid) >= y { b = mid } else { a = mid }
                }
                return b == 1 ? 1 : sampleX(b)
            }
            low = high
        }
        return .infinity
    }

    /// The exact curve at x = i/`cells`, i = 0 … cells: Y(t) at the t with X(t) = x found to within 10⁻¹³ (not the
    /// WebKit solver, whose 1e-7 tolerance `value(at:)` keeps), for tables built once per control. X never
    /// decreases, so each root brackets the next from below; safeguarded Newton inside the bracket, with a probe
    /// across the root once Newton has converged, closes the bracket in a few evaluations.
    func exactValues(cells: Int) -> [Double] {
        if isIdentity { return (0...cells).map { Double($0) / Double(cells) } }
        var values = [0.0]
        values.reserveCapacity(cells + 1)
        var low = 0.0
        var t = 0.0
        for index in 1..<cells {
            let x = Double(index) / Double(cells)
            var a = low, b = 1.0
            for _ in 0..<200 {
                let error = sampleX(t) - x
                if error < 0 { a = Swift.max(a, t) } else { b = Swift.min(b, t) }
                if b - a <= 1e-13 { break }
                let slope = derivativeX(t)
                var next = slope > 0 ? t - error / slope : .nan
                if abs(next - t) < 1e-14 { next = error < 0 ? t + 5e-14 : t - 5e-14 }
                if !(next > a && next < b) { next = 0.5 * (a + b) }
                t = next
            }
            low = a
            t = 0.5 * (a + b)
            values.append(sampleY(t))
        }
        values.append(1)
        return values
    }
}

/// Certified bounds on `UnitBezier.value(at:)` from a table, for curves that never decrease (y1, y2 in [0, 1]):
/// most decisions a simulation takes on a curve's value ("has the fill reached this step?") are clear by far, and a
/// table lookup settles them without the solver; only a value near the level asks for `value(at:)` itself.
///
/// Why the bounds hold: `value(at: x)` is Y(t̂) for a t̂ the solver accepts when |X(t̂) − x| < 1e-7 (its bisection
/// fallback ends even closer). X never decreases, so t̂ lies between the exact parameters of x − 1e-7 and x + 1e-7,
/// and Y never decreases either, so Y(t̂) lies between the exact curve G at those two times. G never decreases, so
/// G(i/N) at the grid point at or below x − `reach` and G(j/N) at or above x + `reach` bound it; `reach` (1e-6)
/// is ten times the solver's tolerance, far more than the rounding of x or of the index. The table holds G
/// (`exactValues`) rounded to single precision, to halve its footprint in the cache; `margin` (10⁻⁶ of progress)
/// covers that rounding (at most 6·10⁻⁸ in [0, 1]) and the rounding of X and Y.
public struct UnitBezierBounds: Sendable {
    /// G(i / `cells`), i = 0 … cells; empty for the identity curve (whose value is x exactly).
    private let values: [Float]
    /// Grid cells of the table (2^14: 64 KiB, a bound about 6·10⁻⁵ × slope wide).
    public static let cells = 16_384
    /// How far beyond the solver's tolerance (1e-7) a normalised time may be from the one evaluated.
    public static let reach = 1e-6
    static let margin = 1e-6

    /// nil for a curve that can decrease (its value may leave the bounds a monotone table gives).
    public init?(_ curve: UnitBezier) {
        guard curve.neverDecreases else { return nil }
        if curve.isIdentity {
            values = []
        } else {
            values = curve.exactValues(cells: Self.cells).map { Float($0) }
        }
    }

    /// A normalised time from which on every lower bound `bounds(at:reach:)` gives is above `level`: for x at or after
    /// it, the curve (and the solver's value of it) exceeds `level` wherever x′ lies within `reach`. nil when no lower
    /// bound in the table exceeds the level.
    public func firstTime(lowerBoundAbove level: Double, reach: Double) -> Double? {
        if values.isEmpty { return level + reach + 1e-12 }
        // The table never decreases (the curve does not), so the first entry above the level starts the answer.
        guard let index = values.firstIndex(where: { Double($0) - Self.margin > level }) else { return nil }
        // Half a cell more: the index `bounds` computes from x − reach is then at least this one despite rounding.
        return (Double(index) + 0.5) / Double(Self.cells) + reach
    }

    /// Bounds on `curve.value(at: x′)` for every x′ within `reach` of x, where `curve.value` is taken as 0 below 0
    /// and 1 above 1 (as a fill's progress is): x may be an approximation of a normalised time, off by less than
    /// `reach` − 2·10⁻⁷ (the solver's tolerance, doubled), and any double. Two table reads, no rounding calls.
    @inline(__always)
    public func bounds(at x: Double, reach: Double) -> (lower: Double, upper: Double) {
        let cells = Double(Self.cells)
        if values.isEmpty { return (Swift.min(1, Swift.max(0, x - reach)), Swift.min(1, Swift.max(0, x + reach))) }
        // Truncation rounds toward zero: down for the lower index (and anything below 0 reads G(0) = 0, still a lower
        // bound), and one more than it for the upper index (at least the ceiling).
        let below = Int(Swift.min(cells, Swift.max(0, (x - reach) * cells)))
        let above = Int(Swift.min(cells, Swift.max(0, (x + reach) * cells))) &+ 1
        return values.withUnsafeBufferPointer { table in
            (Double(table[below]) - Self.margin, Double(table[Swift.min(above, Self.cells)]) + Self.margin)
        }
    }
}
