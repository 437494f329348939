import GSL
import Foundation
import HoldLabIO
import HoldModel
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
    /// Where a sweep is written when the user did not type it as `--sweep TEXT` (a review file's entry,
    /// `r.yaml:8:5: sweeps[0]`), by its text: its problems are named there.
    public var sweepPlaces: [String: String] = [:]
    /// Where a variant's values are written when the user did not type them as `--variant LABEL=…` (a review file's
    /// `variants.LABEL`), by label: a sweep's problem names them there.
    public var variantPlaces: [String: String] = [:]
    public var notebooks: NotebookFolder
    /// The arguments that make this review (without `--out`, `--threads` and `--inputs`): what every CSV records
    /// and `reproduce.sh` runs.
    public var arguments: [String]
    /// The files the review was made from, carried in its `inputs/` folder: `reproduce.sh` reads them back
    /// (`report --inputs`), so it needs neither the library nor the paths of the machine that made it.
    public var inputs: [ReviewInputFile]
    /// How the figures are drawn: for slides (the default) or as HoldLab 0.1.0 drew them.
    public var figureStyle: ReviewFigureStyle
    /// The recommendation in one line, when the review states one: the scorecard's title (without it the scorecard
    /// is titled by its question).
    public var recommendation: String?

    /// What the review maximises and the guardrails it holds (`--prefer`, `--guard`).
    public var rule: DecisionRule
    /// Users per comparison when varying the behaviour assumptions (0: no robustness section), and values per
    /// assumption (`--robustness-users`, `--robustness-points`).
    public var robustnessUsers: Int
    public var robustnessPoints: Int
    /// The assumptions varied, with their plausible ranges.
    public var assumptions: [BehaviourAssumption]
    /// `--precision`: the comparison of each population stops at the first chunk where every paired difference
    /// meets every target (`users` is then the cap); the checks take the users the first population took, the sweeps,
    /// knob shares and robustness (at its default of `users`) the most users a population's comparison took.
    public var precision: Precision?
    /// How the command line names what the review reads, for the commands its files quote.
    public var names = ReviewNames()

    public init(plan: ComparisonPlan, users: Int, seed: UInt64, threads: Int, thresholds: GuidelineThresholds,
                impairedPopulation: Population, question: String?, sweeps: [String], notebooks: NotebookFolder,
                arguments: [String], inputs: [ReviewInputFile] = [], figureStyle: ReviewFigureStyle = .slide,
                rule: DecisionRule = DecisionRule.standard, robustnessUsers: Int = 0,
                robustnessPoints: Int = RobustnessRequest.defaultGridPoints,
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
        self.inputs = inputs
        self.figureStyle = figureStyle
        self.rule = rule
        self.robustnessUsers = robustnessUsers
        self.robustnessPoints = robustnessPoints
        self.assumptions = assumptions
    }
}

/// How a review's command line names the files it reads (as typed: a library name or a path), for the commands its
/// files quote (each design's `holdlab check` line in report.md, the trace CSVs' `holdlab trace`), which must run
/// where the report's command runs. Without them, the names the profiles and populations give.
public struct ReviewNames: Sendable {
    /// Per design, its profile's argument (a variant's is its profile's).
    public var profiles: [String]
    /// The first `--population` argument, and `--impaired-population`'s, when given.
    public var population: String?
    public var impairedPopulation: String?
    /// `--profiles-dir DIR`, when given.
    public var library: [String]

    public init(profiles: [String] = [], population: String? = nil, impairedPopulation: String? = nil, library: [String] = []) {
        self.profiles = profiles
        self.population = population
        self.impairedPopulation = impairedPopulation
        self.library = library
    }

    func profile(_ index: Int, named name: String) -> String { index < profiles.count ? profiles[index] : name }

    /// An option and its value as words a parser reads back: `--name=VALUE` for a value that starts with '-'.
    public static func option(_ name: String, _ value: String) -> [String] { value.hasPrefix("-") ? ["\(name)=\(value)"] : [name, value] }

