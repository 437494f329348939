import ArgumentParser
import Foundation
import HoldLabIO
import HoldProfiles
import HoldSimulation

struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare designs on the same synthetic people: paired differences against a baseline.",
        discussion: """
            Designs are profiles (--profile) and labelled --set variants of the first profile (--variant). Every \
            design sees the same people (common random numbers) in every population, so each difference to the \
            baseline has a paired 95 % interval, usually much narrower than the unpaired one also written. Rates \
            use Bonett and Price's adjusted Wald interval for paired proportions (method bonett-price-paired), \
            completed_unseen_rate the same adjustment in the delta method (bonett-price-delta), means the delta \
            method over the same people with pseudo-people at the extreme differences (paired-delta-adjusted); \
            unpaired intervals are never narrower than paired ones. --intervals 0.1 gives the intervals of holdlab \
            0.1 (Newcombe's paired score), to reproduce figures cited from it. Standard output is one row per \
            population, design and metric; --summaries writes each design's simulate row. Byte-identical for any \
            --threads.

            --precision METRIC=WIDTH stops each population's comparison at the first chunk of 4,096 users where every \
            design's paired interval for METRIC (diff_lo, diff_hi) has a larger half of at most WIDTH (or WIDTH % of \
            diff); the rows are then those of a --users run of that many users, for any --threads. --users is the \
            cap: a target not met there gives a warning and status 0. The # precision: line says which.

            Examples:
              holdlab compare --profile hig-linear-bar \\
                --variant fast="fill.duration=0.6 gesture.minimumDuration=0.8" \\
                --population default,motor-impaired
              holdlab compare --profile hig-linear-bar --profile mismatched-fill \\
                --summaries designs.csv
              holdlab compare --profile hig-linear-bar \\
                --variant slow=gesture.minimumDuration=2.0 --precision completion_rate=0.002
            """)

    @OptionGroup var source: ProfileSourceOptions

    @OptionGroup var comparison: ComparisonOptions

    @OptionGroup var precisionOption: PrecisionOptions

    @OptionGroup var output: OutputOptions

    @OptionGroup var quietOption: QuietOption

    @OptionGroup var view: RowFormatOptions

    @Option(help: ArgumentHelp("Also write each design's simulate row (a design column first) to this file.", valueName: "file"), completion: .file())
    var summaries: String?

    @Option(name: .customLong("per-user"), help: ArgumentHelp(
        "Also write one row per population, user and design (population, then the simulate --per-user columns).",
        valueName: "file"), completion: .file())
    var perUser: String?

    @Flag(name: .customLong("list-columns"), help: "Print the columns with their units and definitions, then exit.")
    var listColumns = false

    func validate() throws {
        for (option, value) in [("--summaries", summaries), ("--per-user", perUser)] where value == "" {
            throw ValidationError("\(option) needs a file name, or - for standard output with --out FILE")
        }
        // One output may be standard output: the differences' unless --out names a file.
        let toStandardOutput = [("--out", output.file == nil ? "-" : nil), ("--summaries", summaries), ("--per-user", perUser)]
            .filter { $0.1 == "-" }.map(\.0)
        if toStandardOutput.count > 1 {
            throw ValidationError("\(toStandardOutput.joined(separator: " and ")) would all write to standard output"
                + (output.file == nil ? ", which carries the differences without --out FILE" : "")
                + "; name a file for all but one")
        }
        try source.refuseRepeatedKeys()
        _ = try precisionOption.parsed(allowed: Precision.differenceMetrics)
        // Standard input can be read once: a profile and a population from it would read the profile twice.
        try refuseUnreadableInputNames(comparison.profile.map { ("--profile", $0) }
            + comparison.populationNames.map { ("--population", $0) })
        // `-` and a name for the same file (`--out /dev/stdout --per-user -`) are one output.
        try refuseSameOutputs([("--out", output.file ?? "-"), ("--summaries", summaries), ("--per-user", perUser)])
        let outputs = [("--out", output.file), ("--summaries", summaries == "-" ? nil : summaries),
                       ("--per-user", perUser == "-" ? nil : perUser)]
        try refuseOutputsOverInputs(outputs, inputs: comparison.inputs(source))
    }

    func run() throws {
        if listColumns {
            try emit(view.columnList(ComparisonCSV.columns.map { ($0.name, $0.unit, $0.definition) }))
            return
        }
        try reportingErrors {
            let resolved = try comparison.resolve(source)
            let out = OutputFile(argument: output.out)
            try view.checkColumns(known: ComparisonCSV.columns.map(\.name))
            try out.checkWritable()
            let summaryFile = try summaries.map { path throws -> StreamedOutput in try StreamedOutput(argument: path) }
            // The provenance depends on the command and the designs only: the per-user rows start with it, as
            // simulate's do, so they can be traced to the run that made them.
            let made = Provenance.made(by: "compare", commandLine: CommandRecord.line(dropping: CommandRecord.threads, flags: CommandRecord.resume))
            var provenance = made + resolved.provenance(users: comparison.users, seed: comparison.seed)
            let precision = try precisionOption.parsed(allowed: Precision.differenceMetrics)
            let perUserFile = try perUser.map { path throws -> StreamedOutput in try StreamedOutput(argument: path) }
            // --no-comments and HOLDLAB_NO_COMMENTS leave out the '#' lines of every file the command writes, not only
            // standard output's.
            let comments = !view.omitsComments
            try perUserFile?.write(SimulationJob.perUserHead(
                provenance: provenance, precision: precision, populationColumn: true, comments: comments,
                stops: "the rows of each population", counted: "the differences'"))
            let bar = ProgressBar(label: "compare", total: comparison.users * resolved.populations.count, unit: "users")
            let results = try resolved.run(
                users: comparison.users, seed: comparison.seed, threads: comparison.sample.workerThreads, precision: precision,
                perUser: perUserFile.map { file in { try file.write($0) } }, progress: { bar.update($0) })
            bar.finish()
            let outcomes = precision.map { resolved.outcomes(results, precision: $0, cap: comparison.users) } ?? []
            if precision != nil { provenance = made + resolved.provenance(outcomes: outcomes, seed: comparison.seed) }
            let differences = ComparisonCSV.differences(results, provenance: provenance)
            var summaryNotes: [String] = []
            if let summaryFile {
                let summaries = ComparisonCSV.summaries(results, designs: resolved.designs, provenance: provenance)
                try summaryFile.write(try ResultDocument(summaries).rendered(as: .csv, comments: comments))
                try summaryFile.flush()
                // Its columns beyond the differences' (peak_pulse_rate_hz) say why they can be NaN too.
                summaryNotes = summaries.undefinedValueNotes(subject: "row").map { Note.about("--summaries", $0) }
            }
            try perUserFile?.flush()
            // The differences, the summaries and the per-user file are renamed into place together.
            let outputs = OutputGroup()
            for file in [summaryFile, perUserFile].compactMap({ $0?.partialFile }) { outputs.add(file) }
            try outputs.write(out, view.render(ResultDocument(differences), for: out))
            try outputs.commit()
            for (population, outcome) in zip(resolved.populations, outcomes) {
                if let warning = outcome.warning(resolved.populations.count > 1 ? population.name : "") { printNote(warning) }
            }
            if let note = resolved.undefinedNote(results) { printNote(note) }
            for note in summaryNotes { printNote(note) }
            if let note = resolved.zeroWidthNote(results) { printNote(note) }
            if summaryFile != nil, let note = SimulationSummary.fewEventsNote(results.flatMap { result in
                zip(resolved.designs, result.summaries).map { (label: "\($0.label), \($1.population)", summary: $1) }
            }) { printNote(note) }
        }
    }
}
