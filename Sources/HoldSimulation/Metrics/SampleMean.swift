import GSL

/// The mean of integer values (microseconds, billionths, counts) from their exact sums Σy and Σy², with its 95 %
/// Student t interval: ȳ ± t₀.₉₇₅,ₙ₋₁ · s/√n, s² = Σ(y − ȳ)²/(n − 1).
///
/// The sums are the ones `Tally` keeps (Int128, merged in any order), so the interval, like the mean, is the same
/// bits whatever `--threads` or the shards were. The t quantile is GSL's (`gsl_cdf_tdist_Pinv`) for every n, so small
/// counts (a rare outcome's few completed holds) get the wider interval they need; for large n it is the normal
/// 1.95996….
///
/// The interval is nil (written `NaN`) with fewer than two values: the mean of none is undefined (as a rate over
/// nobody is) and one value says nothing about the spread. A constant quantity (a gesture-triggered completion
/// time) has s = 0 exactly, so its interval is the mean itself. It is a sampling interval of the simulation: it
/// says how precisely the simulated population's mean was estimated, not how people vary.
public struct SampleMean: Sendable, Equatable {
    /// A 95 % interval in the reported unit.
    public struct Interval: Sendable, Equatable {
        public let lower: Double
        public let upper: Double
    }

    /// Σy / n / scale, or nil without values.
    public let value: Double?
    /// The 95 % Student t interval of `value`, or nil with fewer than two values.
    public let interval95: Interval?
    /// s/√n in the reported unit (the interval's half-width over its t quantile), or nil with fewer than two values.
    public let standardError: Double?

    /// - Parameters:
    ///   - sum: Σy of the integer values.
    ///   - squares: Σy².
    ///   - count: n, how many values.
    ///   - scale: integer units per reported unit (1000 µs per ms, 10⁹ billionths per 1, 1 for counts).
    init(sum: Int128, squares: Int128, count: Int, scale: Double) {
        value = count == 0 ? nil : Double(sum) / Double(count) / scale
        guard count >= 2, let mean = value else {
            interval95 = nil
            standardError = nil
            return
        }
        let n = Double(count)
        let variance = Self.centredSquares(squares: squares, sum: sum, count: count) / (n - 1)
        // The half-width's operations in 0.3.17's order: the same bits.
        let root = (variance / n).squareRoot()
        let half = StudentT.quantile(0.975, degreesOfFreedom: n - 1) * root / scale
        interval95 = Interval(lower: mean - half, upper: mean + half)
        standardError = root / scale
    }

    /// Σ(y − ȳ)² = Σy² − (Σy)²/n from exact integer sums, never below 0.
    ///
    /// Exact while n·Σy² and (Σy)² fit in Int128 (one rounding, of the final division). Beyond that, Σy = qn + r
    /// (|r| < n) gives Σy² − q·Σy − qr − r²/n, still integers but for the last term, so the subtraction never
    /// cancels the digits away as Σy² − (Σy)²/n in doubles would; only if even that overflows (values near the
    /// clock's ±9·10¹⁵ µs limit) does it fall back to doubles.
    static func centredSquares(squares: Int128, sum: Int128, count: Int) -> Double {
        guard count > 0 else { return 0 }
        let n = Int128(count)
        let (scaled, overflow) = squares.multipliedReportingOverflow(by: n)
        let (square, overflow2) = sum.multipliedReportingOverflow(by: sum)
        if !overflow && !overflow2 { return max(0, Double(scaled - square) / Double(count)) }
        let (q, r) = sum.quotientAndRemainder(dividingBy: n)
        let (qSum, overflow3) = q.multipliedReportingOverflow(by: sum)
        let (qr, overflow4) = q.multipliedReportingOverflow(by: r)
        if !overflow3 && !overflow4 {
            let (partial, overflow5) = squares.subtractingReportingOverflow(qSum)
            let (whole, overflow6) = partial.subtractingReportingOverflow(qr)
            if !overflow5 && !overflow6 { return max(0, Double(whole) - Double(r * r) / Double(count)) }
        }
        return max(0, Double(squares) - Double(sum) * Double(sum) / Double(count))
    }
}
