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
    }

    /// The longest hold, reaction or patience a person is drawn with: 10⁷ s (116 days), the latest instant a hold's
    /// times may take (`Instant.limit`), beyond which a drawn duration was already taken as 10⁷ s in the rows and
    /// summaries. Drawn as is, a time near 1e306 s overflowed to NaN when a release was written in milliseconds.
    static let longestDrawnSeconds = Instant.limit / Instant.perSecond

    /// Draws one person. The number of draws depends only on the class, never on the control.
    @inline(__always)
    func draw(_ generator: Generator) -> DrawnUser {
        let u = generator.uniform()
        var classIndex = cumulativeWeights.count - 1
        for (index, bound) in cumulativeWeights.enumerated() where u < bound {
            classIndex = index
            break
        }
        var user = DrawnUser(
            classIndex: classIndex, framePhase: generator.uniform(), primary: 0, patience: .infinity,
            movementUniform: 0.5)
        if let distribution = primary[classIndex] {
            user.primary = min(Self.longestDrawnSeconds, max(0, distribution.sample(generator)))
            if let patience = patience[classIndex] { user.patience = min(Self.longestDrawnSeconds, max(0, patience.sample(generator))) }
        } else {
            user.primary = generator.gaussian()
        }
        if traits[classIndex].moves { user.movementUniform = generator.uniformPositive() }
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
