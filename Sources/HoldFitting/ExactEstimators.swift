import Foundation
import GSL

/// Maximum-likelihood estimates without a general optimiser: closed forms, one-dimensional root finding on the
/// profile likelihood, and Newton's method with analytic derivatives. Each returns nil when it cannot vouch for its
/// answer; the caller then uses Nelder–Mead (``DistributionFitting``).
///
/// - lognormal, uncensored: ζ = mean of ln x, σ² = mean of (ln x − ζ)² (the textbook MLE).
/// - gamma, uncensored: the shape solves ln k − ψ(k) = ln x̄ − mean(ln x) (ψ the digamma function, `gsl_sf_psi`), a
///   strictly decreasing function of k from +∞ to 0, found by Brent's method (`gsl_root_fsolver_brent`) inside a
///   bracket grown from Minka's approximation (3 − s + √((s − 3)² + 24s))/(12s); then θ = x̄/k. SciPy's
///   `gamma.fit(x, floc=0)` solves the same equation.
/// - weibull, censored or not: for fixed k the MLE of λ is (Σ x^k / n₀)^(1/k) over all rows (n₀ the observed
///   rows), and the profile score Σ x^k ln x / Σ x^k − 1/k − (Σ ln x over observed rows)/n₀ is increasing in k; its
///   root is found by Brent's method. Powers are taken as e^(k(ln x − max ln x)) so nothing overflows. SciPy's
///   `weibull_min.fit(x, floc=0)` maximises the same likelihood.
/// - loglogistic (censored or not), lognormal with censoring, exgaussian without: Newton's method in the natural
///   parameters with the analytic gradient and Hessian of ℓ, step halving until ℓ does not decrease, stopping when
///   every step is below ``newtonRelativeStep`` of its parameter's scale. One pass over the distinct times per
///   iteration. Other families (a censored gamma or exgaussian) use central differences of ℓ instead.
enum ExactEstimators {
    /// Brent's bracket tolerance on a shape parameter, relative: 1e-13, far below the 1e-6 at which a fit's printed
    /// nine digits or its standard error (≥ 1e-3 relative for n ≤ 10⁶) could notice.
    static let rootRelativeTolerance = 1e-13
    /// Newton stops when every step is below 1e-10 of its parameter's scale (quadratic convergence makes the
    /// remaining error ~1e-20).
    static let newtonRelativeStep = 1e-10
    /// Newton iterations allowed; from a Nelder–Mead start 3 to 5 are typical.
    static let newtonMaxIterations = 60

    // MARK: Closed forms and profile likelihoods

    /// The lognormal MLE (ζ, σ) of an uncensored sample.
    static func lognormal(_ likelihood: LogLikelihood) -> [Double]? {
        guard likelihood.isUncensored, likelihood.observedCount > 0 else { return nil }
        let sigma = (likelihood.centredLogSquares / likelihood.observedCount).squareRoot()
        guard sigma > 0, sigma.isFinite else { return nil }
        return [likelihood.meanLog, sigma]
    }

    /// The gamma MLE (k, θ) of an uncensored sample.
    static func gamma(_ likelihood: LogLikelihood) -> [Double]? {
        guard likelihood.isUncensored, likelihood.observedCount > 0 else { return nil }
        let mean = likelihood.sum / likelihood.observedCount
        let s = log(mean) - likelihood.meanLog
        guard s > 0, s.isFinite else { return nil }
        let score: (Double) -> Double = { k in
            guard let psi = try? SpecialFunctions.digamma(k) else { return .nan }
            return log(k) - psi - s
        }
        let guess = (3 - s + ((s - 3) * (s - 3) + 24 * s).squareRoot()) / (12 * s)
        guard let shape = root(of: score, near: guess, increasing: false) else { return nil }
        return [shape, mean / shape]
    }

