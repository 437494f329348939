internal import CGSL

/// Least-squares curve fitting with GSL: `gsl_fit_linear` for straight lines and `gsl_multifit_nlinear`
/// (trust region, Levenberg–Marquardt steps) for nonlinear models.
public enum LeastSquares {
    /// A fitted model: parameters, their covariance, and the residual sum of squares.
    public struct Fit: Sendable, Equatable {
        public let parameters: [Double]
        /// Row-major p × p covariance of the parameters, scaled by the residual variance rss / (n − p).
        public let covariance: [Double]
        public let residualSumOfSquares: Double
        /// n − p.
        public let degreesOfFreedom: Int
        /// Solver iterations (0 for the closed-form line).
        public let iterations: Int

        /// Standard errors: the square roots of the covariance's diagonal.
        public var standardErrors: [Double] {
            let p = parameters.count
            return (0..<p).map { covariance[$0 * p + $0].squareRoot() }
        }
    }

    /// y = c0 + c1·x by ordinary least squares (`gsl_fit_linear`); the covariance is estimated from the scatter
    /// of the points about the line.
    ///
    /// - Throws: `GSLError` (`GSL_EINVAL`) with fewer than 3 points or mismatched lengths; GSL's own status
    ///   otherwise (e.g. all x equal).
    public static func line(x: [Double], y: [Double]) throws(GSLError) -> Fit {
        ensureGSLErrorHandlerOff()
        guard x.count == y.count, x.count >= 3 else { throw GSLError(status: Int32(GSL_EINVAL), function: "gsl_fit_linear") }
        var c0 = 0.0, c1 = 0.0, cov00 = 0.0, cov01 = 0.0, cov11 = 0.0, sumsq = 0.0
        let status = x.withUnsafeBufferPointer { xs in
            y.withUnsafeBufferPointer { ys in
                gsl_fit_linear(xs.baseAddress, 1, ys.baseAddress, 1, xs.count, &c0, &c1, &cov00, &cov01, &cov11, &sumsq)
            }
        }
        try check(status, "gsl_fit_linear")
        guard [c0, c1, cov00, cov11].allSatisfy(\.isFinite) else {
            throw GSLError(status: Int32(GSL_EDOM), function: "gsl_fit_linear")
        }
        return Fit(parameters: [c0, c1], covariance: [cov00, cov01, cov01, cov11], residualSumOfSquares: sumsq,
                   degreesOfFreedom: x.count - 2, iterations: 0)
    }