    /// The words of the `holdlab check` command that checks a design as a review's checks.csv does: the same
    /// population (`population`, the review's first, unless the command line named it), users, seed, generator and
    /// thresholds, and the design's `--set` values.
    func checkCommand(profile: String, sets: [String], population: String, impaired: String, users: Int, seed: UInt64,
                      rng: Generator.Kind, thresholds: GuidelineThresholds) -> [String] {
        var words = ["holdlab", "check", profile.hasPrefix("-") ? "--profile=" + profile : profile] + library
            + Self.option("--population", self.population ?? population)
        if let named = impairedPopulation ?? (impaired == "motor-impaired" ? nil : impaired) {
            words += Self.option("--impaired-population", named)
        }
        words += sets.flatMap { ["--set", $0] }
        words += ["--users", String(users), "--seed", String(seed)]
        if rng != .users { words += ["--rng", rng.rawValue] }
        return words + thresholds.arguments
    }
}

/// Writes a design review folder: assembled beside its destination and renamed into place when complete, so a
/// failed review leaves no half folder (`PartialDirectory`). Nothing in it depends on the time or the folder's path.
public enum ReviewJob {
    /// The longest file name the folder's file systems take (Linux's NAME_MAX).
    static let maximumFileNameBytes = 255

    /// The folder's file of one design's traced hold, named by its label.
    static func traceFile(_ label: String) -> String { "trace-\(label).csv" }

