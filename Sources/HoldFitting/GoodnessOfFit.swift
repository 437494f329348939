import Foundation
import GSL

/// Kolmogorov–Smirnov distances for possibly censored samples, and their parametric-bootstrap p-values.
public enum GoodnessOfFit {
    /// The Kaplan–Meier estimate of the survival function: one step per distinct observed time, as
    /// (time, Ŝ(time)) with Ŝ right-continuous (the value just after the step).
    ///
    /// Ŝ(t) = Π over observed times tⱼ ≤ t of (1 − dⱼ/nⱼ), dⱼ observed at tⱼ, nⱼ rows with time ≥ tⱼ (a row
    /// censored at tⱼ is still at risk at tⱼ: the usual convention). Without censoring this is 1 − the ECDF.
    public static func kaplanMeier(_ sample: FitSample) -> [(time: Double, survival: Double)] {
        var steps: [(time: Double, survival: Double)] = []
        walkKaplanMeier(sample) { time, _, after in steps.append((time, after)) }
        return steps
    }

    /// The Kolmogorov–Smirnov distance D = sup |F̂(t) − F(t)| between the data's distribution function and `cdf`.
    ///
    /// Without censoring F̂ is the ECDF and D is the classical statistic. With censoring F̂ = 1 − Ŝ (Kaplan–Meier,
    /// ``kaplanMeier(_:)``) and the supremum runs over t up to the largest observed (uncensored) time: beyond it
    /// the data say nothing about F. F̂ is a step function and `cdf` continuous and increasing, so the supremum is
    /// attained at a step: D = maxⱼ max(|F̂(tⱼ₋₁) − F(tⱼ)|, |F̂(tⱼ) − F(tⱼ)|) over the distinct observed times
    /// tⱼ, with F̂ = 0 before the first. Costs one sort and one `cdf` call per distinct observed time.
    public static func ksStatistic(_ sample: FitSample, cdf: (Double) -> Double) -> Double {
        ksStatistic(kaplanMeierSteps(sample), cdf: cdf)
    }

    /// The KS distance over Kaplan–Meier steps computed once (``kaplanMeierSteps(_:)``): one `cdf` call per step.
    static func ksStatistic(_ steps: [KaplanMeierStep], cdf: (Double) -> Double) -> Double {
        var distance = 0.0
        for step in steps {
            let fitted = cdf(step.time)
            distance = max(distance, abs((1 - step.before) - fitted), abs((1 - step.after) - fitted))
        }
        return distance
    }

    /// Every distinct observed time with Ŝ just before and just after its step, in increasing order.
    static func kaplanMeierSteps(_ sample: FitSample) -> [KaplanMeierStep] {
        var steps: [KaplanMeierStep] = []
        walkKaplanMeier(sample) { time, before, after in steps.append(KaplanMeierStep(time: time, before: before, after: after)) }
        return steps
    }

    /// Calls `step(time, Ŝ before the step, Ŝ after it)` at every distinct observed time, in increasing order.
    private static func walkKaplanMeier(_ sample: FitSample, _ step: (Double, Double, Double) -> Void) {
        walkKaplanMeier(LogLikelihood(sample), step)
    }

    /// The same over a sample already grouped (sorted once, shared with the likelihood).
    static func walkKaplanMeier(_ grouped: LogLikelihood, _ step: (Double, Double, Double) -> Void) {
        var survival = 1.0
        walkGroups(grouped) { time, events, _, atRisk in
            guard events > 0 else { return }
            let before = survival
            survival = events == atRisk ? 0 : survival * (1 - events / atRisk)
            step(time, before, survival)
        }
    }

    /// Kaplan–Meier steps of a grouped sample, without sorting again.
    static func kaplanMeierSteps(_ grouped: LogLikelihood) -> [KaplanMeierStep] {
        var steps: [KaplanMeierStep] = []
        walkKaplanMeier(grouped) { time, before, after in steps.append(KaplanMeierStep(time: time, before: before, after: after)) }
        return steps
    }

    /// Calls `body(time, events, censorings, at risk)` at every distinct time, observed or censored, increasing, by
    /// merging the grouped observed and censored times; "at risk" counts rows with time ≥ this one.
    static func walkGroups(_ grouped: LogLikelihood, _ body: (Double, Double, Double, Double) -> Void) {
        var atRisk = grouped.totalCount
        var o = 0
        var c = 0
        let observed = grouped.observedTimes
        let censored = grouped.censoredTimes
        while o < observed.count || c < censored.count {
            let time = min(o < observed.count ? observed[o] : .infinity, c < censored.count ? censored[c] : .infinity)
            var events = 0.0
            var censorings = 0.0
            if o < observed.count, observed[o] == time {
                events = grouped.observedCounts[o]
                o += 1
            }
            if c < censored.count, censored[c] == time {
                censorings = grouped.censoredCounts[c]
                c += 1
            }
            body(time, events, censorings, atRisk)
            atRisk -= events + censorings
        }
    }

