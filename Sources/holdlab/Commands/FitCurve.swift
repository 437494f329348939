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

    @Option(help: "A y value: report the x at which the fitted curve reaches it, with an interval.")
    var target: Double?

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if let target, !target.isFinite { throw ValidationError("--target must be a finite number.") }
    }

    /// A CSV field as a number: decimal, or nan / inf / infinity in any case with an optional sign (as NumPy, pandas
    /// and R write them); nil for anything else. Kept apart so a faster numeric reader can replace it.
    static func number(_ field: String) -> Double? {
        // The common case first: a plain decimal, parsed without Foundation.
        if let value = Double(field) { return value }
        let trimmed = field.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        if let value = Double(trimmed) { return value }
        let lower = trimmed.lowercased()
        let unsigned = lower.hasPrefix("-") || lower.hasPrefix("+") ? String(lower.dropFirst()) : lower
        switch unsigned {
        case "nan": return .nan
        case "inf", "infinity": return lower.hasPrefix("-") ? -.infinity : .infinity
        default: return nil
        }
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
            let sigmaIndex = try weights.map { try table.column($0) }
            var xs: [Double] = [], ys: [Double] = [], sigmas: [Double] = []
            var skipped = 0
            for (line, fields) in table.rows {
                let columns = [xIndex, yIndex] + (sigmaIndex.map { [$0] } ?? [])
                let numbers = columns.map { Self.number(fields[$0]) }
                guard numbers.allSatisfy({ $0 != nil }) else {
                    let names = ([x, y] + (weights.map { [$0] } ?? [])).joined(separator: ", ")
                    let quoted = columns.map { "'\(fields[$0])'" }.joined(separator: ", ")
                    throw CSVTableError(path: data, line: line, "\(quoted) are not \(columns.count == 2 ? "both" : "all") numbers (columns \(names))")
                }
                let values = numbers.compactMap { $0 }
                // nan and ±inf are missing values: skipped and counted.
                guard values.allSatisfy(\.isFinite) else { skipped += 1; continue }
                if sigmaIndex != nil, !(values[2] > 0) {
                    throw CSVTableError(path: data, line: line, "weight '\(fields[sigmaIndex ?? 0])' (column \(weights ?? "")) must be a standard deviation > 0")
                }
                xs.append(values[0])
                ys.append(values[1])
                if sigmaIndex != nil { sigmas.append(values[2]) }
            }
            let result = try CurveFitting.fit(x: xs, y: ys, sigma: sigmaIndex == nil ? nil : sigmas, model: model, target: target)
            if let warning = result.warning { printNote("warning: \(warning)") }
            try OutputFile(argument: self.output.out).write(Self.csv(result, data: data, text: text, skipped: skipped,
                                                                     weights: weights, commandLine: typedCommandLine()))
        }
    }

    static func csv(_ result: CurveFitResult, data: String, text: String, skipped: Int, weights: String?,
                    commandLine: String) -> String {
        let model = result.model
        var provenance: [(String, String)] = [
            ("holdlab", "\(HoldLabVersion.current) fit-curve"),
            ("command", commandLine),
            ("data", "\(data) fnv1a64:\(fnv1a64Hex(text)): \(result.points) points used, \(skipped) skipped (nan or inf)"),
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
