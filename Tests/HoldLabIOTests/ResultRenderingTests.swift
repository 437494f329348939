import Foundation
import Testing
@testable import HoldLabIO

@Suite("Typed results: every format rendered from typed cells, never parsed back from CSV")
struct ResultRenderingTests {
    /// A summary-like block: names that look like numbers, a rate with bounds, a rate kept as counts, a mean in ms,
    /// a missing value, a count and a seed.
    static func document(names: [String] = ["007", "2024", "NaN", "say \"hi\", twice", "Zoë"]) -> ResultDocument {
        let columns = [
            ResultColumn("profile", .text), ResultColumn("users", .integer, unit: "count"),
            ResultColumn("seed", .integer), ResultColumn("completion_rate", .number, unit: "0–1"),
            ResultColumn("completion_rate_lo", .number, unit: "0–1"), ResultColumn("completion_rate_hi", .number, unit: "0–1"),
            ResultColumn("premature_release_rate", .number, unit: "0–1"),
            ResultColumn("completion_time_mean_ms", .number, unit: "ms"), ResultColumn("peak_pulse_rate_hz", .number, unit: "Hz"),
            ResultColumn("fired", .boolean),
        ]
        let rows: [[ResultCell]] = names.enumerated().map { index, name in
            let completion = Proportion(successes: 879 + index, trials: 1000)
            let wilson = completion.wilson95
            return [
                .text(name), .integer(1000), .unsigned(UInt64.max - UInt64(index)),
                .proportion(completion, decimals: 6), .number(wilson?.lower, decimals: 6), .number(wilson?.upper, decimals: 6),
                .proportion(Proportion(successes: 121 - index, trials: 1000), decimals: 6),
                .number(1234.5678 + Double(index), decimals: 3), .number(nil, decimals: 3), .boolean(index % 2 == 0),
            ]
        }
        return ResultDocument(ResultTable(
            provenance: Provenance([("holdlab", "0.1.0 simulate"), ("command", "holdlab simulate")]), columns: columns, rows: rows))
    }

