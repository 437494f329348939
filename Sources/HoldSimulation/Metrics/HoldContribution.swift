import HoldModel

/// What one hold can count toward: every rate's numerator and denominator, every count column. The tally keeps
/// one count per case (`Tally.counts`), shards carry them (`TallyCoding`), and the metrics (`Metric.all`) name
/// them. Adding an event is a case here and the line of `HoldContribution.hold` below that counts it; a metric
/// that reports it goes in `Metric.all`.
public enum HoldEvent: Int, CaseIterable, Sendable {
    /// Every person.
    case user
    /// A person of a class with `intent: confirm`.
    case intent
    case completed
    /// Let go before the action without a movement cancel, for any reason (includes the next two).
    case prematureRelease
    /// Gave up at their patience having had no feedback at all.
    case prematureImpatience
    /// Let go on seeing the bar full before the action fired.
    case prematureMismatch
    case movementCancel
    /// A person of a class with `intent: none`.
    case accidental
    /// An accidental person whose action fired.
    case falseActivation
    /// An intent user who let go (or was cancelled) before any feedback.
    case noFeedback
    /// A completed hold of a control with a fill.
    case completedWithFill
    /// A completed hold of a control with a fill whose bar never looked full.
    case completedUnseen

    /// Whether the people it counts are decided by their class alone (the same people under every design), so a
    /// rate over it is compared person by person as a paired proportion.
    var decidedByClass: Bool { self == .user || self == .intent || self == .accidental }
}

/// A quantity one hold contributes a value of, in integer units (microseconds, counts, billionths) so that every
/// sum is exact and merges in any order, plus the value itself (`real`) where an extreme is kept. Each case
/// declares what the tally keeps of it; the metrics (`Metric.all`) report those.
public enum HoldValue: Int, CaseIterable, Sendable {
    // The values that keep a mean come first: their raw value is their lane in a person's record for pairing
    // (`PersonMeasures`, at most 8).
    /// Touch-down to the action, completed holds (µs).
    case completionTime
    /// Pulses played per completed hold.
    case pulses
    /// Pulse requests dropped by `haptics.minInterval` per completed hold.
    case droppedPulses
    /// Trigger − first frame displayed full, completed holds whose bar looked full (µs; real: seconds).
    case mismatch
    /// Displayed progress when the action fired (billionths; real: the progress).
    case progressAtTrigger
    /// Touch-down to the first feedback while the finger was down (µs).
    case firstFeedback
    /// The end of the press to the first frame drawn empty, holds whose fill retracted (µs).
    case retract
    /// Touch-down to the release or movement cancel, intent users (µs; only its quantiles are kept).
    case holdTime
    /// 1 / the shortest gap between two rendered pulses of a completed hold (Hz; only its maximum is kept): played
    /// pulses closer than `haptics.actuatorMinInterval` merge first.
    case pulseRate

    /// The people whose holds can have the value, one at most each: intent users (a hold's time, its first feedback,
    /// its retract) or completed holds (everything about the action). What a statistic of it is over
    /// (`Metric.countColumn`), and the bound a tally's count of it keeps (`Tally.inconsistency`).
    var over: HoldEvent {
        switch self {
        case .firstFeedback, .retract, .holdTime: .intent
        case .completionTime, .pulses, .droppedPulses, .mismatch, .progressAtTrigger, .pulseRate: .completed
        }
    }

    /// Integer units per reported unit: 1000 µs per ms, 10⁹ billionths per 1, 1 for counts.
    var scale: Double {
        switch self {
        case .completionTime, .holdTime, .mismatch, .firstFeedback, .retract: 1000
        case .progressAtTrigger: 1_000_000_000
        case .pulses, .droppedPulses, .pulseRate: 1
        }
    }

    /// Reported units per unit of `real`: the mismatch's extreme is kept in seconds, reported in ms.
    var realScale: Double { self == .mismatch ? 1000 : 1 }

    /// Whether Σy and Σy² are kept, for a mean and its interval.
    @inline(__always)
    var keepsMean: Bool { self != .holdTime && self != .pulseRate }

    /// The values that keep a mean: the first cases (a test checks that none follows a value without one).
    static let meanValues: [HoldValue] = allCases.filter(\.keepsMean)

    /// Where its quantiles are kept, if they are.
    @inline(__always)
    var quantiles: Tally.QuantileStore? {
        switch self {
        case .completionTime: .completionTime
        case .holdTime: .holdTime
        case .pulses: .pulses
        case .mismatch: .mismatch
        default: nil
        }
    }

    /// Whether the largest `real` is kept, and what it starts at (a pulse count's maximum starts at 0).
    @inline(__always)
    var keepsMaximum: Bool { self == .pulses || self == .pulseRate || self == .mismatch }
    var maximumStart: Double { self == .pulses ? 0 : -.infinity }

