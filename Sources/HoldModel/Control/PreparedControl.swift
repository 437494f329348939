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
}

/// A validated `Control` with everything that does not depend on the person precomputed.
///
/// Build one per profile; it is immutable and shared by every thread of a simulation.
public struct PreparedControl: Sendable {
    public let control: Control

    /// The fill's shape, resolved for fast evaluation.
    enum Shape: Sendable {
        case none
        /// A Bézier (or linear, `curve == nil`) animation over `duration` seconds.
        case bezier(UnitBezier?, duration: Int64)
        /// A spring from 0 to 1: progress = 1 + displacement(t), displacement starting at −1 at rest.
        case spring(Spring)
        case timer(TimerFill, ticks: Int)
    }

    let shape: Shape
    /// Seconds from the fill's start until the fill first reaches progress ≥ `visibleLevel` (with ideal ticks
    /// for a timer); nil when there is no fill.
    let visibleAfterStart: Double?
    /// Seconds from the fill's start until progress first reaches ≥ `fullLevel` (ideal ticks for a timer).
    let fullAfterStart: Double?
    /// Seconds from the fill's start until it is complete: the end of the animation, a spring's settling time,
    /// or the completing tick with every tick on time.
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
    /// For a Bézier (or linear) fill that never decreases: `fillInverse[i]` is the first instant after the fill's
    /// start (nanoseconds) at which its progress is ≥ i/`fillInverseCells`, found exactly by bisection on the
    /// integer clock. A level between two grid points is reached no earlier than the lower one's instant, so the
    /// table gives every threshold search a safe start; nil for other fills.
    let fillInverse: [Int64]?
    static let fillInverseCells = 4096
    /// Bounds on the value of a never-decreasing Bézier fill's curve without solving it (`UnitBezierBounds`); nil for
    /// other fills and for a fill of zero duration on the integer clock.
    let fillBounds: UnitBezierBounds?
    /// Whether the held fill's progress never decreases (linear, a Bézier with y1, y2 in [0, 1], a Timer).
    let fillNeverDecreases: Bool
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
        switch control.fill.model {
        case .none:
            shape = .none
            visibleAfterStart = nil
            fullAfterStart = nil
            nominalFillSeconds = nil
        case .animation(let curve, let duration):
            switch curve {
            case .linear:
                shape = .bezier(nil, duration: Instant.nanoseconds(duration))
                visibleAfterStart = duration * visibleLevel
                fullAfterStart = duration * fullLevel
                nominalFillSeconds = duration
            case .bezier(let bezier):
                shape = .bezier(bezier, duration: Instant.nanoseconds(duration))
                visibleAfterStart = duration * bezier.inverse(y: visibleLevel)
                fullAfterStart = duration * bezier.inverse(y: fullLevel)
                nominalFillSeconds = duration
            case .spring(let spring):
                shape = .spring(spring)
                visibleAfterStart = spring.firstEntry(x0: -1, v0: 0, epsilon: fullLevel)
                fullAfterStart = spring.firstEntry(x0: -1, v0: 0, epsilon: resolution)
                nominalFillSeconds = spring.settlingTime(x0: -1, v0: 0, epsilon: resolution)
            }
        case .timer(let timer):
            guard let ticks = timer.idealTickCount else {
                throw ControlError(
                    keyPath: "fill.timer",
                    message: "the timer never completes the fill within \(TimerFill.maximumTicks) ticks; raise initialIncrement or acceleration")
            }
            shape = .timer(timer, ticks: ticks)
            var progression = timer.progression
            var visibleTick: Int?
            var fullTick = ticks
            for tick in 1...ticks {
                let progress = progression.next()
                if visibleTick == nil && progress >= resolution { visibleTick = tick }
                if progress >= 1 - resolution { fullTick = tick; break }
            }
            visibleAfterStart = Double(visibleTick ?? fullTick) * timer.tickSeconds
            fullAfterStart = Double(fullTick) * timer.tickSeconds
            nominalFillSeconds = Double(ticks) * timer.tickSeconds
        }
        nominalFillNanoseconds = nominalFillSeconds.map(Instant.nanoseconds)
        switch shape {
        case .none, .timer: fillNeverDecreases = true
        case .bezier(let bezier, _): fillNeverDecreases = bezier.map(\.neverDecreases) ?? true
        case .spring: fillNeverDecreases = false
        }
        if tables, case .bezier(let bezier, let duration) = shape, fillNeverDecreases {
            fillInverse = (0...Self.fillInverseCells).map { cell in
                Self.firstInstant(bezier, duration: duration, reaching: Double(cell) / Double(Self.fillInverseCells))
            }
        } else {
            fillInverse = nil
        }
        if tables, case .bezier(let bezier?, let duration) = shape, duration > 0 {
            // nil for a curve that can decrease. A fill shorter than half a nanosecond has a zero duration on the
            // integer clock (progress jumps from 0 to 1): its normalised time is not defined, so its searches take
            // the exact path.
            fillBounds = UnitBezierBounds(bezier)
        } else {
            fillBounds = nil
        }
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

