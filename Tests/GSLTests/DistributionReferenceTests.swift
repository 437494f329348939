import Foundation
import GSL
import Testing

@Suite("Distribution functions against SciPy")
struct DistributionReferenceTests {
    // GSL's and SciPy's special functions are good to ~1e-14 relative; 1e-10 leaves a wide margin
    // for both while any parameterisation mistake (swapped shape/scale, rate for mean) is O(1).
    static let referenceTolerance = 1e-10

    @Test("pdf, cdf and survival match SciPy to 1e-10", arguments: references)
    func pointValues(_ reference: Reference) {
        let d = reference.distribution
        for point in reference.points {
            #expect(isClose(d.pdf(point.x), point.pdf, relative: Self.referenceTolerance), "pdf(\(point.x))")
            #expect(isClose(d.cdf(point.x), point.cdf, relative: Self.referenceTolerance), "cdf(\(point.x))")
            #expect(isClose(d.survival(point.x), point.survival, relative: Self.referenceTolerance), "survival(\(point.x))")
        }
    }

    @Test("closed-form mean and variance match SciPy to 1e-12", arguments: references)
    func moments(_ reference: Reference) {
        // Closed forms evaluated in double precision: a few ulps of error, so 1e-12 is generous.
        #expect(isClose(reference.distribution.mean, reference.mean, relative: 1e-12))
        #expect(isClose(reference.distribution.variance, reference.variance, relative: 1e-12))
    }

    @Test("the median matches SciPy to 1e-10", arguments: references.filter { !$0.median.isNaN })
    func median(_ reference: Reference) {
        // Pinv routines and root finding are accurate to ~1e-14 relative; 1e-10 as for the densities.
        #expect(isClose(reference.distribution.quantile(0.5), reference.median, relative: Self.referenceTolerance))
    }

    @Test("cdf(quantile(p)) == p within 1e-9", arguments: references)
    func quantileRoundTrip(_ reference: Reference) {
        // The quantile is solved to ~1e-14 relative in x; |Δp| ≤ pdf·|x|·1e-14 ≪ 1e-9. For p > 0.5
        // compare 1 − survival, which is what the root finder matched.
        for p in [1e-6, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1 - 1e-6] {
            let x = reference.distribution.quantile(p)
            #expect(abs(reference.distribution.cdf(x) - p) <= 1e-9, "p = \(p), x = \(x)")
        }
    }

    @Test("survival + cdf == 1 within 1e-12 away from the far tails", arguments: references)
    func survivalComplementsCDF(_ reference: Reference) {
        // P and Q are computed separately; each is within a few ulps of the truth, so their sum is
        // within ~1e-15 of 1; 1e-12 leaves room for the GSL incomplete-gamma continued fractions.
        for p in [0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99] {
            let x = reference.distribution.quantile(p)
            #expect(abs(reference.distribution.survival(x) + reference.distribution.cdf(x) - 1) <= 1e-12, "x = \(x)")
        }
    }

    @Test("logPDF and logSurvival agree with ln pdf and ln survival in the body", arguments: references)
    func logForms(_ reference: Reference) {
        // Same quantities by different formulas; both within a few ulps, so 1e-12 relative.
        for point in reference.points where point.pdf > 0 {
            let d = reference.distribution
            #expect(isClose(d.logPDF(point.x), log(d.pdf(point.x)), relative: 1e-12), "logPDF(\(point.x))")
            #expect(isClose(d.logSurvival(point.x), log(d.survival(point.x)), relative: 1e-12), "logSurvival(\(point.x))")
        }
    }

