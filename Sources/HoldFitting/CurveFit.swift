import Foundation
import GSL

/// A curve fit that cannot be made, phrased for the command line.
public struct CurveFitError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A curve `holdlab fit-curve` fits to sweep output.
public enum CurveModel: String, Sendable, CaseIterable {
    /// y = intercept + slope·x (`gsl_fit_linear`).
    case linear
    /// y = upper / (1 + exp(−rate·(x − midpoint))): a rate that rises (rate > 0) or falls (rate < 0) to a plateau.
    case logistic
    /// y = amplitude·exp(rate·x) + offset: growth or decay towards `offset`, rising or falling (either sign of
    /// amplitude and rate).
    case exponential

    public var parameterNames: [String] {
        switch self {
        case .linear: ["intercept", "slope"]
        case .logistic: ["upper", "rate", "midpoint"]
        case .exponential: ["amplitude", "rate", "offset"]
        }
    }

    public var formula: String {
        switch self {
        case .linear: "y = intercept + slope*x"
        case .logistic: "y = upper / (1 + exp(-rate*(x - midpoint)))"
        case .exponential: "y = amplitude*exp(rate*x) + offset"
        }
    }

    @inline(__always)
    func value(_ p: [Double], _ x: Double) -> Double {
        switch self {
        case .linear: p[0] + p[1] * x
        case .logistic: p[0] / (1 + exp(-p[1] * (x - p[2])))
        case .exponential: p[0] * exp(p[1] * x) + p[2]
        }
    }

    /// ∂value/∂pⱼ at x, written into `row`.
    @inline(__always)
    func gradient(_ p: [Double], _ x: Double, _ row: inout [Double]) {
        switch self {
        case .linear:
            row[0] = 1
            row[1] = x
        case .logistic:
            // s = 1/(1 + e^(−r(x − m))); ∂/∂U = s, ∂/∂r = U·s(1 − s)·(x − m), ∂/∂m = −U·s(1 − s)·r.
            let s = 1 / (1 + exp(-p[1] * (x - p[2])))
            let slope = p[0] * s * (1 - s)
            row[0] = s
            row[1] = slope * (x - p[2])
            row[2] = -slope * p[1]
        case .exponential:
            let e = exp(p[1] * x)
            row[0] = e
            row[1] = p[0] * x * e
            row[2] = 1
        }
    }

    /// Parameters for x from parameters fitted against u = (x − centre)/width, and the Jacobian ∂θ/∂θᵤ (rows: θ).
    /// logistic: rate = rᵤ/width, midpoint = centre + width·mᵤ; exponential: rate = rᵤ/width,
    /// amplitude = Aᵤ·e^(−rᵤ·centre/width); upper and offset unchanged.
    func fromUnit(_ q: [Double], centre: Double, width: Double) -> (values: [Double], jacobian: [[Double]]) {
        switch self {
        case .linear:
            return ([q[0] - q[1] * centre / width, q[1] / width], [[1, -centre / width], [0, 1 / width]])
        case .logistic:
            return ([q[0], q[1] / width, centre + width * q[2]], [[1, 0, 0], [0, 1 / width, 0], [0, 0, width]])
        case .exponential:
            let e = exp(-q[1] * centre / width)
            return ([q[0] * e, q[1] / width, q[2]], [[e, -q[0] * centre / width * e, 0], [0, 1 / width, 0], [0, 0, 1]])
        }
    }

    /// The x at which the curve reaches y, or nil when it never does.
    func inverse(_ p: [Double], _ y: Double) -> Double? {
        let x: Double
        switch self {
        case .linear:
            guard p[1] != 0 else { return nil }
            x = (y - p[0]) / p[1]
        case .logistic:
            let ratio = p[0] / y - 1
            guard ratio > 0, p[1] != 0 else { return nil }
            x = p[2] - log(ratio) / p[1]
        case .exponential:
            let ratio = (y - p[2]) / p[0]
            guard ratio > 0, p[1] != 0 else { return nil }
            x = log(ratio) / p[1]
        }
        return x.isFinite ? x : nil
    }

