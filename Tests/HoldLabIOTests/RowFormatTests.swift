import Foundation
import HoldLabIO
import Testing

@Suite("RowFormatter: the csv, table, markdown and json views of a command's CSV")
struct RowFormatTests {
    /// A summary-like CSV: provenance, a rate with its Wilson bounds, a rate whose interval comes from a count, a
    /// mean in ms, a NaN, a text column.
    static let csv = """
        # holdlab: 0.1.0 simulate
        # command: holdlab simulate
        profile,intent_users,completion_rate,completion_rate_lo,completion_rate_hi,premature_release_rate,completion_time_mean_ms,peak_pulse_rate_hz
        hig-linear-bar,17040,0.878580,0.873585,0.883388,0.121185,1000.000,NaN

        """
    static let hints = RowFormatHints(units: ["completion_time_mean_ms": "ms", "peak_pulse_rate_hz": "Hz", "completion_rate": "0–1"],
                                      rateDenominators: ["premature_release_rate": "intent_users"])

    @Test("csv with every column and the comments is the input, byte for byte")
    func identity() throws {
        #expect(try RowFormatter.render(Self.csv, format: .csv) == Self.csv)
    }

    @Test("--columns selects and orders in csv; --no-comments drops the # lines only")
    func columnsAndComments() throws {
        let selected = try RowFormatter.render(Self.csv, format: .csv, columns: ["completion_rate", "profile"], comments: false)
        #expect(selected == "completion_rate,profile\n0.878580,hig-linear-bar\n")
        let uncommented = try RowFormatter.render(Self.csv, format: .csv, comments: false)
        #expect(uncommented == Self.csv.split(separator: "\n").dropFirst(2).joined(separator: "\n") + "\n")
    }

    @Test("an unknown column is refused with the closest names; a column named twice too")
    func unknownColumn() {
        #expect(throws: RowFormatError.self) { try RowFormatter.render(Self.csv, format: .csv, columns: ["completion_rat"]) }
        do {
            _ = try RowFormatter.render(Self.csv, format: .table, columns: ["completion_rat"])
        } catch {
            #expect(error.message.hasPrefix("--columns: no column 'completion_rat' (did you mean 'completion_rate'"))
        }
        #expect(throws: RowFormatError.self) { try RowFormatter.render(Self.csv, format: .json, columns: ["profile", "profile"]) }
    }

    @Test("table: one row is one column a line; a rate reads rate [lo, hi] to the interval's first digit; units shown")
    func tableOneRow() throws {
        let text = try RowFormatter.render(Self.csv, format: .table, comments: false, hints: Self.hints)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines == [
            "profile                  hig-linear-bar",
            "intent_users             17040",
            // half-width 0.0049 → 3 decimals
            "completion_rate          0.879 [0.874, 0.883]",
            // n = 17040, p = 0.121185: Wilson [0.11640, 0.12614] (half-width 0.0049) → 3 decimals
            "premature_release_rate   0.121 [0.116, 0.126]",
            "completion_time_mean_ms  1000.000 ms",
            "peak_pulse_rate_hz       NaN",
        ])
    }

    @Test("table: several rows are aligned columns, numbers to the right")
    func tableRows() throws {
        let csv = "a,b_value\nx,1.5\nlonger,10.25\n"
        let text = try RowFormatter.render(csv, format: .table)
        #expect(text == "a       b_value\nx           1.5\nlonger    10.25\n")
    }

    @Test("markdown: a review table; provenance in an HTML comment; | escaped")
    func markdown() throws {
        let text = try RowFormatter.render(Self.csv, format: .markdown, columns: ["profile", "completion_rate", "completion_time_mean_ms"],
                                           hints: Self.hints)
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
        let rows = try RowFormatter.render("name,n\na|b,1\nc,2\n", format: .markdown)
        #expect(rows == "| `name` | `n` |\n|---|---:|\n| a\\|b | 1 |\n| c | 2 |\n")
    }

    @Test("json: JSON Lines, numbers as numbers, NaN as null, booleans, strings escaped; blocks numbered")
    func json() throws {
        let text = try RowFormatter.render(Self.csv, format: .json)
        #expect(text == #"{"profile":"hig-linear-bar","intent_users":17040,"completion_rate":0.878580,"completion_rate_lo":0.873585,"completion_rate_hi":0.883388,"premature_release_rate":0.121185,"completion_time_mean_ms":1000.000,"peak_pulse_rate_hz":null}"# + "\n")
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(object?["intent_users"] as? Int == 17040)
        #expect(object?["peak_pulse_rate_hz"] is NSNull)
        let mixed = try RowFormatter.render("# a\nx,ok,t\n1,true,\"say \"\"hi\"\"\"\n.5,false,b\n\n\n# b\ny\n2\n", format: .json)
        #expect(mixed == """
            {"block":0,"x":1,"ok":true,"t":"say \\"hi\\""}
            {"block":0,"x":0.5,"ok":false,"t":"b"}
            {"block":1,"y":2}

            """)
        for line in mixed.split(separator: "\n") { _ = try JSONSerialization.jsonObject(with: Data(line.utf8)) }
    }

    @Test("two blocks (tune): each keeps its # lines; --columns takes from each block what it has")
    func blocks() throws {
        let csv = "# p\n# index 0\nevaluation,x\n1,0.5\n2,0.6\n\n\n# index 1\nx,completion_rate\n0.6,0.9\n"
        #expect(try RowFormatter.render(csv, format: .csv, columns: ["x"]) == "# p\n# index 0\nx\n0.5\n0.6\n\n\n# index 1\nx\n0.6\n")
        let blocks = RowFormatter.parse(csv)
        #expect(blocks.count == 2 && blocks[0].rows.count == 2 && blocks[1].header == ["x", "completion_rate"])
    }

    @Test("digits: an interval's half-width sets the decimals; an estimate shows two digits of its standard error")
    func digits() {
        #expect(NumberText.decimals(forUncertainty: 0.006) == 3)
        #expect(NumberText.decimals(forUncertainty: 0.0004) == 4)
        #expect(NumberText.decimals(forUncertainty: 12) == 0)
        #expect(NumberText.withInterval("0.912345", "0.906", "0.918") == "0.912 [0.906, 0.918]")
        #expect(NumberText.withInterval("NaN", "NaN", "NaN") == "NaN")
        #expect(NumberText.withError("-0.109412", "0.00497") == "-0.1094 ± 0.0050")
        #expect(NumberText.withError("13.7893", "0.391") == "13.79 ± 0.39")
        #expect(NumberText.withError("1.5", "NaN") == "1.5")
    }
}
