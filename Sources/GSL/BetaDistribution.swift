internal import CGSL

/// The beta distribution's quantile, for exact binomial intervals (Clopper–Pearson).
public enum BetaDistribution {
    /// The x with P(X ≤ x) = p for X ~ Beta(a, b), a, b > 0 (`gsl_cdf_beta_Pinv`); NaN outside (0, 1) or for
    /// a non-positive shape.
    public static func quantile(_ p: Double, a: Double, b: Double) -> Double {
        ensureGSLErrorHandlerOff()
        guard p > 0, p < 1, a > 0, b > 0 else { return .nan }
        return gsl_cdf_beta_Pinv(p, a, b)
    }
}
