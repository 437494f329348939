import Foundation
import HoldLabIO

/// `--precision METRIC=HALFWIDTH`: how narrow a metric's printed 95 % interval must be for a run to stop early.
///
/// The half-width is the larger half of the interval the command prints, max(hi − est, est − lo), read as printed: the
/// estimate and both bounds rounded to the column's decimals as the CSV writes them, so whether a row met its target
/// can be checked from the row itself. For `simulate` (and `sweep`, `tune`, `sensitivity`) the interval is the
/// column's own `_lo`/`_hi` (Wilson for a rate, Student t for a mean), for `compare` and `report` the paired
/// difference's interval against the baseline (every other design must meet it). The target is absolute, in the
/// column's unit (`completion_rate=0.002`), or relative with `%` (`completion_time_mean_ms=1%`: at most 1 % of the
/// printed |estimate|). An interval that is undefined (nobody in its denominator, a mean of fewer than two values)
/// never meets a target. (0.3.10 and before compared the unrounded interval: a target equal to a printed half-width
/// could stop a chunk earlier or later than the printed columns say.)
public struct PrecisionTarget: Sendable, Equatable, CustomStringConvertible {
    public enum Width: Sendable, Equatable {
        /// In the column's unit.
        case absolute(Double)
        /// A percentage of |estimate| (1 means 1 %).
        case relative(Double)
    }

    public let metric: String
    public let width: Width
    /// The width in one spelling (`0.002`, `1%`; `Precision.canonical`): the provenance and the warnings quote it.
    public let widthText: String
    /// The decimals the metric's columns print (`Metric.decimals`; a difference prints its metric's).
    public let decimals: Int

    public init(metric: String, width: Width, widthText: String, decimals: Int? = nil) {
        self.metric = metric
        self.width = width
        self.widthText = widthText
        self.decimals = decimals ?? Metric.named(metric)?.decimals ?? 9
    }

    public var description: String { "\(metric)=\(widthText)" }

    /// Whether an interval around `estimate`, as printed, meets the target.
    public func isMet(estimate: Double?, lower: Double?, upper: Double?) -> Bool {
        guard let printed = printed(estimate: estimate, lower: lower, upper: upper) else { return false }
        // A width written with no more decimals than the column's is a whole number of its units, which the product
        // may miss by an ulp: the slack keeps `completion_rate=0.00414` met by a printed half of 0.004140.
        let slack = 1 + 1e-12
        switch width {
        case .absolute(let limit): return printed.half <= limit * printed.scale * slack
        case .relative(let percent): return printed.half <= percent / 100 * abs(printed.estimate) * slack
        }
    }

    /// The printed interval's larger half, in the column's unit; nil when any of the three is undefined.
    public func halfWidth(estimate: Double?, lower: Double?, upper: Double?) -> Double? {
        printed(estimate: estimate, lower: lower, upper: upper).map { $0.half / $0.scale }
    }

    /// The estimate and the larger half as the CSV prints them, in units of the last printed decimal (whole numbers,
    /// exact in a Double), with the units per column unit; the unrounded values (scale 1) where a printed value takes
    /// more than 16 characters without its point (no column holds such a value).
    private func printed(estimate: Double?, lower: Double?, upper: Double?) -> (estimate: Double, half: Double, scale: Double)? {
        guard let estimate, let lower, let upper, estimate.isFinite, lower.isFinite, upper.isFinite else { return nil }
        func units(_ value: Double) -> Double? {
            let text = CSV.number(value, decimals: decimals).filter { $0 != "." }
            return text.count <= 16 ? Int64(text).map(Double.init) : nil
        }
        guard let e = units(estimate), let l = units(lower), let u = units(upper) else {
            return (estimate, max(upper - estimate, estimate - lower), 1)
        }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return (e, max(u - e, e - l), scale)
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
        // One order and one spelling for one meaning (`description`): the provenance says the same targets alike
        // however they were written, so `--resume` and `merge` take a file of the same precision.
        self.targets = targets.sorted { allowed.firstIndex(of: $0.metric)! < allowed.firstIndex(of: $1.metric)! }
    }

