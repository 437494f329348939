/// The display's frames: frame k is shown at `(k + phase) · interval` after touch-down, rounded to the nanosecond.
///
/// `phase` ∈ [0, 1) is the fraction of a frame interval from touch-down to the first frame; a person's touch-down
/// is uniformly distributed against vsync, so simulations draw it uniformly (DOMAIN §1, clock 4). Frame times are
/// computed from the index, never accumulated, and live on the integer clock of `Instant`, so a frame at the same
/// instant as an event or a Timer tick (frame 120 at 120 Hz and a 1 s trigger) is exactly at it.
public struct FrameClock: Sendable, Hashable {
    /// Nanoseconds between frames (not a whole number in general: 8,333,333.3 at 120 Hz).
    public let intervalNanoseconds: Double
    public let phase: Double

    /// Frame indices are kept within ±2^40, far beyond any hold, so converting them never traps.
    static let indexLimit = 1_099_511_627_776.0

    public init(refreshRateHz: Double, phase: Double) {
        intervalNanoseconds = Instant.perSecond / refreshRateHz
        self.phase = phase
    }

    /// Seconds between frames.
    public var intervalSeconds: Double { intervalNanoseconds / Instant.perSecond }

    /// The instant (nanoseconds after touch-down) at which frame `index` is shown.
    @inline(__always)
    public func time(ofFrame index: Int) -> Int64 {
        Instant.nearest((Double(index) + phase) * intervalNanoseconds)
    }

    /// Seconds after touch-down at which frame `index` is shown.
    @inline(__always)
    public func seconds(ofFrame index: Int) -> Double {
        Instant.seconds(time(ofFrame: index))
    }

    /// The first frame shown at or after `instant` (never before frame 0). Exact on the integer clock: the
    /// estimate from the interval is corrected against `time(ofFrame:)`.
    @inline(__always)
    public func firstFrame(atOrAfter instant: Int64) -> Int {
        let position = Double(instant) / intervalNanoseconds - phase
        if position <= 0 { return 0 }
        var index = Int(Swift.min(Self.indexLimit, position.rounded(.up)))
        while index > 0 && time(ofFrame: index - 1) >= instant { index -= 1 }
        while time(ofFrame: index) < instant { index += 1 }
        return index
    }

    /// The last frame shown at or before `instant`, or nil when no frame has been shown yet.
    @inline(__always)
    public func lastFrame(atOrBefore instant: Int64) -> Int? {
        guard time(ofFrame: 0) <= instant else { return nil }
        let position = Double(instant) / intervalNanoseconds - phase
        var index = Int(Swift.max(0, Swift.min(Self.indexLimit, position.rounded(.down))))
        while time(ofFrame: index + 1) <= instant { index += 1 }
        while index > 0 && time(ofFrame: index) > instant { index -= 1 }
        return index
    }
}
