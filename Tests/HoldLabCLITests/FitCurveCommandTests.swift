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
        #expect(rows.first == "model,parameter,estimate,se,ci95_lo,ci95_hi")
        #expect(fit.stdout.contains("# data: \(rates) fnv1a64:"))
        #expect(rows.map { $0.split(separator: ",")[1] } .dropFirst() == ["upper", "rate", "midpoint", "x_at_target"])
        let x = try #require(Double(rows[4].split(separator: ",")[2]))
        #expect(x > 0.8 && x < 1.5)
    }

    @Test("bad input: missing file (66), unknown column listing the columns (65), non-numeric values (65)")
    func errors() throws {
        let missing = try CLI.run(["fit-curve", "--data", "/nonexistent.csv", "--x", "a", "--y", "b"])
        #expect(missing.status == 66 && missing.stderr.contains("no such data file"))
        let directory = try CLI.temporaryDirectory()
        let file = directory.appendingPathComponent("d.csv")
        try "# note\na,b\n1,2\n2,4\n3,6\nx,8\n".write(to: file, atomically: true, encoding: .utf8)
        let column = try CLI.run(["fit-curve", "--data", file.path, "--x", "a", "--y", "c"])
        #expect(column.status == 65 && column.stderr.contains("no column 'c'; columns: a, b"))
        let text = try CLI.run(["fit-curve", "--data", file.path, "--x", "a", "--y", "b"])
        #expect(text.status == 65 && text.stderr.contains("d.csv:6: 'x', '8' are not both numbers"))
    }
}
