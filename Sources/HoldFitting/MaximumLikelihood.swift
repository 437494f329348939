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
    /// The Monte Carlo standard error of ``ksPValue``, √(p(1 − p)/B), or nil without a bootstrap.
    public let ksPValueStandardError: Double?
    /// Whether the polishing Nelder–Mead run converged (or stalled at the likelihood's floating-point resolution,
    /// which is as converged as the likelihood can tell); true when an exact estimator or Newton's method answered.
    public let converged: Bool
    /// Nelder–Mead iterations over both runs (0 when an exact estimator answered).
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

    /// The same fit with a bootstrap p-value from `replicates` replicates, and its Monte Carlo standard error.
    func with(pValue: Double, replicates: Int) -> FamilyFit {
        let error = replicates > 0 && pValue.isFinite ? (pValue * (1 - pValue) / Double(replicates)).squareRoot() : .nan
        return FamilyFit(family: family, parameters: parameters, standardErrors: standardErrors, covariance: covariance,
                         logLikelihood: logLikelihood, count: count, censoredCount: censoredCount,
                         ksStatistic: ksStatistic, ksPValue: pValue, ksPValueStandardError: error,
                         converged: converged, iterations: iterations)
    }
}

/// Maximum-likelihood fitting of ``FitFamily`` distributions to positive, possibly right-censored durations.
///
/// The method, per family:
/// 1. The sample is prepared once (``LogLikelihood``): equal times grouped, logs taken, sufficient statistics summed.
/// 2. Exact estimators where they exist (``ExactEstimators``): the lognormal's closed form and the gamma's profile
///    root without censoring, the weibull's profile root with or without censoring.
/// 3. Otherwise Nelder–Mead (``Minimization/nelderMead(start:steps:sizeTolerance:maxIterations:_:)``) on −ℓ over
///    unconstrained coordinates: logs of positive parameters, a lognormal `zeta` as is, an exgaussian `mu` in units
///    of the sample's standard deviation. Steps ``initialStep``, then a restart from the optimum with steps
///    ``polishStep`` (Nelder–Mead can settle on a non-minimum; a fresh simplex there either confirms or escapes).
///    With more than ``directLimit`` distinct times, these run Nelder–Mead on a quantile subsample of
///    ``subsampleSize`` rows (``LogLikelihood/quantileSubsample(_:)``) and finish with Newton's method on the whole
///    sample (``ExactEstimators/newtonWithHessian(_:_:start:)``): analytic derivatives for the loglogistic, the
///    censored lognormal and the uncensored exgaussian, central differences for a censored gamma or exgaussian; a
///    few passes instead of hundreds. If Newton fails, Nelder–Mead polishes on the whole sample.
/// 4. Standard errors from the observed information: the inverse (Cholesky, ``LinearAlgebra``) of the central
///    difference Hessian of −ℓ at the optimum in the natural parameters, with steps ``hessianRelativeStep`` times
///    each parameter's scale (itself for positive parameters; sigma for a lognormal zeta; √(σ² + τ²) for an
///    exgaussian mu). Not positive definite: NaN standard errors. Where Newton's method finished the fit, its
///    analytic Hessian is used instead.
/// 5. The KS distance to the fitted CDF (``GoodnessOfFit``).
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
    /// Up to this many distinct times, families without an exact estimator are fitted by Nelder–Mead on the whole
    /// sample (a few hundred passes over 5,000 values: a tenth of a second); beyond it, Nelder–Mead runs on a
    /// quantile subsample of ``subsampleSize`` rows and Newton's method finishes on the whole sample.
    public static let directLimit = 5_000
    /// The quantile subsample on which Nelder–Mead finds Newton's starting point beyond ``directLimit``: estimates
    /// from 5,000 rows are within a few per cent, well inside Newton's basin for these families.
    public static let subsampleSize = 5_000

    /// Fits `family` to `sample`: estimates, standard errors, ℓ, AIC, BIC and the KS distance (no bootstrap).
    ///
    /// Throws ``FitError`` (kind ``FitError/Kind/fitFailed``) when −ℓ is not finite anywhere on the first simplex or
    /// is unbounded below (a degenerate sample).
    public static func fit(_ family: FitFamily, to sample: FitSample) throws(FitError) -> FamilyFit {
        try fit(family, to: PreparedSample(sample))
    }

    /// Fits `family` to a sample prepared once for every family.
    static func fit(_ family: FitFamily, to prepared: PreparedSample) throws(FitError) -> FamilyFit {
        let likelihood = prepared.likelihood
        let estimate = try maximize(family, likelihood: likelihood)
        let (standardErrors, covariance) = estimate.hessian.map { analyticErrors(negativeHessian: $0.map { $0.map { -$0 } }) }
            ?? observedInformationErrors(family, likelihood: likelihood, estimate: estimate.parameters)
        let ks: Double
        if let distribution = family.distribution(estimate.parameters) {
            ks = GoodnessOfFit.ksStatistic(prepared.kaplanMeier, cdf: distribution.cdf)
        } else {
            ks = .nan
        }
        return FamilyFit(
            family: family, parameters: estimate.parameters, standardErrors: standardErrors, covariance: covariance,
            logLikelihood: estimate.logLikelihood, count: prepared.sample.count,
            censoredCount: prepared.sample.censoredCount, ksStatistic: ks, ksPValue: nil, ksPValueStandardError: nil,
            converged: estimate.converged, iterations: estimate.iterations)
    }

    /// The result of a maximisation.
    struct Estimate {
        var parameters: [Double]
        var logLikelihood: Double
        var converged: Bool
        /// Nelder–Mead iterations (0 when an exact estimator answered).
        var iterations: Int
        /// The analytic Hessian of ℓ at the estimate, when Newton's method found it.
        var hessian: [[Double]]? = nil
    }

    /// The simplex size at which a bootstrap refit stops. A refit only feeds its KS distance D_b, which moves by
    /// about the parameters' relative error: 1e-5 is far below D's own sampling spread (≥ 1e-3 for n ≤ 10⁶).
    public static let bootstrapSizeTolerance = 1e-5

    /// A bootstrap refit from the original estimate (the truth of the bootstrap world): the exact estimator where
    /// there is one, Newton's method from `estimate` where the family has analytic derivatives, otherwise one
    /// Nelder–Mead run with steps ``polishStep`` and tolerance ``bootstrapSizeTolerance``.
    static func refit(_ family: FitFamily, likelihood: LogLikelihood, from estimate: [Double]) throws(FitError) -> [Double] {
        if let exact = exactEstimate(family, likelihood: likelihood, start: estimate) { return exact }
        if let polished = ExactEstimators.newton(family, likelihood, start: estimate) { return polished }
        let spread = likelihood.moments.variance.squareRoot()
        let parameterization = Parameterization(family: family, timeScale: spread > 0 ? spread : 1)
        let objective: ([Double]) -> Double = { u in -likelihood.value(family, parameterization.natural(u)) }
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

    /// The closed form or profile-likelihood root for `family`, when it has one for this sample.
    static func exactEstimate(_ family: FitFamily, likelihood: LogLikelihood, start: [Double]?) -> [Double]? {
        switch family {
        case .lognormal: ExactEstimators.lognormal(likelihood)
        case .gamma: ExactEstimators.gamma(likelihood)
        case .weibull: ExactEstimators.weibull(likelihood, start: start?[0] ?? likelihood.moments.start(for: .weibull)[0])
        case .exgaussian, .loglogistic: nil
        }
    }

    /// Maximises ℓ: exactly where possible, else Nelder–Mead (on a subsample first for large samples, then Newton).
    static func maximize(_ family: FitFamily, likelihood: LogLikelihood) throws(FitError) -> Estimate {
        if let exact = exactEstimate(family, likelihood: likelihood, start: nil) {
            let value = likelihood.value(family, exact)
            if value.isFinite { return Estimate(parameters: exact, logLikelihood: value, converged: true, iterations: 0) }
        }
        guard likelihood.groupCount > directLimit else {
            return try nelderMead(family, likelihood: likelihood, start: nil)
        }
        let subsample = LogLikelihood(likelihood.quantileSubsample(subsampleSize))
        let rough = try nelderMead(family, likelihood: subsample, start: nil)
        if let polished = ExactEstimators.newtonWithHessian(family, likelihood, start: rough.parameters) {
            let value = likelihood.value(family, polished.theta)
            if value.isFinite {
                return Estimate(parameters: polished.theta, logLikelihood: value, converged: true,
                                iterations: rough.iterations, hessian: polished.hessian)
            }
        }
        return try nelderMead(family, likelihood: likelihood, start: rough.parameters)
    }

    /// Two Nelder–Mead runs from `start` (natural parameters) or, when nil, from the moment-based start.
    static func nelderMead(_ family: FitFamily, likelihood: LogLikelihood, start: [Double]?) throws(FitError) -> Estimate {
        let moments = likelihood.moments
        let spread = moments.variance.squareRoot()
        let parameterization = Parameterization(family: family, timeScale: spread > 0 ? spread : 1)
        let u0 = parameterization.unconstrained(start ?? moments.start(for: family))
        let objective: ([Double]) -> Double = { u in -likelihood.value(family, parameterization.natural(u)) }
        let steps = [Double](repeating: start == nil ? initialStep : polishStep, count: u0.count)
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
        observedInformation({ theta in -likelihood.value(family, theta) }, at: estimate,
                            steps: hessianSteps(family, estimate: estimate))
    }

    /// Standard errors and covariance from the inverse of the central-difference Hessian of `negative` (−ℓ) at
    /// `estimate`, with the given step per coordinate; NaN errors and no covariance when the Hessian is not finite or
    /// not positive definite (a parameter the data do not determine).
    static func observedInformation(
        _ negative: ([Double]) -> Double, at estimate: [Double], steps: [Double]
    ) -> (standardErrors: [Double], covariance: [[Double]]?) {
        let k = estimate.count
        let unavailable = ([Double](repeating: .nan, count: k), [[Double]]?.none)
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

    /// Standard errors and covariance from the analytic observed information (−Hessian of ℓ), when Newton's method
    /// supplied it: the same quantity as ``observedInformationErrors(_:likelihood:estimate:)`` without 9 to 19 more
    /// passes over a large sample.
    static func analyticErrors(negativeHessian: [[Double]]) -> (standardErrors: [Double], covariance: [[Double]]?) {
        let k = negativeHessian.count
        guard negativeHessian.allSatisfy({ $0.allSatisfy(\.isFinite) }),
              let covariance = try? LinearAlgebra.inverseOfPositiveDefinite(negativeHessian) else {
            return ([Double](repeating: .nan, count: k), nil)
        }
        let errors = (0..<k).map { covariance[$0][$0] > 0 ? covariance[$0][$0].squareRoot() : Double.nan }
        guard errors.allSatisfy(\.isFinite) else { return ([Double](repeating: .nan, count: k), nil) }
        return (errors, covariance)
    }

    /// Central-difference steps: ``hessianRelativeStep`` times each parameter's natural scale.
    static func hessianSteps(_ family: FitFamily, estimate: [Double]) -> [Double] {
        ExactEstimators.parameterScales(family, estimate).map { hessianRelativeStep * $0 }
    }
}

/// A sample prepared once for every family and every step: the grouped likelihood, the Kaplan–Meier steps for KS
/// distances, and the censoring distribution for bootstrap draws.
struct PreparedSample: Sendable {
    let sample: FitSample
    let likelihood: LogLikelihood
    let kaplanMeier: [KaplanMeierStep]
    let censoring: CensoringDistribution

    init(_ sample: FitSample) {
        self.sample = sample
        likelihood = LogLikelihood(sample)
        kaplanMeier = GoodnessOfFit.kaplanMeierSteps(likelihood)
        censoring = CensoringDistribution(likelihood)
    }
}

/// ℓ(θ) = Σ ln f(xᵢ) over observed times + Σ ln S(cⱼ) over censoring times, with `Distribution.logPDF` and
/// `Distribution.logSurvival` (accurate far into the tails).
///
/// Built once per sample: equal times are grouped and evaluated once, times their count (a fixed trigger censors
/// every long hold at the same instant, so the censored part of ℓ costs one ln S call instead of thousands), logs are
/// taken once, and the sufficient statistics of the observed part are summed once, so that ``value(_:_:)`` costs
/// O(1) plus the censored groups for lognormal and gamma, one `exp` per group for weibull, and one pass for the
/// families without sufficient statistics (exgaussian, loglogistic).
struct LogLikelihood: Sendable {
    /// Distinct observed times, increasing, with how often each occurs and its log.
    let observedTimes: [Double]
    let observedCounts: [Double]
    let observedLogs: [Double]
    /// Distinct censoring times, increasing, with counts and logs.
    let censoredTimes: [Double]
    let censoredCounts: [Double]
    let censoredLogs: [Double]
    /// Observed rows n₀ (Σ of counts), and Σ ln x, Σ x, the mean of ln x and Σ (ln x − mean)² over them.
    let observedCount: Double
    let sumLog: Double
    let sum: Double
    let meanLog: Double
    let centredLogSquares: Double
    /// Moments of every time, censored ones at face value (starting values only).
    let moments: SampleMoments

    init(_ sample: FitSample) {
        var observed: [Double] = []
        var censored: [Double] = []
        observed.reserveCapacity(sample.count - sample.censoredCount)
        for (time, flag) in zip(sample.times, sample.censored) {
            if flag { censored.append(time) } else { observed.append(time) }
        }
        (observedTimes, observedCounts) = Self.grouped(observed)
        (censoredTimes, censoredCounts) = Self.grouped(censored)
        observedLogs = observedTimes.map { log($0) }
        censoredLogs = censoredTimes.map { log($0) }
        var count = 0.0
        var sumLog = 0.0
        var sum = 0.0
        for index in observedTimes.indices {
            count += observedCounts[index]
            sumLog += observedCounts[index] * observedLogs[index]
            sum += observedCounts[index] * observedTimes[index]
        }
        let meanLog = count > 0 ? sumLog / count : 0
        var squares = 0.0
        for index in observedTimes.indices {
            let d = observedLogs[index] - meanLog
            squares += observedCounts[index] * d * d
        }
        observedCount = count
        self.sumLog = sumLog
        self.sum = sum
        self.meanLog = meanLog
        centredLogSquares = squares
        moments = SampleMoments(sample.times)
    }

    /// Whether no row is censored.
    var isUncensored: Bool { censoredTimes.isEmpty }
    /// Distinct times, observed and censored.
    var groupCount: Int { observedTimes.count + censoredTimes.count }
    /// Every row, observed and censored.
    var totalCount: Double { observedCount + censoredCounts.reduce(0, +) }

    private static func grouped(_ times: [Double]) -> (times: [Double], counts: [Double]) {
        var values: [Double] = []
        var counts: [Double] = []
        for time in times.sorted() {
            if let last = values.last, last == time {
                counts[counts.count - 1] += 1
            } else {
                values.append(time)
                counts.append(1)
            }
        }
        return (values, counts)
    }

    /// ℓ for any distribution, one `logPDF` or `logSurvival` call per group.
    func callAsFunction(_ distribution: Distribution) -> Double {
        var sum = 0.0
        for index in observedTimes.indices { sum += observedCounts[index] * distribution.logPDF(observedTimes[index]) }
        for index in censoredTimes.indices { sum += censoredCounts[index] * distribution.logSurvival(censoredTimes[index]) }
        return sum
    }

    /// ℓ at natural parameters `theta` of `family`, or NaN when they are not valid (see ``FitFamily/distribution(_:)``).
    ///
    /// The same function as ``callAsFunction(_:)``, summed in another order: lognormal −Σ ln x − n₀(ln σ + ln √2π)
    /// − (Σ(ln x − m)² + n₀(m − ζ)²)/(2σ²); gamma (k − 1)(Σ ln x − n₀ ln θ) − Σx/θ − n₀(ln Γ(k) + ln θ); weibull
    /// n₀ ln(k/λ) + (k − 1)(Σ ln x − n₀ ln λ) − Σ over all rows (x/λ)^k; censored rows add ln S for lognormal and gamma.
    func value(_ family: FitFamily, _ theta: [Double]) -> Double {
        guard let distribution = family.distribution(theta) else { return .nan }
        var censoredPart = 0.0
        switch family {
        case .lognormal, .gamma:
            for index in censoredTimes.indices {
                censoredPart += censoredCounts[index] * distribution.logSurvival(censoredTimes[index])
            }
        case .weibull, .exgaussian, .loglogistic:
            break
        }
        switch family {
        case .lognormal:
            let (zeta, sigma) = (theta[0], theta[1])
            let shift = meanLog - zeta
            return -sumLog - observedCount * (log(sigma) + Self.logSqrtTwoPi)
                - (centredLogSquares + observedCount * shift * shift) / (2 * sigma * sigma) + censoredPart
        case .gamma:
            let (shape, scale) = (theta[0], theta[1])
            let logScale = log(scale)
            guard let logGamma = try? SpecialFunctions.logGamma(shape) else { return .nan }
            return (shape - 1) * (sumLog - observedCount * logScale) - sum / scale
                - observedCount * (logGamma + logScale) + censoredPart
        case .weibull:
            let (shape, scale) = (theta[0], theta[1])
            let logScale = log(scale)
            var powers = 0.0
            for index in observedLogs.indices { powers += observedCounts[index] * exp(shape * (observedLogs[index] - logScale)) }
            for index in censoredLogs.indices { powers += censoredCounts[index] * exp(shape * (censoredLogs[index] - logScale)) }
            return observedCount * (log(shape) - logScale) + (shape - 1) * (sumLog - observedCount * logScale) - powers
        case .loglogistic:
            let (logScale, shape) = (log(theta[0]), theta[1])
            var total = observedCount * log(shape) - sumLog
            for index in observedLogs.indices {
                let t = shape * (observedLogs[index] - logScale)
                // softplus(−t) + softplus(t) = |t| + 2 ln(1 + e^(−|t|)).
                total -= observedCounts[index] * (abs(t) + 2 * log1p(exp(-abs(t))))
            }
            for index in censoredLogs.indices {
                let t = shape * (censoredLogs[index] - logScale)
                total -= censoredCounts[index] * (t > 0 ? t + log1p(exp(-t)) : log1p(exp(t)))
            }
            return total
        case .exgaussian:
            return self(distribution)
        }
    }

    /// ln √(2π).
    static let logSqrtTwoPi = 0.918_938_533_204_672_8

    /// A deterministic subsample of about `size` rows for starting values: the rows at ranks (j + ½)·n/size of the
    /// observed times, and likewise of the censoring times, so both keep their shares and their spread.
    func quantileSubsample(_ size: Int) -> FitSample {
        let total = totalCount
        var times: [Double] = []
        var flags: [Bool] = []
        func take(_ values: [Double], _ counts: [Double], censored: Bool) {
            let rows = counts.reduce(0, +)
            let wanted = Int((Double(size) * rows / total).rounded(.up))
            guard rows > 0, wanted > 0 else { return }
            var group = 0
            var cumulative = counts.first ?? 0
            for j in 0..<wanted {
                let rank = (Double(j) + 0.5) * rows / Double(wanted)
                while cumulative <= rank, group + 1 < values.count {
                    group += 1
                    cumulative += counts[group]
                }
                times.append(values[group])
                flags.append(censored)
            }
        }
        take(observedTimes, observedCounts, censored: false)
        take(censoredTimes, censoredCounts, censored: true)
        return FitSample(unchecked: times, censored: flags)
    }
}
