import Foundation
import Testing
@testable import HoldSimulation

/// The interval math of `compare` (intervals 0.2).
///
/// Reference values were computed independently with NumPy and SciPy 1.x from the published formulas, person by
/// person where the library uses sums (`docs/reference/paired-intervals.py`, which `swift test` never runs):
/// Bonett & Price (2012) eq. 5; the delta method on two pseudo-people added to the pairs; Welch–Satterthwaite with
/// `scipy.stats.t.ppf`. Tolerance 1e-12 absolute for closed forms, 1e-9 where a t quantile enters (GSL's and SciPy's
/// inverses agree to about 1e-12; 1e-9 leaves room).
@Suite("compare: paired intervals that keep their promise")
struct PairedIntervalTests {
    /// The tally of `pairs` of integer values (nil: the design does not count the person).
    static func meanTally(_ pairs: [(Int64?, Int64?)]) -> PairedMeanTally {
        var tally = PairedMeanTally()
        for (design, baseline) in pairs { tally.add(design: design, baseline: baseline) }
        return tally
    }

    static func rateTally(both: Int, designOnly: Int, baselineOnly: Int, neither: Int) -> PairedRateTally {
        var tally = PairedRateTally()
        for _ in 0..<both { tally.add(design: true, baseline: true) }
        for _ in 0..<designOnly { tally.add(design: true, baseline: false) }
        for _ in 0..<baselineOnly { tally.add(design: false, baseline: true) }
        for _ in 0..<neither { tally.add(design: false, baseline: false) }
        return tally
    }

    @Test("Bonett–Price against NumPy: a common difference, none at all, and a small sample", arguments: [
        (12, 3, 200, 0.00502345427063767, 0.0840854566204514),
        (0, 0, 1500, -0.00184541121750956, 0.00184541121750956),
        (0, 0, 300, -0.0091781710221833, 0.0091781710221833),
        (1, 0, 10, -0.195606311842166, 0.362272978508832),
    ])
    func bonettPrice(b: Int, c: Int, n: Int, lower: Double, upper: Double) throws {
        let interval = try #require(PairedStatistics.bonettPricePaired(firstOnly: b, secondOnly: c, pairs: n))
        #expect(abs(interval.lower - lower) < 1e-12 && abs(interval.upper - upper) < 1e-12, "\(interval)")
    }

    @Test("edges: no pairs, all discordant one way (clipped at 1, still holding the difference), 0 events")
    func bonettPriceEdges() throws {
        #expect(PairedStatistics.bonettPricePaired(firstOnly: 0, secondOnly: 0, pairs: 0) == nil)
        let allOneWay = try #require(PairedStatistics.bonettPricePaired(firstOnly: 50, secondOnly: 0, pairs: 50))
        #expect(abs(allOneWay.lower - 0.88688358883316) < 1e-12 && allOneWay.upper == 1)
        // 0 events under either design among 300 people: the difference is 0 and its interval is not.
        let none = Self.rateTally(both: 0, designOnly: 0, baselineOnly: 0, neither: 300).difference()
        #expect(none.diff == 0 && none.designValue == 0)
        let lower = try #require(none.lower), upper = try #require(none.upper)
        #expect(abs(upper - 0.0091781710221833) < 1e-12 && lower == -upper)
        // The unpaired interval: Newcombe's independent hybrid score (Wilson at 0 of 300: 0.012642…) is the wider.
        let unpairedUpper = try #require(none.unpairedUpper)
        #expect(unpairedUpper > upper)
    }

    @Test("all pairs concordant at a rate of 0.5: 0.1's score interval has zero width, 0.2's has not")
    func concordantHalf() throws {
        let tally = Self.rateTally(both: 1000, designOnly: 0, baselineOnly: 0, neither: 1000)
        let old = tally.difference(rules: .v0_1)
        #expect(old.lower == old.upper)
        let new = tally.difference(rules: .v0_2)
        let newLower = try #require(new.lower), newUpper = try #require(new.upper)
        #expect(newUpper - newLower > 0.002)
    }

