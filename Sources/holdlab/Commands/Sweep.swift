import ArgumentParser
import Foundation
import HoldProfiles
import HoldSimulation

extension SweepDesign: ExpressibleByArgument {
    /// Only the sweep designs: Saltelli and Morris designs belong to `holdlab sensitivity`.
    public init?(argument: String) {
        guard let design = SweepDesign(rawValue: argument), Self.sweepDesigns.contains(design) else { return nil }
        self = design
    }
    public static var allValueStrings: [String] { sweepDesigns.map(\.rawValue) }
}

struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Vary profile parameters and simulate every point: one CSV row per point.",
        discussion: """
            Columns: the varied keys as param_<key> (dots become underscores), then the simulate columns. Every point \
            uses the same seed (common random numbers): a row equals the simulate row with the same --set values, \
            curves are smooth, and rows depend on neither order nor --threads. The output file is rewritten \
            atomically as points finish, so an interrupted sweep keeps what it finished; --resume computes only the \
            missing points.

            Examples:
              holdlab sweep --profile hig-linear-bar \\
                --vary gesture.minimumDuration=0.3:1.5:0.1 --out rates.csv
              holdlab sweep --vary haptics.threshold=0.01,0.02,0.05,0.1 \\
                --vary fill.curve=linear,easeIn,easeInOut
              holdlab sweep --design lhs --points 64 \\
                --vary gesture.minimumDuration=0.4:1.2 --vary fill.duration=0.4:1.2
              holdlab sweep --vary gesture.minimumDuration=0.3:1.5:0.1 \\
                --out rates.csv --resume
            """)

    @OptionGroup var source: ProfileSourceOptions

    @Option(help: ArgumentHelp("Profile name or YAML file.", valueName: "name|file"))
    var profile: String = "hig-linear-bar"

    @Option(help: ArgumentHelp(
        "A parameter and its values: key=start:stop:step, key=start:stop (lhs, sobol) or key=v1,v2,… (repeatable).",
        valueName: "key=values"))
    var vary: [String] = []

    @Option(help: "How points are chosen: grid (every combination), lhs (Latin hypercube), sobol.")
    var design: SweepDesign = .grid

    @Option(help: "Points for --design lhs or sobol.")
    var points: Int?

    @OptionGroup var simulation: RunOptions

    @OptionGroup var output: OutputOptions

    @Flag(help: "Keep the rows already in --out (which must come from the same sweep) and compute the missing points.")
    var resume = false

    @Flag(name: .customLong("dry-run"), help: "Print the points (param columns only) without simulating.")
    var dryRun = false

    func validate() throws {
        if vary.isEmpty { throw ValidationError("Name at least one --vary key=values.") }
        if resume && output.out == "-" { throw ValidationError("--resume needs --out FILE: the file to resume") }
        try refuseRepeatedKeys(vary, option: "--vary")
        try source.refuseRepeatedKeys(alsoVaried: vary.map(keyPath(of:)), by: "--vary")
        let library = source.library
        try refuseOutputsOverInputs([("--out", output.file)], inputs: [
            ("--profile", library.profilePath(profile)), ("--population", simulation.population.map(library.populationPath)),
        ])
    }

    func run() throws {
        try reportingErrors {
            _ = try source.library.loadProfile(profile)  // a clear error for a missing or invalid profile
            let parameters = try vary.map { text throws(SweepError) in try SweepParameter(parsing: text) }
            let plan = try SweepPlan(parameters: parameters, design: design, points: points, seed: simulation.seed)
            if dryRun {
                var text = plan.parameters.map(\.column).joined(separator: ",") + "\n"
                for point in plan.points { text += point.map(CSV.field).joined(separator: ",") + "\n" }
                try emit(text)
                printNote("\(plan.points.count) points (\(plan.design.rawValue)); nothing simulated")
                return
            }
            let (request, base) = try sweepRequest(plan: plan, profile: profile, source: source, simulation: simulation)
            let profiles = try Sweep.profiles(request)
            let out = OutputFile(argument: output.out)
            try out.checkWritable()

            var rows: [String] = []
            if resume, case .file(let file) = out {
                rows = try resumedRows(file, request: request, baseProfile: base, what: "sweep output")
            }
            var head = CSV.provenance([
                ("holdlab", "\(HoldLabVersion.current) sweep"),
                ("command", commandLineWithoutThreads()),
            ] + Sweep.identity(request, baseProfile: base))
            head += Sweep.header(plan) + "\n"
            try runSweepPoints(request, profiles: profiles, rows: &rows, head: head, out: out, label: "sweep")
        }
    }
}