    /// The weibull MLE (k, λ), with censoring or without.
    static func weibull(_ likelihood: LogLikelihood, start: Double) -> [Double]? {
        guard likelihood.observedCount > 0 else { return nil }
        let logs = likelihood.observedLogs + likelihood.censoredLogs
        let counts = likelihood.observedCounts + likelihood.censoredCounts
        guard let largest = logs.max() else { return nil }
        let observedMeanLog = likelihood.meanLog
        // Σ c·e^(k·y) and Σ c·e^(k·y)·y with y = ln x − max ln x ≤ 0.
        func sums(_ k: Double) -> (powers: Double, weighted: Double) {
            var powers = 0.0
            var weighted = 0.0
            for index in logs.indices {
                let y = logs[index] - largest
                let term = counts[index] * exp(k * y)
                powers += term
                weighted += term * y
            }
            return (powers, weighted)
        }
        let score: (Double) -> Double = { k in
            let (powers, weighted) = sums(k)
            return weighted / powers + largest - 1 / k - observedMeanLog
        }
        guard let shape = root(of: score, near: start, increasing: true) else { return nil }
        let powers = sums(shape).powers
        let scale = exp(largest + log(powers / likelihood.observedCount) / shape)
        guard scale.isFinite, scale > 0 else { return nil }
        return [shape, scale]
    }

    /// The root of a monotone `score` on (0, ∞), bracketed by doubling or halving from `near`.
    private static func root(of score: (Double) -> Double, near: Double, increasing: Bool) -> Double? {
        guard near.isFinite, near > 0 else { return nil }
        var lower = near
        var upper = near
        let atGuess = score(near)
        guard atGuess.isFinite else { return nil }
        if atGuess == 0 { return near }
        // Below the root the score has the sign of −1 when increasing, +1 when decreasing.
        let guessIsBelow = (atGuess < 0) == increasing
        for _ in 0..<200 {
            if guessIsBelow {
                upper *= 2
                let value = score(upper)
                guard value.isFinite else { return nil }
                if (value < 0) != increasing || value == 0 { break }
                lower = upper
            } else {
                lower /= 2
                let value = score(lower)
                guard value.isFinite else { return nil }
                if (value < 0) == increasing || value == 0 { break }
                upper = lower
            }
        }
        return try? RootFinding.brent(lower: lower, upper: upper, absoluteTolerance: 0,
                                      relativeTolerance: rootRelativeTolerance, maxIterations: 300, score)
    }

    // MARK: Newton's method

    /// ℓ, its gradient and its Hessian at `theta`, or nil where not defined.
    typealias Derivatives = (value: Double, gradient: [Double], hessian: [[Double]])

    /// The analytic derivatives for the families that have them here (loglogistic, censored or not; lognormal with
    /// censoring; exgaussian without), or nil.
    static func derivatives(_ family: FitFamily, _ likelihood: LogLikelihood) -> (([Double]) -> Derivatives?)? {
        switch family {
        case .loglogistic: { loglogisticDerivatives(likelihood, $0) }
        case .lognormal: { lognormalDerivatives(likelihood, $0) }
        case .exgaussian: likelihood.isUncensored ? { exgaussianDerivatives(likelihood, $0) } : nil
        case .gamma, .weibull: nil
        }
    }

    /// Central differences of ℓ (``DistributionFitting/hessianSteps(_:estimate:)``, the standard errors' own steps):
    /// 2k + 1 + 2k(k − 1) evaluations, for families without analytic derivatives (a censored gamma or exgaussian).
    static func numericalDerivatives(_ family: FitFamily, _ likelihood: LogLikelihood, _ theta: [Double]) -> Derivatives? {
        let k = theta.count
        let steps = DistributionFitting.hessianSteps(family, estimate: theta)
        func f(_ shifts: [(index: Int, sign: Double)]) -> Double {
            var point = theta
            for shift in shifts { point[shift.index] += shift.sign * steps[shift.index] }
            return likelihood.value(family, point)
        }
        let value = f([])
        guard value.isFinite else { return nil }
        var gradient = [Double](repeating: 0, count: k)
        var hessian = [[Double]](repeating: [Double](repeating: 0, count: k), count: k)
        for i in 0..<k {
            let up = f([(i, 1)])
            let down = f([(i, -1)])
            gradient[i] = (up - down) / (2 * steps[i])
            hessian[i][i] = (up - 2 * value + down) / (steps[i] * steps[i])
            for j in 0..<i {
                let mixed = (f([(i, 1), (j, 1)]) - f([(i, 1), (j, -1)]) - f([(i, -1), (j, 1)]) + f([(i, -1), (j, -1)]))
                    / (4 * steps[i] * steps[j])
                hessian[i][j] = mixed
                hessian[j][i] = mixed
            }
        }
        guard gradient.allSatisfy(\.isFinite), hessian.allSatisfy({ $0.allSatisfy(\.isFinite) }) else { return nil }
        return (value, gradient, hessian)
    }

