import ArgumentParser
import Foundation
import HoldLabIO
import HoldPreview
import HoldProfiles
import HoldSimulation
import HoldStudies

struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a design review folder: report.md, figures (SVG and PNG), the CSVs behind them, reproduce.sh.",
        discussion: """
            Runs a comparison (the options of holdlab compare), the guideline checks of holdlab check on every \
            design, and traces each design's hold, then writes a self-contained folder: report.md (the question, the \
            designs, findings in sentences with paired 95 % intervals, the checks, the figures, the limitations), \
            fill-curves and design-rates figures as SVG and PNG (with provenance footers), designs.csv, \
            differences.csv, checks.csv, one trace CSV per design, and reproduce.sh, which regenerates the folder \
            byte for byte (nothing depends on the time or the folder's path). The folder is assembled beside its \
            destination and renamed into place when complete: a failed report leaves no half folder. An existing \
            report folder is replaced; any other non-empty folder is refused (73). Needs gnuplot (69 without).

            --review FILE reads the designs, populations, users, seed, baseline, question and sweeps from a YAML \
            review file (see Profiles/reviews/ and docs/commands/report.md) instead of those options; an option the \
            file does not give may be given beside it. The report is the one the \
            equivalent options write, byte for byte, and records (and reproduce.sh runs) that command line, so the \
            folder does not need the file.

            --precision METRIC=WIDTH stops each population's comparison at the first chunk of 4,096 users where \
            every design's paired interval for METRIC has a larger half of at most WIDTH (or WIDTH % of diff), at \
            most --users (as compare --precision); the checks take the users the first population took (their \
            rows are check --users of that many), the sweeps, knob shares and robustness the most users a \
            comparison took. reproduce.sh runs it again and stops at the same users.

            The folder also holds report.html: the review as one interactive page that works offline (each \
            design's hold animated from its trace frames, release times to choose from, the sweeps as charts). \
            --html FILE writes that page to FILE too (- for standard output; not inside the --out folder, which has its \
            own); without --out, only the page is written.

            Examples:
              holdlab report --profile hig-linear-bar \\
                --variant fast="fill.duration=0.6 gesture.minimumDuration=0.8" \\
                --population default,motor-impaired --out review
              sh review/reproduce.sh
              holdlab report --review Profiles/reviews/fast-fill.yaml --out review
            """)

    @OptionGroup var source: ProfileSourceOptions

    @OptionGroup var comparison: ComparisonOptions

    @OptionGroup var guidelines: GuidelineOptions

    @OptionGroup var precisionOption: PrecisionOptions

    @OptionGroup var quietOption: QuietOption

    @Option(help: ArgumentHelp("The question the review answers (default: which design, for which populations).", valueName: "text"))
    var question: String?

    @Option(help: ArgumentHelp(
        "A sweep to draw: key=values as in holdlab sweep --vary (repeatable). The baseline design against the first population; completion and false activation against the key.",
        valueName: "key=values"))
    var sweep: [String] = []

    @Option(help: ArgumentHelp(
        "The metric the review improves: completion_rate (default), or a rate or mean where lower is better, e.g. false_activation_rate.",
        valueName: "metric"))
    var prefer: String = DecisionRule.defaultPrefer

    @Option(name: .customLong("guard"), help: ArgumentHelp(
        "A guardrail every design must hold at the far end of its 95 % interval in every population (repeatable; default false_activation_rate<=+0.5pt; none for no guardrail).",
        discussion: "METRIC<=+0.5pt or METRIC>=-1pt: percentage points against the baseline; METRIC<=+20ms: a mean against the baseline; METRIC<=1%: the design's own rate.",
        valueName: "metric<=bound"))
    var guards: [String] = []

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Users per comparison when each behaviour assumption is varied over its plausible range (default: --users; 0 leaves the robustness section out).",
        valueName: "n"))
    var robustnessUsers: Int?

    @Option(name: .customLong("robustness-points"), parsing: .unconditional, help: ArgumentHelp(
        "Values per behaviour assumption, evenly spaced over its range, ends included (2 to 51). (default: \(RobustnessRequest.defaultGridPoints))",
        valueName: "n"))
    var robustnessPointsOption: Int?
    var robustnessPoints: Int { robustnessPointsOption ?? RobustnessRequest.defaultGridPoints }

    @Option(name: .customLong("out"), help: ArgumentHelp("The folder to write (created or replaced atomically).", valueName: "dir"), completion: .directory)
    var out: String?

    @Option(name: .customLong("html"), help: ArgumentHelp(
        "Also write the review's page (the folder's report.html) to FILE, or to standard output with -; without --out, write only the page.",
        valueName: "file"), completion: .file(extensions: ["html"]))
    var html: String?

    @Option(help: ArgumentHelp(
        "A YAML review file naming the designs, populations, users, seed, baseline, question and sweeps (instead of those options).",
        valueName: "file"), completion: .file(extensions: ["yaml", "yml"]))
    var review: String?

    @Option(name: .customLong("figure-style"), help: ArgumentHelp(
        "slide (default): 1920×1080 figures on white, titled by their takeaway, with a scorecard; classic: HoldLab 0.1.0's figures, for a review cited from 0.1.0.",
        valueName: "slide|classic"))
    var figureStyle: String = ReviewFigureStyle.slide.rawValue

    @Option(help: ArgumentHelp(
        "Read the profiles and populations the command line names from a review folder's inputs/ (by its manifest) instead of the library or their paths; what reproduce.sh passes. Not recorded.",
        valueName: "dir"), completion: .directory)
    var inputs: String?

    func validate() throws {
        if out == nil && html == nil { throw ValidationError("give --out DIR (the review folder), --html FILE (its page alone), or both") }
        if let out, out.isEmpty || out == "-" { throw ValidationError("--out needs a folder name") }
        if let html, html.isEmpty { throw ValidationError("--html needs a file name, or - for standard output") }
        guard ReviewFigureStyle(rawValue: figureStyle) != nil else {
            throw ValidationError("--figure-style must be slide or classic (got \(figureStyle))")
        }
        try source.refuseRepeatedKeys()
        _ = try precisionOption.parsed(allowed: Precision.differenceMetrics)
        try refuseRepeatedKeys(sweep, option: "--sweep")
        for text in sweep {
            do { _ = try SweepParameter(parsing: text) } catch { throw ValidationError("--sweep \(text): \(error)") }
        }
        _ = try decisionRule()
        if let robustnessUsers, robustnessUsers < 0 || robustnessUsers > 10_000_000_000 {
            throw ValidationError("--robustness-users must be from 0 (no robustness section) to 10000000000 (got \(robustnessUsers))")
        }
        if !(2...51).contains(robustnessPoints) {
            throw ValidationError("--robustness-points must be from 2 to 51 (got \(robustnessPoints))")
        }
        // Without a robustness section its grid changes nothing.
        if robustnessUsers == 0, robustnessPointsOption != nil {
            throw ValidationError("--robustness-points sets the robustness section's grid, and --robustness-users 0 leaves the section out: "
                                  + "drop one of them")
        }
        try refuseOutputsOverInputs([("--out", out), ("--html", html == "-" ? nil : html)],
                                    inputs: comparison.inputs(source) + [("--review", review),
                                        ("--impaired-population", source.library.populationPath(guidelines.impairedPopulation))])
        try refuseOutputsInReviews()
    }

    /// Refuses (64), before anything runs, a page written into the review folder (`--html X --out X`, `--html
    /// X/page.html --out X`): the folder holds its own report.html, and a file it does not make would fail its
    /// `reproduce.sh --check`. So too an output inside the review folder `--inputs` reads (other than that folder
    /// itself, which reproduce.sh regenerates in place).
    func refuseOutputsInReviews() throws {
        let page = html == "-" ? nil : html
        if let out, let page {
            try refuseSameOutputs([("--out", out), ("--html", page)])
            if OutputFile.isInside(page, folder: out) {
                throw ValidationError("--html \(page) is inside --out \(out): the review folder holds its own report.html, and a file it does not make fails its reproduce.sh --check; write the page outside the folder")
            }
        }
        if let inputs {
            let folder = OutputFile.directory(of: inputs.count > 1 && inputs.hasSuffix("/") ? String(inputs.dropLast()) : inputs)
            guard FileManager.default.fileExists(atPath: folder + "/report.md") else { return }
            for (option, path) in [("--html", page), ("--out", out)] {
                guard let path, OutputFile.isInside(path, folder: folder),
                      !(option == "--out" && OutputFile.sameFile(path, folder)) else { continue }
                throw ValidationError("\(option) \(path) is inside the review folder \(folder) whose inputs --inputs reads: a file it does not make fails its reproduce.sh --check; write it outside the folder")
            }
        }
    }

    /// The command line without `--out DIR`, `--html FILE`, `--inputs DIR` and `--threads N`: what the CSVs record
    /// and reproduce.sh runs.
    static func reproducibleArguments(_ commandLine: [String]) -> [String] {
        CommandRecord.arguments(commandLine, dropping: CommandRecord.threads.union(["--out", "--html", "--inputs"]))
    }

    func run() throws {
        try reportingErrors {
            let commandLine = Array(CommandLine.arguments.dropFirst())
            guard let review else { return try write(arguments: Self.reproducibleArguments(commandLine), reviewFile: nil) }
            // Everything the file gets wrong, where the file writes it (file:line:column, key path; 65), before
            // anything runs: the same check as `holdlab profiles check`.
            let text = try ProfileLibrary.read(review, what: "review")
            // A problem the command line's `--set` is part of is the run's to say (64), as it says a `--set`'s own.
            let problems = source.library.reviewProblems(
                yaml: text, path: ProfileLibrary.displayPath(review), checks: Profiles.Check.reviewChecks,
                commandLineSets: source.overrides, commandLinePopulations: comparison.populationNames).filter { !$0.isCommandLines }
            if !problems.isEmpty {
                // A profile or population given as the review: one line saying so, not each of its keys refused.
                if let wrongKind = ProfileLibrary.wrongKindProblem(text, path: ProfileLibrary.displayPath(review), expected: .review) {
                    printError(wrongKind.description)
                    throw ExitStatus.dataError
                }
                for problem in problems { printError(problem.description) }
                if problems.count > 1 { printNote("\(ProfileLibrary.displayPath(review)): \(problems.count) problems") }
                throw ExitStatus.dataError
            }
            let reviewFile = try ReviewFile.parse(text, path: ProfileLibrary.displayPath(review))
            let expanded = try Self.expand(commandLine, review: reviewFile)
            let report: Report
            do {
                report = try Report.parse(Array(expanded.dropFirst()))
            } catch {
                throw UsageError("\(review): \(Report.message(for: error))")
            }
            // The designs the file and the command line give together: one is the file's to fix, at its place.
            let designs = max(1, report.comparison.profile.count) + report.comparison.variant.count
            if let problem = ProfileLibrary.oneDesignProblem(yaml: text, path: ProfileLibrary.displayPath(review), designs: designs) {
                printError(problem.description)
                throw ExitStatus.dataError
            }
            try report.write(arguments: Self.reproducibleArguments(expanded), reviewFile: review,
                             written: Dictionary(reviewFile.variants.map { ($0.label, $0.located) }) { first, _ in first },
                             sweepPlaces: Dictionary(reviewFile.sweeps.map { ($0.text, "\($0.origin): \($0.keyPath)") }) { first, _ in first },
                             variantPlaces: Dictionary(reviewFile.variants.map { ($0.label, "variants.\($0.label)") }) { first, _ in first })
        }
    }

    /// The command line with `--review FILE` replaced by the options the file gives; an option the file gives is
    /// refused beside it (one it does not give applies as it would without the file), and each sweep is checked
    /// where the file writes it.
    static func expand(_ commandLine: [String], review: ReviewFile) throws -> [String] {
        for argument in commandLine {
            for option in review.givenOptions where argument == option || argument.hasPrefix(option + "=") {
                throw UsageError("\(option) is given by the review file; write it there, or drop --review")
            }
        }
        // The sweeps and the decision rule are checked where the file writes them by `reviewProblems` (`run`).
        var expanded: [String] = []
        var index = 0
        while index < commandLine.count {
            let argument = commandLine[index]
            if argument == "--review" {
                expanded += review.arguments
                index += 2
                continue
            }
            if argument.hasPrefix("--review=") { expanded += review.arguments } else { expanded.append(argument) }
            index += 1
        }
        return expanded
    }

    /// `--prefer` and `--guard` as a rule; `--guard none` alone drops the default guardrail.
    func decisionRule() throws -> DecisionRule {
        if guards.contains("none"), guards.count > 1 {
            throw ValidationError("--guard none means no guardrail; give it alone")
        }
        let texts = guards.isEmpty ? DecisionRule.defaultGuards : guards == ["none"] ? [] : guards
        do {
            return try DecisionRule(prefer: prefer, guards: texts)
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// The profiles and populations the command line names, each of which a folder's carried inputs must hold.
    var namedInputs: [(kind: ReviewInputFile.Kind, argument: String)] {
        let profiles = comparison.profile.isEmpty ? ["hig-linear-bar"] : comparison.profile
        return profiles.map { (.profile, $0) }
            + (comparison.populationNames + [guidelines.impairedPopulation]).map { (.population, $0) }
    }

    /// The inputs to carry and the library that reads them: with `--inputs`, every file the folder carries (each
    /// profile and population argument must be one of them); otherwise the files the arguments name, the review
    /// file and the domain reference their sources cite.
    func carriedInputs(reviewFile: String?) throws -> (library: ProfileLibrary, inputs: [ReviewInputFile]) {
        let library = source.library
        let profiles = comparison.profile.isEmpty ? ["hig-linear-bar"] : comparison.profile
        if let inputs {
            do {
                return try ReviewInputs.library(library, readingCarried: inputs, named: namedInputs)
            } catch let error as ReviewInputsError {
                switch error.reason {
                case .manifest: throw UsageError("\(error.message); --inputs names a review folder's inputs/ folder")
                case .notCarried: throw UsageError("--inputs \(inputs): \(error.message); run without --inputs to read it from the library")
                case .content: throw UsageError(error.message)
                }
            }
        }
        var entries: [(kind: ReviewInputFile.Kind, argument: String, text: String)] = []
        for argument in profiles {
            entries.append((.profile, argument, try library.profileText(argument)))
        }
        var populations = comparison.populationNames
        if populations.isEmpty {
            // The designs' own population, by name, as `resolve` loads it.
            let first = try library.loadProfile(profiles[0], overrides: try source.profileOverrides())
            try library.checkPopulation(of: first)
            populations = [first.population]
        }
        for argument in populations + [guidelines.impairedPopulation] {
            entries.append((.population, argument, try library.populationText(argument)))
        }
        if let reviewFile { entries.append((.review, reviewFile, try ProfileLibrary.read(reviewFile, what: "review"))) }
        let reference = ProfileLibrary.packageFolder("docs", environment: "HOLDLAB_DOCS",
                                                     executablePath: ProfileSourceOptions.executablePath(),
                                                     sourceFile: #filePath) + "/DOMAIN.md"
        if FileManager.default.isReadableFile(atPath: reference) {
            entries.append((.reference, "DOMAIN.md", try ProfileLibrary.read(reference, what: "reference")))
        }
        return (library, try usage { try ReviewInputs.carry(entries) })
    }

    /// - Parameters:
    ///   - written: the review file's variants with where it writes their values (`ComparisonOptions.resolve`).
    ///   - sweepPlaces: the review file's sweeps with where it writes them (`ReviewRequest.sweepPlaces`), and
    ///     `variantPlaces` its variants (`ReviewRequest.variantPlaces`).
    private func write(arguments: [String], reviewFile: String?, written: [String: [ReviewFile.Located]] = [:],
                       sweepPlaces: [String: String] = [:], variantPlaces: [String: String] = [:]) throws {
        let (library, inputs) = try carriedInputs(reviewFile: reviewFile)
        let plan = try comparison.resolve(source, library: library, written: written)
        for text in sweep { _ = try usage { try SweepParameter(parsing: text) } }
        var request = ReviewRequest(
            plan: plan, users: comparison.users, seed: comparison.seed, threads: comparison.sample.workerThreads,
            thresholds: guidelines.thresholds, impairedPopulation: try guidelines.impaired(from: library, besides: plan.populations),
            question: question, sweeps: sweep,
            notebooks: NotebookFolder.discover(executablePath: ProfileSourceOptions.executablePath()),
            arguments: arguments, inputs: inputs, figureStyle: ReviewFigureStyle(rawValue: figureStyle) ?? .slide,
            rule: try decisionRule(), robustnessUsers: robustnessUsers ?? comparison.users, robustnessPoints: robustnessPoints)
        let bar = ProgressBar(label: "compare", total: comparison.users * plan.populations.count, unit: "users")
        request.precision = try precisionOption.parsed(allowed: Precision.differenceMetrics)
        request.sweepPlaces = sweepPlaces
        request.variantPlaces = variantPlaces
        let profiles = comparison.profile.isEmpty ? ["hig-linear-bar"] : comparison.profile
        request.names = ReviewNames(
            profiles: profiles + Array(repeating: profiles[0], count: comparison.variant.count),
            population: comparison.populationNames.first,
            impairedPopulation: guidelines.impairedPopulation == GuidelineOptions.defaultImpairedPopulation ? nil : guidelines.impairedPopulation,
            library: source.profilesDirectory.map { ReviewNames.option("--profiles-dir", $0) } ?? [])
        // The page's destination is checked before anything runs: a page that cannot be written leaves no folder either.
        let page = html.map(OutputFile.init(argument:))
        try page?.checkWritable()
        var notes: [String] = []
        let outcomes = try ReviewJob.write(request, to: out, page: page, progress: { bar.update($0) }, notes: { notes.append($0) })
        bar.finish()
        for (population, outcome) in zip(plan.populations, outcomes) {
            if let warning = outcome.warning(plan.populations.count > 1 ? population.name : "") { printNote(warning) }
        }
        for note in notes { printNote(note) }
        if let out { printNote("wrote \(OutputFile.joined(out, "report.md")) and the files it lists") }
        if let html, html != "-" { printNote("wrote \(html)") }
    }
}
