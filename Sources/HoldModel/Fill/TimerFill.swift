// The Timer fill (seed 000, KikoCard; seed 004): what a profile says, and the model prepared for holds.

/// A Timer-driven fill, complete at progress ≥ 1. Every tick either adds a growing increment (seed 000:
/// `progress += increment; increment += acceleration`) or, with `durationSeconds`, adds the tick to an elapsed time
/// and divides (seed 004: `timePassed += tick; progress = timePassed / totalDuration`). Both are followed in the
/// seeds' own floating-point operations: 1,200 additions of 0.01 fall short of 12 and seed 004's 12 s fill
/// completes on tick 1,201, at 12.01 s.
///
/// Ticks are scheduled every `tickSeconds` from the fill's start. A tick fires late by a drawn latency, never early;
/// the repeating timer keeps its original schedule and coalesces missed slots into one fire (Foundation `Timer`, D).
public struct TimerFill: Sendable, Hashable {
    public var tickSeconds: Double
    public var initialIncrement: Double
    public var acceleration: Double
    /// Seed 004's elapsed-time fill: progress = (ticks added up as a Double) / duration; nil for the increments.
    public var durationSeconds: Double?

    public init(tickSeconds: Double = 0.01, initialIncrement: Double = 0.0007, acceleration: Double = 0.00007,
                durationSeconds: Double? = nil) {
        self.tickSeconds = tickSeconds
        self.initialIncrement = initialIncrement
        self.acceleration = acceleration
        self.durationSeconds = durationSeconds
    }

    /// The most ticks a timer fill may need to complete; more is treated as a fill that never completes.
    public static let maximumTicks = 100_000

    /// The longest a tick may be late, in seconds; longer draws are taken as this.
    public static let maximumLatencySeconds = 3_600.0

    /// The number of ticks to reach progress ≥ 1 with every tick on time, or nil when it never gets there
    /// within `maximumTicks`. Uses the same floating-point operations, in the same order, as the fill itself.
    public var idealTickCount: Int? {
        var progression = self.progression
        for tick in 1...Self.maximumTicks where progression.next() >= 1 { return tick }
        return nil
    }

    /// The fill's progress tick by tick, from 0.
    public var progression: Progression {
        Progression(increment: initialIncrement, acceleration: acceleration, tick: tickSeconds, duration: durationSeconds)
    }

    /// The Timer fill's recurrence in the seeds' order and floating-point operations, so every use (tick counts,
    /// the fill, its haptics) agrees to the bit: `progress += increment; increment += acceleration` (seed 000), or
    /// `elapsed += tick; progress = elapsed / duration` (seed 004).
    public struct Progression: Sendable {
        private(set) var progress = 0.0
        private var increment: Double
        private let acceleration: Double
        private var elapsed = 0.0
        private let tick: Double
        private let duration: Double?

        init(increment: Double, acceleration: Double, tick: Double, duration: Double?) {
            self.increment = increment
            self.acceleration = acceleration
            self.tick = tick
            self.duration = duration
        }

        /// Fires one tick and returns the progress after it (uncapped: it can pass 1 on the last tick).
        @inline(__always)
        public mutating func next() -> Double {
            if let duration {
                elapsed += tick
                progress = elapsed / duration
                return progress
            }
            progress += increment
            increment += acceleration
            return progress
        }
    }
}

/// A Timer fill (`Fill.Model.timer`) prepared: progress advances on the Timer's fires, each late by a drawn latency
/// (never early), and a fire at a frame's instant comes before the frame renders it.
///
/// Immutable; a class, as `BezierFill` is, so that the per-person path reads it in place.
final class TickedFill: PreparedFill {
    let timer: TimerFill
    /// Ticks to complete the fill with every tick on time: the latencies one hold draws.
    let ticks: Int
    /// The tick's interval on the integer clock.
    let tickInterval: Int64
    /// Displayed progress at or above these looks started and full.
    let visibleLevel: Double
    let fullLevel: Double
    let nominalSeconds: Double?
    let nominalNanoseconds: Int64

    static var advancesOnTicks: Bool { true }
    var neverDecreases: Bool { true }
    var latencyDrawsPerHold: Int? { ticks }

