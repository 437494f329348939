/// A refresh rate's frame interval and its reciprocal, as `FrameClock` uses them.
public struct FrameRate: Sendable, Hashable {
    public let intervalNanoseconds: Double
    let framesPerNanosecond: Double

    public init(_ refreshRateHz: Double) {
        intervalNanoseconds = Instant.perSecond / refreshRateHz
        framesPerNanosecond = refreshRateHz / Instant.perSecond
    }
}

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
    /// Frames per nanosecond (1 / `intervalNanoseconds`): the first estimate of `firstFrame(atOrAfter:)` is a
    /// multiplication instead of a division (the estimate is only trusted with a margin, see there).
    let framesPerNanosecond: Double

    /// Frame indices are kept within ±2^40, far beyond any hold, so converting them never traps.
    static let indexLimit = 1_099_511_627_776.0

    public init(refreshRateHz: Double, phase: Double) {
        self.init(FrameRate(refreshRateHz), phase: phase)
    }

    /// The clock of one phase at a rate whose two quotients were computed once (a per-person path builds a clock for
    /// every hold: two divisions saved each time, the same values).
    @inline(__always)
    public init(_ rate: FrameRate, phase: Double) {
        intervalNanoseconds = rate.intervalNanoseconds
        framesPerNanosecond = rate.framesPerNanosecond
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

    /// The first frame shown at or after `instant` (never before frame 0). Exact on the integer clock.
    ///
    /// Fast path: with p = instant / interval − phase (in frames) and k = ⌈p⌉, the real instants of frames k − 1
    /// and k lie (1 − (k − p))·interval before and (k − p)·interval after `instant`. `time(ofFrame:)` rounds to the
    /// nearest nanosecond (±0.5 ns), and for instants below 2^43 ns (about 2.4 hours) the floating-point error of p
    /// and of the frame instants, in nanoseconds, is a few ulps of 2^43, below 0.01 ns. So when both gaps are at least `fastPathMargin` (2 ns), time(k − 1) < instant ≤ time(k) holds
    /// without evaluating either, and k is the answer. Otherwise (an instant within 2 ns of a frame, or outside
    /// the fast range) the estimate is corrected against `time(ofFrame:)` as the definition reads.
    @inline(__always)
    public func firstFrame(atOrAfter instant: Int64) -> Int {
        let position = Double(instant) * framesPerNanosecond - phase
        if position > 0 && instant < Self.fastPathLimit {
            let k = Rounding.up(position)
            let after = (k - position) * intervalNanoseconds
            if after >= Self.fastPathMargin && intervalNanoseconds - after >= Self.fastPathMargin { return Int(k) }
        } else if position < -Self.fastPathZeroMargin {
            // Before the first frame (an early instant and a late phase): the corrected path's quotient is then
            // negative too (the two estimates of p < 1 differ by a few ulps), and it answers frame 0.
            return 0
        }
        return firstFrameByCorrection(atOrAfter: instant)
    }

    /// How far below zero (in frames) the fast estimate of p must be to answer frame 0 without the division.
    static let fastPathZeroMargin = 1e-9

    /// Frames closer than this (nanoseconds) to an instant are checked on the integer clock.
    static let fastPathMargin = 2.0
    /// Instants below this (2^43 ns, about 2.4 hours) may take the fast path.
    static let fastPathLimit: Int64 = 1 << 43

    /// `firstFrame(atOrAfter:)` by the definition: an estimate from the interval, corrected against
    /// `time(ofFrame:)` until time(k − 1) < instant ≤ time(k) (k = 0 when frame 0 is at or after the instant).
    @inline(__always)
    func firstFrameByCorrection(atOrAfter instant: Int64) -> Int {
        let position = Double(instant) / intervalNanoseconds - phase
        if position <= 0 { return 0 }
        // Beyond the index limit (an instant ~10⁹ s away: an undamped spring's "never"), the limit itself.
        if position >= Self.indexLimit { return Int(Self.indexLimit) }
        var index = Int(Rounding.up(position))
        while index > 0 && time(ofFrame: index - 1) >= instant { index -= 1 }
        while time(ofFrame: index) < instant { index += 1 }
        return index
    }

    /// A frame no later than `firstFrame(atOrAfter:)`, usually that frame, without its checks: from the whole part
    /// of the instant's position in frames, p = instant / interval − phase. Rounding moves a frame's instant and p by
    /// far less than a frame, so no frame before ⌈p − 10⁻⁶⌉ is at or after the instant, and ⌊p⌋ is at most that. When
    /// frame ⌊p⌋ is shown at least `fastPathMargin` before the instant (below `fastPathLimit`, as `firstFrame`'s
    /// fast path reasons), it is not at or after it either, and ⌊p⌋ + 1 is the start: a search that checks every
    /// frame from its start then checks the frame before the answer only for an instant within 2 ns of a frame.
    @inline(__always)
    public func frameNoLaterThanFirst(atOrAfter instant: Int64) -> Int {
        let position = Double(instant) * framesPerNanosecond - phase
        if position <= 0 { return 0 }
        if position < Self.indexLimit {
            let whole = Int(position)
            let before = (position - Double(whole)) * intervalNanoseconds
            return instant < Self.fastPathLimit && before >= Self.fastPathMargin ? whole + 1 : whole
        }
        return firstFrame(atOrAfter: instant)
    }

    /// The last frame shown at or before `instant`, or nil when no frame has been shown yet: the frame before the first
    /// one at or after the next nanosecond (frames are on the integer clock), so it takes `firstFrame`'s fast path.
    @inline(__always)
    public func lastFrame(atOrBefore instant: Int64) -> Int? {
        guard instant < Int64.max else { return Int(Self.indexLimit) }
        let next = firstFrame(atOrAfter: instant + 1)
        return next == 0 ? nil : next - 1
    }
}
