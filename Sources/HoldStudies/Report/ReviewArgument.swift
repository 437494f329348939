import Foundation
import GSL
import HoldLabIO
import HoldProfiles
import HoldSimulation

/// What makes a review argue rather than list: the decision rule and its verdict, each knob's share of a variant's
/// effect, and how far the verdict rests on the people assumed. Pure data, as `ReviewInput`.
public struct ReviewArgument: Sendable {
    public var rule: DecisionRule
    public var decision: Decision
    public var decompositions: [KnobDecomposition]
    public var robustness: [RobustnessFinding]
    /// Users per comparison of the robustness runs (0: not run), and values per assumption.
    public var robustnessUsers: Int
    public var gridPoints: Int
    /// The robustness figure's stem, when drawn.
    public var robustnessFigure: String?
    /// The interval rules the knob shares were computed with (`--intervals`), which their paragraph names.
    public var intervals: IntervalRules

    public init(rule: DecisionRule, decision: Decision, decompositions: [KnobDecomposition], robustness: [RobustnessFinding],
                robustnessUsers: Int, gridPoints: Int, robustnessFigure: String?, intervals: IntervalRules) {
        self.intervals = intervals
        self.rule = rule
        self.decision = decision
        self.decompositions = decompositions
        self.robustness = robustness
        self.robustnessUsers = robustnessUsers
        self.gridPoints = gridPoints
        self.robustnessFigure = robustnessFigure
    }
}

/// The sections of `report.md` that argue: the recommendation (first), each knob's share, the robustness to the
/// assumed people, and what the numbers stand on (denominators, each population's classes, the behaviour behind
/// each finding).
public enum ReviewArgumentText {
    static func number(_ value: Double, _ decimals: Int) -> String { CSV.number(value, decimals: decimals) }

    /// A difference or an interval's end with its sign: `+0.3`, `-0.2`, and `-0.0` or `+0.0` for one that rounds
    /// to 0 but is not (an interval from −0.023 to +0.3 points reads "-0.0 to +0.3", not "0.0 to +0.3"); `0.0`
    /// for 0 itself.
    static func signed(_ value: Double, _ decimals: Int) -> String {
        (value > 0 ? "+" : value < 0 ? "-" : "") + number(abs(value), decimals)
    }

    /// The question a review answers when it is given none: "Should we ship A or B for P and Q users?"
    public static func defaultQuestion(designs: [String], populations: [String]) -> String {
        func list(_ items: [String]) -> String {
            items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + (items.count > 2 ? "," : "") + " or " + (items.last ?? "")
        }
        func and(_ items: [String]) -> String {
            items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + (items.count > 2 ? "," : "") + " and " + (items.last ?? "")
        }
        return "Should we ship " + list(designs.map { "**\($0)**" }) + " for " + and(populations.map { "`\($0)`" }) + " users?"
    }

