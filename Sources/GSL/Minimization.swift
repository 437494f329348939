internal import CGSL

/// Derivative-free minimisation with GSL: the Nelder–Mead simplex (`gsl_multimin_fminimizer_nmsimplex2`) in n
/// dimensions and Brent's method (`gsl_min_fminimizer_brent`) in one.
///
/// Both take a plain Swift closure. Objectives may return NaN or ±∞ (a likelihood outside its domain, a simulation
/// that failed): GSL would stop with `GSL_EBADFUNC` or, inside a Nelder–Mead contraction, `GSL_EFAILED`, so the
/// wrappers never hand GSL a non-finite value:
/// - NaN and +∞ are replaced by ``nonFinitePenalty`` (`Double.greatestFiniteMagnitude`): the point counts as worse
///   than every finite point, and the search moves away from it. Both GSL minimisers only compare function values
///   (they never add or average them), so the penalty cannot overflow inside GSL.
/// - −∞ means the objective is unbounded below: the search stops at the first such point and returns it with
///   value −∞ and `converged == false`.
///
/// Pitfall: an objective whose finite values reach `Double.greatestFiniteMagnitude` is indistinguishable from a
/// penalised point.
public enum Minimization {
    /// The value GSL sees in place of NaN or +∞: `Double.greatestFiniteMagnitude`.
    public static let nonFinitePenalty = Double.greatestFiniteMagnitude

    /// Nelder–Mead stops as stalled after this many iterations per vertex (n + 1 vertices) without a lower best value
    /// or a smaller simplex: 20 is several full cycles of reflections and contractions, each of which shrinks a
    /// simplex around a minimum it can still resolve.
    public static let stallIterationsPerDimension = 20

    /// Brent stops as stalled after this many iterations in a row that leave the bracket unchanged (its steps are
    /// then below GSL's √ε·|x| floor; a live search changes the bracket on nearly every step).
    public static let brentStallIterations = 5

    /// The outcome of ``nelderMead(start:steps:sizeTolerance:maxIterations:_:)``.
    public struct Result: Sendable, Equatable {
        /// The best vertex of the final simplex (or the point where the objective returned −∞).
        public let point: [Double]
        /// The objective at ``point``: always finite unless the objective returned −∞ there.
        public let value: Double
        /// Simplex iterations (`gsl_multimin_fminimizer_iterate` calls) performed.
        public let iterations: Int
        /// True when `gsl_multimin_test_size` accepted the simplex size; false after `maxIterations`, at a stall or
        /// at a −∞.
        public let converged: Bool
        /// True when the search stopped because the simplex had stopped improving: for
        /// ``stallIterationsPerDimension`` · (n + 1) iterations in a row neither the best value decreased nor the size
        /// reached a new low. This is the objective's resolution limit (its vertices' values tie in floating point), so
        /// ``point`` is as good as the objective can tell; it happens when `sizeTolerance` is below
        /// √ε · √(|f| / f″) in the coordinates' units.
        public let stalled: Bool
        /// The final simplex size (`gsl_multimin_fminimizer_size`: the mean distance of the vertices from their
        /// centre), in the units of the coordinates.
        public let size: Double
    }

