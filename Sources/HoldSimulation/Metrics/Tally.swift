import Histogram
import HoldModel

/// Times are tallied in whole microseconds so every sum is an exact integer: merging per-thread tallies in any
/// order gives the same bits, which is what makes a run's CSV identical whatever `--threads` is. Sums are Int128,
/// so even 10^10 users of an hour each cannot overflow. Times beyond ±10^12 s (a drawn hold of absurd length)
/// are clamped rather than trapping; NaN counts as 0.
@inline(__always)
func microseconds(_ seconds: Double) -> Int64 {
    let value = (seconds * 1_000_000).rounded()
    guard value == value else { return 0 }
    return Int64(max(-1e18, min(1e18, value)))
}

/// An instant of the integer clock (nanoseconds) in whole microseconds, rounded half up.
@inline(__always)
func microseconds(nanoseconds: Int64) -> Int64 {
    let (quotient, remainder) = nanoseconds.quotientAndRemainder(dividingBy: 1000)
    if remainder >= 500 { return quotient + 1 }
    if remainder < -500 { return quotient - 1 }
    return quotient
}

/// Fractions (progress) are tallied in billionths, for the same reason.
@inline(__always)
func billionths(_ fraction: Double) -> Int64 {
    microseconds(fraction * 1_000)
}

/// Quantiles of non-negative integers from a fixed-precision histogram (HdrHistogram): memory is fixed whatever
/// the number of values, and merging two is exact. The histogram (about 2 MB at 4 digits) is allocated on the first
/// value, so statistics nobody records cost nothing.
///
/// Recording is batched, because a histogram of that size does not fit a core's cache and values in user order
/// land at random places in it (a cache miss per user was a sixth of a hold-only run). Runs of equal values are
/// collected first: many statistics repeat one value user after user (a gesture's trigger instant, a pulse count),
/// and one `record(_:count:)` for a run leaves the histogram exactly as that many single records would (the same
/// bucket counts, total and min/max). Up to `batchSize` runs wait in a buffer; then they are ordered by value range
/// (one counting-sort pass) and recorded in that order, so the histogram is walked from low addresses to high.
/// The order of records never changes a histogram, so the result is the same bits. `finish()` records everything
/// pending; quantiles are read only after it.
struct Quantiles {
    /// A tiny stand-in until the first value; a flag (not an optional) keeps the per-value check cheap.
    private var histogram = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 2, numberOfSignificantValueDigits: .zero)
    private var allocated = false
    /// The run of equal values being counted: `runLength` times `runValue`.
    private var runValue: UInt64 = 0
    private var runLength: UInt64 = 0
    /// Completed runs not yet in the histogram.
    private var pending = RunBuffer()
    let highest: UInt64
    let digits: SignificantDigits

    /// Runs buffered before they are sorted and recorded.
    static let batchSize = 4096

    /// - Parameters:
    ///   - highest: the largest value kept (below 2^32); larger values are recorded as `highest`.
    ///   - digits: significant decimal digits kept (4: values within 0.01 %).
    init(highest: UInt64, digits: SignificantDigits) {
        precondition(highest < 1 << 32, "Quantiles sorts 32-bit values")
        self.highest = highest
        self.digits = digits
    }

    private mutating func allocate() {
        histogram = Histogram(lowestDiscernibleValue: 1, highestTrackableValue: highest, numberOfSignificantValueDigits: digits)
        allocated = true
    }

    @inline(__always)
    mutating func record(_ value: Int64) {
        let kept = UInt64(max(0, min(value, Int64(highest))))
        if kept == runValue {
            runLength &+= 1
        } else {
            endRun()
            runValue = kept
            runLength = 1
        }
    }

    /// Moves the current run to the buffer, recording the buffer when it is full.
    private mutating func endRun() {
        guard runLength > 0 else { return }
        pending.append(value: runValue, count: runLength)
        runLength = 0
        if pending.count >= Self.batchSize { recordPending() }
    }

    /// Records the buffered runs in increasing order of value.
    private mutating func recordPending() {
        guard pending.count > 0 else { return }
        if !allocated { allocate() }
        pending.sortByValue()
        pending.forEach { value, count in _ = histogram.record(value, count: count) }
        pending.removeAll()
    }

    /// Records every pending value; quantiles are read only after it.
    mutating func finish() {
        endRun()
        recordPending()
    }

    mutating func merge(_ other: Quantiles) {
        var other = other
        other.finish()
        finish()
        if other.allocated {
            if !allocated { allocate() }
            histogram.add(other.histogram)
        }
    }

    var count: UInt64 { (allocated ? histogram.totalCount : 0) + pending.total + runLength }

    /// The histogram with every value recorded (the pending run included), or nil without values: what a shard
    /// file stores (`TallyCoding.swift`).
    var recordedHistogram: Histogram<UInt64>? {
        var copy = self
        copy.finish()
        return copy.allocated ? copy.histogram : nil
    }

    /// Quantiles holding `histogram` (made with this `highest` and `digits`): a shard file read back.
    init(highest: UInt64, digits: SignificantDigits, histogram: Histogram<UInt64>) {
        self.init(highest: highest, digits: digits)
        self.histogram = histogram
        allocated = true
    }

    /// The value at `percentile` (0–100), or nil without values. Call `finish()` first.
    func value(atPercentile percentile: Double) -> Int64? {
        count == 0 ? nil : Int64(histogram.valueAtPercentile(percentile))
    }
}

