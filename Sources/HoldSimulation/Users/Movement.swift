import GSL
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// When a drifting finger cancels a hold by moving too far: a precomputed inverse-CDF sampler.
///
/// Model (units: points, seconds, hertz). Each coordinate of the finger's position is a random walk
/// observed at the touch samples t = k/R, k = 1, 2, …, with independent N(0, D²/R) steps per sample
/// and axis: a 2-D Brownian motion with per-axis standard deviation D·√t points after t seconds,
/// seen only at touch samples. The gesture fails at the first touch sample whose distance from
/// touch-down exceeds the gesture's `maximumDistance` r.
///
/// Method. Let τ be the exit time of standard 2-D Brownian motion (per-axis variance 1 per unit
/// time) from the unit disk. Its survival function is the eigenfunction series
///
///     P(τ > s) = Σ_{n≥1} 2 / (j_n J₁(j_n)) · exp(−j_n² s / 2),
///
/// with j_n the positive zeros of J₀ (from ``SpecialFunctions/besselJ0Zero(_:)`` and
/// ``SpecialFunctions/besselJ1(_:)``). By Brownian scaling a drift of D points/√s leaves a disk of
/// radius ρ after (ρ/D)²·τ seconds. Because the walk is only looked at on touch samples it exits
/// later than the continuous path; Siegmund's boundary correction replaces r by
///
///     r_eff = r + β · D/√R,   β = −ζ(1/2)/√(2π) ≈ 0.5826 (``siegmundOvershoot``),
///
/// i.e. the expected overshoot of a Gaussian random walk with step σ = D/√R over a flat boundary.
/// ``cancelTime(uniform:)`` returns the first touch sample at or after (r_eff/D)²·τ:
///
///     cancel = max(1, ⌈(r_eff/D)² · τ · R⌉) / R   seconds.
///
/// Approximation. The correction is asymptotic in σ/r → 0, σ = D/√R the per-sample step (it treats
/// the circle as locally flat and the walk as long), and it is only an approximation of the
/// discrete walk. Measured against 2,000,000 exact discrete walks over the first 2 s, the largest
/// |model − walk| in P(cancel ≤ k/R) over all samples k is 0.0013 for D = 5 pt/√s, R = 120 Hz,
/// r = 10 pt (σ/r = 0.046) and for D = 10, R = 120, r = 18 (σ/r = 0.051); for D = 20, R = 60,
/// r = 10 (σ/r = 0.26) it is 0.024 at the 4th sample (1/15 s), 0.006 at 0.25 s and < 0.001 from
/// 0.5 s on; at σ/r = 0.5 and 1 it reaches 0.075 and 0.105 (on the first sample). In every case
/// measured the model cancels slightly too late: it under-predicts early cancels of fast drifters.
/// Without the correction the errors would be 0.023 and 0.085 the other way.
///
/// The table. The quantile function of τ does not depend on D, R or r, so it is built once per
/// process (on first use, thread-safely) and shared by every `Movement`: 16,321 knots at
/// u = i·2⁻¹⁴ up to 1 − 2⁻⁸, a lower-tail ladder at u = 2⁻¹⁴…2⁻⁴⁰ (one knot per halving), and the
/// first series term inverted in closed form above 1 − 2⁻⁸ (where the second term is below 2e-14).
/// Each knot solves P(τ ≤ s) = u to ~1e-15 relative with the series truncated below 1e-19. Linear
/// interpolation between knots that are exact quantiles of a continuous CDF can only move the
/// probability within the cell, so for the standard exit time the sampler guarantees
/// |P(τ ≤ τ̂(u)) − u| ≤ min(2⁻¹⁴, u) ≈ 6.1e-5, inside the 1e-4 the simulation needs (measured:
/// ≤ 4.2e-6 in the main table, ≤ 5.4 % of u on the ladder). That is far below the approximation
/// error of the boundary correction.
///
/// Cost: ``cancelTime(uniform:)`` does one table lookup, a multiply and a rounding (a `log` in the
/// upper 0.4 % tail), with no allocation. `Movement` is a value that shares the table; copy it freely.
public struct Movement: Sendable {
    /// Siegmund's overshoot constant β = −ζ(1/2)/√(2π) ≈ 0.5826: a Gaussian random walk with step
    /// standard deviation σ, stopped when it first crosses a far-away level, lands on average β·σ
    /// beyond it.
    public static let siegmundOvershoot = 0.582_597_157_939_010_7

