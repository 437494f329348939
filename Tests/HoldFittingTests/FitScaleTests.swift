#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import GSL
@testable import HoldLabIO
import HoldProfiles
import Testing
@testable import HoldFitting
@testable import HoldSimulation

@Suite("Fitting at scale: exact estimators, Newton, the subsampled bootstrap")
struct FitScaleTests {
    /// Twelve hand-picked holds (s).
    static let twelve: [Double] = [0.31, 0.47, 0.52, 0.66, 0.71, 0.8, 0.93, 1.05, 1.2, 1.38, 1.6, 2.4]

    @Test("closed form and profile roots match SciPy 1.17.1 references on twelve values to 1e-12 relative")
    func referenceValues() throws {
        // References: NumPy mean/std of ln x; scipy.optimize.brentq (xtol 1e-15, rtol 1e-15) on
        // ln k − ψ(k) = ln x̄ − mean ln x, and on Σx^k ln x/Σx^k − 1/k − mean ln x; then θ = x̄/k, λ = mean(x^k)^(1/k).
        // scipy.stats.gamma.fit(x, floc=0) agrees to 2e-15; weibull_min.fit(x, floc=0) stops 1.6e-6 short (its
        // optimiser's tolerance), which is why the reference is the root itself. Both sides solve the same equation
        // to ~1e-14, so 1e-12 relative leaves room for the last digits of ψ and the sums.
        let sample = try FitSample(times: Self.twelve)
        let references: [(FitFamily, [Double])] = [
            (.lognormal, [-0.14459870362608276, 0.54697376998995351]),
            (.gamma, [3.5571972322579666, 0.28182300124068554]),
            (.weibull, [1.9273670481046901, 1.1368932918452326]),
        ]
        for (family, reference) in references {
            let fit = try DistributionFitting.fit(family, to: sample)
            for (estimate, expected) in zip(fit.parameters, reference) {
                #expect(abs(estimate / expected - 1) < 1e-12, "\(family): \(fit.parameters) vs \(reference)")
            }
            #expect(fit.converged && fit.iterations == 0, "\(family) answered exactly")
        }
    }

    /// The estimates the Nelder–Mead-only code gave on the recovery samples (n = 2,000) and the 40 %-censored
    /// lognormal sample of ``FitRecoveryTests``, printed with %.17g before the exact estimators existed.
    static let previous: [(String, FitFamily, [Double])] = [
        ("recovery", .lognormal, [-0.28652731475273557, 0.50069513818489442]),
        ("recovery", .gamma, [3.877149651140094, 0.15340385020938174]),
        ("recovery", .weibull, [2.5538402068368677, 0.79843577189890447]),
        ("recovery", .exgaussian, [0.30126616050891009, 0.050983030482539833, 0.15492090077350149]),
        ("recovery", .loglogistic, [0.90394070234018398, 5.9861739753839309]),
        ("censored", .lognormal, [-0.12085222949615625, 0.50995895665372959]),
        ("censored", .gamma, [5.0031666698780493, 0.19041586765212651]),
        ("censored", .weibull, [2.7434019625153581, 1.0285961351463444]),
        ("censored", .exgaussian, [0.43111888680654692, 0.12829483318207432, 0.62601450507130851]),
        ("censored", .loglogistic, [0.88325947639521429, 3.3787565248659881]),
    ]

    @Test("estimates on the existing tests' data sets are unchanged within 1e-6 relative")
    func unchangedEstimates() throws {
        let generator = Generator(seed: 2026, stream: 77, kind: .mt19937)
        let draws = (0..<FitCase.n).map { _ in Distribution.lognormal(mu: -0.1267, sigma: 0.5).sample(generator) }
        let censored = try FitSample(times: draws.map { min($0, 1) }, censored: draws.map { $0 > 1 })
        for (set, family, before) in Self.previous {
            let sample = set == "censored" ? censored : try FitCase.all[FitFamily.allCases.firstIndex(of: family) ?? 0].sample()
            let fit = try DistributionFitting.fit(family, to: sample)
            for (now, then) in zip(fit.parameters, before) {
                #expect(abs(now / then - 1) <= 1e-6, "\(set) \(family): \(fit.parameters) vs \(before)")
            }
        }
    }