/// Runs of equal values (value below 2^32, count) waiting to be recorded, with a linear-time ordering by value range.
struct RunBuffer {
    private var values: [UInt32] = []
    private var counts: [UInt64] = []
    /// Scratch space for the sort.
    private var sortedValues: [UInt32] = []
    private var sortedCounts: [UInt64] = []
    /// The sum of the counts.
    private(set) var total: UInt64 = 0

    var count: Int { values.count }

    @inline(__always)
    mutating func append(value: UInt64, count: UInt64) {
        values.append(UInt32(truncatingIfNeeded: value))
        counts.append(count)
        total &+= count
    }

    mutating func removeAll() {
        values.removeAll(keepingCapacity: true)
        counts.removeAll(keepingCapacity: true)
        total = 0
    }

    /// Calls `body` for every run, in the buffer's order.
    func forEach(_ body: (UInt64, UInt64) -> Void) {
        for index in values.indices { body(UInt64(values[index]), counts[index]) }
    }

    /// Orders the runs by value range, coarsely: one counting-sort pass on the value's bit length and the six bits
    /// below its leading one (2,112 ranges, each at most 1/64 of an octave), ascending. That is the order of
    /// addresses in a histogram to within a few kilobytes, which is all the recording needs (any order gives the
    /// same histogram). Stable within a range.
    mutating func sortByValue() {
        let n = values.count
        guard n > 1 else { return }
        sortedValues.removeAll(keepingCapacity: true)
        sortedValues.append(contentsOf: repeatElement(0, count: n))
        sortedCounts.removeAll(keepingCapacity: true)
        sortedCounts.append(contentsOf: repeatElement(0, count: n))
        if offsets.isEmpty { offsets = Array(repeating: 0, count: Self.ranges) }
        for index in offsets.indices { offsets[index] = 0 }
        for value in values { offsets[Self.range(of: value)] += 1 }
        var running = 0
        for index in offsets.indices {
            let size = offsets[index]
            offsets[index] = running
            running += size
        }
        for index in 0..<n {
            let value = values[index]
            let range = Self.range(of: value)
            let slot = offsets[range]
            offsets[range] = slot + 1
            sortedValues[slot] = value
            sortedCounts[slot] = counts[index]
        }
        swap(&values, &sortedValues)
        swap(&counts, &sortedCounts)
    }

    private var offsets: [Int] = []
    static let ranges = 33 * 64

    /// The value's range: 64 × its bit length + the six bits below its leading one. Never decreases with the value.
    @inline(__always)
    static func range(of value: UInt32) -> Int {
        let bits = 32 - value.leadingZeroBitCount
        let top = bits > 7 ? value >> UInt32(bits - 7) : value << UInt32(7 - bits)
        return bits << 6 | Int(top & 63)
    }
}

/// Quantiles of signed integers: negatives and non-negatives in two histograms of magnitudes.
struct SignedQuantiles {
    private var negative: Quantiles
    private var positive: Quantiles

    init(highest: UInt64, digits: SignificantDigits) {
        negative = Quantiles(highest: highest, digits: digits)
        positive = Quantiles(highest: highest, digits: digits)
    }

    @inline(__always)
    mutating func record(_ value: Int64) {
        if value < 0 { negative.record(-value) } else { positive.record(value) }
    }

