internal import CGSL

/// Fixed-order quadrature rules from GSL (`gsl_integration_glfixed_*`).
public enum Quadrature {
    /// The n-point Gauss–Legendre rule on [−1, 1]: nodes in increasing order and their weights
    /// (`gsl_integration_glfixed_table_alloc`, `gsl_integration_glfixed_point`).
    ///
    /// Exact for polynomials of degree ≤ 2n − 1; the nodes are symmetric about 0 and the weights
    /// are positive and sum to 2. GSL tabulates the rules up to n = 100 to full double precision
    /// and computes larger n by Newton iteration. Throws a ``GSLError`` with
    /// - `GSL_EINVAL` (4) for n < 1 (checked here, since GSL would return a null table),
    /// - `GSL_ENOMEM` (8) from `gsl_integration_glfixed_table_alloc` when it returns no table,
    /// - the status of `gsl_integration_glfixed_point` if it fails.
    public static func gaussLegendre(points n: Int) throws(GSLError) -> (nodes: [Double], weights: [Double]) {
        ensureGSLErrorHandlerOff()
        guard n >= 1 else { throw GSLError.invalidArgument("gsl_integration_glfixed_table_alloc") }
        guard let table = gsl_integration_glfixed_table_alloc(n) else {
            throw GSLError(status: Int32(GSL_ENOMEM), function: "gsl_integration_glfixed_table_alloc")
        }
        defer { gsl_integration_glfixed_table_free(table) }
        var points: [(node: Double, weight: Double)] = []
        points.reserveCapacity(n)
        for i in 0..<n {
            var node = 0.0
            var weight = 0.0
            try check(gsl_integration_glfixed_point(-1, 1, i, &node, &weight, table), "gsl_integration_glfixed_point")
            points.append((node, weight))
        }
        // GSL's order of the points is not documented; sort so callers can rely on increasing nodes.
        points.sort { $0.node < $1.node }
        return (points.map(\.node), points.map(\.weight))
    }
}