    /// The minimum of `f` near `start` by the Nelder–Mead simplex (GSL's `nmsimplex2`, O(n) per iteration).
    ///
    /// The initial simplex is `start` plus `start + steps[i]·eᵢ` for each coordinate i, so the steps should be a
    /// fair guess of how far the minimum may be (a tenth of each coordinate's plausible range works well). Stops when
    /// the simplex size drops below `sizeTolerance` (`gsl_multimin_test_size`), when it stalls (see
    /// ``Result/stalled``), or after `maxIterations` iterations (then `converged` is false and the best point so far
    /// is returned). Pitfall: near a minimum f changes by only f″·d²/2 over a distance d, so the simplex cannot
    /// resolve d below about √(2ε|f|/f″): for f = 10(x − 1)² + 30, about 1e-8. Ask for a larger `sizeTolerance` than
    /// that (the search then stops as stalled instead of converged). Nelder–Mead can settle on a non-minimum;
    /// restarting once from the returned point with fresh steps is the usual cure. See ``Minimization`` for how NaN
    /// and ±∞ values are handled.
    ///
    /// Throws a ``GSLError`` with
    /// - `GSL_EBADLEN` (19) when `start` is empty or `steps.count != start.count`,
    /// - `GSL_EINVAL` (4) when a step is not finite and > 0, a start coordinate is not finite, `sizeTolerance` is
    ///   not > 0 or `maxIterations` < 1,
    /// - `GSL_EBADFUNC` (9) from `gsl_multimin_fminimizer_set` when the objective is NaN or +∞ at every vertex of
    ///   the initial simplex (there is nowhere to start from),
    /// - any status `gsl_multimin_fminimizer_iterate` reports (`GSL_ENOMEM` for allocation failures).
    public static func nelderMead(
        start: [Double],
        steps: [Double],
        sizeTolerance: Double = 1e-8,
        maxIterations: Int = 10_000,
        _ f: ([Double]) -> Double
    ) throws(GSLError) -> Result {
        ensureGSLErrorHandlerOff()
        let setName = "gsl_multimin_fminimizer_set"
        guard !start.isEmpty, steps.count == start.count else {
            throw GSLError(status: Int32(GSL_EBADLEN), function: setName)
        }
        guard start.allSatisfy(\.isFinite), steps.allSatisfy({ $0.isFinite && $0 > 0 }),
              sizeTolerance > 0, maxIterations >= 1 else {
            throw GSLError(status: Int32(GSL_EINVAL), function: setName)
        }
        let n = start.count
        guard let minimizer = gsl_multimin_fminimizer_alloc(holdlab_multimin_nmsimplex2(), n) else {
            throw GSLError(status: Int32(GSL_ENOMEM), function: "gsl_multimin_fminimizer_alloc")
        }
        defer { gsl_multimin_fminimizer_free(minimizer) }
        guard let x0 = gsl_vector_alloc(n), let stepVector = gsl_vector_alloc(n) else {
            throw GSLError(status: Int32(GSL_ENOMEM), function: "gsl_vector_alloc")
        }
        defer {
            gsl_vector_free(x0)
            gsl_vector_free(stepVector)
        }
        for index in 0..<n {
            gsl_vector_set(x0, index, start[index])
            gsl_vector_set(stepVector, index, steps[index])
        }
        return try withoutActuallyEscaping(f) { (escapable) throws(GSLError) -> Result in
            let box = VectorFunctionBox(escapable, dimension: n)
            return try withExtendedLifetime(box) { () throws(GSLError) -> Result in
                var function = gsl_multimin_function(
                    f: { x, context in
                        guard let x, let context else { return Minimization.nonFinitePenalty }
                        return Unmanaged<VectorFunctionBox>.fromOpaque(context).takeUnretainedValue().evaluate(x)
                    },
                    n: n,
                    params: Unmanaged.passUnretained(box).toOpaque()
                )
                // GSL keeps the gsl_multimin_function pointer between calls, so it must stay valid for the whole loop.
                return try withUnsafeMutablePointer(to: &function) { (pointer) throws(GSLError) -> Result in
                    try check(gsl_multimin_fminimizer_set(minimizer, pointer, x0, stepVector), setName)
                    if let unbounded = box.unboundedPoint {
                        return Result(point: unbounded, value: -.infinity, iterations: 0, converged: false,
                                      stalled: false, size: gsl_multimin_fminimizer_size(minimizer))
                    }
                    // gsl_multimin_fminimizer_set does not fill in fval (the first iterate does), so the box
                    // remembers whether any vertex had a finite value.
                    guard box.sawFiniteValue else {
                        throw GSLError(status: Int32(GSL_EBADFUNC), function: setName)
                    }
                    var iterations = 0
                    var converged = false
                    var stalled = false
                    var bestValue = Double.infinity
                    var smallestSize = Double.infinity
                    var quietIterations = 0
                    let stallLimit = Minimization.stallIterationsPerDimension * (n + 1)
                    while iterations < maxIterations {
                        try check(gsl_multimin_fminimizer_iterate(minimizer), "gsl_multimin_fminimizer_iterate")
                        iterations += 1
                        let size = gsl_multimin_fminimizer_size(minimizer)
                        if let unbounded = box.unboundedPoint {
                            return Result(point: unbounded, value: -.infinity, iterations: iterations,
                                          converged: false, stalled: false, size: size)
                        }
                        let status = gsl_multimin_test_size(size, sizeTolerance)
                        if status != GSL_CONTINUE {
                            try check(status, "gsl_multimin_test_size")
                            converged = true
                            break
                        }
                        let value = gsl_multimin_fminimizer_minimum(minimizer)
                        if value < bestValue || size < smallestSize {
                            quietIterations = 0
                            bestValue = Swift.min(bestValue, value)
                            smallestSize = Swift.min(smallestSize, size)
                        } else {
                            quietIterations += 1
                            if quietIterations >= stallLimit {
                                stalled = true
                                break
                            }
                        }
                    }
                    var point = [Double](repeating: 0, count: n)
                    if let best = gsl_multimin_fminimizer_x(minimizer) {
                        for index in 0..<n { point[index] = gsl_vector_get(best, index) }
                    }
                    return Result(point: point, value: gsl_multimin_fminimizer_minimum(minimizer),
                                  iterations: iterations, converged: converged, stalled: stalled,
                                  size: gsl_multimin_fminimizer_size(minimizer))
                }
            }
        }
    }

