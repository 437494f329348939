import Foundation
import GSL
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// When a drifting finger cancels a hold by moving too far: a precomputed inverse-CDF sampler of
/// the touch sample at which the recogniser first sees the finger outside its radius.
///
/// Model (units: points, seconds, hertz). Each coordinate of the finger's position is a random walk
/// observed at the touch samples t = k/R, k = 1, 2, …, with independent N(0, D²/R) steps per sample
/// and axis: a 2-D Brownian motion with per-axis standard deviation D·√t points after t seconds,
/// seen only at touch samples. The gesture fails at the first touch sample K whose distance from
/// touch-down exceeds the gesture's `maximumDistance` r; the cancel time is K/R.
///
/// Scale. With σ = D/√R (the per-sample step per axis) the law of K depends on one number only,
/// a = r/σ, the radius measured in steps (``radiusInSteps``): the walk in units of σ has unit
/// Gaussian steps and leaves the disk of radius a.
///
/// Method for a ≤ ``exactLimit`` (48): the discrete walk itself (``DiscreteWalkExitTable``).
/// The Gaussian step is isotropic and the disk is rotation-invariant, so the sub-probability density
/// f_k(ρ) of the radius after k samples without an exit obeys a 1-D recursion on [0, a],
///
///     f₁(ρ) = ρ·e^(−ρ²/2),   f_{k+1}(ρ) = ∫₀^a f_k(s)·ρ·e^(−(ρ−s)²/2)·I₀ₑ(ρs) ds,
///
/// with the Rice (non-central χ with 2 degrees of freedom) kernel and I₀ₑ(x) = e^(−x)·I₀(x) from
/// ``SpecialFunctions/besselI0Scaled(_:)``; P(K > k) = S_k = ∫₀^a f_k, and S₁ = 1 − e^(−a²/2)
/// exactly (so P(K = 1) = e^(−a²/2), the Rayleigh tail). The integral is a Nyström rule: 12-point
/// Gauss–Legendre panels no wider than 4σ (3 nodes per σ; N = 12·⌈a/4⌉ nodes), the kernel dropped
/// where |ρ − s| > 8.5σ (each dropped entry < 2e-16 of a row). f_k is analytic on [0, a], so the
/// rule converges exponentially: against 1σ panels the largest change of any S_k is 3e-12 (at a = 4,
/// one panel of the full 4σ; ≤ 6e-13 for a from 5 to 48), measured over 19 radii from 0.05 to 48.
/// The recursion runs until the ratio S_{k+1}/S_k has settled on the top eigenvalue λ of the killed
/// walk (|Δ ratio| ≤ 1e-10·(1 − ratio), and at least a²/2 samples; 1.5–1.8·a² samples for a ≥ 20,
/// where the second eigenvalue has died out to ~1e-10); beyond the last tabulated sample T the
/// survival is S_T·λ^(k−T), which then errs by < 3e-10. All in all |P(K ≤ k) − table| < 1e-9 at
/// every k. The sampler compares S_k with 1 − u, so it resolves P(K ≤ k) to 1.1e-16 absolute (the
/// spacing of doubles below 1); the engine's uniforms come in steps of 2⁻³² ≈ 2.3e-10.
/// Checked against 2,000,000 independent exact walks per case for a from 0.46 to 77 (MovementTests):
/// e.g. D = 20 pt/√s, R = 60 Hz, r = 10 pt gives P(cancel before 0.25 s) = P(K ≤ 14) = 0.79848, the
/// walks 0.79824 ± 0.00028 (the continuous approximation said 0.79155).
///
/// Method for a > ``exactLimit``: the walk looks continuous at the scale of the disk, and the exit
/// time of 2-D Brownian motion from a disk, corrected for the sampling by Siegmund's overshoot, is
/// used instead (far cheaper for large a, and it covers a → ∞, e.g. D → 0). Let τ be the exit time of
/// standard 2-D Brownian motion from the unit disk, with the survival series
///
///     P(τ > s) = Σ_{n≥1} 2 / (j_n J₁(j_n)) · exp(−j_n² s / 2),
///
/// j_n the positive zeros of J₀. The corrected radius is r_eff = r + β·σ (``effectiveRadiusPoints``,
/// β = −ζ(1/2)/√(2π) ≈ 0.5826, ``siegmundOvershoot``), and
///
///     cancel = max(1, ⌈(r_eff/D)² · τ · R⌉) / R   seconds.
///
/// Measured against the exact table, that approximation's largest |error| in P(K ≤ k) over all k is
/// 0.47/a² (−0.0243 at a = 3.87, −0.0011 at a = 20, −0.00029 at a = 40, −0.000073 at a = 80; always at
/// k ≈ 0.24·a² and always too few early cancels), so above the switch-over it is at most
/// 0.47/48² = 2.0e-4. Relative to the binomial standard error of a 400,000-user run at the same k,
/// the worst point (where P(K ≤ k) ≈ 3.6 %) is 0.40 standard errors at a = 48, 0.26 at a = 60 and
/// 0.15 at a = 80.
///
/// Cost. Building an exact table takes ~N·55 multiply-adds per sample for ~1.6·a² samples, plus
/// N·55 Bessel evaluations: measured ≈ 12 ms of CPU time per table at a ≈ 48 (release build; ten
/// tables at a = 47.0…47.9 in 0.12–0.14 s), 1–3 ms at a = 20, under 1 ms for a ≤ 8 (cost grows like
/// a³); it holds ~1.5·a² doubles (≤ 30 KB) plus a 1,025-entry guide. Tables are cached for the
/// process, keyed by a, so a simulation's classes × profiles and a sweep's repeated points build each
/// distinct a once. The continuous sampler shares one process-wide quantile table of τ (see
/// ``DiskExitQuantiles``). ``cancelTime(uniform:)`` is a table lookup without allocation: for the exact
/// table a guide table over u followed by a short binary search (a `log` past the last sample), for
/// the continuous one an interpolation, a multiply and a rounding.
///
/// `Movement` is a value that shares its table; copy it freely.
public struct Movement: Sendable {
    /// Siegmund's overshoot constant β = −ζ(1/2)/√(2π) ≈ 0.5826: a Gaussian random walk with step
    /// standard deviation σ, stopped when it first crosses a far-away level, lands on average β·σ
    /// beyond it.
    public static let siegmundOvershoot = 0.582_597_157_939_010_7