    /// Writes the review into the folder `out` (created, or an earlier review replaced), and its page
    /// (`report.html`, the folder's own) to `page` when one is given. Without `out` the folder is assembled in a
    /// temporary and removed: only the page is written.
    ///
    /// - Parameter progress: users simulated so far by the comparison, of `users × populations`.
    /// - Returns: with `--precision`, how each population's comparison ended (for the command's warnings).
    /// - Parameter notes: the notes for standard error of the CSVs written: why a cell is NaN (designs.csv, a
    ///   sweep's), each naming its file.
    @discardableResult
    public static func write(_ request: ReviewRequest, to out: String?, page: OutputFile? = nil,
                             progress: ((Int) -> Void)? = nil, notes: ((String) -> Void)? = nil) throws -> [PrecisionOutcome] {
        guard Gnuplot.executable() != nil else {
            throw PlotFailure(status: 69, message: "gnuplot is not installed (or not on PATH); install it with: sudo apt-get install gnuplot-nox")
        }
        // Each design names a file of the folder (`trace-LABEL.csv`): a label too long for a file name (255 bytes)
        // stops the review here, not after the comparison has run (0.3.17: status 73, "File name too long").
        if let long = request.plan.designs.first(where: { Self.traceFile($0.label).utf8.count > Self.maximumFileNameBytes }) {
            throw PlotFailure(status: 64, message: "design '\(long.label.prefix(40))…' (\(long.label.utf8.count) bytes): a report names a "
                + "file of each design (trace-LABEL.csv), and a file name is at most \(Self.maximumFileNameBytes) bytes: "
                + "give the design a label of at most \(Self.maximumFileNameBytes - 10) bytes (--variant LABEL=…, or the profile's name:)")
        }
        let fillScript = try request.notebooks.script("fill-curves")
        let ratesScript = try request.notebooks.script("design-rates")
        let ratesSweepScript = try request.notebooks.script("rates-vs-duration")
        let marginScript = request.robustnessUsers > 0 ? try request.notebooks.script("robustness-margin") : nil
        let plan = request.plan
        let (cap, seed, threads) = (request.users, request.seed, request.threads)
        let scratch = NSTemporaryDirectory() + "/holdlab-report-page-\(ProcessInfo.processInfo.processIdentifier)"
        let directory = try PartialDirectory(path: out ?? scratch, marker: "report.md")
        let command = CSV.commandLine(["holdlab"] + request.arguments)
        // The tables the page shows, as the CSVs are rendered from them.
        var pageTables: [(name: String, table: ResultTable)] = []
        /// Writes one CSV; `undefinedNote` is why some of its cells are NaN where its columns cannot say (the
        /// differences', which the plan knows).
        func write(_ name: String, _ table: ResultTable, undefinedNote: String? = nil) throws {
            try directory.write(name, ResultDocument(table).rendered(as: .csv))
            pageTables.append((name, table))
            // The summaries' columns say why a value can be undefined.
            if name == "designs.csv" || name.hasPrefix("sweep-") {
                for note in table.undefinedValueNotes(subject: name == "designs.csv" ? "row" : "point") {
                    notes?(Note.about(name, note))
                }
            }
            if let undefinedNote { notes?(Note.about(name, undefinedNote)) }
        }

        // The requested sweeps (the baseline design over one key, against the first population), every point's
        // profile made before anything runs: a value the profile refuses stops the review here, not after the
        // comparison has run.
        let sweeps = try request.sweeps.map { text in
            do {
                let parameter = try SweepParameter(parsing: text)
                if let problem = Population.sweepProblem(parameter.keyPath, among: plan.populations) { throw SweepError(problem) }
                let sweepPlan = try SweepPlan(parameters: [parameter], design: .grid, points: nil, seed: seed)
                let baseOverrides: [Override]
                do {
                    baseOverrides = try plan.profileOverrides(of: plan.baseline)
                } catch {
                    throw SweepError("\(error)")
                }
                let path = plan.paths[plan.baseline]
                var sweep = SweepRequest(
                    profileText: try plan.profileText(of: plan.baseline), profilePath: path, baseOverrides: baseOverrides,
                    population: plan.populations[0], plan: sweepPlan, users: cap, seed: seed, rng: plan.rng,
                    threads: threads)
                // A variant baseline's own values (every design has the first's `--set`s) are named as its.
                let label = plan.designs[plan.baseline].label
                for text in plan.sets[plan.baseline] where !plan.sets[0].contains(text) {
                    sweep.overrideNames[text] = "\(request.variantPlaces[label] ?? "--variant \(label)") \(text)"
                }
                return (text, parameter, sweepPlan, sweep, try Sweep.profiles(sweep))
            } catch let error as SweepError {
                // Named as the user gave it (--sweep, or the review file's entry), not as sweep's --vary.
                let message = error.description
                let vary = "--vary \(text): "
                let place = request.sweepPlaces[text] ?? "--sweep \(text)"
                throw SweepError("\(place): " + (message.hasPrefix(vary) ? String(message.dropFirst(vary.count)) : message), kind: error.kind)
            }
        }

        // The comparison: designs.csv and differences.csv.
        let results = try plan.run(users: cap, seed: seed, threads: threads, precision: request.precision, progress: progress)
        // With --precision, what the comparison took: every later part of the review takes as many users.
        let outcomes = request.precision.map { plan.outcomes(results, precision: $0, cap: cap) } ?? []
        let users = outcomes.map(\.users).max() ?? cap
        let head = Provenance.made(by: "report", commandLine: command)
            + (outcomes.isEmpty ? plan.provenance(users: users, seed: seed) : plan.provenance(outcomes: outcomes, seed: seed))
        let robustnessUsers = request.precision != nil && request.robustnessUsers == cap ? users : request.robustnessUsers
        try write("designs.csv", ComparisonCSV.summaries(results, designs: plan.designs, provenance: head))
        try write("differences.csv", ComparisonCSV.differences(results, provenance: head), undefinedNote: plan.undefinedNote(results))

        // The guideline checks, every design against the first population. The comparison already simulated every
        // design against its populations, with the same users and seed: the checks reuse those summaries (each
        // equals the design's own simulate run) instead of simulating again. With --precision each population took
        // its own users: the checks take the first population's, as its summaries did, so every simulation behind
        // checks.csv (the impaired population's when it did not run, a suggested fix's) has as many users as the
        // measurements in designs.csv it repeats (`holdlab check --users` of that many gives the same rows).
        let checkPopulation = plan.populations[0]
        let checkUsers = outcomes.first?.users ?? cap
        let impaired = request.impairedPopulation
        // The impaired population's summaries are reused when it ran with as many users (else it is simulated).
        let impairedIndex = plan.populations.indices.first { index in
            let population = plan.populations[index]
            return population.name == impaired.name && population.contentHash == impaired.contentHash
                && (outcomes.isEmpty || outcomes[index].users == checkUsers)
        }
        var checks: [[GuidelineResult]] = []
        var together: [FixesTogether?] = []
        for (index, design) in plan.designs.enumerated() {
            var profile = design.profile
            profile.name = design.label
            let checkRequest = GuidelineRequest(
                profile: profile, population: checkPopulation, impairedPopulation: impaired, users: checkUsers, seed: seed,
                rng: plan.rng, threads: threads, thresholds: request.thresholds, summary: results[0].summaries[index],
                impairedSummary: impairedIndex.map { results[$0].summaries[index] }, sets: plan.sets[index])
            checks.append(try Guidelines.check(checkRequest))
            together.append(try Guidelines.together(checkRequest, checks[index]))
        }
        var checkProvenance = Provenance(head.entries.filter { $0.key != "method" })
        checkProvenance.append("checked_against", "\(checkPopulation.name) fnv1a64:\(checkPopulation.contentHash)")
        checkProvenance.append("impaired_population", "\(impaired.name) fnv1a64:\(impaired.contentHash)")
        if !outcomes.isEmpty {
            checkProvenance.append("check_users", "\(checkUsers) per simulation (the users \(checkPopulation.name) took)")
        }
        let ruleSet = request.thresholds.ruleSet
        try write("checks.csv", ResultTable(provenance: checkProvenance, columns: Guidelines.resultColumns(ruleSet),
                                            rows: checks.joined().map { Guidelines.cells($0, ruleSet) }))

        // One traced hold per design, and the figures.
        var designs: [ReviewInput.Design] = []
        var traces: [String] = []
        let names = request.names
        for (index, (design, sets)) in zip(plan.designs, plan.sets).enumerated() {
            let trace = TraceRequest(profile: design.profile, seed: seed)
            let hold = try trace.run()
            let name = Self.traceFile(design.label)
            let profile = names.profile(index, named: design.profile.name)
            // Each command takes the --set values it can: trace no population key (it simulates no population),
            // check those of the population it checks against (the first).
            let parsed = sets.map { (text: $0, override: try? Override(parsing: $0)) }
            let profileSets = parsed.filter { !($0.override?.reachesPopulation ?? false) }.map(\.text)
            let checkSets = parsed.filter { entry in
                guard let override = entry.override, override.reachesPopulation else { return true }
                return Population.override(override, reaches: 0, among: plan.populations)
            }.map(\.text)
            let traceCommand = CSV.commandLine(["holdlab", "trace"] + ReviewNames.option("--profile", profile) + names.library
                + profileSets.flatMap { ["--set", $0] } + ["--seed", "\(seed)"])
            let check = names.checkCommand(profile: profile, sets: checkSets, population: checkPopulation.name, impaired: impaired.name,
                                           users: checkUsers, seed: seed, rng: plan.rng, thresholds: request.thresholds)
            try directory.write(name, trace.result(of: hold, commandLine: traceCommand).rendered(as: .csv))
            traces.append(name)
            designs.append(ReviewInput.Design(
                design: design, sets: sets, actionMs: hold.timeline.triggerTime.map { $0 * 1000 },
                fullMs: hold.timeline.firstFullFrameTime.map { $0 * 1000 }, check: check, profileArgument: profile,
                together: together[index]))
        }
        if let index = pageTables.firstIndex(where: { $0.name == "checks.csv" }) {
            pageTables[index].table = ReviewReport.placingFixes(pageTables[index].table, checks: checks, designs: designs)
        }
        let labels = plan.designs.map(\.label).joined(separator: " ")
        let slide = request.figureStyle == .slide
        // Slides: each figure titled by its takeaway (`headline`); classic: 0.1.0's notebooks as they were called.
        func styled(_ headline: String) -> [(String, String)] {
            slide ? [("style", "slide"), ("headline", ReviewFigures.gnuplotText(headline))] : []
        }
        for (stem, script, data, extra) in [
            ("fill-curves", fillScript, traces, [("titles", labels)] + styled(ReviewFigures.fillHeadline(designs))),
            ("design-rates", ratesScript, ["designs.csv"], styled(ReviewFigures.ratesHeadline(results))),
        ] {
            for kind in Gnuplot.extensions {
                // gnuplot runs in the folder and gets bare names: the folder's own path may hold spaces or quotes.
                _ = directory.reserve("\(stem).\(kind)")
                try Gnuplot.render(script: script, assignments: [("data", data.joined(separator: " "))] + extra,
                                   out: "\(stem).\(kind)", in: directory.temporary, failure: Gnuplot.childFailed)
            }
        }

        // The requested sweeps, run.
        var sweepFiles: [(String, String)] = []
        var pageSweeps: [ReviewPage.SweepData] = []
        var sweepFigures: [(stem: String, caption: String)] = []
        let baselineDesign = plan.designs[plan.baseline]
        for (text, parameter, sweepPlan, planned, profiles) in sweeps {
            var sweep = planned
            sweep.users = users
            var rows: [[ResultCell]] = []
            let stem = "sweep-\(parameter.keyPath)"
            // Its points' people, where its values change them (the comparison's population was said as loaded).
            for note in try Sweep.populationNotes(sweep, besides: plan.populations[0].notes) {
                notes?("warning: \(stem).csv: \(note)")
            }
            try Sweep.run(sweep, profiles: profiles, onRows: { rows += $0 })
            // Names or booleans (fill.curve=linear,easeIn) are drawn one place apart, with intervals, not bands.
            let categorical = Sweep.columns(sweepPlan).first?.kind == .text
            // Its points take the users the comparison's precision came to (`# sweep_users:`): the `# precision:`
            // lines say whether that met the targets, as every other CSV of the review does.
            let sweepTable = Sweep.table(sweepPlan, rows: rows, provenance: Provenance.made(by: "report", commandLine: command)
                + Provenance(Sweep.identity(sweep, baseProfile: baselineDesign.profile))
                + Provenance(head.entries.filter { $0.key == "precision" }))
            try write(stem + ".csv", sweepTable)
            pageSweeps.append(ReviewPage.SweepData(
                file: stem + ".csv", keyPath: parameter.keyPath, column: parameter.column,
                baselineValue: ReviewPage.value(at: parameter.keyPath, in: baselineDesign.profile.canonicalYAML), table: sweepTable))
            for kind in Gnuplot.extensions {
                _ = directory.reserve("\(stem)-rates.\(kind)")
                let headline = ReviewFigures.sweepHeadline(key: parameter.keyPath, columns: Sweep.columns(sweepPlan), rows: rows)
                try Gnuplot.render(script: ratesSweepScript,
                                   assignments: [("data", stem + ".csv"), ("x", parameter.column)] + styled(headline),
                                   out: "\(stem)-rates.\(kind)", in: directory.temporary, failure: Gnuplot.childFailed)
            }
            sweepFiles.append((stem + ".csv", "a sweep of \(baselineDesign.label) over `\(parameter.keyPath)` (`\(text)`) against `\(checkPopulation.name)`: the `holdlab sweep` columns"))
            sweepFiles.append((stem + "-rates.svg", "completion and false activation against `\(parameter.keyPath)` (also .png)"))
            sweepFigures.append((stem + "-rates", "Completion and false activation rates of \(baselineDesign.label) against \(parameter.keyPath), for \(checkPopulation.name) users, 95 % Wilson " + (slide || categorical ? "intervals" : "bands")))
        }

        // The argument: the decision (which the scorecard states), each knob's share, the robustness to the assumed people.
        let populations = plan.populations.map(\.name)
        let labelList = plan.designs.map(\.label)
        let decision = request.rule.decide(labels: labelList, baseline: plan.baseline, populations: populations, results: results)
        // Each population's knob shares on its comparison's people, so that a variant's total is its difference in
        // differences.csv (0.3.17 took the most users any population took: with --precision the report then gave two
        // totals for one effect).
        let decompositions = try ReviewJob.knobShares(
            request, users: outcomes.isEmpty ? Array(repeating: cap, count: plan.populations.count) : outcomes.map(\.users))

        // The scorecard (slides): every design × population on one 16:9 page, with the recommendation when the review
        // states one.
        if slide {
            try write("scorecard.csv", ReviewFigures.scorecard(designs: plan.designs.map(\.label), results: results,
                                                              checks: checks, provenance: head))
            let scorecardScript = try request.notebooks.script("scorecard")
            var assignments = [("data", "scorecard.csv")]
            if let recommendation = request.recommendation ?? ReviewArgument.headline(decision, labels: labelList) {
                assignments.append(("recommendation", ReviewFigures.gnuplotText(recommendation)))
            }
            for kind in Gnuplot.extensions {
                _ = directory.reserve("scorecard.\(kind)")
                try Gnuplot.render(script: scorecardScript, assignments: assignments, out: "scorecard.\(kind)", in: directory.temporary, failure: Gnuplot.childFailed)
            }
        }

        let defaultQuestion = ReviewArgumentText.defaultQuestion(designs: plan.designs.map(\.label), populations: populations)
        var files: [(String, String)] = [
            ("report.md", "this report"),
            ("report.html", "this report as one interactive page that works offline: each design's hold animated from its trace frames at a grid of release times, the sweeps as charts, the rates and rule results"),
            ("designs.csv", "each design's `holdlab simulate` row per population (a `design` column first)"),
            ("differences.csv", "every rate and mean of each design against the baseline: difference, paired and unpaired 95 % intervals, method"),
            ("checks.csv", "the guideline rules per design: status, measured figure, threshold, source"),
        ]
        files += traces.map { ($0, "one hold of the design, frame by frame (`holdlab trace`), behind the fill-curves figure") }
        files += [("fill-curves.svg", "the designs' fill curves (also .png)"), ("design-rates.svg", "rates with intervals per population (also .png)"),
                  ("reproduce.sh", "regenerates this folder byte for byte from its inputs; `--check` compares instead of writing")]
        if !request.inputs.isEmpty {
            files.append((ReviewInputs.folder + "/" + ReviewInputs.manifestName, "the files this review was made from, each carried under `inputs/`: "
                + request.inputs.map { "`\($0.name)` (\($0.kind.rawValue) `\($0.argument)`)" }.joined(separator: ", ")))
        }
        let script = files.firstIndex { $0.0 == "reproduce.sh" } ?? files.count
        files.insert(contentsOf: sweepFiles + (slide ? [
            ("scorecard.csv", "the scorecard's rows: each design's rates, time to confirm and rule results per population"),
            ("scorecard.svg", "the scorecard: one 16:9 page for a slide (also .png)"),
        ] : []), at: script)
        var argumentFiles: [(String, String)] = []
        if !decompositions.isEmpty {
            // Their users are the comparison's, population by population (the `# users:` line of designs.csv).
            // Their intervals are the knob shares' own (`IntervalRules.contrastProvenance`), not compare's.
            var provenance = head
            provenance.entries = provenance.entries.map { entry in
                entry.key != "method" ? entry : Provenance.Entry("method", plan.intervals.contrastProvenance)
            }
            try write("knob-shares.csv", KnobShares.table(decompositions, provenance: provenance))
            argumentFiles.append(("knob-shares.csv", "each key's part of every variant that sets several: alone, removed, Shapley share, interaction, with paired intervals"))
        }
        var findings: [RobustnessFinding] = []
        var marginFigure: String?
        if robustnessUsers > 0, let marginScript {
            let robustnessRequest = RobustnessRequest(
                plan: plan, rule: request.rule, assumptions: request.assumptions, gridPoints: request.robustnessPoints,
                users: robustnessUsers, seed: seed, threads: threads)
            let reusable = robustnessUsers == users && outcomes.allSatisfy { $0.users == users }
            findings = try Robustness.run(robustnessRequest, assumed: reusable ? results : nil)
            var provenance = head
            provenance.append("robustness", "\(robustnessUsers) users per comparison, \(request.robustnessPoints) values per assumption")
            // The margin column's unit, the preferred metric's (the notebook titles its figure with it).
            provenance.append("margin_unit", DecisionRule.unit(of: request.rule.prefer.metric))
            try write("robustness.csv", Robustness.table(findings, labels: labelList, provenance: provenance))
            argumentFiles.append(("robustness.csv", "each behaviour assumption's values, the verdict and its margin at each"))
            if !findings.isEmpty {
                for kind in Gnuplot.extensions {
                    _ = directory.reserve("robustness-margin.\(kind)")
                    try Gnuplot.render(script: marginScript, assignments: [("data", "robustness.csv")],
                                       out: "robustness-margin.\(kind)", in: directory.temporary, failure: Gnuplot.childFailed)
                }
                marginFigure = "robustness-margin"
                argumentFiles.append(("robustness-margin.svg", "the decision's margin against each assumption (also .png)"))
            }
        }
        files.insert(contentsOf: argumentFiles, at: files.firstIndex { $0.0 == "reproduce.sh" } ?? files.count)
        let argument = ReviewArgument(
            rule: request.rule, decision: decision, decompositions: decompositions, robustness: findings,
            robustnessUsers: robustnessUsers, gridPoints: request.robustnessPoints, robustnessFigure: marginFigure,
            intervals: plan.intervals)
        var input = ReviewInput(
            question: request.question ?? defaultQuestion, designs: designs, baseline: plan.baseline,
            populations: plan.populations, users: users, seed: seed, results: results,
            checks: checks, checkPopulation: checkPopulation.name, impairedPopulation: impaired.name,
            thresholds: request.thresholds,
            figures: [("fill-curves", "Fill curves: one traced hold per design; a dot where the action fires, a square at the first full frame"),
                      ("design-rates", "Completion and false activation rates per population, 95 % Wilson intervals")] + sweepFigures
                + (slide ? [("scorecard", "Scorecard for a slide: each design's completion, false activation and time to confirm per population, and its guideline results")] : []),
            files: files, argument: argument)
        // Population keys of a compared population the impaired rule also runs: they do not reach the rule.
        if let index = plan.populations.firstIndex(where: { $0.name == impaired.name }) {
            input.impairedSets = (plan.sets.first ?? []).filter { text in
                (try? Override(parsing: text)).map { Population.override($0, reaches: index, among: plan.populations) } ?? false
            }
        }
        try directory.write("report.md", ReviewReport.markdown(input, version: HoldLabVersion.current))
        // The page: each design traced on one grid of release times (up to 1.5 × the latest trigger) and held to the end.
        let fullHolds = try plan.designs.map { design throws(ControlError) in try TraceRequest(profile: design.profile, seed: seed).run() }
        let latest = fullHolds.compactMap { $0.outcome.completed ? $0.timeline.triggerTime : nil }.max()
        let grid = ReviewPage.releaseGrid(triggerSeconds: latest, endSeconds: fullHolds.map { $0.rows.last?.timeSeconds ?? 1 }.max() ?? 1)
        let pageHolds = try plan.designs.map { design throws(ControlError) in try ReviewPage.holds(design.profile, seed: seed, grid: grid) }
        let html = ReviewPage.html(input, version: HoldLabVersion.current, command: command, holds: pageHolds,
                                   tables: pageTables.filter { $0.name != "differences.csv" && $0.name != "knob-shares.csv" && $0.name != "robustness.csv" },
                                   sweeps: pageSweeps)
        try directory.write("report.html", html)
        for folder in ReviewInputs.folders(request.inputs) { try directory.makeFolder(folder) }
        for file in request.inputs { try directory.write(file.name, file.text) }
        if !request.inputs.isEmpty {
            try directory.write(ReviewInputs.folder + "/" + ReviewInputs.manifestName, ReviewInputs.manifest(request.inputs))
        }
        try directory.write("reproduce.sh", reproduceScript(arguments: request.arguments, inputs: request.inputs,
                                                            version: HoldLabVersion.current), executable: true)
        // The page before the folder: standard output that cannot be written (a full disk, a closed pipe) leaves an
        // earlier folder as it was; a page file is written to its temporary first and renamed after the folder.
        var pageFile: PartialFile?
        switch page {
        case .standardOutput?: try StandardOutput.write(html)
        case .file(let path)?:
            pageFile = try PartialFile(path: path)
            try pageFile?.write(html)
            try pageFile?.flush()
        case nil: break
        }
        // Under one hold of the signal thread's lock: a signal lands before both renames or after both, never
        // between the folder and the page. Then the run's outputs are in place.
        try Temporaries.shared.committing { () throws(OutputError) in
            if out != nil { try directory.commit() }
            try pageFile?.commit()
        }
        Temporaries.shared.outputsInPlace()
        return outcomes
    }

