import Foundation
@testable import HoldStudies
import HoldLabTestSupport
import Testing
import GSL
import HoldProfiles
@testable import HoldSimulation

@Suite("sweep: point sets")
struct SweepPlanTests {
    static func parameters(_ texts: String...) throws -> [SweepParameter] {
        try texts.map { try SweepParameter(parsing: $0) }
    }

    @Test("grid: the Cartesian product, first --vary outermost, ranges inclusive without rounding noise")
    func grid() throws {
        let plan = try SweepPlan(
            parameters: try Self.parameters("gesture.minimumDuration=0.3:1.5:0.1", "fill.curve=linear,bezier(0.42,0,1,1)"),
            design: .grid, points: nil, seed: 1)
        #expect(plan.points.count == 13 * 2)
        #expect(plan.points[0] == ["0.3", "linear"] && plan.points[1] == ["0.3", "bezier(0.42,0,1,1)"])
        #expect(plan.points[14] == ["1", "linear"])
        #expect(plan.points.last == ["1.5", "bezier(0.42,0,1,1)"])
        #expect(plan.parameters.map(\.column) == ["param_gesture_minimumDuration", "param_fill_curve"])
    }

    @Test("a number with YAML's digit separators is written as the number a profile reads; names keep theirs")
    func digitSeparators() throws {
        let plan = try SweepPlan(
            parameters: try Self.parameters("gesture.minimumDuration=1_000,2", "fill.delay=0_0:0.2_0:0.1", "population.my_class.hold.scale=1"),
            design: .grid, points: nil, seed: 1)
        #expect(plan.points.map { $0[0] } == Array(repeating: "1000", count: 3) + Array(repeating: "2", count: 3))
        #expect(plan.points.prefix(3).map { $0[1] } == ["0", "0.1", "0.2"])
        #expect(try SweepParameter(parsing: "fill.curve=ease_in,linear").values == .list(["ease_in", "linear"]))
        // The zeros separators leave before the first digit go with them (`0_0.8` was written `00.8`).
        #expect(try SweepParameter(parsing: "gesture.minimumDuration=0_0.8,-0_0_1.5,0_0,1_0e-1").values
                == .list(["0.8", "-1.5", "0", "10e-1"]))
        // The same number twice, one with separators, is refused as the same number is.
        #expect(throws: SweepError.self) { try SweepParameter(parsing: "gesture.minimumDuration=1_000,1000") }
    }

    @Test("lhs: N points, exactly one in each of the N strata of every dimension, within the ranges")
    func latinHypercube() throws {
        for n in [1, 7, 50] {
            let unit = SweepPlan.latinHypercube(points: n, dimensions: 3, seed: 5)
            #expect(unit.count == n)
            for dimension in 0..<3 {
                let strata = Set(unit.map { Int(($0[dimension] * Double(n)).rounded(.down)) })
                #expect(strata == Set(0..<n))
            }
        }
        let plan = try SweepPlan(parameters: try Self.parameters("gesture.minimumDuration=0.4:1.2", "haptics.threshold=0:0.1"),
                                 design: .lhs, points: 20, seed: 5)
        #expect(plan.points.count == 20)
        for point in plan.points {
            let duration = try #require(Double(point[0]))
            let threshold = try #require(Double(point[1]))
            #expect(duration >= 0.4 && duration < 1.2 && threshold >= 0 && threshold < 0.1)
        }
        // Seeded: the same seed gives the same design, another seed another.
        let again = try SweepPlan(parameters: plan.parameters, design: .lhs, points: 20, seed: 5)
        let other = try SweepPlan(parameters: plan.parameters, design: .lhs, points: 20, seed: 6)
        #expect(again == plan && other != plan)
    }

    @Test("sobol: GSL's sequence mapped onto the ranges (0.5, 0.75/0.25, 0.25/0.75, …)")
    func sobol() throws {
        let sequence = try SobolSequence(dimensions: 2)
        #expect(try sequence.next() == [0.5, 0.5])
        #expect(try sequence.next() == [0.75, 0.25])
        #expect(try sequence.next() == [0.25, 0.75])
        let plan = try SweepPlan(parameters: try Self.parameters("gesture.minimumDuration=0:2", "fill.curve=linear,easeIn,easeOut,ease"),
                                 design: .sobol, points: 3, seed: 1)
        #expect(plan.points == [["1", "easeOut"], ["1.5", "easeIn"], ["0.5", "ease"]])
        #expect(throws: GSLError.self) { try SobolSequence(dimensions: 41) }
    }

    @Test("bad --vary and design combinations say what is wrong")
    func errors() {
        func message(_ body: () throws -> Void) -> String {
            do { try body(); return "no error" } catch { return "\(error)" }
        }
        #expect(message { _ = try SweepParameter(parsing: "gesture.minimumDuration") }
                == "--vary gesture.minimumDuration: expected key.path=start:stop:step or key.path=v1,v2,…")
        #expect(message { _ = try SweepParameter(parsing: "x=1:0:0.1") } == "--vary x=1:0:0.1: stop (0.0) must not be below start (1.0)")
        #expect(message { _ = try SweepParameter(parsing: "x=0:1:0") } == "--vary x=0:1:0: step must be > 0 (got 0.0)")
        #expect(message { _ = try SweepParameter(parsing: "x=0:nan:1") }
                == "--vary x=0:nan:1: a range is start:stop:step (or start:stop for lhs and sobol) with finite numbers")
        #expect(message { _ = try SweepPlan(parameters: try SweepPlanTests.parameters("x=0:1"), design: .grid, points: nil, seed: 1) }
                == "--vary x=0:1: a grid needs a step: start:stop:step")
        #expect(message { _ = try SweepPlan(parameters: try SweepPlanTests.parameters("x=0:1"), design: .lhs, points: nil, seed: 1) }
                == "--design lhs needs --points N (1 to 100000)")
        #expect(message { _ = try SweepPlan(parameters: try SweepPlanTests.parameters("x=0:1:1", "x=2"), design: .grid, points: nil, seed: 1) }
                == "--vary x is given twice")
        // A sweep runs one population: varying it per point would be silently ignored, so it is refused.
        #expect(message { _ = try SweepParameter(parsing: "population=default,hurried") }.hasPrefix(
            "--vary population=default,hurried: population cannot vary from point to point"))
        #expect(throws: SweepError.self) { try SweepParameter(parsing: "name=a,b") }
    }
}