    /// The finger's drift D in points per √second: per-axis standard deviation D·√t after t seconds.
    public let driftPointsPerSqrtSecond: Double
    /// The touch sample rate R in hertz; positions are only observed at t = k/R.
    public let touchRateHz: Double
    /// The gesture's `maximumDistance` r in points.
    public let maximumDistancePoints: Double
    /// The corrected radius r + β·D/√R in points that the continuous model uses (r when D = 0).
    public let effectiveRadiusPoints: Double

    /// Touch samples per unit of standard exit time: (r_eff/D)²·R, or +infinity when the finger
    /// never reaches the boundary (D = 0, or D so small that the product overflows).
    let samplesPerStandardTime: Double
    /// The shared quantile table of the standard exit time τ.
    let quantiles: DiskExitQuantiles

    /// A sampler for one population class on one control.
    ///
    /// - Parameters:
    ///   - driftPointsPerSqrtSecond: D ≥ 0, finite; 0 means the finger never moves.
    ///   - touchRateHz: R > 0, finite.
    ///   - maximumDistancePoints: r > 0, finite.
    ///
    /// Throws a ``GSLError`` with `GSL_EINVAL` for numbers outside those ranges (populations and
    /// profiles validate them first, with messages that name the key), and the error of the first GSL
    /// call that failed while the shared table was built (only on the first `Movement` of the process;
    /// later calls rethrow the same error).
    public init(
        driftPointsPerSqrtSecond: Double,
        touchRateHz: Double,
        maximumDistancePoints: Double
    ) throws(GSLError) {
        guard driftPointsPerSqrtSecond.isFinite, driftPointsPerSqrtSecond >= 0, touchRateHz.isFinite, touchRateHz > 0,
              maximumDistancePoints.isFinite, maximumDistancePoints > 0 else {
            throw GSLError.invalidArgument("Movement.init")
        }
        self.quantiles = try DiskExitQuantiles.shared.get()
        self.driftPointsPerSqrtSecond = driftPointsPerSqrtSecond
        self.touchRateHz = touchRateHz
        self.maximumDistancePoints = maximumDistancePoints
        if driftPointsPerSqrtSecond == 0 {
            self.effectiveRadiusPoints = maximumDistancePoints
            self.samplesPerStandardTime = .infinity
        } else {
            let stepSigma = driftPointsPerSqrtSecond / touchRateHz.squareRoot()
            let radius = maximumDistancePoints + Self.siegmundOvershoot * stepSigma
            let ratio = radius / driftPointsPerSqrtSecond
            self.effectiveRadiusPoints = radius
            self.samplesPerStandardTime = ratio * ratio * touchRateHz
        }
    }

    /// Seconds after touch-down at which the drifting finger cancels the gesture, for one uniform
    /// draw `u` in (0, 1), by inverse-CDF sampling.
    ///
    /// Always k/R for a whole k ≥ 1 (the first touch sample at or after the corrected continuous
    /// exit), or `.infinity`. Non-decreasing in `u`, so feeding the same uniforms to different
    /// profiles keeps common random numbers. Edge cases: u ≤ 0 gives the first sample 1/R, u ≥ 1
    /// gives `.infinity`, NaN gives NaN; with zero drift every `u` gives `.infinity`.
    @inline(__always)
    public func cancelTime(uniform u: Double) -> Double {
        guard samplesPerStandardTime < .infinity else { return .infinity }
        let samples = (quantiles.quantile(u) * samplesPerStandardTime).rounded(.up)
        return (samples < 1 ? 1 : samples) / touchRateHz
    }
}

