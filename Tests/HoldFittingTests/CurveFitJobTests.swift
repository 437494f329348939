import Foundation
import HoldFitting
import HoldLabIO
import HoldLabTestSupport
import Testing

@Suite("fit-curve: the job's typed result")
struct CurveFitJobTests {
    @Test("golden: a weighted logistic with a target, and a flat y whose intervals are empty, as `holdlab fit-curve` wrote them")
    func golden() throws {
        let rates = CurveFitRequest(
            path: Golden.packageRoot.appendingPathComponent("Tests/HoldFittingTests/Golden/rates.csv").path, x: "x", y: "y",
            weights: "s", model: .logistic, target: 0.05,
            commandLine: "holdlab fit-curve --data Tests/HoldFittingTests/Golden/rates.csv --x x --y y --weights s --model logistic --target 0.05")
        #expect(Golden.relative(try rates.run().document.csv) == (try Golden.text("fit-curve-rates.csv")))
        let flat = CurveFitRequest(
            path: Golden.packageRoot.appendingPathComponent("Tests/HoldFittingTests/Golden/flat.csv").path, x: "x", y: "y",
            model: .logistic, commandLine: "holdlab fit-curve --data Tests/HoldFittingTests/Golden/flat.csv --x x --y y --model logistic")
        #expect(Golden.relative(try flat.run().document.csv) == (try Golden.text("fit-curve-flat.csv")))
    }

    @Test("JSON types per column: names and warnings strings, estimates numbers, an empty interval null")
    func jsonTypes() throws {
        let path = try TemporaryFiles.write("x,y\n" + (0..<15).map { "\(Double($0) / 10),0" }.joined(separator: "\n") + "\n")
        let kinds = try JSONTypes.of(try CurveFitRequest(path: path, x: "x", y: "y", model: .logistic, commandLine: "holdlab fit-curve")
            .run().document)
        #expect(kinds == [
            "model": [.string], "parameter": [.string], "estimate": [.number], "se": [.number, .null],
            "ci95_lo": [.number, .null], "ci95_hi": [.number, .null], "start": [.number], "warning": [.string],
        ])
    }

    /// The cells of the row for `parameter`, as CSV text.
    static func row(_ report: CurveFitReport, _ parameter: String) -> [String] {
        let rows = report.document.tables[0].rows
        return rows.first { $0[1] == .text(parameter) }.map { $0.map(\.csvText) } ?? []
    }

    /// `x,y[,s]` rows written to a file and fitted.
    static func fit(_ rows: [String], header: String = "x,y", weights: String? = nil, model: CurveModel = .linear,
                    target: Double? = nil) throws -> CurveFitReport {
        let path = try TemporaryFiles.write(([header] + rows).joined(separator: "\n") + "\n")
        return try CurveFitRequest(path: path, x: "x", y: "y", weights: weights, model: model, target: target,
                                   commandLine: "holdlab fit-curve").run()
    }

    @Test("issue 14 case 1: y = 0.9 − 0.8·e^(−3x) crosses 0.6 at ln(0.3/0.8)/(−3) = 0.32694, in the right basin")
    func saturating() throws {
        let rows = (0...20).map { i -> String in
            let x = Double(i) / 20
            return "\(x),\(0.9 - 0.8 * exp(-3 * x) + 0.004 * sin(7 * Double(i)))"
        }
        let report = try Self.fit(rows, model: .exponential, target: 0.6)
        #expect(report.fit.warning == nil)
        // SciPy curve_fit on the same data: amplitude −0.79905882, rate −2.97485341; brentq: 0.32727470.
        #expect(abs((Double(Self.row(report, "amplitude")[2]) ?? 0) + 0.79905882) < 1e-6)
        #expect(abs((Double(Self.row(report, "rate")[2]) ?? 0) + 2.97485341) < 1e-6)
        let target = Self.row(report, "x_at_target")
        #expect(abs((Double(target[2]) ?? 0) - 0.32727470) < 1e-7)
        #expect(abs((Double(target[3]) ?? 0) - 0.00115294) < 1e-7)
        #expect(Double(Self.row(report, "rate")[6]) != nil, "the start is a column")
    }

    @Test("issue 14 case 3: the same data in s and in µs give the same relative --target interval")
    func units() throws {
        func run(_ scale: Double) throws -> (Double, Double) {
            let rows = (0..<25).map { i -> String in
                let x = 0.3 + Double(i) * 0.05
                return "\(x * scale),\(0.9 / (1 + exp(6 * (x - 0.8))) + 0.004 * sin(5 * Double(i)))"
            }
            let target = Self.row(try Self.fit(rows, model: .logistic, target: 0.05), "x_at_target")
            return (Double(target[2]) ?? .nan, Double(target[3]) ?? .nan)
        }
        let seconds = try run(1), micro = try run(1e6), tenth = try run(1e7)
        // Written to 8 significant digits: relative SEs agree to 1e-6.
        #expect(abs(micro.1 / micro.0 - seconds.1 / seconds.0) <= 1e-6 * seconds.1 / seconds.0)
        #expect(abs(tenth.1 / tenth.0 - seconds.1 / seconds.0) <= 1e-6 * seconds.1 / seconds.0)
    }

    @Test("issue 14 case 4: nan, NAN, inf and -Infinity are skipped; an unreachable target is its own row")
    func missingAndUnreachable() throws {
        // Near 2 − e^(−x): a plateau at 2, so y = 3 is never reached.
        let rows = ["0,1.01", "1,1.63", "nan,4", "2,1.87", "3,NAN", "4,1.98", "inf,1", "5,-Infinity", "6,2.0"]
        let report = try Self.fit(rows, model: .exponential, target: 3)
        #expect(report.document.tables[0].provenance.value(of: "data")?.hasSuffix("5 points used, 4 skipped (nan or inf)") == true)
        let target = Self.row(report, "x_at_target")
        #expect(target[2...5] == ["", "", "", ""], "\(target)")
        #expect(target[7].hasPrefix("the fitted curve never reaches y = 3.0"))
    }

    @Test("weights: per-point sigma from a column; one not > 0 is refused at its line")
    func weights() throws {
        let rows = (0..<25).map { i -> String in
            let x = 0.3 + Double(i) * 0.05
            return "\(x),\(0.9 / (1 + exp(6 * (x - 0.8))) + 0.004 * sin(5 * Double(i))),\(0.002 + 0.004 * x)"
        }
        // SciPy curve_fit(sigma=s): slope −0.86656547 ± 0.03166094.
        let slope = Self.row(try Self.fit(rows, header: "x,y,s", weights: "s"), "slope")
        #expect(abs((Double(slope[2]) ?? 0) + 0.86656547) < 1e-7 && abs((Double(slope[3]) ?? 0) - 0.03166094) < 1e-7)
        #expect(throws: CSVTableError.self) {
            try Self.fit(["1,1,1", "2,2,0", "3,3,1", "4,4,1"], header: "x,y,s", weights: "s")
        }
    }
}
