import HoldLabIO
import HoldProfiles
import HoldSimulation

/// How far a review's recommendation rests on the people assumed: each behaviour assumption varied over its
/// plausible range (`BehaviourAssumptions`), one population at a time, the comparison run again on the same people
/// (the same seed) at each value, and the decision rule applied to every population's result. Every comparison
/// takes the plan's interval rules (`--intervals`), as the review's own comparison does.
public struct RobustnessRequest: Sendable {
    public var plan: ComparisonPlan
    public var rule: DecisionRule
    public var assumptions: [BehaviourAssumption]
    /// Values per assumption and population, evenly spaced over the range (both ends included); the population's
    /// own value is run as well.
    public var gridPoints: Int
    public var users: Int
    public var seed: UInt64
    public var threads: Int

    public static let defaultGridPoints = 7

    public init(plan: ComparisonPlan, rule: DecisionRule, assumptions: [BehaviourAssumption] = BehaviourAssumptions.all,
                gridPoints: Int = RobustnessRequest.defaultGridPoints, users: Int, seed: UInt64, threads: Int) {
        self.plan = plan
        self.rule = rule
        self.assumptions = assumptions
        self.gridPoints = gridPoints
        self.users = users
        self.seed = seed
        self.threads = threads
    }
}

/// One assumption in one population: the decision at each value.
public struct RobustnessFinding: Sendable {
    public struct Point: Sendable {
        public var value: Double
        /// Whether this is the population's own value.
        public var isAssumed: Bool
        public var decision: Decision
    }

    /// Where the verdict first differs, going away from the assumed value: the last value with the assumed verdict,
    /// the first without, and the verdict there.
    public struct Flip: Sendable {
        public var holdsAt: Double
        public var flipsAt: Double
        public var verdict: Int
    }

    public var assumption: BehaviourAssumption
    public var population: String
    public var assumedValue: Double
    public var range: ClosedRange<Double>
    /// Where the range comes from (M: a citation; U: `assumption: …`).
    public var source: String
    /// Sorted by value.
    public var points: [Point]
    /// The verdict at the assumed value (with the robustness run's users).
    public var assumedVerdict: Int
    public var below: Flip?
    public var above: Flip?

    /// The smallest margin of the assumed verdict over the values where it holds (points or ms); nil when it is
    /// undecided at the assumed value.
    public var minimumMargin: Double? {
        holding.compactMap(\.decision.margin).min()
    }

    /// The points where the assumed verdict holds.
    var holding: [Point] { points.filter { $0.decision.verdict == assumedVerdict } }

    /// Where no condition in the preferred metric's unit decides (`minimumMargin` nil), the smallest margin of the
    /// guardrails in the other unit over the values where the verdict holds, with a metric of that unit to say it
    /// in; nil when those never decide either.
    public var minimumGuardMargin: (margin: Double, metric: String)? {
        holding.compactMap { point in point.decision.guardMargin.flatMap { m in point.decision.guardMarginMetric.map { (m, $0) } } }
            .min { $0.0 < $1.0 }
    }

    /// The values where the assumed verdict holds without a break around the assumed value.
    public var holdsFrom: Double { below?.holdsAt ?? points.first?.value ?? assumedValue }
    public var holdsTo: Double { above?.holdsAt ?? points.last?.value ?? assumedValue }
}

public enum Robustness {
    /// `count` values evenly spaced over `range`, both ends included, rounded to 6 significant digits so that the
    /// values print as written.
    public static func grid(_ range: ClosedRange<Double>, count: Int) -> [Double] {
        guard count > 1, range.upperBound > range.lowerBound else { return [range.lowerBound] }
        return (0..<count).map { step in
            let value = range.lowerBound + (range.upperBound - range.lowerBound) * Double(step) / Double(count - 1)
            return Double(String(format: "%.6g", value)) ?? value
        }
    }

