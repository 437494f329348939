internal import CGSL

/// Bracketed one-dimensional root finding with GSL (`gsl_root_fsolver_brent`).
public enum RootFinding {
    /// A root of `f` in [`lower`, `upper`] by Brent–Dekker (bisection + secant + inverse quadratic).
    ///
    /// Stops when `gsl_root_test_interval` accepts the bracket: |upper − lower| <
    /// `absoluteTolerance` + `relativeTolerance` · min(|lower|, |upper|) (the min is 0 when the
    /// bracket straddles 0, so keep `absoluteTolerance` > 0 there), or when the bracket collapses.
    /// Every GSL status is checked, nothing aborts. Throws a ``GSLError`` with
    /// - `GSL_EINVAL` (4) from `gsl_root_fsolver_set` when f(lower) and f(upper) have the same strict
    ///   sign or `lower > upper`,
    /// - `GSL_EBADFUNC` (9) from `gsl_root_fsolver_iterate` when `f` returns NaN or ±inf,
    /// - `GSL_EBADTOL` (13) from `gsl_root_test_interval` for a negative tolerance,
    /// - `GSL_EMAXITER` (11) after `maxIterations` iterations without convergence.
    public static func brent(
        lower: Double,
        upper: Double,
        absoluteTolerance: Double = 1e-12,
        relativeTolerance: Double = 1e-12,
        maxIterations: Int = 200,
        _ f: (Double) -> Double
    ) throws(GSLError) -> Double {
        ensureGSLErrorHandlerOff()
        guard let solver = gsl_root_fsolver_alloc(holdlab_root_brent()) else {
            throw GSLError(status: Int32(GSL_ENOMEM), function: "gsl_root_fsolver_alloc")
        }
        defer { gsl_root_fsolver_free(solver) }
        return try withoutActuallyEscaping(f) { (escapable) throws(GSLError) -> Double in
            let box = FunctionBox(escapable)
            return try withExtendedLifetime(box) { () throws(GSLError) -> Double in
                var function = gsl_function(
                    function: { x, context in
                        guard let context else { return .nan }
                        return Unmanaged<FunctionBox>.fromOpaque(context).takeUnretainedValue().body(x)
                    },
                    params: Unmanaged.passUnretained(box).toOpaque()
                )
                // GSL keeps the gsl_function pointer between calls, so it must stay valid for the whole loop.
                return try withUnsafeMutablePointer(to: &function) { (pointer) throws(GSLError) -> Double in
                    try check(gsl_root_fsolver_set(solver, pointer, lower, upper), "gsl_root_fsolver_set")
                    for _ in 0..<maxIterations {
                        try check(gsl_root_fsolver_iterate(solver), "gsl_root_fsolver_iterate")
                        let low = gsl_root_fsolver_x_lower(solver)
                        let high = gsl_root_fsolver_x_upper(solver)
                        if low == high { return gsl_root_fsolver_root(solver) }
                        let status = gsl_root_test_interval(low, high, absoluteTolerance, relativeTolerance)
                        if status == GSL_CONTINUE { continue }
                        try check(status, "gsl_root_test_interval")
                        return gsl_root_fsolver_root(solver)
                    }
                    throw GSLError(status: Int32(GSL_EMAXITER), function: "gsl_root_fsolver_iterate")
                }
            }
        }
    }
}

/// Carries a Swift closure through GSL's `void *params`.
private final class FunctionBox {
    let body: (Double) -> Double
    init(_ body: @escaping (Double) -> Double) { self.body = body }
}