    @Test("completed_unseen_rate of slow at seed 2 (issue 27): zero width under 0.1, ±0.00188 under 0.2, holding −0.00026")
    func unseenAtSeedTwo() throws {
        // Seed 2 at 2,000 users: 1,472 completed holds under both designs, the same 2 of them unseen under both.
        let tally = Self.meanTally(Array(repeating: (1, 1), count: 2) + Array(repeating: (0, 0), count: 1470))
        let old = tally.difference(scale: 1, rules: .v0_1)
        #expect(old.lower == 0 && old.upper == 0)
        let new = tally.adjustedRateDifference()
        let lower = try #require(new.lower), upper = try #require(new.upper)
        #expect(abs(lower - -0.00188046651879196) < 1e-12 && abs(upper - 0.00188046651879196) < 1e-12)
        #expect(lower < -0.00026 && -0.00026 < upper)
        let designValue = try #require(new.designValue)
        #expect(new.diff == 0 && abs(designValue - 2.0 / 1472) < 1e-15)
    }

    @Test("a rate over people the design decides: the adjusted delta method and the unpaired score interval against NumPy")
    func unseenSubsets() throws {
        // 40 completed under both (1 unseen under both, 3 under the design only), 10 under the design only (2
        // unseen), 5 under the baseline only (none unseen).
        let pairs: [(Int64?, Int64?)] = [(1, 1)] + Array(repeating: (1, 0), count: 3) + Array(repeating: (0, 0), count: 36)
            + Array(repeating: (1, nil), count: 2) + Array(repeating: (0, nil), count: 8) + Array(repeating: (nil, 0), count: 5)
        let result = Self.meanTally(pairs).adjustedRateDifference()
        let lower = try #require(result.lower), upper = try #require(result.upper), diff = try #require(result.diff)
        #expect(abs(lower - -0.00566813100401937) < 1e-12 && abs(upper - 0.189792517256065) < 1e-12)
        #expect(abs(diff - (6.0 / 50 - 1.0 / 45)) < 1e-15)
        // Newcombe's independent hybrid score for 6 of 50 and 1 of 45 is wider here, so it is the unpaired one.
        let unpairedLower = try #require(result.unpairedLower), unpairedUpper = try #require(result.unpairedUpper)
        #expect(abs(unpairedLower - -0.0153831483600949) < 1e-12 && abs(unpairedUpper - 0.217234234651097) < 1e-12)
    }

    @Test("identical designs: a mean's intervals have zero width (allowed: the difference is 0 for every person)")
    func identical() throws {
        let tally = Self.meanTally([(5_000, 5_000), (7_000, 7_000), (6_500, 6_500), (9_000, 9_000)])
        let result = tally.difference(scale: 1000)
        #expect(result.diff == 0 && result.lower == 0 && result.upper == 0)
        let unpairedLower = try #require(result.unpairedLower), unpairedUpper = try #require(result.unpairedUpper)
        #expect(unpairedLower < 0 && unpairedUpper > 0, "Welch's, as if different people, is not 0")
    }

    @Test("means: pseudo-people at the extreme differences, Student t with min(Z₁, Z₂) − 1 df, Welch–Satterthwaite, against NumPy/SciPy")
    func meanQuantiles() throws {
        // Positively correlated, one person under the design only: the unpaired (Welch) interval is the wider.
        let positive = Self.meanTally([(10, 11), (20, 19), (35, 36), (50, 52), (15, nil)]).difference(scale: 1)
        let diff = try #require(positive.diff), lower = try #require(positive.lower), upper = try #require(positive.upper)
        let unpairedLower = try #require(positive.unpairedLower), unpairedUpper = try #require(positive.unpairedUpper)
        #expect(abs(diff - -3.5) < 1e-12, "diff is the plain difference of the means")
        #expect(abs(lower - -12.5097238502678) < 1e-9 && abs(upper - 7.22400956455352) < 1e-9, "\(lower) \(upper)")
        #expect(abs(unpairedLower - -27.4741522333586) < 1e-9 && abs(unpairedUpper - 22.1884379476443) < 1e-9)
        // Where the paired variance is the larger, the unpaired interval is the paired one.
        let mixed = Self.meanTally([(10, 12), (20, 19), (35, 30), (50, nil)]).difference(scale: 1)
        let mixedLower = try #require(mixed.lower), mixedUpper = try #require(mixed.upper)
        #expect(abs(mixedLower - -20.294214966248) < 1e-9 && abs(mixedUpper - 32.5164371884702) < 1e-9)
        #expect(mixed.unpairedLower == mixed.lower && mixed.unpairedUpper == mixed.upper)
    }

