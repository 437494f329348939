import HoldLabIO
import HoldModel

/// What one person's hold under one design contributes to the compared statistics: the same quantities, in the
/// same integer units, as `Tally.add` counts them, so a design's value here is its `simulate` column exactly.
struct PersonMeasures {
    /// Bits: the person is in a rate's denominator (intent or accidental user) and the rate's event happened.
    var rateEvents: UInt8 = 0
    var intent = false
    var accidental = false
    /// The values of the means, valid where `present` has the bit.
    var values = SIMD8<Int64>(repeating: 0)
    var present: UInt8 = 0

    @inline(__always)
    mutating func set(_ mean: Int, _ value: Int64) {
        values[mean] = value
        present |= 1 << UInt8(mean)
    }

    @inline(__always)
    func value(_ mean: Int) -> Int64? { present & (1 << UInt8(mean)) != 0 ? values[mean] : nil }

    @inline(__always)
    func happened(_ rate: Int) -> Bool { rateEvents & (1 << UInt8(rate)) != 0 }

    init() {}

    /// A person without intent to confirm: all that counts is whether the action fired (`Tally.addAccidental`).
    @inline(__always)
    init(accidentalFired fired: Bool) {
        accidental = true
        if fired { rateEvents |= 1 << UInt8(ComparedMetric.Rate.falseActivation.rawValue) }
    }

    /// Mirrors `Tally.add`: who counts where, in microseconds, counts and billionths.
    @inline(__always)
    init(_ run: UserRun) {
        self.init(CountedHold(run))
    }

    /// One person's hold, as `Tally.add` counts it.
    @inline(__always)
    init(_ counted: CountedHold) {
        let hold = counted.summary, outcome = counted.outcome, pressEnd = counted.pressEnd
        let trigger = counted.trigger, hasFill = counted.hasFill
        func mark(_ rate: ComparedMetric.Rate) { rateEvents |= 1 << UInt8(rate.rawValue) }
        switch outcome {
        case .falseActivation, .noActivation:
            self = PersonMeasures(accidentalFired: outcome == .falseActivation)
            return
        case .completed: mark(.completion)
        case .prematureRelease: mark(.prematureRelease)
        case .prematureImpatience: mark(.prematureRelease); mark(.prematureImpatience)
        case .prematureMismatch: mark(.prematureRelease); mark(.prematureMismatch)
        case .movementCancel: mark(.movementCancel)
        }
        intent = true
        if hold.feedback != .max {
            set(ComparedMetric.Mean.firstFeedback.rawValue, microseconds(nanoseconds: hold.feedback))
        } else {
            mark(.noFeedback)
        }
        if hold.firstEmptyFrame != .max {
            set(ComparedMetric.Mean.retract.rawValue, microseconds(nanoseconds: hold.firstEmptyFrame - pressEnd))
        }
        guard hold.completed, trigger != .max else { return }
        if hasFill {
            set(ComparedMetric.Mean.completedUnseen.rawValue, hold.firstFullFrameSeen == .max ? 1 : 0)
        }
        set(ComparedMetric.Mean.completionTime.rawValue, microseconds(nanoseconds: trigger))
        set(ComparedMetric.Mean.pulses.rawValue, Int64(hold.pulses))
        set(ComparedMetric.Mean.droppedPulses.rawValue, Int64(hold.droppedPulses))
        if hold.firstFullFrameSeen != .max {
            set(ComparedMetric.Mean.mismatch.rawValue, microseconds(nanoseconds: trigger - hold.firstFullFrameSeen))
        }
        set(ComparedMetric.Mean.progressAtTrigger.rawValue, billionths(hold.displayedProgressAtTrigger))
    }
}

/// A statistic `holdlab compare` differences: every rate and mean of the `simulate` columns, named as there.
public struct ComparedMetric: Sendable {
    /// Rates whose denominator is the same people under every design (decided by the person's class).
    enum Rate: Int, CaseIterable {
        case completion, prematureRelease, prematureImpatience, prematureMismatch, movementCancel, noFeedback
        case falseActivation
    }

    /// Means (and one rate) over people a design decides: its completed holds, its retracts.
    enum Mean: Int, CaseIterable {
        case completionTime, pulses, droppedPulses, mismatch, progressAtTrigger, firstFeedback, retract, completedUnseen
    }