    /// ∂x*/∂pⱼ of ``inverse(_:_:)`` at its solution x* (implicit differentiation of value(p, x*) = y:
    /// ∂x*/∂pⱼ = −(∂value/∂pⱼ)/(∂value/∂x)), exact, so the target's interval does not depend on x's unit.
    func inverseGradient(_ p: [Double], at x: Double) -> [Double] {
        var row = [Double](repeating: 0, count: p.count)
        gradient(p, x, &row)
        let slope: Double
        switch self {
        case .linear: slope = p[1]
        case .logistic:
            let s = 1 / (1 + exp(-p[1] * (x - p[2])))
            slope = p[0] * s * (1 - s) * p[1]
        case .exponential: slope = p[0] * p[1] * exp(p[1] * x)
        }
        return row.map { -$0 / slope }
    }
}

/// The result of a curve fit.
public struct CurveFitResult: Sendable {
    public struct Estimate: Sendable {
        public let name: String
        public let value: Double
        /// NaN when the data do not identify the parameter (the interval is then empty, never ± 0).
        public let standardError: Double
        /// 95 % interval: value ± t(0.975, n − p)·SE (NaN with the SE).
        public let lower: Double
        public let upper: Double
        /// The value the solver started from (nil for the closed-form line and the target row).
        public let start: Double?
        /// What is wrong with this row alone ("not identified", "never reached"), or nil.
        public let note: String?
    }

    public let model: CurveModel
    public let points: Int
    public let parameters: [Estimate]
    public let residualSumOfSquares: Double
    public let degreesOfFreedom: Int
    /// 1 − rss / Σ(y − ȳ)² (weighted by 1/σ² with `sigma`).
    public let rSquared: Double
    /// The target y and the x that reaches it, by the delta method (nil without `--target`); the estimate's value is
    /// NaN with a note when the fitted curve never reaches y.
    public let target: (y: Double, x: Estimate)?
    /// One line on what makes this fit untrustworthy (not converged, not at a minimum, parameters not identified,
    /// an ill-conditioned Jacobian, an exact fit), or nil.
    public let warning: String?
    /// The solver's diagnostics (nil for the closed-form line).
    public let diagnostics: LeastSquares.Diagnostics?
    /// Starting points the solver was run from (1 for the line).
    public let starts: Int
}

/// Least-squares curve fits with GSL and, for a target y, the x that reaches it with an interval.
public enum CurveFitting {
    /// Values beyond this magnitude are refused: their squares (≤ 1e300) and sums over up to 1e6 points must stay
    /// below `Double.greatestFiniteMagnitude` (1.8e308).
    public static let largestMagnitude = 1e150
    /// Above 1/√ε ≈ 6.7e7 the covariance (JᵀJ)⁻¹ squares the condition number past 1/ε: it has no correct digit.
    public static let poorlyDeterminedCondition = 1 / Double.ulpOfOne.squareRoot()
    /// The largest cosine between the residuals and a Jacobian column accepted as a minimum.
    public static let gradientTolerance = 1e-5
    /// The start search evaluates its grid on at most this many points (evenly strided through the data).
    static let startSubsample = 2_000
    /// Grid starts polished by the solver; the one with the smallest residual is kept.
    static let polishedStarts = 3

