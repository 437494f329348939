import Foundation
import HoldLabIO

/// `--precision METRIC=HALFWIDTH`: how narrow a metric's printed 95 % interval must be for a run to stop early.
///
/// The half-width is the larger half of the interval the command prints, max(hi − est, est − lo): for `simulate` (and
/// `sweep`, `tune`, `sensitivity`) the column's own `_lo`/`_hi` (Wilson for a rate, Student t for a mean), for
/// `compare` and `report` the paired difference's interval against the baseline (every other design must meet it).
/// The target is absolute, in the column's unit (`completion_rate=0.002`), or relative with `%`
/// (`completion_time_mean_ms=1%`: at most 1 % of |estimate|). An interval that is undefined (nobody in its
/// denominator, a mean of fewer than two values) never meets a target.
public struct PrecisionTarget: Sendable, Equatable, CustomStringConvertible {
    public enum Width: Sendable, Equatable {
        /// In the column's unit.
        case absolute(Double)
        /// A percentage of |estimate| (1 means 1 %).
        case relative(Double)
    }

    public let metric: String
    public let width: Width
    /// The width as the user wrote it (`0.002`, `1%`): the provenance and the warnings quote it.
    public let widthText: String

    public init(metric: String, width: Width, widthText: String) {
        self.metric = metric
        self.width = width
        self.widthText = widthText
    }

    public var description: String { "\(metric)=\(widthText)" }

    /// Whether an interval around `estimate` meets the target.
    public func isMet(estimate: Double?, lower: Double?, upper: Double?) -> Bool {
        guard let half = Self.halfWidth(estimate: estimate, lower: lower, upper: upper), let estimate else { return false }
        switch width {
        case .absolute(let limit): return half <= limit
        case .relative(let percent): return half <= percent / 100 * abs(estimate)
        }
    }

    /// max(upper − estimate, estimate − lower); nil when any is undefined.
    public static func halfWidth(estimate: Double?, lower: Double?, upper: Double?) -> Double? {
        guard let estimate, let lower, let upper, estimate.isFinite, lower.isFinite, upper.isFinite else { return nil }
        return max(upper - estimate, estimate - lower)
    }
}

/// A problem with `--precision` (a usage error: the command exits 64).
public struct PrecisionError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// Every `--precision` target of a run: all must be met for it to stop before `--users`.
public struct Precision: Sendable, Equatable, CustomStringConvertible {
    public var targets: [PrecisionTarget]

    public init(targets: [PrecisionTarget]) {
        self.targets = targets
    }

    /// The metrics a `simulate` row has an interval for (its `_lo`/`_hi` columns): `simulate`, `sweep`, `tune`,
    /// `sensitivity`.
    public static let summaryMetrics: [String] = Metric.all.compactMap { metric in
        switch metric.kind {
        case .rate(_, _, .columns), .mean: metric.name
        default: nil
        }
    }

    /// The metrics `compare` has a paired interval for: `compare` and `report`.
    public static let differenceMetrics: [String] = ComparedMetric.all.map(\.name)

    /// Parses `--precision` arguments (each `METRIC=WIDTH`, or several comma-separated), allowing only `allowed`.
    ///
    /// - Throws: `PrecisionError` naming the argument and what is wrong: an unknown metric or one without an
    ///   interval (with the allowed names and the closest), a width that is not a positive finite number (or
    ///   percentage below 100 %), a metric given twice.
    public init(parsing arguments: [String], allowed: [String]) throws(PrecisionError) {
        var targets: [PrecisionTarget] = []
        for argument in arguments {
            for part in argument.split(separator: ",", omittingEmptySubsequences: false) {
                let text = part.trimmingCharacters(in: .whitespaces)
                let target = try Self.target(text, allowed: allowed)
                if targets.contains(where: { $0.metric == target.metric }) {
                    throw PrecisionError(message: "--precision \(target.metric) is given twice; give each metric once")
                }
                targets.append(target)
            }
        }
        self.targets = targets
    }

