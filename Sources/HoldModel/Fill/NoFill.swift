/// No fill at all (`Fill.Model.none`): the static long press, the baseline for premature release (seed 003). Nothing
/// moves until the action fires, so a hold has no fill start and none of the model's methods is called.
struct NoFill: PreparedFill {
    static var isVisible: Bool { false }
    var nominalSeconds: Double? { nil }
    var nominalNanoseconds: Int64 { 0 }
    var neverDecreases: Bool { true }

    /// Without a fill the action can only follow the gesture, and there is nothing to play backwards.
    static func validate(in control: Control) throws(ControlError) {
        try ControlError.check(control.trigger.source == .gesture, "trigger.source",
                               "is fill, but fill.model is none: with no fill the action can only follow the gesture")
        try ControlError.check(control.retract.mode != .reverse, "retract.mode",
                               "reverse needs a fill to play backwards, but fill.model is none")
    }

    func hold(start: Int64, steps: FillSteps) -> Int64? { nil }
    func progress(at time: Int64, start: Int64, steps: FillSteps) -> Double { 0 }
    func velocity(at time: Int64, start: Int64) -> Double { 0 }
    func shownFrames(start: Int64, clock: FrameClock, steps: FillSteps) -> ShownFrames {
        ShownFrames(visible: .max, full: .max)
    }
    func requestProgressPulses(start: Int64, clock: FrameClock, threshold: Double, steps: FillSteps,
                               into requests: inout ReusedArray<Int64>) {}
}