    @Test("a mean whose designs differ for few people (3 of 200 one frame later): the adjustment of a rate, against NumPy")
    func sparseDifference() throws {
        let tally = Self.meanTally(Array(repeating: (8333, 0), count: 3) + Array(repeating: (0, 0), count: 197))
        let new = tally.difference(scale: 1)
        let lower = try #require(new.lower), upper = try #require(new.upper)
        #expect(new.diff == 124.995)
        #expect(abs(lower - 3.93263163401349) < 1e-9 && abs(upper - 326.087170346185) < 1e-9, "\(lower) \(upper)")
        // The plain delta interval (holdlab 0.1's) is Wald's for 3 of 200: narrower.
        let old = tally.difference(scale: 1, rules: .v0_1)
        let oldLower = try #require(old.lower), oldUpper = try #require(old.upper)
        #expect(oldUpper - oldLower < upper - lower)
    }

    @Test("the pseudo-people algebra equals adding them to the sums: Bonett–Price's two for 0/1 values")
    func augmentedAlgebra() throws {
        let pairs: [(Int64?, Int64?)] = [(1, 1)] + Array(repeating: (1, 0), count: 3) + Array(repeating: (0, 0), count: 36)
            + Array(repeating: (1, nil), count: 2) + Array(repeating: (0, nil), count: 8) + Array(repeating: (nil, 0), count: 5)
        let tally = Self.meanTally(pairs)
        let algebra = try #require(tally.augmentedVariance([(1, 0), (0, 1)]))
        var added = tally
        added.add(design: 1, baseline: 0)
        added.add(design: 0, baseline: 1)
        let summed = try #require(added.deltaVariances())
        #expect(abs(algebra.centre - summed.centre) < 1e-15 && abs(algebra.paired - summed.paired) < 1e-15)
    }

    @Test("a difference that is the same for everyone both designs count keeps zero width (a gesture 100 ms later)")
    func constantShift() throws {
        let tally = Self.meanTally(Array(repeating: (1_100_000, 1_000_000), count: 500))
        let result = tally.difference(scale: 1000)
        #expect(result.diff == 100 && result.lower == 100 && result.upper == 100)
    }

    @Test("negatively correlated designs: the unpaired interval is widened to the paired one (0.1 kept Welch's)")
    func negativeCorrelation() throws {
        let values: [Int64] = [1, 4, 2, 8, 5, 7, 3, 9]
        let tally = Self.meanTally(values.map { ($0, 100 - $0) })
        let new = tally.difference(scale: 1)
        let lower = try #require(new.lower), upper = try #require(new.upper)
        #expect(abs(lower - -94.7359432056672) < 1e-9 && abs(upper - -85.6640567943328) < 1e-9, "\(lower) \(upper)")
        let half = (upper - lower) / 2
        #expect(new.unpairedUpper == new.upper && new.unpairedLower == new.lower)
        let old = tally.difference(scale: 1, rules: .v0_1)
        let oldUpper = try #require(old.unpairedUpper), oldDiff = try #require(old.diff)
        #expect(oldUpper - oldDiff < half, "Welch's is the narrower here (2.909 with Welch–Satterthwaite df)")
    }

    @Test("a mean over fewer than two people under a design has no interval under 0.2, as simulate writes none")
    func tooFew() throws {
        let result = Self.meanTally([(10, 12), (nil, 19), (nil, 30)]).difference(scale: 1)
        let diff = try #require(result.diff)
        #expect(abs(diff - (10 - 61.0 / 3)) < 1e-12 && result.lower == nil && result.unpairedLower == nil)
        #expect(Self.meanTally([(10, 12), (nil, 19), (nil, 30)]).difference(scale: 1, rules: .v0_1).lower != nil)
    }
}
