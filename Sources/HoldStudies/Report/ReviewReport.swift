import Foundation
import HoldLabIO
import HoldProfiles
import HoldSimulation

/// Everything `report.md` says, gathered by `holdlab report`: pure data, so the text is a function of it (no clock,
/// no paths), which is what lets `reproduce.sh` regenerate the folder byte for byte.
public struct ReviewInput: Sendable {
    public struct Design: Sendable {
        public var design: HoldProfiles.Design
        /// The `--set` values that make it (common ones, then a variant's).
        public var sets: [String]
        /// From a traced hold at frame phase 0: when the action fires and when the bar first looks full (ms).
        public var actionMs: Double?
        public var fullMs: Double?
        /// The words of the `holdlab check` command that checks the design as checks.csv does (its profile as the
        /// command line names it, its `--set` values, the population, users, seed and thresholds of the checks).
        public var check: [String]
        /// Its profile as the command line names it (a name, or a file's path as given): where a fix of a plain
        /// design goes. Empty: the profile's name.
        public var profileArgument: String
        /// What its guideline fixes do followed together (two or more).
        public var together: FixesTogether?

        public init(design: HoldProfiles.Design, sets: [String], actionMs: Double?, fullMs: Double?, check: [String] = [],
                    profileArgument: String = "", together: FixesTogether? = nil) {
            self.profileArgument = profileArgument
            self.together = together
            self.design = design
            self.sets = sets
            self.actionMs = actionMs
            self.fullMs = fullMs
            self.check = check
        }
    }

    public var question: String
    public var designs: [Design]
    public var baseline: Int
    public var populations: [Population]
    /// The users of the comparison (with `--precision`, the most any population's took: what the knob shares and
    /// the sweeps take); `usersPhrase` says each population's.
    public var users: Int
    public var seed: UInt64
    /// One per population, in order.
    public var results: [DesignComparison]
    /// Per design (in order), the guideline results.
    public var checks: [[GuidelineResult]]
    /// The population the guideline rules simulated against, and the impaired one.
    public var checkPopulation: String
    public var impairedPopulation: String
    /// The report's `--set` values for the impaired population (one it compares too): they reach the comparison's
    /// rows of it, not `motor-impaired-completion`, which takes the population as its file gives it (as `check` does).
    public var impairedSets: [String] = []
    public var thresholds: GuidelineThresholds
    /// Figures (stem, caption): each written as STEM.svg and STEM.png.
    public var figures: [(stem: String, caption: String)]
    /// Files (name, what it holds), in the order listed.
    public var files: [(name: String, about: String)]
    /// The decision, each knob's share and the robustness (`ReviewArgumentText`); nil: none of those sections.
    public var argument: ReviewArgument?

    public init(question: String, designs: [Design], baseline: Int, populations: [Population], users: Int, seed: UInt64,
                results: [DesignComparison], checks: [[GuidelineResult]], checkPopulation: String, impairedPopulation: String,
                thresholds: GuidelineThresholds, figures: [(stem: String, caption: String)], files: [(name: String, about: String)],
                argument: ReviewArgument? = nil) {
        self.question = question
        self.designs = designs
        self.baseline = baseline
        self.populations = populations
        self.users = users
        self.seed = seed
        self.results = results
        self.checks = checks
        self.checkPopulation = checkPopulation
        self.impairedPopulation = impairedPopulation
        self.thresholds = thresholds
        self.figures = figures
        self.files = files
        self.argument = argument
    }
}

/// `report.md`: the question, the designs, the findings in sentences with paired intervals, the guideline checks,
/// the figures, the limitations and how to reproduce it. CommonMark with pipe tables (GitHub, GitLab, most wikis).
public enum ReviewReport {
    /// A finding's wording: what the metric measures as a verb phrase, and the words for its two directions.
    struct Phrase {
        let metric: String
        let subject: String
        let more: String
        let less: String
        /// Rates are stated in percentage points, times in ms.
        let isRate: Bool
    }

    static let phrases = [
        Phrase(metric: "completion_rate", subject: "completes", more: "more often", less: "less often", isRate: true),
        Phrase(metric: "false_activation_rate", subject: "fires on accidental touches", more: "more often", less: "less often", isRate: true),
        Phrase(metric: "premature_mismatch_rate", subject: "loses users who let go on seeing the bar full", more: "more often", less: "less often", isRate: true),
        Phrase(metric: "movement_cancel_rate", subject: "is cancelled by finger movement", more: "more often", less: "less often", isRate: true),
        Phrase(metric: "completion_time_mean_ms", subject: "confirms", more: "later", less: "sooner", isRate: false),
        Phrase(metric: "first_feedback_ms", subject: "shows its first feedback", more: "later", less: "sooner", isRate: false),
    ]

