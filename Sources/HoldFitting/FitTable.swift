import HoldLabIO

/// The result `holdlab fit` writes: one row per family fitted, typed.
public enum FitTable {
    /// The parameter columns, each followed by its `_se` column; a family fills the ones it has, NaN elsewhere.
    /// `sigma` is shared by lognormal and exgaussian, `shape` and `scale` by gamma, weibull and loglogistic.
    public static let parameterColumns = ["zeta", "sigma", "shape", "scale", "mu", "tau"]

    /// The columns, in order: the family (a name), its row counts, loglik, AIC and BIC, the KS distance and its
    /// bootstrap p-value, whether it is the best (lowest AIC), each parameter with its standard error, and the
    /// p-value's Monte Carlo standard error.
    public static let columns: [ResultColumn] = [
        ResultColumn("family", .text), ResultColumn("n", .integer), ResultColumn("censored", .integer),
        ResultColumn("loglik", .number), ResultColumn("aic", .number), ResultColumn("bic", .number),
        ResultColumn("ks_stat", .number), ResultColumn("ks_pvalue", .number), ResultColumn("best", .boolean),
    ] + parameterColumns.flatMap { [ResultColumn($0, .number), ResultColumn("\($0)_se", .number)] }
        + [ResultColumn("ks_pvalue_mcse", .number)]

    /// The column names, in order.
    public static var columnNames: [String] { columns.map(\.name) }

    /// One row: loglik, aic and bic to 4 decimals, ks_stat to 6, ks_pvalue to 4 (NaN without a bootstrap),
    /// parameters and standard errors to 9 significant digits (NaN where the family has none), ks_pvalue_mcse (the
    /// p-value's Monte Carlo standard error √(p(1 − p)/B)) to 4 decimals.
    public static func row(_ fit: FamilyFit, isBest: Bool) -> [ResultCell] {
        var cells: [ResultCell] = [
            .text(fit.family.rawValue), .integer(fit.count), .integer(fit.censoredCount),
            .number(fit.logLikelihood, decimals: 4), .number(fit.aic, decimals: 4), .number(fit.bic, decimals: 4),
            .number(fit.ksStatistic, decimals: 6), .number(fit.ksPValue, decimals: 4), .boolean(isBest),
        ]
        for name in parameterColumns {
            cells.append(.significant(fit.value(of: name), digits: 9))
            cells.append(.significant(fit.standardError(of: name), digits: 9))
        }
        cells.append(.number(fit.ksPValueStandardError, decimals: 4))
        return cells
    }

    /// The fits of `report` as one block: its provenance (tool version, command, data file with its hash and row
    /// counts, unit, censoring, bootstrap, warnings, best family) and one row per fit.
    public static func table(_ report: FitReport, data: FitDataSet, commandLine: String) -> ResultTable {
        var provenance = Provenance.made(by: "fit", commandLine: commandLine)
        provenance.append("data", "\(data.request.path == "-" ? "standard input" : data.request.path) fnv1a64:\(data.contentHash)")
        provenance.append("rows", rowsText(data))
        provenance.append("unit", unitText(data))
        provenance.append("censoring", censoringText(data))
        provenance.append("bootstrap", bootstrapText(report, rows: data.sample.count))
        for fit in report.fits {
            for warning in warnings(fit) { provenance.append("warning", warning) }
        }
        provenance.append("best", "\(report.best.family.rawValue) (lowest AIC)")
        let rows = report.fits.indices.map { row(report.fits[$0], isBest: $0 == report.bestIndex) }
        return ResultTable(provenance: provenance, columns: columns, rows: rows)
    }

    /// What a reader of a fit should be told: no convergence, no standard errors, or a positive parameter within one
    /// standard error of 0 (the family's edge, e.g. an exgaussian tau → 0 on data without right skew, where the
    /// normal approximation behind the standard error fails).
    public static func warnings(_ fit: FamilyFit) -> [String] {
        let family = fit.family.rawValue
        var warnings: [String] = []
        if !fit.converged { warnings.append("\(family): Nelder–Mead did not converge; the estimates may be off") }
        if fit.covariance == nil {
            warnings.append("\(family): the observed information is not positive definite (an estimate at the edge of "
                            + "the family?), so the standard errors are NaN")
        } else {
            for (index, name) in fit.family.parameterNames.enumerated() where index != fit.family.locationIndex
                && fit.parameters[index] < fit.standardErrors[index] {
                warnings.append("\(family): \(name) = \(significant(fit.parameters[index])) ± "
                                + "\(significant(fit.standardErrors[index])) is within one standard error of 0, the edge "
                                + "of the family; its standard error is not reliable there")
            }
        }
        return warnings
    }

    static func bootstrapText(_ report: FitReport, rows: Int) -> String {
        guard report.bootstrapReplicates > 0 else { return "none (ks_pvalue NaN)" }
        let text = "\(report.bootstrapReplicates) replicates per family, seed \(report.seed)"
        guard report.bootstrapDrawSize < rows else { return text + "; each draws all \(rows) rows" }
        return text + "; each draws \(report.bootstrapDrawSize) of the \(rows) rows and compares √m·D_b with √n·D "
            + "(--bootstrap-size); ks_pvalue_mcse is the Monte Carlo standard error"
    }

    static func rowsText(_ data: FitDataSet) -> String {
        var text = "\(data.sample.count) fitted (\(data.sample.censoredCount) censored) of \(data.rowsInFile) in the file"
        if !data.request.filters.isEmpty {
            let filters = data.request.filters.map { "\($0.column)=\($0.value)" }.joined(separator: ", ")
            text += "; \(data.rowsFiltered) skipped by --where \(filters)"
        }
        return text
    }

    static func unitText(_ data: FitDataSet) -> String {
        let column = data.request.column
        if data.request.scale != nil { return "\(column) × \(data.scale) (--scale)" }
        switch data.scale {
        case 0.001: return "\(column) in milliseconds × 0.001 = seconds (from the column name)"
        case 1e-6: return "\(column) in microseconds × 1e-06 = seconds (from the column name)"
        default: return "\(column) taken as seconds (scale 1, from the column name)"
        }
    }

    static func censoringText(_ data: FitDataSet) -> String {
        guard let column = data.request.censoredColumn else { return "none" }
        var text = data.request.censoredValues.isEmpty
            ? "column \(column) (1/true censored, 0/false observed)"
            : "column \(column) = \(data.request.censoredValues.joined(separator: " or "))"
        if let timeColumn = data.request.censorTimeColumn { text += "; censored times from \(timeColumn)" }
        return text + "; the likelihood uses ln S at censored times"
    }

    /// `%.9g`, or NaN when not finite: a warning's figures, as the table writes them.
    static func significant(_ value: Double) -> String { CSV.number(value, significant: 9) }
}
