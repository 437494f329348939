import Foundation
import HoldLabIO
import HoldLabTestSupport
import HoldProfiles
import HoldSimulation
import Testing
@testable import HoldStudies

/// `holdlab sweep`, its shards and `merge` of them, driven in process through `Sweep`, `ShardRun` and `ShardMerge`
/// (streaming, `--resume` after a kill, `--dry-run` and the exit statuses stay in HoldLabCLITests).
@Suite("sweep: the job's file, resume and shards, in process")
struct SweepJobTests {
    /// The request `holdlab sweep --profile PROFILE [--set …] --vary … [--population …] --users N --seed S` makes, and
    /// its base profile.
    static func request(_ vary: [String], design: SweepDesign = .grid, points: Int? = nil, profile: String = "hig-linear-bar",
                        overrides: [String] = [], populations: [String]? = nil, users: Int, seed: UInt64 = 1, threads: Int = 2)
        throws -> (request: SweepRequest, base: Profile)
    {
        let library = Make.library
        let path = library.profilePath(profile)
        let parsed = try overrides.map { text throws(ProfileError) in try Override(parsing: text) }
        let base = try library.loadProfile(profile, overrides: parsed)
        let plan = try SweepPlan(parameters: try vary.map { try SweepParameter(parsing: $0) }, design: design, points: points, seed: seed)
        let request = SweepRequest(
            profileText: try ProfileLibrary.read(path, what: "profile"), profilePath: path, baseOverrides: parsed,
            populations: try (populations ?? [base.population]).map(library.loadPopulation), plan: plan, users: users, seed: seed,
            threads: threads)
        return (request, base)
    }

    /// The file `holdlab sweep … --out FILE` writes (its command line recorded as `commandLine`).
    static func file(_ sweep: (request: SweepRequest, base: Profile), commandLine: String = "holdlab sweep") throws -> String {
        var rows: [[ResultCell]] = []
        try Sweep.run(sweep.request, profiles: try Sweep.profiles(sweep.request), onRows: { rows += $0 })
        let provenance = Provenance.made(by: "sweep", commandLine: commandLine)
            + Provenance(Sweep.identity(sweep.request, baseProfile: sweep.base))
        return ResultDocument(Sweep.table(sweep.request.plan, rows: rows, provenance: provenance)).csv
    }

    /// Why `--resume` refuses `existing` for `sweep`, or nil when it takes it.
    static func resumeRefusal(_ existing: String, _ sweep: (request: SweepRequest, base: Profile)) -> String? {
        do {
            _ = try Sweep.resumption(existing: existing, path: "s.csv", request: sweep.request, baseProfile: sweep.base)
            return nil
        } catch {
            #expect(error.kind == .data)
            return error.message
        }
    }

    @Test("a sweep row equals the matching simulate row, in point order; --resume takes the file whole and refuses another seed, profile or design")
    func matchesSimulateAndResume() throws {
        let vary = ["gesture.minimumDuration=0.4:1.4:0.1"]
        let sweep = try Self.request(vary, users: 3_000, seed: 4)
        let text = try Self.file(sweep)
        let rows = CSVRecords.dataLines(text)
        #expect(rows.count == 12)
        #expect(rows[0].hasPrefix("param_gesture_minimumDuration,profile,population,users,seed,"))
        #expect(rows.dropFirst().map { $0.split(separator: ",")[0] } == ["0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1", "1.1", "1.2", "1.3", "1.4"])
        let simulate = try Make.simulation(overrides: ["gesture.minimumDuration=0.7"], users: 3_000, seed: 4).csv()
        #expect(rows[4] == "0.7," + (CSVRecords.dataLines(simulate).last ?? ""))

        let resumed = try Sweep.resumption(existing: text, path: "s.csv", request: sweep.request, baseProfile: sweep.base)
        #expect(resumed.rows.count == 11 && resumed.dropped == nil)
        #expect(Self.resumeRefusal(text, try Self.request(vary, users: 3_000, seed: 5))?
            .contains("came from a different users and seed (file: 3000 per point, seed 4; now: 3000 per point, seed 5)") == true)
        #expect(Self.resumeRefusal(text, try Self.request(vary, profile: "static-long-press", users: 3_000, seed: 4))?
            .contains("came from a different profile") == true)
        #expect(Self.resumeRefusal(text, try Self.request(["gesture.minimumDuration=0.4:1.4:0.2"], users: 3_000, seed: 4))?
            .contains("came from a different design") == true)
    }

    @Test("two populations: every point for each, rows population by population, each population's rows its own sweep; resuming with other populations is refused")
    func populations() throws {
        let vary = ["gesture.minimumDuration=0.6,0.8,1.0"]
        let text = try Self.file(try Self.request(vary, populations: ["default", "motor-impaired"], users: 2_000, seed: 3))
        let rows = CSVRecords.dataLines(text)
        #expect(rows.count == 1 + 6)
        #expect(rows.dropFirst().map { $0.split(separator: ",")[2] } == ["default", "default", "default", "motor-impaired", "motor-impaired", "motor-impaired"])
        #expect(text.contains("# sweep_population: default fnv1a64:ee0953067463ce23 ; motor-impaired fnv1a64:"))
        for (index, population) in ["default", "motor-impaired"].enumerated() {
            let single = try Self.file(try Self.request(vary, populations: [population], users: 2_000, seed: 3))
            #expect(Array(CSVRecords.dataLines(single).dropFirst()) == Array(rows[(1 + 3 * index)...(3 + 3 * index)]))
        }
        #expect(Self.resumeRefusal(text, try Self.request(vary, populations: ["default"], users: 2_000, seed: 3))?
            .contains("different population") == true)
    }

    @Test("a point whose --vary key is unknown is named before anything runs")
    func unknownKey() throws {
        let sweep = try Self.request(["fill.colour=red"], users: 10)
        #expect(throws: SweepError.self) { try Sweep.profiles(sweep.request) }
        do {
            _ = try Sweep.profiles(sweep.request)
        } catch {
            #expect("\(error)".contains("fill.colour: unknown key"), "\(error)")
        }
    }

    @Test("json with a column selection: the varied key a number first")
    func json() throws {
        let sweep = try Self.request(["gesture.minimumDuration=0.5,1.0"], users: 2_000)
        var rows: [[ResultCell]] = []
        try Sweep.run(sweep.request, profiles: try Sweep.profiles(sweep.request), onRows: { rows += $0 })
        let json = try ResultDocument(Sweep.table(sweep.request.plan, rows: rows, provenance: Provenance()))
            .rendered(as: .json, columns: ["param_gesture_minimumDuration", "false_activation_rate"])
        #expect(json.split(separator: "\n").first?.hasPrefix(#"{"param_gesture_minimumDuration":0.5,"false_activation_rate":"#) == true)
    }
}
