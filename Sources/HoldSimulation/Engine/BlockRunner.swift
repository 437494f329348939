import HoldModel
import HoldProfiles

/// Runs a chunk's people against a control for a tally, without per-user rows: what `simulate` and `compare` share.
///
/// A control whose held timeline depends on the frame phase alone (`HoldEvaluator.summarizes`) takes them a block at
/// a time, in stages: the frames each person sees, when each lets go, the summaries of their holds, then what the
/// caller counts. The same answers, in the same order, as `ControlUnderTest.run` person by person; each stage is a
/// short loop over independent people. Any other control (a Timer fill, progress pulses) takes them person by
/// person, a block's pulse searches found ahead together where they can be (`HoldEvaluator.preparePulses`). One per
/// thread.
final class BlockRunner {
    /// People a block takes at a time: their frames, press ends and summaries stay in the core's first-level cache.
    static let blockSize = 256
    /// Per slot of a block: which of the chunk's people, and why and how their press ended. The buffers are this
    /// runner's own for its life (plain memory: no uniqueness checks or closures in the loops).
    private let slots = UnsafeMutablePointer<(person: Int, cancelled: Bool, reason: ReleaseReason)>.allocate(
        capacity: BlockRunner.blockSize)
    private let phases = UnsafeMutablePointer<Double>.allocate(capacity: BlockRunner.blockSize)
    private let shown = UnsafeMutablePointer<ShownFrames>.allocate(capacity: BlockRunner.blockSize)
    private let ends = UnsafeMutablePointer<Int64>.allocate(capacity: BlockRunner.blockSize)
    private let summaries = UnsafeMutablePointer<HoldSummary>.allocate(capacity: BlockRunner.blockSize)
    /// Per person of a block taken one by one: whether they hold accidentally, and then whether it fired.
    private let accidents = UnsafeMutablePointer<Bool?>.allocate(capacity: BlockRunner.blockSize)

    init() {
        slots.initialize(repeating: (0, false, .held), count: Self.blockSize)
        phases.initialize(repeating: 0, count: Self.blockSize)
        shown.initialize(repeating: ShownFrames(visible: 0, full: 0), count: Self.blockSize)
        ends.initialize(repeating: 0, count: Self.blockSize)
        summaries.initialize(repeating: HoldSummary(), count: Self.blockSize)
        accidents.initialize(repeating: nil, count: Self.blockSize)
    }

    deinit {
        // Plain values: nothing to deinitialise.
        slots.deallocate()
        phases.deallocate()
        shown.deallocate()
        ends.deallocate()
        summaries.deallocate()
        accidents.deallocate()
    }

    /// Runs `people` through `control`: `accidental(offset, fired)` for each person of whom a tally keeps only
    /// whether the action fired (`ControlUnderTest.accidentalFires`), `person(offset, hold)` for everyone else. A
    /// control that does not summarise draws its Timer latencies from `latencies()`, person by person in order. In
    /// blocks the accidental holders of a block come first.
    @inline(__always)
    func run(_ control: ControlUnderTest, people: UnsafeBufferPointer<DrawnUser>,
             traits: UnsafeBufferPointer<ClassTraits>, latencies: () -> DrawnLatencies,
             accidental: (Int, Bool) -> Void, person: (Int, CountedHold) -> Void) {
        guard control.evaluator.summarizes else {
            var latencies = latencies()
            // A Bézier fill's progress pulses are found a block ahead, the people's searches interleaved
            // (`HoldEvaluator.preparePulses`); each hold then takes its own.
            let prepares = control.evaluator.preparesPulses
            let accidents = accidents, phases = phases
            var first = 0
            while first < people.count {
                let last = min(people.count, first + Self.blockSize)
                // Whether each person of the block is an accidental holder (and fired), asked once: before their
                // pulses are prepared, and read when they are counted.
                for offset in first..<last {
                    accidents[offset - first] = control.accidentalFires(people[offset], traits: traits[people[offset].classIndex])
                }
                if prepares {
                    var count = 0
                    for offset in first..<last where accidents[offset - first] == nil {
                        phases[count] = people[offset].framePhase
                        count += 1
                    }
                    control.evaluator.preparePulses(phases: UnsafeBufferPointer(start: phases, count: count))
                }
                for offset in first..<last {
                    if let fired = accidents[offset - first] {
                        accidental(offset, fired)
                        continue
                    }
                    let user = people[offset]
                    person(offset, CountedHold(control.run(user, traits: traits[user.classIndex], latencies: &latencies)))
                }
                first = last
            }
            return
        }
        let evaluator = control.evaluator
        let held = evaluator.held
        let trigger = held.trigger ?? .max
        let recognition = held.recognition
        let fillStart = held.fillStart
        let hasFill = fillStart != nil
        let slots = slots, phases = phases, shown = shown, ends = ends, summaries = summaries
        var first = 0
        while first < people.count {
            let last = min(people.count, first + Self.blockSize)
            // Of an accidental hold nothing is needed but whether it fired.
            var count = 0
            for offset in first..<last {
                let user = people[offset]
                if let fired = control.accidentalFires(user, traits: traits[user.classIndex]) {
                    accidental(offset, fired)
                    continue
                }
                slots[count].person = offset
                phases[count] = user.framePhase
                count += 1
            }
            let block = UnsafeBufferPointer(start: phases, count: count)
            evaluator.shownFrames(phases: block, into: shown)
            for slot in 0..<count {
                let user = people[slots[slot].person]
                let frames = shown[slot]
                let decision = control.letsGo(
                    user, traits: traits[user.classIndex], full: frames.full, feedback: min(frames.visible, trigger),
                    trigger: trigger, recognition: recognition, fillStart: fillStart)
                ends[slot] = decision.end
                slots[slot].cancelled = decision.cancelled
                slots[slot].reason = decision.reason
            }
            evaluator.summarize(phases: block, shown: shown, ends: ends, into: summaries)
            for slot in 0..<count {
                let offset = slots[slot].person
                let summary = summaries[slot]
                let outcome = ControlUnderTest.outcome(
                    intent: traits[people[offset].classIndex].intent, completed: summary.completed,
                    cancelled: slots[slot].cancelled, reason: slots[slot].reason)
                person(offset, CountedHold(summary: summary, outcome: outcome, pressEnd: ends[slot], trigger: trigger,
                                           hasFill: hasFill))
            }
            first = last
        }
    }
}
