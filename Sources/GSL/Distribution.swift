internal import CGSL
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A probability distribution of a duration in seconds, sampled with a ``Generator``.
///
/// Parameterisations (x in seconds):
/// - `constant(value)`: always `value`.
/// - `uniform(min, max)`: flat on [min, max).
/// - `normal(mean, sd)`: Gaussian; `sd` is the standard deviation.
/// - `lognormal(mu, sigma)`: ln X ~ normal(mu, sigma); median e^mu, mean e^(mu + sigma²/2).
/// - `gamma(shape, scale)`: density x^(k−1) e^(−x/θ) / (Γ(k) θ^k), mean kθ.
/// - `weibull(shape, scale)`: CDF 1 − e^(−(x/λ)^k), mean λΓ(1 + 1/k).
/// - `exponential(mean)`: CDF 1 − e^(−x/mean) (a mean, not a rate).
/// - `exgaussian(mu, sigma, tau)`: normal(mu, sigma) + exponential(mean tau); the standard reaction-time model.
/// - `loglogistic(scale, shape)`: CDF 1 / (1 + (x/scale)^(−shape)); median = scale.
/// - `mixture(m)`: picks a component with probability proportional to its weight.
///
/// Pitfall: the case constructors do not validate their parameters (a negative `sigma` gives NaN or
/// nonsense, never a crash). Build distributions from untrusted input with
/// ``init(family:parameters:)`` or ``init(mixture:)``, which reject every invalid value.
public enum Distribution: Sendable, Hashable, CustomStringConvertible {
    /// Always `value` (seconds); a point mass.
    case constant(value: Double)
    /// Flat on [min, max) seconds; requires max > min.
    case uniform(min: Double, max: Double)
    /// Gaussian with mean `mean` and standard deviation `sd` > 0 (seconds); support is all reals.
    case normal(mean: Double, sd: Double)
    /// ln X ~ normal(`mu`, `sigma`), `sigma` > 0; median e^mu seconds, so `mu` is a log-second.
    case lognormal(mu: Double, sigma: Double)
    /// Gamma with `shape` k > 0 and `scale` θ > 0 seconds (not a rate); mean kθ.
    case gamma(shape: Double, scale: Double)
    /// Weibull with `shape` k > 0 and `scale` λ > 0 seconds; CDF 1 − e^(−(x/λ)^k).
    /// Pitfall: GSL's `gsl_ran_weibull(r, a, b)` takes a = scale, b = shape (the reverse order).
    case weibull(shape: Double, scale: Double)
    /// Exponential with mean `mean` > 0 seconds (rate 1/mean).
    case exponential(mean: Double)
    /// normal(`mu`, `sigma`) + exponential(mean `tau`); mean mu + tau, variance sigma² + tau².
    case exgaussian(mu: Double, sigma: Double, tau: Double)
    /// Log-logistic with median `scale` > 0 seconds and `shape` β > 0; CDF 1 / (1 + (x/scale)^(−β)).
    /// The mean is finite only for β > 1 and the variance only for β > 2.
    case loglogistic(scale: Double, shape: Double)
    /// A weighted mixture; see ``Mixture``.
    case mixture(Mixture)

    /// One weighted component of a ``Mixture``.
    public struct Component: Sendable, Hashable {
        /// The component's weight (≥ 0); in a ``Mixture`` weights are normalised to sum to 1.
        public let weight: Double
        /// The component's distribution.
        public let distribution: Distribution

        /// A component; the weight is validated when the ``Mixture`` is built.
        public init(weight: Double, distribution: Distribution) {
            self.weight = weight
            self.distribution = distribution
        }
    }

    /// A validated finite mixture: density Σ wᵢ fᵢ(x) with weights normalised by their sum.
    ///
    /// Cumulative weights are computed once here, so sampling costs one uniform draw, a short linear
    /// scan and one draw from the chosen component, with no allocation.
    public struct Mixture: Sendable, Hashable {
        /// The components, with weights normalised to sum to 1 (zero weights are kept).
        public let components: [Component]
        /// Running sums of the normalised weights; entries from the last positive weight on are exactly 1.
        let cumulativeWeights: [Double]

        /// Validates and normalises: at least one component; every weight finite and ≥ 0; the sum
        /// finite and > 0. Component distributions are taken as given.
        public init(_ components: [Component]) throws(DistributionError) {
            guard !components.isEmpty else { throw .emptyMixture }
            var total = 0.0
            for (index, component) in components.enumerated() {
                guard component.weight.isFinite, component.weight >= 0 else {
                    throw .invalidWeight(index: index, value: component.weight)
                }
                total += component.weight
            }
            guard total.isFinite, total > 0 else { throw .invalidTotalWeight(total) }
            let normalised = components.map {
                Component(weight: $0.weight / total, distribution: $0.distribution)
            }
            var running = 0.0
            var cumulative = normalised.map { component -> Double in
                running += component.weight
                return running
            }
            // Guard against rounding leaving the last reachable entry just below 1, which would let a
            // draw u close to 1 land on a trailing zero-weight component.
            if let lastPositive = normalised.lastIndex(where: { $0.weight > 0 }) {
                for index in lastPositive..<cumulative.count { cumulative[index] = 1 }
            }
            self.components = normalised
            self.cumulativeWeights = cumulative
        }