    /// A number with `decimals` decimals (no `-0.0`).
    static func number(_ value: Double, _ decimals: Int) -> String { CSV.number(value, decimals: decimals) }

    /// The finding for one design, metric and population, or nil when there is nothing to say (no data, or both
    /// designs exactly 0).
    static func finding(_ row: ComparisonRow, _ phrase: Phrase) -> String? {
        let d = row.difference
        guard let diff = d.diff, let lower = d.lower, let upper = d.upper, let value = d.designValue,
              let base = d.baselineValue else { return nil }
        if value == 0 && base == 0 { return nil }
        let scale = phrase.isRate ? 100.0 : 1.0
        let unit = phrase.isRate ? " points" : " ms"
        let width = (upper - lower) * scale
        // Enough decimals to show the interval, none for an exact whole number of ms.
        let least = width == 0 && !phrase.isRate && diff == diff.rounded() ? 0 : width < 0.2 ? 2 : width < 2 || phrase.isRate ? 1 : 0
        // And up to three, so that no difference or end that is not 0 reads 0 (0.3.18's first cut mended the
        // recommendation's sentences; a finding read "95 % CI 0.00 to 0.07 points" for an end at 0.0027).
        let decimals = ReviewArgumentText.decimals(showing: [diff, lower, upper], scale: scale, least: least)
        let values = phrase.isRate
            ? "\(percent(value)) against \(percent(base))"
            : "\(number(value, decimals)) ms against \(number(base, decimals)) ms"
        let users = "for \(row.population) users"
        if lower > 0 || upper < 0 {
            let direction = diff > 0 ? phrase.more : phrase.less
            let (near, far) = diff > 0 ? (lower, upper) : (-upper, -lower)
            if lower == upper {
                return "**\(row.design)** \(phrase.subject) \(number(abs(diff) * scale, decimals))\(unit) \(direction) than "
                    + "**\(row.baseline)** \(users), every time (\(values))."
            }
            return "**\(row.design)** \(phrase.subject) \(number(abs(diff) * scale, decimals))\(unit) \(direction) than "
                + "**\(row.baseline)** (95 % CI \(number(near * scale, decimals)) to \(number(far * scale, decimals))\(unit)) "
                + "\(users): \(values)."
        }
        func signed(_ x: Double) -> String { ReviewArgumentText.signed(x * scale, decimals) }
        return "**\(row.design)** and **\(row.baseline)** do not differ detectably in `\(phrase.metric)` \(users): "
            + "\(signed(diff))\(unit) (95 % CI \(signed(lower)) to \(signed(upper))\(unit)); \(values)."
    }

    /// A Markdown table cell: pipes escaped, line breaks as spaces.
    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// A rate in per cent, the one way the report, its tables and its figures print a rate: one decimal, two below
    /// 1 % (so a rate of 0.05 % reads 0.05 % everywhere, never 0.1 % in one place and 0.05 % in another).
    static func percent(_ rate: Double) -> String {
        let value = rate * 100
        return number(value, value != 0 && abs(value) < 1 ? 2 : 1) + " %"
    }

    static func rate(_ proportion: Proportion) -> String {
        guard let rate = proportion.rate, let interval = proportion.wilson95 else { return "–" }
        // A bound of exactly 0 takes the other's decimals ("0.00–0.11", not "0.0–0.11").
        var bounds = [interval.lower, interval.upper].map { percent($0).dropLast(2) }
        if interval.lower == 0 { bounds[0] = Substring(number(0, bounds[1].split(separator: ".").last?.count ?? 1)) }
        return "\(percent(rate)) (\(bounds[0])–\(bounds[1]))"
    }

    /// Where a design's values came from: the `--set` values every design has, and either a variant's label and own
    /// values or the `holdlab check` command of a plain design (its profile as the command line names it, with the
    /// report's `--set` values, population, users, seed and thresholds).
    struct Placement {
        var common: [String] = []
        var variant: (label: String, sets: [String])?
        /// A plain design's profile argument and check command, where a `--set` would change every design of the report.
        var profile: (argument: String, check: [String])?

        init(common: [String] = [], variant: (label: String, sets: [String])? = nil,
             profile: (argument: String, check: [String])? = nil) {
            self.common = common
            self.variant = variant
            self.profile = profile
        }

