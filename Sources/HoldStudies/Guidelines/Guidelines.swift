import GSL
import HoldLabIO
import HoldModel
import HoldProfiles
import HoldSimulation

/// The guideline rules (`holdlab check`, and the report's checks). docs/REPORT.md has the same table.
public enum Guidelines {
    /// The rules of the default rule set (rules 2).
    public static let rules: [GuidelineRule] = [
        GuidelineRule(
            id: "fill-matches-action",
            checks: "the bar looks full when the action fires, on both sides: not full before it (mismatch = trigger − first frame displayed full, simulated) and no action on a partly filled bar (the first full frame after the trigger, worst display phase)",
            source: "HoldLab's judgement; the mismatch is the gap between two clocks that a hold-to-confirm control runs (the fill and the trigger)",
            basis: .judgement,
            rationale: "a bar that looks full and does nothing loses the people who let go on seeing it full; an action on a bar that is not yet full surprises, and whoever lets go right after it never sees the bar full",
            option: "--mismatch-frames",
            criterion: { "fail: mismatch p95 > \(format($0.mismatchFrames)) frame(s), or the bar first looks full more than \(format($0.mismatchFrames)) frame(s) after the action at some display phase; warn: the mismatch's maximum is more than \(format($0.mismatchFrames)) frame(s)" }),
        GuidelineRule(
            id: "first-feedback",
            checks: "the first feedback (visible fill, pulse or the action) after touch-down, at the worst display phase: the supremum over every phase, found by a grid of 32 phases refined by bisection",
            source: "Card, Moran & Newell, The Psychology of Human-Computer Interaction (1983); Nielsen, Usability Engineering (1993), ch. 5: 0.1 s is about the limit for a response to feel instantaneous",
            basis: .research,
            rationale: "",
            option: "--feedback-ms",
            criterion: { "fail: later than \(format($0.feedbackMs)) ms" }),
        GuidelineRule(
            id: "haptic-rate",
            checks: "the peak rate of the pulses the actuator renders in completed holds: played pulses closer than haptics.actuatorMinInterval (an assumption; default 0.01 s) merge into one before the rate is computed, so no rate above the actuator's is reported",
            source: "HoldLab's judgement; the actuator limit is an assumption, since no platform documents a minimum interval between impacts",
            basis: .judgement,
            rationale: "the KikoCard author found pulses on every 10 ms Timer tick numbing and stuttering and lowered their rate",
            option: "--max-pulse-rate",
            criterion: { "fail: above \(format($0.maxPulseRateHz)) Hz" }),
        GuidelineRule(
            id: "pointer-cancellation",
            checks: "lifting the finger before the action fires never fires it (traced releases at 25, 50, 75 and 90 % of the trigger time and one frame before it)",
            source: "WCAG 2.2 SC 2.5.2 Pointer Cancellation (level A): for functionality a single pointer operates, the down-event does not execute it, or completion is on the up-event with a way to abort or undo, or the up-event reverses the outcome, or down-event completion is essential. For a hold, lifting early is the abort. https://www.w3.org/TR/WCAG22/#pointer-cancellation",
            basis: .standard,
            rationale: "",
            option: "",
            criterion: { _ in "fail: an early release fires the action" }),
        GuidelineRule(
            id: "retract-time",
            checks: "after a release before the action, how long the bar goes on showing progress (the same traced releases)",
            source: "HoldLab's judgement, not WCAG: SC 2.5.2 asks that the function can be aborted and sets no time for the indicator",
            basis: .judgement,
            rationale: "a bar that keeps showing progress after the finger lifted suggests that the hold still counts",
            option: "--max-retract-ms",
            criterion: { "fail: an early release leaves the bar showing progress for more than \(format($0.maxRetractMs)) ms, or it never draws empty" }),
        GuidelineRule(
            id: "timing-adjustable",
            checks: "the hold the action needs; a profile cannot say the user may adjust it (informative)",
            source: "WCAG 2.2 SC 2.2.1 Timing Adjustable (level A) asks that a time limit the content sets can be turned off, adjusted or extended; reading a required hold as such a limit, and the threshold, are HoldLab's (WCAG names no duration). https://www.w3.org/TR/WCAG22/#timing-adjustable",
            basis: .judgement,
            rationale: "a long required hold is a time limit for people who cannot keep a finger still and down",
            option: "--fixed-hold-ms",
            criterion: { "warn: the action needs a hold longer than \(format($0.fixedHoldMs)) ms (never fails)" }),
        GuidelineRule(
            id: "motor-impaired-completion",
            checks: "the completion rate of the motor-impaired population",
            source: "HoldLab's judgement on a population: per-user mean touch times of motor-impaired people span 58–1,563 ms (CHI EA 2026, a measurement); the population's other numbers are assumptions",
            basis: .judgement,
            rationale: "a confirmation that one in five people who mean to confirm cannot complete excludes them",
            option: "--min-impaired-completion",
            criterion: { "fail: below \(format($0.minImpairedCompletion)) (the rate; its 95 % Wilson interval is shown)" }),
    ]

