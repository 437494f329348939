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
        var distance = 0.0
        walkKaplanMeier(sample) { time, before, after in
            let fitted = cdf(time)
            distance = max(distance, abs((1 - before) - fitted), abs((1 - after) - fitted))
        }
        return distance
    }

    /// Calls `step(time, Ŝ before the step, Ŝ after it)` at every distinct observed time, in increasing order.
    private static func walkKaplanMeier(_ sample: FitSample, _ step: (Double, Double, Double) -> Void) {
        let times = sample.times
        let censored = sample.censored
        let order = times.indices.sorted { times[$0] < times[$1] }
        var atRisk = times.count
        var survival = 1.0
        var position = 0
        while position < order.count {
            let time = times[order[position]]
            var events = 0
            var censorings = 0
            while position < order.count && times[order[position]] == time {
                if censored[order[position]] { censorings += 1 } else { events += 1 }
                position += 1
            }
            if events > 0 {
                let before = survival
                survival = events == atRisk ? 0 : survival * (1 - Double(events) / Double(atRisk))
                step(time, before, survival)
            }
            atRisk -= events + censorings
        }
    }

    /// The parametric-bootstrap p-value of `fit`'s KS distance: p = (1 + #{D_b ≥ D}) / (B + 1).
    ///
    /// Each of the `replicates` B draws n times from the fitted distribution, censors them like the data (see
    /// ``CensoringDistribution``), refits the same family by maximum likelihood (starting from `fit`'s estimates,
    /// ``DistributionFitting/refit(_:likelihood:from:)``),
    /// and computes D_b against its own refit: refitting is what makes the p-value valid for estimated parameters
    /// (Lilliefors' correction, done by simulation). Replicate b draws from `Generator(seed: seed, stream:
    /// familyIndex·2³² + b)`, so the result does not depend on `threads` or on which other families are fitted. A
    /// replicate whose refit fails counts as D_b ≥ D (conservative). The smallest possible p is 1/(B + 1).
    static func bootstrapPValue(
        _ fit: FamilyFit, sample: FitSample, replicates: Int, seed: UInt64, threads: Int
    ) -> Double {
        guard replicates > 0, let distribution = fit.family.distribution(fit.parameters) else { return .nan }
        let censoring = CensoringDistribution(sample)
        let familyIndex = UInt64(FitFamily.allCases.firstIndex(of: fit.family) ?? 0)
        let n = sample.count
        let results = ReplicateResults(count: replicates)
        let workers = max(1, min(threads, replicates))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var replicate = worker
            while replicate < replicates {
                let generator = Generator(seed: seed, stream: familyIndex << 32 | UInt64(replicate))
                var times = [Double](repeating: 0, count: n)
                var flags = [Bool](repeating: false, count: n)
                for index in 0..<n {
                    let time = distribution.sample(generator)
                    let limit = censoring.draw(generator)
                    if time > limit {
                        times[index] = limit
                        flags[index] = true
                    } else {
                        times[index] = time
                    }
                }
                let draw = FitSample(unchecked: times, censored: flags)
                var statistic = Double.infinity
                if flags.contains(false),
                   let estimate = try? DistributionFitting.refit(fit.family, likelihood: LogLikelihood(draw),
                                                                 from: fit.parameters),
                   let refit = fit.family.distribution(estimate) {
                    let value = ksStatistic(draw, cdf: refit.cdf)
                    if value.isFinite { statistic = value }
                }
                results.store(statistic, at: replicate)
                replicate += workers
            }
        }
        let extreme = results.values.filter { $0 >= fit.ksStatistic }.count
        return Double(1 + extreme) / Double(replicates + 1)
    }
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
        var times: [Double] = []
        var cumulative: [Double] = []
        let order = sample.times.indices.sorted { sample.times[$0] < sample.times[$1] }
        var atRisk = order.count
        var remaining = 1.0
        var position = 0
        while position < order.count {
            let time = sample.times[order[position]]
            var events = 0
            var censorings = 0
            while position < order.count && sample.times[order[position]] == time {
                if sample.censored[order[position]] { censorings += 1 } else { events += 1 }
                position += 1
            }
            if censorings > 0 {
                let mass = censorings == atRisk ? remaining : remaining * Double(censorings) / Double(atRisk)
                remaining -= mass
                times.append(time)
                cumulative.append(1 - remaining)
            }
            atRisk -= events + censorings
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
