/// A contradiction or out-of-range value in a `Control`, named by its profile key path.
public struct ControlError: Error, Equatable, CustomStringConvertible {
    /// The profile key path the problem is reported at, e.g. `trigger.source`.
    public let keyPath: String
    /// What is wrong and what is allowed.
    public let message: String

    public init(keyPath: String, message: String) {
        self.keyPath = keyPath
        self.message = message
    }

    public var description: String { "\(keyPath): \(message)" }

    /// Throws the error at `keyPath` with `message` unless `condition` holds.
    static func check(_ condition: Bool, _ keyPath: String, _ message: @autoclosure () -> String) throws(ControlError) {
        if !condition { throw ControlError(keyPath: keyPath, message: message()) }
    }
}

/// A validated `Control` with everything that does not depend on the person precomputed.
///
/// Build one per profile; it is immutable and shared by every thread of a simulation.
public struct PreparedControl: Sendable {
    public let control: Control

    /// The fill's model, prepared for holds: the one place that holds it (`Fill/FillModels.swift`).
    let fill: PreparedFillModel
    /// Seconds from the fill's start until it is complete: the end of the animation, a spring's settling time,
    /// or the completing tick with every tick on time. nil without a fill.
    public let nominalFillSeconds: Double?
    /// The same on the integer clock.
    let nominalFillNanoseconds: Int64?
    /// The retract curve's inverse at y = i/`retractInverseCells`, when the retract is an animation along a curve that
    /// never decreases (linear, or a Bézier with y1, y2 in [0, 1]): a cheap, safe lower bound on the first frame that
    /// can draw the bar empty. nil otherwise.
    let retractInverse: [Double]?
    static let retractInverseCells = 4096
    /// Bounds on the value of a retract animation's never-decreasing Bézier (`UnitBezierBounds`); nil otherwise.
    let retractBounds: UnitBezierBounds?
    /// Whether the held fill's progress never decreases (linear, a Bézier with y1, y2 in [0, 1], a Timer).
    let fillNeverDecreases: Bool
    /// The Timer fill's tick count with every tick on time (one latency is drawn per tick); nil for other fills.
    public let idealTimerTicks: Int?
    /// Whether the control has a fill to see (false: the static long press).
    public let hasFill: Bool
    /// Whether a hold's timeline draws Timer latencies, so that its trigger and fill completion depend on the person;
    /// else they are the same for everyone.
    public let timelineDrawsLatencies: Bool
    /// Displayed progress at or above this looks full.
    let fullLevel: Double
    /// Displayed progress at or above this looks started.
    let visibleLevel: Double

    public init(_ control: Control) throws(ControlError) {
        try self.init(control, tables: true)
    }

    /// The control's fill duration with every tick on time (nil without a fill), after the checks `init` makes: what
    /// validating a profile needs, without the tables a simulation searches (several milliseconds per control).
    public static func nominalFillSeconds(validating control: Control) throws(ControlError) -> Double? {
        try PreparedControl(control, tables: false).nominalFillSeconds
    }

    /// - Parameter tables: whether to build the fill's and the retract's tables (a control without them only answers
    ///   `nominalFillSeconds(validating:)`).
    private init(_ control: Control, tables: Bool) throws(ControlError) {
        self.control = control
        try Self.validate(control)
        let resolution = control.display.resolution
        fullLevel = 1 - resolution
        visibleLevel = resolution
        fill = try PreparedFillModel(control.fill.model, visibleLevel: visibleLevel, fullLevel: fullLevel, tables: tables)
        let model = fill.model
        nominalFillSeconds = model.nominalSeconds
        nominalFillNanoseconds = nominalFillSeconds.map(Instant.nanoseconds)
        fillNeverDecreases = model.neverDecreases
        idealTimerTicks = model.latencyDrawsPerHold
        hasFill = type(of: model).isVisible
        timelineDrawsLatencies = type(of: model).advancesOnTicks
        let cells = Self.retractInverseCells
        switch tables ? (control.retract.mode, control.retract.curve) : (.instant, .linear) {
        case (.animation, .linear):
            retractInverse = (0...cells).map { Double($0) / Double(cells) }
        case (.animation, .bezier(let curve)) where curve.neverDecreases:
            retractInverse = (0...cells).map { curve.inverse(y: Double($0) / Double(cells)) }
        default:
            retractInverse = nil
        }
        if tables, control.retract.mode == .animation, case .bezier(let curve) = control.retract.curve {
            retractBounds = UnitBezierBounds(curve)
        } else {
            retractBounds = nil
        }
        if let nominal = nominalFillSeconds, !(nominal <= Self.maximumSeconds) {
            throw ControlError(
                keyPath: "fill", message: "the fill would take \(nominal) s to complete; at most \(Int(Self.maximumSeconds)) s")
        }
    }

    /// The longest any time of a control may be, in seconds: an hour is far beyond any hold, and the bound keeps
    /// every frame index and tally within range.
    public static let maximumSeconds = 3_600.0

