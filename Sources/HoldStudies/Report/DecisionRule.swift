import HoldLabIO
import HoldSimulation

/// A problem with `--prefer` or `--guard` (or a review file's `prefer:` and `guard:`), phrased for the command line.
public struct DecisionRuleError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// How a review decides: the metric it improves (`--prefer`) and the guardrails every design must hold (`--guard`),
/// each at the far end of its 95 % interval, in every population.
///
/// A design is *admissible* when it holds every guardrail in every population. An admissible design other than the
/// baseline *beats* the baseline when the near end of its paired interval on the preferred metric is better than
/// the baseline's value in every population, and *loses* when, in at least one population, even the far end is
/// worse and in none is it better. The review recommends the one design that beats the baseline (several: the one
/// whose interval lies beyond every other's in every population), or keeps the baseline when every other design
/// loses or breaks a guardrail; anything else (no admissible design, a difference within its interval, a design
/// better for one population and worse for another, overlapping winners) is *undecided*, with the reason.
public struct DecisionRule: Sendable, Equatable {
    /// The metric improved and its direction.
    public struct Objective: Sendable, Equatable {
        public var metric: String
        public var higherIsBetter: Bool
    }

    /// A bound a design must respect: relative to the baseline (`+0.5pt`, `-20ms`) or an absolute rate (`1%`).
    public struct Guardrail: Sendable, Equatable {
        public var metric: String
        /// `<=` (at most) or `>=` (at least).
        public var atMost: Bool
        /// In the metric's unit: a fraction for rates, ms for means.
        public var bound: Double
        /// Whether the bound is on the difference to the baseline (pt, ms) or on the design's own rate (%).
        public var relative: Bool
        /// As given, for the report.
        public var text: String
    }

    public var prefer: Objective
    public var guards: [Guardrail]

    /// The rule a review uses when neither the options nor the review file give one.
    public static let defaultPrefer = "completion_rate"
    public static let defaultGuards = ["false_activation_rate<=+0.5pt"]

    /// Whether a higher value is better, for the metrics a review may prefer or guard.
    public static let directions: [(metric: String, higherIsBetter: Bool)] = [
        ("completion_rate", true), ("false_activation_rate", false), ("premature_release_rate", false),
        ("premature_impatience_rate", false), ("premature_mismatch_rate", false), ("movement_cancel_rate", false),
        ("no_feedback_rate", false), ("completion_time_mean_ms", false), ("first_feedback_ms", false),
    ]

    static func isRate(_ metric: String) -> Bool { metric.hasSuffix("_rate") }

    /// The unit a margin of `metric` is said in: points for a rate, ms for a mean (report.md's sentences and
    /// caption, robustness.csv's `# margin_unit:` line).
    static func unit(of metric: String) -> String { isRate(metric) ? "points" : "ms" }

    /// The rule of `defaultPrefer` and `defaultGuards` (a test checks they agree).
    public static let standard = DecisionRule(
        objective: Objective(metric: "completion_rate", higherIsBetter: true),
        guards: [Guardrail(metric: "false_activation_rate", atMost: true, bound: 0.005, relative: true, text: "false_activation_rate<=+0.5pt")])

    init(objective: Objective, guards: [Guardrail]) {
        prefer = objective
        self.guards = guards
    }

    public init(prefer: String = DecisionRule.defaultPrefer, guards: [String] = DecisionRule.defaultGuards) throws(DecisionRuleError) {
        let names = Self.directions.map(\.metric)
        guard let direction = Self.directions.first(where: { $0.metric == prefer }) else {
            throw DecisionRuleError("--prefer \(prefer): not a metric a review can prefer\(Suggestions.didYouMean(prefer, among: names)); allowed: \(names.joined(separator: ", "))")
        }
        self.prefer = Objective(metric: prefer, higherIsBetter: direction.higherIsBetter)
        var parsed: [Guardrail] = []
        for text in guards { parsed.append(try Self.guardrail(text)) }
        self.guards = parsed
    }