/// The survival series of τ, the exit time of standard 2-D Brownian motion from the unit disk.
///
/// P(τ > s) = Σ cₙ e^(−λₙ s) with λₙ = jₙ²/2 and cₙ = 2/(jₙ J₁(jₙ)) (|cₙ| ≤ 1.61, alternating in
/// sign).
struct DiskExitSeries: Sendable {
    /// Number of terms kept: enough for s down to ``shortTimeLimit`` ≈ 5.6e-4.
    static let termCount = 128
    /// Terms with λₙ·s above this are dropped: each is below 1.61·e⁻⁴⁵ ≈ 4.6e-20 and the rest of the
    /// tail shrinks faster than geometrically.
    static let exponentCutoff = 45.0

    /// λₙ = jₙ²/2, increasing.
    let decayRates: [Double]
    /// cₙ = 2/(jₙ J₁(jₙ)).
    let coefficients: [Double]
    /// Below this s the truncated series would be inaccurate; there P(τ ≤ s) ≤ 8·e^(−1/(4s)) < 1e-190
    /// (each coordinate must move 1/√2 within s), so the survival is 1 to double precision.
    let shortTimeLimit: Double

    init() throws(GSLError) {
        var rates: [Double] = []
        var coefficients: [Double] = []
        rates.reserveCapacity(Self.termCount)
        coefficients.reserveCapacity(Self.termCount)
        for n in 1...Self.termCount {
            let zero = try SpecialFunctions.besselJ0Zero(n)
            let j1 = try SpecialFunctions.besselJ1(zero)
            rates.append(zero * zero / 2)
            coefficients.append(2 / (zero * j1))
        }
        self.decayRates = rates
        self.coefficients = coefficients
        self.shortTimeLimit = Self.exponentCutoff / (rates.last ?? 1)
    }

    /// P(τ ≤ s) and the density of τ at s (per unit time), truncated below 1e-19.
    func distributionAndDensity(_ s: Double) -> (distribution: Double, density: Double) {
        guard s >= shortTimeLimit else { return (s.isNaN ? .nan : 0, s.isNaN ? .nan : 0) }
        var survival = 0.0
        var density = 0.0
        for n in 0..<decayRates.count {
            let exponent = decayRates[n] * s
            if exponent > Self.exponentCutoff { break }
            let term = coefficients[n] * exp(-exponent)
            survival += term
            density += decayRates[n] * term
        }
        return (1 - survival, density)
    }

    /// P(τ > s); 1 for s < ``shortTimeLimit`` (including s ≤ 0), NaN for NaN.
    func survival(_ s: Double) -> Double {
        1 - distributionAndDensity(s).distribution
    }
}

/// The quantile function of τ (see ``DiskExitSeries``) as a lookup table; see ``Movement`` for
/// the layout and the accuracy it guarantees.
struct DiskExitQuantiles: Sendable {
    /// The main cells have width 2⁻¹⁴ in probability.
    static let cellsPerUnit = 16_384.0
    /// Main cells cover u in [0, 1 − 2⁻⁸]; above, the one-term closed form is used.
    static let cellCount = 16_320
    /// u = 1 − 2⁻⁸, where the table hands over to the closed form.
    static let upperLimit = Double(cellCount) / cellsPerUnit
    /// The ladder has knots at u = 2^(−14−m), m = 0…26, i.e. down to 2⁻⁴⁰ ≈ 9e-13.
    static let ladderDepth = 26
    /// Binary exponent of the first main cell's upper edge (2⁻¹⁴).
    static let firstCellExponent = -14

    /// τ quantiles at u = i·2⁻¹⁴, i = 0…cellCount (knots[0] = 0; the last from the closed form).
    let knots: [Double]
    /// ladder[m] = τ quantile at u = 2^(−14−m), m = 0…ladderDepth; ladder[0] == knots[1].
    let ladder: [Double]
    /// λ₁ = j₁²/2 ≈ 2.8916.
    let tailRate: Double
    /// ln c₁ = ln(2/(j₁ J₁(j₁))) ≈ 0.4712.
    let tailLogCoefficient: Double

