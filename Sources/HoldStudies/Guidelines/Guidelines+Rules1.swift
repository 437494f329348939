import GSL
import HoldLabIO
import HoldModel
import HoldProfiles
import HoldSimulation

/// The rules of HoldLab 0.1.0 (`--rules 1`), kept as they were so that a check or review cited from 0.1.0 is
/// reproducible: one-sided `fill-matches-action`, `first-feedback` at two frame phases, `pointer-cancellation` with
/// HoldLab's own retract limit, no suggested fixes. With `--set haptics.actuatorMinInterval=0` their figures are
/// 0.1.0's.
enum GuidelinesRules1 {
    static let rules: [GuidelineRule] = [
        GuidelineRule(
            id: "fill-matches-action",
            checks: "the bar looks full before the action fires (mismatch = trigger − first frame displayed full)",
            source: "docs/DOMAIN.md §1: a bar that looks full and does nothing loses users who let go on seeing it full",
            basis: .rules1, rationale: "",
            option: "--mismatch-frames",
            criterion: { "fail: mismatch p95 > \(Guidelines.format($0.mismatchFrames)) frame(s); warn: its maximum is more" }),
        GuidelineRule(
            id: "first-feedback",
            checks: "the first feedback (visible fill, pulse or the action) after touch-down, worst frame phase",
            source: "Card, Moran & Newell 1983; Nielsen 1993: 0.1 s is the limit for a response to feel instantaneous",
            basis: .rules1, rationale: "",
            option: "--feedback-ms",
            criterion: { "fail: later than \(Guidelines.format($0.feedbackMs)) ms" }),
        GuidelineRule(
            id: "haptic-rate",
            checks: "the peak pulse rate of completed holds against what the haptics engine plays",
            source: "docs/DOMAIN.md §6: no platform documents a minimum interval; the threshold is an assumption (U) for your engine",
            basis: .rules1, rationale: "",
            option: "--max-pulse-rate",
            criterion: { "fail: above \(Guidelines.format($0.maxPulseRateHz)) Hz" }),
        GuidelineRule(
            id: "pointer-cancellation",
            checks: "releasing before the action never fires it, and the bar retracts to empty",
            source: "WCAG 2.2 SC 2.5.2 Pointer Cancellation (level A)",
            basis: .rules1, rationale: "",
            option: "--max-retract-ms",
            criterion: { "fail: an early release fires the action, or leaves the bar showing progress for more than \(Guidelines.format($0.maxRetractMs)) ms" }),
        GuidelineRule(
            id: "timing-adjustable",
            checks: "the hold the action needs; a profile cannot say the user may adjust it (informative)",
            source: "WCAG 2.2 SC 2.2.1 Timing Adjustable (level A), informative for a hold gesture",
            basis: .rules1, rationale: "",
            option: "--fixed-hold-ms",
            criterion: { "warn: the action needs a hold longer than \(Guidelines.format($0.fixedHoldMs)) ms (never fails)" }),
        GuidelineRule(
            id: "motor-impaired-completion",
            checks: "the completion rate of the motor-impaired population",
            source: "docs/DOMAIN.md §7 (per-user touch times 58–1,563 ms, CHI EA 2026); the population's other numbers are assumptions (U)",
            basis: .rules1, rationale: "",
            option: "--min-impaired-completion",
            criterion: { "fail: below \(Guidelines.format($0.minImpairedCompletion)) (the rate; its 95 % Wilson interval is shown)" }),
    ]

    static func rule(_ id: String) -> GuidelineRule {
        guard let rule = rules.first(where: { $0.id == id }) else { preconditionFailure("no rule \(id)") }
        return rule
    }