        /// Where design `design`'s values are given in a report whose every design has the `--set` values `common`.
        init(of design: ReviewInput.Design, common: [String]) {
            self.common = common
            if design.design.label != design.design.profile.name {
                variant = (design.design.label, Array(design.sets.dropFirst(common.count)))
            } else {
                profile = (design.profileArgument.isEmpty ? design.design.profile.name : design.profileArgument, design.check)
            }
        }
    }

    /// Where a value goes, as a phrase: a variant's among its own `--variant` values, in place of a value it or
    /// `--set` gives the same key; a plain profile's in that profile, with the `holdlab check` command that checks
    /// it there, since in a report a `--set` changes every design; without a placement, a `--set`.
    ///
    /// - Parameter replaces: the `--set` values the fix takes the place of (`GuidelineFix.replaces`): one of an
    ///   overlapping key, or those whose keys the fix leaves without effect.
    static func placed(_ setting: String, _ placement: Placement, replaces: [String] = []) -> String {
        let key = Override.keyPath(of: setting)
        func given(_ sets: [String]) -> [String] {
            let found = replaces.filter(sets.contains)
            if !found.isEmpty { return found }
            return sets.first { KeyPaths.overlap(Override.keyPath(of: $0), key) }.map { [$0] } ?? []
        }
        /// "`a`", "`a` and `b`", "`a`, `b` and `c`".
        func listed(_ values: [String], _ span: (String) -> String) -> String {
            let spans = values.map(span)
            return spans.count < 2 ? spans.joined() : spans.dropLast().joined(separator: ", ") + " and " + spans[spans.count - 1]
        }
        let every = { (common: [String]) in common.count == 1 ? "a value every design has" : "values every design has" }
        if let (profile, check) = placement.profile {
            // In the profile, where the design's values are: in place of the common --set values of the key in its check.
            var command = check.isEmpty ? ["holdlab", "check", profile] : check
            let common = given(placement.common)
            for value in common {
                if let index = command.indices.dropFirst().first(where: { command[$0] == value && command[$0 - 1] == "--set" }) {
                    command.removeSubrange(index - 1...index)
                }
            }
            let replacing = common.isEmpty ? "" : " in place of \(listed(common) { code("--set \($0)") }) (\(every(common)))"
            return "\(code(setting)) in the profile \(code(profile))\(replacing) (\(code(CSV.commandLine(command + ["--set", setting]))); "
                + "in this report a `--set` would change every design)"
        }
        let common = given(placement.common)
        if !common.isEmpty {
            // A variant's own values that the fix voids too (or that would override it) go as well.
            // When they are all its values, the variant is left its profile, which the other designs are then too.
            let alsoOwn = placement.variant.flatMap { label, sets in
                let values = given(sets)
                if values.isEmpty { return nil }
                if values.count == sets.count {
                    // Nothing of the variant is left: no command of this review keeps it as a design of its own.
                    let only = values.count == 1 ? "its only value, has" : "all its values, have"
                    return " passes this rule, and leaves \(code("--variant \(label)")) nothing of its own (\(listed(values, code)), "
                        + "\(only) no effect beside it): it would be the design it is compared with, so no run of this review "
                        + "keeps \(label) and passes; \(label) needs another change to pass beside the other designs' values"
                }
                return " and of \(listed(values, code)) among the values of \(code("--variant \(label)"))"
            } ?? ""
            return "\(code("--set \(setting)")) in place of \(listed(common) { code("--set \($0)") }) (\(every(common)))\(alsoOwn)"
        }
        if let (label, sets) = placement.variant {
            // A review file's variant too: the report records (and reproduce.sh runs) the equivalent `--variant`.
            let values = "the values of \(code("--variant \(label)"))"
            let own = given(sets)
            if !own.isEmpty {
                return "\(code(setting)) in place of \(listed(own, code)) among \(values)"
            }
            return "\(code(setting)) added to \(values)"
        }
        return code("--set \(setting)")
    }

    /// `text` as a Markdown code span in a table cell: pipes escaped, in a fence of one backtick more than the
    /// longest run of backticks in it (with a space inside each end), so the span cannot end early.
    static func code(_ text: String) -> String {
        var (longest, run) = (0, 0)
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = Swift.max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        return longest == 0 ? "`\(cell(text))`" : "\(fence) \(cell(text)) \(fence)"
    }

