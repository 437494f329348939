internal import CGSL
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// ln √(2π), the normalising constant of the standard normal log-density.
private let logSqrtTwoPi = 0.918_938_533_204_672_8

// MARK: Densities and distribution functions

extension Distribution {
    /// The probability density at `x` seconds (per second).
    ///
    /// GSL's `gsl_ran_*_pdf` for uniform, normal, lognormal, gamma, weibull and exponential; closed
    /// forms for exgaussian (through ``logPDF(_:)``, stable for any x/tau) and loglogistic
    /// (β/x · F(x) · S(x)); a weighted sum for mixtures. A constant has no density: +inf at its
    /// value and 0 elsewhere.
    public func pdf(_ x: Double) -> Double {
        ensureGSLErrorHandlerOff()
        switch self {
        case .constant(let value):
            return x == value ? .infinity : 0
        case .uniform(let min, let max):
            return gsl_ran_flat_pdf(x, min, max)
        case .normal(let mean, let sd):
            return gsl_ran_gaussian_pdf(x - mean, sd)
        case .lognormal(let mu, let sigma):
            return gsl_ran_lognormal_pdf(x, mu, sigma)
        case .gamma(let shape, let scale):
            return gsl_ran_gamma_pdf(x, shape, scale)
        case .weibull(let shape, let scale):
            return gsl_ran_weibull_pdf(x, scale, shape)
        case .exponential(let mean):
            return gsl_ran_exponential_pdf(x, mean)
        case .exgaussian:
            return exp(logPDF(x))
        case .loglogistic(let scale, let shape):
            if x < 0 { return 0 }
            if x == 0 { return shape < 1 ? .infinity : (shape == 1 ? 1 / scale : 0) }
            let t = shape * log(x / scale)
            return shape / x * logistic(t) * logistic(-t)
        case .mixture(let mixture):
            return mixture.drawable.reduce(0) { $0 + $1.weight * $1.distribution.pdf(x) }
        }
    }

    /// The distribution function P(X ≤ x).
    ///
    /// `gsl_cdf_*_P` where GSL has it; exgaussian Φ(w) − τ·f(x) with w = (x − mu)/sigma;
    /// loglogistic 1/(1 + (x/scale)^(−β)); mixture Σ wᵢ Fᵢ(x). Pitfall: for upper-tail
    /// probabilities use ``survival(_:)``, not 1 − cdf, which loses all digits beyond ~1e-16.
    public func cdf(_ x: Double) -> Double {
        ensureGSLErrorHandlerOff()
        switch self {
        case .constant(let value):
            return x < value ? 0 : 1
        case .uniform(let min, let max):
            return gsl_cdf_flat_P(x, min, max)
        case .normal(let mean, let sd):
            return gsl_cdf_gaussian_P(x - mean, sd)
        case .lognormal(let mu, let sigma):
            // GSL's lognormal and Weibull CDFs take the log or a power of x: NaN below their support.
            return x < 0 ? 0 : gsl_cdf_lognormal_P(x, mu, sigma)
        case .gamma(let shape, let scale):
            return gsl_cdf_gamma_P(x, shape, scale)
        case .weibull(let shape, let scale):
            return x < 0 ? 0 : gsl_cdf_weibull_P(x, scale, shape)
        case .exponential(let mean):
            return gsl_cdf_exponential_P(x, mean)
        case .exgaussian(let mu, let sigma, let tau):
            return Swift.max(0, gsl_cdf_ugaussian_P((x - mu) / sigma) - tau * pdf(x))
        case .loglogistic(let scale, let shape):
            return x <= 0 ? 0 : logistic(shape * log(x / scale))
        case .mixture(let mixture):
            return Swift.min(1, mixture.drawable.reduce(0) { $0 + $1.weight * $1.distribution.cdf(x) })
        }
    }

    /// The survival function Q(x) = P(X > x), computed directly (not as 1 − P) so tails keep their digits.
    ///
    /// `gsl_cdf_*_Q` where GSL has it; exgaussian Q(w) + τ·f(x) (two positive terms);
    /// loglogistic 1/(1 + (x/scale)^β); mixture Σ wᵢ Qᵢ(x).
    public func survival(_ x: Double) -> Double {
        ensureGSLErrorHandlerOff()
        switch self {
        case .constant(let value):
            return x < value ? 1 : 0
        case .uniform(let min, let max):
            return gsl_cdf_flat_Q(x, min, max)
        case .normal(let mean, let sd):
            return gsl_cdf_gaussian_Q(x - mean, sd)
        case .lognormal(let mu, let sigma):
            return x < 0 ? 1 : gsl_cdf_lognormal_Q(x, mu, sigma)
        case .gamma(let shape, let scale):
            return gsl_cdf_gamma_Q(x, shape, scale)
        case .weibull(let shape, let scale):
            return x < 0 ? 1 : gsl_cdf_weibull_Q(x, scale, shape)
        case .exponential(let mean):
            return gsl_cdf_exponential_Q(x, mean)
        case .exgaussian(let mu, let sigma, let tau):
            return Swift.min(1, gsl_cdf_ugaussian_Q((x - mu) / sigma) + tau * pdf(x))
        case .loglogistic(let scale, let shape):
            return x <= 0 ? 1 : logistic(-shape * log(x / scale))
        case .mixture(let mixture):
            return Swift.min(1, mixture.drawable.reduce(0) { $0 + $1.weight * $1.distribution.survival(x) })
        }
    }

