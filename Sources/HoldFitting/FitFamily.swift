import GSL
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A family of positive duration distributions that ``DistributionFitting`` fits by maximum likelihood.
///
/// Parameters are in GSL's parameterisation and order (``parameterNames``), times in the data's unit (seconds for
/// a population):
/// - `lognormal`: `zeta` (mean of ln x; GSL's ζ, the profile syntax's `mu`), `sigma` (sd of ln x);
/// - `gamma`: `shape` k, `scale` θ;
/// - `weibull`: `shape` k, `scale` λ;
/// - `exgaussian`: `mu`, `sigma` (the normal part), `tau` (the exponential part's mean);
/// - `loglogistic`: `scale` (the median), `shape` β.
public enum FitFamily: String, CaseIterable, Sendable, Hashable {
    case lognormal
    case gamma
    case weibull
    case exgaussian
    case loglogistic

    /// The parameter names in GSL's order, e.g. `["zeta", "sigma"]` for lognormal.
    public var parameterNames: [String] {
        switch self {
        case .lognormal: ["zeta", "sigma"]
        case .gamma, .weibull: ["shape", "scale"]
        case .exgaussian: ["mu", "sigma", "tau"]
        case .loglogistic: ["scale", "shape"]
        }
    }

    /// The number of free parameters k (the AIC and BIC penalty counts them).
    public var parameterCount: Int { parameterNames.count }

    /// The distribution with natural parameters `parameters` (``parameterNames`` order), or nil when a count is
    /// wrong, a value is not finite, or a parameter that must be > 0 is not (every one but `zeta` and `mu`).
    public func distribution(_ parameters: [Double]) -> Distribution? {
        guard parameters.count == parameterCount, parameters.allSatisfy(\.isFinite) else { return nil }
        for (index, value) in parameters.enumerated() where index != locationIndex && !(value > 0) { return nil }
        switch self {
        case .lognormal: return .lognormal(mu: parameters[0], sigma: parameters[1])
        case .gamma: return .gamma(shape: parameters[0], scale: parameters[1])
        case .weibull: return .weibull(shape: parameters[0], scale: parameters[1])
        case .exgaussian: return .exgaussian(mu: parameters[0], sigma: parameters[1], tau: parameters[2])
        case .loglogistic: return .loglogistic(scale: parameters[0], shape: parameters[1])
        }
    }

    /// The index of the one parameter that may be ≤ 0 (`zeta`, `mu`), or nil.
    var locationIndex: Int? {
        switch self {
        case .lognormal, .exgaussian: 0
        case .gamma, .weibull, .loglogistic: nil
        }
    }
}

/// The map between a family's natural parameters and the unconstrained coordinates the optimiser moves in.
///
/// Positive parameters become their logarithms; a lognormal `zeta` stays as it is (it is already a log-time);
/// an exgaussian `mu` is divided by `timeScale` (the sample's standard deviation), so that every coordinate is
/// dimensionless and one simplex step size suits data in seconds and in milliseconds alike.
struct Parameterization {
    let family: FitFamily
    /// A typical spread of the data, > 0, in the data's unit.
    let timeScale: Double

    func natural(_ u: [Double]) -> [Double] {
        u.enumerated().map { index, value in
            guard index == family.locationIndex else { return exp(value) }
            return family == .exgaussian ? value * timeScale : value
        }
    }

    func unconstrained(_ theta: [Double]) -> [Double] {
        theta.enumerated().map { index, value in
            guard index == family.locationIndex else { return log(value) }
            return family == .exgaussian ? value / timeScale : value
        }
    }
}

/// Moments of a sample used for starting values.
struct SampleMoments {
    let mean: Double
    let variance: Double
    let skewness: Double
    let logMean: Double
    let logStandardDeviation: Double

    /// Moments of `times` (censored times taken at face value: only a starting point). Logs of non-positive
    /// values (possible in exgaussian bootstrap draws) are skipped.
    init(_ times: [Double]) {
        let n = Double(times.count)
        let mean = times.reduce(0, +) / n
        var m2 = 0.0
        var m3 = 0.0
        for x in times {
            let d = x - mean
            m2 += d * d
            m3 += d * d * d
        }
        m2 /= n
        m3 /= n
        self.mean = mean
        variance = m2
        skewness = m2 > 0 ? m3 / pow(m2, 1.5) : 0
        let logs = times.lazy.filter { $0 > 0 }.map { log($0) }
        let logCount = Double(logs.count)
        let logMean = logCount > 0 ? logs.reduce(0, +) / logCount : 0
        self.logMean = logMean
        let logVariance = logCount > 0 ? logs.reduce(0) { $0 + ($1 - logMean) * ($1 - logMean) } / logCount : 0
        logStandardDeviation = logVariance.squareRoot()
    }

    /// Euler–Mascheroni γ: E[ln X] = ln λ − γ/k for a Weibull.
    static let eulerGamma = 0.577_215_664_901_532_9

    /// Moment-based starting values in ``FitFamily/parameterNames`` order; every positive one is > 0.
    ///
    /// lognormal: mean and sd of ln x (the uncensored MLE itself). gamma: k = m²/v, θ = v/m. weibull: sd of ln x =
    /// π/(k√6), E ln x = ln λ − γ/k. exgaussian: skewness γ₁ = 2τ³/(σ² + τ²)^{3/2} gives τ = s(γ₁/2)^{1/3} (γ₁
    /// clamped to [0.1, 1.9], inside the family's range 0–2), mu = m − τ, σ² = v − τ² (at least v/20).
    /// loglogistic: ln x is logistic with location ln(scale) and sd π/(β√3).
    func start(for family: FitFamily) -> [Double] {
        let sd = max(variance.squareRoot(), 1e-300)
        let logSD = max(logStandardDeviation, 1e-12)
        switch family {
        case .lognormal:
            return [logMean, logSD]
        case .gamma:
            return [mean * mean / (sd * sd), sd * sd / mean]
        case .weibull:
            let shape = Double.pi / (logSD * 6.0.squareRoot())
            return [shape, exp(logMean + Self.eulerGamma / shape)]
        case .exgaussian:
            let clamped = min(max(skewness, 0.1), 1.9)
            let tau = sd * pow(clamped / 2, 1.0 / 3.0)
            let sigma = max(variance - tau * tau, variance / 20).squareRoot()
            return [mean - tau, sigma, tau]
        case .loglogistic:
            return [exp(logMean), Double.pi / (logSD * 3.0.squareRoot())]
        }
    }
}
