#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import GSL
import HoldLabIO
import HoldProfiles
import Testing
@testable import HoldFitting

/// A generating distribution for the fitting tests, with the asymptotic standard errors of the MLE at n = 2,000.
struct FitCase: Sendable, CustomStringConvertible {
    let family: FitFamily
    let truth: [Double]
    /// √(diag(I(θ)⁻¹)/n) for n = 2,000, I the expected Fisher information per observation.
    let asymptoticErrors: [Double]

    var description: String { family.rawValue }

    var distribution: Distribution {
        family.distribution(truth) ?? .constant(value: .nan)
    }

    static let n = 2_000

    /// Seeded samples: case i uses stream i of seed 2026.
    func sample(count: Int = FitCase.n, stream: UInt64? = nil) throws -> FitSample {
        let index = FitFamily.allCases.firstIndex(of: family) ?? 0
        let generator = Generator(seed: 2026, stream: stream ?? UInt64(index), kind: .mt19937)
        let d = distribution
        return try FitSample(times: (0..<count).map { _ in d.sample(generator) })
    }

    static let all: [FitCase] = {
        let n = Double(FitCase.n)
        let euler = 0.577_215_664_901_532_9
        // lognormal: SE(zeta) = σ/√n, SE(σ) = σ/√(2n) (closed form).
        let lognormal = FitCase(family: .lognormal, truth: [-0.3, 0.5],
                                asymptoticErrors: [0.5 / n.squareRoot(), 0.5 / (2 * n).squareRoot()])
        // gamma(k, θ): Var k = k/(n(kψ′(k) − 1)), Var θ = θ²ψ′(k)/(n(kψ′(k) − 1)); ψ′(4) = π²/6 − 1 − 1/4 − 1/9.
        let trigamma4 = Double.pi * Double.pi / 6 - 1 - 0.25 - 1.0 / 9
        let gammaD = 4 * trigamma4 - 1
        let gamma = FitCase(family: .gamma, truth: [4, 0.15], asymptoticErrors: [
            (4 / (n * gammaD)).squareRoot(), (0.15 * 0.15 * trigamma4 / (n * gammaD)).squareRoot(),
        ])
        // weibull(k, λ): Var k = 6k²/(π²n), Var λ = (λ/k)²·6((1 − γ)² + π²/6)/(π²n).
        let k = 2.5
        let lambda = 0.8
        let weibull = FitCase(family: .weibull, truth: [k, lambda], asymptoticErrors: [
            k * (6 / (Double.pi * Double.pi * n)).squareRoot(),
            lambda / k * (6 * ((1 - euler) * (1 - euler) + Double.pi * Double.pi / 6) / (Double.pi * Double.pi * n)).squareRoot(),
        ])
        // exgaussian: no closed form; I(θ) integrated numerically with SciPy 1.17.1 (quad on exponnorm's log-density
        // Hessian, relative accuracy ~1e-6), then inverted.
        let exgaussian = FitCase(family: .exgaussian, truth: [0.3, 0.05, 0.15],
                                 asymptoticErrors: [0.0031532, 0.00248694, 0.00446572])
        // loglogistic(α, β): I = diag(β²/(3α²), (3 + π²)/(9β²)).
        let alpha = 0.9
        let beta = 6.0
        let loglogistic = FitCase(family: .loglogistic, truth: [alpha, beta], asymptoticErrors: [
            (3 * alpha * alpha / (beta * beta * n)).squareRoot(),
            (9 * beta * beta / ((3 + Double.pi * Double.pi) * n)).squareRoot(),
        ])
        return [lognormal, gamma, weibull, exgaussian, loglogistic]
    }()
}

