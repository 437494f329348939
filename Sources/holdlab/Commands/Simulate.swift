import ArgumentParser
import Foundation
import HoldLabIO
import HoldProfiles
import HoldSimulation

struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Simulate synthetic users against profiles and write one CSV summary row per profile.",
        discussion: """
            Every profile in one call sees the same synthetic people (common random numbers), so differences between \
            rows are not sampling noise. --population a,b (or repeated) runs every profile against each population: \
            one row per profile and population, population by population (the population column says which; \
            --per-user then gains a population column first). Data rows are byte-identical for any --threads. Rates \
            carry 95 % Wilson intervals; NaN marks a statistic with no data. The columns are documented in docs/COLUMNS.md.

            --precision METRIC=WIDTH stops at the first chunk of 4,096 users where every profile's METRIC has a 95 % \
            interval (its _lo/_hi columns) with a larger half of at most WIDTH (or WIDTH % of the value); the rows are \
            then those of a --users run of that many users, for any --threads. --users is the cap: a target not met \
            there gives a warning and status 0. The # precision: line says which. Not with --shard, --shards or --emit.

            Examples:
              holdlab simulate
              holdlab simulate --profile hig-linear-bar --profile static-long-press \\
                --population hurried --users 200000
              holdlab simulate --profile hig-linear-bar --population default,motor-impaired
              holdlab simulate --profile kikocard-accelerating \\
                --set haptics.minInterval=0.03 --per-user users.csv
              holdlab simulate --format table \\
                --columns profile,completion_rate,false_activation_rate
              holdlab simulate --out summary.csv --per-user - | head
              holdlab simulate --profile - < my-control.yaml
              holdlab simulate --precision completion_rate=0.002 \\
                --precision completion_time_mean_ms=1% --users 200000
            """)

    @OptionGroup var source: ProfileSourceOptions

    @Option(help: ArgumentHelp("Profile name or YAML file (repeatable). Default: hig-linear-bar.", valueName: "name|file"), completion: .profileNames)
    var profile: [String] = []

    @OptionGroup var simulation: RunOptions

    @OptionGroup var precisionOption: PrecisionOptions

    @OptionGroup var output: OutputOptions

    @OptionGroup var quietOption: QuietOption

    @OptionGroup var view: RowFormatOptions

    @Option(name: .customLong("per-user"), help: ArgumentHelp(
        "Also write one row per user and profile to this file, CSV with the summary's '#' lines (none with --no-comments; '-' for standard output when --out names a file).",
        valueName: "file|-"), completion: .file())
    var perUser: String?

    @Flag(name: .customLong("list-columns"), help: "Print the summary columns with their units and definitions, then exit.")
    var listColumns = false

    // Last among the options (a titled group would be printed before OPTIONS); each says which engine it is for
    // (docs/CLUSTER.md).
    @OptionGroup var sharding: ShardOptions

    func validate() throws {
        if perUser == "" || perUser == "-" && output.file == nil {
            throw ValidationError("--per-user - needs --out FILE: standard output cannot carry both the summary and the users")
        }
        try view.checkColumns(known: SimulationCSV.columns.map(\.name))
        try refuseUnreadableInputNames(profile.map { ("--profile", $0) } + simulation.populationNames.map { ("--population", $0) })
        try source.refuseRepeatedKeys()
        try sharding.validate(out: output)
        _ = try precisionOption.parsed(allowed: Precision.summaryMetrics)
        if !precisionOption.precision.isEmpty && (sharding.shard != nil || sharding.shards != nil || sharding.emit != nil) {
            throw ValidationError("--precision stops a run where the whole run's intervals are narrow enough; a shard sees only its own users: run without --shard, --shards and --emit, or shard with a fixed --users")
        }
        if sharding.emit != nil && perUser != nil {
            throw ValidationError("--per-user goes with a run or a --shard, not with --emit")
        }
        if sharding.shard != nil && !view.keepsReadableCSV(for: OutputFile(argument: output.out)) {
            throw ValidationError("a shard file is CSV for holdlab merge: drop --format, --columns and --no-comments")
        }
        try refuseSameOutputs([("--out", output.file ?? "-"), ("--per-user", perUser)])
        let library = source.library
        try refuseOutputsOverInputs(
            [("--out", output.file), ("--per-user", perUser == "-" ? nil : perUser)],
            inputs: profile.map { ("--profile", library.profilePath($0)) } + simulation.populationNames.map { ("--population", library.populationPath($0)) })
    }

    func run() throws {
        if listColumns {
            try emit(view.columnList(SimulationCSV.columns.map { ($0.name, $0.unit, $0.definition) }))
            return
        }
        try reportingErrors {
            let library = source.library
            let overrides = try source.profileOverrides()
            let profiles = try library.loadProfilesWithText(profile.isEmpty ? ["hig-linear-bar"] : profile,
                                                            overrides: overrides).map(\.profile)
            try refuseSameProfileNames(profiles, given: profile)
            var populations: [Population] = []
            let names: [String]
            do { names = try SimulationJob.populationNames(given: simulation.populationNames, profiles: profiles) } catch {
                throw UsageError("\(error)")
            }
            // The profiles' own population (no --population): an unknown name is the profile's problem, at its line.
            if simulation.populationNames.isEmpty, let first = profiles.first { try library.checkPopulation(of: first) }
            for name in names {
                let population = try library.loadPopulation(name)
                if populations.contains(where: { $0.name == population.name }) {
                    throw UsageError("--population \(population.name) is given twice")
                }
                populations.append(population)
            }
            populations = try source.applyingPopulationOverrides(to: populations)
            if populations.count > 1 && (sharding.shard != nil || sharding.shards != nil || sharding.emit != nil) {
                throw UsageError("--shard, --shards and --emit run one population; give one --population per sharded run")
            }
            var job = SimulationJob(
                profiles: profiles, populations: populations, users: simulation.users, seed: simulation.seed,
                rng: simulation.rng, threads: simulation.workerThreads,
                commandLine: CommandRecord.line(dropping: CommandRecord.threads, flags: CommandRecord.resume))
            job.precision = try precisionOption.parsed(allowed: Precision.summaryMetrics)
            let shard = try sharding.parsedShard
            if let shards = sharding.shards {
                try ShardSpec.check(shards: shards, units: Simulator.chunkCount(users: simulation.users),
                                    what: "user chunks of \(Simulator.chunkSize) (--users \(simulation.users))")
            }
            if let script = try sharding.script(command: "simulate", out: output.out) {
                try emit(script)
                return
            }
            let out = OutputFile(argument: output.out)
            try out.checkWritable()
            let perUserFile = try perUser.map { path throws -> StreamedOutput in try StreamedOutput(argument: path) }
            // The per-user rows honour --no-comments and HOLDLAB_NO_COMMENTS as the summary does; a shard's per-user
            // file is not read back by merge, so it may leave them out too.
            try perUserFile?.write(job.perUserHead(comments: !view.omitsComments))
            let writeUser = perUserFile.map { file in { (text: String) throws in try file.write(text) } }
            if let shard {
                let chunks = shard.range(of: Simulator.chunkCount(users: simulation.users))
                let users = min(chunks.upperBound * Simulator.chunkSize, simulation.users) - chunks.lowerBound * Simulator.chunkSize
                let bar = ProgressBar(label: "simulate \(shard)", total: max(0, users), unit: "users")
                let text = try ShardRun.simulation(
                    job.request(populations[0]), shard: shard, identity: job.identity.entries.map { ($0.key, $0.value) },
                    command: job.commandLine, planCommand: planCommandLine(), perUser: writeUser, progress: { bar.update($0) })
                bar.finish()
                try perUserFile?.flush()
                let outputs = OutputGroup()
                if let file = perUserFile?.partialFile { outputs.add(file) }
                try outputs.write(out, text)
                try outputs.commit()
                return
            }
            let bar = ProgressBar(label: "simulate", total: simulation.users * populations.count, unit: "users")
            let summaries = try job.summaries(perUser: writeUser, progress: { bar.update($0) })
            let outcomes = job.outcomes(summaries)
            let table = SimulationCSV.table(summaries, provenance: job.provenance(outcomes: outcomes))
            bar.finish()
            // Every byte of the per-user file is written before anything is committed, and the summary and the
            // per-user file are renamed into place together: a failure or a signal leaves both as they were.
            try perUserFile?.flush()
            let outputs = OutputGroup()
            if let file = perUserFile?.partialFile { outputs.add(file) }
            try outputs.write(out, view.render(ResultDocument(table), for: out))
            try outputs.commit()
            for (population, outcome) in zip(populations, outcomes) {
                if let warning = outcome.warning(populations.count > 1 ? population.name : "") { printNote(warning) }
            }
            noteUndefinedValues(table, subject: "row")
            if let note = SimulationSummary.fewEventsNote(summaries, viewIntervals: view.format(for: out) != .csv) { printNote(note) }
        }
    }
}