    /// Runs the request. `assumed` is the comparison of every population with the request's users and seed, when
    /// already run (the review's own comparison, when the users agree); nil runs it.
    ///
    /// - Parameter progress: comparisons run so far, of `comparisons(request)`.
    public static func run(_ request: RobustnessRequest, assumed: [DesignComparison]? = nil,
                           progress: ((Int) -> Void)? = nil) throws -> [RobustnessFinding] {
        let plan = request.plan
        let labels = plan.designs.map(\.label)
        let names = plan.populations.map(\.name)
        func compare(_ population: Population) throws -> DesignComparison {
            try PairedComparison.run(ComparisonRequest(
                designs: plan.designs, baseline: plan.baseline, population: population, users: request.users,
                seed: request.seed, rng: plan.rng, threads: request.threads, intervals: plan.intervals))
        }
        let base = try assumed ?? plan.populations.map(compare)
        let baseDecision = request.rule.decide(labels: labels, baseline: plan.baseline, populations: names, results: base)
        var findings: [RobustnessFinding] = []
        var done = 0
        for assumption in request.assumptions {
            for (index, population) in plan.populations.enumerated() {
                guard assumption.applies(to: population), let (range, source) = assumption.plausibleRange(in: population) else { continue }
                let assumedValue = try assumption.value(in: population)
                var points = [RobustnessFinding.Point(value: assumedValue, isAssumed: true, decision: baseDecision)]
                for value in grid(range, count: request.gridPoints) where value != assumedValue {
                    var results = base
                    results[index] = try compare(try assumption.setting(value, in: population))
                    points.append(RobustnessFinding.Point(
                        value: value, isAssumed: false,
                        decision: request.rule.decide(labels: labels, baseline: plan.baseline, populations: names, results: results)))
                    done += 1
                    progress?(done)
                }
                points.sort { $0.value < $1.value }
                let at = points.firstIndex { $0.isAssumed } ?? 0
                let verdict = baseDecision.verdict
                var below: RobustnessFinding.Flip?
                if let flip = points[..<at].lastIndex(where: { $0.decision.verdict != verdict }) {
                    below = .init(holdsAt: points[flip + 1].value, flipsAt: points[flip].value, verdict: points[flip].decision.verdict)
                }
                var above: RobustnessFinding.Flip?
                if let flip = points[(at + 1)...].firstIndex(where: { $0.decision.verdict != verdict }) {
                    above = .init(holdsAt: points[flip - 1].value, flipsAt: points[flip].value, verdict: points[flip].decision.verdict)
                }
                findings.append(RobustnessFinding(
                    assumption: assumption, population: population.name, assumedValue: assumedValue, range: range, source: source,
                    points: points, assumedVerdict: verdict, below: below, above: above))
            }
        }
        return findings
    }

    /// How many comparisons `run` makes beyond the assumed one: one per grid value per assumption and population.
    public static func comparisons(_ request: RobustnessRequest) -> Int {
        var count = 0
        for assumption in request.assumptions {
            for population in request.plan.populations {
                guard assumption.applies(to: population), let range = assumption.plausibleRange(in: population)?.range else { continue }
                let assumed = try? assumption.value(in: population)
                count += grid(range, count: request.gridPoints).filter { $0 != assumed }.count
            }
        }
        return count
    }

    /// `robustness.csv`: one row per assumption, population and value.
    public static func table(_ findings: [RobustnessFinding], labels: [String], provenance: Provenance) -> ResultTable {
        let columns: [ResultColumn] = [
            ResultColumn("panel", .integer, definition: "the assumption's panel in the robustness figure, from 1"),
            ResultColumn("assumption", .text), ResultColumn("key_path", .text, definition: "population.KEY as --set names it"),
            ResultColumn("population", .text), ResultColumn("value", .number), ResultColumn("unit", .text),
            ResultColumn("assumed", .boolean, definition: "the population's own value"),
            ResultColumn("range_lo", .number), ResultColumn("range_hi", .number),
            ResultColumn("verdict", .text, definition: "the design the decision rule recommends, or undecided"),
            ResultColumn("holds", .boolean, definition: "the verdict is the one at the assumed value"),
            ResultColumn("margin", .number, unit: "the preferred metric's: points or ms",
                         definition: "how far the deciding interval end is from changing the verdict, in the preferred metric's unit; NaN when undecided, or when only guardrails in the other unit decide"),
        ]
        var rows: [[ResultCell]] = []
        let panels = panelNumbers(findings)
        for finding in findings {
            for point in finding.points {
                let verdict = point.decision.recommended.map { labels[$0] } ?? "undecided"
                rows.append([
                    .integer(panels[finding.assumption.keyPath] ?? 0), .text(finding.assumption.name),
                    .text("population." + finding.assumption.keyPath), .text(finding.population),
                    .number(point.value, decimals: 6), .text(finding.assumption.unit), .boolean(point.isAssumed),
                    .number(finding.range.lowerBound, decimals: 6), .number(finding.range.upperBound, decimals: 6),
                    .text(verdict), .boolean(point.decision.verdict == finding.assumedVerdict),
                    .number(point.decision.margin, decimals: 3),
                ])
            }
        }
        return ResultTable(provenance: provenance, columns: columns, rows: rows)
    }

    /// Each assumption's panel number (from 1, in finding order).
    static func panelNumbers(_ findings: [RobustnessFinding]) -> [String: Int] {
        var panels: [String: Int] = [:]
        for finding in findings where panels[finding.assumption.keyPath] == nil {
            panels[finding.assumption.keyPath] = panels.count + 1
        }
        return panels
    }
}