@Suite("sweep: rows")
struct SweepRowTests {
    @Test("every sweep row equals the simulate row with the same --set values and seed")
    func rowsEqualSimulate() throws {
        let library = Make.library
        let path = library.profilePath("hig-linear-bar")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let population = try library.loadPopulation("default")
        let plan = try SweepPlan(parameters: [try SweepParameter(parsing: "gesture.minimumDuration=0.4:1.4:0.2"),
                                              try SweepParameter(parsing: "retract.curve=linear,easeOut")],
                                 design: .grid, points: nil, seed: 3)
        let base = [try Override(parsing: "haptics.threshold=0.05")]
        let request = SweepRequest(profileText: text, profilePath: path, baseOverrides: base, population: population,
                                   plan: plan, users: 6_000, seed: 3, threads: 2)
        var rows: [String] = []
        try Sweep.run(request, profiles: try Sweep.profiles(request), onRows: { rows += $0.map { $0.map(\.csvText).joined(separator: ",") } })
        #expect(rows.count == 12)
        for (index, point) in plan.points.enumerated() {
            let overrides = base + [try Override(parsing: "gesture.minimumDuration=\(point[0])"),
                                    try Override(parsing: "retract.curve=\(point[1])")]
            let alone = try Make.run([try library.loadProfile("hig-linear-bar", overrides: overrides)], population,
                                     users: 6_000, seed: 3, threads: 1)
            #expect(rows[index] == "\(point[0]),\(point[1]),\(SimulationCSV.row(alone[0]))")
        }
    }

    @Test("a point with an invalid value is named before anything runs")
    func invalidPoint() throws {
        let library = Make.library
        let path = library.profilePath("hig-linear-bar")
        let plan = try SweepPlan(parameters: [try SweepParameter(parsing: "display.refreshRate=30,0,60")], design: .grid,
                                 points: nil, seed: 1)
        let request = SweepRequest(profileText: try String(contentsOfFile: path, encoding: .utf8), profilePath: path,
                                   baseOverrides: [], population: try library.loadPopulation("default"), plan: plan,
                                   users: 10, seed: 1, threads: 1)
        #expect(throws: SweepError.self) { try Sweep.profiles(request) }
        do {
            _ = try Sweep.profiles(request)
        } catch {
            // The point and its key path, never a --set the user did not type.
            #expect("\(error)".hasPrefix("point 2 (display.refreshRate=0): display.refreshRate: must be frames per second"))
        }
    }
}