    /// Parses `METRIC<=+0.5pt`, `METRIC>=-1pt`, `METRIC<=+20ms` (differences to the baseline) or `METRIC<=1%` (the
    /// design's own rate).
    static func guardrail(_ text: String) throws(DecisionRuleError) -> Guardrail {
        let names = directions.map(\.metric)
        let usage = "write METRIC<=+0.5pt or METRIC>=-1pt (percentage points against the baseline), METRIC<=+20ms (a mean against the baseline) or METRIC<=1% (the design's own rate)"
        let compact = text.filter { !$0.isWhitespace }
        guard let range = compact.range(of: "<=") ?? compact.range(of: ">=") else {
            throw DecisionRuleError("--guard \(text): \(usage)")
        }
        let metric = String(compact[..<range.lowerBound])
        let atMost = compact[range] == "<="
        var value = String(compact[range.upperBound...])
        guard let direction = directions.first(where: { $0.metric == metric }) else {
            throw DecisionRuleError("--guard \(text): '\(metric)' is not a metric a review can guard\(Suggestions.didYouMean(metric, among: names)); allowed: \(names.joined(separator: ", "))")
        }
        // A guardrail bounds harm: the worse direction of the metric. The other way round it asks a design to be
        // worse (a baseline, exempt, could not meet it against itself), and a verdict would rest on it.
        if atMost == direction.higherIsBetter {
            let (worse, sign) = direction.higherIsBetter ? ("lower", ">=") : ("higher", "<=")
            throw DecisionRuleError("--guard \(text): a guardrail bounds how much worse a design may be, and a \(worse) \(metric) is worse: "
                + "write \(metric)\(sign)BOUND (e.g. \(metric)\(sign)\(direction.higherIsBetter ? "-1pt" : isRate(metric) ? "+0.5pt" : "+20ms"))")
        }
        let unit: String
        if value.hasSuffix("pt") { unit = "pt" } else if value.hasSuffix("ms") { unit = "ms" } else if value.hasSuffix("%") { unit = "%" } else {
            throw DecisionRuleError("--guard \(text): the bound needs a unit, pt, ms or %; \(usage)")
        }
        value.removeLast(unit.count)
        guard let number = Double(value), number.isFinite else {
            throw DecisionRuleError("--guard \(text): '\(value)' is not a number; \(usage)")
        }
        switch unit {
        case "pt", "%":
            guard isRate(metric) else {
                throw DecisionRuleError("--guard \(text): \(metric) is a mean in ms; bound it in ms against the baseline, e.g. \(metric)<=+20ms")
            }
            if unit == "%", !(0...100).contains(number) {
                throw DecisionRuleError("--guard \(text): a rate is from 0 % to 100 %")
            }
            return Guardrail(metric: metric, atMost: atMost, bound: number / 100, relative: unit == "pt", text: compact)
        default:
            guard !isRate(metric) else {
                throw DecisionRuleError("--guard \(text): \(metric) is a rate; bound it in pt (points against the baseline) or % (its own rate)")
            }
            return Guardrail(metric: metric, atMost: atMost, bound: number, relative: true, text: compact)
        }
    }

    /// The `--prefer`/`--guard` options that give this rule.
    public var arguments: [String] {
        ["--prefer", prefer.metric] + guards.flatMap { ["--guard", $0.text] }
    }
}

