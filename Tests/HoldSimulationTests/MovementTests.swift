#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GSL
import HoldModel
import Testing
@testable import HoldSimulation

/// P(K ≤ k) for the exact discrete walk, measured independently, with what the models say.
///
/// `walk` ± `standardError`: NumPy 2.4.6 Monte Carlo of the model itself (per-axis N(0, 1) steps in
/// units of σ = D/√R, exit at the first sample with x² + y² > (r/σ)²), n = 2,000,000 walks per
/// (D, R, r), PCG64 seeded 20261123 + D·1000 + R·10 + r; standardError = √(p(1−p)/n). The tolerance
/// is 4 standard errors: the table's own error is < 1e-9, so a correct model fails one of these 35
/// rows with probability ~35·6e-5 = 0.002 for a fresh seed (and these numbers are fixed); every row
/// passes at ≤ 1.93 SE.
/// `recursion`: the same recursion as ``DiscreteWalkExitTable`` written independently in NumPy/SciPy
/// (dense matrix, 2σ panels of 12 nodes, scipy.special.i0e), to regress the table at 1e-9.
/// `siegmund`: the previous model (continuous exit time with Siegmund's correction), for the record
/// and, for a > 48, as the value the sampler must reproduce.
struct WalkReference: Sendable, CustomStringConvertible {
    let drift: Double
    let rate: Double
    let radius: Double
    let sample: Int
    let walk: Double
    let standardError: Double
    let recursion: Double
    let siegmund: Double

    var description: String { "D=\(drift) R=\(rate) r=\(radius) k=\(sample)" }
}