    private static func target(_ text: String, allowed: [String]) throws(PrecisionError) -> PrecisionTarget {
        let example = "e.g. --precision completion_rate=0.002 or --precision completion_time_mean_ms=1%"
        guard let equals = text.firstIndex(of: "=") else {
            throw PrecisionError(message: "--precision '\(text)': write METRIC=HALFWIDTH, \(example)")
        }
        let name = text[..<equals].trimmingCharacters(in: .whitespaces)
        var value = text[text.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        guard allowed.contains(name) else {
            let what = Metric.named(name) == nil ? "no metric '\(name)'" : "\(name) has no 95 % interval here"
            throw PrecisionError(message: "--precision: \(what)" + Suggestions.didYouMean(name, among: allowed)
                                 + "; metrics with an interval: " + allowed.joined(separator: ", "))
        }
        let relative = value.hasSuffix("%")
        if relative { value.removeLast() }
        // Plain decimal numbers only: no nan, inf, hexadecimal or a second '%'.
        let isDecimal = !value.isEmpty && value.allSatisfy { $0.isASCII && ($0.isNumber || ".eE+-".contains($0)) }
            && value.first.map { $0.isNumber || $0 == "." } == true
        guard isDecimal, let number = Double(value), number.isFinite, number > 0, !relative || number < 100 else {
            throw PrecisionError(message: "--precision \(name)=\(text[text.index(after: equals)...]): the half-width must be a positive finite number in the column's unit, or a percentage of the estimate above 0 and below 100 with one '%', \(example)")
        }
        return PrecisionTarget(metric: name, width: relative ? .relative(number) : .absolute(number),
                               widthText: value + (relative ? "%" : ""))
    }

    /// `completion_rate=0.002,completion_time_mean_ms=1%`.
    public var description: String { targets.map(\.description).joined(separator: ",") }

    /// Whether every target is met by a summary's own intervals (`_lo`/`_hi`).
    func isMet(_ tally: Tally) -> Bool {
        targets.allSatisfy { target in
            let (estimate, lower, upper) = Self.interval(target.metric, tally)
            return target.isMet(estimate: estimate, lower: lower, upper: upper)
        }
    }

    /// A summary metric's estimate and interval from a tally: Wilson for a rate, Student t for a mean.
    static func interval(_ name: String, _ tally: Tally) -> (Double?, Double?, Double?) {
        guard let metric = Metric.named(name) else { return (nil, nil, nil) }
        if let proportion = metric.proportion(tally) {
            let bounds = proportion.wilson95
            return (proportion.rate, bounds?.lower, bounds?.upper)
        }
        if case .mean(let value) = metric.kind {
            let mean = tally.mean(of: value)
            return (mean.value, mean.interval95?.lower, mean.interval95?.upper)
        }
        return (nil, nil, nil)
    }

    /// Whether every target is met by every design's paired difference to the baseline.
    func isMet(_ pairs: [PairTally], baseline: Int, rules: IntervalRules) -> Bool {
        targets.allSatisfy { target in
            guard let metric = ComparedMetric.all.first(where: { $0.name == target.metric }) else { return false }
            return pairs.indices.allSatisfy { index in
                guard index != baseline else { return true }
                let difference = pairs[index].difference(metric, rules: rules)
                return target.isMet(estimate: difference.diff, lower: difference.lower, upper: difference.upper)
            }
        }
    }

    /// How a run with these targets ended, read from its `simulate` summaries (each row's own intervals).
    public func outcome(_ summaries: [SimulationSummary], cap: Int) -> PrecisionOutcome {
        let users = summaries.map(\.users).max() ?? 0
        var short: [PrecisionOutcome.Shortfall] = []
        for target in targets {
            var worst: PrecisionOutcome.Shortfall?
            for summary in summaries {
                let (estimate, lower, upper) = Self.interval(target.metric, summary.tally)
                guard !target.isMet(estimate: estimate, lower: lower, upper: upper) else { continue }
                let half = PrecisionTarget.halfWidth(estimate: estimate, lower: lower, upper: upper)
                let found = PrecisionOutcome.Shortfall(target: target, halfWidth: half, estimate: estimate,
                                                       row: "\(summary.profile), \(summary.population)")
                if worst == nil || found.isWorse(than: worst!) { worst = found }
            }
            if let worst { short.append(worst) }
        }
        return PrecisionOutcome(precision: self, users: users, cap: cap, shortfalls: short)
    }

    /// How a comparison with these targets ended, read from its paired differences.
    public func outcome(_ comparison: DesignComparison, cap: Int) -> PrecisionOutcome {
        let users = comparison.summaries.map(\.users).max() ?? 0
        var short: [PrecisionOutcome.Shortfall] = []
        for target in targets {
            var worst: PrecisionOutcome.Shortfall?
            for row in comparison.rows where row.metric.name == target.metric {
                let difference = row.difference
                guard !target.isMet(estimate: difference.diff, lower: difference.lower, upper: difference.upper) else { continue }
                let found = PrecisionOutcome.Shortfall(
                    target: target,
                    halfWidth: PrecisionTarget.halfWidth(estimate: difference.diff, lower: difference.lower, upper: difference.upper),
                    estimate: difference.diff, row: "\(row.design) − \(row.baseline), \(row.population)")
                if worst == nil || found.isWorse(than: worst!) { worst = found }
            }
            if let worst { short.append(worst) }
        }
        return PrecisionOutcome(precision: self, users: users, cap: cap, shortfalls: short)
    }
}

/// Where a run with `--precision` stopped: at the first chunk boundary where every target was met, or at the cap
/// (`--users`) with the targets that fell short.
public struct PrecisionOutcome: Sendable, Equatable {
    /// A target not met at the cap, with the widest interval's half-width (nil: undefined) and whose it was.
    public struct Shortfall: Sendable, Equatable {
        public var target: PrecisionTarget
        public var halfWidth: Double?
        public var estimate: Double?
        /// The row (`profile, population`, or `design − baseline, population`).
        public var row: String