    @Test("quantile ends: 0 and 1 give the support, outside [0, 1] gives NaN")
    func quantileEnds() {
        #expect(lognormalReference.quantile(0) == 0)
        #expect(lognormalReference.quantile(1) == .infinity)
        #expect(Distribution.normal(mean: 0, sd: 1).quantile(0) == -.infinity)
        #expect(Distribution.uniform(min: 0.1, max: 0.5).quantile(1) == 0.5)
        #expect(Distribution.constant(value: 0.25).quantile(0.3) == 0.25)
        #expect(mixtureReference.quantile(1) == .infinity)
        for p in [-0.1, 1.5, Double.nan] {
            #expect(lognormalReference.quantile(p).isNaN)
            #expect(exgaussianReference.quantile(p).isNaN)
        }
    }

    @Test("constant is a point mass")
    func constant() {
        let d = Distribution.constant(value: 0.25)
        #expect(d.pdf(0.2) == 0)
        #expect(d.pdf(0.25) == .infinity)
        #expect(d.cdf(0.2) == 0 && d.cdf(0.25) == 1)
        #expect(d.survival(0.2) == 1 && d.survival(0.25) == 0)
        #expect(d.mean == 0.25 && d.variance == 0 && d.lowerBound == 0.25)
    }

    @Test("lower bounds of the supports")
    func lowerBounds() {
        #expect(lognormalReference.lowerBound == 0)
        #expect(Distribution.gamma(shape: 2, scale: 1).lowerBound == 0)
        #expect(Distribution.uniform(min: 0.1, max: 0.5).lowerBound == 0.1)
        #expect(exgaussianReference.lowerBound == -.infinity)
        #expect(Distribution.normal(mean: 0.3, sd: 0.05).lowerBound == -.infinity)
        #expect(mixtureReference.lowerBound == -.infinity)
    }

    @Test("loglogistic mean and variance are infinite when the shape is too small")
    func loglogisticHeavyTail() {
        #expect(Distribution.loglogistic(scale: 0.1, shape: 1).mean == .infinity)
        #expect(Distribution.loglogistic(scale: 0.1, shape: 0.5).variance == .infinity)
        #expect(Distribution.loglogistic(scale: 0.1, shape: 2).variance == .infinity)
        #expect(Distribution.loglogistic(scale: 0.1, shape: 2).mean.isFinite)
    }
}

@Suite("Parameterisation and tails")
struct ParameterisationTests {
    @Test("gamma is (shape, scale) and weibull is (shape, scale) despite GSL's (scale, shape) order")
    func argumentOrder() throws {
        // SciPy: gamma(a=2.5, scale=0.08).pdf(0.3) = 1.6058922703778826 (swapped: 0.2079892771634791);
        // weibull_min(c=1.8, scale=0.35).pdf(0.3) = 2.1309989864927865 (swapped: 0.36527848400947593).
        // Tolerance 1e-10 relative as for the other reference values.
        let gamma = try Distribution(family: "gamma", parameters: ["shape": 2.5, "scale": 0.08])
        let weibull = try Distribution(family: "weibull", parameters: ["shape": 1.8, "scale": 0.35])
        #expect(isClose(gamma.pdf(0.3), 1.6058922703778826, relative: 1e-10))
        #expect(isClose(weibull.pdf(0.3), 2.1309989864927865, relative: 1e-10))
    }

    @Test("lognormal by median equals lognormal by mu = ln(median)")
    func lognormalByMedian() throws {
        let byMedian = try Distribution(family: "lognormal", parameters: ["median": 0.12, "sigma": 0.6])
        let byMu = try Distribution(family: "lognormal", parameters: ["mu": log(0.12), "sigma": 0.6])
        #expect(byMedian == byMu)
        #expect(byMedian == .lognormal(mu: -2.120263536200091, sigma: 0.6))
        // The median is e^mu; the quantile goes through gsl_cdf_lognormal_Pinv, so allow 1e-12 relative.
        #expect(isClose(byMedian.quantile(0.5), 0.12, relative: 1e-12))
    }

