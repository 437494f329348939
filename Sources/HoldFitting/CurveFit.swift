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
    /// y = amplitude·exp(rate·x) + offset: growth or decay towards `offset`.
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

    /// The x at which the curve reaches y, or nil when it never does.
    func inverse(_ p: [Double], _ y: Double) -> Double? {
        let x: Double
        switch self {
        case .linear:
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

    /// Starting values read off the data.
    func start(x: [Double], y: [Double]) -> [Double] {
        let xMin = x.min() ?? 0, xMax = x.max() ?? 1
        let span = max(xMax - xMin, 1e-9)
        let line = try? LeastSquares.line(x: x, y: y)
        let rising = (line?.parameters[1] ?? 1) >= 0
        switch self {
        case .linear:
            return line?.parameters ?? [0, 0]
        case .logistic:
            let upper = max(y.max() ?? 1, 1e-9) * 1.02
            // The midpoint: the x whose y is nearest half the plateau.
            let half = upper / 2
            let midpoint = zip(x, y).min { abs($0.1 - half) < abs($1.1 - half) }?.0 ?? (xMin + xMax) / 2
            return [upper, (rising ? 8 : -8) / span, midpoint]
        case .exponential:
            let yMin = y.min() ?? 0, yMax = y.max() ?? 1
            let offset = yMin - 0.01 * max(yMax - yMin, 1e-9)
            let logs = y.map { log($0 - offset) }
            let fit = try? LeastSquares.line(x: x, y: logs)
            let rate = fit?.parameters[1] ?? ((rising ? 1 : -1) / span)
            return [exp(fit?.parameters[0] ?? 0), rate, offset]
        }
    }
}

/// The result of a curve fit.
public struct CurveFitResult: Sendable {
    public struct Estimate: Sendable {
        public let name: String
        public let value: Double
        public let standardError: Double
        /// 95 % interval: value ± t(0.975, n − p)·SE.
        public let lower: Double
        public let upper: Double
    }

    public let model: CurveModel
    public let points: Int
    public let parameters: [Estimate]
    public let residualSumOfSquares: Double
    public let degreesOfFreedom: Int
    /// 1 − rss / Σ(y − ȳ)².
    public let rSquared: Double
    /// The target y and the x that reaches it, by the delta method (nil without `--target`).
    public let target: (y: Double, x: Estimate)?
}

/// Least-squares curve fits with GSL and, for a target y, the x that reaches it with an interval.
public enum CurveFitting {
    public static func fit(x: [Double], y: [Double], model: CurveModel, target: Double?) throws -> CurveFitResult {
        guard x.count == y.count, x.count > model.parameterNames.count + 1 else {
            throw CurveFitError("fit-curve needs more than \(model.parameterNames.count + 1) points with numeric x and y for a \(model.rawValue) model (got \(x.count))")
        }
        let fit: LeastSquares.Fit
        do {
            switch model {
            case .linear:
                fit = try LeastSquares.line(x: x, y: y)
            case .logistic, .exponential:
                fit = try LeastSquares.nonlinear(x: x, y: y, start: model.start(x: x, y: y)) { model.value($0, $1) }
            }
        } catch {
            throw CurveFitError("the \(model.rawValue) fit did not converge (\(error)); try another --model")
        }
        let t = StudentT.quantile(0.975, degreesOfFreedom: Double(fit.degreesOfFreedom))
        let errors = fit.standardErrors
        let estimates = model.parameterNames.indices.map { index in
            CurveFitResult.Estimate(
                name: model.parameterNames[index], value: fit.parameters[index], standardError: errors[index],
                lower: fit.parameters[index] - t * errors[index], upper: fit.parameters[index] + t * errors[index])
        }
        let mean = y.reduce(0, +) / Double(y.count)
        let total = y.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        var reached: (Double, CurveFitResult.Estimate)?
        if let target {
            guard let x0 = model.inverse(fit.parameters, target) else {
                throw CurveFitError("the fitted \(model.rawValue) curve never reaches y = \(target)")
            }
            // Delta method: Var(x*) = ∇x*ᵀ Σ ∇x*, the gradient by central differences.
            let p = fit.parameters.count
            var gradient = [Double](repeating: 0, count: p)
            for index in 0..<p {
                let h = 1e-6 * max(1, abs(fit.parameters[index]))
                var plus = fit.parameters, minus = fit.parameters
                plus[index] += h
                minus[index] -= h
                if let a = model.inverse(plus, target), let b = model.inverse(minus, target) { gradient[index] = (a - b) / (2 * h) }
            }
            var variance = 0.0
            for i in 0..<p { for j in 0..<p { variance += gradient[i] * fit.covariance[i * p + j] * gradient[j] } }
            let se = max(0, variance).squareRoot()
            reached = (target, CurveFitResult.Estimate(name: "x_at_target", value: x0, standardError: se,
                                                       lower: x0 - t * se, upper: x0 + t * se))
        }
        return CurveFitResult(
            model: model, points: x.count, parameters: estimates, residualSumOfSquares: fit.residualSumOfSquares,
            degreesOfFreedom: fit.degreesOfFreedom, rSquared: total > 0 ? 1 - fit.residualSumOfSquares / total : .nan,
            target: reached.map { (y: $0.0, x: $0.1) })
    }
}
