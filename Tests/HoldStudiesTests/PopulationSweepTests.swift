import Foundation
import HoldLabIO
import HoldLabTestSupport
import HoldProfiles
import HoldSimulation
import Testing
@testable import HoldStudies

/// `--vary population.…`: a sweep over a population's number gives, at each point, the row `simulate` gives with
/// that population edited by hand (issue 28, item 5).
@Suite("sweep and sensitivity over a population parameter")
struct PopulationSweepTests {
    /// default.yaml with the deliberate class's reaction mu written as `mu` instead of 0.170, by text.
    static func editedDefault(mu: String) throws -> Population {
        let path = Make.library.populationPath("default")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let old = "mu: {value: 0.170,"
        #expect(text.components(separatedBy: old).count == 2, "default.yaml writes the reaction mu once as \(old)")
        return try Population.load(yaml: text.replacingOccurrences(of: old, with: "mu: {value: \(mu),"), path: "edited")
    }

    @Test("each point of --vary population.deliberate.reaction.mu is simulate's row with default.yaml edited by hand")
    func sweepEqualsHandEdit() throws {
        let sweep = try SweepJobTests.request(["population.deliberate.reaction.mu=0.14,0.2,0.24"], profile: "mismatched-fill",
                                              users: 3_000, seed: 6)
        let rows = CSVRecords.dataLines(try SweepJobTests.file(sweep))
        #expect(rows.count == 4)
        #expect(rows[0].hasPrefix("param_population_deliberate_reaction_mu,profile,population,"))
        let profile = try Make.library.loadProfile("mismatched-fill")
        var distinct: Set<String> = []
        for (index, mu) in ["0.14", "0.2", "0.24"].enumerated() {
            let job = SimulationJob(profiles: [profile], populations: [try Self.editedDefault(mu: mu)], users: 3_000, seed: 6,
                                    threads: 1, commandLine: "holdlab simulate")
            let row = CSVRecords.dataLines(try job.csv()).last ?? ""
            #expect(rows[index + 1] == "\(mu),\(row)")
            distinct.insert(String(row.split(separator: ",")[11]))
        }
        // mismatched-fill shows the bar full 0.2 s early: the mismatch rate moves with the reaction (the test could fail).
        #expect(distinct.count == 3)
    }

    @Test("--set population.… applies to the population a sweep runs, as a hand edit does")
    func setEqualsHandEdit() throws {
        var sweep = try SweepJobTests.request(["gesture.minimumDuration=0.8,1.0"], users: 2_000, seed: 2)
        sweep.request.populations = try Population.applying([try Override(parsing: "population.deliberate.reaction.mu=0.2")],
                                                            to: sweep.request.populations)
        var byHand = try SweepJobTests.request(["gesture.minimumDuration=0.8,1.0"], users: 2_000, seed: 2)
        byHand.request.populations = [try Self.editedDefault(mu: "0.2")]
        #expect(try SweepJobTests.file(sweep) == (try SweepJobTests.file(byHand)))
    }

    @Test("bad population keys: an unknown class (with a suggestion), a key the class lacks, a value out of range")
    func badKeys() throws {
        let population = try Make.library.loadPopulation("default")
        func message(_ text: String) -> String {
            do {
                _ = try Population.applying([try Override(parsing: text)], to: [population])
                return ""
            } catch {
                return error.description
            }
        }
        #expect(message("population.deliberat.reaction.mu=0.2").contains("did you mean 'deliberate'"))
        #expect(message("population.deliberate.weber=0.2").contains("weber"))
        #expect(message("population.deliberate.reaction.sigma=-1").contains("sigma"))
        #expect(throws: SweepError.self) { try SweepParameter(parsing: "population.mu=0.1:0.2") }
    }
}