    @Test("weibull with censoring: the profile root equals Nelder–Mead's optimum and has the higher likelihood")
    func censoredWeibullProfile() throws {
        let generator = Generator(seed: 5, stream: 5, kind: .mt19937)
        let draws = (0..<1_500).map { _ in Distribution.weibull(shape: 2.2, scale: 0.9).sample(generator) }
        let sample = try FitSample(times: draws.map { min($0, 1) }, censored: draws.map { $0 > 1 })
        let likelihood = LogLikelihood(sample)
        let exact = try #require(ExactEstimators.weibull(likelihood, start: 1))
        let simplex = try DistributionFitting.nelderMead(.weibull, likelihood: likelihood, start: nil)
        // Nelder–Mead stops at simplex size 1e-7 in log coordinates: 1e-6 relative covers it.
        for (a, b) in zip(exact, simplex.parameters) { #expect(abs(a / b - 1) < 1e-6, "\(exact) vs \(simplex.parameters)") }
        #expect(likelihood.value(.weibull, exact) >= simplex.logLikelihood - 1e-9)
    }

    @Test("analytic gradients and Hessians agree with central differences of ℓ (loglogistic censored, exgaussian)")
    func analyticDerivatives() throws {
        let generator = Generator(seed: 8, stream: 1, kind: .mt19937)
        let draws = (0..<400).map { _ in Distribution.loglogistic(scale: 0.9, shape: 6).sample(generator) }
        let censored = LogLikelihood(try FitSample(times: draws.map { min($0, 1) }, censored: draws.map { $0 > 1 }))
        let exg = LogLikelihood(try FitSample(times: (0..<400).map { _ in
            Distribution.exgaussian(mu: 0.3, sigma: 0.05, tau: 0.15).sample(generator) }))
        let cases: [(FitFamily, LogLikelihood, [Double])] = [
            (.loglogistic, censored, [0.95, 5.5]), (.exgaussian, exg, [0.31, 0.06, 0.14]),
        ]
        for (family, likelihood, theta) in cases {
            let analytic = try #require(ExactEstimators.derivatives(family, likelihood)?(theta))
            #expect(abs(analytic.value / likelihood.value(family, theta) - 1) < 1e-12)
            let h = theta.map { 1e-5 * $0 }
            func gradient(_ point: [Double]) -> [Double] {
                (0..<point.count).map { i in
                    var up = point, down = point
                    up[i] += h[i]
                    down[i] -= h[i]
                    return (likelihood.value(family, up) - likelihood.value(family, down)) / (2 * h[i])
                }
            }
            // Central differences: O(h²) ≈ 1e-10 relative truncation, rounding ε|ℓ|/h ≈ 1e-8 absolute.
            for (a, n) in zip(analytic.gradient, gradient(theta)) { #expect(abs(a - n) <= 1e-5 * max(1, abs(a))) }
            for j in theta.indices {
                var up = theta, down = theta
                up[j] += h[j]
                down[j] -= h[j]
                let column = zip(gradient(up), gradient(down)).map { ($0 - $1) / (2 * h[j]) }
                for i in theta.indices {
                    #expect(abs(analytic.hessian[i][j] - column[i]) <= 1e-3 * max(1, abs(analytic.hessian[i][j])),
                            "\(family) H[\(i)][\(j)] \(analytic.hessian[i][j]) vs \(column[i])")
                }
            }
        }
    }

    @Test("beyond the direct limit: subsample + Newton gives Nelder–Mead's full-sample optimum within 1e-6")
    func largeSamplePath() throws {
        let generator = Generator(seed: 21, stream: 2, kind: .mt19937)
        let n = DistributionFitting.directLimit + 1_000
        let cases: [(FitFamily, Distribution)] = [
            (.loglogistic, .loglogistic(scale: 0.9, shape: 6)), (.exgaussian, .exgaussian(mu: 0.3, sigma: 0.05, tau: 0.15)),
        ]
        // Censored at a trigger that varies per hold (uniform 0.8–1.6 s): thousands of distinct censoring times, so
        // lognormal and gamma have no closed form and Newton runs on analytic (lognormal) or central-difference
        // (gamma, exgaussian) derivatives.
        let censoredCases: [(FitFamily, Distribution)] = [
            (.lognormal, .lognormal(mu: -0.3, sigma: 0.5)), (.gamma, .gamma(shape: 4, scale: 0.2)),
            (.exgaussian, .exgaussian(mu: 0.5, sigma: 0.1, tau: 0.4)), (.loglogistic, .loglogistic(scale: 0.9, shape: 6)),
        ]
        var samples: [(FitFamily, FitSample)] = []
        for (family, truth) in cases {
            samples.append((family, try FitSample(times: (0..<n).map { _ in truth.sample(generator) })))
        }
        for (family, truth) in censoredCases {
            let draws = (0..<n).map { _ in (truth.sample(generator), 0.8 + 0.8 * generator.uniform()) }
            samples.append((family, try FitSample(times: draws.map { min($0.0, $0.1) }, censored: draws.map { $0.0 > $0.1 })))
        }
        for (family, sample) in samples {
            let likelihood = LogLikelihood(sample)
            let fast = try DistributionFitting.maximize(family, likelihood: likelihood)
            #expect(fast.hessian != nil, "\(family), \(sample.censoredCount) censored: Newton finished the fit")
            let simplex = try DistributionFitting.nelderMead(family, likelihood: likelihood, start: nil)
            for (a, b) in zip(fast.parameters, simplex.parameters) {
                #expect(abs(a / b - 1) < 1e-6, "\(family): \(fast.parameters) vs \(simplex.parameters)")
            }
            #expect(fast.logLikelihood >= simplex.logLikelihood - 1e-9)
            // The analytic and the numerical observed information give the same standard errors (1e-4 relative: the
            // central differences' own error).
            let analytic = DistributionFitting.analyticErrors(negativeHessian: try #require(fast.hessian).map { $0.map { -$0 } })
            let numerical = DistributionFitting.observedInformationErrors(family, likelihood: likelihood,
                                                                          estimate: fast.parameters)
            for (a, b) in zip(analytic.standardErrors, numerical.standardErrors) { #expect(abs(a / b - 1) < 1e-4, "\(family)") }
        }
    }

    @Test("subsampled bootstrap: m rows per draw, same p for 1 and 2 threads, its Monte Carlo error reported")
    func subsampledBootstrap() throws {
        let generator = Generator(seed: 31, stream: 0, kind: .mt19937)
        let sample = try FitSample(times: (0..<3_000).map { _ in Distribution.lognormal(mu: -0.3, sigma: 0.5).sample(generator) })
        let one = try DistributionFitting.fit([.lognormal], to: sample, bootstrapReplicates: 99, bootstrapDrawSize: 300,
                                              seed: 4, threads: 1)
        let two = try DistributionFitting.fit([.lognormal], to: sample, bootstrapReplicates: 99, bootstrapDrawSize: 300,
                                              seed: 4, threads: 2)
        #expect(one.bootstrapDrawSize == 300)
        let p = try #require(one.best.ksPValue)
        #expect(p == two.best.ksPValue)
        // A correct model: p > 0.05 (it is uniform under the null; this seed's value is checked, not a rate).
        #expect(p > 0.05, "p = \(p)")
        // The reported Monte Carlo standard error is √(p(1 − p)/B).
        #expect(one.best.ksPValueStandardError == (p * (1 - p) / 99).squareRoot())
        // Wrong family, subsampled: weibull(shape 5) data as a lognormal are rejected.
        let weibull = try FitSample(times: (0..<3_000).map { _ in Distribution.weibull(shape: 5, scale: 1).sample(generator) })
        let wrong = try DistributionFitting.fit([.lognormal], to: weibull, bootstrapReplicates: 49, bootstrapDrawSize: 300,
                                                seed: 4, threads: 2)
        #expect(try #require(wrong.best.ksPValue) <= 0.02)
        // Without a bootstrap there is no p-value and no error.
        let none = try DistributionFitting.fit([.lognormal], to: sample, bootstrapReplicates: 0)
        #expect(none.best.ksPValue == nil && none.best.ksPValueStandardError == nil)
        let text = FitTable.bootstrapText(one, rows: sample.count)
        #expect(text.hasPrefix("99 replicates per family, seed 4; each draws 300 of the 3000 rows"))
    }

    @Test("the quantile subsample keeps the censored share and spans the sample")
    func quantileSubsample() throws {
        let times = (1...1_000).map { Double($0) / 1_000 }
        let sample = try FitSample(times: times, censored: times.map { $0 > 0.8 })
        let sub = LogLikelihood(sample).quantileSubsample(100)
        #expect(sub.count == 100 && sub.censoredCount == 20)
        // Ranks (j + ½)·800/80 = 5, 15, …, 795 (0-based) of the 800 observed times 0.001 … 0.8.
        #expect(sub.observedTimes.first == 0.006 && sub.observedTimes.last == 0.796)
    }

    @Test("fit: nan and inf in any spelling are errors at their line (fit skips no rows), not 'not a number'")
    func fitNonFinite() {
        let rows = (1...12).map { "\(Double($0) / 10)" }
        for spelling in ["nan", "NaN", "inf", "-Infinity", "INF"] {
            let text = (["t"] + rows + [spelling]).joined(separator: "\n")
            do {
                _ = try FitDataFile.parse(text, request: FitDataRequest(path: "d.csv", column: "t"))
                Issue.record("expected an error for \(spelling)")
            } catch {
                #expect(error.description == "d.csv:14: t: '\(spelling)' is not a finite number")
            }
        }
    }

    @Test("fit reads a file streaming: 7-byte chunks give the same sample, row counts and hash as the text in memory")
    func streamingRead() throws {
        var text = "# provenance\nclass,hold_ms,fired\r\n"
        for index in 1...40 { text += "\"c\(index % 2)\",\(index * 37),\(index % 5 == 0 ? "true" : "0")\r\n" }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("holdlab-fit-\(UUID().uuidString).csv")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let request = FitDataRequest(path: url.path, column: "hold_ms", censoredColumn: "fired",
                                     filters: [.init(column: "class", value: "c1")])
        let streamed = try FitDataFile.parse(try CSVReader(path: url.path, chunkSize: 7), request: request)
        let whole = try FitDataFile.parse(text, request: request)
        let read = try FitDataFile.read(request)
        for set in [streamed, read] {
            #expect(set.sample == whole.sample && set.rowsInFile == 40 && set.rowsFiltered == 20)
            #expect(set.contentHash == fnv1a64Hex(text))
        }
        #expect(whole.sample.count == 20 && whole.sample.censoredCount == 4 && whole.sample.times.first == 0.037)
    }
}
