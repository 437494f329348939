import ArgumentParser
import Foundation
import HoldLabIO
import HoldProfiles
import HoldSimulation
import GSL
import HoldStudies

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

    @OptionGroup var view: RowFormatOptions

    func validate() throws {
        if param.isEmpty { throw ValidationError("Name at least one --param key=lo:hi.") }
        try simulation.refuseSeveralPopulations("tune")
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
        if emitProfile == "" || emitProfile == "-" && output.file == nil {
            throw ValidationError("--emit-profile - needs --out FILE: standard output cannot carry both the CSV and the profile")
        }
        if let emitProfile, emitProfile != "-", !Self.isDirectory(emitProfile), Self.profileName(forFile: emitProfile) == nil {
            throw ValidationError("--emit-profile \(emitProfile): the profile is named after its file, so the file name "
                                  + "(without .yaml) must be letters, digits, - and _, e.g. kikocard-1200ms.yaml")
        }
        try refuseTwoReadsOfStandardInput([("--profile", profile), ("--population", simulation.population)])
        let emitted = emitProfile == "-" ? nil : emitProfile
        try refuseSameOutputs([("--out", output.file), ("--emit-profile", emitted)])
        let library = source.library
        try refuseOutputsOverInputs([("--out", output.file), ("--emit-profile", emitted)], inputs: [
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
            if let emitProfile { try OutputFile(argument: emitProfile).checkWritable() }

            // The number of evaluations depends on the search, so the bar counts them (with their rate and the time
            // so far) rather than guessing an end.
            let bar = ProgressBar(label: "tune", total: 0, unit: "evaluations", delaySeconds: 1)
            let result = try Self.explainingGSLFailures(parameters) { try Tuner.run(request) { evaluation in
                bar.update(evaluation.index)
            } }
            bar.finish()
            let csv = Self.csv(request, result: result, commandLine: CommandRecord.line(dropping: CommandRecord.threads, flags: CommandRecord.resume), base: base)
            try out.write(view.render(csv, for: out, hints: SimulationCSV.formatHints))
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
                let tuned = try Tuner.tunedProfile(request, result: result, name: Self.profileName(forFile: emitProfile),
                                                   commandLine: CommandRecord.line(dropping: CommandRecord.threads, flags: CommandRecord.resume))
                try OutputFile(argument: emitProfile).write(tuned.canonicalYAML)
            }
        }
    }

    /// The name of a profile written to `path`: the file's name without its extension (`.yaml`), when it is a valid
    /// profile name (letters, digits, - and _); nil otherwise, and for `-`.
    static func profileName(forFile path: String) -> String? {
        guard path != "-" else { return nil }
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let allowed = !name.isEmpty && name.unicodeScalars.allSatisfy {
            ($0.properties.isAlphabetic || ("0"..."9").contains($0)) && $0.isASCII || $0 == "-" || $0 == "_"
        }
        return allowed ? name : nil
    }

    /// Whether `path` names a directory (refused later, with status 73, as any output that is a directory is).
    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return path.hasSuffix("/") || FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
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
        // A metric at the check seed to the digits it is known to: a rate with its 95 % Wilson interval (to the
        // interval's first significant digit), a mean with its 95 % t interval (its `_lo`/`_hi` columns), a tuned
        // value as recommended above, another column to 4 digits.
        func shown(_ metric: TuneMetric) -> String {
            if let index = metric.parameterIndex { return String(values[index].split(separator: "=", maxSplits: 1)[1].prefix { $0 != " " }) }
            let value = metric.value(values: result.best.values, summary: check)
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
        for constraint in request.constraints {
            let value = constraint.metric.value(values: result.best.values, summary: check)
            let holds = constraint.violation(value) == 0
            lines.append("  \(constraint.text): \(shown(constraint.metric)) at the check seed (\(holds ? "holds" : "VIOLATED"))")
        }
        return lines.joined(separator: "\n")
    }
}