/// What a decision rule says of one comparison: the design to ship, or undecided and why.
public struct Decision: Sendable, Equatable {
    /// The design recommended (an index into the designs), or nil: undecided.
    public var recommended: Int?
    /// Whether the recommendation is to keep the baseline.
    public var keepsBaseline: Bool
    /// Why: each design's standing, and for an undecided review what stands in the way.
    public var reasons: [String]
    /// How far the deciding interval end is from changing the decision, in the preferred metric's unit (points for
    /// a rate, ms for a mean): the smallest over designs, populations and the conditions in that unit (the preferred
    /// metric's ends, guardrails on metrics of its unit); nil when undecided or when no condition in that unit
    /// decides (every other design kept out by a guardrail of the other unit).
    public var margin: Double?
    /// The same for the guardrails in the other unit (ms under a preferred rate, points under a preferred mean),
    /// in the unit of `guardMarginMetric`: a margin in points and one in ms are not compared. Nil when none decides.
    public var guardMargin: Double?
    /// A metric of `guardMargin`'s unit (the first such guardrail's), for saying it.
    public var guardMarginMetric: String?

    public init(recommended: Int?, keepsBaseline: Bool, reasons: [String], margin: Double?,
                guardMargin: Double? = nil, guardMarginMetric: String? = nil) {
        self.recommended = recommended
        self.keepsBaseline = keepsBaseline
        self.reasons = reasons
        self.margin = margin
        self.guardMargin = guardMargin
        self.guardMarginMetric = guardMarginMetric
    }

    /// The verdict alone, for asking whether it changed: the design's index, or −1 for undecided.
    public var verdict: Int { recommended ?? -1 }
}

extension DecisionRule {
    /// The paired difference of `metric` of design `label` against the baseline in one population.
    static func row(_ result: DesignComparison, design label: String, metric: String) -> PairedStatistics.Difference? {
        result.rows.first { $0.design == label && $0.metric.name == metric }?.difference
    }

    /// In points for rates, ms for means.
    static func scale(_ metric: String) -> Double { isRate(metric) ? 100 : 1 }

    /// The slack of a guardrail for design `index` in one population: bound − far end (≥ 0 holds), in points or ms;
    /// nil when the metric has no data for it (then it does not constrain).
    func slack(_ guardrail: Guardrail, design index: Int, labels: [String], baseline: Int, result: DesignComparison) -> Double? {
        let scale = Self.scale(guardrail.metric)
        let far: Double
        if guardrail.relative {
            if index == baseline { return nil }
            guard let difference = Self.row(result, design: labels[index], metric: guardrail.metric),
                  let lower = difference.lower, let upper = difference.upper else { return nil }
            far = guardrail.atMost ? upper : lower
        } else {
            guard let metric = Metric.named(guardrail.metric), let interval = result.summaries[index].proportion(metric)?.wilson95 else {
                return nil
            }
            far = guardrail.atMost ? interval.upper : interval.lower
        }
        return (guardrail.atMost ? guardrail.bound - far : far - guardrail.bound) * scale
    }

