import Foundation
import GSL

/// One family fitted to one sample by maximum likelihood.
public struct FamilyFit: Sendable {
    /// The family fitted.
    public let family: FitFamily
    /// The maximum-likelihood estimates, in ``FitFamily/parameterNames`` order (GSL's parameterisation).
    public let parameters: [Double]
    /// Asymptotic standard errors: square roots of the diagonal of ``covariance``; all NaN when the observed
    /// information is not positive definite (the optimum is on a boundary or the surface is flat there).
    public let standardErrors: [Double]
    /// The inverse of the observed information (the numerical Hessian of −ℓ at the optimum, in the natural
    /// parameters), or nil when that Hessian is not positive definite.
    public let covariance: [[Double]]?
    /// The maximised log-likelihood ℓ: Σ ln f(xᵢ) over observed rows + Σ ln S(cᵢ) over censored rows.
    public let logLikelihood: Double
    /// The number of rows n (observed and censored).
    public let count: Int
    /// The number of censored rows.
    public let censoredCount: Int
    /// The Kolmogorov–Smirnov distance between the data (Kaplan–Meier when censored) and the fitted CDF; see
    /// ``GoodnessOfFit/ksStatistic(_:cdf:)``.
    public let ksStatistic: Double
    /// The parametric-bootstrap p-value of ``ksStatistic``, or nil when no bootstrap was run.
    public let ksPValue: Double?
    /// Whether the polishing Nelder–Mead run converged (or stalled at the likelihood's floating-point resolution,
    /// which is as converged as the likelihood can tell).
    public let converged: Bool
    /// Nelder–Mead iterations over both runs.
    public let iterations: Int

    /// The fitted distribution.
    public var distribution: Distribution {
        family.distribution(parameters) ?? .constant(value: .nan)
    }

    /// Akaike's information criterion 2k − 2ℓ (k = ``FitFamily/parameterCount``); lower is better.
    public var aic: Double { 2 * Double(family.parameterCount) - 2 * logLikelihood }

    /// The Bayesian information criterion k ln n − 2ℓ; lower is better.
    public var bic: Double { Double(family.parameterCount) * log(Double(count)) - 2 * logLikelihood }

    /// The estimate of the parameter called `name` (``FitFamily/parameterNames``), or nil if the family lacks it.
    public func value(of name: String) -> Double? {
        family.parameterNames.firstIndex(of: name).map { parameters[$0] }
    }

    /// The standard error of the parameter called `name`, or nil if the family lacks it.
    public func standardError(of name: String) -> Double? {
        family.parameterNames.firstIndex(of: name).map { standardErrors[$0] }
    }

    /// The same fit with a bootstrap p-value.
    func with(pValue: Double) -> FamilyFit {
        FamilyFit(family: family, parameters: parameters, standardErrors: standardErrors, covariance: covariance,
                  logLikelihood: logLikelihood, count: count, censoredCount: censoredCount, ksStatistic: ksStatistic,
                  ksPValue: pValue, converged: converged, iterations: iterations)
    }
}

/// Maximum-likelihood fitting of ``FitFamily`` distributions to positive, possibly right-censored durations.
///
/// The method, per family:
/// 1. Starting values from moments (``FitFamily`` documents each), censored times taken at face value.
/// 2. Nelder–Mead (``Minimization/nelderMead(start:steps:sizeTolerance:maxIterations:_:)``) on −ℓ over
///    unconstrained coordinates: logs of positive parameters, a lognormal `zeta` as is, an exgaussian `mu` in units
///    of the sample's standard deviation. Steps ``initialStep``, then a restart from the optimum with steps
///    ``polishStep`` (Nelder–Mead can settle on a non-minimum; a fresh simplex there either confirms or escapes).
/// 3. Standard errors from the observed information: the inverse (Cholesky, ``LinearAlgebra``) of the central
///    difference Hessian of −ℓ at the optimum in the natural parameters, with steps ``hessianRelativeStep`` times
///    each parameter's scale (itself for positive parameters; sigma for a lognormal zeta; √(σ² + τ²) for an
///    exgaussian mu). Not positive definite: NaN standard errors.
/// 4. The KS distance to the fitted CDF (``GoodnessOfFit``).
public enum DistributionFitting {
    /// The first Nelder–Mead simplex: 0.1 in every unconstrained coordinate, i.e. ±10 % in a positive parameter.
    public static let initialStep = 0.1
    /// The polishing restart's simplex: 0.02 (±2 %), well beyond the remaining error yet local.
    public static let polishStep = 0.02
    /// The simplex size at which a run stops. Coordinates are logs or spreads, and standard errors in them are about
    /// 1/√n ≥ 1e-3 for n ≤ 10⁶, so 1e-7 leaves the optimiser's error 10⁴ times below the statistical one; the
    /// likelihood itself resolves about √(ε·|ℓ|/ℓ″) ≈ 1.5e-8 there, so a run that cannot reach 1e-7 stops as stalled.
    public static let sizeTolerance = 1e-7
    /// Iterations allowed per Nelder–Mead run (measured: 100–300 for the families here at n = 2,000).
    public static let maxIterations = 5_000
    /// Central-difference step for the Hessian, relative to each parameter's scale. Truncation error is
    /// O(h²) ≈ 1e-8 relative; rounding error is about 4ε|ℓ|/(h²·ℓ″) ≈ 1e-7·|ℓ/n| relative (ℓ″ ≈ n/scale²).
    /// Both are far below 1 % of a standard error.
    public static let hessianRelativeStep = 1e-4

