internal import CGSL

/// Least-squares curve fitting with GSL: `gsl_fit_linear` / `gsl_fit_wlinear` for straight lines and
/// `gsl_multifit_nlinear` (trust region, Levenberg–Marquardt steps) for nonlinear models, with the diagnostics that
/// say whether a fit can be trusted (``Diagnostics``).
public enum LeastSquares {
    /// A fitted model: parameters, their covariance, and the residual sum of squares.
    public struct Fit: Sendable, Equatable {
        public let parameters: [Double]
        /// Row-major p × p covariance of the parameters, scaled by the residual variance rss / (n − p) (SciPy
        /// `curve_fit`'s `absolute_sigma=False`). Rows and columns of parameters that are not identified are NaN.
        public let covariance: [Double]
        /// Σ rᵢ², with rᵢ = (model − yᵢ)/σᵢ when per-point σ are given.
        public let residualSumOfSquares: Double
        /// n − p.
        public let degreesOfFreedom: Int
        /// Solver iterations (0 for the closed-form line).
        public let iterations: Int
        /// How the solver ended and how well the data determine the parameters (nil for the closed-form line).
        public let diagnostics: Diagnostics?

        /// Standard errors: the square roots of the covariance's diagonal (NaN for a parameter not identified).
        public var standardErrors: [Double] {
            let p = parameters.count
            return (0..<p).map { covariance[$0 * p + $0].squareRoot() }
        }
    }

    /// How a nonlinear fit ended and how well its Jacobian J (n × p, at the solution) determines the parameters.
    ///
    /// Every figure is computed on the column-equilibrated Jacobian J·D⁻¹ (D = the columns' Euclidean norms), so it
    /// does not change when x or a parameter is expressed in other units.
    public struct Diagnostics: Sendable, Equatable {
        /// True when `gsl_multifit_nlinear_test` accepted the step or no step could reduce the cost
        /// (`GSL_ENOPROG`); false after the iteration limit.
        public let converged: Bool
        /// Why the solver stopped: "small step", "small gradient", "no further progress" or "iteration limit".
        public let stop: String
        /// maxⱼ |Jⱼᵀr| / (‖Jⱼ‖·‖r‖): the cosine between the residuals and each column of J, 0 at an exact minimum
        /// (and 0 when r = 0). A least-squares minimum has r orthogonal to every column.
        public let relativeGradient: Double
        /// Singular values of the equilibrated Jacobian, largest first.
        public let singularValues: [Double]
        /// The number of singular values above ``rankTolerance`` × the largest.
        public let rank: Int
        /// Largest over smallest singular value (∞ when the smallest is 0).
        public let conditionNumber: Double
        /// Per parameter: false when it moves along a direction the data do not see (a singular vector with a
        /// singular value below the rank tolerance loads on it).
        public let identified: [Bool]

        /// max(n, p)·ε is SciPy's `curve_fit` threshold; 1e-12 keeps a margin for analytic-Jacobian rounding.
        public static func rankTolerance(n: Int, p: Int) -> Double { max(Double(max(n, p)) * .ulpOfOne, 1e-12) }
    }

    /// y = c0 + c1·x by (weighted) least squares: `gsl_fit_linear`, or `gsl_fit_wlinear` with weights 1/σᵢ² when
    /// `sigma` is given. The covariance is scaled by rss / (n − 2) in both cases (relative σ, as SciPy's
    /// `curve_fit` with `absolute_sigma=False`).
    ///
    /// - Throws: `GSLError` (`GSL_EINVAL`) with fewer than 3 points, mismatched lengths or a σ that is not finite
    ///   and > 0; GSL's own status otherwise (e.g. all x equal); `GSL_EDOM` when a result is not finite.
    public static func line(x: [Double], y: [Double], sigma: [Double]? = nil) throws(GSLError) -> Fit {
        ensureGSLErrorHandlerOff()
        guard x.count == y.count, x.count >= 3 else { throw GSLError(status: Int32(GSL_EINVAL), function: "gsl_fit_linear") }
        var c0 = 0.0, c1 = 0.0, cov00 = 0.0, cov01 = 0.0, cov11 = 0.0, sumsq = 0.0
        let status: Int32
        if let sigma {
            guard sigma.count == x.count, sigma.allSatisfy({ $0.isFinite && $0 > 0 }) else {
                throw GSLError(status: Int32(GSL_EINVAL), function: "gsl_fit_wlinear")
            }
            let weights = sigma.map { 1 / ($0 * $0) }
            status = x.withUnsafeBufferPointer { xs in
                y.withUnsafeBufferPointer { ys in
                    weights.withUnsafeBufferPointer { ws in
                        gsl_fit_wlinear(xs.baseAddress, 1, ws.baseAddress, 1, ys.baseAddress, 1, xs.count,
                                        &c0, &c1, &cov00, &cov01, &cov11, &sumsq)
                    }
                }
            }
            try check(status, "gsl_fit_wlinear")
            // gsl_fit_wlinear's covariance takes σ as absolute; scale it by the reduced χ².
            let scale = sumsq / Double(x.count - 2)
            cov00 *= scale
            cov01 *= scale
            cov11 *= scale
        } else {
            status = x.withUnsafeBufferPointer { xs in
                y.withUnsafeBufferPointer { ys in
                    gsl_fit_linear(xs.baseAddress, 1, ys.baseAddress, 1, xs.count, &c0, &c1, &cov00, &cov01, &cov11, &sumsq)
                }
            }
            try check(status, "gsl_fit_linear")
        }
        guard [c0, c1, cov00, cov11, sumsq].allSatisfy(\.isFinite) else {
            throw GSLError(status: Int32(GSL_EDOM), function: sigma == nil ? "gsl_fit_linear" : "gsl_fit_wlinear")
        }
        return Fit(parameters: [c0, c1], covariance: [cov00, cov01, cov01, cov11], residualSumOfSquares: sumsq,
                   degreesOfFreedom: x.count - 2, iterations: 0, diagnostics: nil)
    }