    /// The largest a = r/σ sampled from the exact discrete walk; above it the continuous exit time
    /// with Siegmund's correction is used (its error there is ≤ 0.47/a² ≤ 2.0e-4 in probability).
    public static let exactLimit = 48.0

    /// The finger's drift D in points per √second: per-axis standard deviation D·√t after t seconds.
    public let driftPointsPerSqrtSecond: Double
    /// The touch sample rate R in hertz; positions are only observed at t = k/R.
    public let touchRateHz: Double
    /// The gesture's `maximumDistance` r in points.
    public let maximumDistancePoints: Double
    /// r + β·D/√R in points: the radius the continuous approximation uses when a > ``exactLimit``
    /// (r when D = 0). Informational for a ≤ ``exactLimit``, where the exact walk needs no correction.
    public let effectiveRadiusPoints: Double
    /// a = r/σ = r·√R/D, the radius in per-sample steps; +infinity when D = 0.
    public let radiusInSteps: Double

    /// How ``cancelTime(uniform:)`` draws.
    enum Sampler: Sendable {
        /// Zero drift (or so small a drift that the time scale overflows): never cancels.
        case never
        /// A radius of no steps (a drift so large against `maximumDistance` that r/σ underflows to 0): the finger
        /// is outside at the first touch sample, as the exact table's P(K = 1) = e^(−a²/2) → 1 says.
        case firstSample
        /// The exact discrete walk's exit-sample table (a ≤ ``exactLimit``).
        case exact(DiscreteWalkExitTable)
        /// Continuous exit time with Siegmund's correction: touch samples per unit of standard exit
        /// time, (r_eff/D)²·R, and the shared quantile table of τ.
        case continuous(samplesPerStandardTime: Double, quantiles: DiskExitQuantiles)
    }

