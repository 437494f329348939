import HoldLabIO
import Foundation
import HoldProfiles
import HoldSimulation

/// Builds profiles and populations from YAML text for the tests.
public enum Make {
    public static func profile(_ body: String, name: String = "p") throws -> Profile {
        try Profile.load(yaml: "version: 1\nname: \(name)\ndescription: test\n" + body, path: "\(name).yaml")
    }

    public static func population(_ classes: String) throws -> Population {
        try Population.load(yaml: "version: 1\nname: q\ndescription: test\nclasses:\n" + classes, path: "q.yaml")
    }

    /// A 0.8 s linear fill under a 1.0 s gesture trigger at 120 Hz (display resolution 0.001): the bar looks full
    /// at t* = 0.7992 s, a frame-quantised instant before the action.
    public static func earlyFill() throws -> Profile {
        try profile("""
            gesture: {minimumDuration: 1.0}
            fill: {model: animation, curve: linear, duration: 0.8}
            retract: {mode: instant}
            display: {refreshRate: 120, resolution: 0.001}
            """)
    }

    public static var library: ProfileLibrary {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return ProfileLibrary(directory: root.appendingPathComponent("Profiles").path)
    }

    public static func run(_ profiles: [Profile], _ population: Population, users: Int, seed: UInt64 = 1, threads: Int = 2)
        throws -> [SimulationSummary]
    {
        try Simulator.run(SimulationRequest(profiles: profiles, population: population, users: users, seed: seed, threads: threads))
    }
}

/// |observed − expected| ≤ 4 standard errors of a proportion with n trials: a false failure about 1 in 16,000.
public func withinFourStandardErrors(_ observed: Double?, _ expected: Double, n: Int) -> Bool {
    guard let observed else { return false }
    let se = (expected * (1 - expected) / Double(n)).squareRoot()
    return abs(observed - expected) <= 4 * se
}

extension SimulationSummary {
    /// The counts behind a rate column (empty for a name that is no rate).
    public func rate(_ name: String) -> Proportion {
        Metric.named(name).flatMap(proportion) ?? Proportion(successes: 0, trials: 0)
    }
}