@Suite("Fitting: maximum likelihood recovers the generating parameters")
struct FitRecoveryTests {
    @Test("n = 2,000: estimates within 4 reported SEs; reported SEs within 25 % of the asymptotic SE",
          arguments: FitCase.all)
    func recovery(_ fitCase: FitCase) throws {
        let sample = try fitCase.sample()
        let fit = try DistributionFitting.fit(fitCase.family, to: sample)
        #expect(fit.converged)
        #expect(fit.count == FitCase.n && fit.censoredCount == 0)
        for (index, name) in fitCase.family.parameterNames.enumerated() {
            let estimate = fit.parameters[index]
            let error = fit.standardErrors[index]
            // 4 SE: a two-sided false alarm of 6e-5 per parameter if the SE is right.
            #expect(abs(estimate - fitCase.truth[index]) <= 4 * error,
                    "\(name): \(estimate) vs \(fitCase.truth[index]), SE \(error)")
            // Observed information at θ̂ vs expected information at θ: both estimate the same curvature; at n = 2,000
            // they differ by a few per cent (θ̂ − θ ≈ 2 % of θ, and the observed information's own O(1/√n) noise).
            let ratio = error / fitCase.asymptoticErrors[index]
            #expect(abs(ratio - 1) <= 0.25, "\(name): SE \(error) vs asymptotic \(fitCase.asymptoticErrors[index])")
        }
        #expect(fit.aic == 2 * Double(fitCase.family.parameterCount) - 2 * fit.logLikelihood)
        #expect(abs(fit.bic - (Double(fitCase.family.parameterCount) * log(2000) - 2 * fit.logLikelihood)) < 1e-9)
    }

    @Test("lognormal without censoring: Nelder–Mead matches the closed-form MLE (mean and sd of ln x)")
    func lognormalClosedForm() throws {
        let sample = try FitCase.all[0].sample()
        let logs = sample.times.map { log($0) }
        let zeta = logs.reduce(0, +) / Double(logs.count)
        let sigma = (logs.reduce(0) { $0 + ($1 - zeta) * ($1 - zeta) } / Double(logs.count)).squareRoot()
        let fit = try DistributionFitting.fit(.lognormal, to: sample)
        // Simplex size 1e-7 in (zeta, ln σ); the likelihood's resolution is ~1.5e-8 there.
        #expect(abs(fit.parameters[0] - zeta) < 1e-6)
        #expect(abs(fit.parameters[1] / sigma - 1) < 1e-6)
    }

    @Test("exgaussian (no closed-form SE): reported SEs within 25 % of the Monte-Carlo spread of 60 fits at n = 500")
    func exgaussianMonteCarlo() throws {
        let fitCase = FitCase.all[3]
        var estimates: [[Double]] = []
        var reported: [[Double]] = []
        for replicate in 0..<60 {
            let fit = try DistributionFitting.fit(.exgaussian, to: try fitCase.sample(count: 500, stream: 1_000 + UInt64(replicate)))
            estimates.append(fit.parameters)
            reported.append(fit.standardErrors)
        }
        for index in 0..<3 {
            let values = estimates.map { $0[index] }
            let mean = values.reduce(0, +) / 60
            let spread = (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / 59).squareRoot()
            let meanReported = reported.map { $0[index] }.reduce(0, +) / 60
            // An sd from 60 replicates has relative standard error 1/√118 ≈ 9 %: 25 % is 2.7 of those.
            #expect(abs(meanReported / spread - 1) <= 0.25, "parameter \(index): reported \(meanReported), spread \(spread)")
        }
    }

    @Test("right-censoring at a fixed 1.0 s trigger (~40 %): the censored fit recovers zeta and sigma; the naive fit is biased")
    func censoredLognormal() throws {
        // ζ = −0.1267 makes P(X > 1 s) = Q(0.1267/0.5) = 0.4000 for σ = 0.5.
        let truth = [-0.1267, 0.5]
        let generator = Generator(seed: 2026, stream: 77, kind: .mt19937)
        let draws = (0..<FitCase.n).map { _ in Distribution.lognormal(mu: truth[0], sigma: truth[1]).sample(generator) }
        let trigger = 1.0
        let censored = try FitSample(times: draws.map { min($0, trigger) }, censored: draws.map { $0 > trigger })
        // Binomial(2,000, 0.4): sd 0.011; 4 sd.
        #expect(abs(Double(censored.censoredCount) / Double(FitCase.n) - 0.4) < 0.044)
        let fit = try DistributionFitting.fit(.lognormal, to: censored)
        // With censoring the information shrinks: SciPy quad of the censored likelihood's expected information gives
        // SE(ζ) = 0.012613, SE(σ) = 0.011151 at n = 2,000 (vs 0.01118 and 0.00791 uncensored).
        let asymptotic = [0.012613, 0.011151]
        for index in 0..<2 {
            #expect(abs(fit.parameters[index] - truth[index]) <= 4 * fit.standardErrors[index],
                    "\(fit.parameters) vs \(truth), SE \(fit.standardErrors)")
            #expect(abs(fit.standardErrors[index] / asymptotic[index] - 1) <= 0.25)
        }
        // Treating the censored holds as if they had ended at 1.0 s squeezes the tail: ζ and σ both come out low.
        let naive = try DistributionFitting.fit(.lognormal, to: try FitSample(times: censored.times))
        for index in 0..<2 {
            let bias = naive.parameters[index] - truth[index]
            #expect(bias < -5 * fit.standardErrors[index], "naive \(naive.parameters) vs \(truth)")
        }
    }

    @Test("AIC picks the generating family, by ΔAIC ≥ 4, on each family's n = 2,000 sample", arguments: FitCase.all)
    func aicPicksGeneratingFamily(_ fitCase: FitCase) throws {
        let report = try DistributionFitting.fit(FitFamily.allCases, to: try fitCase.sample(), bootstrapReplicates: 0)
        #expect(report.best.family == fitCase.family, "\(report.fits.map { "\($0.family): \($0.aic)" })")
        // Clear means every other family has ΔAIC ≥ 4, "considerably less support" (Burnham & Anderson 2002, §2.6).
        // Measured runner-up gaps at these seeds: lognormal 37.0, gamma 56.6, weibull 56.3, exgaussian 80.5,
        // loglogistic 8.2 (to the exgaussian: a shape-6 log-logistic is nearly symmetric with a long right tail,
        // which a normal plus an exponential imitates well; the lognormal is 66 behind).
        let others = report.fits.filter { $0.family != fitCase.family }.map(\.aic)
        #expect((others.min() ?? 0) - report.best.aic >= 4)
        #expect(report.fits.allSatisfy { $0.ksPValue == nil })
    }
}

