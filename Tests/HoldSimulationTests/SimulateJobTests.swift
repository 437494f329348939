import Foundation
import HoldLabIO
import HoldLabTestSupport
import HoldProfiles
import Testing
@testable import HoldSimulation

/// What `holdlab simulate` computes and renders, driven in process through `SimulationJob` (the binary's own
/// contract, its defaults, options and streams, stays in HoldLabCLITests).
@Suite("simulate: the job's rows, columns and views")
struct SimulateJobTests {
    /// The columns issues 3 and 13 name, in order (more may follow or sit between them: the means' `_lo`/`_hi`).
    static let requiredColumns = """
        profile,population,users,seed,intent_users,completed,completion_rate,completion_rate_lo,completion_rate_hi,\
        premature_release_rate,premature_impatience_rate,premature_mismatch_rate,movement_cancel_rate,accidental_users,\
        false_activation_rate,false_activation_rate_lo,false_activation_rate_hi,completion_time_mean_ms,\
        completion_time_p50_ms,completion_time_p90_ms,completion_time_p99_ms,hold_time_p50_ms,pulses_mean,pulses_p50,\
        pulses_p95,pulses_max,peak_pulse_rate_hz,dropped_pulses_mean,completed_unseen_rate,mismatch_mean_ms,\
        mismatch_p50_ms,mismatch_p95_ms,mismatch_max_ms,progress_at_trigger_mean,progress_at_trigger_min,\
        no_feedback_rate,first_feedback_ms,retract_mean_ms
        """.split(separator: ",")

    @Test("the header: the columns issues 3 and 13 name, in order; any other a mean's bound right after it; docs/COLUMNS.md documents each")
    func columns() throws {
        let csv = try Make.simulation(users: 500).csv()
        let header = CSVRecords.dataLines(csv)[0].split(separator: ",")
        #expect(header.map(String.init) == SimulationCSV.columns.map(\.name))
        #expect(header.filter { Self.requiredColumns.contains($0) } == Self.requiredColumns)
        // Any other column is a mean's interval bound, right after the mean (and its other bound).
        for (index, name) in header.enumerated() where !Self.requiredColumns.contains(name) {
            #expect(name.hasSuffix("_lo") && header[index - 1] == name.dropLast(3)
                    || name.hasSuffix("_hi") && header[index - 1] == name.dropLast(3) + "_lo", "\(name)")
        }
        let dictionary = try String(contentsOf: Golden.packageRoot.appendingPathComponent("docs/COLUMNS.md"), encoding: .utf8)
        for column in header { #expect(dictionary.contains("`\(column)`"), "docs/COLUMNS.md lacks \(column)") }
    }

    @Test("the whole CSV is byte-identical for 1 and 2 threads")
    func threads() throws {
        let outputs = try [1, 2].map { threads in
            try Make.simulation(["kikocard-article-latency", "mismatched-fill"], users: 30_000, seed: 9, threads: threads).csv()
        }
        #expect(outputs[0] == outputs[1])
    }

    @Test("the per-user file: the summary's provenance lines, a header, one row per user and profile")
    func perUser() throws {
        let (summary, perUser) = try Make.simulation(users: 5_000).runWithPerUser()
        let lines = perUser.split(separator: "\n")
        // The summary's six provenance lines (holdlab, command, population, profile, users, rng), then the rows.
        #expect(lines.count == 6 + 5001)
        #expect(lines.prefix(6).allSatisfy { $0.hasPrefix("# ") } && lines[0].hasPrefix("# holdlab: "))
        #expect(lines[6].hasPrefix("profile,user,class,intent,behavior,frame_phase,release_ms"))
        #expect(lines[7].hasPrefix("hig-linear-bar,1,"))
        let summaryComments = summary.split(separator: "\n").filter { $0.hasPrefix("#") }
        #expect(summaryComments.count == 6 && Array(lines.prefix(6)) == summaryComments)
    }