    /// The Timer fill's tick count with every tick on time (one latency is drawn per tick); nil for other fills.
    public var idealTimerTicks: Int? {
        if case .timer(_, let ticks) = shape { return ticks }
        return nil
    }

    /// The first clock (nanoseconds after the start) at which a never-decreasing Bézier animation's progress is
    /// ≥ `level`, by bisection on the integer clock; `duration` when it first gets there at its end (progress is 1
    /// from then on), `Int64.max` for a level above 1.
    static func firstInstant(_ bezier: UnitBezier?, duration: Int64, reaching level: Double) -> Int64 {
        if level <= 0 { return 0 }
        if level > 1 { return .max }
        var low: Int64 = 0, high = duration
        while high - low > 1 {
            let mid = low + (high - low) / 2
            if bezierProgress(bezier, duration: duration, clock: mid) >= level { high = mid } else { low = mid }
        }
        return bezierProgress(bezier, duration: duration, clock: low) >= level ? low : high
    }

    /// The longest any time of a control may be, in seconds: an hour is far beyond any hold, and the bound keeps
    /// every frame index and tally within range.
    public static let maximumSeconds = 3_600.0

    /// Checks ranges and contradictions the profile layer cannot see key by key.
    static func validate(_ control: Control) throws(ControlError) {
        func require(_ condition: Bool, _ keyPath: String, _ message: String) throws(ControlError) {
            if !condition { throw ControlError(keyPath: keyPath, message: message) }
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
        switch fill.model {
        case .none:
            try require(control.trigger.source == .gesture, "trigger.source",
                        "is fill, but fill.model is none: with no fill the action can only follow the gesture")
            try require(control.retract.mode != .reverse, "retract.mode",
                        "reverse needs a fill to play backwards, but fill.model is none")
        case .animation(let curve, let duration):
            if case .spring = curve {} else {
                try require(finite(duration) && duration > 0 && duration <= hour, "fill.duration",
                            "must be a number of seconds above 0 and at most \(Int(hour)), or match (got \(duration))")
            }
        case .timer(let timer):
            try require(finite(timer.tickSeconds) && timer.tickSeconds > 0 && timer.tickSeconds <= hour, "fill.timer.tick",
                        "must be a number of seconds above 0 and at most \(Int(hour)) (got \(timer.tickSeconds))")
            try require(finite(timer.initialIncrement) && timer.initialIncrement >= 0, "fill.timer.initialIncrement",
                        "must be a number ≥ 0 (got \(timer.initialIncrement))")
            try require(finite(timer.acceleration) && timer.acceleration >= 0, "fill.timer.acceleration",
                        "must be a number ≥ 0 (got \(timer.acceleration))")
            if let duration = timer.durationSeconds {
                try require(finite(duration) && duration > 0 && duration <= hour, "fill.timer.duration",
                            "must be a number of seconds above 0 and at most \(Int(hour)) (got \(duration))")
            } else {
                try require(timer.initialIncrement > 0 || timer.acceleration > 0, "fill.timer",
                            "initialIncrement and acceleration are both 0: the fill would never move")
            }
        }
        let retract = control.retract
        if let duration = retract.durationSeconds {
            try require(finite(duration) && duration > 0 && duration <= hour, "retract.duration",
                        "must be a number of seconds above 0 and at most \(Int(hour)), or match (got \(duration))")
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
        let display = control.display
        try require(finite(display.refreshRateHz) && display.refreshRateHz >= 1 && display.refreshRateHz <= 1000,
                    "display.refreshRate", "must be frames per second from 1 to 1000 (got \(display.refreshRateHz))")
        try require(finite(display.resolution) && display.resolution > 0 && display.resolution < 0.5,
                    "display.resolution", "must be a progress above 0 and below 0.5 (got \(display.resolution))")
        // The action must be able to fire at a time after touch-down.
        if control.trigger.source == .gesture {
            try require(g.minimumDurationSeconds + control.trigger.offsetSeconds > 0, "trigger.offset",
                        "fires the action at minimumDuration + offset = \(g.minimumDurationSeconds + control.trigger.offsetSeconds) s; it must be after touch-down")
        }
    }

    /// Progress of a Bézier (or linear, nil) animation `clock` nanoseconds after its start: exactly 0 at the start
    /// and exactly 1 from its last instant on.
    @inline(__always)
    static func bezierProgress(_ bezier: UnitBezier?, duration: Int64, clock: Int64) -> Double {
        if clock <= 0 { return 0 }
        if clock >= duration { return 1 }
        let u = Double(clock) / Double(duration)
        return bezier?.value(at: u) ?? u
    }

    /// Progress per second of the same animation.
    @inline(__always)
    static func bezierVelocity(_ bezier: UnitBezier?, duration: Int64, clock: Int64) -> Double {
        if clock <= 0 || clock >= duration { return 0 }
        let u = Double(clock) / Double(duration)
        return (bezier?.slope(at: u) ?? 1) / Instant.seconds(duration)
    }
}

extension TimingCurve {
    /// Whether this curve is a spring (springs take their pace from their own parameters and always merge).
    var isSpring: Bool {
        if case .spring = self { return true }
        return false
    }
}
