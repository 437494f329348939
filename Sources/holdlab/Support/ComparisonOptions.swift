import ArgumentParser
import Foundation
import GSL
import HoldLabIO
import HoldProfiles
import HoldSimulation

extension IntervalRules: ExpressibleByArgument {}

/// The designs, populations and sample of a comparison: shared by `compare` and `report`.
struct ComparisonOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "A design: profile name or YAML file (repeatable). Default: hig-linear-bar.", valueName: "name|file"), completion: .profileNames)
    var profile: [String] = []

    @Option(help: ArgumentHelp(
        "A design made of the first --profile with --set values: LABEL=\"key=value key=value\" (repeatable).",
        discussion: "Values are separated by spaces; a value with spaces is written in braces, brackets or quotes.",
        valueName: "label=sets"))
    var variant: [String] = []

    @Option(help: ArgumentHelp(
        "Population name or YAML file; a comma-separated list or repeated. Default: the one the designs name.",
        valueName: "name|file"), completion: .populationNames)
    var population: [String] = []

    @Option(help: ArgumentHelp("The design every other is compared with (its label). Default: the first.", valueName: "label"))
    var baseline: String?

    @OptionGroup var sample: SampleOptions

    @Option(help: ArgumentHelp(
        "The interval formulas of this holdlab version: 0.3 (default), 0.2 or 0.1, which reproduces the rows of holdlab 0.1 byte for byte.",
        discussion: "0.2: compare's intervals as 0.3, a review's knob shares by the Wald interval of each person's "
            + "contrast, which has zero width when nobody differs (report's knob-shares.csv before holdlab 0.3.9). "
            + "0.1: Newcombe's paired hybrid score for rates and the delta method for every mean; its paired intervals "
            + "collapse to zero width when a difference is rare, and its unpaired intervals of means can be too narrow. "
            + "Use them only to reproduce a figure cited from those versions.",
        valueName: "version"))
    var intervals: IntervalRules = .current

    var users: Int { sample.users }
    var seed: UInt64 { sample.seed }
    var rng: Generator.Kind { sample.rng }
    var threads: Int? { sample.threads }

    func validate() throws {
        try refuseEmptyItems(population, option: "--population", example: "default,motor-impaired")
        for text in variant { _ = try Self.parseVariant(text) }
    }

    /// The population arguments, commas split.
    var populationNames: [String] { commaItems(population) }

    /// A variant `LABEL=key=value key=value`: its label and its `--set` texts, split at spaces outside braces,
    /// brackets and quotes; a key given twice is refused (the last would silently win). `compare`, `report` and
    /// `preview` read `--variant` here.
    /// Runs `body`, which loads or parses variant `label`'s values `sets` (applied after `--set`'s), and names the
    /// variant in any problem its values cause: `--variant fast: fill.duration=0: fill.duration: …` (a usage error,
    /// 64), with the `--set` values a check across keys blames with them, instead of calling the variant's values
    /// `--set`s the user never typed. A problem of the file itself, or of `--set` alone, is passed on as it is.
    ///
    /// A variant a review file writes (`written`, its values with where they are) is named there instead:
    /// `r.yaml:4:7: variants.fast.fill.model: with --set fill.delay=0.3: fill.delay: …`, since the user typed no
    /// `--variant` (a `--set` of the command line is at fault with it, so still 64).
    static func variantUsage<T>(_ label: String, sets: [String], written: [ReviewFile.Located] = [],
                                _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ProfileError where !error.cannotOpen {
            let own = error.origin.overrideTexts.filter(sets.contains)
            guard !own.isEmpty else { throw error }
            let others = error.overrides(besides: own).map { "--set \($0)" }
            if let entry = written.first(where: { $0.text == own[0] }) {
                let with = others.isEmpty ? "" : "with \(others.joined(separator: " ")): "
                throw UsageError("\(entry.origin): \(entry.keyPath): \(with)\(error.keyedMessage)")
            }
            let with = others.isEmpty ? "" : " with \(others.joined(separator: " "))"
            throw UsageError("--variant \(label): \(own.joined(separator: " "))\(with): \(error.keyedMessage)")
        }
    }

    /// Variant `text` (`LABEL=key=value …`) of the profile file `path` whose text is `profileText` (as the baseline
    /// design was loaded from it, not read again), its values applied after `common` (the `--set`s):
    /// the design and the variant's own `--set` texts. A value that reaches the population (every design meets the
    /// same people) or a key `common` also sets is refused, and a problem the values cause names the variant
    /// (`variantUsage`). `compare`, `report` and `preview` load their variants here.
    static func loadVariant(_ text: String, of path: String, profileText: String, common: [Override],
                            written: [String: [ReviewFile.Located]] = [:]) throws -> (design: Design, sets: [String]) {
        let (label, sets) = try parseVariant(text)
        let written = written[label] ?? []
        let overrides = try variantUsage(label, sets: sets) {
            try sets.map { text throws(ProfileError) in try Override(userParsing: text) }
        }
        if let key = overrides.first(where: \.reachesPopulation) {
            throw UsageError("--variant \(label) sets \(key.keyPath): a variant changes the control, and every design meets the same people; set a population value for all designs with --set (compare, report), or compare populations with --population")
        }
        for key in overrides.map(\.keyPath) {
            guard let other = common.first(where: { KeyPaths.overlap($0.keyPath, key) }) else { continue }
            let set = other.keyPath == key ? "--set" : "--set \(other.keyPath)"
            if let entry = written.first(where: { $0.keyPath.hasSuffix("." + key) }) {
                throw UsageError("\(entry.origin): \(entry.keyPath): \(key) is also given by \(set); give it in one place")
            }
            throw UsageError("--variant \(label) sets \(key), which \(set) also sets; give it in one place")
        }
        let profile = try variantUsage(label, sets: overrides.map(\.text), written: written) {
            try Profile.load(yaml: profileText, path: ProfileLibrary.displayPath(path), overrides: common + overrides)
        }
        return (Design(label: label, profile: profile), sets)
    }

    static func parseVariant(_ text: String) throws -> (label: String, sets: [String]) {
        guard let equals = text.firstIndex(of: "=") else {
            throw ValidationError("--variant \(text): write LABEL=\"key=value …\", e.g. --variant fast=\"fill.curve=easeIn fill.duration=0.6\"")
        }
        let label = String(text[..<equals]).trimmingCharacters(in: .whitespaces)
        try checkLabel(label, option: "--variant")
        let sets = splitAssignments(String(text[text.index(after: equals)...]))
        if sets.isEmpty { throw ValidationError("--variant \(label): no key=value given") }
        for set in sets where !set.contains("=") {
            throw ValidationError("--variant \(label): '\(set)' is not key=value")
        }
        try refuseRepeatedKeys(sets, option: "--variant \(label):")
        return (label, sets)
    }

    static func checkLabel(_ label: String, option: String) throws {
        guard ReviewFile.isLabel(label) else {
            throw ValidationError("\(option) '\(label)': a label is letters, digits, '-', '_' and '.'")
        }
    }

    /// Splits `a=1 b={dist: constant, value: 0} c="x y"` at spaces outside braces, brackets and quotes.
    static func splitAssignments(_ text: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        var quote: Character?
        for character in text {
            if let open = quote {
                current.append(character)
                if character == open { quote = nil }
                continue
            }
            switch character {
            case "\"", "'": quote = character; current.append(character)
            case "{", "[": depth += 1; current.append(character)
            case "}", "]": depth = max(0, depth - 1); current.append(character)
            case " ", "\t":
                if depth > 0 {
                    current.append(character)
                } else if !current.isEmpty {
                    parts.append(current)
                    current = ""
                }
            default: current.append(character)
            }
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }

    /// The designs (profiles, then variants, each with the `--set` values the run applies), the baseline's index
    /// and the populations.
    ///
    /// - Parameter library: where the profiles and populations are read (default: the source's library).
    /// - Parameter written: per variant label, its values as a review file writes them (`report --review`), so a
    ///   problem of one is said where the file writes it.
    func resolve(_ source: ProfileSourceOptions, library: ProfileLibrary? = nil,
                 written: [String: [ReviewFile.Located]] = [:]) throws -> ComparisonPlan {
        let library = library ?? source.library
        let common = try source.profileOverrides()
        let names = profile.isEmpty ? ["hig-linear-bar"] : profile
        var designs: [Design] = []
        var sets: [[String]] = []
        var paths: [String] = []
        var texts: [String] = []
        for (name, (profile, text)) in zip(names, try library.loadProfilesWithText(names, overrides: common)) {
            designs.append(Design(label: profile.name, profile: profile))
            sets.append(source.overrides)
            paths.append(library.profilePath(name))
            texts.append(text)
        }
        for text in variant {
            let (design, variantSets) = try Self.loadVariant(text, of: paths[0], profileText: texts[0], common: common,
                                                             written: written)
            designs.append(design)
            sets.append(source.overrides + variantSets)
            paths.append(library.profilePath(names[0]))
            texts.append(texts[0])
        }
        var seen: Set<String> = []
        for design in designs where !seen.insert(design.label).inserted {
            throw UsageError("two designs are labelled '\(design.label)'; give each --profile or --variant once, or another label")
        }
        if designs.count < 2 {
            throw UsageError("a comparison needs at least two designs: --profile A --profile B, or --variant LABEL=\"key=value …\"")
        }
        var baselineIndex = 0
        if let baseline {
            guard let index = designs.firstIndex(where: { $0.label == baseline }) else {
                throw UsageError("--baseline \(baseline) is none of the designs: \(designs.map(\.label).joined(separator: ", "))")
            }
            baselineIndex = index
        }
        var populationNames = self.populationNames
        if populationNames.isEmpty {
            let named = Set(designs.map(\.profile.population))
            guard named.count == 1, let only = named.first else {
                let list = designs.map { "\($0.label): \($0.profile.population)" }.joined(separator: ", ")
                throw UsageError("the designs name different populations (\(list)); choose with --population (a review file: populations)")
            }
            populationNames = [only]
            try library.checkPopulation(of: designs[0].profile)
        }
        var populations: [Population] = []
        for name in populationNames {
            let loaded = try library.loadPopulation(name)
            if populations.contains(where: { $0.name == loaded.name }) {
                throw UsageError("--population \(loaded.name) is given twice")
            }
            populations.append(loaded)
        }
        populations = try source.applyingPopulationOverrides(to: populations)
        return ComparisonPlan(designs: designs, sets: sets, paths: paths, texts: texts, baseline: baselineIndex, populations: populations,
                              intervals: intervals, rng: sample.rng)
    }

    /// The inputs the command reads, for refusing an output over one of them.
    func inputs(_ source: ProfileSourceOptions) -> [(option: String, path: String?)] {
        let library = source.library
        return profile.map { ("--profile", library.profilePath($0)) }
            + populationNames.map { ("--population", library.populationPath($0)) }
    }
}