@Suite("Fitting: Kolmogorov–Smirnov, Kaplan–Meier and the bootstrap")
struct GoodnessOfFitTests {
    @Test("KS on three points against exponential(mean 1), by hand: D = F(0.5) = 1 − e^(−1/2)")
    func ksByHand() {
        // ECDF steps 1/3, 2/3, 1 at 0.5, 1, 2; F = 0.39347, 0.63212, 0.86466. The largest gap is F(0.5) − 0.
        let sample = FitSample(unchecked: [1, 0.5, 2], censored: [false, false, false])
        let d = GoodnessOfFit.ksStatistic(sample, cdf: Distribution.exponential(mean: 1).cdf)
        #expect(abs(d - (1 - exp(-0.5))) < 1e-15)
    }

    @Test("KS with censoring, by hand: times 1, 2 (censored), 3, 4 against exponential(mean 2)")
    func ksCensoredByHand() {
        let sample = FitSample(unchecked: [3, 1, 4, 2], censored: [false, false, false, true])
        // Kaplan–Meier: 4 at risk at 1 → 3/4; 2 at risk at 3 → 3/8; 1 at risk at 4 → 0.
        let steps = GoodnessOfFit.kaplanMeier(sample)
        #expect(steps.map(\.time) == [1, 3, 4])
        #expect(steps.map(\.survival) == [0.75, 0.375, 0])
        // F̂ jumps 0 → 0.25 → 0.625 → 1; F(3) = 1 − e^(−1.5) = 0.7769 against F̂ = 0.25 just before 3.
        let d = GoodnessOfFit.ksStatistic(sample, cdf: Distribution.exponential(mean: 2).cdf)
        #expect(abs(d - (0.75 - exp(-1.5))) < 1e-15)
    }

