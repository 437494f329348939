import ArgumentParser
import Foundation
import HoldLabIO
import HoldProfiles
import HoldStudies

/// The guideline thresholds as options (shared by `check` and `report`).
struct GuidelineOptions: ParsableArguments {
    @Option(name: .customLong("mismatch-frames"), parsing: .unconditional, help: "fill-matches-action: frames the bar may look full before the action (default 1).")
    var mismatchFrames: Double = GuidelineThresholds().mismatchFrames

    @Option(name: .customLong("feedback-ms"), parsing: .unconditional, help: "first-feedback: the latest first feedback after touch-down, ms (default 100).")
    var feedbackMs: Double = GuidelineThresholds().feedbackMs

    @Option(name: .customLong("max-pulse-rate"), parsing: .unconditional, help: "haptic-rate: the fastest rate of rendered pulses to accept, Hz (default 40, HoldLab's judgement; the actuator's own limit is the profile key haptics.actuatorMinInterval).")
    var maxPulseRate: Double = GuidelineThresholds().maxPulseRateHz

    @Option(name: .customLong("max-retract-ms"), parsing: .unconditional, help: "retract-time (rules 1: pointer-cancellation): the longest an early release may leave progress showing, ms (default 1000).")
    var maxRetractMs: Double = GuidelineThresholds().maxRetractMs

    @Option(name: .customLong("fixed-hold-ms"), parsing: .unconditional, help: "timing-adjustable: warn when the action needs a longer hold, ms (default 1000).")
    var fixedHoldMs: Double = GuidelineThresholds().fixedHoldMs

    @Option(name: .customLong("min-impaired-completion"), parsing: .unconditional, help: "motor-impaired-completion: the lowest acceptable completion rate, 0–1 (default 0.8).")
    var minImpairedCompletion: Double = GuidelineThresholds().minImpairedCompletion

    @Option(name: .customLong("impaired-population"), help: ArgumentHelp(
        "motor-impaired-completion: the population to check (default motor-impaired).", valueName: "name|file"),
        completion: .populationNames)
    var impairedPopulation = Self.defaultImpairedPopulation

    static let defaultImpairedPopulation = "motor-impaired"

    @Option(name: .customLong("rules"), help: ArgumentHelp(
        "The rule set: 2 (default) or 1, HoldLab 0.1.0's rules, for a check cited from 0.1.0 (with --set haptics.actuatorMinInterval=0 for its pulse rates).",
        valueName: "1|2"))
    var ruleSet: String = GuidelineRuleSet.rules2.rawValue

    func validate() throws {
        // Up to an hour (the longest time of a control), or an hour of frames or pulses at 1,000 Hz: a larger
        // threshold cannot be met differently, and its product with a frame time would overflow what a row prints.
        for (option, value, largest) in [("--mismatch-frames", mismatchFrames, 3_600_000), ("--feedback-ms", feedbackMs, 3_600_000),
                                         ("--max-pulse-rate", maxPulseRate, 1_000_000), ("--max-retract-ms", maxRetractMs, 3_600_000),
                                         ("--fixed-hold-ms", fixedHoldMs, 3_600_000)]
            where !(value >= 0 && value <= Double(largest)) {
            throw ValidationError("\(option) must be a number from 0 to \(largest) (got \(value))")
        }
        guard (0...1).contains(minImpairedCompletion) else {
            throw ValidationError("--min-impaired-completion must be from 0 to 1 (got \(minImpairedCompletion))")
        }
        guard GuidelineRuleSet(rawValue: ruleSet) != nil else {
            throw ValidationError("--rules must be 1 (HoldLab 0.1.0's rules) or 2 (got \(ruleSet))")
        }
    }

    var thresholds: GuidelineThresholds {
        var thresholds = GuidelineThresholds()
        thresholds.mismatchFrames = mismatchFrames
        thresholds.feedbackMs = feedbackMs
        thresholds.maxPulseRateHz = maxPulseRate
        thresholds.maxRetractMs = maxRetractMs
        thresholds.fixedHoldMs = fixedHoldMs
        thresholds.minImpairedCompletion = minImpairedCompletion
        thresholds.ruleSet = GuidelineRuleSet(rawValue: ruleSet) ?? .rules2
        return thresholds
    }

    /// The `--impaired-population` motor-impaired-completion simulates, with its notes said as warnings
    /// (`Population.notes`) unless a population that runs says the same (the same file, unedited). It is simulated
    /// as its file gives it, `--set` values aside: under the name of a population they edit, its notes say so.
    func impaired(from library: ProfileLibrary, besides running: [Population]) throws -> Population {
        let population = try library.loadPopulation(impairedPopulation)
        // Under the name of a running population that says otherwise (`--set` values edited it), each of its notes
        // is marked as the impaired population's; else said as it is, once (`PendingWarnings`).
        let namesake = running.first { $0.name == population.name }
        let edited = namesake.map { $0.notes != population.notes } ?? false
        for note in population.notes {
            PendingWarnings.add("warning: \(note)" + (edited ? " (the --impaired-population, as its file gives it: --set values do not reach it)" : ""))
        }
        return population
    }
}

