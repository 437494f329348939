import GSL
import Testing

/// A rejected specification and the exact message a profile author will read.
struct BadParameters: Sendable, CustomStringConvertible {
    let family: String
    let parameters: [String: Double]
    let message: String
    var description: String { message }
}

let badParameters: [BadParameters] = [
    BadParameters(
        family: "lognorm", parameters: ["mu": 0, "sigma": 1],
        message: "unknown distribution family \"lognorm\" (allowed: constant, uniform, normal, lognormal, gamma, weibull, exponential, exgaussian, loglogistic, mixture)"),
    BadParameters(family: "gamma", parameters: ["shape": 2, "rate": 3], message: "gamma has no parameter \"rate\" (allowed: shape, scale)"),
    BadParameters(family: "gamma", parameters: ["shape": 2], message: "gamma is missing parameter scale"),
    BadParameters(family: "lognormal", parameters: ["sigma": 0.6], message: "lognormal is missing parameter mu or median"),
    BadParameters(family: "lognormal", parameters: ["mu": -2, "median": 0.12, "sigma": 0.6], message: "lognormal takes mu or median, not both"),
    BadParameters(family: "lognormal", parameters: ["mu": -2.1, "sigma": -0.6], message: "lognormal sigma must be > 0 (got -0.6)"),
    BadParameters(family: "lognormal", parameters: ["mu": -2.1, "sigma": 0], message: "lognormal sigma must be > 0 (got 0.0)"),
    BadParameters(family: "lognormal", parameters: ["median": -1, "sigma": 0.6], message: "lognormal median must be > 0 (got -1.0)"),
    BadParameters(family: "normal", parameters: ["mean": .nan, "sd": 1], message: "normal mean must be finite (got nan)"),
    BadParameters(family: "normal", parameters: ["mean": 0.3, "sd": .nan], message: "normal sd must be finite (got nan)"),
    BadParameters(family: "exponential", parameters: ["mean": .infinity], message: "exponential mean must be finite (got inf)"),
    BadParameters(family: "constant", parameters: ["value": -.infinity], message: "constant value must be finite (got -inf)"),
    BadParameters(family: "uniform", parameters: ["min": 0.5, "max": 0.2], message: "uniform max must be > min = 0.5 (got 0.2)"),
    BadParameters(family: "uniform", parameters: ["min": 0.5, "max": 0.5], message: "uniform max must be > min = 0.5 (got 0.5)"),
    BadParameters(family: "weibull", parameters: ["shape": 0, "scale": 1], message: "weibull shape must be > 0 (got 0.0)"),
    BadParameters(family: "exgaussian", parameters: ["mu": 0.2, "sigma": 0.02, "tau": -0.05], message: "exgaussian tau must be > 0 (got -0.05)"),
    BadParameters(family: "loglogistic", parameters: ["scale": 0.1], message: "loglogistic is missing parameter shape"),
    // Each parameter valid, the draws not: every family whose draws can overflow.
    BadParameters(family: "lognormal", parameters: ["mu": 720, "sigma": 0.0001], message: "lognormal draws overflow: at the generator's most extreme uniforms (2^-32 from 0 or 1) a draw reaches inf; the parameters must keep every draw a finite number of seconds"),
    BadParameters(family: "lognormal", parameters: ["mu": 0, "sigma": 200], message: "lognormal draws overflow: at the generator's most extreme uniforms (2^-32 from 0 or 1) a draw reaches inf; the parameters must keep every draw a finite number of seconds"),
    BadParameters(family: "normal", parameters: ["mean": 1e308, "sd": 1e308], message: "normal draws overflow: at the generator's most extreme uniforms (2^-32 from 0 or 1) a draw reaches -inf; the parameters must keep every draw a finite number of seconds"),
    BadParameters(family: "loglogistic", parameters: ["scale": 1, "shape": 0.01], message: "loglogistic draws overflow: at the generator's most extreme uniforms (2^-32 from 0 or 1) a draw reaches inf; the parameters must keep every draw a finite number of seconds"),
    BadParameters(family: "exponential", parameters: ["mean": 1e307], message: "exponential draws overflow: at the generator's most extreme uniforms (2^-32 from 0 or 1) a draw reaches inf; the parameters must keep every draw a finite number of seconds"),
    BadParameters(family: "gamma", parameters: ["shape": 1e306, "scale": 1e3], message: "gamma draws overflow: at the generator's most extreme uniforms (2^-32 from 0 or 1) a draw reaches inf; the parameters must keep every draw a finite number of seconds"),
    BadParameters(family: "weibull", parameters: ["shape": 0.001, "scale": 1], message: "weibull draws overflow: at the generator's most extreme uniforms (2^-32 from 0 or 1) a draw reaches inf; the parameters must keep every draw a finite number of seconds"),
    BadParameters(family: "exgaussian", parameters: ["mu": 0.2, "sigma": 0.02, "tau": 1e308], message: "exgaussian draws overflow: at the generator's most extreme uniforms (2^-32 from 0 or 1) a draw reaches inf; the parameters must keep every draw a finite number of seconds"),
    BadParameters(family: "mixture", parameters: [:], message: "mixture needs at least one component"),
    BadParameters(family: "mixture", parameters: ["weight": 1], message: "mixture takes no parameter \"weight\""),
]

