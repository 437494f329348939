import Foundation
import Histogram

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

    /// Adds every value of `other` (which stays as it is) to these, bucket by bucket: its settled counts, its pending
    /// ones and its current run, without a flushed copy of it (a fresh histogram a merge).
    mutating func merge(_ other: Quantiles) {
        guard other.count > 0 else { return }
        finish()
        if settled == nil { settled = BucketCounts(layout) }
        if let theirs = other.settled { settled!.add(theirs) }
        other.pending.copyAll(into: &settled!)
        settled!.add(other.runValue, count: other.runLength)
    }

    var count: UInt64 { (settled?.total ?? 0) + pending.total + runLength }

    /// `BucketCounts.sumBounds` of every value recorded (0 to 0 without values).
    func sumBounds() -> SumBounds { flushed?.sumBounds() ?? SumBounds() }

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
///
/// The counts are mapped from the kernel (anonymous `mmap`), whose zeroed pages become resident only where a
/// statistic counts: its buckets span a few of the 4 MB a 4-digit histogram of times up to 10⁷ s takes. calloc did
/// the same only until glibc's first free of such a block, which raises its mmap threshold above it: from then on
/// every histogram came from the heap and was cleared whole, 4 MB a statistic, and `--precision` (a fresh tally a
/// chunk) spent more time in page faults than in simulating (148,000 faults for 9 sweep points, 415,000 with two
/// threads, against 8,500 without `--precision`). Should the mapping fail, the counts are allocated and zeroed as
/// Swift allocates any array (which traps only where an array would).
final class ZeroedCounts<Count: FixedWidthInteger>: @unchecked Sendable {
    let counts: UnsafeMutablePointer<Count>
    /// The mapping's length in bytes; 0 for counts Swift allocated.
    private let mappedBytes: Int

    init(length: Int) {
        let bytes = max(1, length) * MemoryLayout<Count>.stride
        let memory = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        if let memory, memory != MAP_FAILED {
            counts = memory.bindMemory(to: Count.self, capacity: length)
            mappedBytes = bytes
        } else {
            counts = UnsafeMutablePointer<Count>.allocate(capacity: length)
            counts.initialize(repeating: 0, count: length)
            mappedBytes = 0
        }
    }

    deinit {
        if mappedBytes > 0 { munmap(counts, mappedBytes) } else { counts.deallocate() }
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
    /// The lowest bucket that holds a count (`Int.max` for none): every bucket below it is 0, so reading and
    /// merging start there. A chunk's histogram holds a few buckets high in its 4 MB; reading it from bucket 0
    /// faulted in some 140 untouched pages a statistic for each chunk that `--precision` folds.
    private var lowestIndex = Int.max

    init(_ layout: HistogramLayout) {
        self.layout = layout
        storage = ZeroedCounts(length: layout.length)
    }

    /// The counts of an HdrHistogram with this layout (a shard read back).
    init(_ layout: HistogramLayout, histogram: Histogram<UInt64>) {
        self.init(layout)
        for bucket in histogram.recordedValues() {
            let index = layout.index(of: bucket.value)
            storage.counts[index] += bucket.count
            lowestIndex = Swift.min(lowestIndex, index)
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
        let range = occupied
        if !range.isEmpty { (copy.counts + range.lowerBound).update(from: storage.counts + range.lowerBound, count: range.count) }
        storage = copy
    }

    /// Adds `count` values of bucket `index`, which lie within `extremes` (those of a larger set are fine).
    mutating func add(index: Int, count: UInt64, extremes: (minNonZero: UInt64, max: UInt64)) {
        guard count > 0 else { return }
        makeUnique()
        storage.counts[index] += count
        total += count
        lowestIndex = Swift.min(lowestIndex, index)
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
        lowestIndex = Swift.min(lowestIndex, other.lowestIndex)
        minNonZero = Swift.min(minNonZero, other.minNonZero)
        max = Swift.max(max, other.max)
    }

    /// The buckets that can hold counts: from the lowest that does to the largest value's (none without counts).
    private var occupied: Range<Int> { lowestIndex == .max ? 0..<0 : lowestIndex..<(layout.index(of: max) + 1) }

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

    /// What the values these counts hold can sum to, and their squares: each bucket's count times the least and the
    /// greatest value of its range (within the exact extremes). Every value lies in its bucket, so its sums lie within
    /// these (a merge's test of a shard's sums: `Tally.inconsistency`).
    func sumBounds() -> SumBounds {
        var bounds = SumBounds()
        let counts = storage.counts, least = smallest
        for index in occupied where counts[index] > 0 {
            let first = layout.value(at: index)
            let low = Int128(Swift.max(first, least)), high = Int128(Swift.min(layout.highestEquivalent(first), max))
            // A file's bucket count may be any UInt64: Int128 holds it (an Int conversion would trap).
            let bucket = SumBounds.each(count: Int128(counts[index]), from: low, to: high)
            bounds.sum = (SumBounds.sum(bounds.sum.low, bucket.sum.low), SumBounds.sum(bounds.sum.high, bucket.sum.high))
            bounds.squares = (SumBounds.sum(bounds.squares.low, bucket.squares.low),
                              SumBounds.sum(bounds.squares.high, bucket.squares.high))
        }
        return bounds
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

/// The least and greatest sum of values, and of their squares, that histogram counts allow (`BucketCounts.sumBounds`).
struct SumBounds {
    var sum: (low: Int128, high: Int128) = (0, 0)
    var squares: (low: Int128, high: Int128) = (0, 0)

    /// `count` values, each from `low` to `high`.
    static func each(count n: Int128, from low: Int128, to high: Int128) -> SumBounds {
        let least = low < 0 && high > 0 ? 0 : Swift.min(product(low, low), product(high, high))
        return SumBounds(sum: (product(n, low), product(n, high)),
                         squares: (product(n, least), product(n, Swift.max(product(low, low), product(high, high)))))
    }

    /// Whether `total` and `squares` lie within the bounds: exact, in integers (a Σy² one above what 6,163 values of
    /// exactly 1 s can give passed the slack a bound in doubles needed).
    func holds(sum total: Int128, squares square: Int128) -> (sum: Bool, squares: Bool) {
        (total >= sum.low && total <= sum.high, square >= squares.low && square <= squares.high)
    }

    /// `a · b`, or the nearest end of Int128's range when that overflows: a bound beyond it is one no tally's Int128
    /// sum can pass (an upper one) or reach (a lower one), as the exact bound.
    static func product(_ a: Int128, _ b: Int128) -> Int128 {
        let (value, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? ((a < 0) != (b < 0) ? .min : .max) : value
    }

    /// `a + b`, saturated as `product`.
    static func sum(_ a: Int128, _ b: Int128) -> Int128 {
        let (value, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b < 0 ? .min : .max) : value
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

    /// `Quantiles.sumBounds` of all values: the negatives' magnitudes subtract, their squares add.
    func sumBounds() -> SumBounds {
        let minus = negative.sumBounds(), plus = positive.sumBounds()
        var bounds = SumBounds()
        // Saturated as the bounds are (`SumBounds.product`): a negation of Int128.min is its max.
        func negated(_ value: Int128) -> Int128 { value == .min ? .max : -value }
        bounds.sum = (SumBounds.sum(plus.sum.low, negated(minus.sum.high)), SumBounds.sum(plus.sum.high, negated(minus.sum.low)))
        bounds.squares = (SumBounds.sum(plus.squares.low, minus.squares.low), SumBounds.sum(plus.squares.high, minus.squares.high))
        return bounds
    }

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