    /// The outcome of a one-dimensional ``brent(lower:guess:upper:absoluteTolerance:relativeTolerance:maxIterations:_:)``.
    public struct ScalarResult: Sendable, Equatable {
        /// The best point found (`gsl_min_fminimizer_x_minimum`), or an end of the interval (see ``atBoundary``).
        public let x: Double
        /// The objective at ``x``: finite unless the objective returned −∞ there.
        public let value: Double
        /// The final bracket [lower, upper] around ``x`` (both equal ``x`` when no bracket was refined).
        public let lower: Double
        /// Upper end of the final bracket.
        public let upper: Double
        /// Brent iterations performed (0 when the scan already decided).
        public let iterations: Int
        /// True when `gsl_min_test_interval` accepted the bracket, or when the scan found the minimum at an end or on
        /// a plateau; false after `maxIterations`, at a stall or at a −∞.
        public let converged: Bool
        /// True when the bracket stopped shrinking for ``brentStallIterations`` iterations in a row before meeting
        /// the tolerance: GSL's Brent never steps closer than √ε·|x| to a point it has evaluated, so brackets narrower
        /// than about 3e-8·|x| cannot be reached. ``x`` is then as good as the objective can tell.
        public let stalled: Bool
        /// True when the smallest scanned value was at `lower` or `upper` of
        /// ``brent(lower:upper:scanPoints:absoluteTolerance:relativeTolerance:maxIterations:_:)``: the minimum over
        /// the closed interval is (as far as the scan can tell) that end, and no Brent iteration ran.
        public let atBoundary: Bool
    }

    /// A local minimum of `f` inside the bracketing triple `lower < guess < upper` by Brent's method
    /// (golden section + parabolic interpolation, `gsl_min_fminimizer_brent`).
    ///
    /// Requires f(guess) < f(lower) and f(guess) < f(upper). Stops when `gsl_min_test_interval` accepts the bracket:
    /// |upper − lower| < `absoluteTolerance` + `relativeTolerance` · min(|lower|, |upper|). Pitfall: GSL's Brent
    /// never places points closer than √ε·|x| ≈ 1.5e-8·|x| to each other, so a bracket narrower than about
    /// 3e-8·|x| is out of reach (the search then ends as ``ScalarResult/stalled``); the default relative tolerance
    /// 1e-7 stays above that floor. NaN and +∞ values are penalised as described in
    /// ``Minimization``.
    ///
    /// Throws a ``GSLError`` with
    /// - `GSL_EINVAL` (4) from `gsl_min_fminimizer_set_with_values` when the triple is not ordered, not finite, or
    ///   does not bracket a minimum (also for negative tolerances or `maxIterations` < 1),
    /// - `GSL_EBADTOL` (13) from `gsl_min_test_interval` for a negative tolerance it sees,
    /// - any status `gsl_min_fminimizer_iterate` reports.
    public static func brent(
        lower: Double,
        guess: Double,
        upper: Double,
        absoluteTolerance: Double = 1e-10,
        relativeTolerance: Double = 1e-7,
        maxIterations: Int = 200,
        _ f: (Double) -> Double
    ) throws(GSLError) -> ScalarResult {
        ensureGSLErrorHandlerOff()
        return try withoutActuallyEscaping(f) { (escapable) throws(GSLError) -> ScalarResult in
            let box = ScalarFunctionBox(escapable)
            let values = (lower: box.evaluate(lower), guess: box.evaluate(guess), upper: box.evaluate(upper))
            if let unbounded = box.unboundedPoint {
                return ScalarResult(x: unbounded, value: -.infinity, lower: unbounded, upper: unbounded,
                                    iterations: 0, converged: false, stalled: false, atBoundary: false)
            }
            return try refine(box, lower: (lower, values.lower), guess: (guess, values.guess),
                              upper: (upper, values.upper), absoluteTolerance: absoluteTolerance,
                              relativeTolerance: relativeTolerance, maxIterations: maxIterations)
        }
    }