        public init(target: PrecisionTarget, halfWidth: Double?, estimate: Double?, row: String) {
            self.target = target
            self.halfWidth = halfWidth
            self.estimate = estimate
            self.row = row
        }

        func isWorse(than other: Shortfall) -> Bool {
            guard let mine = halfWidth else { return other.halfWidth != nil }
            guard let theirs = other.halfWidth else { return false }
            return mine > theirs
        }

        /// `completion_rate half-width 0.0031 (profile, population)`, a relative target's as a percentage too. The
        /// half-width (or percentage) that missed the target prints with the digits that show it above the target
        /// (`0.010004`, never a rounded `0.01` beside `wanted 0.01`).
        public var description: String {
            guard let halfWidth else { return "\(target.metric) has no interval (\(row))" }
            var text = "\(target.metric) half-width "
            switch target.width {
            case .absolute(let limit):
                text += Self.number(halfWidth, above: limit)
            case .relative(let percent):
                text += Self.number(halfWidth)
                if let estimate, estimate != 0 {
                    text += " (\(Self.number(100 * halfWidth / abs(estimate), above: percent))% of \(Self.number(estimate)))"
                }
            }
            return text + " (\(row)), wanted \(target.widthText)"
        }

        static func number(_ value: Double) -> String {
            String(format: "%.3g", value)
        }

        /// `value` to three significant digits, or to as many more (up to 17) as it takes for the printed number to
        /// read above `bound` when `value` is: a shortfall never prints as its own target.
        static func number(_ value: Double, above bound: Double) -> String {
            var digits = 3
            var text = String(format: "%.\(digits)g", value)
            while value > bound, digits < 17, let printed = Double(text), printed <= bound {
                digits += 1
                text = String(format: "%.\(digits)g", value)
            }
            return text
        }
    }

    public var precision: Precision
    /// The users taken (per profile or design): a multiple of `Simulator.chunkSize`, or the cap.
    public var users: Int
    /// `--users`.
    public var cap: Int
    /// Empty when every target was met.
    public var shortfalls: [Shortfall]

    public var met: Bool { shortfalls.isEmpty }

    /// The `# precision:` provenance value: `completion_rate=0.002 met at 81920 users`, or `… not met at the cap of
    /// 100000 users (completion_rate half-width 0.0031 (…), wanted 0.002)`.
    public var provenanceValue: String {
        met ? "\(precision) met at \(users) users"
            : "\(precision) not met at the cap of \(users) users (--users \(cap)): " + shortfalls.map(\.description).joined(separator: "; ")
    }

    /// The warning for standard error when a target fell short; nil when all were met.
    public func warning(_ what: String = "") -> String? {
        guard !met else { return nil }
        return "warning: --precision not met\(what.isEmpty ? "" : " (\(what))") at the cap of \(users) users (--users \(cap)): "
            + shortfalls.map(\.description).joined(separator: "; ") + "; raise --users or widen the target"
    }
}