    /// Fits `model` to (x, y), optionally with per-point standard deviations `sigma` (SciPy `curve_fit`'s sigma with
    /// `absolute_sigma=False`: only their ratios matter; the covariance is scaled by the weighted rss / (n − p)).
    ///
    /// Throws ``CurveFitError`` for degenerate data: too few points, fewer distinct x than parameters, values
    /// beyond ±``largestMagnitude``, σ not finite and > 0, or no start from which the solver can evaluate the model.
    public static func fit(x: [Double], y: [Double], sigma: [Double]? = nil, model: CurveModel,
                           target: Double?) throws -> CurveFitResult {
        let p = model.parameterNames.count
        guard x.count == y.count, x.count > p + 1 else {
            throw CurveFitError("fit-curve needs more than \(p + 1) points with numeric x and y for the \(model.rawValue) model (got \(x.count))")
        }
        if let sigma, sigma.count != x.count || !sigma.allSatisfy({ $0.isFinite && $0 > 0 }) {
            throw CurveFitError("every weight (sigma) must be a finite number > 0")
        }
        let largest = max(x.lazy.map(abs).max() ?? 0, y.lazy.map(abs).max() ?? 0, sigma?.lazy.max() ?? 0)
        guard largest <= largestMagnitude else {
            throw CurveFitError("values up to \(String(format: "%.3g", largest)) overflow the sums of squares (the limit is ±\(String(format: "%.0e", largestMagnitude))); rescale the column")
        }
        // The mirror of the overflow: a value other than 0 this small squares to nothing (1e-160² underflows), so
        // standard errors come out empty or 0 with no warning.
        let smallest = (x + y + (sigma ?? [])).lazy.map(abs).filter { $0 > 0 }.min() ?? 1
        guard smallest >= 1 / largestMagnitude else {
            throw CurveFitError("values down to \(String(format: "%.3g", smallest)) underflow the sums of squares (a value other than 0 must be at least \(String(format: "%.0e", 1 / largestMagnitude)) in magnitude); rescale the column")
        }
        let distinct = Set(x).count
        if distinct == 1 {
            throw CurveFitError("x is constant (every point has x = \(x[0])): no curve can be fitted")
        }
        guard distinct >= p else {
            throw CurveFitError("x takes only \(distinct) distinct values; a \(model.rawValue) model has \(p) parameters and needs at least \(p)")
        }

        let xMin = x.min() ?? 0, xMax = x.max() ?? 0
        let unit = (centre: (xMin + xMax) / 2, width: xMax - xMin)
        let fit: LeastSquares.Fit
        var start: [Double]?
        var starts = 1
        switch model {
        case .linear:
            // In u as the other models (below): x − centre is exact where x is far from 0 and spans little (times
            // since the epoch), where GSL's running means of x itself lose the spread (x = 1e8 + i·1e-8: slope 7.3e7
            // in place of 1.0e8).
            do { fit = try LeastSquares.line(x: x.map { ($0 - unit.centre) / unit.width }, y: y, sigma: sigma) } catch {
                throw CurveFitError("the linear fit failed (\(error))")
            }
        case .logistic, .exponential:
            // Solve in u = (x − centre)/width ∈ [−½, ½]: the parameters' scales and correlations then do not depend
            // on x's unit or origin (an exponential over x ∈ [6e4, 8e4] is as easy as over [0, 1]).
            let x = x.map { ($0 - unit.centre) / unit.width }
            let candidates = startCandidates(model, x: x, y: y, sigma: sigma)
            starts = candidates.count
            // Polish the best grid starts on a subsample (all points when there are few), keep the smallest residual,
            // then polish that one on every point.
            let sample = subsample(x: x, y: y, sigma: sigma)
            let full = sample.x.count == x.count
            var best: (fit: LeastSquares.Fit, start: [Double])?
            var failure: Error?
            for candidate in candidates {
                do {
                    let trial = try LeastSquares.nonlinear(x: sample.x, y: sample.y, sigma: sample.sigma, start: candidate,
                                                           model: model.value, jacobian: model.gradient)
                    if best.map({ trial.residualSumOfSquares < $0.fit.residualSumOfSquares }) ?? true {
                        best = (trial, candidate)
                    }
                } catch { failure = failure ?? error }
            }
            guard let winner = best else {
                throw CurveFitError("the \(model.rawValue) fit could not start from any of \(candidates.count) starts (\(failure.map { "\($0)" } ?? "no start")); try another --model")
            }
            start = winner.start
            if full {
                fit = winner.fit
            } else {
                do {
                    fit = try LeastSquares.nonlinear(x: x, y: y, sigma: sigma, start: winner.fit.parameters,
                                                     model: model.value, jacobian: model.gradient)
                } catch {
                    throw CurveFitError("the \(model.rawValue) fit failed on all points (\(error)); try another --model")
                }
            }
        }

        var parameters = fit.parameters, covariance = fit.covariance
        var identified = fit.diagnostics?.identified ?? Array(repeating: true, count: p)
        let unitIdentified = identified
        // Back from u to x: θ = g(θᵤ), Σ = T Σᵤ Tᵀ with T = ∂g/∂θᵤ; θⱼ is identified when every θᵤ it depends on is.
        let back = model.fromUnit(fit.parameters, centre: unit.centre, width: unit.width)
        let transform = back.jacobian
        parameters = back.values
        start = start.map { model.fromUnit($0, centre: unit.centre, width: unit.width).values }
        identified = (0..<p).map { row in (0..<p).allSatisfy { transform[row][$0] == 0 || identified[$0] } }
        covariance = [Double](repeating: .nan, count: p * p)
        for i in 0..<p where identified[i] {
            for j in 0..<p where identified[j] {
                var sum = 0.0
                for k in 0..<p where transform[i][k] != 0 {
                    for l in 0..<p where transform[j][l] != 0 { sum += transform[i][k] * fit.covariance[k * p + l] * transform[j][l] }
                }
                covariance[i * p + j] = sum
            }
        }
        guard parameters.allSatisfy(\.isFinite) else {
            throw CurveFitError("the fitted \(model.rawValue) curve's parameters overflow at x = 0 (\(parameters.map { "\($0)" }.joined(separator: ", "))); shift x towards 0")
        }
        let t = StudentT.quantile(0.975, degreesOfFreedom: Double(fit.degreesOfFreedom))
        let errors = (0..<p).map { covariance[$0 * p + $0].squareRoot() }
        let estimates = model.parameterNames.indices.map { index in
            let se = identified[index] ? errors[index] : .nan
            return CurveFitResult.Estimate(
                name: model.parameterNames[index], value: parameters[index], standardError: se,
                lower: parameters[index] - t * se, upper: parameters[index] + t * se,
                start: start?[index], note: identified[index] ? nil : "not identified")
        }
        let weights = sigma?.map { 1 / ($0 * $0) } ?? Array(repeating: 1, count: y.count)
        let weightSum = weights.reduce(0, +)
        let mean = zip(weights, y).reduce(0) { $0 + $1.0 * $1.1 } / weightSum
        let total = zip(weights, y).reduce(0) { $0 + $1.0 * ($1.1 - mean) * ($1.1 - mean) }

        // Data a curve of the model passes through (the residuals' norm within 1e-10 of the data's variation about
        // their mean, not of their size: an offset of 1e12 does not make noise of 1 exact): the residuals are then
        // the solver's rounding, whose angle with the Jacobian says nothing about a minimum.
        let exact = fit.residualSumOfSquares <= 1e-20 * total
        var warnings: [String] = []
        if let diagnostics = fit.diagnostics {
            if !diagnostics.converged { warnings.append("the solver stopped at its iteration limit (\(fit.iterations)) without converging") }
            if diagnostics.relativeGradient > gradientTolerance && !exact {
                warnings.append(String(format: "not at a minimum (the residuals' cosine with the Jacobian is %.2g)", diagnostics.relativeGradient))
            }
            let missing = zip(model.parameterNames, identified).filter { !$0.1 }.map(\.0)
            if !missing.isEmpty {
                warnings.append("the data do not identify \(missing.joined(separator: " and ")) (the Jacobian has rank \(diagnostics.rank) of \(p))")
            } else if diagnostics.conditionNumber > poorlyDeterminedCondition {
                warnings.append(String(format: "poorly determined (the Jacobian's condition number is %.2g)", diagnostics.conditionNumber))
            }
        }
        if fit.residualSumOfSquares == 0 {
            warnings.append("the curve passes through every point (rss 0), so its standard errors are 0")
        } else if exact {
            warnings.append(String(format: "the curve passes through every point to within 1e-10 of the data's variation (rss %.2g), so its "
                                   + "standard errors are rounding noise", fit.residualSumOfSquares))
        }

        var reached: (Double, CurveFitResult.Estimate)?
        if let target {
            // In u, where the fit was made, then x* = centre + width·u*: in x the delta method's terms cancel to
            // rounding where x is far from 0 and spans little (an se of 0, or none, for a well-determined x*).
            let inUnit = targetEstimate(model, parameters: fit.parameters, covariance: fit.covariance, identified: unitIdentified,
                                        target: target, t: t)
            let value = unit.centre + unit.width * inUnit.value, se = unit.width * inUnit.standardError
            reached = (target, CurveFitResult.Estimate(name: inUnit.name, value: value, standardError: se, lower: value - t * se,
                                                       upper: value + t * se, start: nil, note: inUnit.note))
        }
        return CurveFitResult(
            model: model, points: x.count, parameters: estimates, residualSumOfSquares: fit.residualSumOfSquares,
            degreesOfFreedom: fit.degreesOfFreedom, rSquared: total > 0 ? 1 - fit.residualSumOfSquares / total : .nan,
            target: reached.map { (y: $0.0, x: $0.1) }, warning: warnings.isEmpty ? nil : warnings.joined(separator: "; "),
            diagnostics: fit.diagnostics, starts: starts)
    }