    /// The minimum of `f` over [`lower`, `upper`]: a scan finds a bracketing triple, then Brent refines it.
    ///
    /// The scan evaluates f at `scanPoints` + 1 equally spaced points from `lower` to `upper` (both included) and
    /// takes the first smallest value:
    /// - at an end of the interval: that end is returned with `atBoundary == true`, `converged == true` and no
    ///   Brent iteration (the minimum over the closed interval is the end, as far as the grid can tell);
    /// - inside, strictly below both neighbours: its neighbours bracket a minimum and
    ///   ``brent(lower:guess:upper:absoluteTolerance:relativeTolerance:maxIterations:_:)`` refines it;
    /// - inside but equal to its right neighbour (a plateau): that grid point is returned, `converged == true`.
    ///
    /// A scan cannot see a minimum narrower than the grid spacing; with several local minima it finds the one in
    /// the lowest grid cell, not necessarily the global one. Cost: `scanPoints` + 1 evaluations plus Brent's.
    /// Throws a ``GSLError`` with `GSL_EINVAL` (4) when the ends are not finite, `lower >= upper` or
    /// `scanPoints` < 2, and `GSL_EBADFUNC` (9) when f is NaN or +∞ at every scanned point; otherwise as the
    /// bracketed form.
    public static func brent(
        lower: Double,
        upper: Double,
        scanPoints: Int = 20,
        absoluteTolerance: Double = 1e-10,
        relativeTolerance: Double = 1e-7,
        maxIterations: Int = 200,
        _ f: (Double) -> Double
    ) throws(GSLError) -> ScalarResult {
        ensureGSLErrorHandlerOff()
        guard lower.isFinite, upper.isFinite, lower < upper, scanPoints >= 2 else {
            throw GSLError(status: Int32(GSL_EINVAL), function: "gsl_min_fminimizer_set_with_values")
        }
        return try withoutActuallyEscaping(f) { (escapable) throws(GSLError) -> ScalarResult in
            let box = ScalarFunctionBox(escapable)
            let width = upper - lower
            // x(i) = lower + width·i/scanPoints, with the last point exactly `upper`.
            let grid = (0...scanPoints).map { $0 == scanPoints ? upper : lower + width * Double($0) / Double(scanPoints) }
            var values: [Double] = []
            values.reserveCapacity(grid.count)
            for x in grid {
                values.append(box.evaluate(x))
                if let unbounded = box.unboundedPoint {
                    return ScalarResult(x: unbounded, value: -.infinity, lower: unbounded, upper: unbounded,
                                        iterations: 0, converged: false, stalled: false, atBoundary: false)
                }
            }
            var best = 0
            for index in values.indices where values[index] < values[best] { best = index }
            guard values[best] < nonFinitePenalty else {
                throw GSLError(status: Int32(GSL_EBADFUNC), function: "gsl_min_fminimizer_set_with_values")
            }
            if best == 0 || best == scanPoints {
                return ScalarResult(x: grid[best], value: values[best], lower: grid[best], upper: grid[best],
                                    iterations: 0, converged: true, stalled: false, atBoundary: true)
            }
            if !(values[best] < values[best + 1]) {
                return ScalarResult(x: grid[best], value: values[best], lower: grid[best], upper: grid[best],
                                    iterations: 0, converged: true, stalled: false, atBoundary: false)
            }
            return try refine(box, lower: (grid[best - 1], values[best - 1]), guess: (grid[best], values[best]),
                              upper: (grid[best + 1], values[best + 1]), absoluteTolerance: absoluteTolerance,
                              relativeTolerance: relativeTolerance, maxIterations: maxIterations)
        }
    }