    let sampler: Sampler

    /// A sampler for one population class on one control.
    ///
    /// - Parameters:
    ///   - driftPointsPerSqrtSecond: D ≥ 0, finite; 0 means the finger never moves.
    ///   - touchRateHz: R > 0, finite.
    ///   - maximumDistancePoints: r > 0, finite.
    ///
    /// Throws a ``GSLError`` with `GSL_EINVAL` for numbers outside those ranges (populations and
    /// profiles validate them first, with messages that name the key), and the error of the first GSL
    /// call that failed while a table was built (a failed build is cached like a good one, so later
    /// calls with the same a rethrow the same error).
    public init(
        driftPointsPerSqrtSecond: Double,
        touchRateHz: Double,
        maximumDistancePoints: Double
    ) throws(GSLError) {
        guard driftPointsPerSqrtSecond.isFinite, driftPointsPerSqrtSecond >= 0, touchRateHz.isFinite, touchRateHz > 0,
              maximumDistancePoints.isFinite, maximumDistancePoints > 0 else {
            throw GSLError.invalidArgument("Movement.init")
        }
        self.driftPointsPerSqrtSecond = driftPointsPerSqrtSecond
        self.touchRateHz = touchRateHz
        self.maximumDistancePoints = maximumDistancePoints
        guard driftPointsPerSqrtSecond > 0 else {
            self.effectiveRadiusPoints = maximumDistancePoints
            self.radiusInSteps = .infinity
            self.sampler = .never
            return
        }
        let stepSigma = driftPointsPerSqrtSecond / touchRateHz.squareRoot()
        let a = maximumDistancePoints / stepSigma
        let radius = maximumDistancePoints + Self.siegmundOvershoot * stepSigma
        self.effectiveRadiusPoints = radius
        self.radiusInSteps = a
        if a == 0 {
            self.sampler = .firstSample
        } else if a <= Self.exactLimit {
            self.sampler = .exact(try DiscreteWalkExitTable.cached(radiusInSteps: a))
        } else {
            let ratio = radius / driftPointsPerSqrtSecond
            let samplesPerStandardTime = ratio * ratio * touchRateHz
            if samplesPerStandardTime < .infinity {
                self.sampler = .continuous(samplesPerStandardTime: samplesPerStandardTime,
                                           quantiles: try DiskExitQuantiles.shared.get())
            } else {
                self.sampler = .never
            }
        }
    }

    /// Seconds after touch-down at which the drifting finger cancels the gesture, for one uniform
    /// draw `u` in (0, 1), by inverse-CDF sampling.
    ///
    /// Always k/R for a whole k ≥ 1 (the touch sample at which the recogniser first sees the finger
    /// outside its radius), or `.infinity`. Non-decreasing in `u`, so feeding the same uniforms to
    /// different profiles keeps common random numbers. Edge cases: u ≤ 0 gives the first sample 1/R,
    /// u ≥ 1 gives `.infinity`, NaN gives NaN; with zero drift every `u` gives `.infinity`.
    @inline(__always)
    public func cancelTime(uniform u: Double) -> Double {
        switch sampler {
        case .never:
            return .infinity
        case .firstSample:
            return u.isNaN ? .nan : u >= 1 ? .infinity : 1 / touchRateHz
        case .exact(let table):
            return table.exitSample(u) / touchRateHz
        case .continuous(let samplesPerStandardTime, let quantiles):
            let samples = (quantiles.quantile(u) * samplesPerStandardTime).rounded(.up)
            return (samples < 1 ? 1 : samples) / touchRateHz
        }
    }