    /// Minimises Σ ((model(θ, xᵢ) − yᵢ)/σᵢ)² over θ from `start` with GSL's trust-region solver (Levenberg–Marquardt
    /// with Moré's scaling, so the steps do not depend on the parameters' units), stopping when
    /// `gsl_multifit_nlinear_test` accepts (xtol 1e-10, gtol 1e-10, ftol 0), when no step reduces the cost
    /// (`GSL_ENOPROG`), or after `maxIterations` (then ``Diagnostics/converged`` is false: the caller decides).
    ///
    /// `jacobian(θ, x, &row)` writes ∂model/∂θⱼ at x into `row` (p entries); without it GSL differentiates by forward
    /// differences with a step relative to each parameter. σᵢ default to 1.
    ///
    /// The covariance is the pseudo-inverse of JᵀJ computed from the SVD of the equilibrated Jacobian (singular
    /// values below ``Diagnostics/rankTolerance(n:p:)`` dropped), times rss / (n − p); a parameter that loads on a
    /// dropped direction is not identified and gets NaN rows and columns.
    ///
    /// - Throws: `GSLError` for fewer points than parameters + 1, σ not finite and > 0 (`GSL_EINVAL`), a model that
    ///   returns NaN or ±inf where the solver looks (`GSL_EBADFUNC`), or a failing SVD.
    public static func nonlinear(
        x: [Double], y: [Double], sigma: [Double]? = nil, start: [Double], maxIterations: Int = 500,
        model: (_ parameters: [Double], _ x: Double) -> Double,
        jacobian: ((_ parameters: [Double], _ x: Double, _ row: inout [Double]) -> Void)? = nil
    ) throws(GSLError) -> Fit {
        ensureGSLErrorHandlerOff()
        let n = x.count
        let p = start.count
        guard y.count == n, p >= 1, n > p, start.allSatisfy(\.isFinite) else {
            throw GSLError(status: Int32(GSL_EINVAL), function: "gsl_multifit_nlinear_init")
        }
        if let sigma {
            guard sigma.count == n, sigma.allSatisfy({ $0.isFinite && $0 > 0 }) else {
                throw GSLError(status: Int32(GSL_EINVAL), function: "gsl_multifit_nlinear_init")
            }
        }
        let inverseSigma = sigma?.map { 1 / $0 }
        return try withoutActuallyEscaping(model) { (escapableModel) throws(GSLError) -> Fit in
            try withoutActuallyEscaping(jacobian ?? { _, _, _ in }) { (escapableJacobian) throws(GSLError) -> Fit in
                let box = ModelBox(x: x, y: y, inverseSigma: inverseSigma, p: p, model: escapableModel,
                                   jacobian: jacobian == nil ? nil : escapableJacobian)
                return try withExtendedLifetime(box) { () throws(GSLError) -> Fit in
                    try solve(box, start: start, maxIterations: maxIterations)
                }
            }
        }
    }

