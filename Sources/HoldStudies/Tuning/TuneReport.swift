import Foundation
import GSL
import HoldLabIO
import HoldProfiles
import HoldSimulation

/// What `tune` reports: its CSV (the trajectory and the check) and the summary on standard error.
public enum TuneReport {
    /// A recommended value to the digits its uncertainty supports: two significant digits of its standard error
    /// when a constraint's boundary sets it, else of the search's resolution (`resolution`); as evaluated otherwise.
    /// Never a value outside `range`: a wide range's resolution (0.5:1e6 searches to 100) would round a best point
    /// of 0.5 to 0, a value the search never tried and the range excludes, so digits are added until it is inside.
    public static func recommended(_ value: Double, standardError: Double?, resolution: Double,
                                   range: ClosedRange<Double>) -> String {
        let uncertainty = standardError.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? resolution
        guard uncertainty.isFinite, uncertainty > 0 else { return SweepParameter.format(value) }
        for decimals in max(0, 1 - Int(floor(log10(uncertainty))))...17 {
            let text = String(format: "%.\(decimals)f", value)
            if let rounded = Double(text), range.contains(rounded) { return text }
        }
        return SweepParameter.format(value)
    }

    /// The tune output: the trajectory (block 0) and the optimum re-simulated at the check seed (block 1).
    public static func document(_ request: TuneRequest, result: TuneResult, commandLine: String, base: Profile) -> ResultDocument {
        var provenance = Provenance.made(by: "tune", commandLine: commandLine)
        provenance.append("profile", "\(base.name) fnv1a64:\(base.contentHash)")
        provenance.append("population", "\(request.population.name) fnv1a64:\(request.population.contentHash)")
        provenance.append("method", "\(result.method), \(result.trajectory.count) evaluations, converged \(result.converged)")
        provenance.append("confidence", "rate constraints hold for the rate's one-sided Wilson bound at \(request.confidence)")
        provenance.append("users", "\(request.users) per evaluation, seed \(request.seed); check seed \(request.checkSeed)")
        provenance.append("rng", request.rng.rawValue)
        if let precision = request.precision {
            let short = result.trajectory.filter { !precision.outcome([$0.summary], cap: request.users).met }.count
            let check = precision.outcome([result.check], cap: request.users)
            provenance.append("precision", "\(precision): each evaluation stops at the first chunk of \(Simulator.chunkSize) users where every target is met (its users column says where), at most the users above; "
                + "\(result.trajectory.count - short) of \(result.trajectory.count) evaluations met it; the check: \(check.provenanceValue)")
        }
        provenance.append("recommended", assignments(request, result.best)
            + (result.objectiveUndefined ? " (\(request.objective.metric.name) is undefined at every point that meets the constraints: nothing to recommend)"
               : result.best.feasible ? "" : " (violates a constraint: no point in the range is feasible)"))
        for (parameter, boundary) in zip(request.parameters, result.boundaries) {
            guard let boundary else { continue }
            provenance.append("boundary", "\(parameter.keyPath) is set by \(boundary.constraint), "
                              + Self.standardErrorText(request, boundary))
        }
        if let first = result.invalidCandidates.first {
            provenance.append("skipped", "\(result.invalidCandidates.count) candidates that are not valid profiles, e.g. \(first)")
        }
        provenance.append("index 0", "the trajectory, one row per evaluation")
        let metrics = [request.objective.metric] + request.constraints.map(\.metric)
        var seen: Set<String> = []
        let metricColumns = metrics.filter { $0.parameterIndex == nil && seen.insert($0.name).inserted }
        func unit(_ name: String) -> String { SimulationCSV.columns.first { $0.name == name }?.unit ?? "" }
        let parameterColumns = request.parameters.map { ResultColumn($0.column, .number) }
        // With --precision each evaluation stops on its own: its users say where (without it, every one took --users).
        let usersColumn = request.precision == nil ? [] : [ResultColumn("users", .integer)]
        let trajectory = ResultTable(
            provenance: provenance,
            columns: [ResultColumn("evaluation", .integer)] + parameterColumns
                + ["score", "objective", "penalty"].map { ResultColumn($0, .number) } + [ResultColumn("feasible", .boolean)]
                + usersColumn + metricColumns.map { ResultColumn($0.name, .number, unit: unit($0.name)) },
            rows: result.trajectory.map { evaluation in
                [ResultCell.integer(evaluation.index)] + evaluation.values.map(parameterCell)
                    // A feasible point whose objective is undefined scores the minimisers' stand-in (the largest
                    // double) internally; the CSV says NaN, as its objective does.
                    + [evaluation.score == Minimization.nonFinitePenalty ? .nan : evaluation.score, evaluation.objective,
                       evaluation.penalty].map { .significant($0, digits: 10) }
                    + [.boolean(evaluation.feasible)]
                    + (usersColumn.isEmpty ? [] : [ResultCell.integer(evaluation.summary.users)])
                    + metricColumns.map { .significant($0.value(values: evaluation.values, summary: evaluation.summary), digits: 10) }
            })
        let check = ResultTable(
            provenance: Provenance([("index 1", "the optimum re-simulated with seed \(request.checkSeed)")]),
            columns: parameterColumns + SimulationCSV.resultColumns,
            rows: [result.best.values.map(parameterCell) + SimulationCSV.cells(result.check)])
        return ResultDocument([trajectory, check])
    }

