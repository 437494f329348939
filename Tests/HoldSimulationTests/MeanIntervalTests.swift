import Foundation
import HoldLabIO
import HoldLabTestSupport
import Testing
@testable import HoldSimulation

/// The `_lo`/`_hi` columns of the seven means, checked from outside the tally: recomputed person by person from the
/// per-user rows, and shown as `mean [lo, hi]` in the table, markdown and JSON views.
@Suite("simulate: the means' 95 % intervals")
struct MeanIntervalTests {
    /// Each mean, its per-user column, which users it averages over, and its CSV decimals.
    struct Mean {
        let column: String
        let perUser: String
        let completedOnly: Bool
        let decimals: Int
    }

    static let means = [
        Mean(column: "completion_time_mean_ms", perUser: "trigger_ms", completedOnly: true, decimals: 3),
        Mean(column: "pulses_mean", perUser: "pulses", completedOnly: true, decimals: 3),
        Mean(column: "dropped_pulses_mean", perUser: "dropped_pulses", completedOnly: true, decimals: 3),
        Mean(column: "mismatch_mean_ms", perUser: "mismatch_ms", completedOnly: true, decimals: 3),
        Mean(column: "progress_at_trigger_mean", perUser: "progress_at_trigger", completedOnly: true, decimals: 6),
        Mean(column: "first_feedback_ms", perUser: "first_feedback_ms", completedOnly: false, decimals: 3),
        Mean(column: "retract_mean_ms", perUser: "retract_ms", completedOnly: false, decimals: 3),
    ]

    /// t(0.975, ν) by the Cornish–Fisher expansion of Student's t in the normal quantile (Abramowitz & Stegun
    /// 26.7.5, four terms): written out here, not GSL's, for the independent check. Its error is below 10⁻⁸ for
    /// ν ≥ 100, far below the CSV's rounding.
    static func t975(_ nu: Double) -> Double {
        let z = 1.959963984540054
        let z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z, z9 = z7 * z * z
        return z + (z3 + z) / (4 * nu) + (5 * z5 + 16 * z3 + 3 * z) / (96 * nu * nu)
            + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * nu * nu * nu)
            + (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / (92160 * nu * nu * nu * nu)
    }

    @Test("every mean's interval recomputed person by person from the per-user rows agrees with the summary to its rounding")
    func perUser() throws {
        // Dropped pulses vary under a minimum interval between the Timer fill's progress pulses (the other two play
        // at most one pulse a hold: the key is refused there).
        let job = try Make.simulation(["kikocard-article-latency", "mismatched-fill", "hig-linear-bar"],
                                      own: ["kikocard-article-latency": ["haptics.minInterval=0.02"]], users: 12_000, seed: 5)
        let (summaryText, perUserText) = try job.runWithPerUser()
        let summaries = CSVRecords.records(summaryText)
        let users = CSVRecords.records(perUserText)
        #expect(summaries.count == 3 && users.count == 36_000)
        var varying = 0
        for summary in summaries {
            let profile = try #require(summary["profile"])
            let mine = users.filter { $0["profile"] == profile && $0["intent"] == "confirm" }
            for mean in Self.means {
                let values = mine.filter { !mean.completedOnly || $0["outcome"] == "completed" }
                    .compactMap { $0[mean.perUser].flatMap(Double.init) }.filter { !$0.isNaN }
                let n = Double(values.count)
                let average = values.reduce(0, +) / n
                let s = (values.map { ($0 - average) * ($0 - average) }.reduce(0, +) / (n - 1)).squareRoot()
                let half = Self.t975(n - 1) * s / n.squareRoot()
                let lo = try #require(summary[mean.column + "_lo"].flatMap(Double.init))
                let hi = try #require(summary[mean.column + "_hi"].flatMap(Double.init))
                let written = try #require(summary[mean.column].flatMap(Double.init))
                // The summary rounds to `decimals` (half a unit in the last place); the per-user values are rounded
                // to the same unit, which moves a mean or a bound by at most another half: one unit in all.
                let unit = pow(10, -Double(mean.decimals)) * 1.000001
                #expect(abs(written - average) <= unit, "\(profile) \(mean.column): \(written) vs \(average)")
                #expect(abs(lo - (average - half)) <= unit, "\(profile) \(mean.column)_lo: \(lo) vs \(average - half)")
                #expect(abs(hi - (average + half)) <= unit, "\(profile) \(mean.column)_hi: \(hi) vs \(average + half)")
                #expect(lo <= written && written <= hi)
                if hi - lo > 10 * unit { varying += 1 }
            }
        }
        // The check means something: most of the 21 intervals have a width well above the rounding.
        #expect(varying >= 10, "only \(varying) intervals wider than the rounding")
    }