    /// Newton's method from `start`: the maximum, or nil when the Hessian is not negative definite along the way or ℓ
    /// cannot be increased while steps are still large. Analytic derivatives only (bootstrap refits).
    static func newton(_ family: FitFamily, _ likelihood: LogLikelihood, start: [Double]) -> [Double]? {
        guard let derivatives = derivatives(family, likelihood) else { return nil }
        return newtonWithHessian(family, likelihood, start: start, derivatives: derivatives,
                                 relativeStep: newtonRelativeStep)?.theta
    }

    /// Newton's method with analytic derivatives where the family has them, else central differences (which resolve
    /// a step only to ~1e-8 of its parameter, so those stop at ``numericalRelativeStep``); returns the maximum and
    /// the Hessian of ℓ there (for standard errors).
    static func newtonWithHessian(
        _ family: FitFamily, _ likelihood: LogLikelihood, start: [Double]
    ) -> (theta: [Double], hessian: [[Double]])? {
        if let analytic = derivatives(family, likelihood) {
            return newtonWithHessian(family, likelihood, start: start, derivatives: analytic,
                                     relativeStep: newtonRelativeStep)
        }
        return newtonWithHessian(family, likelihood, start: start,
                                 derivatives: { numericalDerivatives(family, likelihood, $0) },
                                 relativeStep: numericalRelativeStep)
    }

    /// Newton with central differences stops when every step is below 1e-7 of its parameter's scale: the size at
    /// which Nelder–Mead stops too, and above the differences' own resolution.
    static let numericalRelativeStep = 1e-7

    static func newtonWithHessian(
        _ family: FitFamily, _ likelihood: LogLikelihood, start: [Double],
        derivatives: ([Double]) -> Derivatives?, relativeStep: Double
    ) -> (theta: [Double], hessian: [[Double]])? {
        guard var current = derivatives(start), current.value.isFinite else { return nil }
        var theta = start
        for _ in 0..<newtonMaxIterations {
            let negative = current.hessian.map { $0.map { -$0 } }
            guard let inverse = try? LinearAlgebra.inverseOfPositiveDefinite(negative) else { return nil }
            let step = inverse.map { row in zip(row, current.gradient).reduce(0) { $0 + $1.0 * $1.1 } }
            let scales = parameterScales(family, theta)
            let small = zip(step, scales).allSatisfy { abs($0) <= relativeStep * $1 }
            var fraction = 1.0
            var accepted: (theta: [Double], derivatives: Derivatives)?
            for _ in 0..<40 {
                let candidate = zip(theta, step).map { $0 + fraction * $1 }
                if family.distribution(candidate) != nil, let next = derivatives(candidate), next.value.isFinite,
                   next.value >= current.value - 1e-12 * abs(current.value) {
                    accepted = (candidate, next)
                    break
                }
                fraction /= 2
            }
            guard let accepted else { return small ? (theta, current.hessian) : nil }
            theta = accepted.theta
            current = accepted.derivatives
            if small { return (theta, current.hessian) }
        }
        return nil
    }

