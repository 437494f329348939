import GSL
import HoldLabIO
import HoldModel
import HoldProfiles
import HoldSimulation

/// Which rules `check` and `report` run: HoldLab 0.2's (the default) or 0.1.0's, kept so that a check cited from
/// 0.1.0 is reproducible (`--rules 1`, with `--set haptics.actuatorMinInterval=0` for its pulse rates).
public enum GuidelineRuleSet: String, Sendable, CaseIterable {
    /// 0.1.0: one-sided `fill-matches-action`, `first-feedback` at two phases, the retract limit inside
    /// `pointer-cancellation`, no suggested fixes.
    case rules1 = "1"
    /// Two-sided `fill-matches-action`, the worst display phase, `retract-time` apart from WCAG, a fix per failure.
    case rules2 = "2"
}

/// The thresholds of the guideline rules; each is a `holdlab check` option.
public struct GuidelineThresholds: Sendable, Equatable {
    /// `fill-matches-action`: the bar may look full this many frames before (or, rules 2, after) the action fires.
    public var mismatchFrames: Double = 1
    /// `first-feedback`: the first feedback must come within this many milliseconds of touch-down.
    public var feedbackMs: Double = 100
    /// `haptic-rate`: the fastest rate of rendered pulses HoldLab accepts, Hz (its judgement, not a documented limit).
    public var maxPulseRateHz: Double = 40
    /// `retract-time` (rules 1: `pointer-cancellation`): an early release must empty the bar within this many ms.
    public var maxRetractMs: Double = 1000
    /// `timing-adjustable`: a required hold longer than this is flagged (informative).
    public var fixedHoldMs: Double = 1000
    /// `motor-impaired-completion`: the lowest acceptable completion rate of the motor-impaired population.
    public var minImpairedCompletion: Double = 0.80
    /// The rules to run.
    public var ruleSet: GuidelineRuleSet = .rules2

    public init() {}

    /// The `holdlab check` options that give these thresholds where they are not the defaults: what a quoted
    /// `holdlab check` line carries so that it checks against the same lines.
    public var arguments: [String] {
        let defaults = GuidelineThresholds()
        let values: [(String, Double, Double)] = [
            ("--mismatch-frames", mismatchFrames, defaults.mismatchFrames), ("--feedback-ms", feedbackMs, defaults.feedbackMs),
            ("--max-pulse-rate", maxPulseRateHz, defaults.maxPulseRateHz), ("--max-retract-ms", maxRetractMs, defaults.maxRetractMs),
            ("--fixed-hold-ms", fixedHoldMs, defaults.fixedHoldMs),
            ("--min-impaired-completion", minImpairedCompletion, defaults.minImpairedCompletion),
        ]
        return values.filter { $0.1 != $0.2 }.flatMap { [$0.0, $0.1.shortText] }
            + (ruleSet == defaults.ruleSet ? [] : ["--rules", ruleSet.rawValue])
    }
}

/// pass, warn or fail.
public enum GuidelineStatus: String, Sendable {
    case pass, warn, fail
}

/// Where a rule's line comes from: what a reader may take from it.
public enum GuidelineBasis: String, Sendable {
    /// A standard says it (WCAG 2.2), in the words cited.
    case standard = "WCAG"
    /// A published measurement or a textbook figure.
    case research
    /// HoldLab's own judgement, with its rationale: a default to argue with, not a standard.
    case judgement = "HoldLab's judgement"
    /// The rules of 0.1.0, which did not say.
    case rules1 = "unstated (rules 1)"
}

/// A guideline rule: its id, what it checks, where it comes from, and what fails it.
public struct GuidelineRule: Sendable {
    public let id: String
    public let checks: String
    public let source: String
    /// Whether a standard says it, research measured it, or HoldLab judges it.
    public let basis: GuidelineBasis
    /// Why the line is drawn where it is, for a rule that is HoldLab's judgement (empty otherwise).
    public let rationale: String
    /// The `holdlab check` option that sets the threshold (empty when the rule has none).
    public let option: String
    /// When the rule warns and fails, with the threshold's value.
    public let criterion: @Sendable (GuidelineThresholds) -> String
}