    /// Fits `family` to `sample`: estimates, standard errors, ℓ, AIC, BIC and the KS distance (no bootstrap).
    ///
    /// Throws ``FitError`` (kind ``FitError/Kind/fitFailed``) when −ℓ is not finite anywhere on the first simplex or
    /// is unbounded below (a degenerate sample).
    public static func fit(_ family: FitFamily, to sample: FitSample) throws(FitError) -> FamilyFit {
        let likelihood = LogLikelihood(sample)
        let estimate = try maximize(family, likelihood: likelihood, start: nil)
        let (standardErrors, covariance) = observedInformationErrors(family, likelihood: likelihood,
                                                                      estimate: estimate.parameters)
        let ks: Double
        if let distribution = family.distribution(estimate.parameters) {
            ks = GoodnessOfFit.ksStatistic(sample, cdf: distribution.cdf)
        } else {
            ks = .nan
        }
        return FamilyFit(
            family: family, parameters: estimate.parameters, standardErrors: standardErrors, covariance: covariance,
            logLikelihood: estimate.logLikelihood, count: sample.count, censoredCount: sample.censoredCount,
            ksStatistic: ks, ksPValue: nil, converged: estimate.converged, iterations: estimate.iterations)
    }

    /// The result of the two Nelder–Mead runs.
    struct Estimate {
        var parameters: [Double]
        var logLikelihood: Double
        var converged: Bool
        var iterations: Int
    }

    /// The simplex size at which a bootstrap refit stops. A refit only feeds its KS distance D_b, which moves by
    /// about the parameters' relative error: 1e-5 is far below D's own sampling spread (≥ 1e-3 for n ≤ 10⁶).
    public static let bootstrapSizeTolerance = 1e-5

    /// A bootstrap refit from the original estimate (the truth of the bootstrap world): one Nelder–Mead run with
    /// steps ``polishStep`` and tolerance ``bootstrapSizeTolerance``.
    static func refit(_ family: FitFamily, likelihood: LogLikelihood, from estimate: [Double]) throws(FitError) -> [Double] {
        let moments = SampleMoments(likelihood.allTimes)
        let spread = moments.variance.squareRoot()
        let parameterization = Parameterization(family: family, timeScale: spread > 0 ? spread : 1)
        let objective: ([Double]) -> Double = { u in
            guard let distribution = family.distribution(parameterization.natural(u)) else { return .nan }
            return -likelihood(distribution)
        }
        let u0 = parameterization.unconstrained(estimate)
        let result: Minimization.Result
        do {
            result = try Minimization.nelderMead(
                start: u0, steps: u0.map { _ in polishStep }, sizeTolerance: bootstrapSizeTolerance,
                maxIterations: maxIterations, objective)
        } catch {
            throw FitError(.fitFailed, "\(family.rawValue): \(error)")
        }
        guard result.value.isFinite else { throw FitError(.fitFailed, "\(family.rawValue): the likelihood is unbounded") }
        return parameterization.natural(result.point)
    }

    /// Maximises ℓ from `start` (natural parameters) or, when nil, from the moment-based start.
    static func maximize(_ family: FitFamily, likelihood: LogLikelihood, start: [Double]?) throws(FitError) -> Estimate {
        let moments = SampleMoments(likelihood.allTimes)
        let spread = moments.variance.squareRoot()
        let parameterization = Parameterization(family: family, timeScale: spread > 0 ? spread : 1)
        let u0 = parameterization.unconstrained(start ?? moments.start(for: family))
        let objective: ([Double]) -> Double = { u in
            guard let distribution = family.distribution(parameterization.natural(u)) else { return .nan }
            return -likelihood(distribution)
        }
        let steps = [Double](repeating: initialStep, count: u0.count)
        let first: Minimization.Result
        let second: Minimization.Result
        do {
            first = try Minimization.nelderMead(start: u0, steps: steps, sizeTolerance: sizeTolerance,
                                                maxIterations: maxIterations, objective)
            second = try Minimization.nelderMead(start: first.point, steps: steps.map { _ in polishStep },
                                                 sizeTolerance: sizeTolerance, maxIterations: maxIterations, objective)
        } catch {
            let startText = parameterization.natural(u0).map { "\($0)" }.joined(separator: ", ")
            throw FitError(.fitFailed, "\(family.rawValue): the log-likelihood is not finite near the starting values "
                           + "(\(startText)): \(error)")
        }
        let best = second.value <= first.value ? second : first
        guard best.value.isFinite else {
            throw FitError(.fitFailed, "\(family.rawValue): the likelihood is unbounded (a degenerate sample)")
        }
        return Estimate(parameters: parameterization.natural(best.point), logLikelihood: -best.value,
                        converged: second.converged || second.stalled, iterations: first.iterations + second.iterations)
    }

