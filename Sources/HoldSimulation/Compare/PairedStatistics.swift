import GSL
import HoldLabIO

/// Confidence intervals for the difference between two designs measured on the same people.
///
/// Two kinds of statistic are compared:
///
/// - **Rates over the same people** (completion over intent users, false activation over accidental users: who is
///   in the denominator depends on the person's class, never on the design). Each person gives a pair of 0/1
///   outcomes, tallied as a 2×2 table. The paired interval is Newcombe's hybrid score interval for paired data
///   (Newcombe 1998, *Statistics in Medicine* 17:2635, method 10); the unpaired one is his hybrid score interval
///   for independent proportions (Newcombe 1998, 17:873, method 10). Both combine the two rates' Wilson intervals;
///   the paired one subtracts the correlation of the pairs, which is what makes it narrower.
/// - **Means over design-dependent subsets** (completion time over each design's completed holds). The difference
///   of two ratio estimators R = Σy / Σz over the same N people; its variance by linearisation (the delta method):
///   each person contributes u = (y₁ − R₁z₁)/Z₁ − (y₂ − R₂z₂)/Z₂ and Var(R₁ − R₂) ≈ Σu². With everyone in both
///   subsets this is the Wald interval on the per-person differences; the unpaired interval drops the covariance
///   term (Welch's large-sample interval).
public enum PairedStatistics {
    /// A difference with its paired and unpaired 95 % intervals; nil fields when undefined (no data).
    public struct Difference: Sendable, Equatable {
        public var designValue: Double?
        public var baselineValue: Double?
        public var diff: Double?
        public var lower: Double?
        public var upper: Double?
        public var unpairedLower: Double?
        public var unpairedUpper: Double?
    }

    /// Newcombe's paired hybrid score interval (method 10) for p₁ − p₂ from the 2×2 table of pairs: `both` =
    /// successes under both, `firstOnly`, `secondOnly`, `pairs` = all pairs. Returns nil without pairs.
    ///
    /// With p₁ = (a + b)/n, p₂ = (a + c)/n, their Wilson intervals (l₁, u₁), (l₂, u₂) and
    /// φ = (ad − bc)/√((a+b)(c+d)(a+c)(b+d)) (0 when a margin is empty):
    /// lower = p₁ − p₂ − √((p₁ − l₁)² − 2φ(p₁ − l₁)(u₂ − p₂) + (u₂ − p₂)²),
    /// upper = p₁ − p₂ + √((u₁ − p₁)² − 2φ(u₁ − p₁)(p₂ − l₂) + (p₂ − l₂)²).
    public static func newcombePaired(both: Int, firstOnly: Int, secondOnly: Int, pairs: Int)
        -> (lower: Double, upper: Double)? {
        guard pairs > 0 else { return nil }
        let a = Double(both), b = Double(firstOnly), c = Double(secondOnly)
        let d = Double(pairs) - a - b - c
        let first = Proportion(successes: both + firstOnly, trials: pairs)
        let second = Proportion(successes: both + secondOnly, trials: pairs)
        guard let p1 = first.rate, let p2 = second.rate, let w1 = first.wilson95, let w2 = second.wilson95 else { return nil }
        let margins = (a + b) * (c + d) * (a + c) * (b + d)
        let phi = margins > 0 ? (a * d - b * c) / margins.squareRoot() : 0
        return combine(p1: p1, w1: w1, p2: p2, w2: w2, phi: phi)
    }

    /// Newcombe's hybrid score interval (method 10) for p₁ − p₂ from independent samples: the paired formula
    /// with φ = 0.
    public static func newcombeUnpaired(_ first: Proportion, _ second: Proportion) -> (lower: Double, upper: Double)? {
        guard let p1 = first.rate, let p2 = second.rate, let w1 = first.wilson95, let w2 = second.wilson95 else { return nil }
        return combine(p1: p1, w1: w1, p2: p2, w2: w2, phi: 0)
    }

    private static func combine(p1: Double, w1: (lower: Double, upper: Double), p2: Double,
                                w2: (lower: Double, upper: Double), phi: Double) -> (lower: Double, upper: Double) {
        let below1 = p1 - w1.lower, above1 = w1.upper - p1
        let below2 = p2 - w2.lower, above2 = w2.upper - p2
        let down = max(0, below1 * below1 - 2 * phi * below1 * above2 + above2 * above2).squareRoot()
        let up = max(0, above1 * above1 - 2 * phi * above1 * below2 + below2 * below2).squareRoot()
        return (p1 - p2 - down, p1 - p2 + up)
    }
}