    /// ln pdf(x), accurate where pdf(x) underflows (for maximum-likelihood fitting).
    ///
    /// Closed forms for normal, lognormal, gamma (via `gsl_sf_lngamma`), weibull, exponential and
    /// loglogistic. Exgaussian uses f(x) = φ(w)/(τ·h(−z)) for z = w − sigma/tau < 0, where h is the
    /// normal hazard `gsl_sf_hazard` (so large sigma/tau or far-left x never computes inf·0), and
    /// −ln τ + (mu − x)/τ + sigma²/(2τ²) + ln Φ(z) for z ≥ 0. Mixtures use log-sum-exp. Returns
    /// −inf outside the support; uniform and constant are ln of ``pdf(_:)``.
    public func logPDF(_ x: Double) -> Double {
        ensureGSLErrorHandlerOff()
        switch self {
        case .constant, .uniform:
            return log(pdf(x))
        case .normal(let mean, let sd):
            let w = (x - mean) / sd
            return -0.5 * w * w - log(sd) - logSqrtTwoPi
        case .lognormal(let mu, let sigma):
            if x <= 0 { return -.infinity }
            let logX = log(x)
            let w = (logX - mu) / sigma
            return -0.5 * w * w - logX - log(sigma) - logSqrtTwoPi
        case .gamma(let shape, let scale):
            if x <= 0 { return log(pdf(x)) }
            let ratio = x / scale
            return (shape - 1) * log(ratio) - ratio - gsl_sf_lngamma(shape) - log(scale)
        case .weibull(let shape, let scale):
            if x <= 0 { return log(pdf(x)) }
            let ratio = x / scale
            return log(shape / scale) + (shape - 1) * log(ratio) - pow(ratio, shape)
        case .exponential(let mean):
            return x < 0 ? -.infinity : -log(mean) - x / mean
        case .exgaussian(let mu, let sigma, let tau):
            let w = (x - mu) / sigma
            let ratio = sigma / tau
            let z = w - ratio
            if z >= 0 {
                return -log(tau) - w * ratio + 0.5 * ratio * ratio + log1p(-gsl_cdf_ugaussian_Q(z))
            }
            return -log(tau) - 0.5 * w * w - logSqrtTwoPi - log(gsl_sf_hazard(-z))
        case .loglogistic(let scale, let shape):
            if x <= 0 { return log(pdf(x)) }
            let t = shape * log(x / scale)
            return log(shape / x) - softplus(-t) - softplus(t)
        case .mixture(let mixture):
            return logSumExp(mixture.drawable.map { log($0.weight) + $0.distribution.logPDF(x) })
        }
    }

    /// ln survival(x), accurate far into the upper tail (for right-censored likelihoods).
    ///
    /// Normal and lognormal via `gsl_sf_log_erfc`; weibull −(x/λ)^k; exponential −x/mean;
    /// loglogistic −ln(1 + (x/scale)^β); exgaussian ln(Q(w) + τ·f(x)) by log-sum-exp; mixture by
    /// log-sum-exp. Pitfall: gamma and uniform are ln of ``survival(_:)``, so gamma returns −inf
    /// once Q underflows (beyond ~1e-308).
    public func logSurvival(_ x: Double) -> Double {
        ensureGSLErrorHandlerOff()
        switch self {
        case .constant, .uniform, .gamma:
            return log(survival(x))
        case .normal(let mean, let sd):
            return logNormalQ((x - mean) / sd)
        case .lognormal(let mu, let sigma):
            return x <= 0 ? 0 : logNormalQ((log(x) - mu) / sigma)
        case .weibull(let shape, let scale):
            return x <= 0 ? 0 : -pow(x / scale, shape)
        case .exponential(let mean):
            return x <= 0 ? 0 : -x / mean
        case .exgaussian(let mu, let sigma, let tau):
            return logSumExp([logNormalQ((x - mu) / sigma), log(tau) + logPDF(x)])
        case .loglogistic(let scale, let shape):
            return x <= 0 ? 0 : -softplus(shape * log(x / scale))
        case .mixture(let mixture):
            return logSumExp(mixture.drawable.map { log($0.weight) + $0.distribution.logSurvival(x) })
        }
    }
}