    /// The rules a rule set runs, in order.
    public static func rules(_ set: GuidelineRuleSet) -> [GuidelineRule] {
        set == .rules1 ? GuidelinesRules1.rules : rules
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    static func rule(_ id: String) -> GuidelineRule {
        guard let rule = rules.first(where: { $0.id == id }) else { preconditionFailure("no rule \(id)") }
        return rule
    }

    /// The frame phases the worst-phase rules start from, before refining the worst by bisection.
    static let phaseGrid = 32
    /// Bisection steps towards a supremum: the phase to 2⁻⁴⁰ of a grid cell.
    static let bisectionSteps = 40

    /// The largest value of `value(phase)` over frame phases in [0, 1), nil where there is none: a grid of
    /// ``phaseGrid`` phases, then bisection from the largest towards the next grid phase while the value keeps
    /// growing. A frame-quantised time grows with the phase until the frame before it crosses the instant it
    /// waits for, then drops by a frame: the bisection follows the growing side to that jump, so the result is the
    /// supremum (approached from below), not a sample.
    ///
    /// - Returns: the supremum over the phases that have a value, and whether some grid phase had none.
    static func worstOverPhases(_ value: (Double) throws -> Double?) rethrows -> (worst: Double?, someMissing: Bool) {
        var best: Double?
        var bestIndex = 0
        var missing = false
        for index in 0..<phaseGrid {
            guard let v = try value(Double(index) / Double(phaseGrid)) else { missing = true; continue }
            if best.map({ v > $0 }) ?? true { best = v; bestIndex = index }
        }
        guard var worst = best else { return (nil, missing) }
        var low = Double(bestIndex) / Double(phaseGrid)
        var high = Swift.min(Double(bestIndex + 1) / Double(phaseGrid), 1 - 1e-12)
        var lowValue = worst
        for _ in 0..<bisectionSteps {
            let middle = (low + high) / 2
            guard middle > low, middle < high else { break }
            if let v = try value(middle), v >= lowValue {
                low = middle
                lowValue = v
                worst = Swift.max(worst, v)
            } else {
                high = middle
            }
        }
        return (worst, missing)
    }

    /// The timeline of a held hold of `profile` at a frame phase, its Timer latencies drawn from `seed`.
    static func timeline(_ evaluator: HoldEvaluator, _ profile: Profile, phase: Double, seed: UInt64) -> HeldTimeline {
        var latencies = DrawnLatencies(profile.timerLatency, generator: Generator(seed: seed, kind: .mt19937))
        return evaluator.hold(framePhase: phase, latencies: &latencies)
    }

    /// The latest first feedback over every display phase (ms), or nil when some phase gives none.
    static func worstFirstFeedbackMs(_ profile: Profile, seed: UInt64) throws -> (worst: Double?, someMissing: Bool) {
        let evaluator = HoldEvaluator(try profile.prepared())
        return worstOverPhases { phase in
            timeline(evaluator, profile, phase: phase, seed: seed).firstFeedback.map { Instant.seconds($0) * 1000 }
        }
    }

    /// How long after the action the bar first looks full, at the worst display phase (ms; negative when it always
    /// looks full before it), for a finger held down; nil when the action never fires or the bar never looks full.
    static func worstLateFullMs(_ profile: Profile, seed: UInt64) throws -> Double? {
        try worstFullGapMs(profile, seed: seed, late: true)
    }

    /// How long before the action the bar first looks full, at the worst display phase (ms; negative when it always
    /// looks full after it), for a finger held down to the action; nil when the action never fires or the bar never
    /// looks full. The early side where no simulated hold completed having seen the bar full (everyone let go on it).
    static func worstEarlyFullMs(_ profile: Profile, seed: UInt64) throws -> Double? {
        try worstFullGapMs(profile, seed: seed, late: false)
    }

    private static func worstFullGapMs(_ profile: Profile, seed: UInt64, late: Bool) throws -> Double? {
        let evaluator = HoldEvaluator(try profile.prepared())
        return worstOverPhases { phase in
            let held = timeline(evaluator, profile, phase: phase, seed: seed)
            guard let trigger = held.trigger, let full = held.firstFullFrame else { return nil }
            return Instant.seconds(late ? full - trigger : trigger - full) * 1000
        }.worst
    }

    /// What one rule found: its status, measured figure, threshold and sentence.
    struct Finding {
        var status: GuidelineStatus
        var measured: String
        var threshold: String
        var detail: String
        init(_ status: GuidelineStatus, _ measured: String, _ threshold: String, _ detail: String) {
            self.status = status
            self.measured = measured
            self.threshold = threshold
            self.detail = detail
        }
    }

    /// The simulations a rule may need, of the checked profile or of a candidate fix.
    struct Simulations {
        let request: GuidelineRequest
        func own(_ profile: Profile) throws -> SimulationSummary {
            try Simulator.run(SimulationRequest(profiles: [profile], population: request.population, users: request.users,
                                                seed: request.seed, rng: request.rng, threads: request.threads))[0]
        }
        func impaired(_ profile: Profile) throws -> SimulationSummary {
            try Simulator.run(SimulationRequest(profiles: [profile], population: request.impairedPopulation,
                                                users: request.users, seed: request.seed, rng: request.rng,
                                                threads: request.threads))[0]
        }
    }

    /// Runs every rule of the request's rule set on its profile.
    public static func check(_ request: GuidelineRequest) throws -> [GuidelineResult] {
        if request.thresholds.ruleSet == .rules1 { return try GuidelinesRules1.check(request) }
        return try check(request, fixes: true)
    }

    /// Every rule's finding, and with `fixes` a fix for each that does not pass, once every finding is known: a fix
    /// is checked against the rules that passed (`fixes: false` runs them on the changed profile).
    static func check(_ request: GuidelineRequest, fixes: Bool) throws -> [GuidelineResult] {
        let profile = request.profile
        let simulations = Simulations(request: request)
        let own = try request.summary ?? simulations.own(profile)
        let sameImpaired = request.impairedPopulation.name == request.population.name
            && request.impairedPopulation.contentHash == request.population.contentHash
        let impaired = try request.impairedSummary ?? (sameImpaired ? own : simulations.impaired(profile))
        var results: [GuidelineResult] = []
        var fixers: [Int: () throws -> GuidelineFix] = [:]
        func add(_ id: String, _ finding: Finding, fix: @escaping () throws -> GuidelineFix) {
            if finding.status != .pass { fixers[results.count] = fix }
            results.append(GuidelineResult(
                profile: profile.name, rule: rule(id), status: finding.status, measured: finding.measured,
                threshold: finding.threshold, detail: finding.detail))
        }
        // The rules a changed profile no longer passes, of those this one passes.
        func breaks(_ changed: Profile) throws -> [String] {
            let passing = Set(results.filter { $0.status == .pass }.map(\.rule.id))
            guard !passing.isEmpty else { return [] }
            var again = request
            again.profile = changed
            again.summary = nil
            again.impairedSummary = nil
            return try check(again, fixes: false).filter { $0.status != .pass && passing.contains($0.rule.id) }.map(\.rule.id)
        }
        func fix(_ profile: Profile, candidates: [String], note: String = "", passes: (Profile) throws -> Bool) throws -> GuidelineFix {
            try Self.fix(profile, candidates: candidates, note: note, sets: request.sets, breaks: breaks, passes: passes)
        }
        let t = request.thresholds
        let seed = request.seed

        // fill-matches-action: both sides. Its fix must pass both sides again, the simulated one simulated again.
        let fillFinding = try fillMatchesAction(profile, own, t, seed: seed)
        add("fill-matches-action", fillFinding) {
            var candidates: [String] = []
            if profile.control.trigger.offsetSeconds != 0 { candidates.append("trigger.offset=0") }
            if case .animation(let curve, _) = profile.control.fill.model, !isSpring(curve),
               profile.control.trigger.source == .gesture, !profile.fillDurationMatchesGesture {
                candidates.append("fill.duration=match")
            }
            if profile.control.trigger.source == .gesture { candidates.append("trigger.source=fill") }
            return try fix(profile, candidates: candidates) { changed in
                try fillMatchesAction(changed, simulations.own(changed), t, seed: seed).status == .pass
            }
        }

        // first-feedback: the supremum over display phases.
        let feedbackFinding = try firstFeedback(profile, t, seed: seed)
        add("first-feedback", feedbackFinding) {
            var candidates: [String] = []
            if profile.control.fill.delaySeconds > 0 { candidates.append("fill.delay=0") }
            if profile.control.fill.start != .touchDown { candidates.append("fill.start=touchDown") }
            if case .none = profile.control.fill.model {
                candidates.append("fill.model=animation")
            } else if case .animation(let curve, _) = profile.control.fill.model, !isSpring(curve), curve != .linear {
                candidates.append("fill.curve=linear")
            }
            return try fix(profile, candidates: candidates) { changed in
                try firstFeedback(changed, t, seed: seed).status == .pass
            }
        }

        // haptic-rate: a throttle at the accepted rate passes by construction (rendered gaps ≥ played gaps ≥ it).
        let rateFinding = hapticRate(profile, own, t)
        add("haptic-rate", rateFinding) {
            guard t.maxPulseRateHz > 0 else {
                return GuidelineFix(setting: "haptics.threshold=0", note: "no progress pulses: at most one pulse, at the action")
            }
            let interval = (1000 / t.maxPulseRateHz).rounded(.up) / 1000
            return GuidelineFix(setting: "haptics.minInterval=\(seconds(interval))",
                                note: "played pulses at least that far apart: the rendered rate cannot exceed \(format(t.maxPulseRateHz)) Hz")
        }

        // pointer-cancellation and retract-time: traced releases before the action.
        let (cancelFinding, retractFinding) = try earlyReleases(profile, t, seed: seed)
        add("pointer-cancellation", cancelFinding) {
            var candidates: [String] = []
            if profile.control.trigger.offsetSeconds != 0 { candidates.append("trigger.offset=0") }
            candidates.append(profile.control.trigger.source == .gesture ? "trigger.source=fill" : "trigger.source=gesture")
            return try fix(profile, candidates: candidates) { changed in
                try earlyReleases(changed, t, seed: seed).cancellation.status == .pass
            }
        }
        add("retract-time", retractFinding) {
            var candidates = ["retract.mode=instant"]
            if let duration = longestRetract(profile, t, seed: seed, sets: request.sets) { candidates.insert(duration, at: 0) }
            if profile.control.retract.mode != .animation { candidates.insert("retract.mode=animation", at: 0) }
            return try fix(profile, candidates: candidates) { changed in
                try earlyReleases(changed, t, seed: seed).retract.status == .pass
            }
        }

        // timing-adjustable (informative).
        let tracedTimeline = try TraceRequest(profile: profile, seed: seed).run().timeline
        let timingFinding = timingAdjustable(trigger: tracedTimeline.triggerTime, t)
        add("timing-adjustable", timingFinding) {
            let target = seconds(t.fixedHoldMs / 1000)
            // Only keys that set when the action fires, and only shorter: a fill's trigger does not wait for the
            // gesture's minimumDuration, so lengthening or shortening it there changes nothing.
            var candidates: [String] = []
            if profile.control.trigger.offsetSeconds > 0 { candidates.append("trigger.offset=0") }
            if profile.control.trigger.source == .gesture, profile.control.gesture.minimumDurationSeconds > t.fixedHoldMs / 1000 {
                candidates.append("gesture.minimumDuration=\(target)")
            }
            if profile.control.trigger.source == .fill, case .animation(let curve, let duration) = profile.control.fill.model,
               !isSpring(curve), duration > t.fixedHoldMs / 1000 {
                candidates.append("fill.duration=\(target)")
            }
            // A Timer fill that fires the action: a shorter tick for the increments, a shorter timer.duration for
            // seed 004's elapsed-time form (whose ticks add up to its duration whatever the tick). The largest value
            // on the grid a --set writes (the millisecond; for a tick, then the tenth of one) whose traced hold
            // passes, found by halving between no value and the profile's own: the trace, not a formula, says when
            // the action fires, with the profile's latencies (late or coalesced ticks) and its fill's start.
            var timerTried: String?
            if profile.control.trigger.source == .fill, case .timer(let timer) = profile.control.fill.model,
               let fillStart = tracedTimeline.fillStart {
                // The fill starts at or past the limit: no value of the Timer brings the action within it. (The
                // halving below assumes a shorter value never fires later; the fix found is checked as every fix is.)
                if Double(fillStart) / 1_000_000 >= t.fixedHoldMs {
                    return .sentence("the Timer's fill starts \(format((Double(fillStart) / 1_000_000).rounded())) ms into the hold, at or "
                        + "past the \(format(t.fixedHoldMs)) ms limit: no tick or duration of it shortens the hold that far; the fill must start sooner")
                }
                let (key, current) = timer.durationSeconds.map { ("fill.timer.duration", $0) } ?? ("fill.timer.tick", timer.tickSeconds)
                // Whether the action fires within the limit; a value so short the profile is refused (a fill done
                // before the gesture recognises) is on the fast side too, so the halving stays monotone, and the
                // value found is taken only where the profile takes it (else the finer grid is tried).
                func fastEnough(_ value: Double) -> Bool {
                    guard let (changed, _) = applying("\(key)=\(seconds(value, decimals: 4))", to: profile, given: request.sets) else {
                        return true
                    }
                    guard let trace = try? TraceRequest(profile: changed, seed: seed).run() else { return false }
                    return timingAdjustable(trigger: trace.timeline.triggerTime, t).status == .pass
                }
                let grids = timer.durationSeconds == nil ? [0.001, 0.0001] : [0.001]
                timerTried = "`\(key)` down to \(seconds(grids.last ?? 0.001, decimals: 4)) s"
                for grid in grids {
                    // The profile's own value warns.
                    let low = largestPassing(below: Int((current / grid).rounded(.up))) { fastEnough(Double($0) * grid) }
                    let setting = "\(key)=\(seconds(Double(low) * grid, decimals: 4))"
                    if low > 0, applying(setting, to: profile, given: request.sets) != nil {
                        candidates.append(setting)
                        break
                    }
                }
            }
            if candidates.isEmpty, let timerTried {
                return .sentence("no value of \(timerTried) brings the traced action within the \(format(t.fixedHoldMs)) ms limit "
                    + "(the Timer's latencies and its fill's start take the rest)")
            }
            return try fix(profile, candidates: candidates) { changed in
                try timingAdjustable(changed, t, seed: seed).status == .pass
            }
        }

        // motor-impaired-completion: a shorter hold, simulated against the impaired population again.
        let impairedFinding = motorImpairedCompletion(impaired, request.impairedPopulation.name, t)
        add("motor-impaired-completion", impairedFinding) {
            // Nothing to shorten for a population nobody in which means to confirm: the rule cannot measure.
            guard impaired.completion.rate != nil else {
                return .sentence("give --impaired-population one with intent users (intent: confirm); \(request.impairedPopulation.name) has none")
            }
            let current = profile.control.gesture.minimumDurationSeconds
            var candidates = [0.8, 0.6, 0.5, 0.4].map { "gesture.minimumDuration=\(seconds(Swift.max(0.05, (current * $0 * 20).rounded() / 20)))" }
            if profile.control.trigger.source == .fill, case .animation(let curve, let duration) = profile.control.fill.model,
               !isSpring(curve) {
                candidates += [0.8, 0.6].map { "fill.duration=\(seconds(Swift.max(0.05, (duration * $0 * 20).rounded() / 20)))" }
            }
            return try fix(profile, candidates: candidates) { changed in
                motorImpairedCompletion(try simulations.impaired(changed), request.impairedPopulation.name, t).status == .pass
            }
        }
        if fixes {
            for (index, fixer) in fixers.sorted(by: { $0.key < $1.key }) { results[index].suggestion = try fixer().replacing(request.sets) }
        }
        return results
    }

    // MARK: - The rules, each a function of what it measures

    static func fillMatchesAction(_ profile: Profile, _ own: SimulationSummary, _ t: GuidelineThresholds,
                                  seed: UInt64) throws -> Finding {
        let frameMs = 1000 / profile.control.display.refreshRateHz
        let limit = t.mismatchFrames * frameMs
        let limitText = CSV.number(limit, decimals: 3) + " ms"
        let frames = "\(format(t.mismatchFrames)) frame(s) of \(CSV.number(frameMs, decimals: 2)) ms"
        let late = try worstLateFullMs(profile, seed: seed)
        let unseen = own.value(named: "completed_unseen_rate")
        let progress = own.value(named: "progress_at_trigger_min")
        var lateNote = ""
        if let unseen, unseen > 0 {
            lateNote = "; in \(CSV.number(unseen * 100, decimals: 1)) % of completed holds the bar never looked full"
        }
        // The late side first: an action on a partly filled bar.
        if let late, late > limit {
            let shown = progress.map { ", showing as little as \(CSV.number($0 * 100, decimals: 1)) % of the bar" } ?? ""
            return Finding(.fail, CSV.number(late, decimals: 3) + " ms late", limitText,
                           "the action fires on a partly filled bar\(shown): the bar first looks full up to \(CSV.number(late, decimals: 1)) ms after it (worst display phase), more than \(frames)\(lateNote)")
        }
        guard let p95 = own.value(named: "mismatch_p95_ms"), let max = own.value(named: "mismatch_max_ms") else {
            // No simulated hold completed having seen the bar full: none had a fill, none completed, or everyone let
            // go on the full bar before the action. A finger held down to the action, traced at every display phase,
            // says which.
            if let early = try worstEarlyFullMs(profile, seed: seed), early > limit {
                let gaveUp = own.value(named: "premature_mismatch_rate").map {
                    "; \(CSV.number($0 * 100, decimals: 1)) % of intent users let go on the full bar, before the action"
                } ?? ""
                return Finding(.fail, CSV.number(early, decimals: 3) + " ms early", limitText,
                               "the bar looks full up to \(CSV.number(early, decimals: 1)) ms before the action fires (traced, a finger held down, worst display phase): more than \(frames); no simulated hold completed having seen it full\(gaveUp)")
            }
            return Finding(.pass, "NaN", limitText, "no completed hold showed a full bar (no fill, or none completed), and a finger held down to the action never sees it full more than \(frames) early (traced, every display phase)")
        }
        let measured = CSV.number(p95, decimals: 3) + " ms"
        let lateText = late.map { "; it looks full at most \(CSV.number(Swift.max(0, $0), decimals: 1)) ms after the action" } ?? ""
        if p95 > limit {
            return Finding(.fail, measured, limitText,
                           "the bar looks full \(CSV.number(p95, decimals: 1)) ms (p95) before the action fires: more than \(frames)")
        }
        if max > limit {
            return Finding(.warn, measured, limitText,
                           "p95 within \(frames), but some holds look full up to \(CSV.number(max, decimals: 1)) ms early\(lateText)")
        }
        if max > 0 {
            return Finding(.pass, measured, limitText,
                           "the bar looks full at most \(CSV.number(max, decimals: 1)) ms before the action (p95 \(CSV.number(p95, decimals: 1)) ms)\(lateText)\(lateNote)")
        }
        return Finding(.pass, measured, limitText,
                       "the bar never looks full before the action fires\(lateText)\(lateNote)")
    }

    static func firstFeedback(_ profile: Profile, _ t: GuidelineThresholds, seed: UInt64) throws -> Finding {
        let limit = format(t.feedbackMs) + " ms"
        let (worst, missing) = try worstFirstFeedbackMs(profile, seed: seed)
        guard let worst, !missing else {
            return Finding(.fail, "NaN", limit, "at some display phase the hold gives no feedback at all while the finger is down")
        }
        let measured = CSV.number(worst, decimals: 3) + " ms"
        if worst > t.feedbackMs {
            return Finding(.fail, measured, limit,
                           "at the worst display phase nothing shows the hold is working until \(CSV.number(worst, decimals: 1)) ms after touch-down")
        }
        return Finding(.pass, measured, limit,
                       "the first feedback comes \(CSV.number(worst, decimals: 1)) ms after touch-down at the latest (worst display phase)")
    }

    static func hapticRate(_ profile: Profile, _ own: SimulationSummary, _ t: GuidelineThresholds) -> Finding {
        let limit = format(t.maxPulseRateHz) + " Hz"
        let actuator = profile.control.haptics.actuatorMinIntervalSeconds
        let assumption = actuator > 0
            ? "the actuator renders pulses at most \(CSV.number(1 / actuator, decimals: 1)) per second (haptics.actuatorMinInterval \(seconds(actuator)) s, an assumption)"
            : "haptics.actuatorMinInterval is 0: every played pulse counts as rendered"
        guard let peak = own.value(named: "peak_pulse_rate_hz") else {
            return Finding(.pass, "NaN", limit, "no completed hold rendered two pulses")
        }
        let measured = CSV.number(peak, decimals: 3) + " Hz"
        if peak > t.maxPulseRateHz {
            return Finding(.fail, measured, limit, "rendered pulses come up to \(CSV.number(peak, decimals: 1)) per second; \(assumption)")
        }
        return Finding(.pass, measured, limit, "the fastest rendered pulses come \(CSV.number(peak, decimals: 1)) per second; \(assumption)")
    }

    /// Traced releases before the action: whether one fires it (`pointer-cancellation`) and how long the bar goes
    /// on showing progress (`retract-time`).
    ///
    /// - Parameter fractions: the releases, as fractions of the trigger time (one frame before it is added). The
    ///   model never fires the action after the finger lifted, so a test reaches the failing branch with a release
    ///   at the trigger's own instant (1), where the action fires first.
    static func earlyReleases(_ profile: Profile, _ t: GuidelineThresholds, seed: UInt64,
                              fractions: [Double] = [0.25, 0.5, 0.75, 0.9]) throws
        -> (cancellation: Finding, retract: Finding)
    {
        let retractLimit = format(t.maxRetractMs) + " ms"
        let full = try TraceRequest(profile: profile, seed: seed).run()
        guard let trigger = full.timeline.triggerTime else {
            return (Finding(.pass, "NaN", "", "the action never fires"), Finding(.pass, "NaN", retractLimit, "the action never fires"))
        }
        let frame = 1 / profile.control.display.refreshRateHz
        let hasFill: Bool
        if case .none = profile.control.fill.model { hasFill = false } else { hasFill = true }
        let resolution = profile.control.display.resolution
        // Releases before the action on the control's nanosecond clock: a fraction of a trigger a few nanoseconds after
        // touch-down rounds onto it (0.3.17 said "a release at 0.0 ms, before the action at 0.0 ms, fires it" for a
        // trigger at 1 ns: a release at the trigger's instant fires it by the documented order). Touch-down itself is
        // the release then left. (`--rules 1`, `GuidelinesRules1`, keeps 0.1.0's releases.)
        let triggerInstant = Instant.nanoseconds(trigger)
        var releases = fractions.map { trigger * $0 }.filter { $0 >= trigger || Instant.nanoseconds($0) < triggerInstant }
        if trigger - frame > 0 { releases.append(trigger - frame) }
        if releases.isEmpty && triggerInstant > 0 { releases = [0] }
        var fired: Double?
        var stuck: Double?
        var slowest = 0.0
        for release in releases {
            let trace = try TraceRequest(profile: profile, releaseAtSeconds: release, seed: seed).run()
            if trace.outcome.completed { fired = fired ?? release; continue }
            guard hasFill, trace.rows.contains(where: { $0.displayedProgress >= resolution }) else { continue }
            if let retract = trace.outcome.retractSeconds {
                slowest = Swift.max(slowest, retract * 1000)
            } else {
                stuck = stuck ?? release
            }
        }
        let cancellation = fired.map {
            Finding(.fail, "fires", "", "a release at \(CSV.number($0 * 1000, decimals: 1)) ms, before the action at \(CSV.number(trigger * 1000, decimals: 1)) ms, fires it")
        } ?? Finding(.pass, "fires nothing", "", "\(releases.count) release\(releases.count == 1 ? "" : "s") before the action fired nothing")
        let measured = CSV.number(slowest, decimals: 3) + " ms"
        let retract: Finding
        if let stuck {
            retract = Finding(.fail, "NaN", retractLimit, "after a release at \(CSV.number(stuck * 1000, decimals: 1)) ms the bar never draws empty")
        } else if slowest > t.maxRetractMs {
            retract = Finding(.fail, measured, retractLimit, "an early release leaves the bar showing progress for \(CSV.number(slowest, decimals: 1)) ms")
        } else if !hasFill {
            retract = Finding(.pass, "NaN", retractLimit, "no fill to retract")
        } else {
            retract = Finding(.pass, measured, retractLimit, "after an early release the bar draws empty within \(CSV.number(slowest, decimals: 1)) ms")
        }
        return (cancellation, retract)
    }

    static func timingAdjustable(_ profile: Profile, _ t: GuidelineThresholds, seed: UInt64) throws -> Finding {
        timingAdjustable(trigger: try TraceRequest(profile: profile, seed: seed).run().timeline.triggerTime, t)
    }

    /// `timing-adjustable` of a traced hold whose action fires at `trigger` seconds (nil: never).
    static func timingAdjustable(trigger: Double?, _ t: GuidelineThresholds) -> Finding {
        let limit = format(t.fixedHoldMs) + " ms"
        guard let trigger else {
            return Finding(.pass, "NaN", limit, "the action never fires")
        }
        let hold = trigger * 1000
        let measured = CSV.number(hold, decimals: 3) + " ms"
        if hold > t.fixedHoldMs {
            return Finding(.warn, measured, limit,
                           "the action needs a \(CSV.number(hold, decimals: 0)) ms hold; let users adjust it or offer a way without a time limit")
        }
        return Finding(.pass, measured, limit, "the action needs a \(CSV.number(hold, decimals: 0)) ms hold")
    }

    static func motorImpairedCompletion(_ impaired: SimulationSummary, _ population: String, _ t: GuidelineThresholds) -> Finding {
        let minimum = format(t.minImpairedCompletion)
        guard let rate = impaired.completion.rate, let interval = impaired.completion.wilson95 else {
            return Finding(.fail, "NaN", minimum, "\(population) has no intent users")
        }
        let text = "\(CSV.number(rate * 100, decimals: 1)) % of \(population) users complete "
            + "(95 % CI \(CSV.number(interval.lower * 100, decimals: 1)) to \(CSV.number(interval.upper * 100, decimals: 1)) %)"
        return Finding(rate < t.minImpairedCompletion ? .fail : .pass, CSV.number(rate, decimals: 6), minimum, text)
    }

    // MARK: - Results as rows

    /// The columns of `holdlab check`'s result, all text: the profile, the rule, pass, warn or fail, the measured
    /// figure with its unit (`NaN` when there is nothing to measure), the threshold, a sentence on why, the fix
    /// (the key to change and a value that passes; empty when the rule passes), the rule's basis and its source.
    public static let resultColumns = ["profile", "rule", "status", "measured", "threshold", "detail", "fix", "basis", "source"]
        .map { ResultColumn($0, .text) }

    /// The columns of a rule set's results (rules 1: 0.1.0's, without `fix` and `basis`).
    public static func resultColumns(_ set: GuidelineRuleSet) -> [ResultColumn] {
        set == .rules1 ? GuidelinesRules1.resultColumns : resultColumns
    }

    /// One rule's result for one profile as a row of ``resultColumns(_:)``.
    public static func cells(_ result: GuidelineResult, _ set: GuidelineRuleSet = .rules2) -> [ResultCell] {
        if set == .rules1 { return GuidelinesRules1.cells(result) }
        return [result.profile, result.rule.id, result.status.rawValue, result.measured, result.threshold, result.detail,
                result.fix, result.rule.basis.rawValue, result.rule.source].map(ResultCell.text)
    }

    /// The rules as a Markdown table (docs/REPORT.md and `check --list-rules`).
    public static func markdownTable(_ thresholds: GuidelineThresholds = GuidelineThresholds()) -> String {
        if thresholds.ruleSet == .rules1 { return GuidelinesRules1.markdownTable(thresholds) }
        var text = "| rule | checks | basis | source and rationale | option | criterion (default) |\n|---|---|---|---|---|---|\n"
        for rule in rules {
            let why = rule.rationale.isEmpty ? rule.source : "\(rule.source). Rationale: \(rule.rationale)"
            text += "| `\(rule.id)` | \(rule.checks) | \(rule.basis.rawValue) | \(why) | "
                + (rule.option.isEmpty ? "–" : "`\(rule.option)`") + " | \(rule.criterion(thresholds)) |\n"
        }
        return text
    }
}