    /// Lognormal (ζ, σ) with censoring: the observed part from sufficient statistics (n₀, Σ ln x, Σ(ln x − m)²), the
    /// censored part ln Q(u), u = (ln c − ζ)/σ, with d/du = −h(u) and d²/du² = −h(u)(h(u) − u), h the normal hazard;
    /// ∂u/∂ζ = −1/σ, ∂u/∂σ = −u/σ, ∂²u/∂ζ∂σ = 1/σ², ∂²u/∂σ² = 2u/σ².
    static func lognormalDerivatives(_ likelihood: LogLikelihood, _ theta: [Double]) -> Derivatives? {
        let (zeta, sigma) = (theta[0], theta[1])
        guard sigma > 0, zeta.isFinite, sigma.isFinite else { return nil }
        let n = likelihood.observedCount
        let shift = likelihood.meanLog - zeta
        let squares = likelihood.centredLogSquares + n * shift * shift
        let s2 = sigma * sigma
        var value = -likelihood.sumLog - n * (log(sigma) + LogLikelihood.logSqrtTwoPi) - squares / (2 * s2)
        var gZ = n * shift / s2
        var gS = -n / sigma + squares / (s2 * sigma)
        var hZZ = -n / s2
        var hZS = -2 * n * shift / (s2 * sigma)
        var hSS = n / s2 - 3 * squares / (s2 * s2)
        let distribution = Distribution.lognormal(mu: zeta, sigma: sigma)
        for index in likelihood.censoredLogs.indices {
            let count = likelihood.censoredCounts[index]
            let u = (likelihood.censoredLogs[index] - zeta) / sigma
            let h = Distribution.normalHazard(u)
            let first = -h
            let second = -h * (h - u)
            let uZ = -1 / sigma
            let uS = -u / sigma
            value += count * distribution.logSurvival(likelihood.censoredTimes[index])
            gZ += count * first * uZ
            gS += count * first * uS
            hZZ += count * second * uZ * uZ
            hZS += count * (second * uZ * uS + first / s2)
            hSS += count * (second * uS * uS + first * 2 * u / s2)
        }
        return (value, [gZ, gS], [[hZZ, hZS], [hZS, hSS]])
    }

    /// Each parameter's natural scale: itself for positive parameters, the spread for a location.
    static func parameterScales(_ family: FitFamily, _ theta: [Double]) -> [Double] {
        theta.indices.map { index in
            switch (family, index) {
            case (.lognormal, 0): theta[1]
            case (.exgaussian, 0): (theta[1] * theta[1] + theta[2] * theta[2]).squareRoot()
            default: abs(theta[index])
            }
        }
    }

    /// Loglogistic (α, β), t = β(ln x − ln α), F = 1/(1 + e^(−t)): observed ln f = ln β − ln x − softplus(−t) −
    /// softplus(t), with d/dt = 1 − 2F and d²/dt² = −2F(1 − F); censored ln S = −softplus(t), d/dt = −F,
    /// d²/dt² = −F(1 − F). With ∂t/∂α = −β/α, ∂t/∂β = t/β, ∂²t/∂α² = β/α², ∂²t/∂α∂β = −1/α, ∂²t/∂β² = 0.
    static func loglogisticDerivatives(_ likelihood: LogLikelihood, _ theta: [Double]) -> Derivatives? {
        let (alpha, beta) = (theta[0], theta[1])
        guard alpha > 0, beta > 0, alpha.isFinite, beta.isFinite else { return nil }
        let logAlpha = log(alpha)
        var value = likelihood.observedCount * log(beta) - likelihood.sumLog
        // Σ c·g′(t)·(∂t), Σ c·g″(t)·(∂t)(∂t) collected in α and β directly.
        var gA = 0.0, gB = likelihood.observedCount / beta
        var hAA = 0.0, hAB = 0.0, hBB = -likelihood.observedCount / (beta * beta)
        func add(_ count: Double, _ logX: Double, censored: Bool) {
            let t = beta * (logX - logAlpha)
            let e = exp(-abs(t))
            let f = t >= 0 ? 1 / (1 + e) : e / (1 + e)
            let softplusT = t > 0 ? t + log1p(e) : log1p(e)
            let (g, first, second): (Double, Double, Double) = censored
                ? (-softplusT, -f, -f * (1 - f))
                : (-(abs(t) + 2 * log1p(e)), 1 - 2 * f, -2 * f * (1 - f))
            value += count * g
            let tA = -beta / alpha
            let tB = t / beta
            gA += count * first * tA
            gB += count * first * tB
            hAA += count * (second * tA * tA + first * beta / (alpha * alpha))
            hAB += count * (second * tA * tB - first / alpha)
            hBB += count * second * tB * tB
        }
        for index in likelihood.observedLogs.indices {
            add(likelihood.observedCounts[index], likelihood.observedLogs[index], censored: false)
        }
        for index in likelihood.censoredLogs.indices {
            add(likelihood.censoredCounts[index], likelihood.censoredLogs[index], censored: true)
        }
        return (value, [gA, gB], [[hAA, hAB], [hAB, hBB]])
    }

