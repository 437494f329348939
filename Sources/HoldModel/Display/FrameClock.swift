/// The display's frames: frame k is shown at `(k + phase) · interval` seconds after touch-down.
///
/// `phase` ∈ [0, 1) is the fraction of a frame interval from touch-down to the first frame; a person's touch-down
/// is uniformly distributed against vsync, so simulations draw it uniformly (DOMAIN §1, clock 4).
public struct FrameClock: Sendable, Hashable {
    public let intervalSeconds: Double
    public let phase: Double

    /// Times closer than this many frame intervals count as the same instant, so a frame that falls exactly on
    /// an event (up to rounding) is "at" it rather than one frame later.
    static let slack = 1e-9

    /// Frame indices are kept within ±2^52, far beyond any hold, so converting them never traps.
    static let indexLimit = 4_503_599_627_370_496.0

    public init(refreshRateHz: Double, phase: Double) {
        self.intervalSeconds = 1 / refreshRateHz
        self.phase = phase
    }

    /// Seconds after touch-down at which frame `index` is shown.
    @inline(__always)
    public func time(ofFrame index: Int) -> Double {
        (Double(index) + phase) * intervalSeconds
    }

    /// The first frame shown at or after `seconds` (never before frame 0).
    @inline(__always)
    public func firstFrame(atOrAfter seconds: Double) -> Int {
        let position = seconds / intervalSeconds - phase
        if position <= 0 { return 0 }
        return Int(min(Self.indexLimit, (position - Self.slack).rounded(.up)))
    }

    /// The last frame shown at or before `seconds`, or nil when no frame has been shown yet.
    @inline(__always)
    public func lastFrame(atOrBefore seconds: Double) -> Int? {
        let position = seconds / intervalSeconds - phase
        if position < -Self.slack { return nil }
        return Int(min(Self.indexLimit, (position + Self.slack).rounded(.down)))
    }
}