    @Test("JSON types come from the columns: text stays text whatever it looks like, numbers are numbers, NaN is null")
    func jsonTypes() throws {
        let text = try Self.document().rendered(as: .json)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 5)
        for (line, name) in zip(lines, ["007", "2024", "NaN", "say \"hi\", twice", "Zoë"]) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["profile"] as? String == name)
            #expect(object["users"] as? Int == 1000)
            #expect(object["completion_rate"] is Double)
            #expect(object["peak_pulse_rate_hz"] is NSNull)
            #expect(object["fired"] is Bool)
        }
        #expect(text.contains("\"profile\":\"007\""))
        #expect(text.contains("\"seed\":18446744073709551615"))
    }

    @Test("CSV is the cells' text, quoted where needed; --columns and --no-comments select")
    func csv() throws {
        let document = Self.document(names: ["a,b"])
        let csv = try document.rendered(as: .csv)
        #expect(csv == """
            # holdlab: 0.1.0 simulate
            # command: holdlab simulate
            profile,users,seed,completion_rate,completion_rate_lo,completion_rate_hi,premature_release_rate,completion_time_mean_ms,peak_pulse_rate_hz,fired
            "a,b",1000,18446744073709551615,0.879000,0.857323,0.897776,0.121000,1234.568,NaN,true

            """)
        #expect(try document.rendered(as: .csv, columns: ["fired", "profile"], comments: false) == "fired,profile\ntrue,\"a,b\"\n")
        #expect(throws: RowFormatError.self) { try document.rendered(as: .csv, columns: ["completion_rat"]) }
        #expect(throws: RowFormatError.self) { try document.rendered(as: .csv, columns: ["users", "users"]) }
    }

    @Test("The table view takes a rate's interval from its bounds, or from its counts exactly (no rounding above 10⁶ users)")
    func intervalsFromCounts() throws {
        // 1,234,567 of 2,500,001: the rate rounded to 6 decimals times n is not the count; the counts are exact.
        let proportion = Proportion(successes: 1_234_567, trials: 2_500_001)
        let table = ResultTable(columns: [ResultColumn("rate", .number)], rows: [[.proportion(proportion, decimals: 6)]])
        let text = try ResultDocument(table).rendered(as: .table, comments: false)
        let ci = try #require(proportion.wilson95)
        #expect(text == "rate  \(NumberText.withInterval(CSV.number(proportion.rate, decimals: 6), "\(ci.lower)", "\(ci.upper)"))\n")
        let rows = try Self.document().rendered(as: .table, comments: false)
        #expect(rows.contains("0.88 [0.86, 0.90]"))
        #expect(!rows.contains("completion_rate_lo"))
    }

    @Test("Provenance lines escape control characters: one line each, whatever the text")
    func provenanceEscapes() {
        let provenance = Provenance([("question", "Which one?\nThe fast one?\r\t\u{1b}[31m\u{2028}end")])
        #expect(provenance.lines == "# question: Which one?\\nThe fast one?\\r\\t\\x1b[31m\\x2028end\n")
        #expect(provenance.lines.filter { $0 == "\n" }.count == 1)
    }

    @Test("A value none of the counted people had is noted with its column's reason, its bounds with it; not when its count is 0")
    func unhadNotes() {
        let columns = [ResultColumn("profile", .text), ResultColumn("completed", .integer),
                       ResultColumn("y_rate", .number, over: "completed", undefinedWhen: "no hold had y"),
                       ResultColumn("z_mean", .number, over: "completed", undefinedWhen: "no hold had z"),
                       ResultColumn("z_mean_lo", .number), ResultColumn("z_mean_hi", .number),
                       ResultColumn("w_max", .number, over: "completed")]
        let missing = ResultCell.number(nil, decimals: 3)
        let table = ResultTable(columns: columns, rows: [
            // Completed holds, none with y or z: noted with the reasons; w without a reason of its own is not.
            [.text("a"), .integer(4), missing, missing, missing, missing, missing],
            // Nobody completed: over nobody, not "none had them".
            [.text("b"), .integer(0), missing, missing, missing, missing, missing],
            // Every value present.
            [.text("c"), .integer(4), .number(0.5, decimals: 3), .number(1, decimals: 3), .number(0, decimals: 3),
             .number(2, decimals: 3), .number(3, decimals: 3)],
        ])
        let notes = table.undefinedValueNotes(subject: "profile")
        #expect(notes == [
            "note: undefined values are written as NaN (1 of 3 profiles): completed = 0, so these are over nobody: y_rate, z_mean, z_mean_lo, z_mean_hi, w_max",
            "note: undefined values are written as NaN (1 of 3 profiles) where none of the holds counted had them: y_rate (no hold had y); z_mean, z_mean_lo, z_mean_hi (no hold had z)",
        ])
    }

    @Test("Undefined values are noted from typed cells: over nobody, and single-value means")
    func undefinedNotes() {
        let columns = [ResultColumn("profile", .text), ResultColumn("intent_users", .integer),
                       ResultColumn("completion_rate", .number), ResultColumn("x_mean", .number),
                       ResultColumn("x_mean_lo", .number), ResultColumn("x_mean_hi", .number)]
        let table = ResultTable(columns: columns, rows: [
            [.text("a"), .integer(0), .number(nil, decimals: 6), .number(nil, decimals: 3), .number(nil, decimals: 3), .number(nil, decimals: 3)],
            [.text("b"), .integer(5), .number(1, decimals: 6), .number(2, decimals: 3), .number(nil, decimals: 3), .number(nil, decimals: 3)],
        ])
        #expect(table.undefinedValueNotes(subject: "profile") == [
            "note: undefined values are written as NaN (1 of 2 profiles): intent_users = 0, so these are over nobody: completion_rate, x_mean, x_mean_lo, x_mean_hi",
            "note: a mean of a single value has no 95 % interval, so these are written as NaN (1 of 2 profiles): x_mean_lo, x_mean_hi",
        ])
    }

    @Test("a note's groups keep the order names first came in, each name once in its group")
    func nameGroups() {
        var groups = NameGroups()
        #expect(groups.isEmpty && groups.joined { "\($0) (\($1))" } == "")
        groups.add("a_rate", to: "no hold had a")
        groups.add("z_mean", to: "no hold had z")
        groups.add("b_mean", to: "no hold had a")
        groups.add("a_rate", to: "no hold had a")
        groups.add("a_rate", to: "no hold had z")
        #expect(groups.keys == ["no hold had a", "no hold had z"])
        #expect(groups.joined { "\($0) (\($1))" } == "a_rate, b_mean (no hold had a); z_mean, a_rate (no hold had z)")
        #expect(groups.joined { "\($0) of \($1)" } == "a_rate, b_mean of no hold had a; z_mean, a_rate of no hold had z")
    }
}
