import GSL
import HoldModel
import HoldProfiles

/// What is drawn for one person. None of it depends on the control, so every profile in a run sees the same
/// people (common random numbers): differences between profiles are not sampling noise.
struct DrawnUser {
    var classIndex: Int
    /// Fraction of a frame interval from touch-down to the first frame (uniform: touch-down is not synced to vsync).
    var framePhase: Double
    /// Hold duration (hold), reaction time (react), or the standard normal z of the timing error (anticipate).
    var primary: Double
    /// Patience in seconds (react only).
    var patience: Double
    /// The uniform that places the finger's movement cancel (classes with movement only).
    var movementUniform: Double
}

/// What the per-user hot path needs of a class: plain values, so reading it copies no names or distributions.
struct ClassTraits: Sendable {
    enum Behavior: Sendable {
        case hold, react
        case anticipate(bias: Double, weber: Double)
    }

    let intent: UserClass.Intent
    let behavior: Behavior
    let moves: Bool

    init(_ userClass: UserClass) {
        intent = userClass.intent
        moves = userClass.movement != nil
        switch userClass.behavior {
        case .hold: behavior = .hold
        case .react: behavior = .react
        case .anticipate(let bias, let weber): behavior = .anticipate(bias: bias, weber: weber)
        }
    }
}

/// A population ready for drawing: cumulative weights, per-class traits and samplers precomputed.
struct PreparedPopulation: Sendable {
    let population: Population
    let traits: [ClassTraits]
    private let cumulativeWeights: [Double]
    /// Per class: the hold (hold), reaction (react) or no (anticipate) distribution.
    private let primary: [Distribution?]
    /// Per class: the patience distribution (react only).
    private let patience: [Distribution?]
    /// Per class: what its primary draw is drawn from, `primary` or an anticipating class's standard normal
    /// (`Generator.gaussian()`, which `Distribution.normal(mean: 0, sd: 1)` gives bit for bit: 0 + z is z, and
    /// GSL's point never has y = −0).
    private let drawnPrimary: [Distribution]

    init(_ population: Population) {
        self.population = population
        var running = 0.0
        cumulativeWeights = population.normalizedWeights.map { weight in
            running += weight
            return running
        }
        traits = population.classes.map(ClassTraits.init)
        primary = population.classes.map { userClass in
            switch userClass.behavior {
            case .hold(let duration): duration
            case .react(let reaction, _): reaction
            case .anticipate: nil
            }
        }
        patience = population.classes.map { userClass in
            if case .react(_, let patience) = userClass.behavior { return patience }
            return nil
        }
        drawnPrimary = primary.map { $0 ?? .normal(mean: 0, sd: 1) }
    }

    /// Draws `count` people from `generator` into `people` (after what it holds): the people `draw` gives one by
    /// one, bit for bit. A block of them at a time, in two passes: every number each person takes from the
    /// generator, person after person in the generator's order (`Distribution.pending`); then each class's
    /// durations from those numbers, the class's people together (`Distribution.finish(_:at:count:into:)`), so the
    /// library calls of independent people overlap and no branch depends on a person's class.
    func draw(_ count: Int, from generator: Generator, into people: inout [DrawnUser], buffers: DrawBuffers) {
        let size = DrawBuffers.blockSize
        precondition(buffers.classes == traits.count, "buffers for \(buffers.classes) classes, not \(traits.count)")
        let pendingPrimary = buffers.primary, pendingPatience = buffers.patience, members = buffers.members
        let values = buffers.values, memberCounts = buffers.memberCounts
        people.reserveCapacity(people.count + count)
        var drawn = 0
        while drawn < count {
            let block = min(size, count - drawn)
            let base = people.count
            for index in 0..<traits.count { memberCounts[index] = 0 }
            for slot in 0..<block {
                let user = pending(generator, primary: &pendingPrimary[slot], patience: &pendingPatience[slot])
                members[user.classIndex * size + memberCounts[user.classIndex]] = Int32(slot)
                memberCounts[user.classIndex] += 1
                people.append(user)
            }
            people.withUnsafeMutableBufferPointer { people in
                let block = people.baseAddress! + base
                for classIndex in 0..<traits.count where memberCounts[classIndex] > 0 {
                    let count = memberCounts[classIndex], owners = members + classIndex * size
                    drawnPrimary[classIndex].finish(pendingPrimary, at: owners, count: count, into: values)
                    if primary[classIndex] == nil {
                        // An anticipating class's standard normal z, as drawn.
                        for k in 0..<count { block[Int(owners[k])].primary = values[k] }
                    } else {
                        for k in 0..<count { block[Int(owners[k])].primary = Self.clampedDuration(values[k]) }
                    }
                    guard let patience = patience[classIndex] else { continue }
                    patience.finish(pendingPatience, at: owners, count: count, into: values)
                    for k in 0..<count { block[Int(owners[k])].patience = Self.clampedDuration(values[k]) }
                }
            }
            drawn += block
        }
    }

    /// A drawn hold, reaction or patience as a time of a hold: at least 0 and at most `Instant.longestSeconds`
    /// (10⁷ s, the latest instant a hold's times may take; drawn as is, a time near 1e306 s overflowed to NaN when a
    /// release was written in milliseconds).
    @inline(__always)
    static func clampedDuration(_ seconds: Double) -> Double { min(Instant.longestSeconds, max(0, seconds)) }

