import Foundation
import GSL
import HoldLabIO

/// `holdlab fit-curve`: a curve fitted to two columns of a CSV file (sweep output) by least squares, and with a
/// target the x that reaches it.
public struct CurveFitRequest: Sendable {
    /// The CSV file.
    public var path: String
    /// The columns of x and y values.
    public var x: String
    public var y: String
    /// The column of per-point standard deviations of y (weights 1/σ²), or nil.
    public var weights: String?
    public var model: CurveModel
    /// A y value: the x at which the fitted curve reaches it is reported, with an interval.
    public var target: Double?
    /// The command line the result records (`CommandRecord.line`).
    public var commandLine: String

    public init(path: String, x: String, y: String, weights: String? = nil, model: CurveModel = .linear,
                target: Double? = nil, commandLine: String) {
        self.path = path
        self.x = x
        self.y = y
        self.weights = weights
        self.model = model
        self.target = target
        self.commandLine = commandLine
    }

    /// The result's columns: the model and parameter (names), the estimate, its standard error and 95 % interval
    /// and the solver's start (8 significant digits; empty where the data do not support them), and a warning.
    public static let columns = [
        ResultColumn("model", .text), ResultColumn("parameter", .text), ResultColumn("estimate", .number),
        ResultColumn("se", .number), ResultColumn("ci95_lo", .number), ResultColumn("ci95_hi", .number),
        ResultColumn("start", .number), ResultColumn("warning", .text),
    ]

    /// Reads the columns (streaming; rows with a nan or inf value skipped), fits the curve and returns the fit with
    /// the typed result.
    ///
    /// - Throws: `CSVTableError` for a file that cannot be read (a weight that is not > 0 names its line),
    ///   `CurveFitError` or `GSLError` for data that cannot be fitted.
    public func run() throws -> CurveFitReport {
        let names = [x, y] + (weights.map { [$0] } ?? [])
        let read = try CSVNumericColumns.read(path: path, columns: names, nonFinite: .skipNonFiniteRows)
        let sigmas = weights == nil ? [] : read.values[2]
        if let index = sigmas.firstIndex(where: { !($0 > 0) }) {
            throw CSVTableError(path: path, line: read.lines[index],
                                "weight \(CSV.number(sigmas[index], significant: 6)) (column \(weights ?? "")) must be a standard deviation > 0")
        }
        // What cannot be fitted names the file and columns it came from (GSL's own failures too).
        let fit: CurveFitResult
        do {
            fit = try CurveFitting.fit(x: read.values[0], y: read.values[1], sigma: weights == nil ? nil : sigmas,
                                       model: model, target: target)
        } catch let error as CurveFitError {
            throw CurveFitError("\(path) (x \(x), y \(y)): \(error.message)")
        } catch let error as GSLError {
            throw CurveFitError("\(path) (x \(x), y \(y)): the \(model.rawValue) fit failed: \(error.explanation); rescale the columns to magnitudes from 1e-150 to 1e150")
        }
        let table = ResultTable(provenance: provenance(fit, hash: read.contentHash, skipped: read.skipped),
                                columns: Self.columns, rows: Self.rows(fit))
        return CurveFitReport(fit: fit, document: ResultDocument(table))
    }

    func provenance(_ fit: CurveFitResult, hash: String, skipped: Int) -> Provenance {
        var provenance = Provenance.made(by: "fit-curve", commandLine: commandLine)
        provenance.append("data", "\(path) fnv1a64:\(hash): \(fit.points) points used, \(skipped) skipped (nan or inf)")
        provenance.append("model", "\(model.rawValue): \(model.formula)")
        provenance.append("fit", String(format: "rss %.6g, dof %d, r2 %.6f", fit.residualSumOfSquares, fit.degreesOfFreedom,
                                        fit.rSquared))
        if let weights {
            provenance.append("weights", "1/sigma^2 with sigma from column \(weights) (relative, as curve_fit's absolute_sigma=False)")
        }
        if let diagnostics = fit.diagnostics {
            provenance.append("solver", String(
                format: "%@ from the best of %d starts; Jacobian rank %d of %d, condition number %.3g, gradient cosine %.2g",
                diagnostics.stop, fit.starts, diagnostics.rank, diagnostics.identified.count, diagnostics.conditionNumber,
                diagnostics.relativeGradient))
        }
        if let target = fit.target { provenance.append("target", "y = \(target.y)") }
        if let warning = fit.warning { provenance.append("warning", warning) }
        return provenance
    }

    /// One row per parameter and, with a target, the row `x_at_target`. An interval the data do not support is
    /// left empty, never written as ± 0 or NaN-wide.
    static func rows(_ fit: CurveFitResult) -> [[ResultCell]] {
        let empty = ResultCell.formatted("", value: nil)
        return (fit.parameters + (fit.target.map { [$0.x] } ?? [])).map { estimate in
            let known = estimate.standardError.isFinite
            // 8 significant digits, more (up to 17) where the se is below the estimate's eighth: the estimate and the
            // interval's ends then stay apart (an x far from 0 that spans little: 100000000.0000056 ± 1.7e-8).
            let relative = known && estimate.standardError > 0 ? abs(estimate.value) / estimate.standardError : 0
            let digits = relative > 1e5 ? Swift.min(17, Int(log10(relative).rounded(.up)) + 3) : 8
            let value: ResultCell = estimate.value.isFinite ? .significant(estimate.value, digits: digits) : empty
            let spread = [estimate.standardError, estimate.lower, estimate.upper].map {
                known ? ResultCell.significant($0, digits: $0 == estimate.standardError ? 8 : digits) : empty
            }
            let start = estimate.start.map { ResultCell.significant($0, digits: 8) } ?? empty
            let warning = [estimate.note, fit.warning].compactMap { $0 }.joined(separator: "; ")
            return [.text(fit.model.rawValue), .text(estimate.name), value] + spread + [start, .text(warning)]
        }
    }
}

/// What `holdlab fit-curve` found: the fit and the result every format is rendered from.
public struct CurveFitReport: Sendable {
    public let fit: CurveFitResult
    /// One row per parameter (and the target's x): ``CurveFitRequest/columns``.
    public let document: ResultDocument
}