    /// Checks ranges and contradictions the profile layer cannot see key by key.
    static func validate(_ control: Control) throws(ControlError) {
        func require(_ condition: Bool, _ keyPath: String, _ message: @autoclosure () -> String) throws(ControlError) {
            try ControlError.check(condition, keyPath, message())
        }
        func finite(_ value: Double) -> Bool { value.isFinite }
        let g = control.gesture
        try require(finite(g.minimumDurationSeconds) && g.minimumDurationSeconds >= 0, "gesture.minimumDuration",
                    "must be a number of seconds ≥ 0 (got \(g.minimumDurationSeconds))")
        try require(finite(g.maximumDistancePoints) && g.maximumDistancePoints > 0, "gesture.maximumDistance",
                    "must be a number of points > 0 (got \(g.maximumDistancePoints))")
        let hour = maximumSeconds
        try require(g.minimumDurationSeconds <= hour, "gesture.minimumDuration",
                    "must be at most \(Int(hour)) s (got \(g.minimumDurationSeconds))")
        try require(finite(control.trigger.offsetSeconds) && abs(control.trigger.offsetSeconds) <= hour, "trigger.offset",
                    "must be a number of seconds from −\(Int(hour)) to \(Int(hour)) (got \(control.trigger.offsetSeconds))")
        let fill = control.fill
        try require(finite(fill.delaySeconds) && fill.delaySeconds >= 0 && fill.delaySeconds <= hour, "fill.delay",
                    "must be a number of seconds from 0 to \(Int(hour)) (got \(fill.delaySeconds))")
        try PreparedFillModel.validate(fill.model, in: control)
        let retract = control.retract
        if let duration = retract.durationSeconds {
            try require(finite(duration) && duration > 0 && duration <= hour, "retract.duration",
                        "must be a number of seconds above 0 and at most \(Int(hour)), or match (got \(duration))")
        }
        // A spring retract comes to rest when its physics says: an undamped or barely damped one never does (a trace
        // ended at 10⁷ s still swinging), as a spring fill of that kind is refused. Bounded from a full bar at rest.
        if retract.mode == .animation, case .spring(let spring) = retract.curve {
            let settle = spring.settlingTime(x0: 1, v0: 0, epsilon: control.display.resolution)
            try require(settle <= hour, "retract.curve",
                        "the retract would take \(settle.isFinite ? "\(settle.rounded(.up)) s" : "forever") to come to rest from a full bar; at most \(Int(hour)) s: give the spring more damping")
        }
        if retract.mode == .animation, retract.durationSeconds == nil, !retract.curve.isSpring, fill.model == .none {
            throw ControlError(keyPath: "retract.duration",
                               message: "is match, but there is no fill duration to match (fill.model is none)")
        }
        let haptics = control.haptics
        try require(finite(haptics.threshold) && haptics.threshold >= 0 && haptics.threshold <= 1, "haptics.threshold",
                    "must be a progress step from 0 to 1 (0 = no progress pulses; got \(haptics.threshold))")
        try require(finite(haptics.minIntervalSeconds) && haptics.minIntervalSeconds >= 0, "haptics.minInterval",
                    "must be a number of seconds ≥ 0 (got \(haptics.minIntervalSeconds))")
        try require(finite(haptics.actuatorMinIntervalSeconds) && haptics.actuatorMinIntervalSeconds >= 0
                    && haptics.actuatorMinIntervalSeconds <= 1, "haptics.actuatorMinInterval",
                    "must be a number of seconds from 0 to 1 (got \(haptics.actuatorMinIntervalSeconds))")
        let display = control.display
        try require(finite(display.refreshRateHz) && display.refreshRateHz >= 1 && display.refreshRateHz <= 1000,
                    "display.refreshRate", "must be frames per second from 1 to 1000 (got \(display.refreshRateHz))")
        try require(finite(display.resolution) && display.resolution > 0 && display.resolution < 0.5,
                    "display.resolution", "must be a progress above 0 and below 0.5 (got \(display.resolution))")
        // The action must be able to fire at a time after touch-down. Blamed on the offset when there is one, else on
        // the minimum duration (an offset of 0 is the default, which the file may not even write).
        if control.trigger.source == .gesture {
            let fires = g.minimumDurationSeconds + control.trigger.offsetSeconds
            try require(fires > 0, control.trigger.offsetSeconds == 0 ? "gesture.minimumDuration" : "trigger.offset",
                        "fires the action at minimumDuration + trigger.offset = \(Instant.seconds(Instant.nanoseconds(fires))) s; "
                            + "it must be after touch-down "
                            + "(minimumDuration + offset > 0, or trigger.source: fill)")
        }
    }
}

extension TimingCurve {
    /// Whether this curve is a spring (springs take their pace from their own parameters and always merge).
    var isSpring: Bool {
        if case .spring = self { return true }
        return false
    }
}
