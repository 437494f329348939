import HoldSimulation
import HoldLabIO
/// A sensitivity analysis as a sweep: a design (Saltelli or Morris) whose points are simulated like any sweep's
/// (`Sweep.run`, common random numbers, resumable), then analysed per metric.
public struct SensitivityPlan: Sendable {
    public let method: SensitivityMethod
    public let parameters: [SweepParameter]
    /// The Sobol' design (method `.sobol`).
    public let saltelli: SaltelliDesign?
    /// The Morris design and its trajectories (method `.morris`).
    public let morris: MorrisDesign?
    public let trajectories: [MorrisDesign.Trajectory]
    /// The points to simulate, in the design's (SALib's) order.
    public let sweepPlan: SweepPlan

    /// The default number of Morris levels (SALib's).
    public static let defaultLevels = 4

    /// - Parameters:
    ///   - points: N base rows (Sobol') or r trajectories (Morris).
    ///   - levels: p, Morris only (even, 2 to 100).
    ///   - secondOrder: Sobol' only: add the BA rows for S2.
    /// - Throws: `SweepError` (usage) for an empty or repeated `--vary`, a Morris range with a step, a design
    ///   over `SweepPlan.maximumPoints` simulations, or too many parameters.
    public init(method: SensitivityMethod, parameters: [SweepParameter], points: Int, levels: Int = defaultLevels,
                secondOrder: Bool = false, seed: UInt64) throws(SweepError) {
        try SweepPlan.checkParameters(parameters)
        // A factor that takes one value has no effect to measure: its indices would be 0 or NaN, printed as if
        // it had been varied over its range.
        for parameter in parameters {
            switch parameter.values {
            case .range(let start, let stop, let step):
                if start == stop { throw SweepError("--vary \(parameter.text): the range is one value; a factor needs a range start:stop with start ≠ stop") }
                if let step, step > abs(stop - start) {
                    throw SweepError("--vary \(parameter.text): the step \(SweepParameter.format(step)) is wider than the range, so the factor takes one value; give a smaller step, or none")
                }
            case .list(let values):
                if Set(values).count < 2 { throw SweepError("--vary \(parameter.text): a factor needs at least two different values") }
            }
        }
        self.method = method
        self.parameters = parameters
        let d = parameters.count
        switch method {
        case .sobol:
            guard points >= 2 else { throw SweepError("--points: Saltelli's scheme needs at least 2 base rows (got \(points)); 2^k such as 512 balance the Sobol sequence best") }
            if secondOrder && d < 2 { throw SweepError("--second-order needs at least two --vary parameters") }
            let design = SaltelliDesign(baseRows: points, dimensions: d, secondOrder: secondOrder)
            guard points <= SweepPlan.maximumPoints, design.rowCount <= SweepPlan.maximumPoints else {
                throw SweepError("--points \(points) with \(d) parameters is \(points) × \(design.rowsPerBase) simulations; at most \(SweepPlan.maximumPoints)")
            }
            let unit = try design.unitRows()
            saltelli = design
            morris = nil
            trajectories = []
            sweepPlan = SweepPlan(parameters: parameters, design: .saltelli,
                                  chosen: unit.map { row in zip(parameters, row).map { $0.value(at: $1) } })
        case .morris:
            guard points >= 2 else { throw SweepError("--points: Morris screening needs at least 2 trajectories (got \(points)); 10 to 50 are usual") }
            guard levels >= 2, levels <= 100, levels % 2 == 0 else {
                throw SweepError("--levels must be an even number from 2 to 100 (got \(levels)); with an odd p the steps are not symmetric")
            }
            if secondOrder { throw SweepError("--second-order goes with --method sobol") }
            for parameter in parameters {
                if case .range(_, _, let step?) = parameter.values {
                    throw SweepError("--vary \(parameter.text): a Morris range is start:stop (its \(levels) levels are the grid); drop the step :\(SweepParameter.format(step))")
                }
            }
            let design = MorrisDesign(trajectories: points, levels: levels, dimensions: d, seed: seed)
            guard points <= SweepPlan.maximumPoints, design.rowCount <= SweepPlan.maximumPoints else {
                throw SweepError("--points \(points) with \(d) parameters is \(points) × \(d + 1) simulations; at most \(SweepPlan.maximumPoints)")
            }
            let built = design.build()
            saltelli = nil
            morris = design
            trajectories = built
            sweepPlan = SweepPlan(parameters: parameters, design: .morris, chosen: built.flatMap { trajectory in
                trajectory.points.map { row in zip(parameters, row).map { $0.levelValue(at: $1) } }
            })
        }
    }

    /// The design in one provenance line.
    public var description: String {
        if let saltelli {
            return "sobol: Saltelli scheme, N = \(saltelli.baseRows) base rows × \(saltelli.rowsPerBase) = \(saltelli.rowCount) simulations"
                + (saltelli.secondOrder ? " (second order)" : "")
                + ", GSL Sobol sequence of dimension \(2 * saltelli.dimensions), first \(saltelli.skippedPoints) points skipped"
        }
        let morris = morris ?? MorrisDesign(trajectories: 0, levels: 0, dimensions: 0, seed: 0)
        return "morris: r = \(morris.trajectories) trajectories × \(morris.dimensions + 1) = \(morris.rowCount) simulations, p = \(morris.levels) levels, step \(SweepParameter.format(morris.delta)) of each range"
    }

    /// The simulate columns a `--metric` may name: the numeric ones.
    public static var metricColumns: [String] { SimulationCSV.columns.filter(\.isNumeric).map(\.name) }

    /// Checks a `--metric` name.
    public static func checkMetric(_ name: String) throws(SweepError) {
        guard metricColumns.contains(name) else {
            throw SweepError("--metric \(name): not a numeric simulate column; allowed: \(metricColumns.joined(separator: ", "))")
        }
    }

