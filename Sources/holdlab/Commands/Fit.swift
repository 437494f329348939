import ArgumentParser
import Foundation
import HoldFitting
import HoldLabIO
import HoldProfiles

/// A family to fit, or all of them.
enum FamilyChoice: String, ExpressibleByArgument, CaseIterable {
    case lognormal, gamma, weibull, exgaussian, loglogistic, all

    var families: [FitFamily] {
        FitFamily(rawValue: rawValue).map { [$0] } ?? FitFamily.allCases
    }
}

struct Fit: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fit duration distributions to hold times by maximum likelihood, with right-censoring.",
        discussion: """
            Reads one column of positive durations from a CSV file ('#' lines skipped, a header row, quoted fields \
            allowed) and fits each family by maximum likelihood: estimates in GSL's parameterisation with standard \
            errors from the observed information, log-likelihood, AIC, BIC, the Kolmogorov–Smirnov distance to the \
            data (Kaplan–Meier when censored) and its parametric-bootstrap p-value with its Monte Carlo error. \
            best = the lowest AIC. Censored rows (holds that ended because the action fired) contribute ln S(t), not \
            ln f(t). The file is read streaming; a million rows fit in a few seconds. A progress bar goes to \
            standard error (when it is a terminal) if the fit takes more than a second.

            Columns ending in _ms (_us) are read as milliseconds (microseconds) and fitted in seconds; --scale overrides.

            With --telemetry FILE instead of --column, fit an app's telemetry (one row per hold: down_ms, up_ms, fired,             fired_ms, moved_out, trigger_ms, fill_ms, full_ms; docs/POPULATIONS.md) to the classes of --base-population             by censored maximum likelihood: one row per fitted number with its standard error and interval, and with             --emit-population a population file whose fitted numbers carry their intervals as ranges and the             telemetry's hash as their source. It needs holds from at least two trigger settings.

            Examples:
              holdlab fit --data docs/examples/holds.csv --column hold_ms \\
                --censored-column fired
              holdlab fit - --column hold_ms --format table < docs/examples/holds.csv
              holdlab simulate --population hold-only --per-user users.csv --out /dev/null
              holdlab fit --data users.csv --where class=intentional \\
                --column press_end_ms --censored-column outcome \\
                --censored-value completed --censor-time-column trigger_ms \\
                --emit-population fitted.yaml
              holdlab fit --telemetry docs/examples/telemetry.csv \\
                --base-population default \\
                --emit-population ours.yaml
            """)

    @Option(name: .customLong("data"), help: ArgumentHelp(
        "The CSV file of durations ('-' for standard input); or give it as the argument.", valueName: "file|-"), completion: .file())
    var dataOption: String?

    @Argument(help: ArgumentHelp("The CSV file of durations ('-' for standard input), instead of --data.", valueName: "file|-"), completion: .file())
    var dataArgument: String?

    /// The data file, from --data or the argument (validate() checked there is exactly one).
    var data: String { dataOption ?? dataArgument ?? "-" }

    @Option(help: ArgumentHelp("The column of durations.", valueName: "name"))
    var column: String?

    @Option(name: .customLong("telemetry"), help: ArgumentHelp(
        "Fit an app's telemetry CSV (one row per hold) to a population's classes instead of one column of durations.",
        valueName: "file"), completion: .file())
    var telemetry: String?

    @Option(name: .customLong("base-population"), help: ArgumentHelp(
        "With --telemetry: the population whose classes are fitted (starting values; patience and movement kept).",
        valueName: "name|file"), completion: .populationNames)
    var basePopulation: String = "default"

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "With --telemetry: two-sided confidence of the intervals (the emitted ranges).", valueName: "level"))
    var confidence: Double = 0.95

    @Option(name: .customLong("profiles-dir"), help: ArgumentHelp(
        "Directory with profiles and populations/ (default: $HOLDLAB_PROFILES, ./Profiles, or the package's).",
        valueName: "dir"), completion: .directory)
    var profilesDirectory: String?

    @Option(name: .customLong("censored-column"), help: ArgumentHelp(
        "The column that marks censored rows: 1/true censored, 0/false observed.", valueName: "name"))
    var censoredColumn: String?

    @Option(name: .customLong("censored-value"), help: ArgumentHelp(
        "Read --censored-column as labels: rows holding this text are censored, all others observed (repeatable).",
        valueName: "text"))
    var censoredValues: [String] = []

    @Option(name: .customLong("censor-time-column"), help: ArgumentHelp(
        "Take censored rows' times from this column (e.g. trigger_ms: when the action fired).", valueName: "name"))
    var censorTimeColumn: String?

    @Option(name: .customLong("where"), help: ArgumentHelp(
        "Fit only rows whose column holds this value (repeatable; all must match).", valueName: "column=value"))
    var filters: [String] = []

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Multiply the numbers by this to get the fit's unit. Default: 0.001 for columns ending in _ms, else 1.",
        valueName: "factor"))
    var scale: Double?

    @Option(help: ArgumentHelp("The family to fit, or all five.", valueName: "family"))
    var family: FamilyChoice = .all

    // Options given or not (nil: the default): one that the run does not use is refused, not taken silently.
    @Option(name: .customLong("seed"), parsing: .unconditional, help: "Seed of the bootstrap draws. (default: 1)",
            transform: parseSeed)
    var seedOption: UInt64?
    var seed: UInt64 { seedOption ?? 1 }

    @Option(name: .customLong("bootstrap"), parsing: .unconditional, help: ArgumentHelp(
        "Parametric-bootstrap replicates per family for the KS p-value (0: none). (default: \(DistributionFitting.defaultBootstrapReplicates))",
        valueName: "B"))
    var bootstrapOption: Int?
    var bootstrap: Int { bootstrapOption ?? DistributionFitting.defaultBootstrapReplicates }

    @Option(name: .customLong("bootstrap-size"), parsing: .unconditional, help: ArgumentHelp(
        "Rows per bootstrap draw: larger samples are redrawn at this size and compared on the √n scale. (default: \(DistributionFitting.defaultBootstrapDrawSize))",
        valueName: "m"))
    var bootstrapSizeOption: Int?
    var bootstrapSize: Int { bootstrapSizeOption ?? DistributionFitting.defaultBootstrapDrawSize }

    @Option(parsing: .unconditional, help: ArgumentHelp("Worker threads for the bootstrap (default: the number of cores). Results do not depend on it."))
    var threads: Int?

    @OptionGroup var output: OutputOptions

    @OptionGroup var quietOption: QuietOption

    @OptionGroup var view: RowFormatOptions

    @Option(name: .customLong("emit-population"), help: ArgumentHelp(
        "Also write a population YAML with the best fit as a hold class (times must be seconds; '-' for standard output when --out names a file).",
        valueName: "file|-"), completion: .file(extensions: ["yaml", "yml"]))
    var emitPopulation: String?

    func validate() throws {
        try refuseUnnamedLibraryFile(emitPopulation, option: "--emit-population", kind: "population", example: "ours.yaml")
        if let telemetry {
            let dataOptions: [(String, Bool)] = [
                ("--data or a FILE argument", dataOption != nil || dataArgument != nil), ("--column", column != nil),
                ("--censored-column", censoredColumn != nil), ("--censor-time-column", censorTimeColumn != nil),
                ("--censored-value", !censoredValues.isEmpty), ("--where", !filters.isEmpty), ("--scale", scale != nil),
            ]
            if let (name, _) = dataOptions.first(where: \.1) {
                throw ValidationError("--telemetry reads its own columns; drop \(name) (those read one column of durations).")
            }
            let bootstrapOptions = [("--bootstrap", bootstrapOption != nil), ("--bootstrap-size", bootstrapSizeOption != nil),
                                    ("--seed", seedOption != nil)]
            if let (name, _) = bootstrapOptions.first(where: \.1) {
                throw ValidationError("--telemetry fits by maximum likelihood without bootstrap draws; drop \(name) (it sets the KS "
                                      + "p-value's bootstrap of a fit of one column).")
            }
            try view.checkColumns(known: TelemetryFitResult.columns.map(\.name))
            guard confidence > 0, confidence < 1 else {
                throw ValidationError("--confidence must be between 0 and 1 (got \(confidence)).")
            }
            if emitPopulation == "" || emitPopulation == "-" && output.file == nil {
                throw ValidationError("--emit-population - needs --out FILE: standard output cannot carry both the fit and the population")
            }
            let emitted = emitPopulation == "-" ? nil : emitPopulation
            try refuseSameOutputs([("--out", output.file ?? "-"), ("--emit-population", emitted)])
            try refuseOutputsOverInputs([("--out", output.file), ("--emit-population", emitted)], inputs: [("--telemetry", telemetry)])
            return
        }
        guard column != nil else {
            throw ValidationError("Name what to fit: --column NAME (a column of durations) or --telemetry FILE (an app's telemetry).")
        }
        switch (dataOption, dataArgument) {
        case (nil, nil): throw ValidationError("Name the data: --data FILE, a FILE argument, or - for standard input.")
        case (.some, .some): throw ValidationError("Give the data once: --data FILE or a FILE argument, not both.")
        default: break
        }
        try view.checkColumns(known: FitTable.columnNames)
        guard (0...100_000).contains(bootstrap) else {
            throw ValidationError("--bootstrap must be from 0 to 100,000 (got \(bootstrap)).")
        }
        guard (10...10_000_000).contains(bootstrapSize) else {
            throw ValidationError("--bootstrap-size must be from 10 to 10,000,000 (got \(bootstrapSize)).")
        }
        // Without bootstrap draws their seed and size change nothing.
        if bootstrap == 0, let (name, _) = [("--seed", seedOption != nil), ("--bootstrap-size", bootstrapSizeOption != nil)].first(where: \.1) {
            throw ValidationError("\(name) sets the bootstrap draws, and --bootstrap 0 makes none: drop \(name), or give --bootstrap B.")
        }
        if let scale, !(scale.isFinite && scale > 0) {
            throw ValidationError("--scale must be a finite number > 0 (got \(scale)).")
        }
        if let threads, !(1...256).contains(threads) {
            throw ValidationError("--threads must be from 1 to 256 (got \(threads)).")
        }
        for filter in filters where !filter.contains("=") || filter.hasPrefix("=") {
            throw ValidationError("--where needs column=value (got '\(filter)').")
        }
        if censoredColumn == nil, !censoredValues.isEmpty || censorTimeColumn != nil {
            throw ValidationError("--censored-value and --censor-time-column need --censored-column.")
        }
        if emitPopulation == "" || emitPopulation == "-" && output.file == nil {
            throw ValidationError("--emit-population - needs --out FILE: standard output cannot carry both the fit and the population")
        }
        let emitted = emitPopulation == "-" ? nil : emitPopulation
        try refuseSameOutputs([("--out", output.file ?? "-"), ("--emit-population", emitted)])
        try refuseOutputsOverInputs([("--out", output.file), ("--emit-population", emitted)], inputs: [("--data", data)])
    }

    func run() throws {
        if let telemetry { return try runTelemetry(telemetry) }
        try reportingErrors {
            let out = OutputFile(argument: output.out)
            try out.checkWritable()
            let population = emitPopulation.map { OutputFile(argument: $0) }
            try population?.checkWritable()
            let request = FitRequest(
                data: FitDataRequest(
                    path: data, column: column ?? "", censoredColumn: censoredColumn, censoredValues: censoredValues,
                    censorTimeColumn: censorTimeColumn, filters: filters.map(Self.filter), scale: scale),
                families: family.families, bootstrapReplicates: bootstrap, bootstrapDrawSize: bootstrapSize, seed: seed,
                threads: threads ?? ProcessInfo.processInfo.activeProcessorCount,
                commandLine: CommandRecord.line(dropping: CommandRecord.threads, flags: CommandRecord.resume))
            let bar = SharedProgressBar(ProgressBar(label: "fit", total: request.progressSteps, unit: "steps", delaySeconds: 1))
            let result = try request.run(progress: { done, _ in bar.update(done) })
            bar.finish()
            // The table and the population are renamed into place together.
            let outputs = OutputGroup()
            if let population, let path = emitPopulation { try outputs.write(population, result.population(path: path)) }
            try outputs.write(out, view.render(result.document, for: out))
            try outputs.commit()
            // On standard error as well as in the table's `# warning:` lines, which --no-comments leaves out: a
            // NaN standard error then still has its reason (as fit-curve's warnings do).
            for fit in result.report.fits {
                for warning in FitTable.warnings(fit) { printNote("warning: \(warning)") }
            }
        }
    }

    /// `--telemetry`: the base population's classes fitted to the file, the table written, the population emitted.
    private func runTelemetry(_ path: String) throws {
        try reportingErrors {
            let out = OutputFile(argument: output.out)
            try out.checkWritable()
            let population = emitPopulation.map { OutputFile(argument: $0) }
            try population?.checkWritable()
            let library = profilesDirectory.map { ProfileLibrary(directory: $0) }
                ?? ProfileLibrary.discover(executablePath: ProfileSourceOptions.executablePath())
            let request = TelemetryFitRequest(
                path: path, base: try library.loadPopulation(basePopulation), confidence: confidence,
                commandLine: CommandRecord.line(dropping: CommandRecord.threads, flags: CommandRecord.resume))
            let result = try request.run()
            let outputs = OutputGroup()
            if let population, let path = emitPopulation { try outputs.write(population, result.populationYAML(path: path)) }
            try outputs.write(out, view.render(result.document, for: out))
            try outputs.commit()
        }
    }

    /// `column=value`, split at the first `=` (validate() checked there is one).
    private static func filter(_ text: String) -> FitDataRequest.Filter {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        return FitDataRequest.Filter(column: String(parts[0]), value: parts.count > 1 ? String(parts[1]) : "")
    }
}

/// A progress bar that worker threads may update: the library reports finished steps from several threads.
private final class SharedProgressBar: @unchecked Sendable {
    private let lock = NSLock()
    private let bar: ProgressBar

    init(_ bar: ProgressBar) { self.bar = bar }

    func update(_ done: Int) {
        lock.lock()
        defer { lock.unlock() }
        bar.update(done)
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        bar.finish()
    }
}