    @Test("each bound column sits right after its mean; fewer than two values give NaN bounds and a note saying why")
    func columnsAndEdges() throws {
        let names = SimulationCSV.columns.map(\.name)
        for mean in Self.means {
            let index = try #require(names.firstIndex(of: mean.column))
            #expect(Array(names[(index + 1)...(index + 2)]) == [mean.column + "_lo", mean.column + "_hi"])
        }
        let bound = try #require(SimulationCSV.columns.first { $0.name == "retract_mean_ms_hi" })
        #expect(bound.unit == "ms" && bound.definition == "95 % Student t interval of the mean, upper bound (NaN with fewer than 2 values)")
        // One user (seed 1: an intent user who completes): each mean has its one value and no interval, and the
        // note says why, rather than calling them over nobody.
        let table = try Make.simulation(users: 1).run()
        let one = CSVRecords.records(ResultDocument(table).csv)[0]
        for mean in Self.means { #expect(one[mean.column + "_lo"] == "NaN" && one[mean.column + "_hi"] == "NaN", "\(mean.column)") }
        #expect(one["completed"] == "1" && one["completion_time_mean_ms"] == "1000.000")
        // What the command prints on standard error (`noteUndefinedValues(table, subject: "profile")`).
        let notes = table.undefinedValueNotes(subject: "profile").joined(separator: "\n")
        #expect(notes.contains("note: a mean of a single value has no 95 % interval, so these are written as NaN: completion_time_mean_ms_lo, completion_time_mean_ms_hi, pulses_mean_lo"), "\(notes)")
        #expect(!notes.contains("over nobody: completion_time_mean_ms_lo") && !notes.contains("nobody: false_activation_rate, false_activation_rate_lo, false_activation_rate_hi, completion_time"))
        // Over nobody are the statistics over accidental users alone: peak_pulse_rate_hz is NaN because the one
        // completed hold rendered a single pulse (data, not nobody), so it is not blamed on accidental_users = 0.
        #expect(one["peak_pulse_rate_hz"] == "NaN" && one["accidental_users"] == "0")
        #expect(notes.hasPrefix("note: undefined values are written as NaN: accidental_users = 0, so these are over nobody: "
                                + "false_activation_rate, false_activation_rate_lo, false_activation_rate_hi\n"), "\(notes)")
        // Every statistic names the count it is over; counts and names name none.
        let over = Dictionary(uniqueKeysWithValues: SimulationCSV.resultColumns.map { ($0.name, $0.over) })
        #expect(over["peak_pulse_rate_hz"] == "completed" && over["false_activation_rate_hi"] == "accidental_users")
        #expect(over["first_feedback_ms"] == "intent_users" && over["completed_unseen_rate"] == "completed")
        #expect(over["intent_users"] == .some(nil) && over["profile"] == .some(nil))
        #expect(SimulationCSV.resultColumns.filter { $0.kind == .number }.allSatisfy { $0.over != nil })
    }

    @Test("table, markdown and json of one row show every mean as mean [lo, hi], rounded to its interval")
    func views() throws {
        let document = ResultDocument(try Make.simulation(["kikocard-article-latency"], users: 20_000).run())
        let csv = CSVRecords.records(try document.rendered(as: .csv, comments: false))[0]
        let lines = try document.rendered(as: .table, comments: false).split(separator: "\n").map(String.init)
        for mean in Self.means {
            let line = try #require(lines.first { $0.hasPrefix(mean.column + " ") }, "\(mean.column)")
            let cell = line.dropFirst(mean.column.count).drop { $0 == " " }
            // `value [lo, hi]` (then the unit): three numbers, the bounds those of the CSV to the shown digits.
            let parts = cell.split(whereSeparator: { " [],".contains($0) }).map(String.init)
            let (value, lo, hi) = (try #require(Double(parts[0])), try #require(Double(parts[1])), try #require(Double(parts[2])))
            let decimals = parts[1].split(separator: ".").dropFirst().first?.count ?? 0
            let unit = pow(10, -Double(decimals))
            #expect(cell.contains(" [") && cell.contains(", ") && cell.contains("]"), "\(line)")
            #expect(abs(lo - (try #require(csv[mean.column + "_lo"].flatMap(Double.init)))) <= unit / 2 + 1e-12, "\(line)")
            #expect(abs(hi - (try #require(csv[mean.column + "_hi"].flatMap(Double.init)))) <= unit / 2 + 1e-12, "\(line)")
            #expect(abs(value - (try #require(csv[mean.column].flatMap(Double.init)))) <= unit / 2 + 1e-12, "\(line)")
            if mean.column.hasSuffix("_ms") { #expect(line.hasSuffix("] ms"), "\(line)") }
            #expect(!lines.contains { $0.hasPrefix(mean.column + "_lo") || $0.hasPrefix(mean.column + "_hi") })
        }
        // kikocard-article-latency: completion time varies with Timer latency, so its interval has width and few digits.
        #expect(lines.contains { $0.hasPrefix("completion_time_mean_ms ") && !$0.contains(".000 [") }, "\(lines)")
        // Markdown shows the same cells as the table.
        let markdown = try document.rendered(as: .markdown, comments: false)
        for mean in Self.means {
            let line = try #require(lines.first { $0.hasPrefix(mean.column + " ") })
            let cell = line.dropFirst(mean.column.count).drop { $0 == " " }
            #expect(markdown.contains("| `\(mean.column)` | \(cell) |\n"), "\(mean.column): \(markdown)")
        }
        let json = try document.rendered(as: .json, comments: false)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        for mean in Self.means {
            #expect(object[mean.column + "_lo"] as? Double == csv[mean.column + "_lo"].flatMap(Double.init))
            #expect(object[mean.column + "_hi"] as? Double == csv[mean.column + "_hi"].flatMap(Double.init))
        }
    }
}
