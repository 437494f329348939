import ArgumentParser
import Foundation
import HoldFitting
import HoldProfiles
import HoldSimulation

extension CurveModel: ExpressibleByArgument {}

struct FitCurve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fit-curve",
        abstract: "Fit a curve to two columns of a CSV (sweep output) by least squares; with --target, the x that reaches it.",
        discussion: """
            Models: linear (gsl_fit_linear), logistic and exponential (gsl_multifit_nlinear, trust region). Output CSV: \
            model,parameter,estimate,se,ci95_lo,ci95_hi, one row per parameter and, with --target, a row x_at_target \
            (delta method). Intervals use Student's t with n − p degrees of freedom. Rows whose x or y is NaN are skipped.

            Example:
              holdlab sweep --vary gesture.minimumDuration=0.3:1.5:0.1 --out rates.csv
              holdlab fit-curve --data rates.csv --x param_gesture_minimumDuration \\
                --y false_activation_rate --model exponential --target 0.005
            """)

    @Option(help: ArgumentHelp("CSV file (for example holdlab sweep output).", valueName: "file"))
    var data: String

    @Option(help: ArgumentHelp("Column of x values.", valueName: "column"))
    var x: String

    @Option(help: ArgumentHelp("Column of y values.", valueName: "column"))
    var y: String

    @Option(help: "linear, logistic or exponential.")
    var model: CurveModel = .linear

    @Option(help: "A y value: report the x at which the fitted curve reaches it, with an interval.")
    var target: Double?

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if let target, !target.isFinite { throw ValidationError("--target must be a finite number.") }
    }

    func run() throws {
        try reportingErrors {
            guard FileManager.default.fileExists(atPath: data) else {
                throw ProfileError(origin: .unknown(path: data), keyPath: "", message: "no such data file")
            }
            let text = try ProfileLibrary.read(data, what: "data")
            let table = try CSVTable(text: text, path: data)
            let xIndex = try table.column(x)
            let yIndex = try table.column(y)
            var xs: [Double] = [], ys: [Double] = []
            var skipped = 0
            for (line, fields) in table.rows {
                let pair = (fields[xIndex], fields[yIndex])
                if pair.0 == "NaN" || pair.1 == "NaN" { skipped += 1; continue }
                guard let xv = Double(pair.0), let yv = Double(pair.1), xv.isFinite, yv.isFinite else {
                    throw CSVTableError(path: data, line: line, "'\(pair.0)', '\(pair.1)' are not both numbers (columns \(x), \(y))")
                }
                xs.append(xv)
                ys.append(yv)
            }
            let result = try CurveFitting.fit(x: xs, y: ys, model: model, target: target)
            var provenance: [(String, String)] = [
                ("holdlab", "\(HoldLabVersion.current) fit-curve"),
                ("command", typedCommandLine()),
                ("data", "\(data) fnv1a64:\(fnv1a64Hex(text)): \(result.points) points used, \(skipped) skipped (NaN)"),
                ("model", "\(model.rawValue): \(model.formula)"),
                ("fit", String(format: "rss %.6g, dof %d, r2 %.6f", result.residualSumOfSquares, result.degreesOfFreedom,
                               result.rSquared)),
            ]
            if let target { provenance.append(("target", "y = \(target)")) }
            var output = CSV.provenance(provenance) + "model,parameter,estimate,se,ci95_lo,ci95_hi\n"
            let estimates = result.parameters + (result.target.map { [$0.x] } ?? [])
            for estimate in estimates {
                let numbers = [estimate.value, estimate.standardError, estimate.lower, estimate.upper]
                    .map { CSV.number($0, significant: 8) }
                output += ([model.rawValue, estimate.name] + numbers).joined(separator: ",") + "\n"
            }
            try OutputFile(argument: self.output.out).write(output)
        }
    }
}
