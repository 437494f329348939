import HoldLabIO

/// Which formulas `compare` (and `report`) use for the intervals of a difference.
///
/// Figures cited from an earlier version must stay reproducible to the byte, so the rules of every released
/// version stay selectable (`--intervals 0.1`). A new rule set is added when a change moves a printed interval.
///
/// - `v0_1` (holdlab 0.1): rates over the same people by Newcombe's paired hybrid score (method 10), every mean and
///   `completed_unseen_rate` by the delta method; unpaired intervals Newcombe's independent hybrid score and
///   Welch's. Two known failures (issue 27): the paired score interval, and the delta method on a rate, have zero
///   (or almost zero) width when the pairs are all concordant while the designs still differ (coverage 0.335 for
///   `completed_unseen_rate` of `slow` at 2,000 users); and the unpaired interval of a mean is narrower than the
///   sampling spread of the printed difference whenever the designs' values are negatively correlated across the
///   same people (`first_feedback_ms` of `mid`: correlation −0.49, coverage 0.886).
/// - `v0_2` (holdlab 0.2): rates over the same people by Bonett and Price's adjusted Wald interval for paired
///   proportions; `completed_unseen_rate` (a rate over people the design decides) by the delta method on the same
///   adjusted counts; other means by the delta method with two pseudo-people at the extremes of the per-person
///   differences and Student t quantiles, and no interval for a mean over fewer than two people under a design. Each unpaired interval is the independent-samples one widened, where it
///   is narrower, to the paired one. Coverage measured by `.ci/coverage` (docs/INTERVALS.md, *Intervals that
///   keep their promise*).
/// - `v0_3` (holdlab 0.3.9): `compare`'s intervals as `v0_2`; a review's knob shares (`ContrastComparison`: a key
///   alone, removed, its Shapley value, the interaction, the total) by Bonett and Price's adjustment carried to each
///   person's contrast, two pseudo-people at the contrast's extremes (`bonett-price-contrast`), where `v0_2` and
///   before took the Wald interval of the per-person contrasts (`wald-contrast`), which has zero width whenever no
///   person differs (every share "0.0 (0.0 to 0.0)" at a review's sample while the true share was not 0).
public enum IntervalRules: String, Sendable, CaseIterable {
    case v0_1 = "0.1"
    case v0_2 = "0.2"
    case v0_3 = "0.3"

    /// What this version of holdlab uses unless told otherwise.
    public static let current = IntervalRules.v0_3

    /// The interval of a knob share (`knob-shares.csv`'s `# method:` line).
    public var contrastMethod: String {
        switch self {
        case .v0_1, .v0_2: return "wald-contrast"
        case .v0_3: return "bonett-price-contrast"
        }
    }

    /// The knob shares' interval in words, as report.md names it.
    public var contrastWords: String {
        switch self {
        case .v0_1, .v0_2: return "Wald, on each person's contrast"
        case .v0_3: return "Bonett and Price's adjustment carried to each person's contrast"
        }
    }

    /// The `# method:` provenance line of `knob-shares.csv`.
    public var contrastProvenance: String {
        switch self {
        case .v0_1, .v0_2:
            return "knob shares: \(contrastMethod) (Wald on each person's contrast) (intervals \(rawValue))"
        case .v0_3:
            return "knob shares: \(contrastMethod) (Bonett and Price's adjustment carried to each person's contrast: "
                + "two pseudo-people at its extremes; for a key against the base, compare's bonett-price-paired) "
                + "(intervals \(rawValue))"
        }
    }

    /// The `method` column of a rate over the same people.
    public var rateMethod: String {
        switch self {
        case .v0_1: return "newcombe-paired-score"
        case .v0_2, .v0_3: return "bonett-price-paired"
        }
    }

    /// The `method` column of a rate over people the design decides (`completed_unseen_rate`).
    public var ratioMethod: String {
        switch self {
        case .v0_1: return "paired-delta"
        case .v0_2, .v0_3: return "bonett-price-delta"
        }
    }

    /// The `method` column of a mean.
    public var meanMethod: String {
        switch self {
        case .v0_1: return "paired-delta"
        case .v0_2, .v0_3: return "paired-delta-adjusted"
        }
    }

    /// The `# method:` provenance line.
    public var provenance: String {
        switch self {
        case .v0_1:
            return "rates: \(rateMethod) (Newcombe 1998, method 10); means: \(meanMethod) "
                + "(delta method over the same people); unpaired: Newcombe's independent hybrid score, Welch"
        case .v0_2, .v0_3:
            return "rates: \(rateMethod) (Bonett and Price 2012, adjusted Wald for paired proportions); "
                + "completed_unseen_rate: \(ratioMethod) (the same adjustment, delta method); means: \(meanMethod) "
                + "(delta method over the same people, two pseudo-people at the extremes of the per-person differences, "
                + "Student t); unpaired: Newcombe's independent hybrid score, Welch, "
                + "never narrower than the paired interval (intervals \(rawValue))"
        }
    }
}