    /// The x at which the fitted curve reaches `target`; SE by the delta method, Var(x*) = ∇x*ᵀ Σ ∇x*, with the exact
    /// gradient of the inverse (no finite-difference step, so no dependence on the unit of x).
    static func targetEstimate(_ model: CurveModel, parameters: [Double], covariance: [Double], identified: [Bool],
                               target: Double, t: Double) -> CurveFitResult.Estimate {
        guard let x0 = model.inverse(parameters, target) else {
            return CurveFitResult.Estimate(name: "x_at_target", value: .nan, standardError: .nan, lower: .nan, upper: .nan,
                                           start: nil, note: "the fitted curve never reaches y = \(target)")
        }
        let gradient = model.inverseGradient(parameters, at: x0)
        let p = gradient.count
        let unidentified = (0..<p).filter { !identified[$0] && gradient[$0] != 0 }
        var variance = 0.0
        for i in 0..<p where gradient[i] != 0 {
            for j in 0..<p where gradient[j] != 0 { variance += gradient[i] * covariance[i * p + j] * gradient[j] }
        }
        let note: String?
        let se: Double
        if !unidentified.isEmpty {
            se = .nan
            note = "depends on parameters the data do not identify"
        } else if !(variance >= 0) || !variance.isFinite {
            se = .nan
            note = "its variance is not a positive number"
        } else {
            se = variance.squareRoot()
            note = nil
        }
        return CurveFitResult.Estimate(name: "x_at_target", value: x0, standardError: se, lower: x0 - t * se,
                                       upper: x0 + t * se, start: nil, note: note)
    }

