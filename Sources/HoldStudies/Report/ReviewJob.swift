import Foundation
import HoldLabIO
import HoldPreview
import HoldProfiles
import HoldSimulation

/// What `holdlab report` makes: a comparison of designs over populations, the guideline checks of every design,
/// one traced hold per design, the requested sweeps, their figures and `report.md`.
public struct ReviewRequest: Sendable {
    public var plan: ComparisonPlan
    public var users: Int
    public var seed: UInt64
    public var threads: Int
    public var thresholds: GuidelineThresholds
    /// The population of `motor-impaired-completion`.
    public var impairedPopulation: Population
    /// The question `report.md` answers; nil: which design, for which populations.
    public var question: String?
    /// `--sweep` texts (`key=values`, as `sweep --vary`): the baseline design over one key, against the first population.
    public var sweeps: [String]
    public var notebooks: NotebookFolder
    /// The arguments that make this review (without `--out` and `--threads`): what every CSV records and
    /// `reproduce.sh` runs.
    public var arguments: [String]
    /// Where profiles named by relative paths are found from (`reproduce.sh` changes into it).
    public var workingDirectory: String
    /// What the review maximises and the guardrails it holds (`--prefer`, `--guard`).
    public var rule: DecisionRule
    /// Users per comparison when varying the behaviour assumptions (0: no robustness section), and values per
    /// assumption (`--robustness-users`, `--robustness-points`).
    public var robustnessUsers: Int
    public var robustnessPoints: Int
    /// The assumptions varied, with their plausible ranges.
    public var assumptions: [BehaviourAssumption]

    public init(plan: ComparisonPlan, users: Int, seed: UInt64, threads: Int, thresholds: GuidelineThresholds,
                impairedPopulation: Population, question: String?, sweeps: [String], notebooks: NotebookFolder,
                arguments: [String], workingDirectory: String, rule: DecisionRule = DecisionRule.standard,
                robustnessUsers: Int = 0, robustnessPoints: Int = RobustnessRequest.defaultGridPoints,
                assumptions: [BehaviourAssumption] = BehaviourAssumptions.all) {
        self.plan = plan
        self.users = users
        self.seed = seed
        self.threads = threads
        self.thresholds = thresholds
        self.impairedPopulation = impairedPopulation
        self.question = question
        self.sweeps = sweeps
        self.notebooks = notebooks
        self.arguments = arguments
        self.workingDirectory = workingDirectory
        self.rule = rule
        self.robustnessUsers = robustnessUsers
        self.robustnessPoints = robustnessPoints
        self.assumptions = assumptions
    }
}