@Suite("sweep: what its people are, point by point")
struct SweepPopulationNoteTests {
    /// A sweep over `vary` of hig-linear-bar against the normal holds of `Make.population` (one class of 1 s ± 0.5 s
    /// holds, 2.28 % below 0, one of holds 100 % below 0).
    static func request(_ vary: String, populations count: Int = 1) throws -> SweepRequest {
        let library = Make.library
        let path = library.profilePath("hig-linear-bar")
        let population = try Make.population("""
              - {name: intentional, weight: 0.8, intent: confirm, behavior: hold, hold: {dist: normal, mean: 1, sd: 0.5}}
              - {name: accidental, weight: 0.2, intent: none, behavior: hold, hold: {dist: normal, mean: -1, sd: 0.1}}
            """)
        var populations = [population]
        if count == 2 { populations.append(try library.loadPopulation("hold-only")) }
        let plan = try SweepPlan(parameters: [try SweepParameter(parsing: vary)], design: .grid, points: nil, seed: 1)
        return SweepRequest(profileText: try String(contentsOfFile: path, encoding: .utf8), profilePath: path,
                            baseOverrides: [], populations: populations, plan: plan, users: 10, seed: 1, threads: 1)
    }

    static let accidental = "population q, class accidental: 100 % of its hold distribution {dist: normal, mean: -1.0, sd: 0.1} is below 0 s; those draws are taken as 0 s (a release at touch-down)"
    static func intentional(_ percent: String, mean: String, sd: String = "0.5") -> String {
        "population q, class intentional: \(percent) of its hold distribution {dist: normal, mean: \(mean), sd: \(sd)} is below 0 s; those draws are taken as 0 s (a release at touch-down)"
    }

    @Test("a varied population value is said at each point where it is noted (normal CDF at 0: Φ(2) = 2.28 %, Φ(-2) = 97.7 %); what holds everywhere once")
    func perPoint() throws {
        let request = try Self.request("population.intentional.hold.mean=-1,1,3")
        #expect(try Sweep.populationNotes(request) == [
            Self.accidental,
            "point 1 (population.intentional.hold.mean=-1): " + Self.intentional("97.7 %", mean: "-1.0"),
            "point 2 (population.intentional.hold.mean=1): " + Self.intentional("2.28 %", mean: "1.0"),
        ])
        // Already said (a report's comparison population), left out; a shard says its own points only; a resumed
        // run the points still to run.
        #expect(try Sweep.populationNotes(request, besides: [Self.accidental]).count == 2)
        #expect(try Sweep.populationNotes(request, points: 1..<3) == [
            Self.accidental, "point 2 (population.intentional.hold.mean=1): " + Self.intentional("2.28 %", mean: "1.0"),
        ])
        #expect(try Sweep.populationNotes(request, from: 2) == [Self.accidental])
        #expect(try Sweep.populationNotes(request, from: 3).isEmpty)
    }

    @Test("a value the sweep varies elsewhere, or none of the population's: the population's notes once")
    func unvaried() throws {
        let request = try Self.request("fill.duration=0.5,1")
        #expect(try Sweep.populationNotes(request) == [Self.intentional("2.28 %", mean: "1.0"), Self.accidental])
        // A second population's rows: hold-only has nothing to say; resumed past the first population's rows, the
        // first's notes are not said again.
        let two = try Self.request("fill.duration=0.5,1", populations: 2)
        #expect(try Sweep.populationNotes(two) == [Self.intentional("2.28 %", mean: "1.0"), Self.accidental])
        #expect(try Sweep.populationNotes(two, from: 2).isEmpty)
    }

    @Test("many points: the first `limit`, then how many more and where")
    func limited() throws {
        // sd 0.1 … 1.0: below 0 is Φ(-1/sd), at least 1 % from sd 0.43 on: points 5 to 10.
        let request = try Self.request("population.intentional.hold.sd=0.1:1.0:0.1")
        let notes = try Sweep.populationNotes(request, limit: 3)
        #expect(notes.count == 1 + 3 + 1)
        #expect(notes[1] == "point 5 (population.intentional.hold.sd=0.5): " + Self.intentional("2.28 %", mean: "1.0"))
        #expect(notes[3].hasPrefix("point 7 (population.intentional.hold.sd=0.7): population q, class intentional: 7.66 %"))
        #expect(notes[4] == "and 3 more like these, at points 8, 9, 10")
    }
}
