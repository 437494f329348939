/// The one time base of a hold: whole nanoseconds after touch-down.
///
/// Events (recognition, the trigger, a release), Timer ticks and display frames are all placed on this integer
/// clock before they are compared, so two things that happen at the same instant compare equal exactly, not by
/// the luck of floating-point rounding (1.0 − 0.2 and 0.8, or 120 frames of 1/120 s and 1 s). Ties are then
/// broken by one documented order (`TraceEvent.rank`): touch events, the gesture, the fill's clock and the trigger
/// come first, then the frame renders what they did, then the pulses the frame or tick requested.
///
/// A nanosecond is far below anything a person, a display or a Timer can resolve (a 1,000 Hz frame is 10⁶ ns), so
/// rounding a profile's seconds or a drawn duration to it changes no figure a review quotes.
public enum Instant {
    /// Nanoseconds per second.
    public static let perSecond = 1_000_000_000.0

    /// The latest instant any time of a hold may take: ±10⁷ s (about 116 days), far beyond the hour a control's
    /// own times may last; a drawn duration beyond it (a population's hold or reaction) is taken as 10⁷ s, in the
    /// per-user rows and the summaries alike, rather than trapping (frame searches stop at 2⁴⁰ frames). Every time a
    /// tally keeps is then within its quantiles' range (`Tally.highestMicroseconds`) and its sums of squares within
    /// Int128. NaN maps to 0.
    public static let limit = 1e16
    /// `limit` in seconds (10⁷ s): the longest duration a population draws, or telemetry may log, as a time of a hold.
    public static let longestSeconds = limit / perSecond

    /// `seconds`, rounded to the nearest nanosecond (clamped to ±10⁷ s; NaN is 0).
    @inlinable @inline(__always)
    public static func nanoseconds(_ seconds: Double) -> Int64 {
        let value = seconds * perSecond
        guard value == value else { return 0 }
        return nearest(Swift.max(-limit, Swift.min(limit, value)))
    }

    /// The nearest whole number, halves away from zero, for |x| ≤ 9·10¹⁸ (a truncating conversion: no library call on
    /// the hot path).
    @inlinable @inline(__always)
    static func nearest(_ x: Double) -> Int64 {
        x >= 0 ? Int64(x + 0.5) : -Int64(-x + 0.5)
    }

    /// Seconds for a number of nanoseconds.
    @inlinable @inline(__always)
    public static func seconds(_ nanoseconds: Int64) -> Double {
        Double(nanoseconds) / perSecond
    }
}
