import GSL
import HoldLabIO

/// Wilson's interval near 0 and 1: where it is known to cover less than 95 %, and the exact interval to use there.
///
/// Wilson's score interval covers less than 93 % of the time whenever the expected number of events n·p (or of
/// non-events) is between about 0.075 and 4.1: its lower bound at 1, 2 or 3 events (0.18/n, 0.55/n, 1.02/n) sits
/// above rates that still give those counts often (Brown, Cai & DasGupta 2001, *Statistical Science* 16:101, §4.1.1).
/// At n·p = 0.17 it covers 84 %; HoldLab's coverage study measures 0.889 for a false activation rate of 0.000353
/// over about 300 accidental users (docs/INTERVALS.md). A run cannot know n·p, so the regime is read from what it
/// saw: at most `fewEventsLimit` events or non-events, which a rate in the undercovering range gives 99.7 % of the
/// time. There the Clopper–Pearson interval, exact and never below 95 %, is the one to use.
extension Proportion {
    /// At most this many events (or non-events): Wilson's interval may undercover (P(Poisson(4.1) ≤ 10) = 0.997).
    public static let fewEventsLimit = 10

    /// Whether the rate has few events or few non-events (and any trials): the regime where Wilson's interval is
    /// known to undercover.
    public var hasFewEvents: Bool {
        trials > 0 && min(successes, trials - successes) <= Self.fewEventsLimit
    }

    /// The Clopper–Pearson ("exact") 95 % interval: the 2.5 % and 97.5 % quantiles of Beta(x, n − x + 1) and
    /// Beta(x + 1, n − x), with 0 at x = 0 and 1 at x = n. It covers at least 95 % for every p (conservatively
    /// away from 0 and 1). Nil without trials.
    public var clopperPearson95: (lower: Double, upper: Double)? {
        guard trials > 0 else { return nil }
        let x = Double(successes), n = Double(trials)
        let lower = successes == 0 ? 0 : BetaDistribution.quantile(0.025, a: x, b: n - x + 1)
        let upper = successes == trials ? 1 : BetaDistribution.quantile(0.975, a: x + 1, b: n - x)
        return (lower, upper)
    }
}

extension SimulationSummary {
    /// The note a command prints when a rate it writes with a Wilson interval is in the few-events regime, naming
    /// each such rate with its Clopper–Pearson interval; nil when none is. The output keeps Wilson's bounds, so rows
    /// stay comparable across runs and versions.
    ///
    /// - Parameters:
    ///   - rows: each summary with how the note names its row (default: profile, population).
    ///   - viewIntervals: whether the output is a view (table, Markdown, JSON), which shows a Wilson interval for
    ///     every rate over intent or accidental users; CSV has one for completion and false activation only (the
    ///     `_lo`/`_hi` columns).
    public static func fewEventsNote(_ rows: [(label: String, summary: SimulationSummary)], viewIntervals: Bool = false) -> String? {
        var entries: [String] = []
        for (label, summary) in rows {
            for metric in Metric.all {
                guard case .rate(_, _, let interval) = metric.kind, interval == .columns || (viewIntervals && interval == .view),
                      let proportion = summary.proportion(metric), proportion.hasFewEvents,
                      let exact = proportion.clopperPearson95 else { continue }
                entries.append("\(metric.name) (\(label)) \(proportion.successes) of \(proportion.trials): exact "
                               + "[\(CSV.number(exact.lower, decimals: 6)), \(CSV.number(exact.upper, decimals: 6))]")
            }
        }
        guard !entries.isEmpty else { return nil }
        let shown = entries.prefix(4).joined(separator: "; ")
        let more = entries.count > 4 ? "; and \(entries.count - 4) more" : ""
        return "note: few events (at most \(Proportion.fewEventsLimit) events or non-events), where Wilson's 95 % interval "
            + "can cover as little as 84 %; the Clopper–Pearson interval covers: \(shown)\(more)"
    }

    /// `fewEventsNote` with each row named by its profile and population.
    public static func fewEventsNote(_ summaries: [SimulationSummary], viewIntervals: Bool = false) -> String? {
        fewEventsNote(summaries.map { (label: "\($0.profile), \($0.population)", summary: $0) }, viewIntervals: viewIntervals)
    }
}