    enum Kind {
        case rate(Rate)
        case mean(Mean, scale: Double)
    }

    /// The `simulate` column.
    public let name: String
    let kind: Kind
    /// Decimals in the CSV (as the `simulate` column).
    public let decimals: Int

    /// The method column's value: how the paired interval is computed.
    public var method: String {
        switch kind {
        case .rate: return ComparedMetric.rateMethod
        case .mean: return ComparedMetric.meanMethod
        }
    }

    /// Newcombe's paired hybrid score interval (rates over the same people).
    public static let rateMethod = "newcombe-paired-score"
    /// The delta-method interval for two ratio means over the same people (Wald on the per-person linearised
    /// differences).
    public static let meanMethod = "paired-delta"

    /// In `simulate` column order.
    public static let all: [ComparedMetric] = [
        ComparedMetric(name: "completion_rate", kind: .rate(.completion), decimals: 6),
        ComparedMetric(name: "premature_release_rate", kind: .rate(.prematureRelease), decimals: 6),
        ComparedMetric(name: "premature_impatience_rate", kind: .rate(.prematureImpatience), decimals: 6),
        ComparedMetric(name: "premature_mismatch_rate", kind: .rate(.prematureMismatch), decimals: 6),
        ComparedMetric(name: "movement_cancel_rate", kind: .rate(.movementCancel), decimals: 6),
        ComparedMetric(name: "false_activation_rate", kind: .rate(.falseActivation), decimals: 6),
        ComparedMetric(name: "completion_time_mean_ms", kind: .mean(.completionTime, scale: 1000), decimals: 3),
        ComparedMetric(name: "pulses_mean", kind: .mean(.pulses, scale: 1), decimals: 3),
        ComparedMetric(name: "dropped_pulses_mean", kind: .mean(.droppedPulses, scale: 1), decimals: 3),
        ComparedMetric(name: "completed_unseen_rate", kind: .mean(.completedUnseen, scale: 1), decimals: 6),
        ComparedMetric(name: "mismatch_mean_ms", kind: .mean(.mismatch, scale: 1000), decimals: 3),
        ComparedMetric(name: "progress_at_trigger_mean", kind: .mean(.progressAtTrigger, scale: 1_000_000_000), decimals: 6),
        ComparedMetric(name: "no_feedback_rate", kind: .rate(.noFeedback), decimals: 6),
        ComparedMetric(name: "first_feedback_ms", kind: .mean(.firstFeedback, scale: 1000), decimals: 3),
        ComparedMetric(name: "retract_mean_ms", kind: .mean(.retract, scale: 1000), decimals: 3),
    ]
}

/// One design against the baseline, person by person: a 2×2 table per rate and the cross sums per mean.
struct PairTally: Sendable {
    var rates = [PairedRateTally](repeating: PairedRateTally(), count: ComparedMetric.Rate.allCases.count)
    var means = [PairedMeanTally](repeating: PairedMeanTally(), count: ComparedMetric.Mean.allCases.count)

    @inline(__always)
    mutating func add(design: PersonMeasures, baseline: PersonMeasures) {
        if design.intent {
            for rate in 0..<ComparedMetric.Rate.falseActivation.rawValue {
                rates[rate].add(design: design.happened(rate), baseline: baseline.happened(rate))
            }
        } else if design.accidental {
            let rate = ComparedMetric.Rate.falseActivation.rawValue
            rates[rate].add(design: design.happened(rate), baseline: baseline.happened(rate))
        }
        // A mean neither person has adds nothing: only the means present for one of them are visited.
        var present = design.present | baseline.present
        while present != 0 {
            let mean = present.trailingZeroBitCount
            present &= present &- 1
            means[mean].add(design: design.value(mean), baseline: baseline.value(mean))
        }
    }

    mutating func merge(_ other: PairTally) {
        for index in rates.indices { rates[index].merge(other.rates[index]) }
        for index in means.indices { means[index].merge(other.means[index]) }
    }

    func difference(_ metric: ComparedMetric) -> PairedStatistics.Difference {
        switch metric.kind {
        case .rate(let rate): return rates[rate.rawValue].difference()
        case .mean(let mean, let scale): return means[mean.rawValue].difference(scale: scale)
        }
    }
}
