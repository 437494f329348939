/// What happens during a hold if the finger stays down (and still): the control's own timeline for one
/// touch-down phase and one draw of Timer latencies. Instants are nanoseconds after touch-down (`Instant`); the
/// `…Time` properties give them in seconds.
///
/// Everything a person can perceive before they let go is here, so a synthetic user can decide when to let go
/// from it; `HoldEvaluator.resolve` then applies the release.
public struct HeldTimeline: Sendable, Equatable {
    /// Fraction of a frame interval from touch-down to the first frame.
    public var framePhase: Double
    /// When the gesture recognises (minimumDuration).
    public var recognition: Int64
    /// When the fill starts moving; nil without a fill.
    public var fillStart: Int64?
    /// When the fill completes; nil without a fill.
    public var fillComplete: Int64?
    /// When the action fires if the finger is still down then; nil if it never can.
    public var trigger: Int64?
    /// The first frame on which the fill looks started (displayed progress ≥ resolution).
    public var firstVisibleFrame: Int64?
    /// The first frame on which the fill looks full (displayed progress ≥ 1 − resolution) if the finger stays down.
    public var firstFullFrame: Int64?
    /// The first progress pulse actually played.
    public var firstPlayedPulse: Int64?

    public init(framePhase: Double, recognition: Int64) {
        self.framePhase = framePhase
        self.recognition = recognition
    }

    /// The first moment anything tells the person the hold is working: a visible fill change, a pulse, or the
    /// action firing (with its completion pulse).
    public var firstFeedback: Int64? {
        var first = Int64.max
        if let time = firstVisibleFrame { first = min(first, time) }
        if let time = firstPlayedPulse { first = min(first, time) }
        if let time = trigger { first = min(first, time) }
        return first == .max ? nil : first
    }

    public var recognitionTime: Double { Instant.seconds(recognition) }
    public var fillStartTime: Double? { fillStart.map(Instant.seconds) }
    public var fillCompleteTime: Double? { fillComplete.map(Instant.seconds) }
    public var triggerTime: Double? { trigger.map(Instant.seconds) }
    public var firstVisibleFrameTime: Double? { firstVisibleFrame.map(Instant.seconds) }
    public var firstFullFrameTime: Double? { firstFullFrame.map(Instant.seconds) }
    public var firstPlayedPulseTime: Double? { firstPlayedPulse.map(Instant.seconds) }
    public var firstFeedbackTime: Double? { firstFeedback.map(Instant.seconds) }
}
