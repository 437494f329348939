import ArgumentParser
import Foundation
import HoldFitting
import HoldLabIO

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

            Example (false activations fall to 0.5 % at minimumDuration 1.27 s [1.17, 1.37]):
              holdlab sweep --vary gesture.minimumDuration=0.3:1.5:0.1 --out rates.csv
              holdlab fit-curve --data rates.csv --x param_gesture_minimumDuration \\
                --y false_activation_rate --model exponential --target 0.005
            """)

    @Option(help: ArgumentHelp("CSV file (for example holdlab sweep output).", valueName: "file"), completion: .file())
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

    @OptionGroup var quietOption: QuietOption

    @OptionGroup var view: RowFormatOptions

    func validate() throws {
        if let target, !target.isFinite { throw ValidationError("--target must be a finite number.") }
        try refuseOutputsOverInputs([("--out", output.file)], inputs: [("--data", data)])
    }

    func run() throws {
        try reportingErrors {
            let request = CurveFitRequest(path: data, x: x, y: y, weights: weights, model: model, target: target,
                                          commandLine: CommandRecord.line())
            let report = try request.run()
            if let warning = report.fit.warning { printNote("warning: \(warning)") }
            let out = OutputFile(argument: output.out)
            try out.writeLast(view.render(report.document, for: out))
        }
    }
}