/// One rate's 2×2 table of pairs: how many people are in the denominator (the same under both designs) and how
/// their outcomes pair up. Exact integers, merged in any order.
struct PairedRateTally: Sendable {
    var pairs = 0
    var both = 0
    var designOnly = 0
    var baselineOnly = 0

    /// Counts one pair. Wrapping additions: counts of people cannot reach Int's range, so the overflow checks
    /// would only cost instructions on every person.
    @inline(__always)
    mutating func add(design: Bool, baseline: Bool) {
        pairs &+= 1
        if design {
            if baseline { both &+= 1 } else { designOnly &+= 1 }
        } else if baseline {
            baselineOnly &+= 1
        }
    }

    mutating func merge(_ other: PairedRateTally) {
        pairs += other.pairs
        both += other.both
        designOnly += other.designOnly
        baselineOnly += other.baselineOnly
    }

    /// design rate − baseline rate with its paired and unpaired intervals: under `v0_2` Bonett and Price's
    /// adjusted Wald interval, and Newcombe's independent hybrid score widened to it; under `v0_1` Newcombe's
    /// paired and independent hybrid score intervals.
    func difference(rules: IntervalRules = .current) -> PairedStatistics.Difference {
        let design = Proportion(successes: both + designOnly, trials: pairs)
        let baseline = Proportion(successes: both + baselineOnly, trials: pairs)
        let paired: (lower: Double, upper: Double)?
        let unpaired: (lower: Double, upper: Double)?
        switch rules {
        case .v0_1:
            paired = PairedStatistics.newcombePaired(both: both, firstOnly: designOnly, secondOnly: baselineOnly, pairs: pairs)
            unpaired = PairedStatistics.newcombeUnpaired(design, baseline)
        case .v0_2, .v0_3:
            paired = PairedStatistics.bonettPricePaired(firstOnly: designOnly, secondOnly: baselineOnly, pairs: pairs)
            unpaired = PairedStatistics.hull(PairedStatistics.newcombeUnpaired(design, baseline), paired)
        }
        let diff = pairs == 0 ? nil : Double(designOnly - baselineOnly) / Double(pairs)
        return PairedStatistics.Difference(
            designValue: design.rate, baselineValue: baseline.rate, diff: diff, lower: paired?.lower, upper: paired?.upper,
            unpairedLower: unpaired?.lower, unpairedUpper: unpaired?.upper)
    }
}

/// The sums behind the difference of two means, each over the people a design includes (z = 1) of their integer
/// values y (microseconds, counts, billionths). Exact integers, merged in any order.
struct PairedMeanTally: Sendable {
    /// Σz, Σy, Σy² per design (1 = design, 2 = baseline).
    var count1 = 0, count2 = 0
    var sum1: Int128 = 0, sum2: Int128 = 0
    var squares1: Int128 = 0, squares2: Int128 = 0
    /// Σz₁z₂, Σy₁y₂, Σy₁z₂, Σz₁y₂: the cross terms of the covariance.
    var countBoth = 0
    var products: Int128 = 0
    var sum1WhereBoth: Int128 = 0
    var sum2WhereBoth: Int128 = 0
    /// The smallest and largest per-person difference y₁ − y₂ among the people both designs count (intervals 0.2
    /// put two pseudo-people there; see `adjustedMeanVariance`).
    var smallestDifference = Int64.max
    var largestDifference = Int64.min

    /// Counts one pair. Wrapping arithmetic, as `Tally.add`'s: the values are at most hours in microseconds
    /// (10¹⁰), so 10¹⁰ people make sums of squares and products of 10³⁰, far below Int128's 1.7·10³⁸, and the
    /// overflow checks would only cost instructions on every person.
    @inline(__always)
    mutating func add(design: Int64?, baseline: Int64?) {
        if let y1 = design {
            count1 &+= 1
            sum1 &+= Int128(y1)
            squares1 &+= Int128(y1) &* Int128(y1)
        }
        if let y2 = baseline {
            count2 &+= 1
            sum2 &+= Int128(y2)
            squares2 &+= Int128(y2) &* Int128(y2)
        }
        if let y1 = design, let y2 = baseline {
            countBoth &+= 1
            products &+= Int128(y1) &* Int128(y2)
            sum1WhereBoth &+= Int128(y1)
            sum2WhereBoth &+= Int128(y2)
            let difference = y1 &- y2
            smallestDifference = min(smallestDifference, difference)
            largestDifference = max(largestDifference, difference)
        }
    }

