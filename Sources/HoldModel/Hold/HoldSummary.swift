/// What a simulation's tally keeps of one hold: `HoldOutcome` without what only a trace shows, "none" written as a
/// sentinel so that a block of them is plain data. Instants are nanoseconds after touch-down.
public struct HoldSummary: Sendable, Equatable {
    /// The action fired.
    public var completed = false
    /// Pulses played while the finger was down, and requests dropped by `minInterval`.
    public var pulses = 0
    public var droppedPulses = 0
    /// The shortest gap between two played pulses; `.max` with fewer than two.
    public var shortestPulseGap = Int64.max
    /// The first feedback while the finger was down; `.max` for none.
    public var feedback = Int64.max
    /// The first frame drawn empty after the release when the fill retracted; `.max` when it did not.
    public var firstEmptyFrame = Int64.max
    /// The first frame of the hold that showed the bar full; `.max` for none.
    public var firstFullFrameSeen = Int64.max
    /// Progress on screen when the action fired; NaN when it did not fire.
    public var displayedProgressAtTrigger = Double.nan

    public init() {}

    public static func == (lhs: HoldSummary, rhs: HoldSummary) -> Bool {
        lhs.completed == rhs.completed && lhs.pulses == rhs.pulses && lhs.droppedPulses == rhs.droppedPulses
            && lhs.shortestPulseGap == rhs.shortestPulseGap && lhs.feedback == rhs.feedback
            && lhs.firstEmptyFrame == rhs.firstEmptyFrame && lhs.firstFullFrameSeen == rhs.firstFullFrameSeen
            && lhs.displayedProgressAtTrigger.bitPattern == rhs.displayedProgressAtTrigger.bitPattern
    }
}

extension HoldOutcome {
    /// The same hold as a summary.
    public var summary: HoldSummary {
        var summary = HoldSummary()
        summary.completed = completed
        summary.pulses = pulses
        summary.droppedPulses = droppedPulses
        summary.shortestPulseGap = shortestPulseGap ?? .max
        summary.feedback = feedback ?? .max
        summary.firstEmptyFrame = firstEmptyFrame ?? .max
        summary.firstFullFrameSeen = firstFullFrameSeen ?? .max
        summary.displayedProgressAtTrigger = displayedProgressAtTrigger ?? .nan
        return summary
    }
}
