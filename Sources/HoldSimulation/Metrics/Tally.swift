import Foundation
import Histogram
import HoldModel

/// Times are tallied in whole microseconds so every sum is an exact integer: merging per-thread tallies in any
/// order gives the same bits, which is what makes a run's CSV identical whatever `--threads` is. Sums are Int128,
/// so even 10^10 users of an hour each cannot overflow. Times beyond ±10^12 s (a drawn hold of absurd length)
/// are clamped rather than trapping; NaN counts as 0.
@inline(__always)
func microseconds(_ seconds: Double) -> Int64 {
    let value = seconds * 1_000_000
    guard value == value else { return 0 }
    return nearestInteger(max(-1e18, min(1e18, value)))
}

/// `x.rounded()` (halves away from zero) as an integer, for |x| ≤ 10¹⁸, without the library call the baseline x86-64
/// target makes for it: the truncation is exact, and so is the fraction left.
@inline(__always)
func nearestInteger(_ x: Double) -> Int64 {
    let whole = Int64(x)
    let fraction = x - Double(whole)
    if fraction >= 0.5 { return whole + 1 }
    if fraction <= -0.5 { return whole - 1 }
    return whole
}

/// An instant of the integer clock (nanoseconds) in whole microseconds, rounded half up.
@inline(__always)
func microseconds(nanoseconds: Int64) -> Int64 {
    let (quotient, remainder) = nanoseconds.quotientAndRemainder(dividingBy: 1000)
    if remainder >= 500 { return quotient + 1 }
    if remainder < -500 { return quotient - 1 }
    return quotient
}

/// `microseconds(nanoseconds:)` for an instant or duration that is not negative: the same rounding (half up), with
/// one division by a constant instead of a quotient, a remainder and two comparisons.
@inline(__always)
func microseconds(nonNegativeNanoseconds nanoseconds: Int64) -> Int64 {
    assert(nanoseconds >= 0, "microseconds(nonNegativeNanoseconds:) of \(nanoseconds)")
    return (nanoseconds &+ 500) / 1000
}

/// Fractions (progress) are tallied in billionths, for the same reason.
@inline(__always)
func billionths(_ fraction: Double) -> Int64 {
    microseconds(fraction * 1_000)
}

/// Quantiles of non-negative integers to a fixed precision, HdrHistogram's way: values are counted in its buckets
/// (`HistogramLayout`), so memory is fixed whatever the number of values, merging two is exact, and a shard carries
/// them as an HdrHistogram. Nothing is allocated before the first value, so statistics nobody records cost nothing.
///
/// A run of equal values is counted once, when it ends. Other values are counted first in `PendingCounts`, 16 bits a
/// bucket: the buckets one statistic touches then stay in a core's cache (8-byte counts missed it about once a value:
/// a sixth of a hold-only run), and a count is one increment. A bucket about to overflow, and every bucket at
/// `finish()`, moves to the 64-bit `BucketCounts`, which answers quantiles exactly as HdrHistogram's
/// `valueAtPercentile` does (the library's own, called across modules, runs unspecialised: about 75 instructions a
/// bucket scanned, some 15 ms a simulation). Quantiles are read only after `finish()`.
struct Quantiles {
    private var pending = PendingCounts()
    private var settled: BucketCounts?
    let highest: UInt64
    let digits: SignificantDigits
    private let layout: HistogramLayout

    /// - Parameters:
    ///   - highest: the largest value kept; larger values are recorded as `highest`.
    ///   - digits: significant decimal digits kept (4: values within 0.01 %).
    init(highest: UInt64, digits: SignificantDigits) {
        self.highest = highest
        self.digits = digits
        layout = HistogramLayout(digits: Int(digits.rawValue), highest: highest)
    }

    @inline(__always)
    mutating func record(_ value: Int64) {
        let kept = UInt64(max(0, min(value, Int64(highest))))
        // Many statistics repeat one value person after person (a gesture's trigger instant, a pulse count): a run
        // of equal values is counted once when it ends.
        if kept == runValue {
            runLength &+= 1
        } else {
            endRun()
            runValue = kept
            runLength = 1
        }
    }