// MARK: Quantiles

extension Distribution {
    /// The quantile function: the smallest x with cdf(x) ≥ p, for p in [0, 1].
    ///
    /// `gsl_cdf_*_Pinv` for normal, lognormal, gamma and weibull; closed forms for uniform
    /// (min + p(max − min)), exponential (−mean·ln(1 − p)), loglogistic (scale·(p/(1 − p))^(1/β))
    /// and constant; a Brent root of the cdf (of the survival for p > 0.5) inside a proven bracket
    /// for exgaussian and mixture. p = 0 and p = 1 give the ends of the support (possibly ±inf).
    /// Returns NaN for p outside [0, 1] or NaN, or if the root search fails; it never aborts.
    public func quantile(_ p: Double) -> Double {
        ensureGSLErrorHandlerOff()
        guard p >= 0, p <= 1 else { return .nan }
        if p == 0 { return lowerBound }
        if p == 1 { return upperBound }
        switch self {
        case .constant(let value):
            return value
        case .uniform(let min, let max):
            return min + p * (max - min)
        case .normal(let mean, let sd):
            return mean + gsl_cdf_gaussian_Pinv(p, sd)
        case .lognormal(let mu, let sigma):
            return gsl_cdf_lognormal_Pinv(p, mu, sigma)
        case .gamma(let shape, let scale):
            return gsl_cdf_gamma_Pinv(p, shape, scale)
        case .weibull(let shape, let scale):
            return gsl_cdf_weibull_Pinv(p, scale, shape)
        case .exponential(let mean):
            return -mean * log1p(-p)
        case .exgaussian(let mu, let sigma, let tau):
            // X = N + E with E ≥ 0, so F(x) ≤ Φ((x − mu)/σ): the normal quantile is a lower bound.
            // P(X ≤ a + b) ≥ P(N ≤ a)·P(E ≤ b); with both factors √p this is ≥ p: an upper bound.
            let rootP = p.squareRoot()
            let lower = mu + sigma * gsl_cdf_ugaussian_Pinv(p)
            let upper = mu + sigma * gsl_cdf_ugaussian_Pinv(rootP) - tau * log1p(-rootP)
            return invertCDF(p, lower: lower, upper: upper)
        case .loglogistic(let scale, let shape):
            return scale * exp((log(p) - log1p(-p)) / shape)
        case .mixture(let mixture):
            // Every component has Fᵢ ≤ p at the smallest component quantile and Fᵢ ≥ p at the largest.
            var lower = Double.infinity
            var upper = -Double.infinity
            for component in mixture.drawable {
                let q = component.distribution.quantile(p)
                guard !q.isNaN else { return .nan }
                lower = Swift.min(lower, q)
                upper = Swift.max(upper, q)
            }
            return invertCDF(p, lower: lower, upper: upper)
        }
    }

    /// Solves cdf(x) = p in [lower, upper], a bracket known to contain the quantile.
    private func invertCDF(_ p: Double, lower: Double, upper: Double) -> Double {
        guard lower.isFinite, upper.isFinite, lower <= upper else { return .nan }
        // Above the median, match the survival to 1 − p (exact for p > 0.5) to keep tail digits.
        let excess: (Double) -> Double = p > 0.5 ? { (1 - p) - survival($0) } : { cdf($0) - p }
        if excess(lower) >= 0 { return lower }
        if excess(upper) <= 0 { return upper }
        // 1e-14 relative (≈ 50 ulps) leaves |cdf(x) − p| ≤ pdf·|x|·1e-14, far inside 1e-9.
        let width = upper - lower
        return (try? RootFinding.brent(
            lower: lower, upper: upper,
            absoluteTolerance: 1e-14 * width, relativeTolerance: 1e-14,
            maxIterations: 200, excess
        )) ?? .nan
    }
}

// MARK: Moments and support

extension Distribution {
    /// The mean in seconds (closed form).
    ///
    /// lognormal e^(mu + σ²/2); weibull λΓ(1 + 1/k); exgaussian mu + tau; loglogistic
    /// scale·b/sin b with b = π/β, and +inf for β ≤ 1; mixture Σ wᵢ μᵢ.
    public var mean: Double {
        ensureGSLErrorHandlerOff()
        switch self {
        case .constant(let value): return value
        case .uniform(let min, let max): return 0.5 * (min + max)
        case .normal(let mean, _): return mean
        case .lognormal(let mu, let sigma): return exp(mu + 0.5 * sigma * sigma)
        case .gamma(let shape, let scale): return shape * scale
        case .weibull(let shape, let scale): return scale * gsl_sf_gamma(1 + 1 / shape)
        case .exponential(let mean): return mean
        case .exgaussian(let mu, _, let tau): return mu + tau
        case .loglogistic(let scale, let shape):
            guard shape > 1 else { return .infinity }
            let b = Double.pi / shape
            return scale * b / sin(b)
        case .mixture(let mixture):
            return mixture.drawable.reduce(0) { $0 + $1.weight * $1.distribution.mean }
        }
    }