    /// Applies the rule to one comparison per population (`results`, the same designs in each).
    public func decide(labels: [String], baseline: Int, populations: [String], results: [DesignComparison]) -> Decision {
        let metric = prefer.metric
        let scale = Self.scale(metric)
        var reasons: [String] = []
        // Guardrails: the smallest slack per design over guardrails and populations, in the preferred metric's unit
        // (`same`) and in the other (`other`): points and ms are never compared; only the sign of the smaller is read
        // across units (`holds`).
        var same: [Double] = Array(repeating: .infinity, count: labels.count)
        var other: [Double] = Array(repeating: .infinity, count: labels.count)
        func holds(_ index: Int) -> Double { min(same[index], other[index]) }
        let otherMetric = guards.first { Self.isRate($0.metric) != Self.isRate(metric) }?.metric
        // Per guardrail and population, the designs it could not be checked for (no data: a false-activation rate
        // where nobody touches by accident, a completion time of a design that never completes). A guardrail
        // constrains nothing where a design has no data, and the reasons say so rather than let it pass as held.
        var unchecked = Array(repeating: Array(repeating: [Int](), count: populations.count), count: guards.count)
        // For a relative guardrail, whether the baseline itself has no value there (then no design has).
        var baselineLacks = Array(repeating: Array(repeating: false, count: populations.count), count: guards.count)
        for index in labels.indices {
            for (rank, guardrail) in guards.enumerated() {
                var broken: [String] = []
                for (place, (population, result)) in zip(populations, results).enumerated() {
                    guard let slack = slack(guardrail, design: index, labels: labels, baseline: baseline, result: result) else {
                        // A relative guardrail never compares the baseline with itself.
                        if !(guardrail.relative && index == baseline) { unchecked[rank][place].append(index) }
                        if guardrail.relative, index != baseline,
                           Self.row(result, design: labels[index], metric: guardrail.metric)?.baselineValue == nil {
                            baselineLacks[rank][place] = true
                        }
                        continue
                    }
                    if slack < 0 { broken.append("`\(population)` users by \(Self.amount(-slack, metric: guardrail.metric))") }
                    if Self.isRate(guardrail.metric) == Self.isRate(metric) {
                        same[index] = min(same[index], slack)
                    } else {
                        other[index] = min(other[index], slack)
                    }
                }
                if !broken.isEmpty {
                    reasons.append("**\(labels[index])** breaks the guardrail `\(guardrail.text)` at the far end of its interval, for "
                        + broken.joined(separator: " and "))
                }
            }
        }
        for (rank, guardrail) in guards.enumerated() {
            let subject = labels.indices.filter { !(guardrail.relative && $0 == baseline) }
            // Populations where no design has the metric, together; then each design that alone lacks it.
            let nobody = populations.indices.filter {
                !subject.isEmpty && unchecked[rank][$0] == subject && (!guardrail.relative || baselineLacks[rank][$0])
            }
            if !nobody.isEmpty {
                reasons.append("the guardrail `\(guardrail.text)` could not be checked for "
                    + nobody.map { "`\(populations[$0])`" }.joined(separator: " and ")
                    + " users: no design has a `\(guardrail.metric)` there, so it constrains nothing")
            }
            for place in populations.indices where !nobody.contains(place) && !unchecked[rank][place].isEmpty {
                let designs = unchecked[rank][place].map { "**\(labels[$0])**" }.joined(separator: " and ")
                // A relative guardrail lacks the difference when either side lacks the value.
                let what = guardrail.relative ? "no difference in `\(guardrail.metric)` to **\(labels[baseline])**"
                    : "no `\(guardrail.metric)`"
                reasons.append("the guardrail `\(guardrail.text)` could not be checked for \(designs) with "
                    + "`\(populations[place])` users: \(what) there, so it constrains nothing for "
                    + (unchecked[rank][place].count == 1 ? "it" : "them"))
            }
        }
        let admissible = labels.indices.filter { holds($0) >= 0 }
        guard !admissible.isEmpty else {
            return Decision(recommended: nil, keepsBaseline: false,
                            reasons: reasons + ["no design holds every guardrail in every population"], margin: nil)
        }
        // The preferred metric against the baseline: near end (> 0: better) and far end (< 0: worse), per population.
        func better(_ index: Int, _ result: DesignComparison) -> (near: Double, far: Double)? {
            guard let d = Self.row(result, design: labels[index], metric: metric), let lower = d.lower, let upper = d.upper else { return nil }
            return prefer.higherIsBetter ? (lower * scale, upper * scale) : (-upper * scale, -lower * scale)
        }
        // Loses: worse somewhere at the far end, better nowhere at the near end; by how much it would have to move to
        // stop losing (nil when it does not lose). Asked of every design, admissible or not: one that breaks a
        // guardrail may lose as well, and then keeping the baseline holds by whichever holds by more.
        func lossMargin(_ index: Int) -> Double? {
            let ends = results.map { better(index, $0) }
            guard ends.allSatisfy({ $0 != nil }) else { return nil }
            let values = ends.compactMap { $0 }
            guard values.contains(where: { $0.far < 0 }), !values.contains(where: { $0.near > 0 }) else { return nil }
            let worst = values.map { -$0.far }.max() ?? 0
            let nowhereBetter = values.map { -$0.near }.min() ?? 0
            return min(worst, nowhereBetter)
        }
        var beats: [Int] = []
        var loses: [Int: Double] = [:]
        for index in admissible where index != baseline {
            let ends = results.map { better(index, $0) }
            guard ends.allSatisfy({ $0 != nil }) else {
                reasons.append("**\(labels[index])** has no `\(metric)` to compare in some population")
                continue
            }
            let values = ends.compactMap { $0 }
            if values.allSatisfy({ $0.near > 0 }) {
                beats.append(index)
            } else if let margin = lossMargin(index) {
                loses[index] = margin
            } else {
                let where_ = zip(populations, values).map { population, ends in
                    ends.near > 0 ? "better for `\(population)`" : ends.far < 0 ? "worse for `\(population)`" : "within the interval for `\(population)`"
                }
                reasons.append("**\(labels[index])** against **\(labels[baseline])** on `\(metric)`: " + where_.joined(separator: ", "))
            }
        }
        // A recommendation of `index` holds while its preferred ends (`preferred`) and its guardrails do.
        func recommending(_ index: Int, preferred: Double) -> Decision {
            Decision(recommended: index, keepsBaseline: false, reasons: reasons, margin: min(preferred, same[index]),
                     guardMargin: other[index].isFinite ? other[index] : nil, guardMarginMetric: otherMetric)
        }
        if beats.count == 1, let winner = beats.first {
            // The one design that beats the baseline; others that neither beat nor lose do not stand in its way.
            let near = results.compactMap { better(winner, $0)?.near }.min() ?? 0
            return recommending(winner, preferred: near)
        }
        if beats.count > 1 {
            // Several beat the baseline: one must lie beyond every other in every population.
            for candidate in beats {
                var gap = Double.infinity
                for other in beats where other != candidate {
                    for result in results {
                        guard let mine = better(candidate, result), let theirs = better(other, result) else { gap = -1; continue }
                        gap = min(gap, mine.near - theirs.far)
                    }
                }
                if gap > 0 { return recommending(candidate, preferred: gap) }
            }
            reasons.append(beats.map { "**\(labels[$0])**" }.joined(separator: " and ") + (beats.count == 2 ? " both beat **" : " all beat **") + "\(labels[baseline])**, "
                + "but their intervals on `\(metric)` overlap")
            return Decision(recommended: nil, keepsBaseline: false, reasons: reasons, margin: nil)
        }
        // None beats the baseline: keep it when every other design loses or breaks a guardrail.
        let others = labels.indices.filter { $0 != baseline }
        let excluded = others.allSatisfy { loses[$0] != nil || holds($0) < 0 }
        guard admissible.contains(baseline), excluded else {
            if !admissible.contains(baseline) {
                reasons.append("**\(labels[baseline])** itself breaks a guardrail")
            }
            return Decision(recommended: nil, keepsBaseline: false, reasons: reasons, margin: nil)
        }
        var margin = Double.infinity, guardMargin = Double.infinity
        for index in others {
            // Excluded by losing or by a guardrail of the preferred metric's unit (whichever holds by more), and by a
            // guardrail of the other unit: each exclusion counts in its own unit.
            let inUnit = max(loses[index] ?? lossMargin(index) ?? -.infinity, -same[index])
            let broken = -other[index]
            if inUnit > 0 { margin = min(margin, inUnit) }
            if broken > 0 { guardMargin = min(guardMargin, broken) }
        }
        return Decision(recommended: baseline, keepsBaseline: true, reasons: reasons, margin: margin.isFinite ? margin : nil,
                        guardMargin: guardMargin.isFinite ? guardMargin : nil, guardMarginMetric: otherMetric)
    }

    /// `0.4 points` or `12 ms`.
    static func amount(_ value: Double, metric: String) -> String {
        CSV.number(value, decimals: isRate(metric) ? (value < 0.1 ? 2 : 1) : (value < 1 ? 2 : 0)) + " " + unit(of: metric)
    }
}
