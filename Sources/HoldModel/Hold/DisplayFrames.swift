/// The display a hold is seen on (DOMAIN §1, clock 4): frames at its refresh rate from a person's frame phase, and the
/// levels at which displayed progress looks started and full.
struct DisplayFrames {
    /// The refresh rate's frame interval and its reciprocal, computed once per control.
    let rate: FrameRate
    /// The smallest progress a person can see (`Display.resolution`).
    let resolution: Double
    /// Displayed progress at or above this looks started (the resolution).
    let visibleLevel: Double
    /// Displayed progress at or above this looks full (1 − the resolution).
    let fullLevel: Double

    init(_ prepared: PreparedControl) {
        rate = FrameRate(prepared.control.display.refreshRateHz)
        resolution = prepared.control.display.resolution
        visibleLevel = prepared.visibleLevel
        fullLevel = prepared.fullLevel
    }

    /// The frames of a person whose touch-down is `phase` of a frame interval before the first frame.
    @inline(__always)
    func clock(phase: Double) -> FrameClock {
        FrameClock(rate, phase: phase)
    }

    /// What the screen shows for a model progress: negative values draw an empty bar, overshoot a full one.
    @inline(__always)
    static func displayed(_ progress: Double) -> Double {
        min(1, max(0, progress))
    }
}