    @Test("mixture weights are normalised by their sum")
    func mixtureNormalisation() throws {
        let unnormalised = try Distribution(mixture: [(3, lognormalReference), (1, exgaussianReference)])
        let normalised = try Distribution(mixture: [(0.75, lognormalReference), (0.25, exgaussianReference)])
        #expect(unnormalised == normalised)
        guard case .mixture(let mixture) = unnormalised else {
            Issue.record("expected a mixture")
            return
        }
        #expect(mixture.components.map(\.weight) == [0.75, 0.25])
        // 3:1 of the two reference densities at 0.15 s, from the SciPy values above: 1e-10 relative.
        let expected = 0.75 * 4.1364990158239365 + 0.25 * 0.77415896187652877
        #expect(isClose(unnormalised.pdf(0.15), expected, relative: 1e-10))
    }

    @Test("ex-Gaussian density stays finite and accurate when sigma/tau is large (no inf·0)")
    func exgaussianExtremeRatio() {
        // sigma/tau = 100: the textbook form multiplies e^5000 by Φ(−105). References: mpmath, 40 digits.
        let d = Distribution.exgaussian(mu: 0, sigma: 1, tau: 0.01)
        #expect(isClose(d.logPDF(-5), -13.467819379763586, relative: 1e-12))
        #expect(isClose(d.pdf(-5), 1.4157949538751386e-6, relative: 1e-11))
        #expect(isClose(d.logPDF(3), -5.3885855787156234, relative: 1e-12))
        // e^−801 underflows the density to 0, but its logarithm stays exact.
        #expect(d.pdf(-40) == 0)
        #expect(isClose(d.logPDF(-40), -801.25546178372798, relative: 1e-12))
        #expect(d.cdf(-40) == 0)
        #expect(d.survival(-40) == 1)
    }

    @Test("log survival far in the upper tails")
    func logSurvivalTails() {
        // References from mpmath at 40 digits; relative 1e-12 (all are closed forms or log-erfc).
        #expect(isClose(Distribution.normal(mean: 0, sd: 1).logSurvival(40), -804.60844201375379, relative: 1e-12))
        #expect(isClose(lognormalReference.logSurvival(50), -53.776114687912234, relative: 1e-12))
        #expect(isClose(Distribution.exgaussian(mu: 0, sigma: 1, tau: 0.5).logSurvival(50), -98.0, relative: 1e-12))
        #expect(isClose(Distribution.exgaussian(mu: 0.2, sigma: 0.02, tau: 0.05).logSurvival(2000), -39995.92, relative: 1e-12))
        #expect(Distribution.weibull(shape: 2, scale: 1).logSurvival(100) == -10_000)
        #expect(Distribution.exponential(mean: 0.5).logSurvival(1000) == -2000)
        #expect(isClose(Distribution.loglogistic(scale: 1, shape: 3).logSurvival(1e100), -300 * log(10.0), relative: 1e-12))
    }

    @Test("below the support the CDF is 0 and the survival 1 for every family (GSL's lognormal and Weibull gave NaN)")
    func belowSupport() throws {
        let mixture = try Distribution(mixture: [(1, .constant(value: -1)), (1, .lognormal(mu: 0, sigma: 0.3))])
        for distribution in [Distribution.lognormal(mu: 0, sigma: 0.3), .weibull(shape: 1.7, scale: 0.9), .gamma(shape: 2, scale: 0.3),
                             .exponential(mean: 0.2), .loglogistic(scale: 0.9, shape: 6), .uniform(min: 0.1, max: 2), .constant(value: 0.5)] {
            for x in [-Double.leastNonzeroMagnitude, -1, -1e300] {
                #expect(distribution.cdf(x) == 0, "\(distribution) at \(x)")
                #expect(distribution.survival(x) == 1, "\(distribution) at \(x)")
            }
        }
        // Half the mixture is the point mass at −1: P(X ≤ −0.5) is exactly its weight.
        #expect(mixture.cdf(-0.5) == 0.5)
        #expect(mixture.survival(-0.5) == 0.5)
    }
}
