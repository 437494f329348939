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
            Every evaluation simulates the profile with the same seed (common random numbers); the profile (with \
            its --set values) need only be valid with some tuned values, and a candidate that is not valid is \
            infeasible. Feasibility comes \
            first: a point that meets every constraint beats one that does not; feasible points compare by the \
            objective, infeasible ones by their total violation. One --param: a 21-point scan of the range; a \
            constraint whose feasibility switches once along it has its boundary found by root finding, then GSL's \
            Brent minimiser works inside the feasible interval (an optimum at a scan end is refined). Several: \
            Nelder–Mead on the unit box, started from a Sobol scan and restarted with shrinking steps. A rate \
            constraint (a *_rate column) must hold for the rate's one-sided Wilson bound at --confidence (default \
            0.95; 0.5 uses the rate itself), so the recommendation keeps its promise on a fresh seed. When no point \
            meets the constraints, tune says which one fails by how much and exits with status 1. The CSV has two \
            blocks (gnuplot index 0 and 1): the trajectory, one row per evaluation, then the optimum re-simulated \
            with --check-seed, with its simulate columns and intervals. --precision METRIC=WIDTH stops each \
            evaluation (and the check) at the first chunk of 4,096 users where its METRIC's 95 % interval has a \
            larger half of at most WIDTH (or WIDTH % of the value), at most --users; a warning counts those that \
            reached --users first.

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

    @Option(help: ArgumentHelp("Profile name or YAML file.", valueName: "name|file"), completion: .profileNames)
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

    @Option(name: .customLong("check-seed"), parsing: .unconditional, help: "Seed of the final check of the optimum (default: --seed + 1).",
            transform: parseSeed)
    var checkSeed: UInt64?

    @Option(name: .customLong("emit-profile"), help: ArgumentHelp("Write the tuned profile here.", valueName: "file"), completion: .file(extensions: ["yaml", "yml"]))
    var emitProfile: String?

    @OptionGroup var simulation: RunOptions

    @OptionGroup var precisionOption: PrecisionOptions

    @OptionGroup var output: OutputOptions

    @OptionGroup var quietOption: QuietOption

    @OptionGroup var view: RowFormatOptions

    func validate() throws {
        _ = try precisionOption.parsed(allowed: Precision.summaryMetrics)
        if param.isEmpty { throw ValidationError("Name at least one --param key=lo:hi.") }
        try simulation.refuseSeveralPopulations("tune")
        if [minimize, maximize, target].compactMap({ $0 }).count != 1 {
            throw ValidationError("Give exactly one of --minimize, --maximize and --target.")
        }
        let keys = param.map { String($0.prefix { $0 != "=" }).trimmingCharacters(in: .whitespaces) }
        if let pair = KeyPaths.firstOverlap(keys) { throw ValidationError(KeyPaths.twice(pair, option: "--param") + "; name each key once.") }
        if !(confidence >= 0.5 && confidence < 1) {
            throw ValidationError("--confidence must be at least 0.5 (the rate itself) and below 1.")
        }
        try source.refuseRepeatedKeys(alsoVaried: param.map(keyPath(of:)), by: "--param")
        if emitProfile == "" || emitProfile == "-" && output.file == nil {
            throw ValidationError("--emit-profile - needs --out FILE: standard output cannot carry both the CSV and the profile")
        }
        try refuseUnnamedLibraryFile(emitProfile, option: "--emit-profile", kind: "profile", example: "kikocard-1200ms.yaml")
        try refuseUnreadableInputNames([("--profile", profile), ("--population", simulation.population)])
        let emitted = emitProfile == "-" ? nil : emitProfile
        try refuseSameOutputs([("--out", output.file ?? "-"), ("--emit-profile", emitted)])
        let library = source.library
        try refuseOutputsOverInputs([("--out", output.file), ("--emit-profile", emitted)], inputs: [
            ("--profile", library.profilePath(profile)), ("--population", simulation.population.map(library.populationPath)),
        ])
    }

    func run() throws {
        try reportingErrors {
            let library = source.library
            let path = library.profilePath(profile)
            let baseOverrides = try source.profileOverrides()
            // A base invalid only through the tuned keys is no fault of the search: the first of its scan's
            // candidates that loads stands for it (`studyBase`); when none does, a candidate whose values are at
            // fault with the file or the --sets, or the base's problem (a candidate a key does not take is
            // infeasible, as in the search).
            var candidateTexts: [[String]] = []
            let (base, text, _) = try studyBase(profile, library: library, overrides: baseOverrides, ownValuesFirst: false, candidates: {
                let parameters = try usage { try param.map { text throws(TuneError) in try TuneParameter(parsing: text) } }
                let candidates = try Tuner.scanCandidates(parameters)
                candidateTexts = candidates.map { zip(parameters, $0).map { "\($0.keyPath)=\(SweepParameter.format($1))" } }
                return try candidates.map { values throws(ProfileError) in try Tuner.overrides(parameters, values: values) }
            }, refusal: { index, error in
                TuneError("no candidate in the --param ranges is a valid profile; for example \(candidateTexts[index].joined(separator: " ")): "
                          + Sweep.pointMessage(candidateTexts[index], error), kind: .usage)
            })
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
            var request = TuneRequest(
                profileText: text, profilePath: path, baseOverrides: baseOverrides,
                population: try source.applyingPopulationOverrides(
                    to: [simulation.population.map { try library.loadPopulation($0) } ?? library.loadPopulation(of: base)])[0],
                parameters: parameters,
                objective: objective, constraints: constraints, users: simulation.users, seed: simulation.seed,
                checkSeed: checkSeed ?? simulation.seed &+ 1, rng: simulation.rng, threads: simulation.workerThreads, confidence: confidence)
            request.precision = try precisionOption.parsed(allowed: Precision.summaryMetrics)
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
            let document = TuneReport.document(
                request, result: result, commandLine: CommandRecord.line(dropping: CommandRecord.threads, flags: CommandRecord.resume),
                base: base)
            // The table and the tuned profile are renamed into place together (the table alone when no point is
            // feasible, which emits no profile).
            let outputs = OutputGroup()
            try outputs.write(out, view.render(document, for: out))
            if result.feasible, let emitProfile {
                let tuned = try Tuner.tunedProfile(request, result: result, base: base, name: LibraryName.ofFile(emitProfile),
                                                   commandLine: CommandRecord.line(dropping: CommandRecord.threads, flags: CommandRecord.resume))
                try outputs.write(OutputFile(argument: emitProfile), tuned.canonicalYAML)
            }
            try outputs.commit()
            printNote(TuneReport.summary(request, result: result))
            if let precision = request.precision {
                let short = result.trajectory.map { precision.outcome([$0.summary], cap: request.users) }.filter { !$0.met }
                if !short.isEmpty {
                    printNote(PrecisionOutcome.capWarning(precision, cap: request.users, runs: short.count, of: result.trajectory.count,
                                                          noun: "evaluations", shown: [], shortfalls: short.flatMap(\.shortfalls)))
                }
                if let warning = precision.outcome([result.check], cap: request.users).warning("the check") { printNote(warning) }
            }
            if let note = TuneReport.trajectoryUndefinedNote(request, result: result) { printNote(note) }
            noteUndefinedValues(SimulationCSV.table([result.check], provenance: Provenance()), subject: "check")
            if let note = SimulationSummary.fewEventsNote([result.check], viewIntervals: view.format(for: out) != .csv) { printNote(note) }
            guard result.feasible else {
                // The answer is no: say why, and emit no profile to adopt.
                if let note = TuneReport.noRecommendation(request, result: result, profileRequested: emitProfile != nil) {
                    printNote(note)
                }
                throw ExitStatus.answerIsNo
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
}