    /// P(K ≤ k): the model's probability that the finger has cancelled by touch sample k, i.e. by
    /// t = k/R; for checks (the continuous approximation rebuilds its series on every call).
    func cancelProbability(bySample k: Int) -> Double {
        guard k >= 1 else { return 0 }
        switch sampler {
        case .never:
            return 0
        case .firstSample:
            return 1
        case .exact(let table):
            return 1 - table.survival(afterSamples: k)
        case .continuous(let samplesPerStandardTime, _):
            // ⌈x·τ⌉ ≤ k ⇔ τ ≤ k/x (x = samples per standard time).
            guard let series = try? DiskExitSeries() else { return .nan }
            return series.distributionAndDensity(Double(k) / samplesPerStandardTime).distribution
        }
    }
}

/// The exact law of the first touch sample K at which a 2-D Gaussian random walk with unit steps
/// per axis leaves the disk of radius a (see ``Movement`` for the method and its accuracy):
/// survival S_k = P(K > k) tabulated for k = 1…T, geometric with ratio λ beyond.
struct DiscreteWalkExitTable: Sendable {
    /// Gauss–Legendre nodes per panel.
    static let nodesPerPanel = 12
    /// Widest panel, in steps σ.
    static let panelWidth = 4.0
    /// Kernel entries with |ρ − s| beyond this many σ are dropped (e^(−8.5²/2) ≈ 2e-16).
    static let kernelReach = 8.5
    /// The recursion stops once successive ratios S_{k+1}/S_k differ by at most this times 1 − ratio.
    static let ratioTolerance = 1e-10
    /// Survivals below this are never compared with 1 − u for any u < 1 in double precision (the
    /// smallest such 1 − u is 2⁻⁵³ ≈ 1.1e-16), so the table can stop there.
    static let negligibleSurvival = 1e-18
    /// Cells of the guide table over u.
    static let guideCells = 1024

    /// The radius in steps, a = r/σ.
    let radius: Double
    /// survival[k − 1] = S_k = P(K > k), k = 1…T; non-increasing, survival[0] = 1 − e^(−a²/2).
    let survival: [Double]
    /// λ: S_{k+1}/S_k for k ≥ T (the top eigenvalue of the killed walk), in [0, 1).
    let tailRatio: Double
    /// ln λ (−infinity when λ = 0).
    let logTailRatio: Double
    /// guide[j] = the 0-based table index of the exit sample for u = j/guideCells (clamped to T − 1),
    /// j = 0…guideCells: the search for u in cell j stays within guide[j]…guide[j + 1].
    let guide: [Int32]

    /// Builds the table for radius a > 0 (in steps).
    init(radiusInSteps a: Double) throws(GSLError) {
        guard a > 0, a.isFinite else { throw GSLError.invalidArgument("DiscreteWalkExitTable") }
        radius = a
        let first = -expm1(-0.5 * a * a)
        var survival = [first]
        var ratio = 0.0
        if first >= Self.negligibleSurvival {
            let rule = try Quadrature.gaussLegendre(points: Self.nodesPerPanel)
            let panels = max(1, Int((a / Self.panelWidth).rounded(.up)))
            let width = a / Double(panels)
            var nodes: [Double] = []
            var weights: [Double] = []
            nodes.reserveCapacity(panels * Self.nodesPerPanel)
            weights.reserveCapacity(panels * Self.nodesPerPanel)
            for p in 0..<panels {
                for (x, w) in zip(rule.nodes, rule.weights) {
                    nodes.append((Double(p) + 0.5 * (x + 1)) * width)
                    weights.append(0.5 * w * width)
                }
            }
            let kernel = try BandedKernel(nodes: nodes, weights: weights, reach: Self.kernelReach)
            ratio = kernel.propagate(
                density: nodes.map { $0 * exp(-0.5 * $0 * $0) }, weights: weights, into: &survival,
                minimumSteps: max(3, Int((0.5 * a * a).rounded(.up))),
                maximumSteps: Int((4 * a * a).rounded(.up)) + 200)
        }
        self.survival = survival
        self.tailRatio = ratio
        self.logTailRatio = log(ratio)
        var guide = [Int32](repeating: 0, count: Self.guideCells + 1)
        for j in 0...Self.guideCells {
            let u = Double(j) / Double(Self.guideCells)
            guide[j] = Int32(Self.firstIndex(in: survival, atMost: 1 - u, from: 0, to: survival.count - 1))
        }
        self.guide = guide
    }