    /// The note for the trajectory's NaN cells: the metrics an evaluation had no value of, each with its reason
    /// (`SimulationSummary.whyUndefined`), and so its objective where the objective is one; nil when every
    /// evaluation had every value.
    public static func trajectoryUndefinedNote(_ request: TuneRequest, result: TuneResult) -> String? {
        let metrics = ([request.objective.metric] + request.constraints.map(\.metric)).filter { $0.parameterIndex == nil }
        var reasons = NameGroups()
        var affected = 0
        for evaluation in result.trajectory {
            var any = false
            for metric in metrics {
                guard let why = evaluation.summary.whyUndefined(metric.name) else { continue }
                any = true
                reasons.add(metric.name, to: why)
            }
            if any { affected += 1 }
        }
        guard !reasons.isEmpty else { return nil }
        let objective = metrics.first.map { metric in
            reasons.names.joined().contains(metric.name) && metric == request.objective.metric ? "; the objective is then NaN too" : ""
        } ?? ""
        return "note: undefined values are written as NaN (\(affected) of \(result.trajectory.count) evaluations): "
            + reasons.joined { "\($0) (\($1))" } + objective
    }

    /// A tuned value as the search evaluated it (`SweepParameter.format`).
    static func parameterCell(_ value: Double) -> ResultCell { .formatted(SweepParameter.format(value), value: value) }

    /// The values of an evaluation as `key=value …`, as the CSV prints them.
    static func assignments(_ request: TuneRequest, _ evaluation: TuneEvaluation) -> String {
        zip(request.parameters, evaluation.values).map { "\($0.keyPath)=\(SweepParameter.format($1))" }.joined(separator: " ")
    }

    /// Why a search recommends nothing, for standard error beside `summary`: the objective undefined wherever the
    /// constraints hold, or the constraint that fails at the least violating point and by how much (an undefined
    /// value meets no bound: the least violating point has it, so every point violates by at least as much); nil for
    /// a recommendation.
    ///
    /// - Parameter profileRequested: `--emit-profile` was given (and is not written).
    public static func noRecommendation(_ request: TuneRequest, result: TuneResult, profileRequested: Bool) -> String? {
        guard !result.feasible else { return nil }
        let written = profileRequested ? "; no profile written" : ""
        if result.objectiveUndefined {
            return "no point in the range has a value of \(request.objective.metric.name) to optimise\(written)"
        }
        guard let worst = Tuner.worstViolation(request, at: result.best) else { return nil }
        let at = assignments(request, result.best)
        guard worst.value.isFinite else {
            let name = worst.constraint.metric.name
            return "no point in the range meets \(worst.constraint.text): at best (\(at)) \(name) is undefined (\(result.best.summary.whyUndefined(name) ?? "no value")), which meets no bound\(written)"
        }
        let proportion = worst.constraint.metric.proportion(result.best.summary)
        let bound = proportion != nil && request.confidence > 0.5
            ? String(format: " (its %g Wilson bound)", request.confidence) : ""
        return String(format: "no point in the range meets %@: at best (%@) it reaches %.4g%@, %.4g beyond the bound%@%@",
                      worst.constraint.text, at, worst.value, bound, worst.excess,
                      proportion.map { tooFewUsers(request, worst.constraint, $0, users: result.best.summary.users) } ?? "", written)
    }

