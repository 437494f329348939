import Foundation
import HoldLabIO
import Testing

@Suite("RowFormat: the csv, table, markdown and json views of a typed result")
struct RowFormatTests {
    /// A summary-like block: provenance, a rate with its Wilson bounds, a rate kept as counts (its interval from
    /// them), a mean in ms, a missing value, a text column.
    static let summary = ResultDocument(ResultTable(
        provenance: Provenance([("holdlab", "0.1.0 simulate"), ("command", "holdlab simulate")]),
        columns: [
            ResultColumn("profile", .text), ResultColumn("intent_users", .integer, unit: "count"),
            ResultColumn("completion_rate", .number, unit: "0–1"), ResultColumn("completion_rate_lo", .number, unit: "0–1"),
            ResultColumn("completion_rate_hi", .number, unit: "0–1"), ResultColumn("premature_release_rate", .number, unit: "0–1"),
            ResultColumn("completion_time_mean_ms", .number, unit: "ms"), ResultColumn("peak_pulse_rate_hz", .number, unit: "Hz"),
        ],
        rows: [[
            .text("hig-linear-bar"), .integer(17040), .number(0.878580, decimals: 6), .number(0.873585, decimals: 6),
            .number(0.883388, decimals: 6), .proportion(Proportion(successes: 2065, trials: 17040), decimals: 6),
            .number(1000, decimals: 3), .number(nil, decimals: 3),
        ]]))

    static let csv = """
        # holdlab: 0.1.0 simulate
        # command: holdlab simulate
        profile,intent_users,completion_rate,completion_rate_lo,completion_rate_hi,premature_release_rate,completion_time_mean_ms,peak_pulse_rate_hz
        hig-linear-bar,17040,0.878580,0.873585,0.883388,0.121185,1000.000,NaN

        """

    @Test("csv is the cells' text under the provenance lines")
    func identity() throws {
        #expect(try Self.summary.rendered(as: .csv) == Self.csv)
    }

    @Test("--columns selects and orders in csv; --no-comments drops the # lines only")
    func columnsAndComments() throws {
        let selected = try Self.summary.rendered(as: .csv, columns: ["completion_rate", "profile"], comments: false)
        #expect(selected == "completion_rate,profile\n0.878580,hig-linear-bar\n")
        let uncommented = try Self.summary.rendered(as: .csv, comments: false)
        #expect(uncommented == Self.csv.split(separator: "\n").dropFirst(2).joined(separator: "\n") + "\n")
    }

    @Test("an unknown column is refused with the closest names; a column named twice too")
    func unknownColumn() {
        #expect(throws: RowFormatError.self) { try Self.summary.rendered(as: .csv, columns: ["completion_rat"]) }
        do {
            _ = try Self.summary.rendered(as: .table, columns: ["completion_rat"])
        } catch {
            #expect(error.message.hasPrefix("--columns: no column 'completion_rat' (did you mean 'completion_rate'"))
        }
        #expect(throws: RowFormatError.self) { try Self.summary.rendered(as: .json, columns: ["profile", "profile"]) }
    }