    /// A check's cell of the scorecard: the status, then the detail and the fix as sentences of their own; a fix's
    /// value alone in the code span (pasteable), why it works after it, placed where the design's values are given
    /// (`placed`).
    static func checkCell(_ result: GuidelineResult, _ placement: Placement = Placement()) -> String {
        let mark = result.status == .pass ? "pass" : result.status == .warn ? "**warn**" : "**FAIL**"
        let detail = cell(result.detail)
        let fix = placedFix(result, placement).map { " " + $0 } ?? ""
        return "\(mark): \(detail)\(fix.isEmpty || detail.hasSuffix(".") ? "" : ".")\(fix)"
    }

    /// A result's fix as a sentence, placed where the design's values are given (`placed`): `Fix: …`, the trade
    /// sentence, or the note alone; nil without one. report.md's checks and the page's checks table both say this.
    static func placedFix(_ result: GuidelineResult, _ placement: Placement) -> String? {
        guard let suggestion = result.suggestion else { return nil }
        if let setting = suggestion.setting, suggestion.trades {
            return "\(ReviewArgumentText.capitalised(placed(setting, placement, replaces: suggestion.replaces))) \(cell(suggestion.note))."
        } else if let setting = suggestion.setting {
            return "Fix: \(placed(setting, placement, replaces: suggestion.replaces))" + (suggestion.note.isEmpty ? "" : " (\(cell(suggestion.note)))") + "."
        } else if !suggestion.note.isEmpty {
            return "\(ReviewArgumentText.capitalised(cell(suggestion.note)))."
        }
        return nil
    }

    /// checks.csv's table as the page shows it: each fix placed where its design's values are given, as report.md
    /// places it (checks.csv keeps `holdlab check`'s text, a `--set`).
    public static func placingFixes(_ table: ResultTable, checks: [[GuidelineResult]], designs: [ReviewInput.Design]) -> ResultTable {
        guard let column = table.columns.firstIndex(where: { $0.name == "fix" }),
              checks.map(\.count).reduce(0, +) == table.rows.count, checks.count == designs.count else { return table }
        var placed = table
        let common = designs.first?.sets ?? []
        var row = 0
        for (results, design) in zip(checks, designs) {
            for result in results {
                if let fix = placedFix(result, Placement(of: design, common: common)) { placed.rows[row][column] = .text(fix) }
                row += 1
            }
        }
        return placed
    }

    static func milliseconds(_ value: Double?) -> String { value.map { number($0, 0) + " ms" } ?? "–" }

    /// Whether a design is its profile with values set (a variant, or any design with `--set` values).
    static func isVariant(_ design: ReviewInput.Design) -> Bool {
        design.design.label != design.design.profile.name || !design.sets.isEmpty
    }

    /// The sentence above a design's parameters: for a variant, what it is made of.
    static func parametersIntroduction(_ design: ReviewInput.Design) -> String {
        let profile = design.design.profile
        guard isVariant(design) else { return "" }
        return "The profile `\(profile.name)` with " + design.sets.map { "`\(cell($0))`" }.joined(separator: " ")
            + ", every value resolved; its name and description are this design's (the hash in *Designs*, "
            + "fnv1a64:\(profile.contentHash), is of the profile as loaded, under its own name).\n\n"
    }

    /// A design's resolved profile as YAML, named and described as the design: a variant is labelled with its own
    /// name and says what it changes, never with its profile's name and description.
    static func parametersYAML(_ design: ReviewInput.Design) -> String {
        let profile = design.design.profile
        guard isVariant(design) else { return profile.canonicalYAML }
        var variant = profile
        variant.name = design.design.label
        variant.description = "\(profile.name) with " + design.sets.joined(separator: " ")
        return variant.canonicalYAML
    }