private let walkReferences: [WalkReference] = [
    // a = 3.873 (σ/r = 0.26): the issue's case; K ≤ 14 is "before 0.25 s".
    WalkReference(drift: 20, rate: 60, radius: 10, sample: 1, walk: 0.0005430, standardError: 0.0000165, recursion: 0.0005530844, siegmund: 0.000096),
    WalkReference(drift: 20, rate: 60, radius: 10, sample: 2, walk: 0.0238820, standardError: 0.0001080, recursion: 0.0237167864, siegmund: 0.013383),
    WalkReference(drift: 20, rate: 60, radius: 10, sample: 4, walk: 0.1786065, standardError: 0.0002708, recursion: 0.1786502934, siegmund: 0.154396),
    WalkReference(drift: 20, rate: 60, radius: 10, sample: 14, walk: 0.7982420, standardError: 0.0002838, recursion: 0.7984846437, siegmund: 0.791550),
    WalkReference(drift: 20, rate: 60, radius: 10, sample: 15, walk: 0.8253445, standardError: 0.0002685, recursion: 0.8257428689, siegmund: 0.819796),
    WalkReference(drift: 20, rate: 60, radius: 10, sample: 30, walk: 0.9803235, standardError: 0.0000982, recursion: 0.9803146413, siegmund: 0.979727),
    WalkReference(drift: 20, rate: 60, radius: 10, sample: 60, walk: 0.9997525, standardError: 0.0000111, recursion: 0.9997488110, siegmund: 0.999743),
    // a = 1.549 (σ/r = 0.65); sample 15 is past the table (T = 11): the geometric tail.
    WalkReference(drift: 40, rate: 60, radius: 8, sample: 1, walk: 0.3014095, standardError: 0.0003245, recursion: 0.3011942119, siegmund: 0.189182),
    WalkReference(drift: 40, rate: 60, radius: 8, sample: 2, walk: 0.6169900, standardError: 0.0003437, recursion: 0.6169928977, siegmund: 0.552569),
    WalkReference(drift: 40, rate: 60, radius: 8, sample: 4, walk: 0.8903580, standardError: 0.0002209, recursion: 0.8901154472, siegmund: 0.874305),
    WalkReference(drift: 40, rate: 60, radius: 8, sample: 8, walk: 0.9909890, standardError: 0.0000668, recursion: 0.9909953977, siegmund: 0.990137),
    WalkReference(drift: 40, rate: 60, radius: 8, sample: 15, walk: 0.9998715, standardError: 0.0000080, recursion: 0.9998869877, siegmund: 0.999885),
    // a = 0.456 (σ/r = 2.2): nearly everyone leaves on the first sample.
    WalkReference(drift: 60, rate: 30, radius: 5, sample: 1, walk: 0.9010385, standardError: 0.0002111, recursion: 0.9010751057, siegmund: 0.889991),
    WalkReference(drift: 60, rate: 30, radius: 5, sample: 2, walk: 0.9905425, standardError: 0.0000684, recursion: 0.9906739481, siegmund: 0.992445),
    WalkReference(drift: 60, rate: 30, radius: 5, sample: 3, walk: 0.9991110, standardError: 0.0000211, recursion: 0.9991208330, siegmund: 0.999481),
    // a = 11.62 (σ/r = 0.086).
    WalkReference(drift: 10, rate: 60, radius: 15, sample: 10, walk: 0.0013930, standardError: 0.0000264, recursion: 0.0013743291, siegmund: 0.001135),
    WalkReference(drift: 10, rate: 60, radius: 15, sample: 30, walk: 0.1576260, standardError: 0.0002577, recursion: 0.1575862155, siegmund: 0.154431),
    WalkReference(drift: 10, rate: 60, radius: 15, sample: 60, walk: 0.5053990, standardError: 0.0003535, recursion: 0.5051189946, siegmund: 0.502780),
    WalkReference(drift: 10, rate: 60, radius: 15, sample: 120, walk: 0.8452900, standardError: 0.0002557, recursion: 0.8449796881, siegmund: 0.844251),
    // a = 19.72 (σ/r = 0.051).
    WalkReference(drift: 10, rate: 120, radius: 18, sample: 30, walk: 0.0021880, standardError: 0.0000330, recursion: 0.0021351548, siegmund: 0.002013),
    WalkReference(drift: 10, rate: 120, radius: 18, sample: 60, walk: 0.0616760, standardError: 0.0001701, recursion: 0.0615770127, siegmund: 0.060704),
    WalkReference(drift: 10, rate: 120, radius: 18, sample: 120, walk: 0.3230975, standardError: 0.0003307, recursion: 0.3234618610, siegmund: 0.322367),
    WalkReference(drift: 10, rate: 120, radius: 18, sample: 240, walk: 0.7032870, standardError: 0.0003230, recursion: 0.7032742114, siegmund: 0.702761),
    // a = 21.91 (σ/r = 0.046).
    WalkReference(drift: 5, rate: 120, radius: 10, sample: 30, walk: 0.0004535, standardError: 0.0000151, recursion: 0.0004563441, siegmund: 0.000424),
    WalkReference(drift: 5, rate: 120, radius: 10, sample: 60, walk: 0.0285330, standardError: 0.0001177, recursion: 0.0285690771, siegmund: 0.028068),
    WalkReference(drift: 5, rate: 120, radius: 10, sample: 120, walk: 0.2228610, standardError: 0.0002943, recursion: 0.2227239221, siegmund: 0.221781),
    WalkReference(drift: 5, rate: 120, radius: 10, sample: 240, walk: 0.5952255, standardError: 0.0003471, recursion: 0.5950283655, siegmund: 0.594459),
    // a = 36.51 (σ/r = 0.027), below the switch-over at 48.
    WalkReference(drift: 3, rate: 120, radius: 10, sample: 120, walk: 0.0062785, standardError: 0.0000559, recursion: 0.0062976986, siegmund: 0.006222),
    WalkReference(drift: 3, rate: 120, radius: 10, sample: 320, walk: 0.2131430, standardError: 0.0002896, recursion: 0.2132033925, siegmund: 0.212857),
    WalkReference(drift: 3, rate: 120, radius: 10, sample: 640, walk: 0.5832145, standardError: 0.0003486, recursion: 0.5836092687, siegmund: 0.583394),
    WalkReference(drift: 3, rate: 120, radius: 10, sample: 1600, walk: 0.9443020, standardError: 0.0001622, recursion: 0.9444826729, siegmund: 0.944454),
    // a = 77.46 (σ/r = 0.013): the continuous approximation's range.
    WalkReference(drift: 2, rate: 240, radius: 10, sample: 480, walk: 0.0033790, standardError: 0.0000410, recursion: 0.0034029578, siegmund: 0.003392),
    WalkReference(drift: 2, rate: 240, radius: 10, sample: 1440, walk: 0.2202265, standardError: 0.0002930, recursion: 0.2203649487, siegmund: 0.220287),
    WalkReference(drift: 2, rate: 240, radius: 10, sample: 2400, walk: 0.4904670, standardError: 0.0003535, recursion: 0.4900559458, siegmund: 0.489997),
    WalkReference(drift: 2, rate: 240, radius: 10, sample: 3600, walk: 0.7101505, standardError: 0.0003208, recursion: 0.7101758321, siegmund: 0.710142),
]