    /// Runs every rule on the request's profile.
    static func check(_ request: GuidelineRequest) throws -> [GuidelineResult] {
        let profile = request.profile
        let thresholds = request.thresholds
        let own = try request.summary ?? Simulator.run(SimulationRequest(
            profiles: [profile], population: request.population, users: request.users, seed: request.seed,
            rng: request.rng, threads: request.threads))[0]
        let impaired = try request.impairedSummary
            ?? (request.impairedPopulation.name == request.population.name ? own : Simulator.run(SimulationRequest(
                profiles: [profile], population: request.impairedPopulation, users: request.users, seed: request.seed,
                rng: request.rng, threads: request.threads))[0])
        var results: [GuidelineResult] = []
        func add(_ id: String, _ status: GuidelineStatus, _ measured: String, _ threshold: String, _ detail: String) {
            results.append(GuidelineResult(profile: profile.name, rule: rule(id), status: status, measured: measured,
                                           threshold: threshold, detail: detail))
        }
        let frameMs = 1000 / profile.control.display.refreshRateHz

        // fill-matches-action
        let limit = thresholds.mismatchFrames * frameMs
        let limitText = CSV.number(limit, decimals: 3) + " ms"
        if let p95 = own.value(named: "mismatch_p95_ms"), let max = own.value(named: "mismatch_max_ms") {
            let measured = CSV.number(p95, decimals: 3) + " ms"
            if p95 > limit {
                add("fill-matches-action", .fail, measured, limitText,
                    "the bar looks full \(CSV.number(p95, decimals: 1)) ms (p95) before the action fires: more than \(Guidelines.format(thresholds.mismatchFrames)) frame(s) of \(CSV.number(frameMs, decimals: 2)) ms")
            } else if max > limit {
                add("fill-matches-action", .warn, measured, limitText,
                    "p95 within \(Guidelines.format(thresholds.mismatchFrames)) frame(s), but some holds look full up to \(CSV.number(max, decimals: 1)) ms early")
            } else if max > 0 {
                add("fill-matches-action", .pass, measured, limitText,
                    "the bar looks full at most \(CSV.number(max, decimals: 1)) ms before the action (p95 \(CSV.number(p95, decimals: 1)) ms)")
            } else {
                add("fill-matches-action", .pass, measured, limitText,
                    "the bar never looks full before the action fires (in 95 % of holds it does \(CSV.number(-p95, decimals: 1)) ms after it or later)")
            }
        } else {
            add("fill-matches-action", .pass, "NaN", limitText, "no completed hold showed a full bar (no fill, or none completed): nothing can look full early")
        }

        // first-feedback: deterministic traces at the best and worst frame phase.
        var feedback: Double?
        for phase in [0, 0.999_999] {
            let trace = try TraceRequest(profile: profile, framePhase: phase, seed: request.seed).run()
            if let time = trace.timeline.firstFeedbackTime { feedback = Swift.max(feedback ?? 0, time * 1000) }
        }
        let feedbackLimit = Guidelines.format(thresholds.feedbackMs) + " ms"
        if let feedback {
            let measured = CSV.number(feedback, decimals: 3) + " ms"
            if feedback > thresholds.feedbackMs {
                add("first-feedback", .fail, measured, feedbackLimit,
                    "nothing shows the hold is working until \(CSV.number(feedback, decimals: 1)) ms after touch-down")
            } else {
                add("first-feedback", .pass, measured, feedbackLimit,
                    "the first feedback comes \(CSV.number(feedback, decimals: 1)) ms after touch-down at the latest")
            }
        } else {
            add("first-feedback", .fail, "NaN", feedbackLimit, "the hold gives no feedback at all")
        }

        // haptic-rate
        let rateLimit = Guidelines.format(thresholds.maxPulseRateHz) + " Hz"
        if let peak = own.value(named: "peak_pulse_rate_hz") {
            let measured = CSV.number(peak, decimals: 3) + " Hz"
            if peak > thresholds.maxPulseRateHz {
                add("haptic-rate", .fail, measured, rateLimit,
                    "pulses come up to \(CSV.number(peak, decimals: 1)) per second; set haptics.minInterval ≥ \(CSV.number(1 / thresholds.maxPulseRateHz, decimals: 3)) s or raise haptics.threshold")
            } else {
                add("haptic-rate", .pass, measured, rateLimit, "the fastest pulses come \(CSV.number(peak, decimals: 1)) per second")
            }
        } else {
            add("haptic-rate", .pass, "NaN", rateLimit, "no completed hold played two pulses")
        }

        // pointer-cancellation and timing-adjustable: traced releases before the action.
        let full = try TraceRequest(profile: profile, seed: request.seed).run()
        let retractLimit = Guidelines.format(thresholds.maxRetractMs) + " ms"
        if let trigger = full.timeline.triggerTime {
            let hasFill: Bool
            if case .none = profile.control.fill.model { hasFill = false } else { hasFill = true }
            let resolution = profile.control.display.resolution
            var releases = [0.25, 0.5, 0.75, 0.9].map { trigger * $0 }
            if trigger - frameMs / 1000 > 0 { releases.append(trigger - frameMs / 1000) }
            var fired: Double?
            var stuck: Double?
            var slowest = 0.0
            for release in releases {
                let trace = try TraceRequest(profile: profile, releaseAtSeconds: release, seed: request.seed).run()
                if trace.outcome.completed { fired = fired ?? release; continue }
                guard hasFill else { continue }
                let shown = trace.rows.contains { $0.displayedProgress >= resolution }
                guard shown else { continue }
                if let retract = trace.outcome.retractSeconds {
                    slowest = Swift.max(slowest, retract * 1000)
                } else {
                    stuck = stuck ?? release
                }
            }
            let measured = CSV.number(slowest, decimals: 3) + " ms"
            if let fired {
                add("pointer-cancellation", .fail, measured, retractLimit,
                    "a release at \(CSV.number(fired * 1000, decimals: 1)) ms, before the action at \(CSV.number(trigger * 1000, decimals: 1)) ms, fires it")
            } else if let stuck {
                add("pointer-cancellation", .fail, "NaN", retractLimit,
                    "after a release at \(CSV.number(stuck * 1000, decimals: 1)) ms the bar never draws empty")
            } else if slowest > thresholds.maxRetractMs {
                add("pointer-cancellation", .fail, measured, retractLimit,
                    "an early release leaves the bar showing progress for \(CSV.number(slowest, decimals: 1)) ms")
            } else if !hasFill {
                add("pointer-cancellation", .pass, "NaN", retractLimit,
                    "\(releases.count) releases before the action fired nothing (no fill to retract)")
            } else {
                add("pointer-cancellation", .pass, measured, retractLimit,
                    "\(releases.count) releases before the action fired nothing; the bar drew empty within \(CSV.number(slowest, decimals: 1)) ms")
            }
            let hold = trigger * 1000
            let holdLimit = Guidelines.format(thresholds.fixedHoldMs) + " ms"
            if hold > thresholds.fixedHoldMs {
                add("timing-adjustable", .warn, CSV.number(hold, decimals: 3) + " ms", holdLimit,
                    "the action needs a \(CSV.number(hold, decimals: 0)) ms hold; let users adjust it or offer a way without a time limit")
            } else {
                add("timing-adjustable", .pass, CSV.number(hold, decimals: 3) + " ms", holdLimit,
                    "the action needs a \(CSV.number(hold, decimals: 0)) ms hold")
            }
        } else {
            add("pointer-cancellation", .pass, "NaN", retractLimit, "the action never fires")
            add("timing-adjustable", .pass, "NaN", Guidelines.format(thresholds.fixedHoldMs) + " ms", "the action never fires")
        }

        // motor-impaired-completion
        let minimum = Guidelines.format(thresholds.minImpairedCompletion)
        if let rate = impaired.completion.rate, let interval = impaired.completion.wilson95 {
            let measured = CSV.number(rate, decimals: 6)
            let text = "\(CSV.number(rate * 100, decimals: 1) ) % of \(request.impairedPopulation.name) users complete "
                + "(95 % CI \(CSV.number(interval.lower * 100, decimals: 1)) to \(CSV.number(interval.upper * 100, decimals: 1)) %)"
            add("motor-impaired-completion", rate < thresholds.minImpairedCompletion ? .fail : .pass, measured, minimum, text)
        } else {
            add("motor-impaired-completion", .fail, "NaN", minimum, "\(request.impairedPopulation.name) has no intent users")
        }
        return results
    }

    /// 0.1.0's columns: no `basis` and no `fix`.
    static let resultColumns = ["profile", "rule", "status", "measured", "threshold", "detail", "source"]
        .map { ResultColumn($0, .text) }

    static func cells(_ result: GuidelineResult) -> [ResultCell] {
        [result.profile, result.rule.id, result.status.rawValue, result.measured, result.threshold, result.detail,
         result.rule.source].map(ResultCell.text)
    }

    static func markdownTable(_ thresholds: GuidelineThresholds) -> String {
        var text = "| rule | checks | source | option | criterion (default) |\n|---|---|---|---|---|\n"
        for rule in rules {
            text += "| `\(rule.id)` | \(rule.checks) | \(rule.source) | `\(rule.option)` | \(rule.criterion(thresholds)) |\n"
        }
        return text
    }
}