extension PairedStatistics {
    /// Bonett and Price's adjusted Wald interval for p₁ − p₂ from paired data (Bonett & Price 2012, *Journal of
    /// Educational and Behavioral Statistics* 37:479, eq. 5), from the discordant counts `firstOnly` (b),
    /// `secondOnly` (c) and all `pairs` (n). Nil without pairs.
    ///
    /// One pair discordant each way is added: p̃_b = (b + 1)/(n + 2), p̃_c = (c + 1)/(n + 2), and the interval is
    /// p̃_b − p̃_c ± z·√((p̃_b + p̃_c − (p̃_b − p̃_c)²)/(n + 2)), clipped to [−1, 1]. Its half-width is at least
    /// z·√2/(n + 2) (all pairs concordant), so it never has zero width: a sample without a discordant pair still
    /// leaves a difference of about 1/n possible, which a score interval with its variance at the observed
    /// rates (Newcombe's method 10, or Wald) does not see. Coverage measured by `.ci/coverage`.
    public static func bonettPricePaired(firstOnly: Int, secondOnly: Int, pairs: Int) -> (lower: Double, upper: Double)? {
        guard pairs > 0 else { return nil }
        let n = Double(pairs) + 2
        let b = (Double(firstOnly) + 1) / n, c = (Double(secondOnly) + 1) / n
        let centre = b - c
        let half = Proportion.z95 * (max(0, b + c - centre * centre) / n).squareRoot()
        return (max(-1, centre - half), min(1, centre + half))
    }

    /// The smallest interval holding both: an unpaired interval widened to the paired one where it is narrower.
    ///
    /// The printed difference comes from the same people under both designs, so its sampling spread is the paired
    /// one. An independent-samples interval (Welch's, Newcombe's φ = 0) is wider than that when the designs' values
    /// are positively correlated across people, which is what it is there to show, but narrower when they are
    /// negatively correlated (`first_feedback_ms` when one design's first visible frame comes early exactly when
    /// the other's comes late), and then it would not hold the true difference 95 % of the time.
    static func hull(_ first: (lower: Double, upper: Double)?, _ second: (lower: Double, upper: Double)?)
        -> (lower: Double, upper: Double)? {
        guard let first else { return second }
        guard let second else { return first }
        return (min(first.lower, second.lower), max(first.upper, second.upper))
    }
}

extension PairedMeanTally {
    /// A rate over people the design decides (`completed_unseen_rate`: y ∈ {0, 1} over each design's completed
    /// holds), with Bonett and Price's adjustment carried to the delta method.
    ///
    /// Two pseudo-people counted by both designs are added, one with the event under the design only and one under
    /// the baseline only, and the delta-method interval of R₁ − R₂ = Σy₁/Σz₁ − Σy₂/Σz₂ is computed on the
    /// augmented sums and centred on the adjusted difference. When both designs count the same people this is
    /// exactly `bonettPricePaired`; it never has zero width. The unpaired interval is Newcombe's hybrid score for
    /// independent proportions Σy₁ of Σz₁ and Σy₂ of Σz₂ (each rate over the people it is defined on), widened to
    /// the paired one.
    func adjustedRateDifference() -> PairedStatistics.Difference {
        var result = PairedStatistics.Difference()
        let design = Proportion(successes: Int(sum1), trials: count1)
        let baseline = Proportion(successes: Int(sum2), trials: count2)
        result.designValue = design.rate
        result.baselineValue = baseline.rate
        guard let r1 = design.rate, let r2 = baseline.rate else { return result }
        result.diff = r1 - r2
        var adjusted = self
        adjusted.add(design: 1, baseline: 0)
        adjusted.add(design: 0, baseline: 1)
        let clipped = adjusted.deltaVariances().map { delta in
            let half = Proportion.z95 * delta.paired.squareRoot()
            return (max(-1, delta.centre - half), min(1, delta.centre + half))
        }
        let unpaired = PairedStatistics.hull(PairedStatistics.newcombeUnpaired(design, baseline), clipped)
        result.lower = clipped?.0
        result.upper = clipped?.1
        result.unpairedLower = unpaired?.lower
        result.unpairedUpper = unpaired?.upper
        return result
    }
}