    mutating func merge(_ other: PairedMeanTally) {
        count1 += other.count1
        count2 += other.count2
        sum1 += other.sum1
        sum2 += other.sum2
        squares1 += other.squares1
        squares2 += other.squares2
        countBoth += other.countBoth
        products += other.products
        sum1WhereBoth += other.sum1WhereBoth
        sum2WhereBoth += other.sum2WhereBoth
        smallestDifference = min(smallestDifference, other.smallestDifference)
        largestDifference = max(largestDifference, other.largestDifference)
    }

    /// design mean − baseline mean (divided by `scale`) with the delta-method paired and unpaired intervals.
    ///
    /// `v0_1`: z quantiles, Welch's unpaired interval as is, an interval whenever both designs count someone.
    /// `v0_2`: no interval unless both designs count at least two people (as `simulate` writes none for a mean of
    /// one value); the centre, and the paired variance where it is the larger, with two pseudo-people at the
    /// extremes of the per-person differences (`adjustedMeanVariance`); Student t quantiles, with min(Z₁, Z₂) − 1 degrees of freedom for the
    /// paired interval (n − 1, the paired t interval, when both designs count the same n people) and
    /// Welch–Satterthwaite's for the unpaired one, so a mean over a handful of completed holds gets the width it
    /// needs; and the unpaired interval (Welch's, centred on the same point) never narrower than the paired one (see
    /// `PairedStatistics.hull`).
    func difference(scale: Double, rules: IntervalRules = .current) -> PairedStatistics.Difference {
        var result = PairedStatistics.Difference()
        let r1 = count1 == 0 ? nil : Double(sum1) / Double(count1)
        let r2 = count2 == 0 ? nil : Double(sum2) / Double(count2)
        result.designValue = r1.map { $0 / scale }
        result.baselineValue = r2.map { $0 / scale }
        guard let delta = deltaVariances() else { return result }
        let diff = delta.centre
        result.diff = diff / scale
        var centre = diff
        let half: Double, unpairedHalf: Double
        switch rules {
        case .v0_1:
            half = Proportion.z95 * delta.paired.squareRoot()
            unpairedHalf = Proportion.z95 * (delta.first + delta.second).squareRoot()
        case .v0_2, .v0_3:
            guard count1 >= 2, count2 >= 2 else { return result }
            let adjusted = adjustedMeanVariance()
            centre = adjusted.centre
            let variance = max(adjusted.paired, delta.paired)
            half = StudentT.quantile(0.975, degreesOfFreedom: Double(min(count1, count2) - 1)) * variance.squareRoot()
            // Welch–Satterthwaite: ν = (v₁ + v₂)² / (v₁²/(n₁ − 1) + v₂²/(n₂ − 1)), at least min(n₁, n₂) − 1.
            let unpaired = delta.first + delta.second
            let spread = delta.first * delta.first / Double(count1 - 1) + delta.second * delta.second / Double(count2 - 1)
            let welch = spread > 0 ? unpaired * unpaired / spread : Double(min(count1, count2) - 1)
            unpairedHalf = max(StudentT.quantile(0.975, degreesOfFreedom: welch) * unpaired.squareRoot(), half)
        }
        result.lower = (centre - half) / scale
        result.upper = (centre + half) / scale
        result.unpairedLower = (centre - unpairedHalf) / scale
        result.unpairedUpper = (centre + unpairedHalf) / scale
        return result
    }

    /// R₁ − R₂ in the integer unit with the delta-method variances: paired (Σu²), and each design's own,
    /// Σ(y − Rz)²/Z² (their sum is the variance with the covariance dropped); nil when a design counts nobody.
    func deltaVariances() -> (centre: Double, paired: Double, first: Double, second: Double)? {
        guard count1 > 0, count2 > 0 else { return nil }
        let z1 = Double(count1), z2 = Double(count2)
        let r1 = Double(sum1) / z1, r2 = Double(sum2) / z2
        // Σ(y − Rz)² = Σy² − (Σy)²/Σz, exactly in integers when the product fits, and never below 0.
        let spread1 = SampleMean.centredSquares(squares: squares1, sum: sum1, count: count1)
        let spread2 = SampleMean.centredSquares(squares: squares2, sum: sum2, count: count2)
        // Σ(y₁ − R₁z₁)(y₂ − R₂z₂) = Σy₁y₂ − R₂Σy₁z₂ − R₁Σz₁y₂ + R₁R₂Σz₁z₂.
        let cross = Double(products) - r2 * Double(sum1WhereBoth) - r1 * Double(sum2WhereBoth) + r1 * r2 * Double(countBoth)
        let first = spread1 / (z1 * z1), second = spread2 / (z2 * z2)
        let paired = max(0, first + second - 2 * cross / (z1 * z2))
        return (r1 - r2, paired, first, second)
    }
}