    /// Standard errors and covariance from the inverse of the numerical Hessian of −ℓ at `estimate`.
    static func observedInformationErrors(
        _ family: FitFamily, likelihood: LogLikelihood, estimate: [Double]
    ) -> (standardErrors: [Double], covariance: [[Double]]?) {
        let k = estimate.count
        let unavailable = ([Double](repeating: .nan, count: k), [[Double]]?.none)
        let negative: ([Double]) -> Double = { theta in
            guard let distribution = family.distribution(theta) else { return .nan }
            return -likelihood(distribution)
        }
        let steps = hessianSteps(family, estimate: estimate)
        let centre = negative(estimate)
        var hessian = [[Double]](repeating: [Double](repeating: 0, count: k), count: k)
        func shifted(_ shifts: [(index: Int, sign: Double)]) -> Double {
            var theta = estimate
            for shift in shifts { theta[shift.index] += shift.sign * steps[shift.index] }
            return negative(theta)
        }
        for i in 0..<k {
            hessian[i][i] = (shifted([(i, 1)]) - 2 * centre + shifted([(i, -1)])) / (steps[i] * steps[i])
            for j in 0..<i {
                let value = (shifted([(i, 1), (j, 1)]) - shifted([(i, 1), (j, -1)])
                             - shifted([(i, -1), (j, 1)]) + shifted([(i, -1), (j, -1)])) / (4 * steps[i] * steps[j])
                hessian[i][j] = value
                hessian[j][i] = value
            }
        }
        guard centre.isFinite, hessian.allSatisfy({ $0.allSatisfy(\.isFinite) }),
              let covariance = try? LinearAlgebra.inverseOfPositiveDefinite(hessian) else { return unavailable }
        let errors = (0..<k).map { covariance[$0][$0] > 0 ? covariance[$0][$0].squareRoot() : Double.nan }
        guard errors.allSatisfy(\.isFinite) else { return unavailable }
        return (errors, covariance)
    }

    /// Central-difference steps: ``hessianRelativeStep`` times each parameter's natural scale.
    static func hessianSteps(_ family: FitFamily, estimate: [Double]) -> [Double] {
        estimate.indices.map { index in
            let scale: Double
            switch (family, index) {
            case (.lognormal, 0): scale = estimate[1]
            case (.exgaussian, 0): scale = (estimate[1] * estimate[1] + estimate[2] * estimate[2]).squareRoot()
            default: scale = abs(estimate[index])
            }
            return hessianRelativeStep * scale
        }
    }
}

/// ℓ(θ) = Σ ln f(xᵢ) over observed times + Σ ln S(cⱼ) over censoring times, with `Distribution.logPDF` and
/// `Distribution.logSurvival` (accurate far into the tails).
///
/// Equal times are grouped and evaluated once, times their count: a fixed trigger censors every long hold at the
/// same instant, so the censored part of ℓ costs one ln S call instead of thousands (and times rounded to the
/// microsecond repeat often in large files).
struct LogLikelihood: Sendable {
    /// Distinct observed times and how often each occurs, in increasing order.
    let observed: [(time: Double, count: Double)]
    /// Distinct censoring times and how often each occurs, in increasing order.
    let censored: [(time: Double, count: Double)]
    /// Every time, censored ones at face value (for starting values).
    let allTimes: [Double]

    init(_ sample: FitSample) {
        observed = Self.grouped(sample.observedTimes)
        censored = Self.grouped(sample.censoringTimes)
        allTimes = sample.times
    }

    private static func grouped(_ times: [Double]) -> [(time: Double, count: Double)] {
        var groups: [(time: Double, count: Double)] = []
        for time in times.sorted() {
            if let last = groups.last, last.time == time {
                groups[groups.count - 1].count += 1
            } else {
                groups.append((time, 1))
            }
        }
        return groups
    }

    func callAsFunction(_ distribution: Distribution) -> Double {
        var sum = 0.0
        for group in observed { sum += group.count * distribution.logPDF(group.time) }
        for group in censored { sum += group.count * distribution.logSurvival(group.time) }
        return sum
    }
}