    /// The run of equal values being counted: `runLength` times `runValue` (no run: length 0).
    private var runValue = UInt64.max
    private var runLength: UInt64 = 0

    /// Counts the current run: a single value in its pending bucket, a longer run straight into the settled counts.
    @inline(__always)
    private mutating func endRun() {
        if runLength == 1 {
            if let index = pending.add(runValue, layout: layout) { spill(index) }
        } else if runLength > 1 {
            if settled == nil { settled = BucketCounts(layout) }
            settled?.add(runValue, count: runLength)
        }
        runLength = 0
    }

    /// Moves a full bucket to the settled counts (its pending count is one short of overflowing).
    private mutating func spill(_ index: Int) {
        if settled == nil { settled = BucketCounts(layout) }
        settled?.add(index: index, count: pending.take(index, layout: layout), extremes: pending.extremes)
    }

    /// Moves every pending count to the settled counts; quantiles are read only after it.
    mutating func finish() {
        // A copy finishing (a tally copied before it was finished) counts its run into storage of its own.
        pending.makeUnique(layout)
        endRun()
        guard pending.total > 0 else { return }
        if settled == nil { settled = BucketCounts(layout) }
        pending.moveAll(into: &settled!)
    }

    /// Every value recorded, without changing this one (nil without values).
    private var flushed: BucketCounts? {
        guard pending.total > 0 || runLength > 0 else { return settled }
        var copy = settled ?? BucketCounts(layout)
        pending.copyAll(into: &copy)
        copy.add(runValue, count: runLength)
        return copy
    }

    mutating func merge(_ other: Quantiles) {
        guard let other = other.flushed else { return }
        finish()
        if settled == nil { settled = BucketCounts(layout) }
        settled?.add(other)
    }

    var count: UInt64 { (settled?.total ?? 0) + pending.total + runLength }

    /// The HdrHistogram of every value recorded, or nil without values: what a shard file stores (`TallyCoding.swift`).
    var recordedHistogram: Histogram<UInt64>? {
        flushed.map { $0.histogram(highest: highest, digits: digits) }
    }

    /// Quantiles holding `histogram` (made with this `highest` and `digits`): a shard file read back.
    init(highest: UInt64, digits: SignificantDigits, histogram: Histogram<UInt64>) {
        self.init(highest: highest, digits: digits)
        if histogram.totalCount > 0 { settled = BucketCounts(layout, histogram: histogram) }
    }

    /// The value at `percentile` (0–100), or nil without values. Call `finish()` first.
    func value(atPercentile percentile: Double) -> Int64? {
        guard let settled, settled.total > 0 else { return nil }
        return Int64(settled.value(atPercentile: percentile))
    }
}

/// A zeroed array of counts for `BucketCounts` and `PendingCounts`, shared by their copies until one changes it.
/// calloc gives zeroed pages that are made resident only where a statistic counts (its buckets span a few of the
/// 2.4 MB a 4-digit histogram up to an hour takes); should calloc fail, the counts are allocated and zeroed as Swift
/// allocates any array (which traps only where an array would).
final class ZeroedCounts<Count: FixedWidthInteger>: @unchecked Sendable {
    let counts: UnsafeMutablePointer<Count>
    private let fromCalloc: Bool

    init(length: Int) {
        if let memory = calloc(length, MemoryLayout<Count>.stride) {
            counts = memory.bindMemory(to: Count.self, capacity: length)
            fromCalloc = true
        } else {
            counts = UnsafeMutablePointer<Count>.allocate(capacity: length)
            counts.initialize(repeating: 0, count: length)
            fromCalloc = false
        }
    }

    deinit {
        if fromCalloc { free(counts) } else { counts.deallocate() }
    }
}

