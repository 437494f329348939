internal import CGSL

/// Dense linear algebra with GSL (`gsl_linalg_*`) on small matrices given as arrays of rows.
public enum LinearAlgebra {
    /// The inverse of a symmetric positive-definite matrix, by Cholesky (`gsl_linalg_cholesky_decomp1`, then
    /// `gsl_linalg_cholesky_invert`).
    ///
    /// Typical use: the covariance of maximum-likelihood estimates as the inverse of the observed information (the
    /// Hessian of the negative log-likelihood). Only the lower triangle and diagonal of `matrix` are read, as GSL
    /// does; the result is symmetric. Cholesky needs about n³/3 multiplications and is backward stable for
    /// positive-definite input; the inverse's relative error grows with the condition number.
    ///
    /// Throws a ``GSLError`` with
    /// - `GSL_EBADLEN` (19) when `matrix` is empty or not square,
    /// - `GSL_EINVAL` (4) when an entry of the lower triangle is NaN or ±∞,
    /// - `GSL_EDOM` (1) from `gsl_linalg_cholesky_decomp1` when the matrix is not positive definite (a zero or
    ///   negative pivot: singular, indefinite or negative definite).
    public static func inverseOfPositiveDefinite(_ matrix: [[Double]]) throws(GSLError) -> [[Double]] {
        ensureGSLErrorHandlerOff()
        let decompose = "gsl_linalg_cholesky_decomp1"
        let n = matrix.count
        guard n > 0, matrix.allSatisfy({ $0.count == n }) else {
            throw GSLError(status: Int32(GSL_EBADLEN), function: decompose)
        }
        for row in 0..<n {
            for column in 0...row where !matrix[row][column].isFinite {
                throw GSLError(status: Int32(GSL_EINVAL), function: decompose)
            }
        }
        guard let work = gsl_matrix_alloc(n, n) else {
            throw GSLError(status: Int32(GSL_ENOMEM), function: "gsl_matrix_alloc")
        }
        defer { gsl_matrix_free(work) }
        for row in 0..<n {
            for column in 0..<n { gsl_matrix_set(work, row, column, matrix[row][column]) }
        }
        try check(gsl_linalg_cholesky_decomp1(work), decompose)
        try check(gsl_linalg_cholesky_invert(work), "gsl_linalg_cholesky_invert")
        return (0..<n).map { row in (0..<n).map { column in gsl_matrix_get(work, row, column) } }
    }
}