    mutating func finish() {
        negative.finish()
        positive.finish()
    }

    mutating func merge(_ other: SignedQuantiles) {
        negative.merge(other.negative)
        positive.merge(other.positive)
    }

    var count: UInt64 { negative.count + positive.count }

    /// The two histograms of magnitudes, for shard files (`TallyCoding.swift`).
    var parts: (negative: Quantiles, positive: Quantiles) { (negative, positive) }

    init(negative: Quantiles, positive: Quantiles) {
        self.negative = negative
        self.positive = positive
    }

    /// The value at `percentile` (0–100) of all recorded values, or nil without values.
    func value(atPercentile percentile: Double) -> Int64? {
        let total = count
        guard total > 0 else { return nil }
        let rank = max(1, UInt64((percentile / 100 * Double(total)).rounded(.up)))
        let negatives = negative.count
        if rank <= negatives {
            // The rank-th smallest value is the (negatives − rank + 1)-th smallest magnitude, negated.
            let fromTop = Double(negatives - rank + 1) / Double(negatives) * 100
            return negative.value(atPercentile: fromTop).map { -$0 }
        }
        return positive.value(atPercentile: Double(rank - negatives) / Double(positive.count) * 100)
    }
}

/// Everything `simulate` reports about one profile, accumulated user by user. Mergeable and exact.
struct Tally {
    var users = 0
    var intentUsers = 0
    var completed = 0
    var prematureRelease = 0
    var prematureImpatience = 0
    var prematureMismatch = 0
    var movementCancels = 0
    var accidentalUsers = 0
    var falseActivations = 0

    var completionTimeSum: Int128 = 0
    /// Σy² beside each Σy of a mean, in the same integer units, for the mean's interval (`SampleMean`). A profile's
    /// durations are at most an hour each, so a mean's values are hours at most (10¹⁰ µs): 10¹⁰ users make 10³⁰, far
    /// below Int128's 1.7·10³⁸.
    var completionTimeSquares: Int128 = 0
    var completionTime = Quantiles(highest: 3_600_000_000, digits: .four)
    /// Every reported quantile keeps the 4 significant digits README.md promises.
    var holdTime = Quantiles(highest: 3_600_000_000, digits: .four)
    var pulsesSum = 0
    var pulsesSquares: Int128 = 0
    var pulses = Quantiles(highest: 10_000_000, digits: .four)
    var pulsesMax = 0
    var droppedPulsesSum = 0
    var droppedPulsesSquares: Int128 = 0
    /// Over completed holds with at least two pulses; nil when there were none.
    var peakPulseRateHz: Double?
    var mismatchSum: Int128 = 0
    var mismatchSquares: Int128 = 0
    var mismatch = SignedQuantiles(highest: 3_600_000_000, digits: .four)
    var mismatchMax = -Double.infinity
    var progressAtTriggerSum: Int128 = 0
    var progressAtTriggerSquares: Int128 = 0
    var progressAtTriggerCount = 0
    var progressAtTriggerMin = Double.infinity
    var firstFeedbackSum: Int128 = 0
    var firstFeedbackSquares: Int128 = 0
    var firstFeedbackCount = 0
    /// Intent users who let go (or were cancelled) before any feedback.
    var noFeedback = 0
    var retractSum: Int128 = 0
    var retractSquares: Int128 = 0
    var retractCount = 0
    /// Completed holds of controls with a fill, and those among them whose bar never looked full.
    var completedWithFill = 0
    var completedUnseen = 0

    /// Counts a person without intent to confirm: all a tally keeps of them is whether the action fired.
    @inline(__always)
    mutating func addAccidental(fired: Bool) {
        users += 1
        accidentalUsers += 1
        if fired { falseActivations += 1 }
    }

