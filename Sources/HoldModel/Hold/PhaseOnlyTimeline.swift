/// The block fast path's timeline. Without a Timer fill or progress pulses, the held timeline but for its frames does
/// not depend on the person: recognition, the fill's start and completion and the trigger are computed once, here, and
/// every hold sets the rest of it (its frame phase and the frames that show the fill). A simulation then takes a block
/// of people through `HoldEvaluator.shownFrames(phases:into:)`, decides when each lets go, and
/// `HoldEvaluator.summarize`s the block (Sources/HoldSimulation/Engine/BlockRunner.swift).
struct PhaseOnlyTimeline {
    /// The timeline every hold starts from (phase 0, no frames yet).
    let timeline: HeldTimeline
    /// The completion pulse's request, when `haptics.onComplete` and the action can fire: the only haptic request.
    let completionRequest: PulseRequest?

    /// nil when the timeline depends on the person beyond the phase (a fill that advances on Timer ticks, progress
    /// pulses), or without the shortcuts.
    init?<Fill: PreparedFill>(_ fill: Fill, fillStart: Int64?, haptics: Haptics, shortcuts: Bool,
                              trigger: (_ fillComplete: Int64?) -> Int64?, recognition: Int64) {
        guard shortcuts && !Fill.advancesOnTicks && haptics.threshold == 0 else { return nil }
        var timeline = HeldTimeline(framePhase: 0, recognition: recognition)
        if let start = fillStart {
            timeline.fillStart = start
            // A fill that does not advance on ticks draws no latency and records no step.
            timeline.fillComplete = fill.hold(start: start, steps: FillSteps())
        }
        timeline.trigger = trigger(timeline.fillComplete)
        self.timeline = timeline
        completionRequest = haptics.onComplete
            ? timeline.trigger.map { PulseRequest(time: $0, kind: .completion, status: .played) } : nil
    }
}

// MARK: - Blocks of holds

extension HoldEvaluator {
    /// Whether the held timeline depends on the person only through the frame phase (no Timer fill, no progress
    /// pulses), so that a simulation can take a block of people through `shownFrames(phases:into:)`, decide when each
    /// lets go, and `summarize` the block: the same answers as `evaluateHold` and `evaluateRelease` person by person
    /// (the same code), without a timeline and an outcome built and read back for each. The trigger, recognition
    /// and fill instants are then the same for everyone: `held`'s.
    public var summarizes: Bool { phaseOnly != nil }

    /// The first frames that show the fill started and full for each frame phase. Requires `summarizes`.
    public func shownFrames(phases: UnsafeBufferPointer<Double>, into shown: UnsafeMutablePointer<ShownFrames>) {
        precondition(summarizes, "shownFrames(phases:into:) needs a timeline that depends on the phase alone")
        prepared.fill.run(BlockFrames(evaluator: self, phases: phases, shown: shown))
    }

    private struct BlockFrames: FillWork {
        let evaluator: HoldEvaluator
        let phases: UnsafeBufferPointer<Double>
        let shown: UnsafeMutablePointer<ShownFrames>

        @inline(__always)
        func run<Fill: PreparedFill>(_ fill: Fill) {
            guard let start = evaluator.fillStart else {
                for index in phases.indices { shown[index] = ShownFrames(visible: .max, full: .max) }
                return
            }
            let display = evaluator.display, steps = evaluator.steps
            for index in phases.indices {
                shown[index] = fill.shownFrames(start: start, clock: display.clock(phase: phases[index]), steps: steps)
            }
        }
    }

    /// The summaries of a block of holds: person i held with frame phase `phases[i]` (its frames `shown[i]`) and
    /// the press ended at `ends[i]`. Requires `summarizes`. Afterwards `outcome` and the model (`progress(at:)`) are
    /// the last person's retract state only; read them after `evaluateRelease`.
    public func summarize(phases: UnsafeBufferPointer<Double>, shown: UnsafePointer<ShownFrames>,
                          ends: UnsafePointer<Int64>, into summaries: UnsafeMutablePointer<HoldSummary>) {
        precondition(summarizes, "summarize(phases:shown:ends:into:) needs a timeline that depends on the phase alone")
        prepared.fill.run(BlockSummaries(evaluator: self, phases: phases, shown: shown, ends: ends,
                                         summaries: summaries))
    }

    private struct BlockSummaries: FillWork {
        let evaluator: HoldEvaluator
        let phases: UnsafeBufferPointer<Double>
        let shown: UnsafePointer<ShownFrames>
        let ends: UnsafePointer<Int64>
        let summaries: UnsafeMutablePointer<HoldSummary>

        @inline(__always)
        func run<Fill: PreparedFill>(_ fill: Fill) {
            let held = evaluator.lastHeld
            for index in phases.indices {
                summaries[index] = evaluator.release(
                    fill, end: ends[index], phase: phases[index], shown: shown[index], firstPlayedPulse: nil,
                    trigger: held.trigger, fillStart: held.fillStart, fillComplete: held.fillComplete).summary
            }
        }
    }
}