/// One drift/touch-rate/radius combination for the in-process walk simulation.
///
/// `modelBias` bounds |model CDF − exact discrete-walk CDF|: 1e-9 for the exact table (a ≤ 48) and
/// the continuous approximation's measured 0.47/a² otherwise.
struct WalkCase: Sendable, CustomStringConvertible {
    let drift: Double
    let rate: Double
    let radius: Double

    var radiusInSteps: Double { radius / (drift / rate.squareRoot()) }
    var modelBias: Double { radiusInSteps <= Movement.exactLimit ? 1e-9 : 0.47 / (radiusInSteps * radiusInSteps) }
    var description: String { "D=\(drift) R=\(rate) r=\(radius)" }
}

private let walkCases: [WalkCase] = [
    WalkCase(drift: 5, rate: 120, radius: 10),    // a = 21.9
    WalkCase(drift: 20, rate: 60, radius: 10),    // a = 3.87
    WalkCase(drift: 2, rate: 120, radius: 18),    // a = 98.6: continuous; P(cancel by 2 s) ≈ 1e-9
    WalkCase(drift: 10, rate: 120, radius: 18),   // a = 19.7
    WalkCase(drift: 60, rate: 30, radius: 5),     // a = 0.456
]

/// The probability error the sampler may add on top of the model: the continuous table's
/// guaranteed 2⁻¹⁴ (the exact table adds nothing) plus the 1/M of counting a grid of M = 100,000
/// uniforms; 1e-4 in all.
private let samplerError = 1e-4
private let uniformGridSize = 100_000

/// Exact discrete walks: for each of `n` fingers, the touch sample (1…) at which it first lies
/// farther than r from touch-down, or nil when it stays inside up to `samples`.
private func simulateWalks(_ c: WalkCase, fingers n: Int, samples: Int, stream: UInt64) -> [Int] {
    let generator = Generator(seed: 20_260_511, stream: stream, kind: .mt19937)
    let sigma = c.drift / c.rate.squareRoot()
    let radiusSquared = c.radius * c.radius
    var exitsBySample = [Int](repeating: 0, count: samples + 1)
    for _ in 0..<n {
        var x = 0.0
        var y = 0.0
        for k in 1...samples {
            x += generator.gaussian(sigma: sigma)
            y += generator.gaussian(sigma: sigma)
            if x * x + y * y > radiusSquared {
                exitsBySample[k] += 1
                break
            }
        }
    }
    return exitsBySample
}

/// The sampler's own CDF at whole touch samples 0…samples: the fraction of the uniform grid
/// u = (i + ½)/M whose cancel time is ≤ k/R.
private func samplerCDF(_ movement: Movement, samples: Int) -> [Double] {
    var counts = [Int](repeating: 0, count: samples + 1)
    for i in 0..<uniformGridSize {
        let t = movement.cancelTime(uniform: (Double(i) + 0.5) / Double(uniformGridSize))
        let k = (t * movement.touchRateHz).rounded()
        if k <= Double(samples) { counts[Int(k)] += 1 }
    }
    var running = 0
    return counts.map { count in
        running += count
        return Double(running) / Double(uniformGridSize)
    }
}

/// j₀,₁²/2, the continuous-limit decay rate of the disk's top mode (per unit of a²).
private let continuumRate = 2.404_825_557_695_773 * 2.404_825_557_695_773 / 2

