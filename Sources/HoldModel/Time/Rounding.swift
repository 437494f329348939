/// `rounded(.up)` without a library call: the baseline x86-64 target has no rounding instruction, so it is a call to
/// libm's `ceil`, and frame searches make several per person.
/// Exact for every double: below 2^52 in magnitude a truncating conversion and one correction give the same value,
/// beyond it (and for NaN or infinities) the library does it. The sign of a zero result may differ (0 for −0.5),
/// which no caller can tell after converting to an integer or adding to a position.
enum Rounding {
    static let exactLimit = 4_503_599_627_370_496.0  // 2^52: every double at or beyond it is a whole number

    @inline(__always)
    static func up(_ x: Double) -> Double {
        guard x > -exactLimit && x < exactLimit else { return x.rounded(.up) }
        let truncated = Double(Int64(x))
        return truncated < x ? truncated + 1 : truncated
    }
}