@Suite("Parameter validation")
struct DistributionValidationTests {
    @Test("parameters near the overflow that still draw finite numbers are accepted, and every draw is finite")
    func finiteNearOverflow() throws {
        // Gammas of small and large shape (which fit writes) were refused while GSL's inverse CDF gave NaN for them.
        for (family, parameters) in [("lognormal", ["mu": 700.0, "sigma": 0.0001]), ("uniform", ["min": -1e308, "max": 1e308]),
                                     ("loglogistic", ["scale": 1, "shape": 0.05]), ("exponential", ["mean": 1e300]),
                                     ("gamma", ["shape": 0.1, "scale": 10]), ("gamma", ["shape": 0.0965, "scale": 3]),
                                     ("gamma", ["shape": 1e4, "scale": 1e-4]), ("gamma", ["shape": 41092, "scale": 2.4e-5]),
                                     ("weibull", ["shape": 0.05, "scale": 1])] {
            let distribution = try Distribution(family: family, parameters: parameters)
            #expect(distribution.extremeDraws.allSatisfy { $0.isFinite }, "\(family) \(parameters)")
        }
        // The bounds hold the quantiles GSL can compute at the extreme uniforms.
        for distribution in [Distribution.gamma(shape: 2, scale: 0.1), .gamma(shape: 50, scale: 0.01), .lognormal(mu: -1, sigma: 0.6),
                             .exgaussian(mu: 0.2, sigma: 0.03, tau: 0.05), .weibull(shape: 1.5, scale: 0.3), .loglogistic(scale: 0.9, shape: 6)] {
            let high = distribution.extremeDraws.max()!
            #expect(distribution.quantile(1 - 0x1p-32) <= high * (1 + 1e-9), "\(distribution)")
        }
    }

    @Test("each bad specification is rejected with its own message", arguments: badParameters)
    func rejected(_ bad: BadParameters) {
        #expect {
            _ = try Distribution(family: bad.family, parameters: bad.parameters)
        } throws: { error in
            (error as? DistributionError)?.description == bad.message
        }
    }

    @Test("errors are typed and comparable")
    func typedErrors() {
        #expect(throws: DistributionError.missingParameter(family: "gamma", name: "scale")) {
            try Distribution(family: "gamma", parameters: ["shape": 2])
        }
        #expect(throws: DistributionError.conflictingParameters(family: "lognormal", names: ["mu", "median"])) {
            try Distribution(family: "lognormal", parameters: ["mu": 0, "median": 1, "sigma": 1])
        }
    }

    @Test("every family builds from its own parameter names")
    func validFamilies() throws {
        #expect(Distribution.families == [
            "constant", "uniform", "normal", "lognormal", "gamma",
            "weibull", "exponential", "exgaussian", "loglogistic", "mixture",
        ])
        #expect(Distribution.parameterNames(of: "lognormal") == ["mu", "median", "sigma"])
        #expect(Distribution.parameterNames(of: "mixture") == [])
        #expect(Distribution.parameterNames(of: "beta") == nil)
        let values: [String: Double] = ["value": 0.3, "min": 0.1, "max": 0.5, "mean": 0.3, "sd": 0.05, "mu": -2, "sigma": 0.5,
                                         "shape": 2, "scale": 0.1, "tau": 0.05]
        for family in Distribution.families where family != "mixture" {
            let names = try #require(Distribution.parameterNames(of: family)).filter { $0 != "median" }
            let d = try Distribution(family: family, parameters: values.filter { names.contains($0.key) })
            #expect(d.family == family)
        }
    }

    @Test("mixture weights: negative, NaN, zero total, overflowing total, no components")
    func badMixtures() {
        let d = Distribution.constant(value: 1)
        let cases: [([(weight: Double, distribution: Distribution)], String)] = [
            ([(-0.5, d), (1, d)], "mixture component 0 weight must be finite and >= 0 (got -0.5)"),
            ([(1, d), (.nan, d)], "mixture component 1 weight must be finite and >= 0 (got nan)"),
            ([(1, d), (.infinity, d)], "mixture component 1 weight must be finite and >= 0 (got inf)"),
            ([(0, d), (0, d)], "mixture weights must sum to a finite number > 0 (got 0.0)"),
            ([(1e308, d), (1e308, d)], "mixture weights must sum to a finite number > 0 (got inf)"),
            ([], "mixture needs at least one component"),
        ]
        for (components, message) in cases {
            #expect {
                _ = try Distribution(mixture: components)
            } throws: { error in
                (error as? DistributionError)?.description == message
            }
        }
    }

    @Test("description is canonical flow YAML with shortest round-trip numbers")
    func descriptions() throws {
        #expect(lognormalReference.description == "{dist: lognormal, mu: -2.120264, sigma: 0.6}")
        #expect(Distribution.constant(value: 1).description == "{dist: constant, value: 1.0}")
        #expect(Distribution.uniform(min: 0.1, max: 0.5).description == "{dist: uniform, min: 0.1, max: 0.5}")
        #expect(Distribution.weibull(shape: 1.8, scale: 0.35).description == "{dist: weibull, shape: 1.8, scale: 0.35}")
        #expect(exgaussianReference.description == "{dist: exgaussian, mu: 0.19, sigma: 0.025, tau: 0.06}")
        #expect(Distribution.loglogistic(scale: 0.1, shape: 4).description == "{dist: loglogistic, scale: 0.1, shape: 4.0}")
        #expect(mixtureReference.description == "{dist: mixture, components: [{weight: 0.9, dist: lognormal, mu: -2.120264, sigma: 0.6}, {weight: 0.1, dist: exgaussian, mu: 0.19, sigma: 0.025, tau: 0.06}]}")
        let byMedian = try Distribution(family: "lognormal", parameters: ["median": 0.12, "sigma": 0.6])
        #expect(byMedian.description == "{dist: lognormal, mu: -2.120263536200091, sigma: 0.6}")
    }
}
