import GSL
import HoldModel

/// Timer tick latencies drawn from a profile's latency distribution with a seeded generator: what a simulation's
/// per-user path and `trace` feed a Timer fill.
public struct DrawnLatencies: TickLatencySource {
    @usableFromInline let distribution: Distribution
    @usableFromInline let generator: Generator
    /// A constant distribution needs no draws (and consumes none).
    @usableFromInline let constant: Double?

    @inlinable
    public init(_ distribution: Distribution, generator: Generator) {
        self.distribution = distribution
        self.generator = generator
        if distribution.variance == 0 { constant = distribution.mean } else { constant = nil }
    }

    @inlinable @inline(__always)
    public mutating func nextLatencySeconds() -> Double {
        constant ?? distribution.sample(generator)
    }
}
