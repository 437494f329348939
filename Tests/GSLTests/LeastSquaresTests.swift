import Foundation
import GSL
import Testing

@Suite("Least squares: weights, analytic Jacobians and diagnostics")
struct LeastSquaresTests {
    static let x = (0..<20).map { Double($0) / 10 }
    /// y = 2 − 1.5·e^(−1.3x) plus a deterministic wiggle.
    static let y = x.indices.map { 2 - 1.5 * exp(-1.3 * x[$0]) + 0.01 * sin(3 * Double($0)) }
    static func model(_ p: [Double], _ x: Double) -> Double { p[0] * exp(p[1] * x) + p[2] }
    static func gradient(_ p: [Double], _ x: Double, _ row: inout [Double]) {
        row[0] = exp(p[1] * x)
        row[1] = p[0] * x * exp(p[1] * x)
        row[2] = 1
    }

    @Test("the analytic Jacobian and GSL's finite differences reach the same minimum (1e-7 relative)")
    func analyticJacobian() throws {
        let start = [-1.0, -1.0, 1.5]
        let numeric = try LeastSquares.nonlinear(x: Self.x, y: Self.y, start: start, model: Self.model)
        let analytic = try LeastSquares.nonlinear(x: Self.x, y: Self.y, start: start, model: Self.model, jacobian: Self.gradient)
        for (a, b) in zip(analytic.parameters, numeric.parameters) { #expect(abs(a - b) <= 1e-7 * abs(b)) }
        let diagnostics = try #require(analytic.diagnostics)
        #expect(diagnostics.converged && diagnostics.rank == 3 && diagnostics.identified == [true, true, true])
        // At a least-squares minimum the residuals are orthogonal to every Jacobian column.
        #expect(diagnostics.relativeGradient < 1e-8)
        #expect(diagnostics.conditionNumber > 1 && diagnostics.conditionNumber < 1e3)
    }

    @Test("a parameter the model ignores is not identified: rank 1 of 2, NaN covariance, the other one intact")
    func notIdentified() throws {
        let fit = try LeastSquares.nonlinear(x: Self.x, y: Self.y, start: [1, 5], model: { p, _ in p[0] + 0 * p[1] },
                                             jacobian: { _, _, row in row[0] = 1; row[1] = 0 })
        let diagnostics = try #require(fit.diagnostics)
        #expect(diagnostics.rank == 1 && diagnostics.identified == [true, false] && diagnostics.conditionNumber == .infinity)
        #expect(fit.standardErrors[1].isNaN)
        // The mean and its standard error s/√n, s² = rss/(n − 2).
        let mean = Self.y.reduce(0, +) / Double(Self.y.count)
        #expect(abs(fit.parameters[0] - mean) < 1e-12)
        let s2 = fit.residualSumOfSquares / Double(Self.y.count - 2)
        #expect(abs(fit.standardErrors[0] - (s2 / Double(Self.y.count)).squareRoot()) < 1e-12)
    }

    @Test("relative sigma: equal σ change nothing; σ scaled by 7 changes nothing (absolute_sigma=False)")
    func relativeSigma() throws {
        let plain = try LeastSquares.line(x: Self.x, y: Self.y)
        let equal = try LeastSquares.line(x: Self.x, y: Self.y, sigma: Array(repeating: 3, count: Self.x.count))
        for (a, b) in zip(plain.parameters + plain.covariance, equal.parameters + equal.covariance) {
            #expect(abs(a - b) <= 1e-12 * max(1, abs(b)))
        }
        let sigma = Self.x.map { 0.5 + $0 }
        let weighted = try LeastSquares.nonlinear(x: Self.x, y: Self.y, sigma: sigma, start: [-1, -1, 1.5],
                                                  model: Self.model, jacobian: Self.gradient)
        let scaled = try LeastSquares.nonlinear(x: Self.x, y: Self.y, sigma: sigma.map { $0 * 7 }, start: [-1, -1, 1.5],
                                                model: Self.model, jacobian: Self.gradient)
        // Scaled residuals change the solver's path, not its minimum: the stops differ by ~1e-9 relative (xtol 1e-10).
        for (a, b) in zip(weighted.parameters + weighted.standardErrors, scaled.parameters + scaled.standardErrors) {
            #expect(abs(a - b) <= 1e-7 * abs(b))
        }
        #expect(throws: GSLError.self) {
            try LeastSquares.line(x: Self.x, y: Self.y, sigma: Array(repeating: 0, count: Self.x.count))
        }
    }
}