    /// Each knob's share of every variant that sets more than one key, for the rates of people among the preferred
    /// metric, the guarded metrics, completion and false activation (a mean has no per-person contrast).
    ///
    /// - Parameter users: per population of the plan, the users its comparison took.
    static func knobShares(_ request: ReviewRequest, users: [Int]) throws -> [KnobDecomposition] {
        let plan = request.plan
        let metrics = ([request.rule.prefer.metric] + request.rule.guards.map(\.metric) + ["completion_rate", "false_activation_rate"])
            .reduce(into: [String]()) { list, metric in
                if !list.contains(metric) { list.append(metric) }
            }
        var result: [KnobDecomposition] = []
        for variant in plan.variants where variant.keys.count > 1 {
            let common: [Override]
            do {
                common = try plan.profileOverrides(of: 0)
            } catch {
                throw SweepError("\(error)")
            }
            let knobs = KnobVariant(label: plan.designs[variant.index].label, base: plan.designs[0].label, profilePath: plan.paths[0],
                                    profileText: try plan.profileText(of: 0), common: common, keys: variant.keys)
            for (population, count) in zip(plan.populations, users) {
                result += try KnobShares.run(knobs, populations: [population], metrics: metrics, users: count, seed: request.seed,
                                             rng: plan.rng, threads: request.threads, intervals: plan.intervals)
            }
        }
        return result
    }

