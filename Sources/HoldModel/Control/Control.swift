/// Everything that defines a hold-to-confirm control, as a profile describes it (DOMAIN §1–6).
///
/// A control has four clocks that can disagree: the gesture, the fill the eye sees, the trigger that fires the
/// action, and the display that shows the fill only on frames. `Control` is plain data; `PreparedControl`
/// validates it and precomputes what every hold needs.
public struct Control: Sendable, Hashable {
    public var gesture: Gesture
    public var trigger: Trigger
    public var fill: Fill
    public var retract: Retract
    public var haptics: Haptics
    public var display: Display

    public init(
        gesture: Gesture = Gesture(),
        trigger: Trigger = Trigger(),
        fill: Fill = Fill(),
        retract: Retract = Retract(),
        haptics: Haptics = Haptics(),
        display: Display = Display()
    ) {
        self.gesture = gesture
        self.trigger = trigger
        self.fill = fill
        self.retract = retract
        self.haptics = haptics
        self.display = display
    }
}

/// The long-press recogniser (`LongPressGesture`, `UILongPressGestureRecognizer`).
public struct Gesture: Sendable, Hashable {
    /// Seconds the finger must stay down before the gesture recognises (iOS default 0.5 s, D).
    public var minimumDurationSeconds: Double
    /// Points the finger may move from touch-down before the gesture fails (iOS default 10 pt, D).
    public var maximumDistancePoints: Double
    /// When moving the finger beyond `maximumDistancePoints` cancels the hold.
    public var movementCancels: MovementCancellation

    /// When finger movement can cancel a hold.
    public enum MovementCancellation: String, Sendable, Hashable, CaseIterable {
        /// Until the action fires (a raw touch-down/up or tap recogniser: moving past the slop cancels at any time).
        case always
        /// Only before the gesture recognises (`UILongPressGestureRecognizer`'s `allowableMovement`; a long press
        /// `.sequenced(before: DragGesture)`, seed 000): once recognised, only lifting the finger ends the hold.
        case untilRecognized
        /// Never: the control ignores movement.
        case never
    }

    public init(minimumDurationSeconds: Double = 0.5, maximumDistancePoints: Double = 10,
                movementCancels: MovementCancellation = .always) {
        self.minimumDurationSeconds = minimumDurationSeconds
        self.maximumDistancePoints = maximumDistancePoints
        self.movementCancels = movementCancels
    }
}

/// When the action fires.
public struct Trigger: Sendable, Hashable {
    /// The clock the action follows.
    public enum Source: String, Sendable, Hashable, CaseIterable {
        /// The gesture's recognition, at `minimumDuration`.
        case gesture
        /// The moment the fill completes.
        case fill
    }

    public var source: Source
    /// Seconds added to the source's time: positive fires late, negative early. The finger must still be down
    /// at the resulting time for the action to fire.
    public var offsetSeconds: Double

    public init(source: Source = .gesture, offsetSeconds: Double = 0) {
        self.source = source
        self.offsetSeconds = offsetSeconds
    }
}

/// The progress indicator while the finger is down.
public struct Fill: Sendable, Hashable {
    /// When the fill's clock starts.
    public enum Start: String, Sendable, Hashable, CaseIterable {
        case touchDown
        /// Only once the gesture has recognised (KikoCard: the Timer starts in `onEnded` of the long press).
        case recognized
    }

    public var start: Start
    /// Seconds between the start event and the fill's first movement (a system delay: another clock).
    public var delaySeconds: Double
    /// How progress advances: one of the fill models listed in `Fill/FillModels.swift`.
    public var model: Model

    public init(start: Start = .touchDown, delaySeconds: Double = 0, model: Model = .animation(curve: .linear, durationSeconds: 0.5)) {
        self.start = start
        self.delaySeconds = delaySeconds
        self.model = model
    }
}