/// Counts of values by HdrHistogram bucket (`HistogramLayout`), 64 bits each, with the total and the exact extremes:
/// what an HdrHistogram keeps, so quantiles come out as the library's `valueAtPercentile` gives them. The counts are
/// copied on write, up to the largest value's bucket.
struct BucketCounts {
    let layout: HistogramLayout
    private var storage: ZeroedCounts<UInt64>
    private(set) var total: UInt64 = 0
    /// The smallest non-zero value (`.max` for none) and the largest value (0 for none).
    private(set) var minNonZero = UInt64.max
    private(set) var max: UInt64 = 0

    init(_ layout: HistogramLayout) {
        self.layout = layout
        storage = ZeroedCounts(length: layout.length)
    }

    /// The counts of an HdrHistogram with this layout (a shard read back).
    init(_ layout: HistogramLayout, histogram: Histogram<UInt64>) {
        self.init(layout)
        for bucket in histogram.recordedValues() {
            storage.counts[layout.index(of: bucket.value)] += bucket.count
        }
        total = histogram.totalCount
        // HdrHistogram's `min` is the exact smallest value when no 0 was recorded; its `minNonZero` is the lowest
        // value of that value's bucket. With a 0 the smallest is 0 whatever the rest (and a shard keeps no more).
        minNonZero = histogram.countForValue(0) == 0 ? histogram.min : histogram.minNonZero
        max = histogram.maxRecorded
    }

    /// Gives this value storage of its own before a change (a copy shares it until then).
    private mutating func makeUnique() {
        guard !isKnownUniquelyReferenced(&storage) else { return }
        let copy = ZeroedCounts<UInt64>(length: layout.length)
        if total > 0 { copy.counts.update(from: storage.counts, count: occupied.count) }
        storage = copy
    }

    /// Adds `count` values of bucket `index`, which lie within `extremes` (those of a larger set are fine).
    mutating func add(index: Int, count: UInt64, extremes: (minNonZero: UInt64, max: UInt64)) {
        guard count > 0 else { return }
        makeUnique()
        storage.counts[index] += count
        total += count
        minNonZero = Swift.min(minNonZero, extremes.minNonZero)
        max = Swift.max(max, extremes.max)
    }

    /// Adds `count` copies of one value.
    mutating func add(_ value: UInt64, count: UInt64) {
        add(index: layout.index(of: value), count: count, extremes: (value == 0 ? .max : value, value))
    }

    mutating func add(_ other: BucketCounts) {
        guard other.total > 0 else { return }
        makeUnique()
        let mine = storage.counts, theirs = other.storage.counts
        for index in other.occupied { mine[index] += theirs[index] }
        total += other.total
        minNonZero = Swift.min(minNonZero, other.minNonZero)
        max = Swift.max(max, other.max)
    }

    /// The buckets that can hold counts: from 0 (a 0 may have been counted) to the largest value's.
    private var occupied: ClosedRange<Int> { 0...layout.index(of: max) }

    /// HdrHistogram's `min`: 0 when a 0 was recorded (or nothing), else the smallest value.
    private var smallest: UInt64 { storage.counts[0] > 0 || total == 0 ? 0 : minNonZero }

    /// HdrHistogram's `valueAtPercentile`, step for step: the highest value equivalent to the bucket where the count
    /// reaches the percentile's rank, clamped to the exact extremes.
    func value(atPercentile percentile: Double) -> UInt64 {
        guard percentile != 0 else { return smallest }
        guard percentile < 100 else { return max }
        let requested = Swift.min(Swift.max(percentile.nextDown, 0), 100)
        let rank = Swift.max(1, UInt64((requested * Double(total) / 100).rounded(.up)))
        var running: UInt64 = 0
        let counts = storage.counts
        for index in occupied {
            running &+= counts[index]
            if running >= rank {
                let highest = layout.highestEquivalent(layout.value(at: index))
                return Swift.max(Swift.min(highest, max), smallest)
            }
        }
        return 0
    }

