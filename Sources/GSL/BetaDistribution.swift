internal import CGSL

/// The beta distribution's quantile, for exact binomial intervals (Clopper–Pearson).
public enum BetaDistribution {
    /// The x with P(X ≤ x) = p for X ~ Beta(a, b), a, b > 0; NaN outside (0, 1) or for a non-positive shape.
    ///
    /// `gsl_cdf_beta_Pinv`'s answer where it gives one that inverts the CDF; where its Newton iteration fails (it
    /// does for a few events among many trials: the upper Clopper–Pearson end of 6 events in 20,000 trials, Beta(7,
    /// 19,994) at 0.975, was NaN), bisection on GSL's own CDF finds it: on `gsl_cdf_beta_P` for p ≤ ½ and on the
    /// upper tail `gsl_cdf_beta_Q` above, each accurate in its own tail, until the bracket is two adjacent doubles.
    public static func quantile(_ p: Double, a: Double, b: Double) -> Double {
        ensureGSLErrorHandlerOff()
        guard p > 0, p < 1, a > 0, b > 0, a.isFinite, b.isFinite else { return .nan }
        let estimate = gsl_cdf_beta_Pinv(p, a, b)
        if estimate.isFinite, estimate >= 0, estimate <= 1, inverts(estimate, p: p, a: a, b: b) { return estimate }
        return bisection(p, a: a, b: b)
    }

    /// P(X ≤ x) for X ~ Beta(a, b) (`gsl_cdf_beta_P`); NaN for a non-positive shape or x that is NaN.
    public static func cdf(_ x: Double, a: Double, b: Double) -> Double {
        ensureGSLErrorHandlerOff()
        guard a > 0, b > 0, !x.isNaN else { return .nan }
        return gsl_cdf_beta_P(x, a, b)
    }

    /// Whether `x` is the p-quantile to within a millionth of the tail probability (GSL's Newton answer, when it
    /// converges, is far closer; a failed one is far off or not finite).
    private static func inverts(_ x: Double, p: Double, a: Double, b: Double) -> Bool {
        if p <= 0.5 { return abs(gsl_cdf_beta_P(x, a, b) - p) <= 1e-6 * p }
        return abs(gsl_cdf_beta_Q(x, a, b) - (1 - p)) <= 1e-6 * (1 - p)
    }

    /// The p-quantile by bisection on [0, 1]: the CDF never decreases, so the bracket keeps it.
    private static func bisection(_ p: Double, a: Double, b: Double) -> Double {
        // below(x): whether x is below the quantile, read in the tail where the probability is accurate.
        func below(_ x: Double) -> Bool {
            p <= 0.5 ? gsl_cdf_beta_P(x, a, b) < p : gsl_cdf_beta_Q(x, a, b) > 1 - p
        }
        // A CDF that gives no number here (none found over 40,000 Clopper–Pearson ends) leaves no quantile either.
        guard !gsl_cdf_beta_P(0.5, a, b).isNaN, !gsl_cdf_beta_Q(0.5, a, b).isNaN else { return .nan }
        var low = 0.0, high = 1.0
        for _ in 0..<2_200 {
            // The midpoint in value while the bracket spans orders of magnitude would take ~1,000 halvings to reach
            // a quantile near 1e-300: halve the exponent first (the geometric mean), then the value.
            let middle = low > 0 && high / low > 4 ? low.squareRoot() * high.squareRoot()
                : low == 0 && high > 1e-300 ? high / 1024 : low + (high - low) / 2
            guard middle > low && middle < high else { break }
            if below(middle) { low = middle } else { high = middle }
        }
        return high
    }
}