/// What happens to the fill when the finger lifts (or the gesture is cancelled) before the action fires.
public struct Retract: Sendable, Hashable {
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// Progress snaps to 0 (KikoCard's `resetProgress`).
        case instant
        /// An animation from the current progress to 0 along `curve` over `durationSeconds`.
        case animation
        /// The fill played backwards from where it stands; at the fill's own rate, or, with `durationSeconds`,
        /// at the rate that retracts a full bar in that time (Flutter `AnimationController.reverse`).
        case reverse
    }

    /// How a retract animation combines with a fill animation that is still running (DOMAIN §5).
    /// Springs always merge, keeping position and velocity, whatever this says.
    public enum Interruption: String, Sendable, Hashable, CaseIterable {
        /// SwiftUI timing curves (RE): r = r₁(t) + retract(τ)·(0 − r₁(t)), the fill running on underneath.
        case swiftui
        /// Core Animation additive (iOS 8+): fill(t) − retract(τ), the fill running on to its end.
        case additive
        /// Replace from the current value (`beginFromCurrentState`): p(release)·(1 − retract(τ)).
        case fromCurrent
    }

    /// What the fill does when the finger lifts after the action fired.
    public enum AfterTrigger: String, Sendable, Hashable, CaseIterable {
        /// The fill completes and stays full (the action takes over the screen).
        case stay
        /// The fill retracts as on an early release (seed 003's code sets progress back on release).
        case retract
    }

    public var mode: Mode
    public var curve: TimingCurve
    /// Seconds; nil means "match": for `reverse`, the fill's own rate.
    public var durationSeconds: Double?
    public var interruption: Interruption
    public var afterTrigger: AfterTrigger

    public init(
        mode: Mode = .animation,
        curve: TimingCurve = .easeOut,
        durationSeconds: Double? = 0.2,
        interruption: Interruption = .swiftui,
        afterTrigger: AfterTrigger = .stay
    ) {
        self.mode = mode
        self.curve = curve
        self.durationSeconds = durationSeconds
        self.interruption = interruption
        self.afterTrigger = afterTrigger
    }
}

/// Haptic pulses as the fill advances (DOMAIN §6).
public struct Haptics: Sendable, Hashable {
    /// A pulse is requested when progress ≥ the last request's progress + threshold; 0 means no progress pulses.
    public var threshold: Double
    /// Seconds: a request closer than this to the last played pulse is dropped (a user-set assumption, U).
    public var minIntervalSeconds: Double
    /// One more pulse when the action fires.
    public var onComplete: Bool
    /// Seconds: the shortest interval at which the device's actuator renders two separate pulses. A played pulse
    /// closer than this to the last rendered one merges into it (felt as one), so no pulse rate above
    /// 1 / actuatorMinInterval is ever reported. An assumption (U): no platform documents one (DOMAIN §6); 0 renders
    /// every played pulse, as HoldLab 0.1.0 did.
    public var actuatorMinIntervalSeconds: Double

    /// The default actuator limit, 0.01 s (100 Hz): an assumption, not a documented figure.
    public static let defaultActuatorMinIntervalSeconds = 0.01

    public init(threshold: Double = 0, minIntervalSeconds: Double = 0, onComplete: Bool = false,
                actuatorMinIntervalSeconds: Double = Haptics.defaultActuatorMinIntervalSeconds) {
        self.threshold = threshold
        self.minIntervalSeconds = minIntervalSeconds
        self.onComplete = onComplete
        self.actuatorMinIntervalSeconds = actuatorMinIntervalSeconds
    }
}

/// The screen that shows the fill.
public struct Display: Sendable, Hashable {
    /// Frames per second (60, 120 ProMotion; 10–120 variable, D).
    public var refreshRateHz: Double
    /// The smallest progress a person can see: the fill looks started once displayed progress ≥ resolution and
    /// looks full once it is ≥ 1 − resolution. 0.001 is about half a pixel on a 150 pt bar at 3× (U).
    public var resolution: Double

    public init(refreshRateHz: Double = 120, resolution: Double = 0.001) {
        self.refreshRateHz = refreshRateHz
        self.resolution = resolution
    }

    /// Seconds between frames.
    public var frameIntervalSeconds: Double { 1 / refreshRateHz }
}