    @Test("table: one row is one column a line; a rate reads rate [lo, hi] to the interval's first digit; units shown")
    func tableOneRow() throws {
        let lines = try Self.summary.rendered(as: .table, comments: false).split(separator: "\n").map(String.init)
        #expect(lines == [
            "profile                  hig-linear-bar",
            "intent_users             17040",
            // half-width 0.0049 → 3 decimals
            "completion_rate          0.879 [0.874, 0.883]",
            // 2065 of 17040 = 0.121185: Wilson [0.11640, 0.12614] (half-width 0.0049) → 3 decimals
            "premature_release_rate   0.121 [0.116, 0.126]",
            "completion_time_mean_ms  1000.000 ms",
            "peak_pulse_rate_hz       NaN",
        ])
    }

    @Test("table: several rows are aligned columns, numbers to the right")
    func tableRows() throws {
        let document = ResultDocument(ResultTable(
            columns: [ResultColumn("a", .text), ResultColumn("b_value", .number)],
            rows: [[.text("x"), .formatted("1.5", value: 1.5)], [.text("longer"), .formatted("10.25", value: 10.25)]]))
        #expect(try document.rendered(as: .table) == "a       b_value\nx           1.5\nlonger    10.25\n")
    }

    @Test("markdown: a review table; provenance in an HTML comment; | escaped")
    func markdown() throws {
        let text = try Self.summary.rendered(as: .markdown, columns: ["profile", "completion_rate", "completion_time_mean_ms"])
        #expect(text == """
            <!--
            holdlab: 0.1.0 simulate
            command: holdlab simulate
            -->
            | column | value |
            |---|---:|
            | `profile` | hig-linear-bar |
            | `completion_rate` | 0.879 [0.874, 0.883] |
            | `completion_time_mean_ms` | 1000.000 ms |

            """)
        let rows = ResultDocument(ResultTable(
            columns: [ResultColumn("name", .text), ResultColumn("n", .integer)],
            rows: [[.text("a|b"), .integer(1)], [.text("c"), .integer(2)]]))
        #expect(try rows.rendered(as: .markdown) == "| `name` | `n` |\n|---|---:|\n| a\\|b | 1 |\n| c | 2 |\n")
    }

    @Test("json: JSON Lines, numbers as numbers, NaN as null, booleans, strings escaped; blocks numbered")
    func json() throws {
        let text = try Self.summary.rendered(as: .json)
        #expect(text == #"{"profile":"hig-linear-bar","intent_users":17040,"completion_rate":0.878580,"completion_rate_lo":0.873585,"completion_rate_hi":0.883388,"premature_release_rate":0.121185,"completion_time_mean_ms":1000.000,"peak_pulse_rate_hz":null}"# + "\n")
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(object?["intent_users"] as? Int == 17040)
        #expect(object?["peak_pulse_rate_hz"] is NSNull)
        let mixed = ResultDocument([
            ResultTable(provenance: Provenance([("a", "")]),
                        columns: [ResultColumn("x", .number), ResultColumn("ok", .boolean), ResultColumn("t", .text)],
                        rows: [[.formatted("1", value: 1), .boolean(true), .text("say \"hi\"")],
                               [.formatted(".5", value: 0.5), .boolean(false), .text("b")]]),
            ResultTable(provenance: Provenance([("b", "")]), columns: [ResultColumn("y", .integer)], rows: [[.integer(2)]]),
        ])
        let lines = try mixed.rendered(as: .json)
        #expect(lines == """
            {"block":0,"x":1,"ok":true,"t":"say \\"hi\\""}
            {"block":0,"x":0.5,"ok":false,"t":"b"}
            {"block":1,"y":2}

            """)
        for line in lines.split(separator: "\n") { _ = try JSONSerialization.jsonObject(with: Data(line.utf8)) }
        // A number written with leading zeros is still a JSON number.
        let zeros = ResultDocument(ResultTable(columns: [ResultColumn("v", .number)], rows: [[.formatted("060", value: 60)]]))
        #expect(try zeros.rendered(as: .json) == "{\"v\":60}\n")
    }

    @Test("two blocks (tune): each keeps its # lines; --columns takes from each block what it has")
    func blocks() throws {
        let document = ResultDocument([
            ResultTable(provenance: Provenance([("p", "x"), ("index 0", "trajectory")]),
                        columns: [ResultColumn("evaluation", .integer), ResultColumn("x", .number)],
                        rows: [[.integer(1), .formatted("0.5", value: 0.5)], [.integer(2), .formatted("0.6", value: 0.6)]]),
            ResultTable(provenance: Provenance([("index 1", "check")]),
                        columns: [ResultColumn("x", .number), ResultColumn("completion_rate", .number)],
                        rows: [[.formatted("0.6", value: 0.6), .number(0.9, decimals: 1)]]),
        ])
        #expect(try document.rendered(as: .csv, columns: ["x"])
            == "# p: x\n# index 0: trajectory\nx\n0.5\n0.6\n\n\n# index 1: check\nx\n0.6\n")
    }

    @Test("digits: an interval's half-width sets the decimals; an estimate shows two digits of its standard error")
    func digits() {
        #expect(NumberText.decimals(forUncertainty: 0.006) == 3)
        #expect(NumberText.decimals(forUncertainty: 0.0004) == 4)
        #expect(NumberText.decimals(forUncertainty: 12) == 0)
        #expect(NumberText.withInterval("0.912345", "0.906", "0.918") == "0.912 [0.906, 0.918]")
        #expect(NumberText.withInterval("NaN", "NaN", "NaN") == "NaN")
        // A negative bound that rounds to 0 keeps its sign (the interval excludes 0); 0 itself has none.
        #expect(NumberText.withInterval("-0.004180", "-0.008053", "-0.000307") == "-0.004 [-0.008, -0.000]")
        #expect(NumberText.withInterval("0.004", "0.000000", "0.008") == "0.004 [0.000, 0.008]")
        #expect(NumberText.withError("-0.109412", "0.00497") == "-0.1094 ± 0.0050")
        #expect(NumberText.withError("13.7893", "0.391") == "13.79 ± 0.39")
        #expect(NumberText.withError("1.5", "NaN") == "1.5")
    }
}
