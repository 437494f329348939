import ArgumentParser
import Foundation
import HoldLabIO
import HoldProfiles
import HoldSimulation
import HoldStudies

extension SensitivityMethod: ExpressibleByArgument {}

struct SensitivityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sensitivity",
        abstract: "Which parameters matter: Sobol' indices or Morris screening over --vary ranges.",
        discussion: """
            A sensitivity run is a sweep with a special design and an analysis: every point is a simulate run of the \
            profile with the point's values --set and the same seed (common random numbers), so each metric is a \
            deterministic function of the parameters. A profile (with its --set values) need only be valid with the \
            varied values, as in sweep.

            sobol: Saltelli's scheme from a GSL Sobol sequence of dimension 2d, N = --points base rows: N·(d+2) \
            simulations, N·(2d+2) with --second-order. Columns: metric, parameter, S1, S1_lo, S1_hi, ST, ST_lo, \
            ST_hi (first-order Saltelli 2010, total Jansen, as SALib.analyze.sobol). --second-order FILE also \
            writes metric, parameter_1, parameter_2, S2, S2_lo, S2_hi.

            morris: r = --points trajectories over p = --levels levels: r·(d+1) simulations. Columns: metric, \
            parameter, mu, mu_star, mu_star_lo, mu_star_hi, sigma (effects per full range of the parameter, as \
            SALib.analyze.morris).

            Intervals: 95 %, estimate ∓ 1.96 × the standard deviation of --bootstrap resamples drawn with --seed. \
            --samples FILE writes every simulation's parameters and simulate columns, one row per point in SALib's \
            order (Saltelli: per base row A, AB1…ABd, [BA1…BAd,] B), rewritten atomically as points finish; \
            --resume completes it. Cost: simulations × --users. --precision METRIC=WIDTH stops each point's run \
            at the first chunk of 4,096 users where its METRIC's 95 % interval has a larger half of at most WIDTH \
            (or WIDTH % of the value), at most --users, as sweep --precision does (and --resume checks it).

            Examples:
              holdlab sensitivity --method sobol --points 64 --users 2000 \\
                --vary gesture.minimumDuration=0.3:1.5 \\
                --vary haptics.threshold=0.005:0.05 \\
                --metric false_activation_rate --samples samples.csv --out indices.csv
              holdlab sensitivity --method morris --points 20 --users 5000 \\
                --vary gesture.minimumDuration=0.3:1.5 \\
                --vary fill.curve=linear,easeIn,easeOut,easeInOut
              holdlab plot sensitivity --data indices.csv --out indices.png
            """)

    @OptionGroup var source: ProfileSourceOptions

    @Option(help: "sobol (Saltelli's scheme: S1, ST, optionally S2) or morris (elementary effects).")
    var method: SensitivityMethod = .sobol

    @Option(help: ArgumentHelp("Profile name or YAML file.", valueName: "name|file"), completion: .profileNames)
    var profile: String = "hig-linear-bar"

    @Option(help: ArgumentHelp(
        "A parameter and its range key=start:stop, or its values key=v1,v2,… (a discrete uniform factor; repeatable).",
        valueName: "key=values"))
    var vary: [String] = []

    @Option(help: ArgumentHelp(
        "A numeric simulate column to analyse (repeatable; default completion_rate and false_activation_rate).",
        valueName: "column"))
    var metric: [String] = []

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Base rows N (sobol; a power of two, default 256) or trajectories r (morris; default 20).", valueName: "n"))
    var points: Int?

    @Option(parsing: .unconditional, help: "Morris grid levels p (even; default 4).")
    var levels: Int?

    @Option(name: .customLong("second-order"), help: ArgumentHelp(
        "Also estimate second-order indices S2 (sobol; N·(2d+2) simulations) and write them to this CSV.",
        valueName: "file|-"), completion: .file())
    var secondOrder: String?

    @Option(parsing: .unconditional, help: "Bootstrap resamples for the 95 % intervals (0: none, written NaN).")
    var bootstrap: Int = 1000

    @Option(help: ArgumentHelp(
        "Write every simulation's parameters and simulate columns here, in the design's (SALib's) order.",
        valueName: "file|-"), completion: .file())
    var samples: String?

    @OptionGroup var simulation: RunOptions

    @OptionGroup var precisionOption: PrecisionOptions

    @OptionGroup var output: OutputOptions

    @OptionGroup var quietOption: QuietOption

    @OptionGroup var view: RowFormatOptions

    @Flag(help: "Keep the rows already in --samples (which must come from the same run) and simulate the missing points.")
    var resume = false

    /// The defaults of `--points`.
    static let defaultBaseRows = 256
    static let defaultTrajectories = 20
    static let defaultMetrics = ["completion_rate", "false_activation_rate"]

    var metrics: [String] { metric.isEmpty ? Self.defaultMetrics : metric }

    func validate() throws {
        if vary.isEmpty { throw ValidationError("Name at least one --vary key=start:stop (or key=v1,v2,…).") }
        try refuseUnreadableInputNames([("--profile", profile), ("--population", simulation.population)])
        try simulation.refuseSeveralPopulations("sensitivity")
        if let points, points < 2 { throw ValidationError("--points must be at least 2 (got \(points)).") }
        if levels != nil && method != .morris { throw ValidationError("--levels goes with --method morris.") }
        if secondOrder != nil && method != .sobol { throw ValidationError("--second-order goes with --method sobol.") }
        if secondOrder?.isEmpty == true || samples?.isEmpty == true {
            throw ValidationError("--second-order and --samples need a file name, or - for standard output")
        }
        guard bootstrap == 0 || (2...100_000).contains(bootstrap) else {
            throw ValidationError("--bootstrap must be 0 (no intervals) or from 2 to 100,000 (got \(bootstrap)).")
        }
        if resume && (samples == nil || samples == "-") {
            throw ValidationError("--resume needs --samples FILE: the file of simulated points to resume")
        }
        let streamed = [("--out", output.out), ("--samples", samples), ("--second-order", secondOrder)].filter { $0.1 == "-" }
        if streamed.count > 1 {
            throw ValidationError("\(streamed.map(\.0).joined(separator: " and ")) cannot all be standard output; name a file for all but one")
        }
        try refuseRepeatedKeys(vary, option: "--vary")
        _ = try precisionOption.parsed(allowed: Precision.summaryMetrics)
        var seen: Set<String> = []
        for name in metric where !seen.insert(name).inserted {
            throw ValidationError("--metric \(name) is given twice; give each metric once")
        }
        try source.refuseRepeatedKeys(alsoVaried: vary.map(keyPath(of:)), by: "--vary")
        let outputs = [("--out", output.file), ("--samples", samples == "-" ? nil : samples),
                       ("--second-order", secondOrder == "-" ? nil : secondOrder)]
        try refuseSameOutputs(outputs)
        let library = source.library
        try refuseOutputsOverInputs(outputs, inputs: [
            ("--profile", library.profilePath(profile)), ("--population", simulation.population.map(library.populationPath)),
        ])
    }

    func run() throws {
        try reportingErrors {
            // A clear error for a missing or invalid profile before the plan, with the --set values applied (as
            // every point is); a base invalid only through the varied keys is no fault of the study (`studyBase`).
            func makePlan() throws -> SensitivityPlan {
                for name in metrics { try SensitivityPlan.checkMetric(name) }
                let parameters = try vary.map { text throws(SweepError) in try SweepParameter(parsing: text) }
                return try SensitivityPlan(
                    method: method, parameters: parameters,
                    points: points ?? (method == .sobol ? Self.defaultBaseRows : Self.defaultTrajectories),
                    levels: levels ?? SensitivityPlan.defaultLevels, secondOrder: secondOrder != nil, seed: simulation.seed)
            }
            _ = try sweepBase(profile, library: source.library, overrides: try source.profileOverrides(),
                              plan: { try makePlan().sweepPlan })
            let plan = try makePlan()
            if let saltelli = plan.saltelli, !saltelli.baseRowsArePowerOfTwo {
                var power = 2
                while power < saltelli.baseRows { power *= 2 }
                printNote("warning: --points \(saltelli.baseRows) is not a power of two; a Sobol sequence is balanced over 2^k points, so --points \(power / 2) or \(power) estimates better")
            }
            let made = try sweepRequest(plan: plan.sweepPlan, profile: profile, source: source, simulation: simulation)
            var request = made.request
            let base = made.base
            request.precision = try precisionOption.parsed(allowed: Precision.summaryMetrics)
            let profiles = try Sweep.profiles(request)
            let out = OutputFile(argument: output.out)
            let samplesOut = samples.map(OutputFile.init(argument:))
            let secondOut = secondOrder.map(OutputFile.init(argument:))
            for file in [out, samplesOut, secondOut].compactMap({ $0 }) { try file.checkWritable() }

            let job = SensitivityRequest(
                plan: plan, sweep: request, baseProfile: base, metrics: metrics,
                bootstrap: SensitivityBootstrap(resamples: bootstrap, seed: simulation.seed), samplesFile: samples,
                commandLine: CommandRecord.line(dropping: CommandRecord.threads, flags: CommandRecord.resume))
            var rows: [String] = []
            if resume, case .file(let file)? = samplesOut {
                rows = try resumedRows(file, request: request, baseProfile: base, what: "sensitivity samples", option: "--samples")
            }
            try runSweepPoints(request, profiles: profiles, rows: &rows, head: job.samplesHead, out: samplesOut,
                               label: plan.method.rawValue)
            let report = job.analyze(rows: rows)
            for note in report.notes { printNote("note: indices written as NaN: \(note)") }
            if let note = job.coverageNote { printNote(note) }
            if bootstrap == 0 { printNote("note: --bootstrap 0: no resamples, so every interval column (_lo, _hi) is written as NaN") }
            // The indices and the second-order indices are renamed into place together.
            let outputs = OutputGroup()
            if let secondOut, let secondOrder = report.secondOrder {
                // The same format and comments; --columns names the indices' columns.
                try outputs.write(secondOut, try secondOrder.rendered(as: view.format(for: secondOut), comments: !view.omitsComments))
            }
            try outputs.write(out, view.render(report.indices, for: out))
            try outputs.commit()
        }
    }
}