    /// One metric's values from the rows of `Sweep.run` (the CSV text, as the `--samples` file holds them, so an
    /// analysis of a resumed run or of the file by another tool sees exactly the same numbers).
    public func outputs(metric: String, rows: [String]) -> [Double] {
        let column = parameters.count + (SimulationCSV.columns.firstIndex { $0.name == metric } ?? 0)
        return rows.map { row in
            let fields = CSV.fields(row)
            return column < fields.count ? Double(fields[column]) ?? .nan : .nan
        }
    }

    /// The indices of one metric.
    public func analyze(metric: String, rows: [String], bootstrap: SensitivityBootstrap) -> SensitivityResult {
        let values = outputs(metric: metric, rows: rows)
        if let saltelli {
            return SensitivityResult(metric: metric, sobol: SobolIndices.analyze(outputs: values, design: saltelli, bootstrap: bootstrap))
        }
        let morris = morris ?? MorrisDesign(trajectories: 0, levels: 0, dimensions: 0, seed: 0)
        return SensitivityResult(metric: metric, morris: MorrisIndices.analyze(
            outputs: values, design: morris, trajectories: trajectories, bootstrap: bootstrap))
    }
}

/// One metric's indices, or why they are undefined.
public struct SensitivityResult: Sendable {
    public let metric: String
    public let sobol: Result<SobolIndices, UndefinedIndices>?
    public let morris: Result<MorrisIndices, UndefinedIndices>?

    init(metric: String, sobol: Result<SobolIndices, UndefinedIndices>) {
        self.metric = metric
        self.sobol = sobol
        morris = nil
    }

    init(metric: String, morris: Result<MorrisIndices, UndefinedIndices>) {
        self.metric = metric
        self.morris = morris
        sobol = nil
    }

    /// Why the indices are undefined (written NaN), phrased for a note, or nil.
    public func undefinedReason(_ plan: SensitivityPlan) -> String? {
        let failure: UndefinedIndices?
        switch (sobol, morris) {
        case (.failure(let error)?, _), (_, .failure(let error)?): failure = error
        default: failure = nil
        }
        guard let failure else { return nil }
        switch failure.reason {
        case .notFinite(let row):
            let values = plan.sweepPlan.points[row].enumerated().map { "\(plan.parameters[$0.offset].keyPath)=\($0.element)" }
            return "\(metric) is NaN at point \(row + 1) (\(values.joined(separator: ", "))): it has no value there (a statistic over nobody, or one none of the holds it is over had, as a peak pulse rate without two pulses), so its indices are undefined"
        case .constant:
            return "\(metric) does not vary over the design's A and B points: its variance is 0 and its indices are 0/0"
        }
    }
}

/// The index tables of `holdlab sensitivity`: a metric and parameter (names), then the indices.
public enum SensitivityTable {
    /// Columns of the Sobol' table.
    public static let sobolColumns = columns(["metric", "parameter"], ["S1", "S1_lo", "S1_hi", "ST", "ST_lo", "ST_hi"])
    /// Columns of the second-order table.
    public static let secondOrderColumns = columns(["metric", "parameter_1", "parameter_2"], ["S2", "S2_lo", "S2_hi"])
    /// Columns of the Morris table.
    public static let morrisColumns = columns(["metric", "parameter"], ["mu", "mu_star", "mu_star_lo", "mu_star_hi", "sigma"])

    static func columns(_ names: [String], _ numbers: [String]) -> [ResultColumn] {
        names.map { ResultColumn($0, .text) } + numbers.map { ResultColumn($0, .number) }
    }

    /// The main table's columns for `method`.
    public static func columns(_ method: SensitivityMethod) -> [ResultColumn] {
        method == .sobol ? sobolColumns : morrisColumns
    }

    /// Indices keep 15 significant digits: enough to compare with another implementation to 1e-12.
    static func number(_ value: Double) -> ResultCell { .significant(value, digits: 15) }

    /// The main table's rows: per metric, one row per parameter in `--vary` order.
    public static func rows(_ results: [SensitivityResult], plan: SensitivityPlan) -> [[ResultCell]] {
        var rows: [[ResultCell]] = []
        for result in results {
            for (index, parameter) in plan.parameters.enumerated() {
                var cells: [ResultCell] = [.text(result.metric), .text(parameter.keyPath)]
                if let sobol = result.sobol {
                    let indices = try? sobol.get()
                    for estimate in [indices?.first[index], indices?.total[index]] {
                        let e = estimate ?? .undefined
                        cells += [e.value, e.lower, e.upper].map(number)
                    }
                } else if let morris = result.morris {
                    let indices = try? morris.get()
                    let star = indices?.muStar[index] ?? .undefined
                    cells += [indices?.mu[index] ?? .nan, star.value, star.lower, star.upper,
                              indices?.sigma[index] ?? .nan].map(number)
                }
                rows.append(cells)
            }
        }
        return rows
    }

    /// The second-order table's rows: per metric, one row per pair j < k in `--vary` order.
    public static func secondOrderRows(_ results: [SensitivityResult], plan: SensitivityPlan) -> [[ResultCell]] {
        var rows: [[ResultCell]] = []
        let d = plan.parameters.count
        for result in results {
            let indices = try? result.sobol?.get()
            var pair = 0
            for j in 0..<d {
                for k in (j + 1)..<d {
                    let e = indices.flatMap { pair < $0.second.count ? $0.second[pair] : nil } ?? .undefined
                    rows.append([.text(result.metric), .text(plan.parameters[j].keyPath), .text(plan.parameters[k].keyPath)]
                                + [e.value, e.lower, e.upper].map(number))
                    pair += 1
                }
            }
        }
        return rows
    }
}
