import ArgumentParser
import Foundation
import HoldLabIO
import HoldProfiles
import HoldSimulation
import HoldStudies


struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Vary profile parameters and simulate every point: one CSV row per point.",
        discussion: """
            Columns: the varied keys as param_<key> (dots become underscores), then the simulate columns. Every point \
            uses the same seed (common random numbers): a row equals the simulate row with the same --set values, \
            curves are smooth, and rows depend on neither order nor --threads. The output file is rewritten \
            atomically as points finish, so an interrupted sweep keeps what it finished; --resume computes only the \
            missing points. --population a,b runs every point against each population, rows population by population (the \
            population column says which). A profile (with its --set values) need only be valid with the varied values: \
            every point is checked, and a point that is not valid is named (a value its key never takes first, \
            wherever it stands; a problem the file has at every point is the file's, 65, at its line).

            --precision METRIC=WIDTH runs each point (against each population) until its METRIC's 95 % interval has \
            a larger half of at most WIDTH (or WIDTH % of the value), in chunks of 4,096 users, at most --users: its \
            row is then the simulate --precision row of its values (the users column says where it stopped), and a \
            warning names the points that reached --users first. --resume and --shard work with it (the # \
            sweep_precision: line must match).

            Examples:
              holdlab sweep --profile hig-linear-bar \\
                --vary gesture.minimumDuration=0.3:1.5:0.1 --out rates.csv
              holdlab sweep --vary haptics.threshold=0.01,0.02,0.05,0.1 \\
                --vary fill.curve=linear,easeIn,easeInOut
              holdlab sweep --design lhs --points 64 \\
                --vary gesture.minimumDuration=0.4:1.2 --vary fill.duration=0.4:1.2
              holdlab sweep --vary gesture.minimumDuration=0.3:1.5:0.1 \\
                --out rates.csv --resume
              holdlab sweep --vary gesture.minimumDuration=0.6,0.8,1.0 \\
                --population default,motor-impaired
              holdlab sweep --vary gesture.minimumDuration=0.6,0.8,1.0 \\
                --precision completion_rate=0.004
            """)

    @OptionGroup var source: ProfileSourceOptions

    @Option(help: ArgumentHelp("Profile name or YAML file.", valueName: "name|file"), completion: .profileNames)
    var profile: String = "hig-linear-bar"

    @Option(help: ArgumentHelp(
        "A parameter and its values: key=start:stop:step, key=start:stop (lhs, sobol) or key=v1,v2,… (repeatable).",
        valueName: "key=values"))
    var vary: [String] = []

    @Option(help: ArgumentHelp(
        "How points are chosen: grid (every combination), lhs (Latin hypercube), sobol, or a CSV file whose header names a key per column and whose rows are the points, in file order (a SALib or scipy.stats.qmc sample; no --vary).",
        valueName: "grid|lhs|sobol|file.csv"),
            completion: .custom { _, _, prefix in
                ["grid", "lhs", "sobol"].filter { $0.hasPrefix(prefix) } + Completions.paths(prefix, extensions: ["csv"])
            })
    var design: String = "grid"

    /// `--design` as a built-in design, or nil for a design file.
    var namedDesign: SweepDesign? {
        SweepDesign(rawValue: design).flatMap { [.grid, .lhs, .sobol].contains($0) ? $0 : nil }
    }

    @Option(parsing: .unconditional, help: "Points for --design lhs or sobol.")
    var points: Int?

    @OptionGroup var simulation: RunOptions

    @OptionGroup var precisionOption: PrecisionOptions

    @OptionGroup var output: OutputOptions

    @OptionGroup var quietOption: QuietOption

    @OptionGroup var view: RowFormatOptions

    @Flag(help: "Keep the rows already in --out (which must come from the same sweep) and compute the missing points.")
    var resume = false

    @Flag(name: .customLong("dry-run"), help: "Print the points (param columns only) without simulating.")
    var dryRun = false

    // Last among the options (a titled group would be printed before OPTIONS); each says which engine it is for
    // (docs/CLUSTER.md).
    @OptionGroup var sharding: ShardOptions

    func validate() throws {
        if namedDesign == nil {
            // A name that is no design and no file is a typo, not a missing file.
            if design == "saltelli" || design == "morris" {
                throw ValidationError("--design \(design) is a sensitivity design; run holdlab sensitivity --method \(design == "saltelli" ? "sobol" : "morris")")
            }
            if !design.contains("/") && !design.contains(".") && !FileManager.default.fileExists(atPath: design) {
                throw ValidationError("--design \(design): not grid, lhs or sobol\(Suggestions.didYouMean(design, among: ["grid", "lhs", "sobol"])), nor a design file")
            }
            if !vary.isEmpty { throw ValidationError("--design \(design): the file's header names the keys; drop --vary") }
            if points != nil { throw ValidationError("--design \(design): the file's rows are the points; drop --points") }
            if design == "-" { throw ValidationError("--design -: a design is read again by --resume and by every shard; give a file") }
        } else if vary.isEmpty {
            throw ValidationError("Name at least one --vary key=values (or give --design FILE).")
        }
        if resume && output.out == "-" { throw ValidationError("--resume needs --out FILE: the file to resume") }
        if resume && !view.keepsReadableCSV(for: OutputFile(argument: output.out)) {
            throw ValidationError("--resume reads back the CSV it wrote: drop --format, --columns and --no-comments")
        }
        try refuseUnreadableInputNames([("--profile", profile), ("--population", simulation.population)])
        try sharding.validate(out: output)
        if resume && (sharding.shard != nil || sharding.emit != nil) {
            throw ValidationError("--resume goes with an unsharded sweep; a shard is rerun whole (merge says which are missing)")
        }
        if dryRun && sharding.emit != nil { throw ValidationError("--dry-run and --emit: give one") }
        if sharding.shard != nil && !view.keepsReadableCSV(for: OutputFile(argument: output.out)) {
            throw ValidationError("a shard file is CSV for holdlab merge: drop --format, --columns and --no-comments")
        }
        try refuseRepeatedKeys(vary, option: "--vary")
        _ = try precisionOption.parsed(allowed: Precision.summaryMetrics)
        try source.refuseRepeatedKeys(alsoVaried: vary.map(keyPath(of:)), by: "--vary")
        let library = source.library
        try refuseOutputsOverInputs([("--out", output.file)], inputs: [("--profile", library.profilePath(profile))]
            + populationNames.map { ("--population", library.populationPath($0)) } + (namedDesign == nil ? [("--design", design)] : []))
    }

    /// `--population a,b`: every point runs against each, rows population by population.
    var populationNames: [String] {
        simulation.populationNames
    }

    func run() throws {
        try reportingErrors {
            let library = source.library
            let path = library.profilePath(profile)
            var built: SweepPlan?
            func makePlan() throws -> SweepPlan {
                if let built { return built }
                let plan: SweepPlan
                if let namedDesign {
                    let parameters = try vary.map { text throws(SweepError) in try SweepParameter(parsing: text) }
                    plan = try SweepPlan(parameters: parameters, design: namedDesign, points: points, seed: simulation.seed)
                } else {
                    // 100,000 rows of a few keys: well under 64 MiB.
                    plan = try SweepPlan(designFile: design, text: try ProfileLibrary.read(design, what: "design", limit: 64 << 20))
                    try source.refuseRepeatedKeys(alsoVaried: plan.parameters.map(\.keyPath), by: "--design \(design)")
                    for repeated in plan.repeats.prefix(5) { printNote("warning: \(repeated)") }
                    if plan.repeats.count > 5 { printNote("warning: --design \(design): \(plan.repeats.count - 5) more points repeat an earlier one") }
                }
                built = plan
                return plan
            }
            // A clear error for a missing or invalid profile before the plan, with the --set values applied (as
            // every point is): a --set that switches the model leaves the file's keys of the old one moot here too.
            // A base invalid only through the varied keys is no fault of the sweep: a point stands for it.
            let baseOverrides = try source.profileOverrides()
            let (base, text, standsIn) = try sweepBase(profile, library: library, overrides: baseOverrides, plan: makePlan,
                                                       blame: { blamingDesign($0, plan: built) })
            let plan = try makePlan()
            let out = OutputFile(argument: output.out)
            let shard = try sharding.parsedShard
            if let shard { try shard.check(units: plan.points.count, what: "points") }
            if let shards = sharding.shards { try ShardSpec.check(shards: shards, units: plan.points.count, what: "points") }
            var populations: [Population] = []
            if populationNames.isEmpty { try library.checkPopulation(of: base) }
            for name in populationNames.isEmpty ? [base.population] : populationNames {
                let population = try library.loadPopulation(name)
                if populations.contains(where: { $0.name == population.name }) {
                    throw UsageError("--population \(population.name) is given twice")
                }
                populations.append(population)
            }
            populations = try source.applyingPopulationOverrides(to: populations, warning: false)
            if populations.count > 1 && (shard != nil || sharding.shards != nil || sharding.emit != nil) {
                throw UsageError("--shard, --shards and --emit take one population; run one sharded sweep per population")
            }
            var request = SweepRequest(
                profileText: text, profilePath: path,
                baseOverrides: baseOverrides, populations: populations, plan: plan, users: simulation.users, seed: simulation.seed,
                rng: simulation.rng, threads: simulation.workerThreads)
            request.baseStandsIn = standsIn
            request.precision = try precisionOption.parsed(allowed: Precision.summaryMetrics)
            // A dry run prints the points once every option is checked (--set, --population, --precision) and every
            // point's profile loads, as the run would check them before simulating.
            if dryRun {
                let range = shard?.range(of: plan.points.count) ?? 0..<plan.points.count
                _ = try pointProfiles(request, points: range)
                let columns = Array(Sweep.columns(plan).prefix(plan.parameters.count))
                let points = plan.points[range].map { point in
                    point.map { value in Double(value).map { .formatted(CSV.field(value), value: $0) } ?? ResultCell.text(value) }
                }
                try emit(view.render(ResultDocument(ResultTable(columns: columns, rows: points)), for: .standardOutput))
                printNote("\(range.count) points (\(plan.design.rawValue)\(shard.map { ", shard \($0)" } ?? "")); nothing simulated")
                return
            }
            if let shard {
                // A shard validates and simulates its own points only (the script --emit prints checked them all).
                let points = try ShardRun.sweepPoints(request, shard: shard)
                let profiles = try pointProfiles(request, points: points)
                try out.checkWritable()
                try runShard(shard, request: request, points: points, profiles: profiles, base: base, out: out)
                return
            }
            let profiles = try pointProfiles(request, points: 0..<plan.points.count)
            try view.checkColumns(known: Sweep.header(plan).split(separator: ",").map(String.init))
            if let script = try sharding.script(command: "sweep", out: output.out) {
                try emit(script)
                return
            }
            try out.checkWritable()
            // The CSV streams to standard output as points finish; another view needs every row, so it is written
            // once at the end (and a file is rewritten in that view as points finish).
            var rows: [String] = []
            if resume, case .file(let file) = out {
                rows = try resumedRows(file, request: request, baseProfile: base, what: "sweep output")
            }
            let provenance = Provenance.made(by: "sweep", commandLine: CommandRecord.line(dropping: CommandRecord.threads, flags: CommandRecord.resume))
                + Provenance(Sweep.identity(request, baseProfile: base))
            let head = provenance.lines + Sweep.header(plan) + "\n"
            // A sweep's file keeps its '#' lines whatever HOLDLAB_NO_COMMENTS says, so that --resume can read it back
            // (only --no-comments, which --resume refuses, leaves them out); standard output follows the variable.
            let plain = resume || out != .standardOutput ? view.keepsReadableCSV(for: out) : view.isPlainCSV(for: out)
            let rendered: (([[ResultCell]]) throws -> String)? = plain ? nil : { typed in
                try view.render(ResultDocument(Sweep.table(plan, rows: typed, provenance: provenance)), for: out)
            }
            try runSweepPoints(request, profiles: profiles, rows: &rows, head: head, out: out, label: "sweep", view: rendered)
        }
    }

    /// The profiles of `points`, every one validated; with a design file, a value the profile refuses is the file's
    /// fault (65), said at the point's line.
    private func pointProfiles(_ request: SweepRequest, points: Range<Int>) throws -> [Profile] {
        do {
            return try Sweep.profiles(request, points: points)
        } catch let error as SweepError {
            throw blamingDesign(error, plan: request.plan)
        }
    }

    /// A point's error as the design file's (65), at the line of `plan`'s file that writes the point
    /// (`--design d.csv:5: point 2 (…): …`); as is without a design file.
    private func blamingDesign(_ error: SweepError, plan: SweepPlan?) -> Error {
        guard namedDesign == nil else { return error }
        let line = error.point.flatMap { point in plan.flatMap { $0.pointLines.indices.contains(point) ? $0.pointLines[point] : nil } }
        return SweepError("--design \(design)\(line.map { ":\($0)" } ?? ""): \(error.message)", kind: .data)
    }

    /// Simulates shard `shard`'s points and writes its shard file once, complete (`holdlab merge` refuses a shard
    /// without its end line, so a partial shard is never mistaken for a whole one).
    private func runShard(_ shard: ShardSpec, request: SweepRequest, points: Range<Int>, profiles: [Profile], base: Profile,
                          out: OutputFile) throws {
        for note in try Sweep.populationNotes(request, points: points) { printNote("warning: \(note)") }
        let bar = ProgressBar(label: "sweep \(shard)", total: points.count * simulation.users, unit: "points", per: simulation.users)
        var rows: [[ResultCell]] = []
        var shortfalls: [Sweep.PointShortfall] = []
        try Sweep.run(request, profiles: profiles, points: points, onSummaries: { batch in
            rows += batch.map { Sweep.cells(values: $0.values, summary: $0.summary) }
            shortfalls += batch.compactMap { Sweep.precisionShortfall(request, values: $0.values, summary: $0.summary) }
        }, progress: { bar.update($0) })
        bar.finish()
        if let warning = Sweep.precisionWarning(request, shortfalls: shortfalls, rows: rows.count) { printNote(warning) }
        try out.write(ShardRun.sweepFile(
            request, shard: shard, identity: Sweep.identity(request, baseProfile: base), command: CommandRecord.line(dropping: CommandRecord.threads, flags: CommandRecord.resume),
            planCommand: planCommandLine(), rows: rows.map { $0.map(\.csvText).joined(separator: ",") }))
        noteUndefinedValues(Sweep.table(request.plan, rows: rows, provenance: Provenance()), subject: "row")
    }
}