    @Test("KS with ties: two equal times make one step of 2/n")
    func ksTies() {
        let sample = FitSample(unchecked: [1, 1, 2, 3], censored: [false, false, false, false])
        // F = t/4 (uniform on [0, 4)); ECDF 0.5 at 1, 0.75 at 2, 1 at 3: gaps 0.25, 0.25, 0.25, 0.25, 0.25, 0.25.
        let d = GoodnessOfFit.ksStatistic(sample, cdf: Distribution.uniform(min: 0, max: 4).cdf)
        #expect(d == 0.25)
    }

    @Test("the KS distance stops at the largest observed time: later censored rows add nothing")
    func ksStopsAtLastObserved() {
        let base = FitSample(unchecked: [1, 2, 3], censored: [false, false, true])
        let cdf = Distribution.exponential(mean: 2).cdf
        let more = FitSample(unchecked: [1, 2, 3, 50], censored: [false, false, true, true])
        // KM at 1 and 2 is 2/3 and 1/3 vs 3/4 and 1/2: different, but only observed times are compared.
        #expect(GoodnessOfFit.ksStatistic(base, cdf: cdf) > 0)
        #expect(GoodnessOfFit.kaplanMeier(more).map(\.time) == [1, 2])
    }

    @Test("the reverse Kaplan–Meier puts a fixed trigger's censoring all at the trigger; none without censoring")
    func censoringDistribution() throws {
        let fixed = FitSample(unchecked: [0.2, 0.5, 1, 1, 0.7, 1], censored: [false, false, true, true, false, true])
        let g = CensoringDistribution(fixed)
        #expect(g.times == [1] && g.cumulative == [1])
        let generator = Generator(seed: 1, kind: .mt19937)
        #expect((0..<100).allSatisfy { _ in g.draw(generator) == 1 })
        let none = CensoringDistribution(FitSample(unchecked: [1, 2, 3], censored: [false, false, false]))
        #expect(none.times.isEmpty && none.draw(generator) == .infinity)
        // Censored at 1, 2 and 3 with 4, 3 and 2 rows at risk, the longest row observed: G puts 1/4 at each of 1, 2, 3
        // and leaves 1/4 for "never censored".
        let varying = CensoringDistribution(FitSample(unchecked: [2, 0.5, 4, 1, 3],
                                                      censored: [true, false, false, true, true]))
        #expect(varying.times == [1, 2, 3] && varying.cumulative == [0.25, 0.5, 0.75])
        var counts: [Double: Int] = [:]
        for _ in 0..<40_000 { counts[varying.draw(generator), default: 0] += 1 }
        // Binomial(40,000, 1/4): sd 0.0022; 4 sd.
        for time in [1, 2, 3, Double.infinity] {
            #expect(abs(Double(counts[time, default: 0]) / 40_000 - 0.25) < 0.009, "\(time): \(counts[time, default: 0])")
        }
    }

    /// B = 49 replicates keep these tests near a second in debug builds (the default is 200); p-values then come in
    /// steps of 1/50 and the smallest is 0.02.
    static let replicates = 49

    @Test("bootstrap p-value: a correct model passes at 5 %; weibull(shape 5) data fitted by a lognormal fail")
    func bootstrapPValues() throws {
        let lognormalData = try FitCase.all[0].sample(count: 300, stream: 500)
        let correct = try DistributionFitting.fit([.lognormal], to: lognormalData, bootstrapReplicates: Self.replicates,
                                                  seed: 5, threads: 2)
        let p = try #require(correct.best.ksPValue)
        #expect(p > 0.05, "correct model: p = \(p), D = \(correct.best.ksStatistic)")
        // A Weibull of shape 5 is left-skewed (skewness −0.25); every lognormal is right-skewed, so none can follow
        // both tails: at n = 300 the fitted lognormal misses by D ≈ 0.10, while refits to lognormal samples of the
        // same size stay near 0.04.
        let generator = Generator(seed: 11, stream: 0, kind: .mt19937)
        let weibullData = try FitSample(times: (0..<300).map { _ in Distribution.weibull(shape: 5, scale: 1).sample(generator) })
        let wrong = try DistributionFitting.fit([.lognormal], to: weibullData, bootstrapReplicates: Self.replicates,
                                                seed: 5, threads: 2)
        let q = try #require(wrong.best.ksPValue)
        #expect(q < 0.05, "wrong model: p = \(q), D = \(wrong.best.ksStatistic)")
    }