    /// At most ``startSubsample`` points, evenly strided (all of them when there are fewer).
    static func subsample(x: [Double], y: [Double], sigma: [Double]?) -> (x: [Double], y: [Double], sigma: [Double]?) {
        guard x.count > startSubsample else { return (x, y, sigma) }
        let indices = (0..<startSubsample).map { $0 * x.count / startSubsample }
        return (indices.map { x[$0] }, indices.map { y[$0] }, sigma.map { s in indices.map { s[$0] } })
    }

    /// Data-driven starts for every sign and shape: the models are linear in some parameters once the others are
    /// fixed (variable projection), so a grid over the nonlinear ones (rate, and the logistic's midpoint), scaled by
    /// the span of x, is solved exactly for the linear ones; the ``polishedStarts`` grid points with the smallest
    /// residual are returned, best first.
    static func startCandidates(_ model: CurveModel, x allX: [Double], y allY: [Double], sigma: [Double]?) -> [[Double]] {
        let (x, y, s) = subsample(x: allX, y: allY, sigma: sigma)
        let w = s?.map { 1 / ($0 * $0) } ?? Array(repeating: 1, count: x.count)
        let xMin = x.min() ?? 0, xMax = x.max() ?? 1
        let span = max(xMax - xMin, Double.leastNormalMagnitude)
        // Rates in units of 1/span: 0.05 … 60, log-spaced, both signs.
        let magnitudes = (0..<24).map { 0.05 * pow(1200, Double($0) / 23) }
        var scored: [(rss: Double, start: [Double])] = []
        switch model {
        case .linear:
            return []
        case .exponential:
            for magnitude in magnitudes {
                for sign in [1.0, -1.0] {
                    let rate = sign * magnitude / span
                    // Basis e^(rate·(x − x0)) with x0 the end where it is largest, so it stays in (0, 1].
                    let x0 = rate > 0 ? xMax : xMin
                    let g = x.map { exp(rate * ($0 - x0)) }
                    guard let (a, c, rss) = weightedLine(g, y, w) else { continue }
                    let amplitude = a * exp(-rate * x0)
                    guard amplitude.isFinite else { continue }
                    scored.append((rss, [amplitude, rate, c]))
                }
            }
        case .logistic:
            let midpoints = (-2...12).map { xMin + span * Double($0) / 10 }
            for magnitude in magnitudes where magnitude >= 0.5 {
                for sign in [1.0, -1.0] {
                    let rate = sign * magnitude / span
                    for midpoint in midpoints {
                        var gy = 0.0, gg = 0.0, yy = 0.0
                        for index in x.indices {
                            let g = 1 / (1 + exp(-rate * (x[index] - midpoint)))
                            gy += w[index] * g * y[index]
                            gg += w[index] * g * g
                            yy += w[index] * y[index] * y[index]
                        }
                        guard gg > 0 else { continue }
                        let upper = gy / gg
                        guard upper.isFinite else { continue }
                        scored.append((max(0, yy - upper * gy), [upper, rate, midpoint]))
                    }
                }
            }
        }
        scored.sort { $0.rss < $1.rss }
        var chosen: [[Double]] = []
        for candidate in scored where chosen.count < polishedStarts {
            // Skip near-duplicates (same rate sign and within a factor 2 of a chosen rate).
            let duplicate = chosen.contains { ($0[1] > 0) == (candidate.start[1] > 0) && abs(log(abs($0[1] / candidate.start[1]))) < log(2) }
            if !duplicate { chosen.append(candidate.start) }
        }
        return chosen
    }

    /// Weighted least squares y ≈ a·g + c: (a, c, rss), or nil when g is constant.
    static func weightedLine(_ g: [Double], _ y: [Double], _ w: [Double]) -> (Double, Double, Double)? {
        var sw = 0.0, sg = 0.0, sy = 0.0
        for index in g.indices {
            sw += w[index]
            sg += w[index] * g[index]
            sy += w[index] * y[index]
        }
        let gMean = sg / sw, yMean = sy / sw
        var sgg = 0.0, sgy = 0.0, syy = 0.0
        for index in g.indices {
            let dg = g[index] - gMean, dy = y[index] - yMean
            sgg += w[index] * dg * dg
            sgy += w[index] * dg * dy
            syy += w[index] * dy * dy
        }
        guard sgg > 0 else { return nil }
        let a = sgy / sgg
        return (a, yMean - a * gMean, max(0, syy - a * sgy))
    }
}