    public static func markdown(_ input: ReviewInput, version: String) -> String {
        let labels = input.designs.map(\.design.label)
        let baseline = labels[input.baseline]
        var text = "# Design review: \(labels.joined(separator: " vs "))\n\n"
        // One line: a line break in the question would let it write its own Markdown blocks (a heading, a fake
        // recommendation) into the report.
        let question = String(input.question.map { $0.isNewline ? " " : $0 })
        text += "**Question.** \(question)\n\n"
        if let argument = input.argument { text += ReviewArgumentText.recommendation(input, argument) }
        text += "Simulated with holdlab \(version): \(input.usersPhrase) (seed \(input.seed)); "
            + "every design saw the same people (common random numbers), so each difference to the baseline, "
            + "**\(baseline)**, has a paired 95 % confidence interval. Populations: "
            + input.populations.map { "`\($0.name)`" }.joined(separator: ", ") + ".\n\n"

        text += "## Designs\n\n| design | profile | values set | action fires | bar first looks full |\n|---|---|---|---|---|\n"
        for design in input.designs {
            let profile = design.design.profile
            let sets = design.sets.isEmpty ? "–" : design.sets.map { "`\(cell($0))`" }.joined(separator: " ")
            text += "| **\(cell(design.design.label))**\(design.design.label == baseline ? " (baseline)" : "") | "
                + "`\(profile.name)` (fnv1a64:\(profile.contentHash)) | \(sets) | \(milliseconds(design.actionMs)) | "
                + "\(milliseconds(design.fullMs)) |\n"
        }
        text += "\nTimes are from one traced hold (touch-down on a frame). Every parameter of each design is listed under "
            + "*Design parameters* below.\n\n"

        text += "## Findings\n\n"
        for result in input.results {
            let population = result.rows.first?.population ?? result.summaries.first?.population ?? ""
            text += "### \(population)\n\n"
            var said = 0
            for row in result.rows {
                guard let phrase = phrases.first(where: { $0.metric == row.metric.name }),
                      let sentence = finding(row, phrase) else { continue }
                text += "- \(sentence)"
                    + (input.argument == nil ? "" : ReviewArgumentText.standsOn(row, result: result, labels: labels, baselineIndex: input.baseline)) + "\n"
                said += 1
            }
            if said == 0 { text += "- No design differs from **\(baseline)** in completion, false activation or timing.\n" }
            text += "\n| design | completion (95 % CI) | false activation (95 % CI) | let go on a full bar | movement cancels | "
                + "mean time to confirm | first feedback |\n|---|---|---|---|---|---|---|\n"
            for (design, summary) in zip(input.designs, result.summaries) {
                text += "| \(cell(design.design.label)) | \(rate(summary.completion)) | \(rate(summary.falseActivation)) | "
                    + "\(rate(summary.prematureMismatch)) | \(rate(summary.movementCancel)) | "
                    + "\(milliseconds(summary.completionTimeMeanMs)) | \(milliseconds(summary.firstFeedbackMs)) |\n"
            }
            text += "\n"
        }
        let methods = input.results.lazy.flatMap(\.rows).first { $0.method == IntervalRules.v0_1.rateMethod } != nil
            ? "Newcombe's hybrid score for rates, the delta method for means"
            : "Bonett and Price's adjusted Wald interval for rates, the delta method with the same adjustment for means"
        text += "Rates are in per cent with 95 % Wilson intervals; differences are in percentage points with paired "
            + "intervals (\(methods)). Every difference, with its "
            + "unpaired interval for comparison, is in `differences.csv`; every statistic of every design in `designs.csv`.\n\n"

        if let argument = input.argument {
            text += ReviewArgumentText.knobShares(argument)
            text += ReviewArgumentText.robustness(input, argument)
            text += ReviewArgumentText.numbersStandOn(input)
        }

        text += "## Guideline checks\n\n"
        text += "Simulated rules against `\(input.checkPopulation)`; `motor-impaired-completion` against "
            + "`\(input.impairedPopulation)`. `holdlab check` runs the same rules.\n\n"
        if !input.impairedSets.isEmpty {
            text += "`motor-impaired-completion` takes `\(cell(input.impairedPopulation))` as its file gives it: "
                + input.impairedSets.map { code("--set \($0)") }.joined(separator: " ")
                + " reach\(input.impairedSets.count == 1 ? "es" : "") this report's comparison of it, not this rule (as in `holdlab check`), "
                + "so its completion can differ from the findings'.\n\n"
        }
        let rules = Guidelines.rules(input.thresholds.ruleSet)
        text += "| rule | basis and source | " + labels.map(cell).joined(separator: " | ") + " |\n|---|---|"
            + String(repeating: "---|", count: labels.count) + "\n"
        for (index, rule) in rules.enumerated() {
            // The source is a phrase or ends in a URL: the rationale is a sentence of its own.
            let why = rule.rationale.isEmpty ? "" : (rule.source.hasSuffix(".") ? "" : ".") + " Rationale: \(rule.rationale)."
            text += "| `\(rule.id)` | \(rule.basis == .rules1 ? "" : "*\(rule.basis.rawValue)*: ")\(cell(rule.source + why)) |"
            // Every design's values start with the --set values all have (the first design, a profile, has only those).
            let common = input.designs.first?.sets ?? []
            for (position, checks) in input.checks.enumerated() {
                guard index < checks.count else { text += " – |"; continue }
                let placement = position < input.designs.count ? Placement(of: input.designs[position], common: common) : Placement(common: common)
                text += " \(checkCell(checks[index], placement)) |"
            }
            text += "\n"
        }
        text += "\nThresholds: " + rules.map { ($0.option.isEmpty ? "`\($0.id)`" : "`\($0.option)`") + " \(cell($0.criterion(input.thresholds)))" }
            .joined(separator: "; ") + ".\n\n"
        let together = input.designs.compactMap { design in design.together.map { (design.design.label, $0) } }
        if !together.isEmpty {
            text += "Each fix above was checked alone; followed together:\n\n"
            for (label, fixes) in together { text += "- **\(cell(label))**: \(fixes.sentence { setting, _ in code(setting) }).\n" }
            text += "\n"
        }

        text += "## Figures\n\n"
        for figure in input.figures {
            text += "![\(figure.caption)](\(figure.stem).svg)\n\n*\(figure.caption).* ([PNG](\(figure.stem).png))\n\n"
        }

        text += "## Limitations\n\n"
        text += "- The people are synthetic. Which numbers of each population are measured and which are assumptions:\n"
        for population in input.populations {
            let about = population.description.isEmpty ? "no description" : cell(population.description)
            text += "  - `\(population.name)` (fnv1a64:\(population.contentHash)): \(about)."
                + (population.source.isEmpty ? " No sources given: treat every number as an assumption." : " \(cell(population.source))")
                + "\n"
        }
        if let argument = input.argument {
            text += "- The findings rest on assumed behaviour (how fast people who react let go, how early those who anticipate "
                + "do, how long accidental and hesitant touches last, how far fingers drift): "
                + (argument.robustnessUsers > 0 ? "*How far the answer rests on the assumed people* varies each over its plausible range.\n"
                    : "not varied in this review (`--robustness-users 0`).\n")
        }
        text += "- Intervals are Monte Carlo sampling intervals: they say how precisely these populations were simulated, "
            + "not how well they describe real people.\n"
        text += "- Timer tick latencies are the device's, not the person's: each design draws its own in sequence, so they "
            + "are common to the designs only until the designs consume different numbers of ticks.\n"
        text += "- Haptic throttling (`haptics.minInterval`) and the `haptic-rate` threshold are assumptions: no platform "
            + "documents a minimum interval between impacts.\n"
        text += "- A profile cannot say whether users may adjust the hold's duration, so `timing-adjustable` only warns.\n\n"

        text += "## Files\n\n| file | contents |\n|---|---|\n"
        for file in input.files { text += "| [`\(file.name)`](\(file.name)) | \(cell(file.about)) |\n" }
        text += "\n## Reproduce\n\n`sh reproduce.sh` regenerates every file of this folder byte for byte from the profiles "
            + "and populations it carries in `inputs/`, here or in the folder given as its argument (`sh reproduce.sh /tmp/review`), "
            + "with `holdlab` and `gnuplot` from PATH, from any folder. `sh reproduce.sh --check` regenerates into a temporary "
            + "folder and compares file by file (exit 0, or 1 naming each file that differs). It will not overwrite this "
            + "review with another holdlab version or changed inputs. Nothing in it depends on the time or on where it was "
            + "written. A source that cites `DOMAIN §N` means a section of `inputs/DOMAIN.md` when the folder carries it.\n\n"

        text += "## Design parameters\n\n"
        for design in input.designs {
            text += "### \(design.design.label)\n\n" + parametersIntroduction(design) + "```yaml\n\(parametersYAML(design))```\n\n"
        }
        return text
    }
}

extension ReviewInput {
    /// The users each population's comparison took, as report.md and the page quote them: "20000 synthetic users
    /// per population", or with `--precision` stopping the populations apart, "4096 synthetic users for `default`
    /// and 8192 for `motor-impaired`" (as the CSVs' `# users:` line says).
    public var usersPhrase: String {
        let counts = populations.indices.map { index in
            index < results.count ? results[index].summaries.first?.users ?? users : users
        }
        guard Set(counts).count > 1 else { return "\(counts.first ?? users) synthetic users per population" }
        let each = zip(populations, counts).enumerated().map { index, pair in
            index == 0 ? "\(pair.1) synthetic users for `\(pair.0.name)`" : "\(pair.1) for `\(pair.0.name)`"
        }
        return each.dropLast().joined(separator: ", ") + " and " + (each.last ?? "")
    }
}