    /// Brent iterations from a triple whose values are already known (and already penalised).
    private static func refine(
        _ box: ScalarFunctionBox,
        lower: (x: Double, f: Double), guess: (x: Double, f: Double), upper: (x: Double, f: Double),
        absoluteTolerance: Double, relativeTolerance: Double, maxIterations: Int
    ) throws(GSLError) -> ScalarResult {
        let setName = "gsl_min_fminimizer_set_with_values"
        guard lower.x.isFinite, guess.x.isFinite, upper.x.isFinite,
              maxIterations >= 1, absoluteTolerance >= 0, relativeTolerance >= 0 else {
            throw GSLError(status: Int32(GSL_EINVAL), function: setName)
        }
        guard let minimizer = gsl_min_fminimizer_alloc(holdlab_min_brent()) else {
            throw GSLError(status: Int32(GSL_ENOMEM), function: "gsl_min_fminimizer_alloc")
        }
        defer { gsl_min_fminimizer_free(minimizer) }
        return try withExtendedLifetime(box) { () throws(GSLError) -> ScalarResult in
            var function = gsl_function(
                function: { x, context in
                    guard let context else { return Minimization.nonFinitePenalty }
                    return Unmanaged<ScalarFunctionBox>.fromOpaque(context).takeUnretainedValue().evaluate(x)
                },
                params: Unmanaged.passUnretained(box).toOpaque()
            )
            return try withUnsafeMutablePointer(to: &function) { (pointer) throws(GSLError) -> ScalarResult in
                // GSL checks lower < guess < upper and f(guess) < f(lower), f(guess) < f(upper): GSL_EINVAL otherwise.
                try check(gsl_min_fminimizer_set_with_values(minimizer, pointer, guess.x, guess.f, lower.x, lower.f,
                                                             upper.x, upper.f), setName)
                var iterations = 0
                var converged = false
                var stalled = false
                var bracket = (lower.x, upper.x)
                var unchanged = 0
                while iterations < maxIterations {
                    try check(gsl_min_fminimizer_iterate(minimizer), "gsl_min_fminimizer_iterate")
                    iterations += 1
                    if let unbounded = box.unboundedPoint {
                        return ScalarResult(x: unbounded, value: -.infinity, lower: unbounded, upper: unbounded,
                                            iterations: iterations, converged: false, stalled: false, atBoundary: false)
                    }
                    let low = gsl_min_fminimizer_x_lower(minimizer)
                    let high = gsl_min_fminimizer_x_upper(minimizer)
                    let status = gsl_min_test_interval(low, high, absoluteTolerance, relativeTolerance)
                    if status != GSL_CONTINUE {
                        try check(status, "gsl_min_test_interval")
                        converged = true
                        break
                    }
                    if (low, high) == bracket {
                        unchanged += 1
                        if unchanged >= Minimization.brentStallIterations {
                            stalled = true
                            break
                        }
                    } else {
                        unchanged = 0
                        bracket = (low, high)
                    }
                }
                return ScalarResult(
                    x: gsl_min_fminimizer_x_minimum(minimizer), value: gsl_min_fminimizer_f_minimum(minimizer),
                    lower: gsl_min_fminimizer_x_lower(minimizer), upper: gsl_min_fminimizer_x_upper(minimizer),
                    iterations: iterations, converged: converged, stalled: stalled, atBoundary: false)
            }
        }
    }
}

/// Carries a vector objective through GSL's `void *params`, reusing one argument array for every call and applying
/// the non-finite policy of ``Minimization``.
private final class VectorFunctionBox {
    let body: ([Double]) -> Double
    var argument: [Double]
    /// The first point where the objective returned −∞.
    var unboundedPoint: [Double]?
    /// Whether any evaluation so far returned a finite value.
    var sawFiniteValue = false

    init(_ body: @escaping ([Double]) -> Double, dimension: Int) {
        self.body = body
        argument = [Double](repeating: 0, count: dimension)
    }

    func evaluate(_ x: UnsafePointer<gsl_vector>) -> Double {
        let vector = x.pointee
        guard let data = vector.data else { return Minimization.nonFinitePenalty }
        for index in argument.indices { argument[index] = data[index * vector.stride] }
        let value = body(argument)
        if value.isFinite {
            sawFiniteValue = true
            return value
        }
        if value == -.infinity {
            if unboundedPoint == nil { unboundedPoint = argument }
            return -Double.greatestFiniteMagnitude
        }
        return Minimization.nonFinitePenalty
    }
}

/// Carries a scalar objective through GSL's `void *params`, applying the non-finite policy of ``Minimization``.
private final class ScalarFunctionBox {
    let body: (Double) -> Double
    /// The first point where the objective returned −∞.
    var unboundedPoint: Double?

    init(_ body: @escaping (Double) -> Double) { self.body = body }

    func evaluate(_ x: Double) -> Double {
        let value = body(x)
        if value.isFinite { return value }
        if value == -.infinity {
            if unboundedPoint == nil { unboundedPoint = x }
            return -Double.greatestFiniteMagnitude
        }
        return Minimization.nonFinitePenalty
    }
}
