import HoldLabIO
import HoldProfiles
import HoldSimulation

/// How a review draws its figures.
public enum ReviewFigureStyle: String, Sendable, CaseIterable {
    /// For slides: 1920×1080 on white (SVG and PNG), each figure titled by its takeaway, points named and valued where
    /// they are drawn, panels of rates on one 0–100 % scale, sweeps as points without joining lines, and a scorecard.
    case slide
    /// HoldLab 0.1.0's figures (1120×560, legends, no background in SVG, no scorecard): a review cited from 0.1.0
    /// draws its figures again byte for byte.
    case classic
}

/// The takeaways that title a review's slide figures, and its scorecard: pure functions of the review's numbers.
public enum ReviewFigures {
    /// A text gnuplot can take between single quotes: quotes become typographic ones, control characters spaces.
    public static func gnuplotText(_ text: String) -> String {
        String(text.map { character -> Character in
            switch character {
            case "'": "’"
            case "\"": "”"
            default: character.isNewline || character.asciiValue.map { $0 < 0x20 || $0 == 0x7F } == true ? " " : character
            }
        })
    }

    /// The design-rates title: the largest completion difference to the baseline, in words.
    public static func ratesHeadline(_ results: [DesignComparison]) -> String {
        var best: (row: ComparisonRow, diff: Double)?
        for result in results {
            for row in result.rows where row.metric.name == "completion_rate" {
                guard let diff = row.difference.diff else { continue }
                if best.map({ abs(diff) > abs($0.diff) }) ?? true { best = (row, diff) }
            }
        }
        guard let (row, diff) = best, let value = row.difference.designValue, let base = row.difference.baselineValue else {
            return "Completion and false activation per design and population"
        }
        if abs(diff) < 0.0005 {
            return "Every design completes as often as \(row.baseline) (largest difference under 0.05 points)"
        }
        return "\(row.design) completes \(ReviewReport.number(abs(diff) * 100, 1)) points \(diff < 0 ? "less" : "more") often "
            + "than \(row.baseline) for \(row.population) users (\(ReviewReport.percent(value)) against \(ReviewReport.percent(base)))"
    }

    /// The fill-curves title: for each design, when its bar looks full against when its action fires (a frame's
    /// difference either way counts as together).
    public static func fillHeadline(_ designs: [ReviewInput.Design]) -> String {
        var parts: [String] = []
        for design in designs {
            let label = design.design.label
            let frame = 1000 / design.design.profile.control.display.refreshRateHz
            guard let action = design.actionMs else { parts.append("\(label) never fires"); continue }
            guard let full = design.fullMs else { parts.append("\(label) never looks full"); continue }
            let gap = action - full
            if gap > frame {
                parts.append("\(label) looks full \(ReviewReport.number(gap, 0)) ms before its action fires")
            } else if -gap > frame {
                parts.append("\(label) fires \(ReviewReport.number(-gap, 0)) ms before its bar looks full")
            } else {
                parts.append("\(label) looks full as its action fires")
            }
        }
        return parts.joined(separator: "; ")
    }

    /// A sweep's title: the largest change of the completion rate between neighbouring points, where a cliff is.
    ///
    /// - Parameters:
    ///   - points: the swept key's value at each point, in the sweep's order; `completion`: the rate at each.
    public static func sweepHeadline(key: String, points: [String], completion: [Double?]) -> String {
        var best: (index: Int, change: Double)?
        for index in points.indices.dropFirst() where index < completion.count {
            guard let before = completion[index - 1], let after = completion[index] else { continue }
            let change = after - before
            if best.map({ abs(change) > abs($0.change) }) ?? true { best = (index, change) }
        }
        guard let (index, change) = best, abs(change) >= 0.0005 else { return "Completion and false activation against \(key)" }
        return "Completion \(change < 0 ? "falls" : "rises") \(ReviewReport.number(abs(change) * 100, 1)) points between "
            + "\(key) = \(points[index - 1]) and \(points[index]) (points are not joined: nothing was simulated between them)"
    }

    /// A sweep's headline from its rows (``Sweep/columns(_:)``: the swept key first).
    static func sweepHeadline(key: String, columns: [ResultColumn], rows: [[ResultCell]]) -> String {
        guard let completion = columns.firstIndex(where: { $0.name == "completion_rate" }) else {
            return "Completion and false activation against \(key)"
        }
        let points = rows.map { row in row.first.map(text) ?? "" }
        return sweepHeadline(key: key, points: points, completion: rows.map { $0.count > completion ? value($0[completion]) : nil })
    }

    /// A cell's number, if it holds one.
    static func value(_ cell: ResultCell) -> Double? {
        switch cell {
        case .integer(let value): Double(value)
        case .unsigned(let value): Double(value)
        case .number(let value, _), .significant(let value, _), .formatted(_, let value): value
        case .proportion(let proportion, _): proportion.rate
        case .text, .boolean: nil
        }
    }

    /// A cell as a short text: a number without trailing zeros.
    static func text(_ cell: ResultCell) -> String {
        if case .text(let text) = cell { return text }
        guard let value = value(cell) else { return "–" }
        return CSV.number(value, decimals: 6).trimmingZeros
    }

    /// The scorecard's columns: one row per design and population, the design's rule results on its first row.
    public static let scorecardColumns = ["design", "population", "completion", "false_activation", "time_to_confirm",
                                          "rules", "rules_failed"].map { ResultColumn($0, $0 == "rules_failed" ? .integer : .text) }

    /// The scorecard's rows: each design's completion, false activation and mean time to confirm per population
    /// (as `report.md` prints them), and its rule results.
    public static func scorecard(designs: [String], results: [DesignComparison], checks: [[GuidelineResult]],
                                 provenance: Provenance) -> ResultTable {
        var rows: [[ResultCell]] = []
        for (index, design) in designs.enumerated() {
            let results0 = index < checks.count ? checks[index] : []
            let failed = results0.filter { $0.status == .fail }.map(\.rule.id)
            let warned = results0.filter { $0.status == .warn }.map(\.rule.id)
            let passed = results0.count - failed.count - warned.count
            // The counts on the design's first row, the rules that fail (or else warn) on its second.
            let counts = [(failed.count, "FAIL"), (warned.count, "warn"), (passed, "pass")].filter { $0.0 > 0 }
                .map { "\($0.0) \($0.1)" }.joined(separator: " · ")
            let named = failed.isEmpty ? (warned.isEmpty ? "" : "warns: " + warned.joined(separator: " · "))
                : "fails: " + failed.joined(separator: " · ")
            let lines = results.count > 1 ? [counts, named] : [named.isEmpty ? counts : counts + "; " + named]
            for (position, result) in results.enumerated() where index < result.summaries.count {
                let rules = position < lines.count ? lines[position] : ""
                let summary = result.summaries[index]
                rows.append([
                    .text(design), .text(summary.population), .text(ReviewReport.rate(summary.completion)),
                    .text(ReviewReport.rate(summary.falseActivation)), .text(ReviewReport.milliseconds(summary.completionTimeMeanMs)),
                    .text(rules), .integer(position < lines.count ? failed.count : 0),
                ])
            }
        }
        return ResultTable(provenance: provenance, columns: scorecardColumns, rows: rows)
    }
}

extension String {
    /// `0.600000` → `0.6`, `2.000000` → `2`.
    fileprivate var trimmingZeros: String {
        guard contains(".") else { return self }
        var text = self
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