@Suite("Movement: drift cancels")
struct MovementTests {
    @Test("the exit-time survival series matches an independent Laplace-transform inversion")
    func survivalSeries() throws {
        // Reference: E[e^(−sτ)] = 1/I₀(√(2s)) for standard 2-D Brownian motion started at the
        // centre of the unit disk, so P(τ ≤ t) is the inverse Laplace transform of 1/(s·I₀(√(2s))).
        // Inverted with mpmath 1.3.0 invertlaplace(method='talbot') at 40 digits: no Bessel zeros,
        // no series. The series sums ≤ 25 terms of size ≤ 1.61, so rounding is ~1e-15 absolute;
        // truncation is < 1e-19. 1e-14 absolute leaves a margin of ~10.
        let series = try DiskExitSeries()
        let reference: [(t: Double, survival: Double)] = [
            (0.02, 0.99999999997249158128),
            (0.05, 0.99991127965178320158),
            (0.1, 0.98709922021655737957),
            (0.2, 0.84835511332531026543),
            (0.5, 0.37683510270348506042),
            (1.0, 0.08888971608491544112),
            (2.0, 0.0049323047308905343054),
            (4.0, 0.000015186026349623034671),
        ]
        for point in reference {
            #expect(abs(series.survival(point.t) - point.survival) <= 1e-14, "t = \(point.t)")
        }
        // Before the short-time limit (5.6e-4) the survival is 1 to double precision, and at 0 exactly 1.
        #expect(series.survival(1e-4) == 1)
        #expect(series.survival(0) == 1)
    }

    @Test("the mean standard exit time is 1/2")
    func meanExitTime() throws {
        // Dynkin: E|B_τ|² = 2·E τ = 1 on the unit circle, so E τ = 1/2 exactly. The midpoint rule on
        // the quantile function with 10⁶ points errs by ~5e-6 (log singularity at u → 1) and the
        // table by ~1e-5 in τ, so 1e-4 is a margin of ~6.
        let quantiles = try DiskExitQuantiles.shared.get()
        let m = 1_000_000
        var sum = 0.0
        for i in 0..<m { sum += quantiles.quantile((Double(i) + 0.5) / Double(m)) }
        #expect(abs(sum / Double(m) - 0.5) <= 1e-4)
    }

    @Test("the quantile table inverts the series within its stated tolerance everywhere")
    func tableAccuracy() throws {
        let series = try DiskExitSeries()
        let quantiles = try DiskExitQuantiles.shared.get()
        let h = 1.0 / 16_384
        // Main table (u from 2⁻¹⁴ to 1 − 2⁻⁸): 8 points per cell, including the cell midpoints (the
        // worst case for linear interpolation). Guarantee ≤ 2⁻¹⁴ ≈ 6.1e-5; measured 4.2e-6 (in the
        // second cell; 2.4e-6 from the third on), so 5e-6.
        var worstMain = 0.0
        for j in 8..<(16_320 * 8) {
            let u = (Double(j) + 0.5) / 8 * h
            worstMain = max(worstMain, abs(series.distributionAndDensity(quantiles.quantile(u)).distribution - u))
        }
        #expect(worstMain <= 5e-6, "worst error in the main table: \(worstMain)")
        // Ladder (u < 2⁻¹⁴, one cell per halving): guaranteed |error| ≤ u; measured ≤ 5.4 % of u down
        // to 2⁻⁴⁰ (where 1 − S itself is only good to ~1e-5 relative), so 10 %.
        for e in 15...40 {
            for f in stride(from: 0.0, to: 1.0, by: 0.05) {
                let u = Double(sign: .plus, exponent: -e, significand: 1 + f)
                let error = abs(series.distributionAndDensity(quantiles.quantile(u)).distribution - u)
                #expect(error <= 0.1 * u, "u = \(u): error \(error)")
            }
        }
        // Closed-form tail above 1 − 2⁻⁸: the dropped terms are < 2e-14; 1e-12 allows the rounding
        // of 1 − S near 1.
        for u in [1 - 1.0 / 256, 0.997, 0.999, 0.9999, 1 - 1e-7] {
            let error = abs(series.distributionAndDensity(quantiles.quantile(u)).distribution - u)
            #expect(error <= 1e-12, "u = \(u): error \(error)")
        }
    }