    @Test("two populations: one row per profile and population, population by population, each the single-population row")
    func populations() throws {
        let profiles = ["hig-linear-bar", "static-long-press"]
        let csv = try Make.simulation(profiles, populations: ["default", "motor-impaired"], users: 3_000, seed: 4).csv()
        let rows = CSVRecords.dataLines(csv)
        #expect(rows.count == 5)
        var expected: [Substring] = []
        for population in ["default", "motor-impaired"] {
            let single = CSVRecords.dataLines(try Make.simulation(profiles, populations: [population], users: 3_000, seed: 4).csv())
            #expect(single[0] == rows[0])
            expected += single.dropFirst()
        }
        #expect(Array(rows.dropFirst()) == expected)
        #expect(rows.dropFirst().map { $0.split(separator: ",").prefix(2).joined(separator: ",") } == [
            "hig-linear-bar,default", "static-long-press,default", "hig-linear-bar,motor-impaired", "static-long-press,motor-impaired",
        ])
        #expect(csv.contains("# population: default fnv1a64:") && csv.contains("# population: motor-impaired fnv1a64:"))
        #expect(csv.contains("# users: 3000 per profile and population, seed 4"))

        // The per-user rows gain a population column first; each population's rows are its single run's.
        let both = CSVRecords.dataLines(try Make.simulation(populations: ["default", "hurried"], users: 50).runWithPerUser().perUser)
        let one = CSVRecords.dataLines(try Make.simulation(populations: ["hurried"], users: 50).runWithPerUser().perUser)
        #expect(both.first == "population," + (one.first ?? ""))
        #expect(both.filter { $0.hasPrefix("hurried,") }.map { $0.dropFirst("hurried,".count) } == one.dropFirst().map { $0[...] })
        #expect(both.filter { $0.hasPrefix("default,") }.count == 50)
    }

    @Test("golden: one population's output is byte-identical to before population lists (named or the profiles' own)")
    func singlePopulationGolden() throws {
        // The golden file stays beside the command-line tests that first wrote it (this target keeps no Golden folder).
        let golden = try String(contentsOf: Golden.packageRoot.appendingPathComponent("Tests/HoldLabCLITests/Golden/simulate-two-profiles.csv"),
                                encoding: .utf8)
        let profiles = ["hig-linear-bar", "static-long-press"]
        // The figures cited before HoldLab 0.2.0 changed the default population: v1/default gives them byte for byte.
        // And 0.2.0's people came from mt19937 (0.3.0's default is taus2): `--rng mt19937` gives those rows.
        let named = try Make.simulation(
            profiles, populations: ["v1/default"], users: 2_000, seed: 3, rng: .mt19937,
            commandLine: "holdlab simulate --profile hig-linear-bar --profile static-long-press --users 2000 --seed 3 --population v1/default --rng mt19937")
        #expect(Golden.comparable(try named.csv()) == Golden.comparable(golden))
        let own = try Make.simulation(profiles, users: 2_000, seed: 3)
        #expect(own.populations.map(\.name) == ["default"])
        let current = try Make.simulation(profiles, populations: ["default"], users: 2_000, seed: 3)
        #expect(CSVRecords.dataLines(try own.csv()) == CSVRecords.dataLines(try current.csv()))
        // The reaction moved from a mean of 190 ms to 215 ms (Woods et al. 2015): hig-linear-bar's rows change.
        #expect(CSVRecords.dataLines(try own.csv()) != CSVRecords.dataLines(golden))
    }
}

@Suite("simulate: the rendered views of a result")
struct SimulateViewTests {
    @Test("csv is the job's CSV, the bytes every format starts from; without comments it drops the # lines only")
    func csvUnchanged() throws {
        let document = ResultDocument(try Make.simulation(users: 3_000).run())
        let csv = try document.rendered(as: .csv)
        #expect(csv == document.csv)
        #expect(csv.hasPrefix("# holdlab: ") && csv.contains("\nprofile,population,users,seed,"))
        let bare = try document.rendered(as: .csv, comments: false)
        #expect(bare == csv.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n") + "\n")
    }

    @Test("table: one metric a line, rates as rate [lo, hi] to the digits the interval supports")
    func table() throws {
        // 0.2.0's people (mt19937), whose figures the comments give.
        let document = ResultDocument(try Make.simulation(users: 20_000, rng: .mt19937).run())
        let lines = try document.rendered(as: .table, comments: false).split(separator: "\n").map(String.init)
        #expect(lines.first == "profile                    hig-linear-bar")
        // 17,040 intent users at seed 1: completion 0.878580 with Wilson [0.873585, 0.883388] (half-width 0.005).
        #expect(lines.contains("completion_rate            0.879 [0.874, 0.883]"))
        #expect(lines.contains { $0.hasPrefix("premature_release_rate ") && $0.hasSuffix("0.121 [0.116, 0.126]") })
        // A gesture-triggered completion time is constant: its interval has no width, shown to the CSV's digits.
        #expect(lines.contains("completion_time_mean_ms    1000.000 [1000.000, 1000.000] ms"))
        #expect(!lines.contains { $0.hasPrefix("completion_rate_lo") || $0.hasPrefix("completion_time_mean_ms_lo") })
        #expect(lines.count == 52 - 18)  // 52 columns less the 9 pairs of bounds folded into their rates and means
    }

    @Test("a column selection selects and orders in every format; markdown and json read back")
    func columnsEveryFormat() throws {
        let document = ResultDocument(try Make.simulation(["hig-linear-bar", "mismatched-fill"], users: 3_000).run())
        let columns = ["completion_rate", "profile"]
        let csv = try document.rendered(as: .csv, columns: columns, comments: false)
        #expect(csv.hasPrefix("completion_rate,profile\n") && csv.split(separator: "\n").count == 3)
        let table = try document.rendered(as: .table, columns: columns, comments: false)
        #expect(table.split(separator: "\n").first?.trimmingCharacters(in: .whitespaces).hasPrefix("completion_rate") == true)
        #expect(table.contains("] hig-linear-bar") || table.contains("]  hig-linear-bar"))
        let markdown = try document.rendered(as: .markdown, columns: columns)
        #expect(markdown.contains("| `completion_rate` | `profile` |\n|---:|---|\n"))
        #expect(markdown.hasPrefix("<!--\nholdlab: "))
        let json = try document.rendered(as: .json, columns: columns)
        let objects = try json.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.count == 2 && objects[1]["profile"] as? String == "mismatched-fill")
        #expect((objects[0]["completion_rate"] as? Double).map { $0 > 0.8 && $0 < 0.95 } == true)
    }
}