/// One rule's result for one profile.
public struct GuidelineResult: Sendable {
    public var profile: String
    public var rule: GuidelineRule
    public var status: GuidelineStatus
    /// The measured figure, with its unit (`NaN` when there is nothing to measure).
    public var measured: String
    public var threshold: String
    /// One sentence: what was measured and why the status.
    public var detail: String
    /// For a rule that fails or warns: the key to change and a value with which the rule passes and no rule that
    /// passed fails (checked by running the rules again with it), or why none was found. Nil when it passes.
    public var suggestion: GuidelineFix?

    /// `suggestion` as checks.csv's `fix` column writes it (`--set key=value (why)`, or the sentence); empty when
    /// the rule passes.
    public var fix: String { suggestion?.text ?? "" }

    public init(profile: String, rule: GuidelineRule, status: GuidelineStatus, measured: String, threshold: String,
                detail: String, suggestion: GuidelineFix? = nil) {
        self.profile = profile
        self.rule = rule
        self.status = status
        self.measured = measured
        self.threshold = threshold
        self.detail = detail
        self.suggestion = suggestion
    }
}

/// A guideline check's suggested fix: a `--set` value that makes the rule pass (with why, when it needs saying), or
/// a sentence saying why none was found. Kept apart so that a report can quote the value alone, pasteable.
public struct GuidelineFix: Sendable, Equatable {
    /// `key=value` for `--set`; nil when no single value was found. With `trades`, the value that passes the rule
    /// only by breaking another.
    public var setting: String?
    /// Why the value works, or (without a setting) what was tried; may be empty beside a setting. With `trades`,
    /// the rest of the sentence after the value ("passes this rule but then …").
    public var note: String
    /// Whether `setting` passes its rule only by making a passing rule fail (then it is no fix, and `note` says so).
    public var trades: Bool
    /// The `--set` value the profile was checked with that `setting` takes the place of: one of a key that overlaps
    /// the fix's, which cannot be given beside it (`setting` is then the two merged: `replacing`), or one whose key
    /// the fix leaves without effect (`retract.duration=0.3` for `retract.mode=instant`), refused beside it: then
    /// every such value, in the order given. Empty when it takes the place of none.
    public var replaces: [String]

    public init(setting: String?, note: String = "", trades: Bool = false, replaces: [String] = []) {
        self.setting = setting
        self.note = note
        self.trades = trades
        self.replaces = replaces
    }

    /// A sentence without a value.
    public static func sentence(_ text: String) -> GuidelineFix { GuidelineFix(setting: nil, note: text) }

    /// The fix for a profile checked with the `--set` values `sets`: where one gives a key that overlaps the fix's
    /// (`fill.timer={tick: 0.02, duration: 2.5}` beside a fix of `fill.timer.duration`), the two merged into one
    /// value (`Override.merged`) that takes its place, so the fix can be pasted; otherwise the fix as it is.
    public func replacing(_ sets: [String]) -> GuidelineFix {
        guard replaces.isEmpty, let setting, let fix = try? Override(parsing: setting) else { return self }
        for text in sets {
            guard let given = try? Override(parsing: text), let merged = given.merged(with: fix) else { continue }
            var placed = self
            placed.setting = merged
            placed.replaces = [text]
            return placed
        }
        return self
    }

    /// `--set key=value (note)`, `` `--set key=value` passes this rule but then … ``, or the note alone; with
    /// `replaces`, `in place of --set …` after the value.
    public var text: String {
        guard let setting else { return note }
        if trades { return "`--set \(setting)`" + (replacedText.map { " in place of `\($0)`" } ?? "") + " \(note)" }
        return "--set \(setting)" + (replacedText.map { " in place of \($0)" } ?? "") + (note.isEmpty ? "" : " (\(note))")
    }

