import Histogram

/// The bucket layout of an HdrHistogram with lowest discernible value 1 and `digits` significant digits: the same
/// arithmetic as HdrHistogram's `countsArrayIndex` and `valueFromIndex`, so counts kept by bucket index outside a
/// histogram (a shard's encoding, `Quantiles`' pending counts) go back into one exactly.
struct HistogramLayout: Sendable {
    let subBucketHalfCountMagnitude: Int
    let subBucketHalfCount: Int
    let subBucketMask: UInt64
    let leadingZeroCountBase: Int
    /// The counts array length for values up to `highest`.
    let length: Int

    init(digits: Int, highest: UInt64) {
        var largest: UInt64 = 2
        for _ in 0..<digits { largest *= 10 }
        let subBucketCountMagnitude = Int(Double.log2(Double(largest)).rounded(.up))
        subBucketHalfCountMagnitude = max(subBucketCountMagnitude, 1) - 1
        subBucketHalfCount = 1 << subBucketHalfCountMagnitude
        let subBucketCount = UInt64(1) << UInt64(subBucketCountMagnitude)
        subBucketMask = subBucketCount - 1
        leadingZeroCountBase = 64 - subBucketCountMagnitude
        var smallestUntrackable = subBucketCount
        var buckets = 1
        while smallestUntrackable <= highest {
            if smallestUntrackable > UInt64.max / 2 { buckets += 1; break }
            smallestUntrackable <<= 1
            buckets += 1
        }
        length = (buckets + 1) * subBucketHalfCount
    }

    @inline(__always)
    func index(of value: UInt64) -> Int {
        let bucket = leadingZeroCountBase &- (value | subBucketMask).leadingZeroBitCount
        let subBucket = Int(truncatingIfNeeded: value &>> UInt64(bucket))
        return ((bucket &+ 1) &<< subBucketHalfCountMagnitude) &+ subBucket &- subBucketHalfCount
    }

    func value(at index: Int) -> UInt64 {
        var bucket = (index >> subBucketHalfCountMagnitude) - 1
        var subBucket = (index & (subBucketHalfCount - 1)) + subBucketHalfCount
        if bucket < 0 {
            subBucket -= subBucketHalfCount
            bucket = 0
        }
        return UInt64(subBucket) << UInt64(bucket)
    }

    /// HdrHistogram's `highestEquivalentForValue` for a bucket's lowest value: the last value the bucket holds.
    func highestEquivalent(_ value: UInt64) -> UInt64 {
        let bucket = leadingZeroCountBase &- (value | subBucketMask).leadingZeroBitCount
        let subBucket = value >> UInt64(bucket)
        // A value past the top of its bucket's sub-buckets is counted in the next bucket, twice as wide (the
        // library's rule; a bucket's lowest value, all this is given, never is).
        let width = UInt64(1) << UInt64(subBucket >= subBucketMask + 1 ? bucket + 1 : bucket)
        return value + width - 1
    }

    /// The exact smallest non-zero and largest values of some counts, and their buckets (−1 for none).
    struct Extremes {
        var minIndex: Int
        var maxIndex: Int
        var minNonZero: UInt64
        var max: UInt64
    }

    /// Records `count` values of bucket `index` into `histogram` so that its extremes come out exact: bucket 0 holds
    /// only 0; the smallest non-zero value's bucket records that value and the largest value's bucket that value (the
    /// one bucket holding both records the largest once and the smallest for the rest); any other bucket records its
    /// lowest value. A histogram keeps counts per bucket and the extremes of what it was given, so recording every
    /// bucket this way rebuilds the histogram the values themselves would have made.
    func record(index: Int, count: UInt64, extremes: Extremes, into histogram: inout Histogram<UInt64>) {
        if index == 0 {
            histogram.record(0, count: count)
        } else if index == extremes.minIndex && index == extremes.maxIndex {
            if count > 1 { histogram.record(extremes.minNonZero, count: count - 1) }
            histogram.record(extremes.max, count: 1)
        } else if index == extremes.minIndex {
            histogram.record(extremes.minNonZero, count: count)
        } else if index == extremes.maxIndex {
            histogram.record(extremes.max, count: count)
        } else {
            histogram.record(value(at: index), count: count)
        }
    }
}