    /// A count with thousands separators: 85,112.
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.insert(digits[start..<end], at: 0)
            end = start
        }
        return (value < 0 ? "-" : "") + groups.joined(separator: ",")
    }

    /// A difference in people per 100: one decimal.
    static func perHundredDifference(_ rate: Double, decimals: Int = 1) -> String { number(rate * 100, decimals) }

    /// The decimals a difference and its interval's ends are written with, per 100 people: one, or as many more (up
    /// to three) as it takes for none that is not 0 to read 0 (0.3.17 wrote a difference of 0.012 per 100 with the
    /// interval 0.011 more to 0.035 fewer as "0.0 fewer (95 % CI 0.0 more to 0.0 fewer)").
    static func perHundredDecimals(_ rates: [Double]) -> Int { decimals(showing: rates, scale: 100, least: 1) }

    /// The decimals, from `least` up to three, that keep every value (times `scale`) that is not 0 from reading 0: the
    /// one rule the report's differences, interval ends and points are written by.
    static func decimals(showing values: [Double], scale: Double, least: Int) -> Int {
        var decimals = least
        while decimals < 3, values.contains(where: { $0 != 0 && number(abs($0) * scale, decimals) == number(0, decimals) }) {
            decimals += 1
        }
        return decimals
    }

    /// People per 100 in plain words: one decimal below 10, none above.
    static func perHundred(_ rate: Double) -> String {
        let value = rate * 100
        return number(value, abs(value) < 10 ? 1 : 0)
    }

    /// Points with a sign, one decimal (two below 0.1, three where two read 0).
    static func points(_ fraction: Double) -> String {
        let value = fraction * 100
        // Three where two still read 0 (an end at 0.0027 points read 0.00).
        return signed(value, decimals(showing: [fraction], scale: 100, least: abs(value) < 0.1 && value != 0 ? 2 : 1))
    }

    static func value(_ metric: String, _ value: Double) -> String {
        DecisionRule.isRate(metric) ? points(value) + " points" : (value > 0 ? "+" : "") + number(value, 0) + " ms"
    }

    /// A rule's wording.
    static func ruleText(_ rule: DecisionRule, baseline: String) -> String {
        let direction = rule.prefer.higherIsBetter ? "higher" : "lower"
        var text = "*Decision rule:* a design wins on a \(direction) `\(rule.prefer.metric)` when the near end of its paired "
            + "95 % interval against **\(baseline)** is better in every population"
        if rule.guards.isEmpty {
            text += "; no guardrails."
        } else {
            let guards = rule.guards.map { guardrail -> String in
                let what = guardrail.relative
                    ? "\(guardrail.atMost ? "at most" : "at least") \(value(guardrail.metric, guardrail.bound)) against **\(baseline)**"
                    : "\(guardrail.atMost ? "at most" : "at least") \(number(guardrail.bound * 100, 2)) %"
                return "`\(guardrail.text)` (\(guardrail.metric) \(what))"
            }
            text += ", and every design must hold " + guards.joined(separator: " and ")
                + " at the far end of its interval, in every population."
        }
        return text + " Set with `--prefer` and `--guard`, or `prefer:` and `guard:` in a review file."
    }

    /// One design against the baseline on one metric in one population, in plain words.
    static func compared(_ metric: String, design: String, baseline: String, population: String, users: Int,
                         difference: PairedStatistics.Difference) -> String? {
        guard let designValue = difference.designValue, let baseValue = difference.baselineValue, let diff = difference.diff,
              let lower = difference.lower, let upper = difference.upper else { return nil }
        switch metric {
        case "completion_rate":
            // In failures: who means to confirm and does not.
            let more = -diff
            let words = more >= 0 ? "more" : "fewer"
            let (near, far) = more >= 0 ? (-upper, -lower) : (lower, upper)
            let decimals = perHundredDecimals([more, near, far])
            return "with **\(design)**, \(perHundred(1 - designValue)) of every 100 `\(population)` users who mean to confirm "
                + "would fail, \(perHundredDifference(abs(more), decimals: decimals)) \(words) than with **\(baseline)** (95 % CI "
                + "\(interval(near, far, words, decimals: decimals)); over \(count(users)) intent users)"
        case "false_activation_rate":
            let words = diff >= 0 ? "more" : "fewer"
            let (near, far) = diff >= 0 ? (lower, upper) : (-upper, -lower)
            let decimals = perHundredDecimals([diff, near, far])
            return "with **\(design)**, \(perHundred(designValue)) of every 100 accidental touches by `\(population)` users "
                + "would fire the action, \(perHundredDifference(abs(diff), decimals: decimals)) \(words) than with **\(baseline)** (95 % CI "
                + "\(interval(near, far, words, decimals: decimals)); over \(count(users)) accidental users)"
        default:
            let isRate = DecisionRule.isRate(metric)
            let shown = isRate ? number(designValue * 100, 1) + " %" : number(designValue, 0) + " ms"
            let base = isRate ? number(baseValue * 100, 1) + " %" : number(baseValue, 0) + " ms"
            return "with **\(design)**, `\(metric)` would be \(shown) for `\(population)` users against \(base) with "
                + "**\(baseline)** (\(value(metric, diff)), 95 % CI \(value(metric, lower)) to \(value(metric, upper)))"
        }
    }

    /// An interval of people per 100 in the direction `words` (more or fewer): `0.3 to 1.2 fewer`, and one that
    /// crosses 0 in both directions' words (`0.2 more to 1.2 fewer`), never a negative number of fewer.
    static func interval(_ near: Double, _ far: Double, _ words: String, decimals: Int = 1) -> String {
        guard near < 0 else {
            return "\(perHundredDifference(near, decimals: decimals)) to \(perHundredDifference(far, decimals: decimals)) \(words)"
        }
        let opposite = words == "more" ? "fewer" : "more"
        return "\(perHundredDifference(-near, decimals: decimals)) \(opposite) to \(perHundredDifference(far, decimals: decimals)) \(words)"
    }

    /// The rate's people: intent users for completion and its failures, accidental users for false activations.
    static func denominator(_ metric: String, _ summary: SimulationSummary) -> Int {
        metric == "false_activation_rate" ? summary.accidentalUsers : summary.intentUsers
    }

    /// The question and the recommendation, which open the report.
    public static func recommendation(_ input: ReviewInput, _ argument: ReviewArgument) -> String {
        let labels = input.designs.map(\.design.label)
        let baseline = labels[input.baseline]
        let populations = input.populations.map(\.name)
        let decision = argument.decision
        let metric = argument.rule.prefer.metric
        var text = recommendationHeading + "\n\n"
        // Every design against the baseline, population by population (the differences the comparison measured).
        func lines(metric: String) -> [String] {
            var said: [String] = []
            for index in labels.indices where index != input.baseline {
                for (population, result) in zip(populations, input.results) {
                    guard let difference = DecisionRule.row(result, design: labels[index], metric: metric),
                          let line = compared(metric, design: labels[index], baseline: baseline, population: population,
                                              users: denominator(metric, result.summaries[input.baseline]), difference: difference)
                    else { continue }
                    said.append(line)
                }
            }
            return said
        }
        if let chosen = decision.recommended {
            let said = lines(metric: metric)
            text += verdictLead(keepsBaseline: decision.keepsBaseline, label: labels[chosen]) + " "
                + (said.isEmpty ? "" : capitalised(said.joined(separator: "; ")) + ".") + "\n\n"
            let tradeOffs = argument.rule.guards.map(\.metric).filter { $0 != metric }
            var trade: [String] = []
            for guardMetric in Array(Set(tradeOffs)).sorted() { trade += lines(metric: guardMetric) }
            if !trade.isEmpty { text += "On the guarded metrics: " + trade.joined(separator: "; ") + ".\n\n" }
            // A margin in the preferred metric's unit and one in the other unit's guardrails, each said in its own
            // unit (points and ms are not compared).
            var spare: [String] = []
            if let margin = decision.margin {
                spare.append("\(DecisionRule.amount(margin, metric: metric)) to spare at the deciding end of its interval")
            }
            if let margin = decision.guardMargin, let guardMetric = decision.guardMarginMetric {
                let which = argument.rule.guards.filter { DecisionRule.isRate($0.metric) == DecisionRule.isRate(guardMetric) }
                    .map { "`\($0.text)`" }
                let named = which.count > 1 ? which.dropLast().joined(separator: ", ") + " and " + which.last! : which.joined()
                spare.append("\(DecisionRule.amount(margin, metric: guardMetric)) on the guardrail\(which.count > 1 ? "s" : "") \(named)")
            }
            if !spare.isEmpty {
                // The robustness section exists only when it ran (`--robustness-users 0` leaves it out).
                let see = argument.robustnessUsers > 0
                    ? " (see *How far the answer rests on the assumed people* for how the assumptions move it)" : ""
                text += "The verdict holds with " + spare.joined(separator: ", and with ") + "\(see).\n\n"
            }
        } else {
            text += undecidedLead + " " + capitalised(decision.reasons.joined(separator: "; ")) + ".\n\n"
            let said = lines(metric: metric)
            if !said.isEmpty { text += "On `\(metric)`: " + said.joined(separator: "; ") + ".\n\n" }
        }
        if decision.recommended != nil, !decision.reasons.isEmpty {
            text += "Also: " + decision.reasons.joined(separator: "; ") + ".\n\n"
        }
        text += ruleText(argument.rule, baseline: baseline) + "\n\n"
        return text
    }

    static func capitalised(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }

    /// A finding's denominator and the behaviour that drives it, appended to the finding's sentence.
    public static func standsOn(_ row: ComparisonRow, result: DesignComparison, labels: [String], baselineIndex: Int) -> String {
        let summary = result.summaries[baselineIndex]
        switch row.metric.name {
        case "premature_release_rate", "premature_impatience_rate", "premature_mismatch_rate", "movement_cancel_rate", "no_feedback_rate":
            return " Over \(count(summary.intentUsers)) intent users."
        case "completion_time_mean_ms":
            guard let index = labels.firstIndex(of: row.design) else { return "" }
            return " Over the completed holds: \(count(result.summaries[index].completion.successes)) with **\(row.design)**, "
                + "\(count(summary.completion.successes)) with **\(row.baseline)**."
        case "false_activation_rate":
            return " Over \(count(summary.accidentalUsers)) accidental users (people who touched without meaning to confirm); "
                + "driven by accidental and hesitant touches held past the moment the action fires."
        case "completion_rate":
            var text = " Over \(count(summary.intentUsers)) intent users (people who mean to confirm)"
            func diff(_ metric: String) -> Double? {
                result.rows.first { $0.design == row.design && $0.metric.name == metric }?.difference.diff
            }
            guard let release = diff("premature_release_rate"), let mismatch = diff("premature_mismatch_rate"),
                  let impatience = diff("premature_impatience_rate"), let movement = diff("movement_cancel_rate") else {
                return text + "."
            }
            let causes: [(Double, String)] = [
                (mismatch, "people who react letting go on a bar that looks full before the action fires (`premature_mismatch_rate`"),
                (impatience, "people who react giving up when nothing shows the hold is working (`premature_impatience_rate`"),
                (movement, "fingers drifting beyond the movement limit (`movement_cancel_rate`"),
                (release - mismatch - impatience, "people letting go early for other reasons, mostly those who anticipate the fill's end (`premature_release_rate` less mismatch and impatience:"),
            ]
            // Every cause of at least a fifth of the largest. One cause, or several the same way, drive the change;
            // causes that pull both ways are named as such, or a 12-point rise in giving up reads as the reason
            // for a change of 1 point that an 11-point fall elsewhere offsets.
            let ranked = causes.filter { $0.0 != 0 && $0.0.isFinite }.sorted { abs($0.0) > abs($1.0) }
            guard let main = ranked.first else { return text + "." }
            let material = ranked.filter { abs($0.0) >= abs(main.0) / 5 }
            func named(_ causes: [(Double, String)]) -> String {
                causes.map { $0.1 + " \(points($0.0)) points)" }.joined(separator: " and ")
            }
            if material.contains(where: { ($0.0 > 0) != (main.0 > 0) }) {
                // Each side together: the causes with the largest's sign, against those with the other.
                let (with, against) = (material.filter { ($0.0 > 0) == (main.0 > 0) }, material.filter { ($0.0 > 0) != (main.0 > 0) })
                text += "; not one effect but changes that pull both ways: " + named(with) + ", against " + named(against)
            } else if let difference = row.difference.lower.flatMap({ lower in row.difference.upper.map { (lower, $0) } }),
                      difference.0 <= 0, difference.1 >= 0 {
                // No detectable change: nothing drives it.
                return text + "."
            } else {
                text += "; driven by " + named(material)
            }
            return text + "."
        default:
            return ""
        }
    }

    /// The sentence naming each metric of the rule (preferred or guarded) that has no knob shares, with whom it is
    /// taken over; "" when every one has them. A mean, or a rate over holds rather than people, changes its people
    /// with the design: it has no per-person contrast (`KnobShares.run`).
    static func unsharedRuleMetrics(_ argument: ReviewArgument) -> String {
        let rule = argument.rule
        var named: [String] = []
        for metric in [rule.prefer.metric] + rule.guards.map(\.metric) where !named.contains(metric) { named.append(metric) }
        let unshared = named.filter { !ContrastComparison.metrics.contains($0) }
        guard !unshared.isEmpty else { return "" }
        let described = unshared.map { metric -> String in
            let roles = (metric == rule.prefer.metric ? ["the preferred metric"] : [])
                + (rule.guards.contains { $0.metric == metric } ? ["guarded"] : [])
            let over = Metric.named(metric)?.takenOver.map { ", over \($0)" } ?? ""
            return "`\(metric)` (\(roles.joined(separator: " and "))\(over))"
        }
        let list = described.count == 1 ? described[0] : described.dropLast().joined(separator: ", ") + " and " + (described.last ?? "")
        let one = unshared.count == 1
        return "\(list) \(one ? "has" : "have") no shares here: whom \(one ? "it" : "each") is taken over changes with the keys, "
            + "so a key's part of \(one ? "it" : "one") is no difference of the same people. The rates below, each over the same "
            + "people under every design, are shared out.\n\n"
    }

    /// A robustness row's smallest margin: in the preferred metric's unit, or where only guardrails of the other
    /// unit decide, theirs in their own unit, said as such (points and ms are not compared); "–" when none decides.
    static func marginCell(_ finding: RobustnessFinding, prefer: String) -> String {
        if let margin = finding.minimumMargin { return DecisionRule.amount(margin, metric: prefer) }
        guard let (margin, metric) = finding.minimumGuardMargin else { return "–" }
        return "\(DecisionRule.amount(margin, metric: metric)) on the guardrails in \(DecisionRule.unit(of: metric))"
    }

    /// Each knob's share of every variant that sets more than one key.
    public static func knobShares(_ argument: ReviewArgument) -> String {
        guard !argument.decompositions.isEmpty else { return "" }
        var text = "## Each knob's share\n\n"
        text += "A variant that sets several keys is one effect only in sum. Each key was set alone on the design it varies, "
            + "removed alone from the variant, and (up to \(KnobShares.maximumShapleyKeys) keys) given its Shapley value, the "
            + "average of its effect over every order of adding the keys, which sums to the whole effect. All on the same "
            + "people, with paired 95 % intervals (\(argument.intervals.contrastWords)). In points.\n\n"
        text += unsharedRuleMetrics(argument)
        let groups = Dictionary(grouping: argument.decompositions) { "\($0.variant)\u{0}\($0.metric)" }
        var order: [String] = []
        for d in argument.decompositions where !order.contains("\(d.variant)\u{0}\(d.metric)") { order.append("\(d.variant)\u{0}\(d.metric)") }
        func estimate(_ e: ContrastEstimate?) -> String {
            guard let e else { return "–" }
            return "\(points(e.estimate)) (\(points(e.lower)) to \(points(e.upper)))"
        }
        for key in order {
            guard let group = groups[key], let first = group.first else { continue }
            text += "### \(first.variant): `\(first.metric)`\n\n"
            let shapley = first.terms.first?.shapley != nil
            text += "| key | " + group.map { "alone from \(first.base), `\($0.population)` | removed from \(first.variant), `\($0.population)`"
                + (shapley ? " | share (Shapley), `\($0.population)`" : "") }.joined(separator: " | ") + " |\n"
            text += "|---|" + String(repeating: shapley ? "---|---|---|" : "---|---|", count: group.count) + "\n"
            for (index, term) in first.terms.enumerated() {
                text += "| `\(term.key)` | " + group.map { d in
                    let t = d.terms[index]
                    return estimate(t.alone) + " | " + estimate(t.removed) + (shapley ? " | " + estimate(t.shapley) : "")
                }.joined(separator: " | ") + " |\n"
            }
            text += "| interaction | " + group.map { estimate($0.interaction) + " | –" + (shapley ? " | –" : "") }.joined(separator: " | ") + " |\n"
            text += "| **total** | " + group.map { estimate($0.total) + " | –" + (shapley ? " | –" : "") }.joined(separator: " | ") + " |\n\n"
            for d in group {
                guard let total = d.total, let interaction = d.interaction else { continue }
                // The keys by the size of their share, at most three: a trade-off between keys shows as opposite signs.
                let shares = d.terms.compactMap { term in (term.shapley ?? term.alone).map { (term.key, $0.estimate) } }
                    .sorted { abs($0.1) > abs($1.1) }.prefix(3)
                guard !shares.isEmpty else { continue }
                let parts = shares.enumerated().map { index, share in
                    "\(points(share.1))" + (index == 0 ? " come from" : " from") + " `\(share.0)`"
                }
                let list = parts.count == 1 ? parts[0] : parts.dropLast().joined(separator: ", ") + " and " + (parts.last ?? "")
                text += "Of **\(d.variant)**'s \(points(total.estimate)) points of `\(d.metric)` for `\(d.population)` users "
                    + "(over \(count(total.people)) people), \(list)"
                    + (d.terms.first?.shapley != nil ? " (Shapley shares)" : " (each key alone)")
                    + "; the keys interact by \(points(interaction.estimate)) (95 % CI \(points(interaction.lower)) to "
                    + "\(points(interaction.upper))).\n\n"
            }
        }
        text += "Every term, with its people, is in `knob-shares.csv`.\n\n"
        return text
    }

    /// How far the verdict rests on the assumed people.
    public static func robustness(_ input: ReviewInput, _ argument: ReviewArgument) -> String {
        guard argument.robustnessUsers > 0 else { return "" }
        let labels = input.designs.map(\.design.label)
        func verdict(_ index: Int) -> String { index < 0 ? "undecided" : "**\(labels[index])**" }
        var text = "## How far the answer rests on the assumed people\n\n"
        // The widest a 95 % interval of a rate gets with these users: at 50 %, over the smaller of the two groups.
        let half = Proportion.z95 * (0.25 / Double(max(1, argument.robustnessUsers))).squareRoot() * 100
        text += "Each behaviour assumption below was set to \(argument.gridPoints) values across its plausible range, one "
            + "population at a time, the comparison run again on the same \(count(argument.robustnessUsers)) people per population "
            + "(seed \(input.seed); a rate's 95 % interval is at most ±\(number(half, 1)) points over all of them, wider over a "
            + "class), and the decision rule applied again. The ranges and their sources are listed below; "
            + "`robustness.csv` has every value, verdict and margin.\n\n"
        guard let first = argument.robustness.first else {
            return text + "No assumption applies to these populations.\n\n"
        }
        if argument.robustnessUsers != input.users {
            text += "With \(count(argument.robustnessUsers)) users the verdict at the assumed values is \(verdict(first.assumedVerdict)).\n\n"
        }
        text += "| assumption | population | assumed | plausible range | verdict | smallest margin |\n|---|---|---|---|---|---|\n"
        var flips: [String] = []
        for finding in argument.robustness {
            let a = finding.assumption
            // Seconds and drift carry their unit; shares are per cent; fractions are bare numbers.
            let unit = a.unit == "s" || a.unit == "pt/√s" ? " " + a.unit : ""
            func bare(_ v: Double) -> String { a.isShare ? number(v * 100, 1) : v.shortText }
            func show(_ v: Double) -> String { bare(v) + (a.isShare ? " %" : unit) }
            func span(_ lo: Double, _ hi: Double) -> String { bare(lo) + "–" + show(hi) }
            // A verdict that holds at the assumed value alone is said so, not as a range from a value to itself.
            var said = finding.holdsFrom == finding.holdsTo ? "holds only at \(show(finding.holdsFrom))"
                : "holds for \(span(finding.holdsFrom, finding.holdsTo))"
            for flip in [finding.below, finding.above].compactMap({ $0 }) {
                let side = flip.flipsAt < finding.assumedValue ? "below" : "above"
                said += "; flips to \(verdict(flip.verdict)) \(side) \(show(flip.holdsAt)) (at \(show(flip.flipsAt)))"
            }
            if finding.below == nil && finding.above == nil { said = "holds across the range" }
            else {
                flips.append("For `\(finding.population)` users the verdict \(said) of \(a.name) (`population.\(a.keyPath)`).")
            }
            let margin = marginCell(finding, prefer: argument.rule.prefer.metric)
            text += "| \(a.name) (`\(a.keyPath)`) | `\(finding.population)` | \(show(finding.assumedValue)) | "
                + "\(span(finding.range.lowerBound, finding.range.upperBound)) | \(said) | \(margin) |\n"
        }
        text += "\n"
        text += flips.isEmpty ? "The verdict holds across every plausible range.\n\n" : flips.joined(separator: "\n") + "\n\n"
        if let figure = argument.robustnessFigure {
            let unit = DecisionRule.unit(of: argument.rule.prefer.metric)
            let caption = "The decision's margin against each assumption (\(unit); where a value changes the verdict the point sits at 0)"
            text += "![\(caption)](\(figure).svg)\n\n*\(caption).* ([PNG](\(figure).png))\n\n"
        }
        text += "Sources of the ranges (M: measured, U: assumption, as DOMAIN §7):\n\n"
        var seen: Set<String> = []
        for finding in argument.robustness where seen.insert(finding.assumption.keyPath + "\u{0}" + finding.source).inserted {
            let a = finding.assumption
            let label = finding.source.hasPrefix("assumption:") ? "U" : "M"
            text += "- \(a.name) (`\(a.keyPath)`), \(label): \(ReviewReport.cell(finding.source)).\n"
        }
        return text + "\n"
    }

    /// Each population's people: denominators, classes, weights and key parameters, with the file's sources.
    public static func numbersStandOn(_ input: ReviewInput) -> String {
        var text = "## What the numbers stand on\n\n"
        for (population, result) in zip(input.populations, input.results) {
            let summary = result.summaries[input.baseline]
            text += "### `\(population.name)`\n\n"
            text += "\(count(summary.users)) synthetic users: \(count(summary.intentUsers)) intent users (people who mean to confirm: the "
                + "denominator of completion and of its failures) and \(count(summary.accidentalUsers)) accidental users (touches "
                + "without intent: the denominator of false activations).\n\n"
            text += "| class | share | intent | behaviour | key parameters |\n|---|---|---|---|---|\n"
            for (userClass, weight) in zip(population.classes, population.normalizedWeights) {
                text += "| \(userClass.name) | \(number(weight * 100, 1)) % | \(userClass.intent.rawValue) | "
                    + "\(userClass.behavior.name) | \(ReviewReport.cell(parameters(userClass))) |\n"
            }
            text += "\n" + (population.source.isEmpty ? "No sources given: treat every number as an assumption."
                : "Sources: " + ReviewReport.cell(population.source)) + "\n\n"
        }
        return text
    }

    static func parameters(_ userClass: UserClass) -> String {
        var parts: [String] = []
        switch userClass.behavior {
        case .hold(let duration): parts.append("lets go after \(describe(duration))")
        case .react(let reaction, let patience):
            parts.append("lets go \(describe(reaction)) after the first completion cue")
            parts.append("gives up at \(describe(patience)) if nothing shows")
        case .anticipate(let bias, let weber):
            parts.append("aims at the fill's end × (1 \(bias < 0 ? "−" : "+") \(abs(bias).shortText)), spread \(weber.shortText) of it")
        }
        if let movement = userClass.movement {
            parts.append("drifts \(movement.driftPointsPerSqrtSecond.shortText) pt/√s")
        }
        return parts.joined(separator: "; ")
    }

    /// A distribution in words: its median (and mean) in ms.
    static func describe(_ distribution: Distribution) -> String {
        switch distribution {
        case .constant(let value): return "exactly \(number(value * 1000, 0)) ms"
        case .lognormal(let mu, let sigma): return "a median \(number(exp(mu) * 1000, 0)) ms (lognormal, sigma \(sigma.shortText))"
        case .exgaussian(let mu, let sigma, let tau):
            return "a mean \(number((mu + tau) * 1000, 0)) ms (ex-Gaussian mu \(number(mu * 1000, 0)), sigma \(number(sigma * 1000, 0)), tau \(number(tau * 1000, 0)) ms)"
        default: return "\(distribution)"
        }
    }
}

