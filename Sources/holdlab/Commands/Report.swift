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
            review file (see Profiles/reviews/ and README.md) instead of those options; the report is the one the \
            equivalent options write, byte for byte, and records (and reproduce.sh runs) that command line, so the \
            folder does not need the file.

            Examples:
              holdlab report --profile hig-linear-bar \\
                --variant fast="fill.curve=easeIn fill.duration=0.6 gesture.minimumDuration=0.8" \\
                --population default,motor-impaired --out review
              sh review/reproduce.sh
              holdlab report --review Profiles/reviews/fast-fill.yaml --out review
            """)

    @OptionGroup var source: ProfileSourceOptions

    @OptionGroup var comparison: ComparisonOptions

    @OptionGroup var guidelines: GuidelineOptions

    @Option(help: ArgumentHelp("The question the review answers (default: which design, for which populations).", valueName: "text"))
    var question: String?

    @Option(help: ArgumentHelp(
        "A sweep to draw: key=values as in holdlab sweep --vary (repeatable). The baseline design against the first population; completion and false activation against the key.",
        valueName: "key=values"))
    var sweep: [String] = []

    @Option(name: .customLong("out"), help: ArgumentHelp("The folder to write (created or replaced atomically).", valueName: "dir"))
    var out: String

    @Option(help: ArgumentHelp(
        "A YAML review file naming the designs, populations, users, seed, baseline, question and sweeps (instead of those options).",
        valueName: "file"))
    var review: String?

    /// The options a review file gives, refused beside `--review`.
    static let reviewOptions = ["--question", "--profile", "--set", "--variant", "--population", "--baseline", "--users",
                                "--seed", "--sweep"]

    func validate() throws {
        if out.isEmpty || out == "-" { throw ValidationError("--out needs a folder name") }
        try source.refuseRepeatedKeys()
        try refuseRepeatedKeys(sweep, option: "--sweep")
        for text in sweep {
            do { _ = try SweepParameter(parsing: text) } catch { throw ValidationError("--sweep \(text): \(error)") }
        }
        try refuseOutputsOverInputs([("--out", out)], inputs: comparison.inputs(source) + [("--review", review)])
    }

    /// The command line without `--out DIR` and `--threads N`: what the CSVs record and reproduce.sh runs.
    static func reproducibleArguments(_ commandLine: [String]) -> [String] {
        CommandRecord.arguments(commandLine, dropping: CommandRecord.threads.union(["--out"]))
    }

    func run() throws {
        try reportingErrors {
            let commandLine = Array(CommandLine.arguments.dropFirst())
            guard let review else { return try write(arguments: Self.reproducibleArguments(commandLine)) }
            let expanded = try Self.expand(commandLine, review: ReviewFile.load(path: review))
            let report: Report
            do {
                report = try Report.parse(Array(expanded.dropFirst()))
            } catch {
                throw UsageError("\(review): \(Report.message(for: error))")
            }
            try report.write(arguments: Self.reproducibleArguments(expanded))
        }
    }

    /// The command line with `--review FILE` replaced by the options the file gives; those options are refused
    /// beside it, and each sweep is checked where the file writes it.
    static func expand(_ commandLine: [String], review: ReviewFile) throws -> [String] {
        for argument in commandLine {
            for option in reviewOptions where argument == option || argument.hasPrefix(option + "=") {
                throw UsageError("\(option) is given by the review file; write it there, or drop --review")
            }
        }
        for sweep in review.sweeps {
            do { _ = try SweepParameter(parsing: sweep.text) } catch {
                throw ProfileError(origin: sweep.origin, keyPath: sweep.keyPath, message: "\(error)")
            }
        }
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

    private func write(arguments: [String]) throws {
        guard Gnuplot.executable() != nil else {
            throw PlotFailure(status: 69, message: "gnuplot is not installed (or not on PATH); install it with: sudo apt-get install gnuplot-nox")
        }
        let folder = NotebookFolder.discover(executablePath: ProfileSourceOptions.executablePath())
        let fillScript = try folder.script("fill-curves")
        let ratesScript = try folder.script("design-rates")
        let ratesSweepScript = try folder.script("rates-vs-duration")
        let library = source.library
        let resolved = try comparison.resolve(source)
        let threads = comparison.threads ?? ProcessInfo.processInfo.activeProcessorCount
        let directory = try PartialDirectory(path: out, marker: "report.md")
        let command = CSV.commandLine(["holdlab"] + arguments)
        let head = Provenance.made(by: "report", commandLine: command)
            + resolved.provenance(users: comparison.users, seed: comparison.seed)

        // The comparison: designs.csv and differences.csv.
        let bar = ProgressBar(label: "compare", total: comparison.users * resolved.populations.count, unit: "users")
        let results = try resolved.run(users: comparison.users, seed: comparison.seed, threads: threads, progress: { bar.update($0) })
        bar.finish()
        try directory.write("designs.csv", ResultDocument(ComparisonCSV.summaries(results, designs: resolved.designs, provenance: head))
            .rendered(as: .csv))
        try directory.write("differences.csv", ResultDocument(ComparisonCSV.differences(results, provenance: head)).rendered(as: .csv))

        // The guideline checks, every design against the first population.
        let checkPopulation = resolved.populations[0]
        let impaired = try library.loadPopulation(guidelines.impairedPopulation)
        // The comparison already simulated every design against its populations, with the same users and seed: the
        // checks reuse those summaries (each equals the design's own simulate run) instead of simulating again.
        let impairedIndex = resolved.populations.firstIndex {
            $0.name == impaired.name && $0.contentHash == impaired.contentHash
        }
        var checks: [[GuidelineResult]] = []
        var checkText = Guidelines.columns.joined(separator: ",") + "\n"
        for (index, design) in resolved.designs.enumerated() {
            var profile = design.profile
            profile.name = design.label
            let checked = try Guidelines.check(GuidelineRequest(
                profile: profile, population: checkPopulation, impairedPopulation: impaired, users: comparison.users,
                seed: comparison.seed, threads: threads, thresholds: guidelines.thresholds,
                summary: results[0].summaries[index], impairedSummary: impairedIndex.map { results[$0].summaries[index] }))
            checks.append(checked)
            for result in checked { checkText += Guidelines.row(result) + "\n" }
        }
        try directory.write("checks.csv", CSV.provenance([("holdlab", "\(HoldLabVersion.current) report"), ("command", command)]
            + resolved.provenance(users: comparison.users, seed: comparison.seed).entries.filter { $0.key != "method" }.map { ($0.key, $0.value) }
            + [("checked_against", "\(checkPopulation.name) fnv1a64:\(checkPopulation.contentHash)"),
               ("impaired_population", "\(impaired.name) fnv1a64:\(impaired.contentHash)")]) + checkText)

        // One traced hold per design, and the figures.
        var designs: [ReviewInput.Design] = []
        var traces: [String] = []
        for (design, sets) in zip(resolved.designs, resolved.sets) {
            let request = TraceRequest(profile: design.profile, seed: comparison.seed)
            let trace = try request.run()
            let name = "trace-\(design.label).csv"
            let traceCommand = CSV.commandLine(["holdlab", "trace", "--profile", design.profile.name] + sets.flatMap { ["--set", $0] }
                + ["--seed", "\(comparison.seed)"])
            try directory.write(name, try TraceReport.csv(request, commandLine: traceCommand))
            traces.append(name)
            designs.append(ReviewInput.Design(
                design: design, sets: sets, actionMs: trace.timeline.triggerTime.map { $0 * 1000 },
                fullMs: trace.timeline.firstFullFrameTime.map { $0 * 1000 }))
        }
        let labels = resolved.designs.map(\.label).joined(separator: " ")
        for (stem, script, data, extra) in [
            ("fill-curves", fillScript, traces, [("titles", labels)]),
            ("design-rates", ratesScript, ["designs.csv"], []),
        ] {
            for kind in Gnuplot.extensions {
                let figure = directory.reserve("\(stem).\(kind)")
                let files = data.map { directory.temporary + "/" + $0 }.joined(separator: " ")
                try Gnuplot.render(script: script, assignments: [("data", files)] + extra, out: figure)
            }
        }

        // Requested sweeps: the baseline design over one key, against the first population.
        var sweepFiles: [(String, String)] = []
        var sweepFigures: [(stem: String, caption: String)] = []
        let baselineDesign = resolved.designs[resolved.baseline]
        for text in sweep {
            let parameter = try usage { try SweepParameter(parsing: text) }
            let plan = try usage { try SweepPlan(parameters: [parameter], design: .grid, points: nil, seed: comparison.seed) }
            let baseOverrides = try usage {
                try resolved.sets[resolved.baseline].map { text throws(ProfileError) in try Override(parsing: text) }
            }
            let path = resolved.paths[resolved.baseline]
            let request = SweepRequest(
                profileText: try ProfileLibrary.read(path, what: "profile"), profilePath: path, baseOverrides: baseOverrides,
                population: checkPopulation, plan: plan, users: comparison.users, seed: comparison.seed, threads: threads)
            var rows = ""
            try Sweep.run(request, profiles: try Sweep.profiles(request), onRows: { batch in rows += batch.map { $0.map(\.csvText).joined(separator: ",") + "\n" }.joined() })
            let stem = "sweep-\(parameter.keyPath)"
            try directory.write(stem + ".csv", CSV.provenance([("holdlab", "\(HoldLabVersion.current) report"), ("command", command)]
                + Sweep.identity(request, baseProfile: baselineDesign.profile)) + Sweep.header(plan) + "\n" + rows)
            for kind in Gnuplot.extensions {
                try Gnuplot.render(script: ratesSweepScript, assignments: [
                    ("data", directory.temporary + "/" + stem + ".csv"), ("x", parameter.column),
                ], out: directory.reserve("\(stem)-rates.\(kind)"))
            }
            sweepFiles.append((stem + ".csv", "a sweep of \(baselineDesign.label) over `\(parameter.keyPath)` (`\(text)`) against `\(checkPopulation.name)`: the `holdlab sweep` columns"))
            sweepFiles.append((stem + "-rates.svg", "completion and false activation against `\(parameter.keyPath)` (also .png)"))
            sweepFigures.append((stem + "-rates", "Completion and false activation rates of \(baselineDesign.label) against \(parameter.keyPath), for \(checkPopulation.name) users, 95 % Wilson bands"))
        }

        let populations = resolved.populations.map(\.name)
        let defaultQuestion = "Which design should ship: " + resolved.designs.map { "**\($0.label)**" }.joined(separator: ", ")
            + ", for " + (populations.count == 1 ? "`\(populations[0])` users" : populations.map { "`\($0)`" }.joined(separator: " and ") + " users") + "?"
        var files: [(String, String)] = [
            ("report.md", "this report"),
            ("designs.csv", "each design's `holdlab simulate` row per population (a `design` column first)"),
            ("differences.csv", "every rate and mean of each design against the baseline: difference, paired and unpaired 95 % intervals, method"),
            ("checks.csv", "the guideline rules per design: status, measured figure, threshold, source"),
        ]
        files += traces.map { ($0, "one hold of the design, frame by frame (`holdlab trace`), behind the fill-curves figure") }
        files += [("fill-curves.svg", "the designs' fill curves (also .png)"), ("design-rates.svg", "rates with intervals per population (also .png)"),
                  ("reproduce.sh", "regenerates this folder byte for byte")]
        files.insert(contentsOf: sweepFiles, at: files.count - 1)
        let input = ReviewInput(
            question: question ?? defaultQuestion, designs: designs, baseline: resolved.baseline,
            populations: resolved.populations, users: comparison.users, seed: comparison.seed, results: results,
            checks: checks, checkPopulation: checkPopulation.name, impairedPopulation: impaired.name,
            thresholds: guidelines.thresholds,
            figures: [("fill-curves", "Fill curves: one traced hold per design; a dot where the action fires, a square at the first full frame"),
                      ("design-rates", "Completion and false activation rates per population, 95 % Wilson intervals")] + sweepFigures,
            files: files)
        try directory.write("report.md", ReviewReport.markdown(input, version: HoldLabVersion.current))
        try directory.write("reproduce.sh", Self.reproduceScript(arguments: arguments), executable: true)
        try directory.commit()
        printNote("wrote \(out)/report.md and the files it lists")
    }

    /// The script that runs the same report again, into its own folder or the one given.
    static func reproduceScript(arguments: [String]) -> String {
        let directory = FileManager.default.currentDirectoryPath
        return """
            #!/bin/sh
            # Regenerates this design review byte for byte: sh reproduce.sh [FOLDER]
            # FOLDER defaults to the folder this script is in. Needs holdlab and gnuplot on PATH.
            set -eu
            here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
            out=${1:-$here}
            case $out in /*) ;; *) out=$(pwd)/$out ;; esac
            # Profiles and populations named by relative paths are found from where the report was first made.
            cd \(CSV.commandLine([directory])) 2>/dev/null || true
            exec \(CSV.commandLine(["holdlab", "report"] + arguments.dropFirst())) --out "$out"

            """
    }
}
