import Foundation
import Testing
@testable import HoldProfiles

private let header = "version: 1\nname: q\ndescription: test\nclasses:\n"

private func failure(_ classes: String) -> String {
    do {
        _ = try Population.load(yaml: header + classes, path: "q.yaml")
        return "loaded without error"
    } catch {
        return "\(error)"
    }
}

@Suite("Populations")
struct PopulationLoadingTests {
    @Test("a population loads with normalised weights and each behaviour")
    func loads() throws {
        let population = try Population.load(yaml: header + """
              - {name: a, weight: 3, intent: confirm, behavior: react, reaction: {dist: constant, value: 0.2}, patience: {dist: constant, value: 2}, movement: {drift: 2}}
              - {name: b, weight: 1, intent: none, behavior: hold, hold: {dist: lognormal, median: 0.1, sigma: 0.5}}
              - {name: c, weight: 0, behavior: anticipate, weber: 0.1}
            """, path: "q.yaml")
        #expect(population.normalizedWeights == [0.75, 0.25, 0])
        #expect(population.classes[0].movement == UserClass.Movement(driftPointsPerSqrtSecond: 2, touchRateHz: 120))
        #expect(population.classes[2].intent == .confirm)
        #expect(population.contentHash.count == 16)
    }

    @Test("description and source are optional, as a profile's source is; the hash is of the classes")
    func optionalDescription() throws {
        let classes = "  - {name: a, weight: 1, intent: confirm, behavior: hold, hold: {dist: constant, value: 1}}\n"
        let bare = try Population.load(yaml: "version: 1\nname: q\nclasses:\n" + classes, path: "q.yaml")
        #expect(bare.description == "" && bare.source == "")
        let described = try Population.load(yaml: header + classes, path: "q.yaml")
        #expect(described.description == "test")
        #expect(bare.contentHash == described.contentHash)
    }

    static let bad: [(String, String)] = [
        ("  - {name: a, weight: 0, behavior: hold, hold: {dist: constant, value: 1}}\n",
         "q.yaml:5:3: classes: the class weights must sum to a finite number > 0 (they sum to 0)"),
        ("  - {name: a, weight: 1e308, behavior: hold, hold: {dist: constant, value: 1}}\n"
            + "  - {name: b, weight: 1e308, behavior: hold, hold: {dist: constant, value: 1}}\n",
         "q.yaml:5:3: classes: the class weights must sum to a finite number > 0 (they sum to inf)"),
        ("  - {name: a, weight: -1, behavior: hold, hold: {dist: constant, value: 1}}\n",
         "q.yaml:5:23: classes[0].weight: must be a weight ≥ 0 (got '-1')"),
        ("  - {name: a, weight: 1, behavior: dither}\n",
         "q.yaml:5:36: classes[0].behavior: unknown behaviour 'dither'; allowed: hold, react, anticipate"),
        ("  - {name: a, weight: 1, behavior: anticipate, weber: -0.1}\n",
         "q.yaml:5:55: classes[0].weber: must be a Weber fraction ≥ 0 (timing spread per unit interval) (got '-0.1')"),
        ("  - {name: a, weight: 1, behavior: anticipate, weber: 0.1, bias: .nan}\n",
         "q.yaml:5:66: classes[0].bias: must be a fraction > −1 (−0.05 = 5 % early) (got '.nan')"),
        ("  - {name: a, weight: 1, behavior: hold, hold: {dist: gamma, shape: 2, scale: -1}}\n",
         "q.yaml:5:48: classes[0].hold: gamma scale must be > 0 (got -1.0)"),
        ("  - {name: a, weight: 1, behavior: react, reaction: {dist: constant, value: 0.2}}\n",
         "q.yaml:5:5: classes[0].patience: is required: a distribution of seconds, e.g. {dist: lognormal, median: 0.5, sigma: 0.4}"),
        ("  - {name: a, weight: 1, behavior: hold, hold: {dist: constant, value: 1}, movement: {drift: -2}}\n",
         "q.yaml:5:94: classes[0].movement.drift: must be points per √second ≥ 0 (got '-2')"),
        ("  - {name: a, weight: 1, behavior: hold, hold: {dist: constant, value: 1}}\n  - {name: a, weight: 1, behavior: hold, hold: {dist: constant, value: 1}}\n",
         "q.yaml:6:5: classes[1].name: the class name 'a' is used twice"),
        ("  - {name: a, weight: 1, behaviour: hold}\n", "q.yaml:5:5: classes[0].behavior: is required"),
    ]

    @Test("bad populations each give their own error", arguments: 0..<bad.count)
    func badPopulation(index: Int) {
        #expect(failure(Self.bad[index].0) == Self.bad[index].1)
    }

    @Test("--set values that together break a check across classes are named, not the population file's line")
    func overridesBlamed() throws {
        let population = try Population.load(yaml: header + """
              - {name: a, weight: 1, intent: confirm, behavior: hold, hold: {dist: constant, value: 1}}
              - {name: b, weight: 2, intent: confirm, behavior: hold, hold: {dist: constant, value: 2}}

            """, path: "q.yaml")
        let sets = try ["population.a.weight=0", "population.a.hold.value=3", "population.b.weight=0"].map { try Override(parsing: $0) }
        do {
            _ = try Population.applying(sets, to: [population])
            Issue.record("weights of 0 applied")
        } catch {
            #expect(error.description == "--set population.a.weight=0 --set population.b.weight=0: classes: the class weights must sum to a finite number > 0 (they sum to 0)")
        }
        // A value a class refuses by itself keeps its one override.
        do {
            _ = try Population.applying([try Override(parsing: "population.a.weight=-1")], to: [population])
            Issue.record("a negative weight applied")
        } catch {
            #expect(error.origin == .override("population.a.weight=-1"))
        }
    }

    @Test("no classes, and a missing population file")
    func missing() {
        #expect(throws: ProfileError.self) { try Population.load(yaml: "version: 1\nname: q\ndescription: x\n", path: "q.yaml") }
        let library = ProfileLibrary(directory: FileManager.default.temporaryDirectory.path)
        #expect(throws: ProfileError.self) { try library.loadPopulation("nobody") }
    }

    @Test("every shipped population loads")
    func shipped() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let library = ProfileLibrary(directory: root.appendingPathComponent("Profiles").path)
        let names = library.populationNames()
        for name in ["default", "motor-impaired", "hurried", "hold-only"] { #expect(names.contains(name)) }
        for name in names {
            let population = try library.loadPopulation(name)
            #expect(population.name == name && !population.source.isEmpty)
        }
    }
}