    /// The same values as an HdrHistogram (`HistogramLayout.record` keeps the extremes exact).
    func histogram(highest: UInt64, digits: SignificantDigits) -> Histogram<UInt64> {
        var histogram = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: highest,
                                          numberOfSignificantValueDigits: digits)
        let extremes = HistogramLayout.Extremes(
            minIndex: minNonZero == .max ? -1 : layout.index(of: minNonZero), maxIndex: max == 0 ? -1 : layout.index(of: max),
            minNonZero: minNonZero, max: max)
        for index in occupied where storage.counts[index] > 0 {
            layout.record(index: index, count: storage.counts[index], extremes: extremes, into: &histogram)
        }
        return histogram
    }
}

/// Values counted by bucket, 16 bits a bucket, with their exact extremes, until they move to `BucketCounts`.
///
/// The storage is a class so that counting is a plain increment, without a copy-on-write check per value: values
/// are recorded through the one `Quantiles` that owns it (debug builds check). A copy of a `Quantiles` (a tally read
/// by several views, a merge's argument) shares it and reads it; finishing or emptying buckets (`finish`, `take`,
/// `moveAll`, rare) first gives the copy doing it storage of its own when another copy still shares it.
struct PendingCounts {
    private var storage: ZeroedCounts<UInt16>?
    /// Values counted and not yet moved.
    private(set) var total: UInt64 = 0
    /// Whether a 0 was counted, the smallest non-zero and the largest value counted since the last move of all.
    private var zero = false
    private var minNonZero = UInt64.max
    private var max: UInt64 = 0

    /// Counts `value`; returns its bucket when that bucket is full (its count is `UInt16.max`, to be taken now).
    @inline(__always)
    mutating func add(_ value: UInt64, layout: HistogramLayout) -> Int? {
        if storage == nil { storage = ZeroedCounts(length: layout.length) }
        assert(isKnownUniquelyReferenced(&storage), "PendingCounts counted into through a copy")
        let counts = storage.unsafelyUnwrapped.counts
        let index = layout.index(of: value)
        if value == 0 { zero = true } else if value < minNonZero { minNonZero = value }
        if value > max { max = value }
        total &+= 1
        let count = counts[index] &+ 1
        counts[index] = count
        return count == UInt16.max ? index : nil
    }

    /// The extremes of the values counted since the last move of all.
    var extremes: (minNonZero: UInt64, max: UInt64) { (minNonZero, max) }

    /// Gives this value storage of its own, with the same counts, when a copy still shares it.
    mutating func makeUnique(_ layout: HistogramLayout) {
        // Checked before anything else holds a reference to the storage (a binding would be one).
        guard storage != nil, !isKnownUniquelyReferenced(&storage) else { return }
        let shared = storage.unsafelyUnwrapped
        let own = ZeroedCounts<UInt16>(length: layout.length)
        if let range = occupied(layout) {
            (own.counts + range.lowerBound).update(from: shared.counts + range.lowerBound, count: range.count)
        }
        storage = own
    }

    /// Empties one bucket and returns its count.
    mutating func take(_ index: Int, layout: HistogramLayout) -> UInt64 {
        makeUnique(layout)
        guard let storage else { return 0 }
        let count = UInt64(storage.counts[index])
        storage.counts[index] = 0
        total -= count
        return count
    }

    /// The buckets that can hold counts: from the smallest value's to the largest's.
    private func occupied(_ layout: HistogramLayout) -> ClosedRange<Int>? {
        guard total > 0 else { return nil }
        return (zero ? 0 : layout.index(of: minNonZero))...layout.index(of: max)
    }

    /// Adds every count to `counts` and empties the buckets.
    mutating func moveAll(into counts: inout BucketCounts) {
        let layout = counts.layout
        copyAll(into: &counts)
        makeUnique(layout)
        if let storage, let range = occupied(layout) {
            (storage.counts + range.lowerBound).update(repeating: 0, count: range.count)
        }
        total = 0
        zero = false
        minNonZero = .max
        max = 0
    }

    /// Adds every count to `counts`, leaving these as they are.
    func copyAll(into counts: inout BucketCounts) {
        guard let storage, let range = occupied(counts.layout) else { return }
        for index in range where storage.counts[index] != 0 {
            counts.add(index: index, count: UInt64(storage.counts[index]), extremes: extremes)
        }
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
        users &+= 1
        accidentalUsers &+= 1
        if fired { falseActivations &+= 1 }
    }