    private static func solve(_ box: ModelBox, start: [Double], maxIterations: Int) throws(GSLError) -> Fit {
        let n = box.x.count
        let p = start.count
        var parameters = gsl_multifit_nlinear_default_parameters()
        guard let workspace = gsl_multifit_nlinear_alloc(holdlab_multifit_trust(), &parameters, n, p) else {
            throw GSLError(status: Int32(GSL_ENOMEM), function: "gsl_multifit_nlinear_alloc")
        }
        defer { gsl_multifit_nlinear_free(workspace) }
        guard let initial = gsl_vector_alloc(p) else {
            throw GSLError(status: Int32(GSL_ENOMEM), function: "gsl_vector_alloc")
        }
        defer { gsl_vector_free(initial) }
        for (index, value) in start.enumerated() { gsl_vector_set(initial, index, value) }
        var fdf = gsl_multifit_nlinear_fdf()
        fdf.f = { theta, context, residuals in
            guard let theta, let context, let residuals else { return Int32(GSL_EINVAL) }
            let box = Unmanaged<ModelBox>.fromOpaque(context).takeUnretainedValue()
            return box.residuals(theta, residuals) ? Int32(GSL_SUCCESS) : Int32(GSL_EBADFUNC)
        }
        if box.jacobian != nil {
            fdf.df = { theta, context, matrix in
                guard let theta, let context, let matrix else { return Int32(GSL_EINVAL) }
                let box = Unmanaged<ModelBox>.fromOpaque(context).takeUnretainedValue()
                return box.jacobianMatrix(theta, matrix) ? Int32(GSL_SUCCESS) : Int32(GSL_EBADFUNC)
            }
        } else {
            fdf.df = nil
        }
        fdf.fvv = nil
        fdf.n = n
        fdf.p = p
        fdf.params = Unmanaged.passUnretained(box).toOpaque()
        try check(gsl_multifit_nlinear_init(initial, &fdf, workspace), "gsl_multifit_nlinear_init")
        var info: Int32 = 0
        var converged = false
        var stop = "iteration limit"
        var iterations = 0
        while iterations < maxIterations {
            iterations += 1
            let status = gsl_multifit_nlinear_iterate(workspace)
            // GSL_ENOPROG: no step reduces the cost any more — at a minimum to machine precision.
            if status == GSL_ENOPROG { converged = true; stop = "no further progress"; break }
            try check(status, "gsl_multifit_nlinear_iterate")
            let test = gsl_multifit_nlinear_test(1e-10, 1e-10, 0, &info, workspace)
            if test == GSL_SUCCESS {
                converged = true
                stop = info == 2 ? "small gradient" : "small step"
                break
            }
            if test != GSL_CONTINUE { try check(test, "gsl_multifit_nlinear_test") }
        }
        guard let solution = gsl_multifit_nlinear_position(workspace),
              let residualVector = gsl_multifit_nlinear_residual(workspace),
              let jacobianMatrix = gsl_multifit_nlinear_jac(workspace) else {
            throw GSLError(status: Int32(GSL_EFAULT), function: "gsl_multifit_nlinear_position")
        }
        let fitted = (0..<p).map { gsl_vector_get(solution, $0) }
        var residuals = [Double](repeating: 0, count: n)
        for index in 0..<n { residuals[index] = gsl_vector_get(residualVector, index) }
        var columns = [[Double]](repeating: [Double](repeating: 0, count: n), count: p)
        for row in 0..<n { for column in 0..<p { columns[column][row] = gsl_matrix_get(jacobianMatrix, row, column) } }
        let (diagnostics, unscaled) = try analyse(columns: columns, residuals: residuals, converged: converged, stop: stop)
        let rss = residuals.reduce(0) { $0 + $1 * $1 }
        let scale = rss / Double(n - p)
        return Fit(parameters: fitted, covariance: unscaled.map { $0 * scale }, residualSumOfSquares: rss,
                   degreesOfFreedom: n - p, iterations: iterations, diagnostics: diagnostics)
    }