    /// The script that runs the same report again from the folder's own inputs, into its own folder or the one
    /// given, or (`--check`) into a temporary folder it compares file by file. Nothing in it names a path of the
    /// machine that wrote it; every path it builds is quoted, so the folder may sit anywhere (spaces and quotes
    /// included). Before it overwrites a review it checks that holdlab's version and every carried input are the
    /// ones the review was made with (the inputs by POSIX `cksum`), and refuses, naming which, when they are not.
    public static func reproduceScript(arguments: [String], inputs: [ReviewInputFile], version: String) -> String {
        let command = CSV.commandLine(["holdlab", "report"] + arguments.dropFirst())
        let inputsOption = inputs.isEmpty ? "" : " --inputs \"$here/\(ReviewInputs.folder)\""
        let sums = inputs.map { "\(POSIXChecksum.line($0.text)) \($0.name)\n" }.joined()
            + (inputs.isEmpty ? "" : "\(POSIXChecksum.line(ReviewInputs.manifest(inputs))) \(ReviewInputs.folder)/\(ReviewInputs.manifestName)\n")
        return """
        #!/bin/sh
        # Regenerates this design review byte for byte from the files in inputs/ beside it:
        #   sh reproduce.sh            regenerate this folder in place
        #   sh reproduce.sh FOLDER     write the review into FOLDER instead
        #   sh reproduce.sh --check    regenerate into a temporary folder and compare file by file: exit 0 when every
        #                              file is the same, 1 naming each file that differs, 2 when it cannot regenerate
        # Needs holdlab \(version) and gnuplot on PATH; runs from any folder. It will not overwrite a review when holdlab's
        # version or a carried input differs from what the review was made with: it says which and exits 1.
        set -eu
        version=\(CSV.commandLine([version]))
        here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
        check=0
        if [ "${1-}" = --check ]; then check=1; shift; fi
        if [ "$check" = 1 ]; then
            tmp=$(mktemp -d "${TMPDIR:-/tmp}/holdlab-check.XXXXXX")
            trap 'rm -rf "$tmp"' EXIT
            trap 'exit 130' INT
            trap 'exit 143' TERM
            if ! \(command)\(inputsOption) --out "$tmp/review" >"$tmp/log" 2>&1; then
                cat "$tmp/log" >&2
                echo "reproduce.sh: holdlab report failed; nothing compared" >&2
                exit 2
            fi
            (cd "$here" && find . -type f | LC_ALL=C sort) >"$tmp/here.list"
            (cd "$tmp/review" && find . -type f | LC_ALL=C sort) >"$tmp/new.list"
            status=0
            count=0
            while IFS= read -r file; do
                count=$((count + 1))
                if [ ! -f "$tmp/review/$file" ]; then
                    echo "not regenerated: ${file#./}"; status=1
                elif ! cmp -s "$here/$file" "$tmp/review/$file"; then
                    echo "differs: ${file#./}"; status=1
                fi
            done <"$tmp/here.list"
            while IFS= read -r file; do
                if [ ! -f "$here/$file" ]; then echo "only in the regenerated review: ${file#./}"; status=1; fi
            done <"$tmp/new.list"
            if [ "$status" = 0 ]; then echo "reproduce.sh: all $count files regenerate byte for byte"; fi
            exit "$status"
        fi
        out=${1:-$here}
        case $out in /*) ;; *) out=$(pwd)/$out ;; esac
        if [ -f "$out/report.md" ]; then
            refuse=0
            now=$(holdlab --version 2>/dev/null || echo none)
            if [ "$now" != "$version" ]; then
                echo "reproduce.sh: this review was made with holdlab $version; holdlab on PATH is $now" >&2
                refuse=1
            fi
            while read -r sum size file; do
                now=$( [ -f "$here/$file" ] && cksum <"$here/$file" || echo missing )
                if [ "$now" != "$sum $size" ]; then
                    echo "reproduce.sh: $file is not the file this review was made with (cksum $sum $size, now $now)" >&2
                    refuse=1
                fi
            done <<'SUMS'
        \(sums)SUMS
            if [ "$refuse" = 1 ]; then
                echo "reproduce.sh: not overwriting $out; sh reproduce.sh --check compares without writing, sh reproduce.sh FOLDER writes elsewhere" >&2
                exit 1
            fi
        fi
        exec \(command)\(inputsOption) --out "$out"

        """
    }
}
