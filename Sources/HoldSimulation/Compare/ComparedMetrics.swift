import HoldModel

/// A statistic `holdlab compare` differences: every rate and mean of the metric registry (`Metric.all`), named and
/// ordered as the `simulate` columns.
public struct ComparedMetric: Sendable {
    enum Kind: Sendable {
        /// A rate over people decided by their class (the same people under every design): a paired proportion.
        case rate(HoldEvent, over: HoldEvent)
        /// A rate over people a design decides (its completed holds): the mean of a 0/1 indicator over them.
        case ratio(HoldEvent, over: HoldEvent)
        /// A mean over the holds that have the value, in its integer units.
        case mean(HoldValue)
    }

    /// The `simulate` column.
    public let name: String
    let kind: Kind
    /// Decimals in the CSV (as the `simulate` column).
    public let decimals: Int

    /// The method column's value: how the paired interval is computed under `rules`.
    public func method(_ rules: IntervalRules = .current) -> String {
        switch kind {
        case .rate: return rules.rateMethod
        case .ratio: return rules.ratioMethod
        case .mean: return rules.meanMethod
        }
    }

    /// In `simulate` column order: every rate and mean of the registry.
    public static let all: [ComparedMetric] = Metric.all.compactMap { metric in
        switch metric.kind {
        case .rate(let event, let denominator, _):
            let kind: Kind = denominator.decidedByClass ? .rate(event, over: denominator) : .ratio(event, over: denominator)
            return ComparedMetric(name: metric.name, kind: kind, decimals: metric.decimals)
        case .mean(let value):
            return ComparedMetric(name: metric.name, kind: .mean(value), decimals: metric.decimals)
        case .count, .quantile, .maximum, .minimum:
            return nil
        }
    }
}

/// Which events and values a comparison pairs, as bit masks read once per chunk: what `PairTally.add` walks per
/// person without touching the registry.
struct PairPlan: Sendable {
    /// Numerator events of the paired rates over intent users, and over accidental users.
    var intentRates: UInt16 = 0
    var accidentalRates: UInt16 = 0
    /// Numerator events of the ratios, and each one's denominator event (by numerator).
    var ratios: UInt16 = 0
    var ratioDenominators = SIMD16<UInt8>(repeating: 0)

    static let compared: PairPlan = {
        var plan = PairPlan()
        for metric in ComparedMetric.all {
            switch metric.kind {
            case .rate(let event, .intent): plan.intentRates |= 1 << UInt16(event.rawValue)
            case .rate(let event, _): plan.accidentalRates |= 1 << UInt16(event.rawValue)
            case .ratio(let event, let denominator):
                plan.ratios |= 1 << UInt16(event.rawValue)
                plan.ratioDenominators[event.rawValue] = UInt8(denominator.rawValue)
            case .mean: break
            }
        }
        return plan
    }()
}

/// One design against the baseline, person by person: a 2×2 table per paired rate (by numerator event), and the
/// cross sums per mean (by value) and per ratio (by numerator event).
struct PairTally: Sendable {
    var rates = [PairedRateTally](repeating: PairedRateTally(), count: HoldEvent.allCases.count)
    var means = [PairedMeanTally](repeating: PairedMeanTally(), count: HoldValue.meanValues.count)
    var ratios = [PairedMeanTally](repeating: PairedMeanTally(), count: HoldEvent.allCases.count)

    @inline(__always)
    mutating func add(design: PersonMeasures, baseline: PersonMeasures, plan: PairPlan) {
        // A rate's denominator is decided by the person's class, so it is the same for both.
        var rateEvents = design.happened(.intent) ? plan.intentRates : design.happened(.accidental) ? plan.accidentalRates : 0
        while rateEvents != 0 {
            let event = rateEvents.trailingZeroBitCount
            rateEvents &= rateEvents &- 1
            rates[event].add(design: design.events & (1 << UInt16(event)) != 0,
                             baseline: baseline.events & (1 << UInt16(event)) != 0)
        }
        var ratioEvents = plan.ratios
        while ratioEvents != 0 {
            let event = ratioEvents.trailingZeroBitCount
            ratioEvents &= ratioEvents &- 1
            let denominator = UInt16(1) << UInt16(plan.ratioDenominators[event])
            func indicator(_ person: PersonMeasures) -> Int64? {
                person.events & denominator == 0 ? nil : (person.events & (1 << UInt16(event)) != 0 ? 1 : 0)
            }
            if (design.events | baseline.events) & denominator != 0 {
                ratios[event].add(design: indicator(design), baseline: indicator(baseline))
            }
        }
        // A mean neither person has adds nothing: only the means present for one of them are visited.
        var present = design.present | baseline.present
        while present != 0 {
            let lane = present.trailingZeroBitCount
            present &= present &- 1
            means[lane].add(design: design.value(lane: lane), baseline: baseline.value(lane: lane))
        }
    }

    mutating func merge(_ other: PairTally) {
        for index in rates.indices { rates[index].merge(other.rates[index]) }
        for index in means.indices { means[index].merge(other.means[index]) }
        for index in ratios.indices { ratios[index].merge(other.ratios[index]) }
    }

    func difference(_ metric: ComparedMetric, rules: IntervalRules = .current) -> PairedStatistics.Difference {
        switch metric.kind {
        case .rate(let event, _): return rates[event.rawValue].difference(rules: rules)
        case .ratio(let event, _) where rules != .v0_1: return ratios[event.rawValue].adjustedRateDifference()
        case .ratio(let event, _): return ratios[event.rawValue].difference(scale: 1, rules: rules)
        case .mean(let value): return means[value.rawValue].difference(scale: value.scale, rules: rules)
        }
    }
}