    @Test("the model matches 2,000,000 independent exact walks within 4 SE", arguments: walkReferences)
    func againstReference(_ r: WalkReference) throws {
        let movement = try Movement(driftPointsPerSqrtSecond: r.drift, touchRateHz: r.rate, maximumDistancePoints: r.radius)
        let a = movement.radiusInSteps
        let p = movement.cancelProbability(bySample: r.sample)
        // The continuous approximation (a > 48) may add its measured bias 0.47/a² (≤ 7.8e-5 here).
        let bias = a <= Movement.exactLimit ? 0 : 0.47 / (a * a)
        #expect(abs(p - r.walk) <= 4 * r.standardError + bias, "\(r): model \(p), walk \(r.walk) ± \(r.standardError)")
        if a <= Movement.exactLimit {
            // The independent NumPy recursion agrees to 1e-9 (measured ≤ 1e-12).
            #expect(abs(p - r.recursion) <= 1e-9, "\(r): table \(p), NumPy recursion \(r.recursion)")
        } else {
            // Same formula as the Python record (200-term series): 1e-6 covers its 6 printed decimals.
            #expect(abs(p - r.siegmund) <= 1e-6, "\(r): model \(p), Siegmund \(r.siegmund)")
        }
    }

    @Test("the sampler's draws follow the table: counting a grid of uniforms gives P(K ≤ k)")
    func samplerFollowsTable() throws {
        for c in walkCases where c.radiusInSteps <= Movement.exactLimit {
            let movement = try Movement(driftPointsPerSqrtSecond: c.drift, touchRateHz: c.rate, maximumDistancePoints: c.radius)
            let horizon = Int((2 * c.rate).rounded())
            let counted = samplerCDF(movement, samples: horizon)
            for k in 1...horizon {
                // The grid u = (i + ½)/M below P(K ≤ k) is counted: within 1/M, plus the table's 1e-9.
                let p = movement.cancelProbability(bySample: k)
                #expect(abs(counted[k] - p) <= 1.0 / Double(uniformGridSize) + 1e-9, "\(c) k=\(k): \(counted[k]) vs \(p)")
            }
        }
    }

    @Test("the sampler matches in-process exact walks at 0.25, 0.5, 1 and 2 s", arguments: walkCases)
    func againstDiscreteWalk(_ c: WalkCase) throws {
        let movement = try Movement(driftPointsPerSqrtSecond: c.drift, touchRateHz: c.rate, maximumDistancePoints: c.radius)
        let n = 20_000
        let horizon = Int((2 * c.rate).rounded())
        let exits = simulateWalks(c, fingers: n, samples: horizon, stream: UInt64(c.drift * 1000 + c.radius))
        let model = samplerCDF(movement, samples: horizon)
        for t in [0.25, 0.5, 1.0, 2.0] {
            let k = Int((t * c.rate).rounded())
            let walk = Double(exits[0...k].reduce(0, +)) / Double(n)
            let p = model[k]
            // Binomial: the walk fraction has σ = √(p(1−p)/n) around the exact CDF; 4σ, plus the
            // model's bias bound, plus the sampler's own ≤ 1e-4.
            let tolerance = 4 * (p * (1 - p) / Double(n)).squareRoot() + c.modelBias + samplerError
            #expect(abs(walk - p) <= tolerance, "\(c) t=\(t): walk \(walk), sampler \(p), tolerance \(tolerance)")
        }
    }

    @Test("the first sample is the Rayleigh tail: P(K = 1) = e^(−a²/2)", arguments: [0.05, 0.456_435_464_587_638, 1.5, 3.872_983_346_207_417, 6.0])
    func firstSample(_ a: Double) throws {
        // |X₁|² is χ² with 2 degrees of freedom (an exponential of mean 2), so P(|X₁| > a) = e^(−a²/2).
        let table = try DiscreteWalkExitTable(radiusInSteps: a)
        let exit = exp(-0.5 * a * a)
        #expect(abs((1 - table.survival(afterSamples: 1)) - exit) <= 1e-15)
        // Uniforms just below that probability leave on the first sample, just above on a later one
        // (a step of 1e-9 relative, at least 1e-12: the sampler resolves probabilities to 1.1e-16).
        let step = max(1e-9 * exit, 1e-12)
        #expect(table.exitSample(exit - step) == 1)
        #expect(table.exitSample(exit + step) >= 2)
    }

