import HoldModel
import HoldProfiles

/// A control prepared for simulation: the evaluator (one per thread) and each class's movement sampler.
final class ControlUnderTest {
    let profile: Profile
    let evaluator: HoldEvaluator
    let movements: [Movement?]
    /// Whether there is a fill to see (a react user's "displayed full" cue needs one).
    let fillIsVisible: Bool
    /// When finger movement can cancel (the gesture's `movementCancels`).
    let movementCancels: Gesture.MovementCancellation

    /// The trigger and recognition instants when they do not depend on the person (every fill but the Timer, whose
    /// trigger follows its drawn latencies): what deciding whether a hold fires needs, without its timeline.
    let fixedInstants: (trigger: Int64, recognition: Int64)?

    /// Per class: a movement uniform from which on the finger's cancel comes too late to matter (at or after the
    /// instant from which `movementCancels` ignores it, whatever the person), so it is not computed. 0 without
    /// movement or with `never`; 2 (never skip) for `always` with a Timer fill, whose trigger varies per person.
    /// `Movement.cancelTime` never decreases in its uniform, which makes every larger uniform too late.
    private let movementTooLateFrom: [Double]

    init(profile: Profile, prepared: PreparedControl, movements: [Movement?]) {
        self.profile = profile
        evaluator = HoldEvaluator(prepared)
        self.movements = movements
        let movementCancels = prepared.control.gesture.movementCancels
        self.movementCancels = movementCancels
        fillIsVisible = prepared.hasFill
        // Any phase gives the same recognition and, without a Timer, the same trigger (they are not frames); no
        // latency is drawn with ticks on time.
        var onTime = OnTimeTicks()
        let probe = evaluator.hold(framePhase: 0, latencies: &onTime)
        let fixedInstants: (trigger: Int64, recognition: Int64)?
        if prepared.timelineDrawsLatencies {
            fixedInstants = nil
        } else {
            fixedInstants = (probe.trigger ?? .max, probe.recognition)
        }
        self.fixedInstants = fixedInstants
        // Movement matters only before this instant (see `pressEnd`), for every person.
        let ignoredFrom: Int64?
        switch movementCancels {
        case .never: ignoredFrom = .min
        case .untilRecognized: ignoredFrom = min(fixedInstants?.trigger ?? .max, probe.recognition)
        case .always: ignoredFrom = fixedInstants?.trigger
        }
        movementTooLateFrom = movements.map { movement in
            // Without movement the cancel is never (`cancelTime` is infinite): nothing to compute.
            guard let movement else { return 0 }
            guard let ignoredFrom else { return 2 }
            return Self.firstUniform(of: movement, cancellingAtOrAfter: ignoredFrom)
        }
    }

    /// The cancel instant on the integer clock (`.max` for never) for a movement uniform.
    @inline(__always)
    static func cancelInstant(_ seconds: Double) -> Int64 {
        seconds.isFinite ? Instant.nanoseconds(seconds) : .max
    }

    /// A uniform in [0, 1] from which on `movement` cancels at or after `instant` (by bisection: every larger uniform
    /// does too, as the cancel never comes earlier for a larger uniform).
    static func firstUniform(of movement: Movement, cancellingAtOrAfter instant: Int64) -> Double {
        // A uniform is never 1, where the cancel is infinitely late.
        var low = 0.0, high = 1.0
        if cancelInstant(movement.cancelTime(uniform: low)) >= instant { return 0 }
        for _ in 0..<64 {
            let middle = (low + high) / 2
            guard middle > low && middle < high else { break }
            if cancelInstant(movement.cancelTime(uniform: middle)) >= instant { high = middle } else { low = middle }
        }
        return high
    }

    /// When the finger's movement cancels the gesture for this person (seconds after touch-down, `.infinity` for
    /// never): what the `cancel_ms` column shows, whether or not it mattered.
    func cancelTime(_ user: DrawnUser) -> Double {
        movements[user.classIndex]?.cancelTime(uniform: user.movementUniform) ?? .infinity
    }

    /// Whether the action fires for a person who holds without meaning to confirm (`intent: none`, `behavior: hold`),
    /// which is all a tally counts of them; nil for anyone else, or with a Timer fill (its timeline draws latencies,
    /// so it must be run). The same decision `run` makes, without the timeline and the retract.
    @inline(__always)
    func accidentalFires(_ user: DrawnUser, traits: ClassTraits) -> Bool? {
        guard traits.intent == .none, case .hold = traits.behavior, let fixed = fixedInstants else { return nil }
        let end = pressEnd(user, release: user.primary, trigger: fixed.trigger, recognition: fixed.recognition).end
        return fixed.trigger <= end
    }