        /// The component a uniform `u` in [0, 1) picks: the first whose cumulative weight exceeds `u`.
        @inline(__always)
        func component(at u: Double) -> Int {
            let last = cumulativeWeights.count - 1
            var index = 0
            while index < last && u >= cumulativeWeights[index] { index += 1 }
            return index
        }

        /// Components that can actually be drawn (weight > 0).
        var drawable: some Sequence<Component> {
            components.lazy.filter { $0.weight > 0 }
        }
    }

    /// A validated mixture from (weight, distribution) pairs; see ``Mixture/init(_:)`` for the rules.
    public init(mixture components: [(weight: Double, distribution: Distribution)]) throws(DistributionError) {
        self = .mixture(try Mixture(components.map { Component(weight: $0.weight, distribution: $0.distribution) }))
    }

    /// One draw, in seconds, using GSL's samplers.
    ///
    /// uniform `gsl_ran_flat`; normal mean + `gsl_ran_gaussian`; lognormal `gsl_ran_lognormal`;
    /// gamma `gsl_ran_gamma` (Marsaglia–Tsang); weibull `gsl_ran_weibull(scale, shape)`; exponential
    /// `gsl_ran_exponential`; exgaussian mu + gaussian + exponential; loglogistic by inverting the CDF
    /// at one `uniformPositive()`; mixture one uniform to pick a component, then that component's draw.
    /// Pitfall: normal and exgaussian can return negative values; check ``lowerBound`` when a caller
    /// needs non-negative durations.
    public func sample(_ g: Generator) -> Double {
        finish(pending(g))
    }

    /// `sample` through GSL's own `gsl_ran_*` functions: what `sample` must equal draw for draw (tests).
    func librarySample(_ g: Generator) -> Double {
        let rng = g.rng
        switch self {
        case .uniform(let min, let max): return gsl_ran_flat(rng, min, max)
        case .normal(let mean, let sd): return mean + gsl_ran_gaussian(rng, sd)
        case .lognormal(let mu, let sigma): return gsl_ran_lognormal(rng, mu, sigma)
        case .weibull(let shape, let scale): return gsl_ran_weibull(rng, scale, shape)
        case .exponential(let mean): return gsl_ran_exponential(rng, mean)
        case .exgaussian(let mu, let sigma, let tau):
            return mu + gsl_ran_gaussian(rng, sigma) + gsl_ran_exponential(rng, tau)
        case .mixture(let mixture):
            return mixture.components[mixture.component(at: gsl_rng_uniform(rng))].distribution.librarySample(g)
        case .constant, .gamma, .loglogistic: return sample(g)
        }
    }

    /// Canonical one-line flow-YAML form, e.g. `{dist: lognormal, mu: -2.120264, sigma: 0.6}`.
    ///
    /// Keys are the ``parameterNames(of:)`` of the family (a lognormal always prints `mu`, even when
    /// built from `median`); numbers use Swift's shortest round-trip form. A mixture prints
    /// `{dist: mixture, components: [{weight: 0.9, dist: ..., ...}, ...]}` with normalised weights.
    public var description: String {
        "{" + descriptionFields + "}"
    }

    private var descriptionFields: String {
        switch self {
        case .mixture(let mixture):
            let parts = mixture.components.map { "{weight: \($0.weight), \($0.distribution.descriptionFields)}" }
            return "dist: mixture, components: [" + parts.joined(separator: ", ") + "]"
        default:
            let fields = parameterValues.map { "\($0.name): \($0.value)" }
            return (["dist: \(family)"] + fields).joined(separator: ", ")
        }
    }

    /// The family name used by ``init(family:parameters:)`` and in ``description``.
    public var family: String {
        switch self {
        case .constant: "constant"
        case .uniform: "uniform"
        case .normal: "normal"
        case .lognormal: "lognormal"
        case .gamma: "gamma"
        case .weibull: "weibull"
        case .exponential: "exponential"
        case .exgaussian: "exgaussian"
        case .loglogistic: "loglogistic"
        case .mixture: "mixture"
        }
    }

    /// The canonical (name, value) pairs, in ``parameterNames(of:)`` order (lognormal: mu, sigma).
    private var parameterValues: [(name: String, value: Double)] {
        switch self {
        case .constant(let value): [("value", value)]
        case .uniform(let min, let max): [("min", min), ("max", max)]
        case .normal(let mean, let sd): [("mean", mean), ("sd", sd)]
        case .lognormal(let mu, let sigma): [("mu", mu), ("sigma", sigma)]
        case .gamma(let shape, let scale): [("shape", shape), ("scale", scale)]
        case .weibull(let shape, let scale): [("shape", shape), ("scale", scale)]
        case .exponential(let mean): [("mean", mean)]
        case .exgaussian(let mu, let sigma, let tau): [("mu", mu), ("sigma", sigma), ("tau", tau)]
        case .loglogistic(let scale, let shape): [("scale", scale), ("shape", shape)]
        case .mixture: []
        }
    }
}