    @Test("the bootstrap is deterministic: the same p for threads 1 and 2, a different one for another seed")
    func bootstrapDeterminism() throws {
        let data = try FitCase.all[4].sample(count: 200, stream: 600)
        let fit = try DistributionFitting.fit(.loglogistic, to: data)
        let one = GoodnessOfFit.bootstrapPValue(fit, sample: data, replicates: 29, seed: 8, threads: 1)
        let two = GoodnessOfFit.bootstrapPValue(fit, sample: data, replicates: 29, seed: 8, threads: 2)
        #expect(one == two)
        #expect(one >= 1.0 / 30 && one <= 1)
    }

    @Test("bootstrap with censoring: a correct censored lognormal passes at 5 %")
    func censoredBootstrap() throws {
        let generator = Generator(seed: 2026, stream: 78, kind: .mt19937)
        let draws = (0..<300).map { _ in Distribution.lognormal(mu: -0.1267, sigma: 0.5).sample(generator) }
        let sample = try FitSample(times: draws.map { min($0, 1) }, censored: draws.map { $0 > 1 })
        let report = try DistributionFitting.fit([.lognormal], to: sample, bootstrapReplicates: Self.replicates, seed: 2,
                                                 threads: 2)
        let p = try #require(report.best.ksPValue)
        #expect(p > 0.05, "p = \(p), D = \(report.best.ksStatistic)")
    }
}

@Suite("Fitting: data validation, CSV reading and output")
struct FitDataTests {
    static func request(_ column: String = "t", censored: String? = nil) -> FitDataRequest {
        FitDataRequest(path: "data.csv", column: column, censoredColumn: censored)
    }

    static let twelve = (1...12).map { "\(Double($0) / 10)" }