struct GuidelineCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check profiles against design guidelines: one CSV row per profile and rule; exit 1 when a rule fails.",
        discussion: """
            Rules (docs/REPORT.md has the table with sources; --list-rules prints it): fill-matches-action (both \
            sides), first-feedback (worst display phase), haptic-rate (rendered pulses), pointer-cancellation (WCAG \
            2.5.2), retract-time, timing-adjustable (informative: warns, never fails), motor-impaired-completion. \
            Each row says pass, warn or fail with the measured figure, whether a standard, research or HoldLab's own \
            judgement draws the line, and for a failure the key to change with a value that passes (checked by \
            running the rule again). Exit status 0 when no rule fails (warnings allowed), 1 when one does, so a \
            build can be gated on it. --rules 1 runs HoldLab 0.1.0's rules.

            Examples:
              holdlab check hig-linear-bar
              holdlab check Profiles/*.yaml --max-pulse-rate 60 --out checks.csv
            """)

    @OptionGroup var source: ProfileSourceOptions

    @Argument(help: ArgumentHelp("Profile names or YAML files (as --profile).", valueName: "profile"), completion: .profileNames)
    var arguments: [String] = []

    @Option(help: ArgumentHelp("Profile name or YAML file (repeatable), as every other command names one.", valueName: "name|file"), completion: .profileNames)
    var profile: [String] = []

    /// The profiles to check: `--profile`s, then the arguments.
    var profiles: [String] { profile + arguments }

    /// `--population` (for the simulated rules; default: each profile's own), `--users`, `--seed`, `--threads`.
    @OptionGroup var simulation: RunOptions

    @OptionGroup var guidelines: GuidelineOptions

    @OptionGroup var output: OutputOptions

    @OptionGroup var quietOption: QuietOption

    @OptionGroup var view: RowFormatOptions

    @Flag(name: .customLong("list-rules"), help: "Print the rules (Markdown table), then exit.")
    var listRules = false

    func validate() throws {
        if profiles.isEmpty && !listRules { throw ValidationError("Name at least one profile, e.g. holdlab check hig-linear-bar") }
        try simulation.refuseSeveralPopulations("check")
        // Standard input can be read once: `check - -` would check the same text twice.
        try refuseUnreadableInputNames(profiles.map { ("profile", $0) } + [("--population", simulation.population),
                                                                          ("--impaired-population", guidelines.impairedPopulation)])
        try source.refuseRepeatedKeys()
        let library = source.library
        try refuseOutputsOverInputs([("--out", output.file)], inputs: profiles.map { ("profile", library.profilePath($0)) }
            + simulation.populationNames.map { ("--population", library.populationPath($0)) }
            + [("--impaired-population", library.populationPath(guidelines.impairedPopulation))])
    }

    func run() throws {
        if listRules {
            try emit(Guidelines.markdownTable(guidelines.thresholds))
            return
        }
        let failed = try reportingErrors { () throws -> Bool in
            let library = source.library
            let overrides = try source.profileOverrides()
            let loaded = try library.loadProfilesWithText(profiles, overrides: overrides).map(\.profile)
            try refuseSameProfileNames(loaded, given: profiles)
            let out = OutputFile(argument: output.out)
            try out.checkWritable()
            var populations: [String: Population] = [:]
            let subjects = try loaded.map { profile in
                let name = simulation.population ?? profile.population
                if simulation.population == nil { try library.checkPopulation(of: profile) }
                let population = try populations[name] ?? source.applyingPopulationOverrides(to: [library.loadPopulation(name)])[0]
                populations[name] = population
                return GuidelineSubject(profile: profile, population: population, populationArgument: name)
            }
            let impaired = try guidelines.impaired(from: library, besides: subjects.map(\.population))
            let request = GuidelineCheckRequest(
                subjects: subjects, impairedPopulation: impaired, users: simulation.users, seed: simulation.seed,
                rng: simulation.rng, threads: simulation.workerThreads, thresholds: guidelines.thresholds,
                commandLine: CommandRecord.line(dropping: CommandRecord.threads, flags: CommandRecord.resume),
                sets: source.overrides)
            let bar = ProgressBar(label: "check", total: loaded.count, unit: "profiles", delaySeconds: 1)
            let result = try request.run(progress: { bar.update($0) })
            bar.finish()
            try out.writeLast(view.render(result.document, for: out))
            for (profile, text) in result.together { printNote("\(profile): \(text)") }
            let failures = result.failures
            if !failures.isEmpty {
                printNote("\(failures.count) rule(s) failed: " + failures.map { "\($0.profile) \($0.rule.id)" }.joined(separator: ", "))
            }
            return !failures.isEmpty
        }
        if failed { throw ExitStatus.answerIsNo }
    }
}