    /// The first index i in lower…upper with table[i] ≤ v, or `upper` if none (binary search on a
    /// non-increasing table).
    @inline(__always)
    static func firstIndex(in table: [Double], atMost v: Double, from lower: Int, to upper: Int) -> Int {
        var low = lower
        var high = upper
        while low < high {
            let middle = (low + high) >> 1
            if table[middle] <= v { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// P(K > k) for k ≥ 0 (1 at k = 0), geometric beyond the table.
    func survival(afterSamples k: Int) -> Double {
        guard k >= 1 else { return 1 }
        let last = survival.count
        if k <= last { return survival[k - 1] }
        return survival[last - 1] * pow(tailRatio, Double(k - last))
    }

    /// The exit sample K (as a Double, ≥ 1) for uniform u: the first k with S_k ≤ 1 − u. u ≤ 0 gives
    /// 1, u ≥ 1 gives +infinity, NaN gives NaN. Non-decreasing in u.
    @inline(__always)
    func exitSample(_ u: Double) -> Double {
        guard u < 1 else { return u.isNaN ? .nan : .infinity }
        guard u > 0 else { return 1 }
        let v = 1 - u
        let lastIndex = survival.count - 1
        let last = survival[lastIndex]
        if v < last {
            // S_T·λ^(k−T) ≤ v ⇔ k − T ≥ ln(v/S_T)/ln λ; at least one step past the table.
            let steps = (log(v / last) / logTailRatio).rounded(.up)
            return Double(survival.count) + (steps >= 1 ? steps : 1)
        }
        let cell = Int(u * Double(Self.guideCells))
        let lower = Int(guide[cell])
        let upper = cell < Self.guideCells ? Int(guide[cell + 1]) : lastIndex
        return Double(Self.firstIndex(in: survival, atMost: v, from: lower, to: upper) + 1)
    }

    /// Process-wide cache of built tables keyed by a (its bit pattern), failures included.
    private static let cache = TableCache()

    /// The table for radius a, built on first use and shared afterwards.
    static func cached(radiusInSteps a: Double) throws(GSLError) -> DiscreteWalkExitTable {
        try cache.table(radiusInSteps: a).get()
    }
}

/// A lock-protected dictionary of exit tables. Bounded: when it holds `capacity` tables it is
/// emptied before the next one is added (each table is ≤ ~30 KB; a long sweep over many radii
/// simply rebuilds).
private final class TableCache: @unchecked Sendable {
    static let capacity = 512
    private let lock = NSLock()
    private var tables: [UInt64: Result<DiscreteWalkExitTable, GSLError>] = [:]

    func table(radiusInSteps a: Double) -> Result<DiscreteWalkExitTable, GSLError> {
        lock.lock()
        defer { lock.unlock() }
        if let table = tables[a.bitPattern] { return table }
        let table = Result { () throws(GSLError) -> DiscreteWalkExitTable in try DiscreteWalkExitTable(radiusInSteps: a) }
        if tables.count >= Self.capacity { tables.removeAll(keepingCapacity: true) }
        tables[a.bitPattern] = table
        return table
    }
}

/// The Nyström matrix of the Rice kernel on the quadrature nodes, stored by rows as contiguous
/// bands: entry (i, j) = w_j·p(ρ_i | s_j) for |ρ_i − s_j| ≤ reach, with
/// p(ρ | s) = ρ·e^(−(ρ−s)²/2)·I₀ₑ(ρs) the density of the new radius ρ given the old radius s.
struct BandedKernel {
    /// First column of each row's band.
    let firstColumn: [Int]
    /// Offset of each row's band in `values`; rowOffset[n] = values.count.
    let rowOffset: [Int]
    let values: [Double]

    init(nodes: [Double], weights: [Double], reach: Double) throws(GSLError) {
        let n = nodes.count
        var firstColumn = [Int](repeating: 0, count: n)
        var rowOffset = [Int](repeating: 0, count: n + 1)
        var values: [Double] = []
        var low = 0
        for i in 0..<n {
            let rho = nodes[i]
            while low < n && nodes[low] < rho - reach { low += 1 }
            var j = low
            firstColumn[i] = low
            rowOffset[i] = values.count
            while j < n && nodes[j] <= rho + reach {
                let s = nodes[j]
                let d = rho - s
                values.append(weights[j] * rho * exp(-0.5 * d * d) * (try SpecialFunctions.besselI0Scaled(rho * s)))
                j += 1
            }
        }
        rowOffset[n] = values.count
        self.firstColumn = firstColumn
        self.rowOffset = rowOffset
        self.values = values
    }

    /// Applies the kernel to `density` (f₁ at the nodes) step after step, appending S_k = Σ w_i f_k(ρ_i)
    /// for k = 2, 3, … to `survival` (which holds S₁), until the ratio S_k/S_{k−1} has settled (see
    /// ``DiscreteWalkExitTable/ratioTolerance``, never before `minimumSteps`), the survival is
    /// negligible, or `maximumSteps` samples are tabulated. Returns the last ratio, the tail's λ.
    func propagate(density: [Double], weights: [Double], into survival: inout [Double],
                   minimumSteps: Int, maximumSteps: Int) -> Double {
        let n = density.count
        var current = density
        var next = [Double](repeating: 0, count: n)
        var previousRatio = -1.0
        var ratio = 0.0
        firstColumn.withUnsafeBufferPointer { firstColumn in
            rowOffset.withUnsafeBufferPointer { rowOffset in
                values.withUnsafeBufferPointer { values in
                    weights.withUnsafeBufferPointer { weights in
                        var k = 1
                        while k < maximumSteps {
                            current.withUnsafeBufferPointer { f in
                                next.withUnsafeMutableBufferPointer { g in
                                    for i in 0..<n {
                                        let start = rowOffset[i]
                                        let count = rowOffset[i + 1] - start
                                        let column = firstColumn[i]
                                        // Four running sums: one chain of dependent additions would
                                        // leave the loop waiting on the adder's latency (~4× slower).
                                        var sum0 = 0.0, sum1 = 0.0, sum2 = 0.0, sum3 = 0.0
                                        var t = 0
                                        while t + 4 <= count {
                                            sum0 += values[start + t] * f[column + t]
                                            sum1 += values[start + t + 1] * f[column + t + 1]
                                            sum2 += values[start + t + 2] * f[column + t + 2]
                                            sum3 += values[start + t + 3] * f[column + t + 3]
                                            t += 4
                                        }
                                        while t < count {
                                            sum0 += values[start + t] * f[column + t]
                                            t += 1
                                        }
                                        g[i] = (sum0 + sum1) + (sum2 + sum3)
                                    }
                                }
                            }
                            var total = 0.0
                            next.withUnsafeBufferPointer { g in
                                for i in 0..<n { total += weights[i] * g[i] }
                            }
                            swap(&current, &next)
                            k += 1
                            let previous = survival[survival.count - 1]
                            // The exact S_k never increases; keep rounding from making it.
                            let value = min(total, previous)
                            survival.append(value)
                            ratio = previous > 0 ? value / previous : 0
                            if value < DiscreteWalkExitTable.negligibleSurvival { break }
                            if k >= minimumSteps,
                               abs(ratio - previousRatio) <= DiscreteWalkExitTable.ratioTolerance * (1 - ratio) {
                                break
                            }
                            previousRatio = ratio
                        }
                    }
                }
            }
        }
        return ratio
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
