import GSL
import HoldModel

/// Timer tick latencies drawn from a distribution with a seeded generator.
struct DrawnLatencies: TickLatencySource {
    let distribution: Distribution
    let generator: Generator
    /// A constant distribution needs no draws (and consumes none).
    let constant: Double?

    init(_ distribution: Distribution, generator: Generator) {
        self.distribution = distribution
        self.generator = generator
        if distribution.variance == 0 { constant = distribution.mean } else { constant = nil }
    }

    @inline(__always)
    mutating func nextLatencySeconds() -> Double {
        constant ?? distribution.sample(generator)
    }
}
