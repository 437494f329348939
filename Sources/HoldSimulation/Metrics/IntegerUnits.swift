/// Times are tallied in whole microseconds so every sum is an exact integer: merging per-thread tallies in any
/// order gives the same bits, which is what makes a run's CSV identical whatever `--threads` is. Sums are Int128,
/// so even 10^10 users of an hour each cannot overflow. Times beyond ±10^12 s (a drawn hold of absurd length)
/// are clamped rather than trapping; NaN counts as 0.
@inline(__always)
func microseconds(_ seconds: Double) -> Int64 {
    let value = seconds * 1_000_000
    guard value == value else { return 0 }
    return nearestInteger(max(-1e18, min(1e18, value)))
}

/// `x.rounded()` (halves away from zero) as an integer, for |x| ≤ 10¹⁸, without the library call the baseline x86-64
/// target makes for it: the truncation is exact, and so is the fraction left.
@inline(__always)
func nearestInteger(_ x: Double) -> Int64 {
    let whole = Int64(x)
    let fraction = x - Double(whole)
    if fraction >= 0.5 { return whole + 1 }
    if fraction <= -0.5 { return whole - 1 }
    return whole
}

/// An instant of the integer clock (nanoseconds) in whole microseconds, rounded half up.
@inline(__always)
func microseconds(nanoseconds: Int64) -> Int64 {
    let (quotient, remainder) = nanoseconds.quotientAndRemainder(dividingBy: 1000)
    if remainder >= 500 { return quotient + 1 }
    if remainder < -500 { return quotient - 1 }
    return quotient
}

/// `microseconds(nanoseconds:)` for an instant or duration that is not negative: the same rounding (half up), with
/// one division by a constant instead of a quotient, a remainder and two comparisons.
@inline(__always)
func microseconds(nonNegativeNanoseconds nanoseconds: Int64) -> Int64 {
    assert(nanoseconds >= 0, "microseconds(nonNegativeNanoseconds:) of \(nanoseconds)")
    return (nanoseconds &+ 500) / 1000
}

/// Fractions (progress) are tallied in billionths, for the same reason.
@inline(__always)
func billionths(_ fraction: Double) -> Int64 {
    microseconds(fraction * 1_000)
}