    /// The class a uniform `u` picks: the first whose cumulative weight is above `u` (the last when none is). The
    /// weights never decrease, so that is the number of them at or below `u`: counted without a branch, as a class
    /// drawn at random would mislead the branch predictor.
    @inline(__always)
    func classIndex(at u: Double) -> Int {
        var below = 0
        // The comparison's bit, added (a conditional increment compiles to a jump).
        for bound in cumulativeWeights { below &+= Int(unsafeBitCast(u >= bound, to: UInt8.self)) }
        return Swift.min(below, cumulativeWeights.count - 1)
    }

    /// Takes one person's numbers from `generator`, in the order every draw takes them (class, display phase, the
    /// primary's and the patience's numbers, the movement's uniform): the person with their durations still to be
    /// made from `primary` and (react classes) `patience` (`Distribution.finish`). The number of draws depends only
    /// on the class, never on the control.
    @inline(__always)
    private func pending(_ generator: Generator, primary: inout PendingDraw, patience: inout PendingDraw) -> DrawnUser {
        let classIndex = classIndex(at: generator.uniform())
        var user = DrawnUser(
            classIndex: classIndex, framePhase: generator.uniform(), primary: 0, patience: .infinity,
            movementUniform: 0.5)
        primary = drawnPrimary[classIndex].pending(generator)
        if let distribution = self.patience[classIndex] { patience = distribution.pending(generator) }
        if traits[classIndex].moves { user.movementUniform = generator.uniformPositive() }
        return user
    }

    /// Draws one person: `pending`, finished at once.
    @inline(__always)
    func draw(_ generator: Generator) -> DrawnUser {
        var (pendingPrimary, pendingPatience) = (PendingDraw(), PendingDraw())
        var user = pending(generator, primary: &pendingPrimary, patience: &pendingPatience)
        let value = drawnPrimary[user.classIndex].finish(pendingPrimary)
        // An anticipating class's standard normal z as drawn; a duration clamped.
        user.primary = primary[user.classIndex] == nil ? value : Self.clampedDuration(value)
        if let patience = patience[user.classIndex] { user.patience = Self.clampedDuration(patience.finish(pendingPatience)) }
        return user
    }
}

/// Why a person let go when they did.
enum ReleaseReason {
    case held, anticipated, reactedToAction, reactedToFull, gaveUp
}

/// How one person's hold ended, as the CSVs count it.
public enum UserOutcome: String, Sendable, CaseIterable {
    /// `intent: confirm`, the action fired.
    case completed
    /// `intent: confirm`, let go before the action for a reason other than the two below.
    case prematureRelease = "premature_release"
    /// `intent: confirm`, gave up at their patience with no feedback at all.
    case prematureImpatience = "premature_impatience"
    /// `intent: confirm`, let go on seeing the bar full before the action fired.
    case prematureMismatch = "premature_mismatch"
    /// `intent: confirm`, the finger moved beyond `maximumDistance` before the action.
    case movementCancel = "movement_cancel"
    /// `intent: none`, the action fired anyway.
    case falseActivation = "false_activation"
    /// `intent: none`, the action did not fire.
    case noActivation = "no_activation"
}

/// One person against one control: the held timeline, the moment they let go, and the outcome.
///
/// The timeline and the hold's outcome are read in place from the control's evaluator (copying them per person cost
/// about 5 % of a run), so a run is valid until that control runs its next person.
struct UserRun {
    unowned(unsafe) let evaluator: HoldEvaluator
    var release: Double
    var outcome: UserOutcome

    var timeline: HeldTimeline {
        @inline(__always) get { evaluator.held }
    }
    var hold: HoldOutcome {
        @inline(__always) get { evaluator.outcome }
    }
    var summary: HoldSummary {
        @inline(__always) get { evaluator.summary }
    }
}

/// One worker's buffers for `PreparedPopulation.draw(_:from:into:buffers:)`, for a population of `classes` classes:
/// a block's pending draws, and per class the block's people of it in order. Plain memory, the worker's for its life.
final class DrawBuffers {
    /// People a block takes: their pending draws and values stay in the core's first-level cache.
    static let blockSize = 256
    let classes: Int
    let primary = UnsafeMutablePointer<PendingDraw>.allocate(capacity: blockSize)
    let patience = UnsafeMutablePointer<PendingDraw>.allocate(capacity: blockSize)
    let values = UnsafeMutablePointer<Double>.allocate(capacity: blockSize)
    let members: UnsafeMutablePointer<Int32>
    let memberCounts: UnsafeMutablePointer<Int>

    init(classes: Int) {
        self.classes = classes
        primary.initialize(repeating: PendingDraw(), count: Self.blockSize)
        patience.initialize(repeating: PendingDraw(), count: Self.blockSize)
        values.initialize(repeating: 0, count: Self.blockSize)
        members = .allocate(capacity: classes * Self.blockSize)
        members.initialize(repeating: 0, count: classes * Self.blockSize)
        memberCounts = .allocate(capacity: classes)
        memberCounts.initialize(repeating: 0, count: classes)
    }

    deinit {
        // Plain values: nothing to deinitialise.
        primary.deallocate()
        patience.deallocate()
        values.deallocate()
        members.deallocate()
        memberCounts.deallocate()
    }
}
