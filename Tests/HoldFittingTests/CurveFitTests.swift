import Foundation
import Testing
import GSL
@testable import HoldFitting

@Suite("fit-curve: least squares with GSL")
struct CurveFitTests {
    /// Noisy samples of a model with known parameters: 25 x values, Gaussian noise σ, a fixed seed.
    static func samples(_ model: CurveModel, _ truth: [Double], sigma: Double, seed: UInt64) -> ([Double], [Double]) {
        let generator = Generator(seed: seed)
        let xs = (0..<25).map { 0.3 + Double($0) * 0.05 }
        return (xs, xs.map { model.value(truth, $0) + generator.gaussian(sigma: sigma) })
    }

    @Test("each model recovers its generating parameters within 4 of its own standard errors",
          arguments: [(CurveModel.linear, [0.25, -0.2]), (.logistic, [0.9, -6.0, 0.8]), (.exponential, [0.8, -3.5, 0.01])])
    func recovery(model: CurveModel, truth: [Double]) throws {
        let (x, y) = Self.samples(model, truth, sigma: 0.004, seed: 17)
        let result = try CurveFitting.fit(x: x, y: y, model: model, target: nil)
        #expect(result.parameters.map(\.name) == model.parameterNames)
        for (estimate, value) in zip(result.parameters, truth) {
            #expect(estimate.standardError > 0)
            #expect(abs(estimate.value - value) <= 4 * estimate.standardError, "\(estimate.name): \(estimate.value) vs \(value) ± \(estimate.standardError)")
            #expect(estimate.lower < estimate.value && estimate.value < estimate.upper)
        }
        #expect(result.rSquared > 0.99)
    }

    @Test("a straight line: GSL's closed-form standard errors match the textbook formulas")
    func lineStandardErrors() throws {
        let x = [1.0, 2, 3, 4, 5, 6]
        let y = [1.1, 1.9, 3.2, 3.9, 5.1, 5.8]
        let result = try CurveFitting.fit(x: x, y: y, model: .linear, target: 3)
        // s² = rss/(n−2); SE(slope) = s/√Sxx, Sxx = 17.5; SE(intercept) = s·√(1/n + x̄²/Sxx).
        let s = (result.residualSumOfSquares / 4).squareRoot()
        #expect(abs(result.parameters[1].standardError - s / 17.5.squareRoot()) < 1e-12)
        #expect(abs(result.parameters[0].standardError - s * (1.0 / 6 + 3.5 * 3.5 / 17.5).squareRoot()) < 1e-12)
        // t(0.975, 4) = 2.776445105: the interval's half-width.
        let half = result.parameters[1].upper - result.parameters[1].value
        #expect(abs(half - 2.776445105 * result.parameters[1].standardError) < 1e-8)
        let target = try #require(result.target)
        #expect(abs(target.x.value - (3 - result.parameters[0].value) / result.parameters[1].value) < 1e-12)
    }

    @Test("the x that reaches a target: exact on noiseless data, and the interval covers the truth")
    func target() throws {
        let truth = [0.9, -6.0, 0.8]
        let exactX = 0.8 - log(0.9 / 0.05 - 1) / -6.0
        let noisy = Self.samples(.logistic, truth, sigma: 0.004, seed: 3)
        let result = try CurveFitting.fit(x: noisy.0, y: noisy.1, model: .logistic, target: 0.05)
        let reached = try #require(result.target?.x)
        #expect(reached.lower < exactX && exactX < reached.upper)
        #expect(abs(reached.value - exactX) <= 4 * reached.standardError)
    }

    @Test("too few points, a curve that never reaches the target")
    func errors() {
        #expect(throws: CurveFitError.self) { try CurveFitting.fit(x: [1, 2, 3], y: [1, 2, 3], model: .logistic, target: nil) }
        let (x, y) = Self.samples(.logistic, [0.9, -6.0, 0.8], sigma: 0.001, seed: 1)
        #expect(throws: CurveFitError.self) { try CurveFitting.fit(x: x, y: y, model: .logistic, target: 1.5) }
    }
}