    @Test("two samples: S₂ matches a 30-digit double integral", arguments: [
        (1.5, 0.358_509_780_451_219_607_21),
        (4.0, 0.981_562_372_552_329_183),
        (10.0, 0.999_999_999_986_112_056_13),
    ])
    func secondSample(_ a: Double, _ expected: Double) throws {
        // Reference: mpmath 1.3.0 at 30 digits, S₂ = ∫₀^a ρe^(−ρ²/2) ∫₀^a t·e^(−(t²+ρ²)/2)·I₀(ρt) dt dρ
        // (nested adaptive quadrature of the Rice density: no panels, no band, no scaled Bessel).
        // The Nyström rule's largest measured error is 3e-12 (at a = 4: one 4σ panel; here 1.7e-12
        // at a = 4 and < 1e-14 at 1.5 and 10), so 1e-11.
        let table = try DiscreteWalkExitTable(radiusInSteps: a)
        #expect(abs(table.survival(afterSamples: 2) - expected) <= 1e-11, "a = \(a): \(table.survival(afterSamples: 2))")
    }

    @Test("the geometric tail's rate tends to the disk's j₀,₁²/(2a²)", arguments: [10.0, 20.0, 40.0])
    func tailRate(_ a: Double) throws {
        // As a → ∞ the killed walk's top eigenvalue is λ = exp(−j₀,₁²/(2a²)·(1 + O(1/a))): the first
        // correction is Siegmund's shift a → a + β, after which the rest is O(1/a²) (measured relative
        // gaps 1.4e-4, 2e-5 and < 1e-5 at a = 10, 20, 40). Loose tolerances: 1e-3 with the shift, and
        // 2.5·β/a without it (the shift alone accounts for ≈ 2β/a).
        let table = try DiscreteWalkExitTable(radiusInSteps: a)
        let rate = -log(table.tailRatio)
        let shifted = rate * (a + Movement.siegmundOvershoot) * (a + Movement.siegmundOvershoot) / continuumRate
        #expect(abs(shifted - 1) <= 1e-3, "a = \(a): \(shifted)")
        #expect(abs(rate * a * a / continuumRate - 1) <= 2.5 * Movement.siegmundOvershoot / a, "a = \(a)")
        // And the tail really is geometric with that ratio past the table.
        let last = table.survival.count
        let far = table.survival(afterSamples: last + 1000)
        #expect(abs(far / table.survival(afterSamples: last) - pow(table.tailRatio, 1000)) <= 1e-12)
    }

    @Test("at the switch-over the continuous approximation is within its stated 0.47/a² of the exact table")
    func switchOver() throws {
        let a = Movement.exactLimit
        let table = try DiscreteWalkExitTable(radiusInSteps: a)
        let series = try DiskExitSeries()
        let shifted = (a + Movement.siegmundOvershoot) * (a + Movement.siegmundOvershoot)
        var worst = 0.0
        for k in stride(from: 1, through: Int(3 * a * a), by: 1) {
            let exact = 1 - table.survival(afterSamples: k)
            let continuous = series.distributionAndDensity(Double(k) / shifted).distribution
            worst = max(worst, abs(exact - continuous))
        }
        // Measured 2.02e-4 = 0.466/a²; the bound the documentation states is 0.47/a² = 2.04e-4.
        #expect(worst <= 0.47 / (a * a), "worst |exact − continuous| = \(worst)")
        #expect(worst >= 0.4 / (a * a), "the approximation's known bias, not noise: \(worst)")
        // Which branch is taken: a = 48 exactly is exact, just above is continuous.
        let sigma = 10 / a
        let at = try Movement(driftPointsPerSqrtSecond: sigma, touchRateHz: 1, maximumDistancePoints: 10)
        let above = try Movement(driftPointsPerSqrtSecond: sigma * 0.999, touchRateHz: 1, maximumDistancePoints: 10)
        if case .exact = at.sampler {} else { Issue.record("a = 48 should use the exact table") }
        if case .continuous = above.sampler {} else { Issue.record("a > 48 should use the continuous approximation") }
    }