    /// For a rate constraint that no rate could meet with this many people in its denominator (even 0 events of
    /// 300 give a one-sided 95 % Wilson bound of 0.009, above a bound of 0.005): says so, and about how many users
    /// would let the best possible count pass, so that "no point meets" is not read as "no design can". Empty
    /// otherwise.
    static func tooFewUsers(_ request: TuneRequest, _ constraint: TuneConstraint, _ proportion: Proportion, users simulated: Int) -> String {
        guard request.confidence > 0.5, proportion.trials > 0, constraint.bound > 0, constraint.bound < 1 else { return "" }
        let z = Distribution.normal(mean: 0, sd: 1).quantile(request.confidence)
        // The best count for the constraint: none for METRIC<=V, all for METRIC>=V; its bound is z²/(n + z²) from
        // the nearer end (Wilson's interval at p = 0 or 1).
        let n = Double(proportion.trials), z2 = z * z
        let reach = z2 / (n + z2)
        let distance = constraint.atMost ? constraint.bound : 1 - constraint.bound
        guard reach > distance else { return "" }
        // n ≥ z²(1 − d)/d people in the denominator let the best count pass; users in proportion.
        let needed = z2 * (1 - distance) / distance
        let users = (needed * Double(simulated) / n).rounded(.up)
        let best = constraint.atMost ? "0 events" : "every one"
        // With --precision an evaluation may stop before --users: the users it takes are the precision's to raise.
        let precise = request.precision == nil ? "" : " and a --precision that runs that far"
        return String(format: "; with %d people in its denominator (of %d users) even %@ would give a bound of %.4g, so no design can meet it: give --users about %.0f or more%@, or --confidence 0.5 to hold the rate itself",
                      proportion.trials, simulated, best, constraint.atMost ? reach : 1 - reach, users, precise)
    }

    /// "holds" or "VIOLATED" for `constraint` at the check seed, decided as the search decides it: on `held`, the
    /// rate's one-sided Wilson bound at `confidence` (`TuneConstraint.heldValue`; the value itself at 0.5 and for
    /// other metrics). A bound that is not the value is said (`VIOLATED: its 0.95 Wilson bound 0.985`: the rate
    /// 1.000 shown beside a verdict of "holds" contradicted the search's "no point meets"); a value that, as `shown`
    /// to its interval's digits, reads as the bound or on its other side (0.0051 shown as 0.005) is said too. Either
    /// to the fewest significant digits that put it on its own side of the bound.
    static func verdict(_ constraint: TuneConstraint, value: Double, held: Double, confidence: Double, shown: String) -> String {
        let holds = constraint.violation(held) == 0
        let word = holds ? "holds" : "VIOLATED"
        func digits(_ x: Double) -> String? {
            (2...17).lazy.map { String(format: "%.*g", $0, x) }.first { text in
                Double(text).map { (constraint.violation($0) == 0) == holds && $0 != constraint.bound } ?? false
            }
        }
        guard held.isFinite else { return word }
        if held != value {
            return digits(held).map { "\(word): its \(String(format: "%g", confidence)) Wilson bound \($0)" } ?? word
        }
        guard let printed = Double(shown.prefix { !$0.isWhitespace }),
              (constraint.violation(printed) == 0) != holds || printed == constraint.bound else { return word }
        return digits(value).map { "\(word): \($0)" } ?? word
    }

    /// A standard error to two significant digits, a trailing zero kept (`0.0010`, `0.10`; `%.2g` printed 0.001
    /// beside a value printed to 0.0001).
    /// What a boundary without a standard error says in its place: only a rate's or a mean's sampling error, over a
    /// slope across the boundary, gives one (a quantile's or extreme's constraint printed `± nan` in 0.3.16).
    static let noStandardError = "no standard error: only a rate or mean constraint whose value moves across the boundary gives one"

    /// What a boundary a mean moves in steps across says in place of a standard error (`Tuner.slopeSteadiness`).
    static let steppedMean = "no standard error: the mean moves in steps across the boundary (its secant over a window four "
        + "times as wide differs by more than a factor 2), so its sampling error over a local slope says little about the boundary"

    /// Why a boundary has no standard error: `steppedMean` for the +infinity `Tuner` gives a stepped mean's.
    static func noStandardError(_ standardError: Double) -> String {
        standardError == .infinity ? steppedMean : noStandardError
    }

    /// The boundary's standard error and where it comes from (the provenance line's words).
    static func standardErrorText(_ request: TuneRequest, _ boundary: (constraint: String, standardError: Double)) -> String {
        guard boundary.standardError.isFinite else { return noStandardError(boundary.standardError) }
        let metric = request.constraints.first { $0.text == boundary.constraint }.flatMap { Metric.named($0.metric.name) }
        let isMean = if case .mean? = metric?.kind { true } else { false }
        if boundary.standardError == 0 { return "standard error 0: the mean does not vary between people at the boundary" }
        return "standard error \(twoDigits(boundary.standardError)) from the \(isMean ? "mean" : "rate")'s sampling error"
    }