    /// Checks what a profile cannot check key by key.
    static func validate(_ timer: TimerFill, in control: Control) throws(ControlError) {
        let hour = PreparedControl.maximumSeconds
        // At least a nanosecond: a tick that rounds to 0 ns on the integer clock would never advance it.
        try ControlError.check(timer.tickSeconds.isFinite && timer.tickSeconds >= 1e-9 && timer.tickSeconds <= hour,
                               "fill.timer.tick",
                               "must be a number of seconds of at least a nanosecond (1e-9) and at most \(Int(hour)) (got \(timer.tickSeconds))")
        try ControlError.check(timer.initialIncrement.isFinite && timer.initialIncrement >= 0,
                               "fill.timer.initialIncrement", "must be a number ≥ 0 (got \(timer.initialIncrement))")
        try ControlError.check(timer.acceleration.isFinite && timer.acceleration >= 0, "fill.timer.acceleration",
                               "must be a number ≥ 0 (got \(timer.acceleration))")
        if let duration = timer.durationSeconds {
            try ControlError.check(duration.isFinite && duration > 0 && duration <= hour, "fill.timer.duration",
                                   "must be a number of seconds above 0 and at most \(Int(hour)) (got \(duration))")
        } else {
            try ControlError.check(timer.initialIncrement > 0 || timer.acceleration > 0, "fill.timer",
                                   "initialIncrement and acceleration are both 0: the fill would never move")
        }
    }

    /// A count of ticks for a message: whole below 10¹⁵, else as a Double prints it (no conversion can trap).
    private static func count(_ ticks: Double) -> String {
        let whole = ticks.rounded(.up)
        return whole < 1e15 ? String(Int64(whole)) : "\(whole)"
    }

    init(_ timer: TimerFill, visibleLevel: Double, fullLevel: Double) throws(ControlError) {
        guard let ticks = timer.idealTickCount else {
            if let duration = timer.durationSeconds {
                // The duration form completes on tick ⌈duration / tick⌉: too many ticks, not too slow a growth.
                throw ControlError(
                    keyPath: "fill.timer.duration",
                    message: "needs more than \(TimerFill.maximumTicks) ticks of \(timer.tickSeconds) s (fill.timer.tick) to reach \(duration) s (about \(Self.count(duration / timer.tickSeconds))); a Timer fill completes within \(TimerFill.maximumTicks) ticks: raise fill.timer.tick or shorten fill.timer.duration")
            }
            throw ControlError(
                keyPath: "fill.timer",
                message: "the timer never completes the fill within \(TimerFill.maximumTicks) ticks; raise initialIncrement or acceleration")
        }
        self.timer = timer
        self.ticks = ticks
        tickInterval = Instant.nanoseconds(timer.tickSeconds)
        self.visibleLevel = visibleLevel
        self.fullLevel = fullLevel
        let nominal = Double(ticks) * timer.tickSeconds
        nominalSeconds = nominal
        nominalNanoseconds = Instant.nanoseconds(nominal)
    }

    /// Fires the ticks until the fill completes, one drawn latency each, and returns the completing fire.
    func hold(start: Int64, steps: FillSteps) -> Int64? {
        var progression = timer.progression
        var slot: Int64 = 1
        let maximumLatency = Instant.nanoseconds(TimerFill.maximumLatencySeconds)
        for tick in 0..<ticks {
            // Never early; NaN counts as on time; an hour at most (a pathological draw cannot overflow the slots).
            let drawn = steps.latencies[tick]
            let latency = drawn > 0 ? min(Instant.nanoseconds(drawn), maximumLatency) : 0
            let fireTime = start + slot * tickInterval + latency
            let progress = progression.next()
            // Stored as computed: the pulse check sees it before the fill caps it at 1 (seed 000's order).
            steps.times.append(fireTime)
            steps.progress.append(progress)
            // A repeating timer keeps its schedule; slots that passed while it was late are coalesced.
            slot += 1 + latency / tickInterval
        }
        return steps.times.last
    }

    /// The progress of the last fire at or before `time`.
    func progress(at time: Int64, start: Int64, steps: FillSteps) -> Double {
        var low = 0
        var high = steps.times.count
        while low < high {
            let mid = (low + high) / 2
            if steps.times[mid] <= time { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? 0 : min(1, steps.progress[low - 1])
    }

    func velocity(at time: Int64, start: Int64) -> Double { 0 }

    /// Progress only rises and changes on the fires, so the first frame showing a level is the first frame at or after
    /// the first fire that reaches it (a frame at the instant of a fire shows it: the Timer fires before the frame
    /// renders).
    func shownFrames(start: Int64, clock: FrameClock, steps: FillSteps) -> ShownFrames {
        func firstFrame(showing level: Double) -> Int64 {
            guard let tick = steps.progress.firstIndex(where: { min(1, $0) >= level }) else { return .max }
            return clock.time(ofFrame: clock.firstFrame(atOrAfter: steps.times[tick]))
        }
        return ShownFrames(visible: firstFrame(showing: visibleLevel), full: firstFrame(showing: fullLevel))
    }

    /// Checked on every tick, after the increment (seed 000's order).
    func requestProgressPulses(start: Int64, clock: FrameClock, threshold: Double, steps: FillSteps,
                               into requests: inout ReusedArray<Int64>) {
        var lastRequestProgress = 0.0
        for index in steps.times.indices where steps.progress[index] >= lastRequestProgress + threshold {
            lastRequestProgress = steps.progress[index]
            requests.append(steps.times[index])
        }
    }
}
