/// The result of one hold once the finger has lifted (or the gesture was cancelled by movement). Instants are
/// nanoseconds after touch-down; the `…Time` and `…Seconds` properties give seconds.
public struct HoldOutcome: Sendable, Equatable {
    /// When the finger lifted or the gesture was cancelled.
    public var pressEnd: Int64
    /// Whether the press ended by movement beyond `maximumDistance` rather than by a release.
    public var cancelled: Bool
    /// The action fired (the finger was down at the trigger instant; a release at that very instant comes after it).
    public var completed: Bool
    /// Pulses played while the finger was down, the completion pulse included.
    public var pulses: Int
    /// Pulse requests (progress or completion) dropped by `minInterval`.
    public var droppedPulses: Int
    /// The shortest gap between two played pulses; nil with fewer than two.
    public var shortestPulseGap: Int64?
    /// The first frame that showed the bar full in this hold: while the finger was down, or after the action
    /// fired when the fill stays. nil when the bar never looked full (or there is no fill).
    public var firstFullFrameSeen: Int64?
    /// Trigger − first frame seen full, when the action fired and the bar looked full.
    public var mismatch: Int64?
    /// Progress on screen when the action fired (the last frame at or before it), when it fired.
    public var displayedProgressAtTrigger: Double?
    /// The first feedback while the finger was down (a visible fill change, a played pulse, or the action).
    public var feedback: Int64?
    /// When the fill's model is back at rest: empty after a retract, or full and still after the action fired.
    public var rest: Int64
    /// The first frame at or after the press end that draws the bar empty (displayed progress below the display's
    /// resolution), when the fill retracted.
    public var firstEmptyFrame: Int64?

    public init(pressEnd: Int64, cancelled: Bool) {
        self.pressEnd = pressEnd
        self.cancelled = cancelled
        completed = false
        pulses = 0
        droppedPulses = 0
        rest = pressEnd
    }

    public var pressEndTime: Double { Instant.seconds(pressEnd) }
    public var restTime: Double { Instant.seconds(rest) }
    /// The highest rate between consecutive played pulses, 1 / shortest gap (Hz); nil with fewer than two pulses.
    public var peakPulseRateHz: Double? { shortestPulseGap.map { Instant.perSecond / Double(max(1, $0)) } }
    /// Trigger − first frame seen full, in seconds (positive: the bar looked full before the action).
    public var mismatchSeconds: Double? { mismatch.map(Instant.seconds) }
    /// Seconds from the end of the press to the first frame drawn empty, when the fill retracted.
    public var retractSeconds: Double? { firstEmptyFrame.map { Instant.seconds($0 - pressEnd) } }
}