    /// The diagnostics and (JᵀJ)⁺ (row-major, NaN for parameters not identified) of a Jacobian given by columns.
    static func analyse(columns: [[Double]], residuals: [Double], converged: Bool, stop: String) throws(GSLError)
        -> (Diagnostics, [Double]) {
        let p = columns.count
        let n = residuals.count
        let norms = columns.map { column in column.reduce(0) { $0 + $1 * $1 }.squareRoot() }
        let residualNorm = residuals.reduce(0) { $0 + $1 * $1 }.squareRoot()
        var relativeGradient = 0.0
        if residualNorm > 0 {
            for (column, norm) in zip(columns, norms) where norm > 0 {
                var dot = 0.0
                for row in 0..<n { dot += column[row] * residuals[row] }
                relativeGradient = max(relativeGradient, abs(dot) / (norm * residualNorm))
            }
        }
        // SVD of the equilibrated Jacobian (a zero column stays zero). GSL wants rows ≥ columns: n > p here.
        guard let a = gsl_matrix_alloc(n, p), let v = gsl_matrix_alloc(p, p), let s = gsl_vector_alloc(p),
              let work = gsl_vector_alloc(p) else {
            throw GSLError(status: Int32(GSL_ENOMEM), function: "gsl_matrix_alloc")
        }
        defer {
            gsl_matrix_free(a)
            gsl_matrix_free(v)
            gsl_vector_free(s)
            gsl_vector_free(work)
        }
        for column in 0..<p {
            let divisor = norms[column] > 0 ? norms[column] : 1
            for row in 0..<n { gsl_matrix_set(a, row, column, columns[column][row] / divisor) }
        }
        try check(gsl_linalg_SV_decomp(a, v, s, work), "gsl_linalg_SV_decomp")
        let singular = (0..<p).map { gsl_vector_get(s, $0) }
        let largest = singular.max() ?? 0
        let tolerance = Diagnostics.rankTolerance(n: n, p: p) * largest
        let kept = singular.map { $0 > tolerance && $0.isFinite }
        var identified = [Bool](repeating: true, count: p)
        for index in 0..<p where !kept[index] {
            for parameter in 0..<p where abs(gsl_matrix_get(v, parameter, index)) > 1e-6 { identified[parameter] = false }
        }
        var inverse = [Double](repeating: 0, count: p * p)
        for row in 0..<p {
            for column in 0..<p {
                guard identified[row], identified[column] else { inverse[row * p + column] = .nan; continue }
                var sum = 0.0
                for index in 0..<p where kept[index] {
                    sum += gsl_matrix_get(v, row, index) * gsl_matrix_get(v, column, index) / (singular[index] * singular[index])
                }
                inverse[row * p + column] = sum / (norms[row] * norms[column])
            }
        }
        let smallest = singular.min() ?? 0
        let diagnostics = Diagnostics(
            converged: converged, stop: stop, relativeGradient: relativeGradient, singularValues: singular.sorted(by: >),
            rank: kept.filter { $0 }.count, conditionNumber: smallest > 0 ? largest / smallest : .infinity,
            identified: identified)
        return (diagnostics, inverse)
    }
}

/// Carries the data and the model through GSL's `void *params`.
private final class ModelBox {
    let x: [Double]
    let y: [Double]
    let inverseSigma: [Double]?
    let model: ([Double], Double) -> Double
    let jacobian: (([Double], Double, inout [Double]) -> Void)?
    var theta: [Double]
    var row: [Double]

    init(x: [Double], y: [Double], inverseSigma: [Double]?, p: Int, model: @escaping ([Double], Double) -> Double,
         jacobian: (([Double], Double, inout [Double]) -> Void)?) {
        self.x = x
        self.y = y
        self.inverseSigma = inverseSigma
        self.model = model
        self.jacobian = jacobian
        theta = [Double](repeating: 0, count: p)
        row = [Double](repeating: 0, count: p)
    }

    private func load(_ vector: UnsafePointer<gsl_vector>) -> [Double] {
        for index in theta.indices { theta[index] = gsl_vector_get(vector, index) }
        return theta
    }

    // Both callbacks write through GSL's data pointers (stride / tda) rather than one gsl_*_set call per entry:
    // at 10⁶ points they run once or twice per solver iteration.
    func residuals(_ vector: UnsafePointer<gsl_vector>, _ out: UnsafeMutablePointer<gsl_vector>) -> Bool {
        let theta = load(vector)
        guard let data = out.pointee.data, out.pointee.size == x.count else { return false }
        let stride = out.pointee.stride
        return x.withUnsafeBufferPointer { xs in
            y.withUnsafeBufferPointer { ys in
                for index in xs.indices {
                    var residual = model(theta, xs[index]) - ys[index]
                    if let inverseSigma { residual *= inverseSigma[index] }
                    guard residual.isFinite else { return false }
                    data[index * stride] = residual
                }
                return true
            }
        }
    }

    func jacobianMatrix(_ vector: UnsafePointer<gsl_vector>, _ out: UnsafeMutablePointer<gsl_matrix>) -> Bool {
        guard let jacobian else { return false }
        let theta = load(vector)
        guard let data = out.pointee.data, out.pointee.size1 == x.count, out.pointee.size2 == theta.count else { return false }
        let tda = out.pointee.tda
        var row = self.row
        defer { self.row = row }
        return x.withUnsafeBufferPointer { xs in
            for index in xs.indices {
                jacobian(theta, xs[index], &row)
                let weight = inverseSigma?[index] ?? 1
                for column in row.indices {
                    let value = row[column] * weight
                    guard value.isFinite else { return false }
                    data[index * tda + column] = value
                }
            }
            return true
        }
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