    /// Built once per process and shared: the table does not depend on any parameter.
    static let shared: Result<DiskExitQuantiles, GSLError> = Result { () throws(GSLError) -> DiskExitQuantiles in
        try DiskExitQuantiles(series: DiskExitSeries())
    }

    init(series: DiskExitSeries) {
        let rate = series.decayRates.first ?? 1
        let logCoefficient = log(series.coefficients.first ?? 1)
        self.tailRate = rate
        self.tailLogCoefficient = logCoefficient
        let h = 1 / Self.cellsPerUnit
        var knots = [Double](repeating: 0, count: Self.cellCount + 1)
        var previous = series.shortTimeLimit
        for i in 1..<Self.cellCount {
            let u = Double(i) * h
            // The one-term closed form brackets from above when it is large enough; grow it if not.
            var upper = max((logCoefficient - log1p(-u)) / rate, previous)
            while series.distributionAndDensity(upper).distribution < u { upper *= 2 }
            let guess = i >= 2 ? 2 * previous - knots[i - 2] : 0.5 * (previous + upper)
            let knot = Self.solve(series, u: u, lower: previous, upper: upper, guess: guess)
            knots[i] = knot
            previous = knot
        }
        // At u = 1 − 2⁻⁸ the first term alone is exact to < 2e-14, so use it: the table then meets
        // the closed form continuously.
        knots[Self.cellCount] = (logCoefficient - log1p(-Self.upperLimit)) / rate
        var ladder = [knots[1]]
        for m in 1...Self.ladderDepth {
            let u = Double(sign: .plus, exponent: Self.firstCellExponent - m, significand: 1)
            let upper = ladder[m - 1]
            ladder.append(Self.solve(series, u: u, lower: series.shortTimeLimit, upper: upper, guess: upper))
        }
        self.knots = knots
        self.ladder = ladder
    }

    /// Solves P(τ ≤ s) = u for s in [lower, upper] by Newton steps on the series, falling back to
    /// bisection whenever a step leaves the bracket; stops at ~1e-15 relative.
    private static func solve(_ series: DiskExitSeries, u: Double, lower: Double, upper: Double, guess: Double) -> Double {
        var low = lower
        var high = upper
        var s = guess > low && guess < high ? guess : 0.5 * (low + high)
        for _ in 0..<200 {
            let (distribution, density) = series.distributionAndDensity(s)
            let gap = distribution - u
            if gap == 0 { return s }
            if gap < 0 { low = s } else { high = s }
            var next = s - gap / density
            if !(next > low && next < high) { next = 0.5 * (low + high) }
            if abs(next - s) <= 1e-15 * next || high - low <= 1e-15 * high { return next }
            s = next
        }
        return s
    }

    /// The τ quantile at `u`: 0 for u ≤ 0, +infinity for u ≥ 1, NaN for NaN. Non-decreasing.
    @inline(__always)
    func quantile(_ u: Double) -> Double {
        if u >= Self.upperLimit {
            guard u < 1 else { return .infinity }
            return (tailLogCoefficient - log1p(-u)) / tailRate
        }
        let x = u * Self.cellsPerUnit
        if x >= 1 {
            let i = Int(x)
            let lowerKnot = knots[i]
            return lowerKnot + (x - Double(i)) * (knots[i + 1] - lowerKnot)
        }
        return lowerTailQuantile(u)
    }

    /// u < 2⁻¹⁴: linear within the doubling cell [2^e, 2^(e+1)) of the ladder, linear from 0 below 2⁻⁴⁰.
    private func lowerTailQuantile(_ u: Double) -> Double {
        guard u > 0 else { return u.isNaN ? .nan : 0 }
        let m = Self.firstCellExponent - Int(u.exponent)
        guard m <= Self.ladderDepth else {
            let deepest = Double(sign: .plus, exponent: Self.firstCellExponent - Self.ladderDepth, significand: 1)
            return ladder[Self.ladderDepth] * (u / deepest)
        }
        let lowerKnot = ladder[m]
        return lowerKnot + (u.significand - 1) * (ladder[m - 1] - lowerKnot)
    }
}