    @Test("FitSample rejects too few rows, non-positive times, all censored and a single distinct value")
    func sampleValidation() {
        #expect(throws: FitError.self) { try FitSample(times: [1, 2, 3]) }
        #expect(throws: FitError.self) { try FitSample(times: [1, 2, 3, 4, 5, 6, 7, 8, 9, 0]) }
        #expect(throws: FitError.self) { try FitSample(times: Array(repeating: 1, count: 12)) }
        #expect(throws: FitError.self) {
            try FitSample(times: (1...12).map(Double.init), censored: Array(repeating: true, count: 12))
        }
        #expect(throws: FitError.self) { try FitSample(times: [1, 2], censored: [true]) }
    }

    @Test("CSV: # lines, blank lines, quoted fields with commas and quotes, CRLF, spaces; ms columns scale to seconds")
    func csvParsing() throws {
        var text = "# made by hand\nname,hold_ms,fired\r\n\n"
        for (index, value) in Self.twelve.enumerated() {
            text += "\"user, \"\"\(index)\"\"\" , \(Double(value).map { $0 * 1000 } ?? 0) ,\(index % 3 == 0 ? "true" : "0")\r\n"
        }
        let set = try FitDataFile.parse(text, request: Self.request("hold_ms", censored: "fired"))
        #expect(set.scale == 0.001)
        #expect(set.sample.count == 12 && set.sample.censoredCount == 4)
        #expect(zip(set.sample.times, Self.twelve.compactMap(Double.init)).allSatisfy { abs($0 - $1) < 1e-12 })
        #expect(set.rowsInFile == 12)
    }

    @Test("CSV: a quoted field spanning lines keeps later line numbers right")
    func multilineField() {
        let text = "note,t\n\"two\nlines\",0.5\nx,abc\n"
        do {
            _ = try FitDataFile.parse(text, request: Self.request())
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "data.csv:4: t: 'abc' is not a number")
        }
    }

    @Test("CSV errors name the file, line and column")
    func csvErrors() {
        func message(_ text: String, _ request: FitDataRequest = FitDataTests.request()) -> String {
            do {
                _ = try FitDataFile.parse(text, request: request)
                return "no error"
            } catch {
                return error.description
            }
        }
        let rows = Self.twelve.map { "\($0),0" }
        #expect(message("a,b\n1,2\n") == "data.csv: no time column 't'; the columns are: a, b")
        #expect(message((["t,c"] + rows + ["x,0"]).joined(separator: "\n"))
                == "data.csv:14: t: 'x' is not a number")
        #expect(message((["#", "t,c", "-1,0"] + rows).joined(separator: "\n"))
                == "data.csv:3: t: -1 is not > 0 (the families are fitted to positive durations)")
        #expect(message((["t,c"] + rows + ["NaN,0"]).joined(separator: "\n")) == "data.csv:14: t: 'NaN' is not a finite number")
        #expect(message("t\n1\n2\n") == "data.csv: 2 rows to fit; at least 10 are needed")
        #expect(message((["t,c"] + rows + ["1,maybe"]).joined(separator: "\n"), Self.request(censored: "c"))
                == "data.csv:14: c: 'maybe' is not a censoring flag (allowed: 0, 1, true, false, in any case)")
        #expect(message((["t,c"] + Self.twelve.map { "\($0),1" }).joined(separator: "\n"), Self.request(censored: "c"))
                == "data.csv: all 12 rows are censored; at least one observed time is needed")
        #expect(message("t,c\n1,2,3\n") == "data.csv:2: 3 fields, but the header has 2")
        #expect(message("t\n\"1\n") == "data.csv:2: a quoted field is not closed")
        #expect(message("t\n\"1\"x\n") == "data.csv:2: text after a closing quote")
        #expect(message("# only comments\n") == "data.csv: no header row (the file has no lines but # comments)")
    }

    @Test("labels, censoring-time column and filters: per-user style rows")
    func labelsAndFilters() throws {
        var text = "class,press_end_ms,outcome,trigger_ms\n"
        for index in 1...15 {
            let completed = index % 4 == 0
            text += "a,\(index * 100),\(completed ? "completed" : "premature_release"),\(completed ? "1000.000" : "NaN")\n"
            text += "b,\(index),no_activation,NaN\n"
        }
        let request = FitDataRequest(
            path: "users.csv", column: "press_end_ms", censoredColumn: "outcome", censoredValues: ["completed"],
            censorTimeColumn: "trigger_ms", filters: [.init(column: "class", value: "a")])
        let set = try FitDataFile.parse(text, request: request)
        #expect(set.sample.count == 15 && set.sample.censoredCount == 3 && set.rowsFiltered == 15)
        #expect(set.sample.censoringTimes == [1, 1, 1])
        #expect(set.sample.observedTimes.first == 0.1)
        // A label no kept row has (a typo) would fit the completed holds' censored times as releases: refused, with
        // the values the column has.
        var typo = request
        typo.censoredValues = ["completed", "complete"]
        #expect(throws: FitError.self) { try FitDataFile.parse(text, request: typo) }
        do {
            _ = try FitDataFile.parse(text, request: typo)
        } catch {
            #expect(error.description == "users.csv: --censored-value complete matches no row of the 15 rows the filters keep in column outcome; values there: 'premature_release', 'completed'")
        }
    }

    @Test("CSV output: the header, NaN for parameters a family lacks, exactly one best")
    func csvOutput() throws {
        let report = try DistributionFitting.fit([.exgaussian, .lognormal], to: try FitCase.all[0].sample(count: 200),
                                                 bootstrapReplicates: 0)
        #expect(FitTable.columnNames.joined(separator: ",") == "family,n,censored,loglik,aic,bic,ks_stat,ks_pvalue,best,"
                + "zeta,zeta_se,sigma,sigma_se,shape,shape_se,scale,scale_se,mu,mu_se,tau,tau_se,ks_pvalue_mcse")
        let rows = report.fits.indices.map { FitTable.row(report.fits[$0], isBest: $0 == report.bestIndex).map(\.csvText) }
        #expect(rows.count == 2 && rows.allSatisfy { $0.count == FitTable.columns.count })
        #expect(rows.filter { $0[8] == "true" }.count == 1)
        #expect(rows[1][0] == "lognormal" && rows[1][8] == "true")
        // lognormal: zeta and sigma filled, shape … tau NaN; exgaussian: sigma, mu, tau filled, zeta NaN.
        #expect(rows[1][9] != "NaN" && rows[1][11] != "NaN" && rows[1][13...].allSatisfy { $0 == "NaN" })
        #expect(rows[0][9] == "NaN" && rows[0][11] != "NaN" && rows[0][17] != "NaN" && rows[0][19] != "NaN")
        #expect(rows[0][7] == "NaN")
    }

    @Test("an exgaussian on data without right skew: tau runs to the edge (→ 0); NaN SEs or a warning, never silent")
    func edgeOfFamily() throws {
        // Uniform data have no skew at all; the exgaussian MLE drives tau towards 0 (a normal), where the likelihood
        // is flat in tau: the Hessian there is not positive definite, so the SEs are NaN.
        let generator = Generator(seed: 3, stream: 1, kind: .mt19937)
        let uniform = try FitSample(times: (0..<500).map { _ in Distribution.uniform(min: 1, max: 2).sample(generator) })
        let fit = try DistributionFitting.fit(.exgaussian, to: uniform)
        #expect(fit.parameters[2] < 1e-3)
        #expect(fit.covariance == nil && fit.standardErrors.allSatisfy(\.isNaN))
        #expect(FitTable.warnings(fit) == ["exgaussian: the observed information is not positive definite (an estimate at "
                                         + "the edge of the family?), so the standard errors are NaN"])
        // Normal data: tau → 0 too, but the Hessian stays positive definite with SE(tau) ≫ tau: flagged.
        let normal = try FitSample(times: (0..<500).map { _ in Distribution.normal(mean: 1, sd: 0.1).sample(generator) })
        let normalFit = try DistributionFitting.fit(.exgaussian, to: normal)
        let warnings = FitTable.warnings(normalFit)
        if normalFit.covariance != nil {
            #expect(warnings.count == 1 && warnings[0].hasPrefix("exgaussian: tau = ")
                    && warnings[0].hasSuffix("is within one standard error of 0, the edge of the family; its standard error is not reliable there"))
        } else {
            #expect(warnings.count == 1)
        }
        // A well-determined fit has no warnings.
        #expect(FitTable.warnings(try DistributionFitting.fit(.gamma, to: try FitCase.all[1].sample(count: 300))).isEmpty)
    }

    @Test("the emitted population loads with Population.load and holds exactly the fitted distribution")
    func populationRoundTrip() throws {
        let fit = try DistributionFitting.fit(.loglogistic, to: try FitCase.all[4].sample(count: 300))
        let yaml = FittedPopulation.yaml(fit, name: "fitted holds!", description: "a \"quoted\" description\\",
                                         source: "holdlab fit --data x.csv")
        let population = try Population.load(yaml: yaml, path: "fitted.yaml")
        #expect(population.name == "fittedholds")
        #expect(population.description == "a \"quoted\" description\\")
        #expect(population.classes.count == 1)
        let only = try #require(population.classes.first)
        #expect(only.intent == .confirm && only.weight == 1 && only.name == "fitted")
        guard case .hold(let duration) = only.behavior else {
            Issue.record("expected behavior: hold")
            return
        }
        #expect(duration == fit.distribution)
        // A lognormal prints the profile syntax's mu (GSL's zeta).
        let lognormal = try DistributionFitting.fit(.lognormal, to: try FitCase.all[0].sample(count: 300))
        let text = FittedPopulation.yaml(lognormal, name: "", description: "d", source: "s")
        #expect(text.contains("hold: {dist: lognormal, mu: "))
        let loaded = try Population.load(yaml: text, path: "p.yaml")
        #expect(loaded.name == "fitted")
        if case .hold(let d)? = loaded.classes.first?.behavior { #expect(d == lognormal.distribution) }
    }
}