    /// Exgaussian (μ, σ, τ), uncensored: with w = (x − μ)/σ, ρ = σ/τ, z = w − ρ and L = ln Φ,
    /// ln f = −ln τ − wρ + ρ²/2 + L(z); L′(z) = r = φ(z)/Φ(z) (the normal hazard at −z, `gsl_sf_hazard` through
    /// ``Distribution/normalHazard(_:)``), L″(z) = −r(z + r). Derivatives of w, ρ and z in (μ, σ, τ) are taken by
    /// the chain rule below. ln f itself is ``Distribution/logPDF(_:)``'s, so ℓ agrees with the other evaluations.
    static func exgaussianDerivatives(_ likelihood: LogLikelihood, _ theta: [Double]) -> Derivatives? {
        let (mu, sigma, tau) = (theta[0], theta[1], theta[2])
        guard sigma > 0, tau > 0, mu.isFinite, sigma.isFinite, tau.isFinite else { return nil }
        let distribution = Distribution.exgaussian(mu: mu, sigma: sigma, tau: tau)
        let rho = sigma / tau
        let logTau = log(tau)
        // ∂ρ = (0, 1/τ, −ρ/τ); ∂²ρ: σσ 0, στ −1/τ², ττ 2ρ/τ².
        let rhoD = [0, 1 / tau, -rho / tau]
        var rhoDD = [[Double]](repeating: [0, 0, 0], count: 3)
        rhoDD[1][2] = -1 / (tau * tau)
        rhoDD[2][1] = rhoDD[1][2]
        rhoDD[2][2] = 2 * rho / (tau * tau)
        var value = 0.0
        var gradient = [0.0, 0.0, 0.0]
        var hessian = [[Double]](repeating: [0, 0, 0], count: 3)
        var wD = [0.0, 0.0, 0.0]
        var wDD = [[Double]](repeating: [0, 0, 0], count: 3)
        for index in likelihood.observedTimes.indices {
            let count = likelihood.observedCounts[index]
            let x = likelihood.observedTimes[index]
            let w = (x - mu) / sigma
            let z = w - rho
            let r = Distribution.normalHazard(-z)
            let second = -r * (z + r)
            // ln f = −ln τ − w²/2 − ln √(2π) − ln r (ln Φ(z) = ln φ(z) − ln r), one erfc instead of two; where r
            // underflows (z beyond ~37) ln Φ(z) ≈ 0 and logPDF's own branch is used.
            value += count * (r > 1e-300 ? -logTau - 0.5 * w * w - LogLikelihood.logSqrtTwoPi - log(r) : distribution.logPDF(x))
            // ∂w = (−1/σ, −w/σ, 0); ∂²w: μσ 1/σ², σσ 2w/σ².
            wD[0] = -1 / sigma
            wD[1] = -w / sigma
            wDD[0][1] = 1 / (sigma * sigma)
            wDD[1][0] = wDD[0][1]
            wDD[1][1] = 2 * w / (sigma * sigma)
            for i in 0..<3 {
                let zI = wD[i] - rhoD[i]
                gradient[i] += count * (-(wD[i] * rho + w * rhoD[i]) + rho * rhoD[i] + r * zI)
                for j in 0...i {
                    let zJ = wD[j] - rhoD[j]
                    let zIJ = wDD[i][j] - rhoDD[i][j]
                    let term = -(wDD[i][j] * rho + wD[i] * rhoD[j] + wD[j] * rhoD[i] + w * rhoDD[i][j])
                        + rhoD[i] * rhoD[j] + rho * rhoDD[i][j] + second * zI * zJ + r * zIJ
                    hessian[i][j] += count * term
                }
            }
        }
        let n = likelihood.observedCount
        gradient[2] -= n / tau
        hessian[2][2] += n / (tau * tau)
        for i in 0..<3 { for j in 0..<i { hessian[j][i] = hessian[i][j] } }
        return (value, gradient, hessian)
    }
}