    /// `--set a --set b` for the values it takes the place of, as they are pasted; nil for none.
    public var replacedText: String? {
        replaces.isEmpty ? nil : replaces.map { "--set \($0)" }.joined(separator: " ")
    }
}

/// What a profile's fixes, each checked alone, do applied together (`Guidelines.together`).
public struct FixesTogether: Sendable {
    public enum Outcome: Sendable {
        /// The profile with all of them cannot be loaded or run: why.
        case refused(String)
        /// Two of them set one key (or one inside the other), with different values: they cannot both be followed.
        case conflict(String, String)
        /// Every rule passes; the rules each fixes pass and none that passed fails (others are as they were).
        case passEvery, passFixed
        /// Rules a fix fixes that still do not pass, or rules that passed and no longer do.
        case broken([(rule: String, status: GuidelineStatus, fixed: Bool)])
    }

    /// The fixes' `key=value` texts, in rule order, each once, and the `--set` values each takes the place of.
    public var settings: [String]
    public var replaces: [[String]]
    public var outcome: Outcome

    public init(settings: [String], replaces: [[String]], outcome: Outcome) {
        self.settings = settings
        self.replaces = replaces
        self.outcome = outcome
    }

    /// The sentence, each value written by `value` from the setting and the `--set` it replaces (`` `--set k=v` in
    /// place of `--set k=w` `` for check, `` `k=v` `` for a report, whose cells say where each goes).
    public func sentence(_ value: (String, [String]) -> String) -> String {
        // Separated by commas where a value names the one it replaces, so each pair reads as one.
        let list = zip(settings, replaces).map(value).joined(separator: replaces.contains { !$0.isEmpty } ? ", " : " ")
        switch outcome {
        case .conflict(let a, let b):
            return "two of its fixes give one key different values (`\(a)` and `\(b)`): they cannot both be followed; "
                + "follow one, then check again"
        case .refused(let why): return "its fixes together (\(list)) are refused: \(why); follow one, then check again"
        case .passEvery: return "its fixes together (\(list)) pass every rule"
        case .passFixed: return "its fixes together (\(list)) pass the rules each fixes and break none that passed"
        case .broken(let rules):
            return "with its fixes together (\(list)), " + rules.map { rule in
                let verb = rule.status == .warn ? "warns" : "fails"
                return "`\(rule.rule)` " + (rule.fixed ? "still \(verb)" : "no longer passes (\(verb))")
            }.joined(separator: " and ") + "; follow one, then check again"
        }
    }
}

/// What the rules measure: a profile simulated against its own population and the motor-impaired one, and
/// single holds traced (deterministic).
public struct GuidelineRequest: Sendable {
    public var profile: Profile
    public var population: Population
    public var impairedPopulation: Population
    public var users: Int
    public var seed: UInt64
    /// The GSL generator the simulations' people and Timer latencies are drawn from (`--rng`); traces keep mt19937.
    public var rng: Generator.Kind
    public var threads: Int
    public var thresholds: GuidelineThresholds
    /// The profile's simulation against `population` and against `impairedPopulation` with these users and seed,
    /// when the caller has already run them (a report's comparison): then `check` does not simulate them again.
    public var summary: SimulationSummary?
    public var impairedSummary: SimulationSummary?
    /// The `--set` values `profile` was loaded with: a fix of a key one of them gives takes its place
    /// (`GuidelineFix.replacing`).
    public var sets: [String]

    public init(profile: Profile, population: Population, impairedPopulation: Population, users: Int, seed: UInt64,
                rng: Generator.Kind = .users, threads: Int, thresholds: GuidelineThresholds,
                summary: SimulationSummary? = nil, impairedSummary: SimulationSummary? = nil, sets: [String] = []) {
        self.sets = sets
        self.rng = rng
        self.profile = profile
        self.population = population
        self.impairedPopulation = impairedPopulation
        self.users = users
        self.seed = seed
        self.threads = threads
        self.thresholds = thresholds
        self.summary = summary
        self.impairedSummary = impairedSummary
    }
}
