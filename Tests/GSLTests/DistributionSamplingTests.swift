@testable import GSL
import Testing

@Suite("Seeded Monte Carlo sampling")
struct DistributionSamplingTests {
    static let drawCount = 200_000

    @Test("sample mean and empirical median agree with the closed forms", arguments: references)
    func sampleMoments(_ reference: Reference) throws {
        let d = reference.distribution
        let index = try #require(references.firstIndex { $0.name == reference.name })
        let g = Generator(seed: 20_240_611, stream: UInt64(index), kind: .mt19937)
        let median = d.quantile(0.5)
        let n = Self.drawCount
        var sum = 0.0
        var atOrBelowMedian = 0
        var smallest = Double.infinity
        for _ in 0..<n {
            let x = d.sample(g)
            sum += x
            if x <= median { atOrBelowMedian += 1 }
            smallest = min(smallest, x)
        }
        // The sample mean has standard error σ/√n; 4 standard errors is a two-sided false-alarm
        // rate of 6e-5 (all references have finite variance: loglogistic uses shape 4).
        let standardError = (d.variance / Double(n)).squareRoot()
        #expect(abs(sum / Double(n) - d.mean) <= 4 * standardError, "mean \(sum / Double(n)) vs \(d.mean)")
        // The fraction of draws ≤ median is binomial(n, 1/2)/n with standard error sqrt(0.25/n) ≈ 1.1e-3.
        let fraction = Double(atOrBelowMedian) / Double(n)
        #expect(abs(fraction - 0.5) <= 4 * (0.25 / Double(n)).squareRoot(), "ECDF(median) = \(fraction)")
        #expect(smallest >= d.lowerBound)
    }

    @Test("constant always returns its value")
    func constantSamples() {
        let g = Generator(seed: 1, kind: .mt19937)
        #expect((0..<100).allSatisfy { _ in Distribution.constant(value: 0.25).sample(g) == 0.25 })
    }

    @Test("a zero-weight mixture component is never drawn")
    func zeroWeightComponent() throws {
        let d = try Distribution(mixture: [
            (weight: 0, distribution: .constant(value: -1)),
            (weight: 2, distribution: .constant(value: 1)),
            (weight: 0, distribution: .constant(value: -2)),
        ])
        let g = Generator(seed: 3, kind: .mt19937)
        #expect((0..<10_000).allSatisfy { _ in d.sample(g) == 1 })
        #expect(d.lowerBound == 1)
    }

    @Test("mixture picks components in proportion to the normalised weights")
    func mixtureProportions() throws {
        let d = try Distribution(mixture: [(weight: 3, distribution: .constant(value: 0)), (weight: 1, distribution: .constant(value: 1))])
        let g = Generator(seed: 4, stream: 9, kind: .mt19937)
        let n = Self.drawCount
        let ones = (0..<n).reduce(0.0) { sum, _ in sum + d.sample(g) }
        // Binomial(n, 1/4): standard error sqrt(0.25·0.75/n) ≈ 9.7e-4; allow 4 of them.
        #expect(abs(ones / Double(n) - 0.25) <= 4 * (0.25 * 0.75 / Double(n)).squareRoot())
    }
}

@Suite("GSL's formulas in Swift")
struct LibraryFormulaTests {
    /// Every family with a Swift formula, and a mixture of them: their draws, from twin generators of both kinds, one
    /// drawn by `sample`, the other by GSL's `gsl_ran_*` (`librarySample`), must be the same doubles, bit for bit.
    static let families: [(String, Distribution)] = [
        ("uniform", .uniform(min: 0.05, max: 1.7)),
        ("normal", .normal(mean: 0.4, sd: 0.13)),
        ("lognormal", .lognormal(mu: -2.120264, sigma: 0.6)),
        ("weibull", .weibull(shape: 1.7, scale: 0.45)),
        ("exponential", .exponential(mean: 0.0037)),
        ("exgaussian", .exgaussian(mu: 0.3, sigma: 0.05, tau: 0.1)),
    ]

    @Test("sample equals gsl_ran_* draw for draw", arguments: Generator.Kind.allCases)
    func sameDraws(_ kind: Generator.Kind) throws {
        let mixture = try Distribution(mixture: Self.families.map { (weight: 1.0, distribution: $0.1) })
        for (index, (name, distribution)) in (Self.families + [("mixture", mixture)]).enumerated() {
            let ours = Generator(seed: 77, stream: UInt64(index), kind: kind)
            let gsl = Generator(seed: 77, stream: UInt64(index), kind: kind)
            // 100,000 draws: the polar method's rejections, mt19937's regenerations and uniform_pos's retries occur.
            var differences = 0
            for _ in 0..<100_000 where distribution.sample(ours).bitPattern != distribution.librarySample(gsl).bitPattern {
                differences += 1
            }
            #expect(differences == 0, "\(name), \(kind)")
            #expect(ours.uniform() == gsl.uniform(), "\(name), \(kind): the generators drew as many words")
        }
    }

    @Test("gaussian(sigma:) equals gsl_ran_gaussian draw for draw", arguments: Generator.Kind.allCases)
    func sameGaussians(_ kind: Generator.Kind) {
        let ours = Generator(seed: 5, stream: 3, kind: kind)
        let gsl = Generator(seed: 5, stream: 3, kind: kind)
        #expect((0..<200_000).allSatisfy { _ in ours.gaussian(sigma: 0.7).bitPattern == gsl.libraryGaussian(sigma: 0.7).bitPattern })
    }
}