    @Test("the law depends on a = r·√R/D only: equal a, equal cancel samples")
    func scaleInvariance() throws {
        // √240 = 2·√60 exactly in binary floating point, so both have the same a (3.873) bit for bit.
        let slow = try Movement(driftPointsPerSqrtSecond: 20, touchRateHz: 60, maximumDistancePoints: 10)
        let fast = try Movement(driftPointsPerSqrtSecond: 40, touchRateHz: 240, maximumDistancePoints: 10)
        #expect(slow.radiusInSteps == fast.radiusInSteps)
        for i in 1..<2_000 {
            let u = Double(i) / 2_000
            #expect((slow.cancelTime(uniform: u) * 60).rounded() == (fast.cancelTime(uniform: u) * 240).rounded())
        }
    }

    @Test("cancel times are non-decreasing in u and whole touch samples")
    func monotoneAndOnTheSampleGrid() throws {
        for c in walkCases {
            let movement = try Movement(driftPointsPerSqrtSecond: c.drift, touchRateHz: c.rate, maximumDistancePoints: c.radius)
            var previous = 0.0
            // A grid through every region: ladder, main table, closed-form tail.
            var grid: [Double] = (16...60).reversed().map { Double(sign: .plus, exponent: -$0, significand: 1) }
            grid += (1..<50_000).map { Double($0) / 50_000 }
            grid += [1 - 1e-6, 1 - 1e-9, 1 - 1e-12, 1.0.nextDown]
            for u in grid {
                let t = movement.cancelTime(uniform: u)
                #expect(t >= previous, "\(c): u = \(u)")
                let samples = t * c.rate
                // k/R·R recovers k to a few ulps.
                #expect(samples >= 1 && abs(samples - samples.rounded()) <= 1e-9 * samples, "\(c): u = \(u), t = \(t)")
                previous = t
            }
        }
    }

    @Test("edges: u ≤ 0 is the first sample, u ≥ 1 is never, NaN stays NaN")
    func edges() throws {
        let movement = try Movement(driftPointsPerSqrtSecond: 5, touchRateHz: 120, maximumDistancePoints: 10)
        #expect(movement.cancelTime(uniform: 0) == 1.0 / 120)
        #expect(movement.cancelTime(uniform: -0.5) == 1.0 / 120)
        #expect(movement.cancelTime(uniform: 1) == .infinity)
        #expect(movement.cancelTime(uniform: 2) == .infinity)
        #expect(movement.cancelTime(uniform: .nan).isNaN)
        // r + β·D/√R; the order of the floating-point operations is not part of the contract.
        #expect(abs(movement.effectiveRadiusPoints - (10 + 0.582_597_157_939_010_7 * 5 / 120.0.squareRoot())) <= 1e-13)
    }

    @Test("zero drift never cancels")
    func zeroDrift() throws {
        let movement = try Movement(driftPointsPerSqrtSecond: 0, touchRateHz: 120, maximumDistancePoints: 10)
        for u in [0, 1e-12, 0.5, 0.999_999] {
            #expect(movement.cancelTime(uniform: u) == .infinity)
        }
        #expect(movement.effectiveRadiusPoints == 10)
        // So tiny a drift that (r_eff/D)²·R overflows behaves the same.
        let still = try Movement(driftPointsPerSqrtSecond: 1e-200, touchRateHz: 120, maximumDistancePoints: 10)
        #expect(still.cancelTime(uniform: 0) == .infinity)
        #expect(still.cancelTime(uniform: 0.5) == .infinity)
    }