    /// The variance in seconds² (closed form).
    ///
    /// uniform (max − min)²/12; lognormal (e^(σ²) − 1)·e^(2mu + σ²); gamma kθ²; weibull
    /// λ²(Γ(1 + 2/k) − Γ(1 + 1/k)²); exgaussian σ² + τ²; loglogistic
    /// scale²(2b/sin 2b − b²/sin² b) with b = π/β, +inf for β ≤ 2; mixture by the law of total
    /// variance Σ wᵢ(σᵢ² + (μᵢ − μ)²).
    public var variance: Double {
        ensureGSLErrorHandlerOff()
        switch self {
        case .constant: return 0
        case .uniform(let min, let max): return (max - min) * (max - min) / 12
        case .normal(_, let sd): return sd * sd
        case .lognormal(let mu, let sigma):
            let s2 = sigma * sigma
            return expm1(s2) * exp(2 * mu + s2)
        case .gamma(let shape, let scale): return shape * scale * scale
        case .weibull(let shape, let scale):
            let g1 = gsl_sf_gamma(1 + 1 / shape)
            return scale * scale * (gsl_sf_gamma(1 + 2 / shape) - g1 * g1)
        case .exponential(let mean): return mean * mean
        case .exgaussian(_, let sigma, let tau): return sigma * sigma + tau * tau
        case .loglogistic(let scale, let shape):
            guard shape > 2 else { return .infinity }
            let b = Double.pi / shape
            let sinB = sin(b)
            return scale * scale * (2 * b / sin(2 * b) - b * b / (sinB * sinB))
        case .mixture(let mixture):
            let overall = mean
            return mixture.drawable.reduce(0) { sum, component in
                let offset = component.distribution.mean - overall
                return sum + component.weight * (component.distribution.variance + offset * offset)
            }
        }
    }

    /// The infimum of the support in seconds: 0 for lognormal, gamma, weibull, exponential and
    /// loglogistic; `min` for uniform; `value` for constant; −inf for normal and exgaussian; the
    /// smallest over components with weight > 0 for a mixture. Callers needing non-negative
    /// durations can require `lowerBound >= 0`.
    public var lowerBound: Double {
        switch self {
        case .constant(let value): value
        case .uniform(let min, _): min
        case .normal, .exgaussian: -.infinity
        case .lognormal, .gamma, .weibull, .exponential, .loglogistic: 0
        case .mixture(let mixture): mixture.drawable.reduce(.infinity) { Swift.min($0, $1.distribution.lowerBound) }
        }
    }

    /// The supremum of the support: `value`, `max`, the largest over a mixture's components, else +inf.
    var upperBound: Double {
        switch self {
        case .constant(let value): value
        case .uniform(_, let max): max
        case .mixture(let mixture): mixture.drawable.reduce(-.infinity) { Swift.max($0, $1.distribution.upperBound) }
        default: .infinity
        }
    }
}

extension Distribution {
    /// The standard normal hazard φ(x)/Q(x) (`gsl_sf_hazard`), accurate for large x where φ and Q both underflow;
    /// at −z it is φ(z)/Φ(z), the derivative of ln Φ(z) (exgaussian likelihood equations).
    public static func normalHazard(_ x: Double) -> Double {
        ensureGSLErrorHandlerOff()
        return gsl_sf_hazard(x)
    }
}

// MARK: Numerical helpers

/// 1/(1 + e^(−t)) without overflow.
private func logistic(_ t: Double) -> Double {
    t >= 0 ? 1 / (1 + exp(-t)) : exp(t) / (1 + exp(t))
}

/// ln(1 + e^t) without overflow or loss of digits for large |t|.
private func softplus(_ t: Double) -> Double {
    t > 0 ? t + log1p(exp(-t)) : log1p(exp(t))
}

/// ln Q(w) for the standard normal, Q(w) = erfc(w/√2)/2, accurate for large w (`gsl_sf_log_erfc`).
private func logNormalQ(_ w: Double) -> Double {
    gsl_sf_log_erfc(w * 0.707_106_781_186_547_6) - 0.693_147_180_559_945_3
}

/// ln Σ e^(aᵢ), scaled by the largest term; −inf for an empty list or all −inf.
private func logSumExp(_ terms: [Double]) -> Double {
    guard let largest = terms.max(), largest.isFinite else { return terms.max() ?? -.infinity }
    return largest + log(terms.reduce(0) { $0 + exp($1 - largest) })
}