    /// Whether the smallest `real` is kept.
    @inline(__always)
    var keepsMinimum: Bool { self == .progressAtTrigger }
}

/// What takes the contributions of holds: a tally (`Tally`), or one person's record for a paired comparison
/// (`PersonMeasures`). The contribution function is generic over it, so each inlines to straight-line code.
protocol HoldSink {
    /// The hold counts toward `event`.
    mutating func count(_ event: HoldEvent)
    /// The hold contributes `amount` (integer units) of `value`, and `real` for its extremes.
    mutating func take(_ value: HoldValue, _ amount: Int64, real: Double)
}

/// What one hold contributes to every statistic: the one place that says it. `simulate`'s tally, `compare`'s
/// person-by-person pairs and the shards all count holds through here, so a design's value in `compare` is its
/// `simulate` column exactly.
enum HoldContribution {
    /// A person without intent to confirm: all that counts is whether the action fired.
    @inline(__always)
    static func accidental<Sink: HoldSink>(fired: Bool, into sink: inout Sink) {
        sink.count(.user)
        sink.count(.accidental)
        if fired { sink.count(.falseActivation) }
    }

    /// One person's hold: who counts where, in microseconds, counts and billionths.
    @inline(__always)
    static func hold<Sink: HoldSink>(_ counted: CountedHold, into sink: inout Sink) {
        let hold = counted.summary, outcome = counted.outcome, pressEnd = counted.pressEnd, trigger = counted.trigger
        switch outcome {
        case .falseActivation, .noActivation:
            accidental(fired: outcome == .falseActivation, into: &sink)
            return
        case .completed: sink.count(.completed)
        case .prematureRelease: sink.count(.prematureRelease)
        case .prematureImpatience: sink.count(.prematureRelease); sink.count(.prematureImpatience)
        case .prematureMismatch: sink.count(.prematureRelease); sink.count(.prematureMismatch)
        case .movementCancel: sink.count(.movementCancel)
        }
        sink.count(.user)
        sink.count(.intent)
        sink.take(.holdTime, microseconds(nonNegativeNanoseconds: pressEnd), real: 0)
        if hold.feedback != .max {
            sink.take(.firstFeedback, microseconds(nonNegativeNanoseconds: hold.feedback), real: 0)
        } else {
            sink.count(.noFeedback)
        }
        if hold.firstEmptyFrame != .max {
            sink.take(.retract, microseconds(nonNegativeNanoseconds: hold.firstEmptyFrame &- pressEnd), real: 0)
        }
        guard hold.completed, trigger != .max else { return }
        if counted.hasFill {
            sink.count(.completedWithFill)
            if hold.firstFullFrameSeen == .max { sink.count(.completedUnseen) }
        }
        sink.take(.completionTime, microseconds(nonNegativeNanoseconds: trigger), real: 0)
        sink.take(.pulses, Int64(hold.pulses), real: Double(hold.pulses))
        sink.take(.droppedPulses, Int64(hold.droppedPulses), real: 0)
        if hold.shortestPulseGap != .max {
            sink.take(.pulseRate, 0, real: Instant.perSecond / Double(max(1, hold.shortestPulseGap)))
        }
        if hold.firstFullFrameSeen != .max {
            let gap = trigger - hold.firstFullFrameSeen
            sink.take(.mismatch, microseconds(nanoseconds: gap), real: Instant.seconds(gap))
        }
        let progress = hold.displayedProgressAtTrigger
        sink.take(.progressAtTrigger, billionths(progress), real: progress)
    }
}

/// One person's contributions under one design, kept for pairing with the baseline's (`PairTally`): the events
/// as bits, the values of the means (a lane per value that keeps one: its raw value) and which are present.
struct PersonMeasures: HoldSink {
    var events: UInt16 = 0
    var values = SIMD8<Int64>(repeating: 0)
    var present: UInt8 = 0

    init() {}

    @inline(__always)
    mutating func count(_ event: HoldEvent) { events |= 1 << UInt16(event.rawValue) }

    @inline(__always)
    mutating func take(_ value: HoldValue, _ amount: Int64, real: Double) {
        guard value.keepsMean else { return }
        values[value.rawValue] = amount
        present |= 1 << UInt8(value.rawValue)
    }

    @inline(__always)
    func happened(_ event: HoldEvent) -> Bool { events & (1 << UInt16(event.rawValue)) != 0 }

    @inline(__always)
    func value(lane: Int) -> Int64? { present & (1 << UInt8(lane)) != 0 ? values[lane] : nil }

    /// A person without intent to confirm.
    @inline(__always)
    init(accidentalFired fired: Bool) {
        HoldContribution.accidental(fired: fired, into: &self)
    }

    /// One person's hold.
    @inline(__always)
    init(_ counted: CountedHold) {
        HoldContribution.hold(counted, into: &self)
    }

    @inline(__always)
    init(_ run: UserRun) {
        self.init(CountedHold(run))
    }
}