    /// The parametric-bootstrap p-value of `fit`'s KS distance: p = (1 + #{D_b ≥ D}) / (B + 1).
    ///
    /// Each of the `replicates` B draws m = min(n, `drawSize`) times from the fitted distribution, censors them like
    /// the data (see ``CensoringDistribution``), refits the same family by maximum likelihood (starting from `fit`'s
    /// estimates, ``DistributionFitting/refit(_:likelihood:from:)``), and computes D_b against its own refit:
    /// refitting is what makes the p-value valid for estimated parameters (Lilliefors' correction, done by
    /// simulation). When m < n the draws are a smaller sample from the same fitted distribution, and the statistics
    /// are compared on the scale on which their null distribution settles, √m·D_b against √n·D (the KS distance
    /// shrinks as 1/√n; its limit law under estimated parameters depends on the family, not on n), so the cost is
    /// O(B·m) whatever n. Replicate b draws from `Generator(seed: seed, stream: familyIndex·2³² + b)`, so the result
    /// does not depend on `threads` or on which other families are fitted. A replicate whose refit fails counts as
    /// D_b ≥ D (conservative). The smallest possible p is 1/(B + 1). `step` is called once per finished replicate
    /// (from worker threads).
    static func bootstrapPValue(
        _ fit: FamilyFit, sample: FitSample, replicates: Int, seed: UInt64, threads: Int, drawSize: Int = .max
    ) -> Double {
        bootstrapPValue(fit, censoring: CensoringDistribution(sample), count: sample.count, replicates: replicates,
                        seed: seed, threads: threads, drawSize: drawSize, step: nil)
    }

    static func bootstrapPValue(
        _ fit: FamilyFit, censoring: CensoringDistribution, count n: Int, replicates: Int, seed: UInt64, threads: Int,
        drawSize: Int, step: (@Sendable () -> Void)?
    ) -> Double {
        guard replicates > 0, let distribution = fit.family.distribution(fit.parameters) else { return .nan }
        let familyIndex = UInt64(FitFamily.allCases.firstIndex(of: fit.family) ?? 0)
        let m = max(1, min(n, drawSize))
        // √m·D_b ≥ √n·D, i.e. D_b ≥ D·√(n/m); exactly D_b ≥ D when nothing is subsampled.
        let threshold = m == n ? fit.ksStatistic : fit.ksStatistic * (Double(n) / Double(m)).squareRoot()
        let results = ReplicateResults(count: replicates)
        let workers = max(1, min(threads, replicates))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var replicate = worker
            while replicate < replicates {
                let generator = Generator(seed: seed, stream: familyIndex << 32 | UInt64(replicate), kind: .mt19937)
                var times = [Double](repeating: 0, count: m)
                var flags = [Bool](repeating: false, count: m)
                for index in 0..<m {
                    let time = distribution.sample(generator)
                    let limit = censoring.draw(generator)
                    if time > limit {
                        times[index] = limit
                        flags[index] = true
                    } else {
                        times[index] = time
                    }
                }
                let draw = LogLikelihood(FitSample(unchecked: times, censored: flags))
                var statistic = Double.infinity
                if draw.observedCount > 0,
                   let estimate = try? DistributionFitting.refit(fit.family, likelihood: draw, from: fit.parameters),
                   let refit = fit.family.distribution(estimate) {
                    let value = ksStatistic(kaplanMeierSteps(draw), cdf: refit.cdf)
                    if value.isFinite { statistic = value }
                }
                results.store(statistic, at: replicate)
                step?()
                replicate += workers
            }
        }
        let extreme = results.values.filter { $0 >= threshold }.count
        return Double(1 + extreme) / Double(replicates + 1)
    }
}

/// One step of the Kaplan–Meier estimate: a distinct observed time and Ŝ just before and just after it.
struct KaplanMeierStep: Sendable {
    let time: Double
    let before: Double
    let after: Double
}

/// How the data were censored, estimated for the bootstrap: the reverse Kaplan–Meier estimate of the censoring-time
/// distribution G (censorings counted as events, observed times as censored).
///
/// A fixed trigger time T (every hold still down at T is censored there) gives all of G's mass at T, so every
/// bootstrap draw longer than T is censored at T, exactly like the data. Mass G leaves beyond the largest time (when
/// the longest row was observed) means "never censored". Without censored rows G is empty and no draw is censored.
/// Draws take one uniform each when G has mass and none otherwise.
struct CensoringDistribution: Sendable {
    /// Distinct censoring times, increasing.
    let times: [Double]
    /// Cumulative probability up to and including each time; the rest (1 − last) is "never censored".
    let cumulative: [Double]

    init(_ sample: FitSample) {
        self.init(LogLikelihood(sample))
    }

    /// The same from a sample already grouped.
    init(_ grouped: LogLikelihood) {
        var times: [Double] = []
        var cumulative: [Double] = []
        var remaining = 1.0
        GoodnessOfFit.walkGroups(grouped) { time, _, censorings, atRisk in
            guard censorings > 0 else { return }
            let mass = censorings == atRisk ? remaining : remaining * censorings / atRisk
            remaining -= mass
            times.append(time)
            cumulative.append(1 - remaining)
        }
        self.times = times
        self.cumulative = cumulative
    }

    /// A censoring time, or +∞ (never censored): the first time whose cumulative probability exceeds one uniform
    /// draw, found by binary search (triggers that vary per hold give thousands of distinct times).
    func draw(_ generator: Generator) -> Double {
        guard !times.isEmpty else { return .infinity }
        let u = generator.uniform()
        var low = 0
        var high = cumulative.count
        while low < high {
            let middle = (low + high) / 2
            if u < cumulative[middle] { high = middle } else { low = middle + 1 }
        }
        return low < times.count ? times[low] : .infinity
    }
}

/// Per-replicate results written by concurrent workers, each to its own indices.
private final class ReplicateResults: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<Double>

    init(count: Int) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: .nan)
    }

    deinit { storage.deallocate() }

    /// Only one worker ever writes index `index` (the replicates are dealt out round-robin).
    func store(_ value: Double, at index: Int) { storage[index] = value }

    var values: [Double] { Array(storage) }
}