    static func twoDigits(_ x: Double) -> String {
        guard x.isFinite else { return "\(x)" }
        if x == 0 { return "0" }
        var text = String(format: "%#.2g", x)
        // %#g keeps a point with nothing after it (`12.`).
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    public static func summary(_ request: TuneRequest, result: TuneResult) -> String {
        let values = zip(request.parameters, zip(result.best.values, result.boundaries)).map { parameter, pair in
            let (value, boundary) = pair
            let se = boundary.map {
                $0.standardError.isFinite ? " (± \(Self.twoDigits($0.standardError)), set by \($0.constraint))"
                    : " (set by \($0.constraint); \(Self.noStandardError($0.standardError)))"
            } ?? ""
            // Brent stops within 1e-4 of the range, Nelder–Mead at a simplex of 1e-3 of the unit box.
            let resolution = (parameter.upper - parameter.lower) * (request.parameters.count == 1 ? 1e-4 : 1e-3)
            let text = Self.recommended(value, standardError: boundary?.standardError, resolution: resolution,
                                        range: parameter.lower...parameter.upper)
            return "\(parameter.keyPath)=\(text)\(se)"
        }
        let objectiveName = request.objective.metric.name
        let ending = result.objectiveUndefined ? "stopped"
            : result.converged ? "converged" : "stopped (a step-shaped objective stalls the search; the best point is kept)"
        let feasibility = result.objectiveUndefined ? "; \(objectiveName) is undefined at every point that meets the constraints"
            : result.feasible ? "" : "; no point meets every constraint"
        var lines = ["tune: \(result.method) \(ending) after \(result.trajectory.count) evaluations\(feasibility)",
                     result.feasible ? "recommended: \(values.joined(separator: " "))"
                        : result.objectiveUndefined ? "nothing to recommend: \(objectiveName) is undefined at every point (\(result.best.summary.whyUndefined(objectiveName) ?? "no value") at \(values.joined(separator: " ")), seed \(request.seed))"
                        : "least violating: \(values.joined(separator: " ")) (violates a constraint at seed \(request.seed))"]
        let check = result.check
        // To the interval's digits, as the metric lines below (four fixed decimals printed [0.0000, 0.0000] for an
        // interval the next line printed [0.00000, 0.00005]).
        func rate(_ name: String, _ p: Proportion) -> String {
            guard let r = p.rate, let ci = p.wilson95 else { return "\(name) NaN" }
            return "\(name) " + NumberText.withInterval("\(r)", "\(ci.lower)", "\(ci.upper)")
        }
        lines.append("check (seed \(request.checkSeed)): " + [
            rate("completion_rate", check.completion), rate("false_activation_rate", check.falseActivation),
            rate("premature_release_rate", check.prematureRelease),
        ].joined(separator: ", "))
        // A metric at the check seed to the digits it is known to: a rate with its 95 % Wilson interval (to the
        // interval's first significant digit), a mean with its 95 % t interval (its `_lo`/`_hi` columns), a tuned
        // value as recommended above, another column to 4 digits.
        func shown(_ metric: TuneMetric) -> String {
            if let index = metric.parameterIndex { return String(values[index].split(separator: "=", maxSplits: 1)[1].prefix { $0 != " " }) }
            let value = metric.value(values: result.best.values, summary: check)
            if !value.isFinite, let why = check.whyUndefined(metric.name) { return "undefined (\(why))" }
            if let proportion = metric.proportion(check), let ci = proportion.wilson95 {
                return NumberText.withInterval("\(value)", "\(ci.lower)", "\(ci.upper)")
            }
            func column(_ suffix: String) -> Double? {
                SimulationCSV.columns.first { $0.name == metric.name + suffix }?.numericValue(check)
            }
            if let lower = column("_lo"), let upper = column("_hi"), upper > lower {
                return NumberText.withInterval("\(value)", "\(lower)", "\(upper)")
            }
            return String(format: "%.4g", value)
        }
        switch request.objective {
        case .target(let metric, let goal):
            lines.append(String(format: "  %@: %@ at the check seed (target %g)", metric.name, shown(metric), goal))
        case .minimize(let metric), .maximize(let metric):
            lines.append("  \(metric.name): \(shown(metric)) at the check seed")
        }
        let z = Distribution.normal(mean: 0, sd: 1).quantile(request.confidence)
        for constraint in request.constraints {
            let value = constraint.metric.value(values: result.best.values, summary: check)
            let held = constraint.heldValue(values: result.best.values, summary: check, z: z)
            let text = shown(constraint.metric)
            let said = constraint.metric.parameterIndex == nil
                ? verdict(constraint, value: value, held: held, confidence: request.confidence, shown: text)
                : (constraint.violation(held) == 0 ? "holds" : "VIOLATED")
            lines.append("  \(constraint.text): \(text) at the check seed (\(said))")
        }
        return lines.joined(separator: "\n")
    }
}