    private static func target(_ text: String, allowed: [String]) throws(PrecisionError) -> PrecisionTarget {
        let example = "e.g. --precision completion_rate=0.002 or --precision completion_time_mean_ms=1%"
        guard let equals = text.firstIndex(of: "=") else {
            throw PrecisionError(message: "--precision '\(text)': write METRIC=HALFWIDTH (a comma separates targets), \(example)")
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
        // A leading '+' reads as it does in --users and --set (`+0.005`).
        let digits = value.hasPrefix("+") ? value.dropFirst() : Substring(value)
        let isDecimal = !digits.isEmpty && digits.allSatisfy { $0.isASCII && ($0.isNumber || ".eE+-".contains($0)) }
            && digits.first.map { $0.isNumber || $0 == "." } == true
        guard isDecimal, let number = Double(value), number.isFinite, number > 0, !relative || number < 100 else {
            throw PrecisionError(message: "--precision \(name)=\(text[text.index(after: equals)...]): the half-width must be a positive finite number in the column's unit, or a percentage of the estimate above 0 and below 100 with one '%', \(example)")
        }
        return PrecisionTarget(metric: name, width: relative ? .relative(number) : .absolute(number),
                               widthText: Self.canonical(number) + (relative ? "%" : ""))
    }

    /// A width in one spelling: the shortest decimal that reads back as the number, without exponent where it is
    /// short (`0.005` for `5e-3` or `0.0050`, `2` for `2.0`).
    static func canonical(_ number: Double) -> String {
        if number == number.rounded(), number < 1e15 { return String(Int64(number)) }
        let shortest = "\(number)"
        // Below 1e-9 (no run reaches it) as Swift spells it, 1e-300: fixed decimals would be hundreds of digits.
        guard shortest.contains("e"), number >= 1e-9 else { return shortest }
        // 1e-05 and the like: the fewest fixed decimals that read back as the number.
        for digits in 1...340 {
            let fixed = String(format: "%.\(digits)f", number)
            if Double(fixed) == number { return fixed }
        }
        return shortest
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
        outcome(users: summaries.map(\.users).max() ?? 0, cap: cap, rows: summaries.map { summary in
            ("\(summary.profile), \(summary.population)", { Self.interval($0, summary.tally) })
        })
    }

    /// How a comparison with these targets ended, read from its paired differences.
    public func outcome(_ comparison: DesignComparison, cap: Int) -> PrecisionOutcome {
        outcome(users: comparison.summaries.map(\.users).max() ?? 0, cap: cap, rows: Self.rows(of: comparison))
    }

    /// A comparison's rows, one per design against the baseline and population, in the comparison's order, each
    /// reading its metrics' paired differences.
    private static func rows(of comparison: DesignComparison) -> [(String, (String) -> (Double?, Double?, Double?)?)] {
        var order: [String] = []
        var byRow: [String: [String: PairedStatistics.Difference]] = [:]
        for row in comparison.rows {
            let name = "\(row.design) − \(row.baseline), \(row.population)"
            if byRow[name] == nil { order.append(name) }
            byRow[name, default: [:]][row.metric.name] = row.difference
        }
        return order.map { name in
            (name, { metric in
                byRow[name]?[metric].map { difference in (difference.diff, difference.lower, difference.upper) }
            })
        }
    }

    /// The outcome over rows (a name and how to read a metric's estimate and interval, nil where the row has no such
    /// metric): of every target's shortfalls, the worst of each kind (`PrecisionOutcome.Shortfall.Kind`), so the
    /// advice speaks for each way it fell short.
    private func outcome(users: Int, cap: Int, rows: [(String, (String) -> (Double?, Double?, Double?)?)]) -> PrecisionOutcome {
        let short = targets.flatMap { target in
            PrecisionOutcome.worstOfEachKind(rows.compactMap { row, interval in
                guard let (estimate, lower, upper) = interval(target.metric) else { return nil }
                return PrecisionOutcome.Shortfall(target: target, estimate: estimate, lower: lower, upper: upper, row: row)
            })
        }
        return PrecisionOutcome(precision: self, users: users, cap: cap, shortfalls: short)
    }
}

/// Where a run with `--precision` stopped: at the first chunk boundary where every target was met, or at the cap
/// (`--users`) with the targets that fell short.
public struct PrecisionOutcome: Sendable, Equatable {
    /// A target not met at the cap: an interval's half-width as printed (nil: undefined), and whose it was.
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

        /// The shortfall of an interval that misses `target` (nil when it meets it), with its half-width as printed.
        public init?(target: PrecisionTarget, estimate: Double?, lower: Double?, upper: Double?, row: String) {
            guard !target.isMet(estimate: estimate, lower: lower, upper: upper) else { return nil }
            self.init(target: target, halfWidth: target.halfWidth(estimate: estimate, lower: lower, upper: upper),
                      estimate: estimate, row: row)
        }

        /// The ways a target falls short, each with its own remedy (`advice`).
        public enum Kind: Sendable, Equatable {
            /// The interval is defined and wider than the target: more users narrow it.
            case tooWide
            /// A percentage of an estimate that prints as 0: no interval but one of no width meets it.
            case neverMet
            /// No interval (nobody has the value, or fewer than two values for a mean).
            case noInterval
        }