    /// Counts one person's run.
    @inline(__always)
    mutating func add(_ run: UserRun) {
        add(CountedHold(run))
    }

    /// Counts one person's hold.
    @inline(__always)
    mutating func add(_ hold: CountedHold) {
        add(hold.summary, outcome: hold.outcome, pressEnd: hold.pressEnd, trigger: hold.trigger, hasFill: hold.hasFill)
    }

    /// Counts one person's hold: its summary and outcome, when the press ended, the trigger instant (`.max` for
    /// never) and whether the control has a fill. Sums use wrapping arithmetic: they are exact integers that cannot
    /// overflow (see `completionTimeSquares`), so the overflow checks would only cost instructions on every person.
    @inline(__always)
    mutating func add(_ hold: HoldSummary, outcome: UserOutcome, pressEnd: Int64, trigger: Int64, hasFill: Bool) {
        switch outcome {
        case .falseActivation, .noActivation:
            addAccidental(fired: outcome == .falseActivation)
            return
        case .completed: completed &+= 1
        case .prematureRelease: prematureRelease &+= 1
        case .prematureImpatience: prematureRelease &+= 1; prematureImpatience &+= 1
        case .prematureMismatch: prematureRelease &+= 1; prematureMismatch &+= 1
        case .movementCancel: movementCancels &+= 1
        }
        users &+= 1
        intentUsers &+= 1
        holdTime.record(microseconds(nonNegativeNanoseconds: pressEnd))
        if hold.feedback != .max {
            let value = Int128(microseconds(nonNegativeNanoseconds: hold.feedback))
            firstFeedbackSum &+= value
            firstFeedbackSquares &+= value &* value
            firstFeedbackCount &+= 1
        } else {
            noFeedback &+= 1
        }
        if hold.firstEmptyFrame != .max {
            let value = Int128(microseconds(nonNegativeNanoseconds: hold.firstEmptyFrame &- pressEnd))
            retractSum &+= value
            retractSquares &+= value &* value
            retractCount &+= 1
        }
        guard hold.completed, trigger != .max else { return }
        if hasFill {
            completedWithFill &+= 1
            if hold.firstFullFrameSeen == .max { completedUnseen &+= 1 }
        }
        let time = microseconds(nonNegativeNanoseconds: trigger)
        completionTimeSum &+= Int128(time)
        completionTimeSquares &+= Int128(time) &* Int128(time)
        completionTime.record(time)
        let pulseCount = hold.pulses
        pulsesSum &+= pulseCount
        pulsesSquares &+= Int128(pulseCount) &* Int128(pulseCount)
        pulses.record(Int64(pulseCount))
        if pulseCount > pulsesMax { pulsesMax = pulseCount }
        let dropped = hold.droppedPulses
        if dropped != 0 {
            droppedPulsesSum &+= dropped
            droppedPulsesSquares &+= Int128(dropped) &* Int128(dropped)
        }
        if hold.shortestPulseGap != .max {
            let rate = Instant.perSecond / Double(max(1, hold.shortestPulseGap))
            peakPulseRateHz = max(peakPulseRateHz ?? rate, rate)
        }
        if hold.firstFullFrameSeen != .max {
            let gap = trigger - hold.firstFullFrameSeen
            let value = microseconds(nanoseconds: gap)
            mismatchSum &+= Int128(value)
            mismatchSquares &+= Int128(value) &* Int128(value)
            mismatch.record(value)
            let seconds = Instant.seconds(gap)
            if seconds > mismatchMax { mismatchMax = seconds }
        }
        let progress = hold.displayedProgressAtTrigger
        let value = Int128(billionths(progress))
        progressAtTriggerSum &+= value
        progressAtTriggerSquares &+= value &* value
        progressAtTriggerCount &+= 1
        if progress < progressAtTriggerMin { progressAtTriggerMin = progress }
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
