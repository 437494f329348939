import GSL

/// An estimate with its bootstrap 95 % interval: estimate ∓ z·sd of the bootstrap replicates (z = 1.959964, sd
/// with n − 1), the interval SALib reports as `S1_conf`, `ST_conf`, `S2_conf` and `mu_star_conf`.
public struct IntervalEstimate: Sendable, Equatable {
    public var value: Double
    /// z·sd of the bootstrap replicates (NaN without a bootstrap).
    public var halfWidth: Double
    public var lower: Double { value - halfWidth }
    public var upper: Double { value + halfWidth }

    public static let undefined = IntervalEstimate(value: .nan, halfWidth: .nan)
}

/// The bootstrap both methods use: B resamples of the N base rows (Sobol') or r trajectories (Morris), with
/// replacement, drawn from GSL stream `stream` of the seed; every parameter and pair shares the same resamples,
/// as in SALib, and every metric gets the same ones, so a metric's intervals do not depend on the others asked.
public struct SensitivityBootstrap: Sendable, Equatable {
    public var resamples: Int
    public var seed: UInt64

    /// z for a two-sided 95 % normal interval: Φ⁻¹(0.975).
    public static let z95 = 1.959963984540054
    /// The stream of the master seed that draws the resamples (far from the simulation's chunk streams).
    static let stream: UInt64 = 0xB007_5742_0000_0000

    public init(resamples: Int, seed: UInt64) {
        self.resamples = resamples
        self.seed = seed
    }

    /// B rows of n indices into 0..<n.
    func indices(count: Int) -> [[Int]] {
        let generator = Generator(seed: seed, stream: Self.stream, kind: .mt19937)
        return (0..<resamples).map { _ in (0..<count).map { _ in generator.uniformInt(below: count) } }
    }

    /// z times the sample standard deviation (n − 1) of the replicates; NaN for fewer than two.
    static func halfWidth(_ replicates: [Double]) -> Double {
        guard replicates.count > 1 else { return .nan }
        let mean = replicates.reduce(0, +) / Double(replicates.count)
        let squares = replicates.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        return z95 * (squares / Double(replicates.count - 1)).squareRoot()
    }
}

/// Sobol' indices of one output from a Saltelli design, with the estimators of `SALib.analyze.sobol` (SALib 1.4–1.6)
/// so that the same samples give the same indices:
///
/// - the outputs are first standardised by the mean and standard deviation of all N·(d + 2) values (the shift
///   matters for S1 and S2 below, which are not invariant to it);
/// - V = the variance (1/n) of the 2N values of A and B;
/// - first order (Saltelli et al. 2010, table 2 (b)): S1_j = mean(f(B)·(f(AB_j) − f(A))) / V;
/// - total (Jansen 1999; Saltelli et al. 2010, table 2 (f)): ST_j = ½·mean((f(A) − f(AB_j))²) / V;
/// - second order (Saltelli 2002): S2_jk = mean(f(BA_j)·f(AB_k) − f(A)·f(B)) / V − S1_j − S1_k.
///
/// Intervals: the same estimators on B bootstrap resamples of the base rows (`SensitivityBootstrap`).
public struct SobolIndices: Sendable, Equatable {
    public var first: [IntervalEstimate]
    public var total: [IntervalEstimate]
    /// S2 for pairs j < k, in the order (0,1), (0,2), …, (1,2), …; empty without second order.
    public var second: [IntervalEstimate]

    /// Why indices are undefined for an output, or nil when they are defined.
    public enum Undefined: Sendable, Equatable {
        /// Some outputs are NaN or infinite (the first such row, 0-based).
        case notFinite(row: Int)
        /// The outputs of A and B do not vary: V = 0 and every index is 0/0.
        case constant
    }

    /// - Parameter outputs: one value per design row, in the design's order.
    /// - Returns: the indices, or why they are undefined.
    public static func analyze(
        outputs: [Double], design: SaltelliDesign, bootstrap: SensitivityBootstrap
    ) -> Result<SobolIndices, UndefinedIndices> {
        precondition(outputs.count == design.rowCount, "one output per design row")
        if let bad = outputs.firstIndex(where: { !$0.isFinite }) { return .failure(UndefinedIndices(.notFinite(row: bad))) }
        let n = Double(outputs.count)
        let mean = outputs.reduce(0, +) / n
        let sd = (outputs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / n).squareRoot()
        guard sd > 0 else { return .failure(UndefinedIndices(.constant)) }
        let y = outputs.map { ($0 - mean) / sd }
        let d = design.dimensions
        let step = design.rowsPerBase
        let rows = design.baseRows
        let a = (0..<rows).map { y[$0 * step] }
        let b = (0..<rows).map { y[$0 * step + step - 1] }
        let ab = (0..<d).map { j in (0..<rows).map { y[$0 * step + 1 + j] } }
        let ba = design.secondOrder ? (0..<d).map { j in (0..<rows).map { y[$0 * step + 1 + d + j] } } : []
        let all = Array(0..<rows)
        let pairs = design.secondOrder ? (0..<d).flatMap { j in ((j + 1)..<d).map { (j, $0) } } : []
        guard variance(a, b, all) > 0 else { return .failure(UndefinedIndices(.constant)) }
        let estimates = statistics(a: a, b: b, ab: ab, ba: ba, pairs: pairs, rows: all)
        let replicates = bootstrap.indices(count: rows).map {
            statistics(a: a, b: b, ab: ab, ba: ba, pairs: pairs, rows: $0)
        }
        func interval(_ index: Int) -> IntervalEstimate {
            IntervalEstimate(value: estimates[index], halfWidth: SensitivityBootstrap.halfWidth(replicates.map { $0[index] }))
        }
        return .success(SobolIndices(first: (0..<d).map(interval), total: (d..<(2 * d)).map(interval),
                                     second: (0..<pairs.count).map { interval(2 * d + $0) }))
    }