    /// Minimises Σ (model(θ, xᵢ) − yᵢ)² over θ from `start` with GSL's trust-region solver (finite-difference
    /// Jacobian), stopping when `gsl_multifit_nlinear_test` accepts (xtol 1e-10, gtol 1e-10, ftol 0) or after
    /// `maxIterations`. The covariance is (JᵀJ)⁻¹ at the solution (`gsl_multifit_nlinear_covar`) times
    /// rss / (n − p).
    ///
    /// - Throws: `GSLError` for fewer points than parameters + 1, a model that returns NaN or ±inf where the
    ///   solver looks (`GSL_EBADFUNC`), or no convergence (`GSL_EMAXITER`).
    public static func nonlinear(
        x: [Double], y: [Double], start: [Double], maxIterations: Int = 500,
        model: (_ parameters: [Double], _ x: Double) -> Double
    ) throws(GSLError) -> Fit {
        ensureGSLErrorHandlerOff()
        let n = x.count
        let p = start.count
        guard y.count == n, p >= 1, n > p else {
            throw GSLError(status: Int32(GSL_EINVAL), function: "gsl_multifit_nlinear_init")
        }
        return try withoutActuallyEscaping(model) { (escapable) throws(GSLError) -> Fit in
            let box = ModelBox(x: x, y: y, model: escapable)
            return try withExtendedLifetime(box) { () throws(GSLError) -> Fit in
                var parameters = gsl_multifit_nlinear_default_parameters()
                guard let workspace = gsl_multifit_nlinear_alloc(holdlab_multifit_trust(), &parameters, n, p) else {
                    throw GSLError(status: Int32(GSL_ENOMEM), function: "gsl_multifit_nlinear_alloc")
                }
                defer { gsl_multifit_nlinear_free(workspace) }
                guard let initial = gsl_vector_alloc(p), let covariance = gsl_matrix_alloc(p, p) else {
                    throw GSLError(status: Int32(GSL_ENOMEM), function: "gsl_vector_alloc")
                }
                defer {
                    gsl_vector_free(initial)
                    gsl_matrix_free(covariance)
                }
                for (index, value) in start.enumerated() { gsl_vector_set(initial, index, value) }
                var fdf = gsl_multifit_nlinear_fdf()
                fdf.f = { theta, context, residuals in
                    guard let theta, let context, let residuals else { return Int32(GSL_EINVAL) }
                    let box = Unmanaged<ModelBox>.fromOpaque(context).takeUnretainedValue()
                    let values = (0..<Int(theta.pointee.size)).map { gsl_vector_get(theta, $0) }
                    for index in box.x.indices {
                        let residual = box.model(values, box.x[index]) - box.y[index]
                        guard residual.isFinite else { return Int32(GSL_EBADFUNC) }
                        gsl_vector_set(residuals, index, residual)
                    }
                    return Int32(GSL_SUCCESS)
                }
                fdf.df = nil
                fdf.fvv = nil
                fdf.n = n
                fdf.p = p
                fdf.params = Unmanaged.passUnretained(box).toOpaque()
                try check(gsl_multifit_nlinear_init(initial, &fdf, workspace), "gsl_multifit_nlinear_init")
                var info: Int32 = 0
                var converged = false
                var iterations = 0
                while iterations < maxIterations {
                    iterations += 1
                    let status = gsl_multifit_nlinear_iterate(workspace)
                    // GSL_ENOPROG: no step reduces the cost any more — at a minimum to machine precision.
                    if status == GSL_ENOPROG { converged = true; break }
                    try check(status, "gsl_multifit_nlinear_iterate")
                    let test = gsl_multifit_nlinear_test(1e-10, 1e-10, 0, &info, workspace)
                    if test == GSL_SUCCESS { converged = true; break }
                    if test != GSL_CONTINUE { try check(test, "gsl_multifit_nlinear_test") }
                }
                guard converged else { throw GSLError(status: Int32(GSL_EMAXITER), function: "gsl_multifit_nlinear_iterate") }
                guard let solution = gsl_multifit_nlinear_position(workspace),
                      let residuals = gsl_multifit_nlinear_residual(workspace),
                      let jacobian = gsl_multifit_nlinear_jac(workspace) else {
                    throw GSLError(status: Int32(GSL_EFAULT), function: "gsl_multifit_nlinear_position")
                }
                try check(gsl_multifit_nlinear_covar(jacobian, 0, covariance), "gsl_multifit_nlinear_covar")
                var norm = 0.0
                for index in 0..<n { norm += gsl_vector_get(residuals, index) * gsl_vector_get(residuals, index) }
                let scale = norm / Double(n - p)
                let fitted = (0..<p).map { gsl_vector_get(solution, $0) }
                var matrix: [Double] = []
                for row in 0..<p { for column in 0..<p { matrix.append(gsl_matrix_get(covariance, row, column) * scale) } }
                return Fit(parameters: fitted, covariance: matrix, residualSumOfSquares: norm, degreesOfFreedom: n - p,
                           iterations: iterations)
            }
        }
    }
}

/// Carries the data and the model through GSL's `void *params`.
private final class ModelBox {
    let x: [Double]
    let y: [Double]
    let model: ([Double], Double) -> Double
    init(x: [Double], y: [Double], model: @escaping ([Double], Double) -> Double) {
        self.x = x
        self.y = y
        self.model = model
    }
}

/// Student's t distribution, for confidence intervals from few points.
public enum StudentT {
    /// The quantile t with P(T ≤ t) = p for `degreesOfFreedom` ν > 0 (`gsl_cdf_tdist_Pinv`); NaN outside (0, 1).
    public static func quantile(_ p: Double, degreesOfFreedom: Double) -> Double {
        ensureGSLErrorHandlerOff()
        guard p > 0, p < 1, degreesOfFreedom > 0 else { return .nan }
        return gsl_cdf_tdist_Pinv(p, degreesOfFreedom)
    }
}
