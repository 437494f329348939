/// A proportion with its 95 % Wilson score interval.
public struct Proportion: Sendable, Equatable {
    public let successes: Int
    public let trials: Int

    public init(successes: Int, trials: Int) {
        self.successes = successes
        self.trials = trials
    }

    /// z for a two-sided 95 % interval: Φ⁻¹(0.975).
    public static let z95 = 1.959963984540054

    /// successes / trials, or nil without trials.
    public var rate: Double? { trials == 0 ? nil : Double(successes) / Double(trials) }

    /// The Wilson score interval (Wilson 1927): centre (p + z²/2n) / (1 + z²/n), half-width
    /// z·√(p(1−p)/n + z²/4n²) / (1 + z²/n). Unlike p ± z·SE it stays within [0, 1] and is honest at 0 and 1.
    public var wilson95: (lower: Double, upper: Double)? {
        guard trials > 0 else { return nil }
        let n = Double(trials)
        let p = Double(successes) / n
        let z = Self.z95
        let z2 = z * z
        let denominator = 1 + z2 / n
        let centre = (p + z2 / (2 * n)) / denominator
        let half = z * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot() / denominator
        return (max(0, centre - half), min(1, centre + half))
    }
}
