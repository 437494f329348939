import ArgumentParser
import Foundation
import HoldFitting
import HoldLabIO
import HoldProfiles
import HoldSimulation

extension CurveModel: ExpressibleByArgument {}

struct FitCurve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fit-curve",
        abstract: "Fit a curve to two columns of a CSV (sweep output) by least squares; with --target, the x that reaches it.",
        discussion: """
            Models: linear (gsl_fit_linear), logistic and exponential (gsl_multifit_nlinear, trust region, analytic \
            Jacobian, started from the best of a grid over every sign and scale of the rate). Output CSV: \
            model,parameter,estimate,se,ci95_lo,ci95_hi,start,warning, one row per parameter and, with --target, a row \
            x_at_target (delta method). Intervals use Student's t with n − p degrees of freedom; a parameter the data \
            do not identify has an empty interval. A fit that did not converge, is not at a minimum or is poorly \
            determined says so on standard error and in the warning column. Rows whose x, y or weight is nan or inf \
            (any case) are skipped. --weights names a column of per-point standard deviations (SciPy curve_fit's \
            sigma, relative: the covariance is scaled by the weighted rss / (n − p)). Degenerate data (constant x, \
            fewer distinct x than parameters, values beyond ±1e150) is refused with status 65; a target the curve \
            never reaches is reported in its own row.

            Example (false activations fall to 0.5 % at minimumDuration 1.26 s [1.16, 1.36]):
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

    @Option(help: ArgumentHelp("Column of per-point standard deviations of y (weights 1/σ²).", valueName: "column"))
    var weights: String?

    @Option(help: "linear, logistic or exponential.")
    var model: CurveModel = .linear

    @Option(parsing: .unconditional, help: "A y value: report the x at which the fitted curve reaches it, with an interval.")
    var target: Double?

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if let target, !target.isFinite { throw ValidationError("--target must be a finite number.") }
        try refuseOutputsOverInputs([("--out", output.file)], inputs: [("--data", data)])
    }

    func run() throws {
        try reportingErrors {
            // Streams the two (or three) columns in constant memory beyond the values themselves.
            let names = [x, y] + (weights.map { [$0] } ?? [])
            let read = try CSVNumericColumns.read(path: data, columns: names, nonFinite: .skipNonFiniteRows)
            let xs = read.values[0], ys = read.values[1]
            let sigmas = weights == nil ? [] : read.values[2]
            if let index = sigmas.firstIndex(where: { !($0 > 0) }) {
                throw CSVTableError(path: data, line: read.lines[index],
                                    "weight \(CSV.number(sigmas[index], significant: 6)) (column \(weights ?? "")) must be a standard deviation > 0")
            }
            let skipped = read.skipped
            let result = try CurveFitting.fit(x: xs, y: ys, sigma: weights == nil ? nil : sigmas, model: model, target: target)
            if let warning = result.warning { printNote("warning: \(warning)") }
            try OutputFile(argument: self.output.out).write(Self.csv(result, data: data, hash: read.contentHash, skipped: skipped,
                                                                     weights: weights, commandLine: CommandRecord.line()))
        }
    }

    static func csv(_ result: CurveFitResult, data: String, hash: String, skipped: Int, weights: String?,
                    commandLine: String) -> String {
        let model = result.model
        var provenance: [(String, String)] = [
            ("holdlab", "\(HoldLabVersion.current) fit-curve"),
            ("command", commandLine),
            ("data", "\(data) fnv1a64:\(hash): \(result.points) points used, \(skipped) skipped (nan or inf)"),
            ("model", "\(model.rawValue): \(model.formula)"),
            ("fit", String(format: "rss %.6g, dof %d, r2 %.6f", result.residualSumOfSquares, result.degreesOfFreedom,
                           result.rSquared)),
        ]
        if let weights { provenance.append(("weights", "1/sigma^2 with sigma from column \(weights) (relative, as curve_fit's absolute_sigma=False)")) }
        if let diagnostics = result.diagnostics {
            provenance.append(("solver", String(
                format: "%@ from the best of %d starts; Jacobian rank %d of %d, condition number %.3g, gradient cosine %.2g",
                diagnostics.stop, result.starts, diagnostics.rank, diagnostics.identified.count, diagnostics.conditionNumber,
                diagnostics.relativeGradient)))
        }
        if let target = result.target { provenance.append(("target", "y = \(target.y)")) }
        if let warning = result.warning { provenance.append(("warning", warning)) }
        var output = CSV.provenance(provenance) + "model,parameter,estimate,se,ci95_lo,ci95_hi,start,warning\n"
        let estimates = result.parameters + (result.target.map { [$0.x] } ?? [])
        for estimate in estimates {
            // An interval the data do not support is left empty, never written as ± 0 or NaN-wide.
            let known = estimate.standardError.isFinite
            let numbers = [estimate.value.isFinite ? CSV.number(estimate.value, significant: 8) : ""]
                + [estimate.standardError, estimate.lower, estimate.upper].map { known ? CSV.number($0, significant: 8) : "" }
            let start = estimate.start.map { CSV.number($0, significant: 8) } ?? ""
            let warning = [estimate.note, result.warning].compactMap { $0 }.joined(separator: "; ")
            output += ([model.rawValue, estimate.name] + numbers + [start, CSV.field(warning)]).joined(separator: ",") + "\n"
        }
        return output
    }
}