    /// When the press ends for a person who lets go at `release` seconds (a non-finite release becomes their
    /// patience, else an hour), or when their finger's movement cancels the gesture first.
    @inline(__always)
    private func pressEnd(_ user: DrawnUser, release: Double, trigger: Int64, recognition: Int64)
        -> (end: Int64, release: Double, cancelled: Bool)
    {
        var release = release
        if !release.isFinite { release = user.patience.isFinite ? user.patience : 3600 }
        let releaseAt = Instant.nanoseconds(release)
        // A cancel too late to matter is not computed (an inverse-CDF search per person).
        let cancelAt = user.movementUniform >= movementTooLateFrom[user.classIndex] ? .max
            : Self.cancelInstant(cancelTime(user))
        // Same-instant order: the gesture and the trigger come before a touch event at their instant.
        let movementMatters: Bool
        switch movementCancels {
        case .always: movementMatters = cancelAt < trigger
        case .untilRecognized: movementMatters = cancelAt < min(trigger, recognition)
        case .never: movementMatters = false
        }
        let cancelled = movementMatters && cancelAt < releaseAt
        return (cancelled ? cancelAt : releaseAt, release, cancelled)
    }

    /// Runs one person's hold.
    @inline(__always)
    func run<Latencies: TickLatencySource>(
        _ user: DrawnUser, traits: ClassTraits, latencies: inout Latencies
    ) -> UserRun {
        evaluator.evaluateHold(framePhase: user.framePhase, latencies: &latencies)
        let timeline = evaluator.held
        let trigger = timeline.trigger ?? .max
        let letGo = letsGo(user, traits: traits, full: timeline.firstFullFrame ?? .max,
                           feedback: timeline.firstFeedback ?? .max, trigger: trigger, recognition: timeline.recognition,
                           fillStart: timeline.fillStart)
        evaluator.evaluateRelease(pressEnd: letGo.end, cancelled: letGo.cancelled)
        let outcome = Self.outcome(intent: traits.intent, completed: evaluator.outcome.completed,
                                   cancelled: letGo.cancelled, reason: letGo.reason)
        return UserRun(evaluator: evaluator, release: letGo.release, outcome: outcome)
    }

    /// When a person lets go (or their finger's movement ends the press) and why, from what the hold shows them: its
    /// first frame drawn full, its first feedback, the trigger and recognition instants (`.max` for never), and when
    /// the fill starts (nil without a fill). Decisions are in seconds (what a person does), then every comparison on
    /// the integer clock.
    @inline(__always)
    func letsGo(_ user: DrawnUser, traits: ClassTraits, full: Int64, feedback: Int64, trigger: Int64,
                recognition: Int64, fillStart: Int64?)
        -> (end: Int64, release: Double, cancelled: Bool, reason: ReleaseReason)
    {
        let release: Double
        let reason: ReleaseReason
        switch traits.behavior {
        case .hold:
            release = user.primary
            reason = .held
        case .react:
            let full = fillIsVisible ? full : .max
            if Instant.nanoseconds(user.patience) < feedback {
                release = user.patience
                reason = .gaveUp
            } else if full < trigger {
                release = Instant.seconds(full) + user.primary
                reason = .reactedToFull
            } else {
                release = Instant.seconds(trigger) + user.primary
                reason = .reactedToAction
            }
        case .anticipate(let bias, let weber):
            // The fill's nominal end: its start plus its duration with every tick on time. A person cannot foresee
            // how late this hold's Timer ticks will be.
            let nominalEnd = fillStart.map { Instant.seconds($0) + (evaluator.prepared.nominalFillSeconds ?? 0) }
                ?? Instant.seconds(recognition)
            release = max(0, nominalEnd * (1 + bias + weber * user.primary))
            reason = .anticipated
        }
        let press = pressEnd(user, release: release, trigger: trigger, recognition: recognition)
        return (press.end, press.release, press.cancelled, reason)
    }

    /// How a hold ended, as the CSVs count it.
    @inline(__always)
    static func outcome(intent: UserClass.Intent, completed: Bool, cancelled: Bool, reason: ReleaseReason) -> UserOutcome {
        switch intent {
        case .none:
            return completed ? .falseActivation : .noActivation
        case .confirm:
            if completed { return .completed }
            if cancelled { return .movementCancel }
            switch reason {
            case .gaveUp: return .prematureImpatience
            case .reactedToFull: return .prematureMismatch
            case .held, .anticipated, .reactedToAction: return .prematureRelease
            }
        }
    }
}