/// Writes a design review folder: assembled beside its destination and renamed into place when complete, so a
/// failed review leaves no half folder (`PartialDirectory`). Nothing in it depends on the time or the folder's path.
public enum ReviewJob {
    /// Writes the review into the folder `out` (created, or an earlier review replaced).
    ///
    /// - Parameter progress: users simulated so far by the comparison, of `users × populations`.
    public static func write(_ request: ReviewRequest, to out: String, progress: ((Int) -> Void)? = nil) throws {
        guard Gnuplot.executable() != nil else {
            throw PlotFailure(status: 69, message: "gnuplot is not installed (or not on PATH); install it with: sudo apt-get install gnuplot-nox")
        }
        let fillScript = try request.notebooks.script("fill-curves")
        let ratesScript = try request.notebooks.script("design-rates")
        let ratesSweepScript = try request.notebooks.script("rates-vs-duration")
        let marginScript = request.robustnessUsers > 0 ? try request.notebooks.script("robustness-margin") : nil
        let plan = request.plan
        let (users, seed, threads) = (request.users, request.seed, request.threads)
        let directory = try PartialDirectory(path: out, marker: "report.md")
        let command = CSV.commandLine(["holdlab"] + request.arguments)
        let head = Provenance.made(by: "report", commandLine: command) + plan.provenance(users: users, seed: seed)
        func write(_ name: String, _ table: ResultTable) throws {
            try directory.write(name, ResultDocument(table).rendered(as: .csv))
        }

        // The comparison: designs.csv and differences.csv.
        let results = try plan.run(users: users, seed: seed, threads: threads, progress: progress)
        try write("designs.csv", ComparisonCSV.summaries(results, designs: plan.designs, provenance: head))
        try write("differences.csv", ComparisonCSV.differences(results, provenance: head))

        // The guideline checks, every design against the first population. The comparison already simulated every
        // design against its populations, with the same users and seed: the checks reuse those summaries (each
        // equals the design's own simulate run) instead of simulating again.
        let checkPopulation = plan.populations[0]
        let impaired = request.impairedPopulation
        let impairedIndex = plan.populations.firstIndex { $0.name == impaired.name && $0.contentHash == impaired.contentHash }
        var checks: [[GuidelineResult]] = []
        for (index, design) in plan.designs.enumerated() {
            var profile = design.profile
            profile.name = design.label
            checks.append(try Guidelines.check(GuidelineRequest(
                profile: profile, population: checkPopulation, impairedPopulation: impaired, users: users, seed: seed,
                threads: threads, thresholds: request.thresholds, summary: results[0].summaries[index],
                impairedSummary: impairedIndex.map { results[$0].summaries[index] })))
        }
        var checkProvenance = Provenance(head.entries.filter { $0.key != "method" })
        checkProvenance.append("checked_against", "\(checkPopulation.name) fnv1a64:\(checkPopulation.contentHash)")
        checkProvenance.append("impaired_population", "\(impaired.name) fnv1a64:\(impaired.contentHash)")
        try write("checks.csv", ResultTable(provenance: checkProvenance, columns: Guidelines.resultColumns,
                                            rows: checks.joined().map(Guidelines.cells)))

        // One traced hold per design, and the figures.
        var designs: [ReviewInput.Design] = []
        var traces: [String] = []
        for (design, sets) in zip(plan.designs, plan.sets) {
            let trace = TraceRequest(profile: design.profile, seed: seed)
            let hold = try trace.run()
            let name = "trace-\(design.label).csv"
            let traceCommand = CSV.commandLine(["holdlab", "trace", "--profile", design.profile.name] + sets.flatMap { ["--set", $0] }
                + ["--seed", "\(seed)"])
            try directory.write(name, trace.result(of: hold, commandLine: traceCommand).rendered(as: .csv))
            traces.append(name)
            designs.append(ReviewInput.Design(
                design: design, sets: sets, actionMs: hold.timeline.triggerTime.map { $0 * 1000 },
                fullMs: hold.timeline.firstFullFrameTime.map { $0 * 1000 }))
        }
        let labels = plan.designs.map(\.label).joined(separator: " ")
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
        let baselineDesign = plan.designs[plan.baseline]
        for text in request.sweeps {
            let parameter = try SweepParameter(parsing: text)
            let sweepPlan = try SweepPlan(parameters: [parameter], design: .grid, points: nil, seed: seed)
            let baseOverrides: [Override]
            do {
                baseOverrides = try plan.sets[plan.baseline].map { text throws(ProfileError) in try Override(parsing: text) }
            } catch {
                throw SweepError("\(error)")
            }
            let path = plan.paths[plan.baseline]
            let sweep = SweepRequest(
                profileText: try ProfileLibrary.read(path, what: "profile"), profilePath: path, baseOverrides: baseOverrides,
                population: checkPopulation, plan: sweepPlan, users: users, seed: seed, threads: threads)
            var rows: [[ResultCell]] = []
            try Sweep.run(sweep, profiles: try Sweep.profiles(sweep), onRows: { rows += $0 })
            let stem = "sweep-\(parameter.keyPath)"
            try write(stem + ".csv", Sweep.table(sweepPlan, rows: rows, provenance: Provenance.made(by: "report", commandLine: command)
                + Provenance(Sweep.identity(sweep, baseProfile: baselineDesign.profile))))
            for kind in Gnuplot.extensions {
                try Gnuplot.render(script: ratesSweepScript, assignments: [
                    ("data", directory.temporary + "/" + stem + ".csv"), ("x", parameter.column),
                ], out: directory.reserve("\(stem)-rates.\(kind)"))
            }
            sweepFiles.append((stem + ".csv", "a sweep of \(baselineDesign.label) over `\(parameter.keyPath)` (`\(text)`) against `\(checkPopulation.name)`: the `holdlab sweep` columns"))
            sweepFiles.append((stem + "-rates.svg", "completion and false activation against `\(parameter.keyPath)` (also .png)"))
            sweepFigures.append((stem + "-rates", "Completion and false activation rates of \(baselineDesign.label) against \(parameter.keyPath), for \(checkPopulation.name) users, 95 % Wilson bands"))
        }

        let populations = plan.populations.map(\.name)
        let defaultQuestion = ReviewArgumentText.defaultQuestion(designs: plan.designs.map(\.label), populations: populations)
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

        // The argument: the decision, each knob's share, the robustness to the assumed people.
        let labelList = plan.designs.map(\.label)
        let decision = request.rule.decide(labels: labelList, baseline: plan.baseline, populations: populations, results: results)
        let decompositions = try ReviewJob.knobShares(request, users: users)
        var argumentFiles: [(String, String)] = []
        if !decompositions.isEmpty {
            try write("knob-shares.csv", KnobShares.table(decompositions, provenance: head))
            argumentFiles.append(("knob-shares.csv", "each key's part of every variant that sets several: alone, removed, Shapley share, interaction, with paired intervals"))
        }
        var findings: [RobustnessFinding] = []
        var marginFigure: String?
        if request.robustnessUsers > 0, let marginScript {
            let robustnessRequest = RobustnessRequest(
                plan: plan, rule: request.rule, assumptions: request.assumptions, gridPoints: request.robustnessPoints,
                users: request.robustnessUsers, seed: seed, threads: threads)
            findings = try Robustness.run(robustnessRequest, assumed: request.robustnessUsers == users ? results : nil)
            var provenance = head
            provenance.append("robustness", "\(request.robustnessUsers) users per comparison, \(request.robustnessPoints) values per assumption")
            try write("robustness.csv", Robustness.table(findings, labels: labelList, provenance: provenance))
            argumentFiles.append(("robustness.csv", "each behaviour assumption's values, the verdict and its margin at each"))
            if !findings.isEmpty {
                for kind in Gnuplot.extensions {
                    try Gnuplot.render(script: marginScript, assignments: [("data", directory.temporary + "/robustness.csv")],
                                       out: directory.reserve("robustness-margin.\(kind)"))
                }
                marginFigure = "robustness-margin"
                argumentFiles.append(("robustness-margin.svg", "the decision's margin against each assumption (also .png)"))
            }
        }
        files.insert(contentsOf: argumentFiles, at: files.count - 1)
        let argument = ReviewArgument(
            rule: request.rule, decision: decision, decompositions: decompositions, robustness: findings,
            robustnessUsers: request.robustnessUsers, gridPoints: request.robustnessPoints, robustnessFigure: marginFigure)
        let input = ReviewInput(
            question: request.question ?? defaultQuestion, designs: designs, baseline: plan.baseline,
            populations: plan.populations, users: users, seed: seed, results: results,
            checks: checks, checkPopulation: checkPopulation.name, impairedPopulation: impaired.name,
            thresholds: request.thresholds,
            figures: [("fill-curves", "Fill curves: one traced hold per design; a dot where the action fires, a square at the first full frame"),
                      ("design-rates", "Completion and false activation rates per population, 95 % Wilson intervals")] + sweepFigures,
            files: files, argument: argument)
        try directory.write("report.md", ReviewReport.markdown(input, version: HoldLabVersion.current))
        try directory.write("reproduce.sh", reproduceScript(arguments: request.arguments, workingDirectory: request.workingDirectory),
                            executable: true)
        try directory.commit()
    }