    @inline(__always)
    mutating func add(_ run: UserRun) {
        switch run.outcome {
        case .falseActivation, .noActivation:
            addAccidental(fired: run.outcome == .falseActivation)
            return
        case .completed: completed += 1
        case .prematureRelease: prematureRelease += 1
        case .prematureImpatience: prematureRelease += 1; prematureImpatience += 1
        case .prematureMismatch: prematureRelease += 1; prematureMismatch += 1
        case .movementCancel: movementCancels += 1
        }
        users += 1
        intentUsers += 1
        holdTime.record(microseconds(nanoseconds: run.hold.pressEnd))
        if let feedback = run.hold.feedback {
            let value = Int128(microseconds(nanoseconds: feedback))
            firstFeedbackSum += value
            firstFeedbackSquares += value * value
            firstFeedbackCount += 1
        } else {
            noFeedback += 1
        }
        if let empty = run.hold.firstEmptyFrame {
            let value = Int128(microseconds(nanoseconds: empty - run.hold.pressEnd))
            retractSum += value
            retractSquares += value * value
            retractCount += 1
        }
        guard run.hold.completed, let trigger = run.timeline.trigger else { return }
        if run.timeline.fillStart != nil {
            completedWithFill += 1
            if run.hold.firstFullFrameSeen == nil { completedUnseen += 1 }
        }
        let time = microseconds(nanoseconds: trigger)
        completionTimeSum += Int128(time)
        completionTimeSquares += Int128(time) * Int128(time)
        completionTime.record(time)
        pulsesSum += run.hold.pulses
        pulsesSquares += Int128(run.hold.pulses) * Int128(run.hold.pulses)
        pulses.record(Int64(run.hold.pulses))
        pulsesMax = max(pulsesMax, run.hold.pulses)
        droppedPulsesSum += run.hold.droppedPulses
        droppedPulsesSquares += Int128(run.hold.droppedPulses) * Int128(run.hold.droppedPulses)
        if let rate = run.hold.peakPulseRateHz { peakPulseRateHz = max(peakPulseRateHz ?? rate, rate) }
        if let gap = run.hold.mismatch {
            let value = microseconds(nanoseconds: gap)
            mismatchSum += Int128(value)
            mismatchSquares += Int128(value) * Int128(value)
            mismatch.record(value)
            mismatchMax = max(mismatchMax, Instant.seconds(gap))
        }
        if let progress = run.hold.displayedProgressAtTrigger {
            let value = Int128(billionths(progress))
            progressAtTriggerSum += value
            progressAtTriggerSquares += value * value
            progressAtTriggerCount += 1
            progressAtTriggerMin = min(progressAtTriggerMin, progress)
        }
    }

    /// Records every pending run of equal values into the histograms (see `Quantiles`); call before reading.
    mutating func finish() {
        completionTime.finish()
        holdTime.finish()
        pulses.finish()
        mismatch.finish()
    }

    /// Adds another tally. Integer sums, histogram counts, minima and maxima: the result does not depend on order.
    mutating func merge(_ other: Tally) {
        users += other.users
        intentUsers += other.intentUsers
        completed += other.completed
        prematureRelease += other.prematureRelease
        prematureImpatience += other.prematureImpatience
        prematureMismatch += other.prematureMismatch
        movementCancels += other.movementCancels
        accidentalUsers += other.accidentalUsers
        falseActivations += other.falseActivations
        completionTimeSum += other.completionTimeSum
        completionTimeSquares += other.completionTimeSquares
        completionTime.merge(other.completionTime)
        holdTime.merge(other.holdTime)
        pulsesSum += other.pulsesSum
        pulsesSquares += other.pulsesSquares
        pulses.merge(other.pulses)
        pulsesMax = max(pulsesMax, other.pulsesMax)
        droppedPulsesSum += other.droppedPulsesSum
        droppedPulsesSquares += other.droppedPulsesSquares
        if let rate = other.peakPulseRateHz { peakPulseRateHz = max(peakPulseRateHz ?? rate, rate) }
        mismatchSum += other.mismatchSum
        mismatchSquares += other.mismatchSquares
        mismatch.merge(other.mismatch)
        mismatchMax = max(mismatchMax, other.mismatchMax)
        progressAtTriggerSum += other.progressAtTriggerSum
        progressAtTriggerSquares += other.progressAtTriggerSquares
        progressAtTriggerCount += other.progressAtTriggerCount
        progressAtTriggerMin = min(progressAtTriggerMin, other.progressAtTriggerMin)
        firstFeedbackSum += other.firstFeedbackSum
        firstFeedbackSquares += other.firstFeedbackSquares
        firstFeedbackCount += other.firstFeedbackCount
        noFeedback += other.noFeedback
        completedWithFill += other.completedWithFill
        completedUnseen += other.completedUnseen
        retractSum += other.retractSum
        retractSquares += other.retractSquares
        retractCount += other.retractCount
    }
}
