import Foundation
import Testing

@Suite("holdlab fit-curve")
struct FitCurveCommandTests {
    @Test("reads sweep output directly and reports parameters and the x at a target")
    func sweepOutput() throws {
        let directory = try CLI.temporaryDirectory()
        let rates = directory.appendingPathComponent("rates.csv").path
        #expect(try CLI.run(["sweep", "--vary", "gesture.minimumDuration=0.3:1.5:0.1", "--users", "20000", "--out", rates]).status == 0)
        let fit = try CLI.run(["fit-curve", "--data", rates, "--x", "param_gesture_minimumDuration",
                               "--y", "false_activation_rate", "--model", "logistic", "--target", "0.01"])
        #expect(fit.status == 0, "\(fit.stderr)")
        let rows = CLI.dataLines(fit.stdout)
        #expect(rows.first == "model,parameter,estimate,se,ci95_lo,ci95_hi,start,warning")
        #expect(fit.stdout.contains("# data: \(rates) fnv1a64:"))
        #expect(rows.map { $0.split(separator: ",")[1] } .dropFirst() == ["upper", "rate", "midpoint", "x_at_target"])
        let x = try #require(Double(rows[4].split(separator: ",")[2]))
        #expect(x > 0.8 && x < 1.5)
    }

    @Test("bad input: missing file (66), unknown column listing the columns (65), non-numeric values (65)")
    func errors() throws {
        let missing = try CLI.run(["fit-curve", "--data", "/nonexistent.csv", "--x", "a", "--y", "b"])
        #expect(missing.status == 66 && missing.stderr.contains("/nonexistent.csv: no such file"))
        let directory = try CLI.temporaryDirectory()
        let file = directory.appendingPathComponent("d.csv")
        try "# note\na,b\n1,2\n2,4\n3,6\nx,8\n".write(to: file, atomically: true, encoding: .utf8)
        let column = try CLI.run(["fit-curve", "--data", file.path, "--x", "a", "--y", "c"])
        #expect(column.status == 65 && column.stderr.contains("no column 'c'; columns: a, b"))
        let text = try CLI.run(["fit-curve", "--data", file.path, "--x", "a", "--y", "b"])
        #expect(text.status == 65 && text.stderr.contains("d.csv:6: a: 'x' is not a number"))
    }

    /// Writes `x,y[,s]` rows to a CSV in a fresh directory and runs fit-curve on it.
    static func fit(_ rows: [String], header: String = "x,y", _ arguments: [String]) throws -> CLI.Result {
        let file = try CLI.temporaryDirectory().appendingPathComponent("data.csv")
        try ([header] + rows).joined(separator: "\n").appending("\n").write(to: file, atomically: true, encoding: .utf8)
        return try CLI.run(["fit-curve", "--data", file.path, "--x", "x", "--y", "y"] + arguments)
    }

    /// The fields of the row for `parameter`.
    static func row(_ stdout: String, _ parameter: String) -> [String] {
        let line = CLI.dataLines(stdout).first { $0.split(separator: ",", omittingEmptySubsequences: false)[1] == parameter }
        return line.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) } ?? []
    }

    @Test("issue 14 case 2: two-level x refused with 65; an all-zero y warns once and prints empty intervals")
    func stalled() throws {
        let twoLevel = (0..<20).map { "\($0 % 2 == 0 ? 0.4 : 0.8),\($0 % 2 == 0 ? 0.1 : 0.6)" }
        let refused = try Self.fit(twoLevel, ["--model", "logistic"])
        #expect(refused.status == 65)
        // One line, naming the file and the columns.
        #expect(refused.stderr.hasPrefix("holdlab: error: /") && refused.stderr.hasSuffix(
            "/data.csv (x x, y y): x takes only 2 distinct values; a logistic model has 3 parameters and needs at least 3\n"),
                "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)
        let zero = try Self.fit((0..<15).map { "\(Double($0) / 10),0" }, ["--model", "logistic"])
        #expect(zero.status == 0)
        let warnings = zero.stderr.split(separator: "\n")
        #expect(warnings.count == 1 && warnings[0].hasPrefix("holdlab: warning: the data do not identify rate and midpoint"))
        let rate = Self.row(zero.stdout, "rate")
        #expect(rate[3...5] == ["", "", ""], "\(rate)")
        #expect(rate[7].hasPrefix("\"not identified; the data do not identify rate and midpoint"))
        #expect(zero.stdout.contains("# warning: the data do not identify rate and midpoint"))
        let constant = try Self.fit((0..<6).map { "1.5,\($0)" }, [])
        #expect(constant.status == 65 && constant.stderr.contains("x is constant (every point has x = 1.5)"))
        let huge = try Self.fit(["1,1", "2,2", "3,3", "4,1e308"], [])
        #expect(huge.status == 65 && huge.stderr.contains("overflow the sums of squares"))
    }

    @Test("--weights: a weight not > 0 is refused with its line, status 65")
    func badWeight() throws {
        let bad = try Self.fit(["1,1,1", "2,2,0", "3,3,1", "4,4,1"], header: "x,y,s", ["--weights", "s"])
        #expect(bad.status == 65 && bad.stderr.contains("data.csv:3: weight 0 (column s) must be a standard deviation > 0"))
    }
}