extension ReviewArgumentText {
    /// The heading of report.md's recommendation, and how it opens when no design wins.
    static let recommendationHeading = "## Recommendation"
    static let undecidedLead = "**Undecided.**"

    /// How report.md's recommendation opens: `**Ship fast.**` or `**Keep hig-linear-bar.**` (`**Undecided.**` when
    /// no design wins). The one place that writes it, and `recommended(inReport:labels:)` reads it back.
    static func verdictLead(keepsBaseline: Bool, label: String) -> String {
        "**\(keepsBaseline ? "Keep" : "Ship") \(label).**"
    }

    /// What a review folder's report.md recommends, read back from the line that opens its recommendation.
    public enum Stated: Equatable, Sendable {
        /// The design (an index into `labels`) to ship, or the baseline to keep.
        case design(Int)
        /// The report recommends no design.
        case undecided
        /// No recommendation written as `report` writes one (an edited report, or not a review).
        case unreadable
    }

    /// The recommendation report.md states, among `labels` (the review's designs): the first line of its
    /// *Recommendation* section, exactly as `recommendation(_:_:)` writes it.
    public static func recommended(inReport markdown: String, labels: [String]) -> Stated {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        // The first second-level heading: report.md writes the recommendation's before any other (the question
        // above it is one line, so no text from the command line or a review file can write one before it).
        guard let heading = lines.firstIndex(where: { $0.hasPrefix("## ") }), lines[heading] == recommendationHeading,
              let first = lines[(heading + 1)...].first(where: { !$0.isEmpty })
        else { return .unreadable }
        if first == undecidedLead || first.hasPrefix(undecidedLead + " ") { return .undecided }
        // The longest label that matches: `fast` must not be read from `**Ship fast-2.**`.
        let matches = labels.indices.filter { index in
            [true, false].contains { first.hasPrefix(verdictLead(keepsBaseline: $0, label: labels[index]) + " ")
                || first == verdictLead(keepsBaseline: $0, label: labels[index]) }
        }
        guard let chosen = matches.max(by: { labels[$0].count < labels[$1].count }) else { return .unreadable }
        return .design(chosen)
    }
}

extension ReviewArgument {
    /// The recommendation in a few words, for the scorecard's title: "Recommendation: keep hig-linear-bar" or
    /// "Recommendation: undecided" (report.md says why).
    static func headline(_ decision: Decision, labels: [String]) -> String? {
        guard let chosen = decision.recommended else { return "Recommendation: undecided (report.md says why)" }
        return "Recommendation: \(decision.keepsBaseline ? "keep" : "ship") \(labels[chosen])"
    }
}