    @Test("a very large drift cancels on the first sample")
    func hugeDrift() throws {
        // D = 10⁶ pt/√s at 60 Hz: a = 10·√60/10⁶ = 7.7e-5, so P(K > 1) = 1 − e^(−a²/2) ≈ 3e-9 and
        // P(K > 2) ≈ 1e-17: every u on the grid below leaves on the first sample.
        let movement = try Movement(driftPointsPerSqrtSecond: 1e6, touchRateHz: 60, maximumDistancePoints: 10)
        for i in 1..<10_000 {
            let samples = (movement.cancelTime(uniform: Double(i) / 10_000) * 60).rounded()
            #expect(samples == 1, "u = \(Double(i) / 10_000)")
        }
        #expect(movement.cancelTime(uniform: 1 - 1e-12) == 2.0 / 60)
        #expect(movement.cancelTime(uniform: 0.5) == 1.0 / 60)
    }
}

@Suite("Movement: bad numbers")
struct MovementArgumentTests {
    @Test("negative, zero or non-finite numbers throw GSL_EINVAL instead of trapping")
    func badNumbers() {
        for (drift, rate, distance) in [(-1.0, 120.0, 10.0), (.nan, 120, 10), (2, 0, 10), (2, 120, 0), (2, 120, .infinity)] {
            #expect(throws: GSLError.invalidArgument("Movement.init")) {
                _ = try Movement(driftPointsPerSqrtSecond: drift, touchRateHz: rate, maximumDistancePoints: distance)
            }
        }
    }
}

@Suite("movement: the uniform from which a cancel comes too late")
struct MovementTooLateTests {
    /// `simulate` skips the cancel search for a uniform at or above `firstUniform`: every such uniform must cancel at
    /// or after the instant (else a cancel that mattered would be lost), and the bound must be tight (else the
    /// shortcut would skip nothing).
    @Test("at or above the bound the cancel is never earlier than the instant; just below it, it is",
          arguments: [(2.5, 120.0), (12, 120), (20, 60), (60, 120), (0, 120)])
    func bound(drift: Double, rate: Double) throws {
        let movement = try Movement(driftPointsPerSqrtSecond: drift, touchRateHz: rate, maximumDistancePoints: 10)
        for seconds in [0.02, 0.3, 1.0, 4.0] {
            let instant = Instant.nanoseconds(seconds)
            let bound = ControlUnderTest.firstUniform(of: movement, cancellingAtOrAfter: instant)
            func cancel(_ u: Double) -> Int64 { ControlUnderTest.cancelInstant(movement.cancelTime(uniform: u)) }
            var uniforms = (1..<20_000).map { Double($0) / 20_000 }
            uniforms += (0..<200).map { bound + Double($0) * 1e-12 }
            for u in uniforms where u >= bound && u < 1 {
                #expect(cancel(u) >= instant, "D=\(drift) R=\(rate) t=\(seconds) u=\(u) bound=\(bound)")
            }
            if bound > 0 && bound < 1 {
                #expect(cancel(max(0, bound - 1e-9)) < instant, "D=\(drift) R=\(rate) t=\(seconds) bound=\(bound)")
            }
        }
    }

    @Test("a radius that underflows to no steps cancels at the first touch sample, as the table's limit says")
    func radiusOfNoSteps() throws {
        // r/σ = 1e-300 / (1e300/√120) underflows to 0: every draw is the first sample, never an error.
        let movement = try Movement(driftPointsPerSqrtSecond: 1e300, touchRateHz: 120, maximumDistancePoints: 1e-300)
        #expect(movement.radiusInSteps == 0)
        for u in [1e-9, 0.25, 0.5, 0.999999] { #expect(movement.cancelTime(uniform: u) == 1.0 / 120) }
        #expect(movement.cancelTime(uniform: 1) == .infinity)
        #expect(movement.cancelProbability(bySample: 1) == 1)
        // The smallest radius the table takes agrees: P(K = 1) = e^(−a²/2) is 1 to double precision.
        let tiny = try Movement(driftPointsPerSqrtSecond: 1e3, touchRateHz: 120, maximumDistancePoints: 1e-12)
        #expect(tiny.radiusInSteps > 0)
        #expect(tiny.cancelTime(uniform: 0.999999) == 1.0 / 120)
    }
}