        public var kind: Kind { halfWidth == nil ? .noInterval : neverMet ? .neverMet : .tooWide }

        /// How far the interval is from its target, in the target's own terms: the half-width for a width in the
        /// unit, the half-width as a share of |estimate| for a percentage (a wide interval of a large estimate can
        /// be nearer its target than a narrower one of a small estimate); the half-width for an estimate that prints
        /// as 0 (no percentage of it is met: the widest says most); nil without an interval.
        var excess: Double? {
            guard let halfWidth else { return nil }
            guard case .relative = target.width, !neverMet, let estimate, estimate != 0 else { return halfWidth }
            return halfWidth / abs(estimate)
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
                } else if neverMet {
                    text += " (of an estimate of 0)"
                }
            }
            return text + " (\(row)), wanted \(target.widthText)"
        }

        /// A relative target of an estimate that prints as 0: no interval is narrower than 0 % of it.
        var neverMet: Bool {
            guard case .relative = target.width, let halfWidth, halfWidth > 0, let estimate else { return false }
            return Double(CSV.number(estimate, decimals: target.decimals)) == 0
        }

        /// What can be done about it: more users or a wider target for an interval that is too wide; for an estimate
        /// of 0 under a percentage, an absolute width; for no interval, the people or holds it is taken over
        /// (`Metric.takenOver`).
        var advice: String {
            switch kind {
            case .noInterval: "\(target.metric) needs \(Metric.named(target.metric)?.takenOver ?? "holds that have it") (with none, no --users meets it)"
            case .neverMet: "give \(target.metric) a width in its unit: a percentage of an estimate that prints as 0 is met only by an interval of no width"
            case .tooWide: "raise --users or widen the target"
            }
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

    /// Of one target's shortfalls over rows, the worst of each kind (the furthest from its target, `excess`; the
    /// first row without an interval), in the order the kinds first appear: a target that falls short in two ways
    /// keeps both, and the advice.
    static func worstOfEachKind(_ found: [Shortfall]) -> [Shortfall] {
        var worst: [Shortfall] = []
        for shortfall in found {
            if let index = worst.firstIndex(where: { $0.kind == shortfall.kind }) {
                if let mine = shortfall.excess, let theirs = worst[index].excess, mine > theirs { worst[index] = shortfall }
            } else {
                worst.append(shortfall)
            }
        }
        return worst
    }

    /// Shortfalls in words, `; ` between them: the provenance, the warnings and the study commands' points say
    /// them alike.
    public static func describe(_ shortfalls: [Shortfall]) -> String {
        shortfalls.map(\.description).joined(separator: "; ")
    }

    /// A study command's warning for the runs (`rows`, `evaluations`) of `total` that reached the cap without
    /// meeting `precision`, each described as `shown` gives (at most five), with the advice for every shortfall.
    public static func capWarning(_ precision: Precision, cap: Int, runs: Int, of total: Int, noun: String,
                                  shown: [String], shortfalls: [Shortfall]) -> String {
        let list = shown.isEmpty ? "" : ": " + shown.prefix(5).joined(separator: " | ") + (shown.count > 5 ? " | and \(shown.count - 5) more" : "")
        return "warning: --precision \(precision) not met at the cap of \(cap) users (--users \(cap)) for \(runs) of \(total) \(noun)\(list); "
            + advice(shortfalls)
    }

    /// The `# precision:` provenance value: `completion_rate=0.002 met at 81920 users`, or `… not met at the cap of
    /// 100000 users (completion_rate half-width 0.0031 (…), wanted 0.002)`.
    public var provenanceValue: String {
        met ? "\(precision) met at \(users) users"
            : "\(precision) not met at the cap of \(users) users (--users \(cap)): " + Self.describe(shortfalls)
    }

    /// The warning for standard error when a target fell short; nil when all were met.
    public func warning(_ what: String = "") -> String? {
        guard !met else { return nil }
        return "warning: --precision not met\(what.isEmpty ? "" : " (\(what))") at the cap of \(users) users (--users \(cap)): "
            + Self.describe(shortfalls) + "; " + Self.advice(shortfalls)
    }

    /// The advice for `shortfalls`, each kind once, in their order.
    public static func advice(_ shortfalls: [Shortfall]) -> String {
        var said: [String] = []
        for advice in shortfalls.map(\.advice) where !said.contains(advice) { said.append(advice) }
        return said.joined(separator: "; ")
    }
}
