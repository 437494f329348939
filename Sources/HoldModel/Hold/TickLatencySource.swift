/// Supplies the lateness of each Timer tick in seconds. A Timer never fires early, so negative values are taken
/// as 0. Simulations draw these from the profile's latency distribution; `OnTimeTicks` gives ideal ticks.
public protocol TickLatencySource {
    mutating func nextLatencySeconds() -> Double
}

/// Every tick exactly on its schedule.
public struct OnTimeTicks: TickLatencySource {
    public init() {}
    @inline(__always)
    public mutating func nextLatencySeconds() -> Double { 0 }
}
