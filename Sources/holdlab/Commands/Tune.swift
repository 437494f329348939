import ArgumentParser
import Foundation
import HoldProfiles
import HoldSimulation
import GSL

struct Tune: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find the parameter values that optimise a metric under constraints, by simulation.",
        discussion: """
            Every evaluation simulates the profile with the same seed (common random numbers). Feasibility comes \
            first: a point that meets every constraint beats one that does not; feasible points compare by the \
            objective, infeasible ones by their total violation. One --param: a 21-point scan of the range; a \
            constraint whose feasibility switches once along it has its boundary found by root finding, then GSL's \
            Brent minimiser works inside the feasible interval (an optimum at a scan end is refined). Several: \
            Nelder–Mead on the unit box, started from a Sobol scan and restarted with shrinking steps. A rate \
            constraint (a *_rate column) must hold for the rate's one-sided Wilson bound at --confidence (default \
            0.95; 0.5 uses the rate itself), so the recommendation keeps its promise on a fresh seed. When no point \
            meets the constraints, tune says which one fails by how much and exits with status 1. The CSV has two \
            blocks (gnuplot index 0 and 1): the trajectory, one row per evaluation, then the optimum re-simulated \
            with --check-seed, with its simulate columns and intervals.

            Examples (the first exits 1: premature releases stay near 12 % at every minimumDuration, and tune says \
            so; the second lands on 1,700 ms with 35 pulses):
              holdlab tune --profile hig-linear-bar \\
                --param gesture.minimumDuration=0.3:1.5 \\
                --minimize gesture.minimumDuration \\
                --constraint "false_activation_rate<=0.005" \\
                --constraint "premature_release_rate<=0.02"
              holdlab tune --profile kikocard-accelerating \\
                --param fill.timer.acceleration=0.00003:0.0002 \\
                --param haptics.threshold=0.005:0.05 \\
                --target completion_time_mean_ms=1700 \\
                --constraint "pulses_max<=40" --emit-profile kikocard-tuned.yaml
            """)

    @OptionGroup var source: ProfileSourceOptions

    @Option(help: ArgumentHelp("Profile name or YAML file.", valueName: "name|file"))
    var profile: String = "hig-linear-bar"

    @Option(help: ArgumentHelp("A profile key and its range, key=lo:hi (repeatable).", valueName: "key=lo:hi"))
    var param: [String] = []

    @Option(help: ArgumentHelp("Minimise a simulate column or a --param key.", valueName: "metric"))
    var minimize: String?

    @Option(help: ArgumentHelp("Maximise a simulate column or a --param key.", valueName: "metric"))
    var maximize: String?

    @Option(help: ArgumentHelp("Bring a metric to a value: minimise (metric − value)².", valueName: "metric=value"))
    var target: String?

    @Option(help: ArgumentHelp("METRIC<=VALUE or METRIC>=VALUE (repeatable).", valueName: "constraint"))
    var constraint: [String] = []

    @Option(parsing: .unconditional, help: ArgumentHelp("A rate constraint must hold for the rate's one-sided Wilson bound at this confidence (0.5: the rate itself).", valueName: "p"))
    var confidence: Double = Tuner.defaultConfidence

    @Option(name: .customLong("check-seed"), parsing: .unconditional, help: "Seed of the final check of the optimum (default: --seed + 1).")
    var checkSeed: UInt64?

    @Option(name: .customLong("emit-profile"), help: ArgumentHelp("Write the tuned profile here.", valueName: "file"))
    var emitProfile: String?

    @OptionGroup var simulation: RunOptions

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if param.isEmpty { throw ValidationError("Name at least one --param key=lo:hi.") }
        if [minimize, maximize, target].compactMap({ $0 }).count != 1 {
            throw ValidationError("Give exactly one of --minimize, --maximize and --target.")
        }
        var keys: Set<String> = []
        for text in param {
            let key = String(text.prefix { $0 != "=" }).trimmingCharacters(in: .whitespaces)
            if !keys.insert(key).inserted { throw ValidationError("--param \(key) is given twice; name each key once.") }
        }
        if !(confidence >= 0.5 && confidence < 1) {
            throw ValidationError("--confidence must be at least 0.5 (the rate itself) and below 1.")
        }
        try source.refuseRepeatedKeys(alsoVaried: param.map(keyPath(of:)), by: "--param")
        if emitProfile == "-" || emitProfile == "" {
            throw ValidationError("--emit-profile needs a file name; standard output carries the CSV")
        }
        try refuseSameOutputs([("--out", output.file), ("--emit-profile", emitProfile)])
        let library = source.library
        try refuseOutputsOverInputs([("--out", output.file), ("--emit-profile", emitProfile)], inputs: [
            ("--profile", library.profilePath(profile)), ("--population", simulation.population.map(library.populationPath)),
        ])
    }

    func run() throws {
        try reportingErrors {
            let library = source.library
            let path = library.profilePath(profile)
            let baseOverrides = try source.parsedOverrides()
            let base = try library.loadProfile(profile, overrides: baseOverrides)
            let parameters = try usage { try param.map { text throws(TuneError) in try TuneParameter(parsing: text) } }
            let objective: TuneObjective
            if let minimize {
                objective = .minimize(try usage { try TuneMetric(minimize, parameters: parameters) })
            } else if let maximize {
                objective = .maximize(try usage { try TuneMetric(maximize, parameters: parameters) })
            } else {
                let text = target ?? ""
                guard let equals = text.lastIndex(of: "="), let goal = Double(text[text.index(after: equals)...]), goal.isFinite else {
                    throw UsageError("--target \(text): expected METRIC=VALUE with a finite number")
                }
                objective = .target(try usage { try TuneMetric(String(text[..<equals]), parameters: parameters) }, goal)
            }
            let constraints = try usage {
                try constraint.map { text throws(TuneError) in try TuneConstraint(parsing: text, parameters: parameters) }
            }
            let request = TuneRequest(
                profileText: try ProfileLibrary.read(path, what: "profile"), profilePath: path, baseOverrides: baseOverrides,
                population: try library.loadPopulation(simulation.population ?? base.population), parameters: parameters,
                objective: objective, constraints: constraints, users: simulation.users, seed: simulation.seed,
                checkSeed: checkSeed ?? simulation.seed &+ 1, threads: simulation.workerThreads, confidence: confidence)
            let out = OutputFile(argument: output.out)
            try out.checkWritable()
            if let emitProfile { try OutputFile.file(emitProfile).checkWritable() }

            let interactive = isatty(STDERR_FILENO) == 1
            let result = try Self.explainingGSLFailures(parameters) { try Tuner.run(request) { evaluation in
                guard interactive else { return }
                let values = zip(parameters, evaluation.values).map { "\($0.keyPath)=\($1)" }.joined(separator: " ")
                printNote(String(format: "tune: evaluation %d: %@ score %.6g%@", evaluation.index, values, evaluation.score,
                                 evaluation.feasible ? "" : " (infeasible)"))
            } }
            try out.write(Self.csv(request, result: result, commandLine: commandLineWithoutThreads(), base: base))
            printNote(Self.summary(request, result: result))
            noteUndefinedValues(header: SimulationCSV.columns.map(\.name), rows: [CSV.fields(SimulationCSV.row(result.check))],
                                subject: "check")
            guard result.feasible else {
                // The answer is no: say which constraint fails by how much, and emit no profile to adopt.
                if let worst = Tuner.worstViolation(request, at: result.best) {
                    let values = zip(request.parameters, result.best.values).map { "\($0.keyPath)=\(SweepParameter.format($1))" }
                    printNote(String(format: "no point in the range meets %@: at best (%@) it reaches %.4g%@, %.4g beyond the bound%@",
                                     worst.constraint.text, values.joined(separator: " "), worst.value,
                                     worst.constraint.metric.proportion(result.best.summary) != nil && request.confidence > 0.5
                                        ? String(format: " (its %g Wilson bound)", request.confidence) : "",
                                     worst.excess, emitProfile == nil ? "" : "; no profile written"))
                }
                throw ExitStatus.answerIsNo
            }
            if let emitProfile {
                try OutputFile.file(emitProfile).write(try Tuner.tunedProfile(request, result: result).canonicalYAML)
            }
        }
    }

    /// A GSL failure inside the search, reported in HoldLab's words with the --param ranges that led there.
    static func explainingGSLFailures<T>(_ parameters: [TuneParameter], _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as GSLError {
            let ranges = parameters.map { "--param \($0.keyPath)=\(SweepParameter.format($0.lower)):\(SweepParameter.format($0.upper))" }
            throw TuneError("the search over \(ranges.joined(separator: " ")) cannot go on: \(error.explanation); "
                            + "try a range where the profile is valid and the objective is finite")
        }
    }

    /// A recommended value to the digits its uncertainty supports: two significant digits of its standard error
    /// when a constraint's boundary sets it, else of the search's resolution (`resolution`); as evaluated otherwise.
    static func recommended(_ value: Double, standardError: Double?, resolution: Double) -> String {
        let uncertainty = standardError.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? resolution
        guard uncertainty.isFinite, uncertainty > 0 else { return SweepParameter.format(value) }
        let decimals = max(0, 1 - Int(floor(log10(uncertainty))))
        return String(format: "%.\(decimals)f", value)
    }

    static func csv(_ request: TuneRequest, result: TuneResult, commandLine: String, base: Profile) -> String {
        var provenance: [(String, String)] = [
            ("holdlab", "\(HoldLabVersion.current) tune"),
            ("command", commandLine),
            ("profile", "\(base.name) fnv1a64:\(base.contentHash)"),
            ("population", "\(request.population.name) fnv1a64:\(request.population.contentHash)"),
            ("method", "\(result.method), \(result.trajectory.count) evaluations, converged \(result.converged)"),
            ("confidence", "rate constraints hold for the rate's one-sided Wilson bound at \(request.confidence)"),
            ("users", "\(request.users) per evaluation, seed \(request.seed); check seed \(request.checkSeed)"),
        ]
        let recommended = zip(request.parameters, result.best.values).map { "\($0.keyPath)=\(SweepParameter.format($1))" }
        provenance.append(("recommended", recommended.joined(separator: " ") + (result.best.feasible ? "" : " (violates a constraint: no point in the range is feasible)")))
        for (parameter, boundary) in zip(request.parameters, result.boundaries) {
            guard let boundary else { continue }
            provenance.append(("boundary", String(format: "%@ is set by %@, standard error %.2g from the rate's sampling error",
                                                  parameter.keyPath, boundary.constraint, boundary.standardError)))
        }
        if let first = result.invalidCandidates.first {
            provenance.append(("skipped", "\(result.invalidCandidates.count) candidates that are not valid profiles, e.g. \(first)"))
        }
        let metrics = [request.objective.metric] + request.constraints.map(\.metric)
        var seen: Set<String> = []
        let metricColumns = metrics.filter { $0.parameterIndex == nil && seen.insert($0.name).inserted }
        var text = CSV.provenance(provenance)
        text += "# index 0: the trajectory, one row per evaluation\n"
        let header: [String] = ["evaluation"] + request.parameters.map(\.column)
            + ["score", "objective", "penalty", "feasible"] + metricColumns.map(\.name)
        text += header.joined(separator: ",") + "\n"
        for evaluation in result.trajectory {
            var fields = ["\(evaluation.index)"] + evaluation.values.map(SweepParameter.format)
            fields += [evaluation.score, evaluation.objective, evaluation.penalty].map { CSV.number($0, significant: 10) }
            fields.append("\(evaluation.feasible)")
            fields += metricColumns.map { CSV.number($0.value(values: evaluation.values, summary: evaluation.summary), significant: 10) }
            text += fields.joined(separator: ",") + "\n"
        }
        text += "\n\n# index 1: the optimum re-simulated with seed \(request.checkSeed)\n"
        text += (request.parameters.map(\.column) + SimulationCSV.columns.map(\.name)).joined(separator: ",") + "\n"
        text += (result.best.values.map(SweepParameter.format) + [SimulationCSV.row(result.check)]).joined(separator: ",") + "\n"
        return text
    }

    static func summary(_ request: TuneRequest, result: TuneResult) -> String {
        let values = zip(request.parameters, zip(result.best.values, result.boundaries)).map { parameter, pair in
            let (value, boundary) = pair
            let se = boundary.map { String(format: " (± %.2g, set by %@)", $0.standardError, $0.constraint) } ?? ""
            // Brent stops within 1e-4 of the range, Nelder–Mead at a simplex of 1e-3 of the unit box.
            let resolution = (parameter.upper - parameter.lower) * (request.parameters.count == 1 ? 1e-4 : 1e-3)
            return "\(parameter.keyPath)=\(Self.recommended(value, standardError: boundary?.standardError, resolution: resolution))\(se)"
        }
        let ending = result.converged ? "converged" : "stopped (a step-shaped objective stalls the search; the best point is kept)"
        let feasibility = result.feasible ? "" : "; no point meets every constraint"
        var lines = ["tune: \(result.method) \(ending) after \(result.trajectory.count) evaluations\(feasibility)",
                     result.feasible ? "recommended: \(values.joined(separator: " "))"
                        : "least violating: \(values.joined(separator: " ")) (violates a constraint at seed \(request.seed))"]
        let check = result.check
        func rate(_ name: String, _ p: Proportion) -> String {
            guard let r = p.rate, let ci = p.wilson95 else { return "\(name) NaN" }
            return String(format: "%@ %.4f [%.4f, %.4f]", name, r, ci.lower, ci.upper)
        }
        lines.append("check (seed \(request.checkSeed)): " + [
            rate("completion_rate", check.completion), rate("false_activation_rate", check.falseActivation),
            rate("premature_release_rate", check.prematureRelease),
        ].joined(separator: ", "))
        let objectiveValue = request.objective.metric.value(values: result.best.values, summary: check)
        switch request.objective {
        case .target(let metric, let goal):
            lines.append(String(format: "  %@: %.6g at the check seed (target %.6g)", metric.name, objectiveValue, goal))
        case .minimize(let metric), .maximize(let metric):
            lines.append(String(format: "  %@: %.6g at the check seed", metric.name, objectiveValue))
        }
        for constraint in request.constraints {
            let value = constraint.metric.value(values: result.best.values, summary: check)
            let holds = constraint.violation(value) == 0
            lines.append(String(format: "  %@: %.6g at the check seed (%@)", constraint.text, value, holds ? "holds" : "VIOLATED"))
        }
        return lines.joined(separator: "\n")
    }
}