    /// S1 for every parameter, then ST for every parameter, then S2 for every pair, over the given base rows (with
    /// repeats, for a bootstrap resample): one variance per call, one pass per index.
    static func statistics(
        a: [Double], b: [Double], ab: [[Double]], ba: [[Double]], pairs: [(Int, Int)], rows: [Int]
    ) -> [Double] {
        let v = variance(a, b, rows)
        let n = Double(rows.count)
        var first: [Double] = []
        var total: [Double] = []
        for abj in ab {
            var s1 = 0.0
            var st = 0.0
            for row in rows {
                s1 += b[row] * (abj[row] - a[row])
                st += (a[row] - abj[row]) * (a[row] - abj[row])
            }
            first.append(ratio(s1 / n, v))
            total.append(ratio(0.5 * st / n, v))
        }
        var second: [Double] = []
        for (j, k) in pairs {
            var vjk = 0.0
            for row in rows { vjk += ba[j][row] * ab[k][row] - a[row] * b[row] }
            second.append(ratio(vjk / n, v) - first[j] - first[k])
        }
        return first + total + second
    }

    /// The variance (1/n) of the A and B outputs of the given base rows (with repeats).
    static func variance(_ a: [Double], _ b: [Double], _ rows: [Int]) -> Double {
        let n = Double(2 * rows.count)
        var sum = 0.0
        for row in rows { sum += a[row] + b[row] }
        let mean = sum / n
        var squares = 0.0
        for row in rows { squares += (a[row] - mean) * (a[row] - mean) + (b[row] - mean) * (b[row] - mean) }
        return squares / n
    }

    /// SALib's division: 0 when the (resampled) variance is not above machine epsilon.
    static func ratio(_ numerator: Double, _ variance: Double) -> Double {
        variance > Double.ulpOfOne ? numerator / variance : 0
    }
}

/// Why a metric's indices could not be computed (`SobolIndices.Undefined`, or a Morris counterpart).
public struct UndefinedIndices: Error, Sendable, Equatable {
    public var reason: SobolIndices.Undefined
    public init(_ reason: SobolIndices.Undefined) { self.reason = reason }
}

/// Morris's elementary-effect statistics of one output, with the estimators of `SALib.analyze.morris` (unscaled):
/// the elementary effect of parameter i on a trajectory is D_i·(f(x_k) − f(x_{k−1})) / Δ, the change of the output
/// per full range of the parameter; over the r trajectories
///
/// - mu = mean of the effects, mu* = mean of their absolute values (Campolongo et al. 2007),
/// - sigma = their standard deviation (r − 1; NaN for r = 1),
/// - mu*'s interval from B bootstrap resamples of the r effects (`SensitivityBootstrap`).
///
/// A linear output Σ c_i·x_i over unit ranges has every effect equal to c_i: mu = c_i, mu* = |c_i|, sigma = 0.
public struct MorrisIndices: Sendable, Equatable {
    public var mu: [Double]
    public var muStar: [IntervalEstimate]
    public var sigma: [Double]

    /// - Parameter outputs: one value per design row: trajectory after trajectory, d + 1 points each.
    public static func analyze(
        outputs: [Double], design: MorrisDesign, trajectories: [MorrisDesign.Trajectory], bootstrap: SensitivityBootstrap
    ) -> Result<MorrisIndices, UndefinedIndices> {
        precondition(outputs.count == design.rowCount && trajectories.count == design.trajectories, "one output per design row")
        if let bad = outputs.firstIndex(where: { !$0.isFinite }) { return .failure(UndefinedIndices(.notFinite(row: bad))) }
        let d = design.dimensions
        let r = design.trajectories
        var effects = Array(repeating: Array(repeating: 0.0, count: r), count: d)
        for (t, trajectory) in trajectories.enumerated() {
            let base = t * (d + 1)
            for (k, parameter) in trajectory.moved.enumerated() {
                effects[parameter][t] = trajectory.direction[parameter] * (outputs[base + k + 1] - outputs[base + k]) / design.delta
            }
        }
        let resamples = bootstrap.indices(count: r)
        var mu: [Double] = []
        var muStar: [IntervalEstimate] = []
        var sigma: [Double] = []
        for ee in effects {
            let mean = ee.reduce(0, +) / Double(r)
            mu.append(mean)
            sigma.append(r > 1 ? (ee.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(r - 1)).squareRoot() : .nan)
            let absolute = ee.map(abs)
            let replicates = resamples.map { rows in rows.reduce(0.0) { $0 + absolute[$1] } / Double(r) }
            muStar.append(IntervalEstimate(value: absolute.reduce(0, +) / Double(r),
                                           halfWidth: SensitivityBootstrap.halfWidth(replicates)))
        }
        return .success(MorrisIndices(mu: mu, muStar: muStar, sigma: sigma))
    }
}