extension PairedMeanTally {
    /// The delta method's centre R₁′ − R₂′ and paired variance Σu′² (integer units) after adding `pseudo`, people
    /// counted by both designs with values (y₁, y₂), to the real ones; nil when a design counts nobody.
    ///
    /// Exact algebra on the tally's sums, no second pass: with e = y − Rz, δ = R′ − R and Z′ = Z + m for m pseudo
    /// people, the real people contribute ΣA²/Z₁′² + ΣB²/Z₂′² − 2ΣAB/(Z₁′Z₂′), where ΣA² = Σe₁² + δ₁²Z₁,
    /// ΣB² = Σe₂² + δ₂²Z₂ and ΣAB = Σe₁e₂ − δ₂Σe₁z₂ − δ₁Σz₁e₂ + δ₁δ₂Σz₁z₂ (Σe₁z₁ = 0), and each pseudo-person
    /// ((a − R₁′)/Z₁′ − (b − R₂′)/Z₂′)².
    func augmentedVariance(_ pseudo: [(Double, Double)]) -> (centre: Double, paired: Double)? {
        guard count1 > 0, count2 > 0 else { return nil }
        let z1 = Double(count1), z2 = Double(count2), m = Double(pseudo.count)
        let r1 = Double(sum1) / z1, r2 = Double(sum2) / z2
        let adjusted1 = z1 + m, adjusted2 = z2 + m
        let s1 = (r1 * z1 + pseudo.reduce(0) { $0 + $1.0 }) / adjusted1
        let s2 = (r2 * z2 + pseudo.reduce(0) { $0 + $1.1 }) / adjusted2
        let delta1 = s1 - r1, delta2 = s2 - r2
        let spread1 = SampleMean.centredSquares(squares: squares1, sum: sum1, count: count1)
        let spread2 = SampleMean.centredSquares(squares: squares2, sum: sum2, count: count2)
        let cross = Double(products) - r2 * Double(sum1WhereBoth) - r1 * Double(sum2WhereBoth) + r1 * r2 * Double(countBoth)
        let firstWhereBoth = Double(sum1WhereBoth) - r1 * Double(countBoth)
        let secondWhereBoth = Double(sum2WhereBoth) - r2 * Double(countBoth)
        let a2 = spread1 + delta1 * delta1 * z1
        let b2 = spread2 + delta2 * delta2 * z2
        let ab = cross - delta2 * firstWhereBoth - delta1 * secondWhereBoth + delta1 * delta2 * Double(countBoth)
        var variance = a2 / (adjusted1 * adjusted1) + b2 / (adjusted2 * adjusted2) - 2 * ab / (adjusted1 * adjusted2)
        for (a, b) in pseudo {
            let u = (a - s1) / adjusted1 - (b - s2) / adjusted2
            variance += u * u
        }
        return (s1 - s2, max(0, variance))
    }

    /// The paired centre and variance of a mean's difference under intervals 0.2: two pseudo-people counted by both
    /// designs, at the smallest and the largest per-person difference seen (each the baseline's mean under the
    /// baseline and that much more under the design).
    ///
    /// Bonett and Price's adjustment for a rate adds one discordant pair each way, the two extremes of a 0/1
    /// difference; this is the same with the extremes the sample showed. A mean whose designs differ for only a few
    /// people (`first_feedback_ms` of `slow`: one frame later for 1.2 % of them, 8.33·Bernoulli(0.012)) is a rate in
    /// disguise, and its plain delta interval is Wald's, which covered 0.927 of 1,000 seeds at 1,700 people; the
    /// adjustment gives it about 0.95 (a NumPy simulation of that difference: 0.938 → 0.953; 0.87 → 0.96 at 300
    /// people) and changes a continuous mean's interval by well under 1 % at review sizes. With a handful of people
    /// the pseudo-people can shrink the variance (Z grows faster than Σu²), so `difference` takes the larger of the
    /// two variances (lognormal differences of 30 people: 0.878 plain, 0.923 so, 0.900 with the plain centre). A
    /// difference that is the same for everyone both designs count (smallest = largest) gets none: its interval
    /// keeps zero width when the designs' values are constant.
    func adjustedMeanVariance() -> (centre: Double, paired: Double) {
        let plain = deltaVariances().map { (centre: $0.centre, paired: $0.paired) } ?? (centre: .nan, paired: .nan)
        guard countBoth > 0, smallestDifference < largestDifference, count2 > 0 else { return plain }
        let base = Double(sum2) / Double(count2)
        let pseudo = [(base + Double(smallestDifference), base), (base + Double(largestDifference), base)]
        return augmentedVariance(pseudo) ?? plain
    }
}