    /// Each knob's share of every variant that sets more than one key, for the preferred metric and the guarded rates.
    static func knobShares(_ request: ReviewRequest, users: Int) throws -> [KnobDecomposition] {
        let plan = request.plan
        let metrics = ([request.rule.prefer.metric] + request.rule.guards.map(\.metric) + ["completion_rate", "false_activation_rate"])
            .reduce(into: [String]()) { list, metric in
                if ContrastComparison.metrics.contains(metric), !list.contains(metric) { list.append(metric) }
            }
        var result: [KnobDecomposition] = []
        for variant in plan.variants where variant.keys.count > 1 {
            let common: [Override]
            do {
                common = try plan.sets[0].map { text throws(ProfileError) in try Override(parsing: text) }
            } catch {
                throw SweepError("\(error)")
            }
            result += try KnobShares.run(
                KnobVariant(label: plan.designs[variant.index].label, base: plan.designs[0].label, profilePath: plan.paths[0],
                            profileText: try ProfileLibrary.read(plan.paths[0], what: "profile"), common: common, keys: variant.keys),
                populations: plan.populations, metrics: metrics, users: users, seed: request.seed, threads: request.threads)
        }
        return result
    }

    /// The script that runs the same report again, into its own folder or the one given.
    public static func reproduceScript(arguments: [String], workingDirectory: String) -> String {
        """
        #!/bin/sh
        # Regenerates this design review byte for byte: sh reproduce.sh [FOLDER]
        # FOLDER defaults to the folder this script is in. Needs holdlab and gnuplot on PATH.
        set -eu
        here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
        out=${1:-$here}
        case $out in /*) ;; *) out=$(pwd)/$out ;; esac
        # Profiles and populations named by relative paths are found from where the report was first made.
        cd \(CSV.commandLine([workingDirectory])) 2>/dev/null || true
        exec \(CSV.commandLine(["holdlab", "report"] + arguments.dropFirst())) --out "$out"

        """
    }
}
