import HoldModel

/// One person's hold as a tally counts it (`Tally.add`, `PersonMeasures`): its summary and outcome, when the press
/// ended, the trigger instant (`.max` for never) and whether the control has a fill.
struct CountedHold {
    var summary: HoldSummary
    var outcome: UserOutcome
    var pressEnd: Int64
    var trigger: Int64
    var hasFill: Bool

    @inline(__always)
    init(summary: HoldSummary, outcome: UserOutcome, pressEnd: Int64, trigger: Int64, hasFill: Bool) {
        self.summary = summary
        self.outcome = outcome
        self.pressEnd = pressEnd
        self.trigger = trigger
        self.hasFill = hasFill
    }

    /// The run of one person (read from its evaluator, so before that evaluator runs the next).
    @inline(__always)
    init(_ run: UserRun) {
        self.init(summary: run.summary, outcome: run.outcome, pressEnd: run.hold.pressEnd,
                  trigger: run.timeline.trigger ?? .max, hasFill: run.timeline.fillStart != nil)
    }
}
