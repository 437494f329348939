import Foundation
import Histogram

/// HdrHistogram's standard V2 encoding, so a shard's histograms are data any HdrHistogram library reads rather
/// than a Swift dump: big-endian, a 40-byte header (cookie `0x1c849313`, payload length, normalizing index offset
/// 0, significant digits, lowest discernible value, highest trackable value, integer-to-double ratio 1.0), then
/// the counts from index 0 to the index of the largest value as ZigZag LEB128 integers (at most 9 bytes, the
/// ninth whole), a run of n > 1 empty buckets written as −n. This is the uncompressed form of HdrHistogram's
/// `encodeIntoByteBuffer` (Java's `decodeFromByteBuffer` reads it); shards carry it in base64.
///
/// The encoding keeps bucket counts, and quantiles also read the exact smallest non-zero and largest values
/// recorded, so a shard writes those beside it and `decode` rebuilds a histogram equal (`==`) to the one encoded.
enum HistogramCoding {
    static let cookie: UInt32 = 0x1c84_9313
    static let headerBytes = 40

    /// What was wrong with an encoded histogram (the caller adds where it was).
    struct DecodingError: Error { let reason: String }

    /// The V2 bytes of `histogram` (lowest discernible value 1).
    static func encode(_ histogram: Histogram<UInt64>) -> [UInt8] {
        let layout = HistogramLayout(digits: Int(histogram.numberOfSignificantValueDigits.rawValue), highest: histogram.highestTrackableValue)
        var sparse: [(index: Int, count: UInt64)] = []
        for bucket in histogram.recordedValues() {
            sparse.append((layout.index(of: bucket.value), bucket.count))
        }
        var payload: [UInt8] = []
        var next = 0
        for (index, count) in sparse {
            let zeros = index - next
            if zeros == 1 { putZigZag(0, into: &payload) } else if zeros > 1 { putZigZag(-Int64(zeros), into: &payload) }
            putZigZag(Int64(count), into: &payload)
            next = index + 1
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(headerBytes + payload.count)
        putBigEndian(UInt64(cookie), bytes: 4, into: &bytes)
        putBigEndian(UInt64(payload.count), bytes: 4, into: &bytes)
        putBigEndian(0, bytes: 4, into: &bytes)
        putBigEndian(UInt64(histogram.numberOfSignificantValueDigits.rawValue), bytes: 4, into: &bytes)
        putBigEndian(histogram.lowestDiscernibleValue, bytes: 8, into: &bytes)
        putBigEndian(histogram.highestTrackableValue, bytes: 8, into: &bytes)
        putBigEndian((1.0 as Double).bitPattern, bytes: 8, into: &bytes)
        return bytes + payload
    }

    /// Rebuilds a histogram from its V2 bytes and its exact smallest non-zero and largest values, checking that it
    /// has the configuration `highest`/`digits` and `total` values, and that the extremes lie in the first and
    /// last occupied buckets. Equal (`==`) to the histogram `encode` was given.
    static func decode(
        _ bytes: [UInt8], minNonZero: UInt64, max maxValue: UInt64, total: UInt64, highest: UInt64, digits: SignificantDigits
    ) throws(DecodingError) -> Histogram<UInt64> {
        guard bytes.count >= headerBytes else { throw DecodingError(reason: "shorter than the 40-byte header") }
        var offset = 0
        func read(_ count: Int) -> UInt64 {
            var value: UInt64 = 0
            for _ in 0..<count { value = value << 8 | UInt64(bytes[offset]); offset += 1 }
            return value
        }
        guard read(4) == UInt64(cookie) else { throw DecodingError(reason: "not an uncompressed V2 HdrHistogram (cookie)") }
        let length = read(4)
        guard read(4) == 0 else { throw DecodingError(reason: "a normalizing index offset other than 0") }
        guard read(4) == UInt64(digits.rawValue) else { throw DecodingError(reason: "not \(digits.rawValue) significant digits") }
        guard read(8) == 1 else { throw DecodingError(reason: "a lowest discernible value other than 1") }
        guard read(8) == highest else { throw DecodingError(reason: "a highest trackable value other than \(highest)") }
        guard read(8) == (1.0 as Double).bitPattern else { throw DecodingError(reason: "a conversion ratio other than 1") }
        guard length == UInt64(bytes.count - headerBytes) else {
            throw DecodingError(reason: "payload of \(bytes.count - headerBytes) bytes where the header says \(length)")
        }
        let layout = HistogramLayout(digits: Int(digits.rawValue), highest: highest)
        var counts: [(index: Int, count: UInt64)] = []
        var index = 0
        var sum: UInt64 = 0
        while offset < bytes.count {
            guard let value = zigZag(bytes, &offset) else { throw DecodingError(reason: "a count cut off") }
            if value < 0 {
                guard value >= -Int64(layout.length) else { throw DecodingError(reason: "a run of empty buckets beyond the range") }
                index += Int(-value)
            } else {
                guard index < layout.length else { throw DecodingError(reason: "counts beyond the highest trackable value") }
                if value > 0 {
                    let (added, overflow) = sum.addingReportingOverflow(UInt64(value))
                    guard !overflow else { throw DecodingError(reason: "counts overflow") }
                    sum = added
                    counts.append((index, UInt64(value)))
                }
                index += 1
            }
            guard index <= layout.length else { throw DecodingError(reason: "counts beyond the highest trackable value") }
        }
        guard sum == total else { throw DecodingError(reason: "\(sum) values where the shard says \(total)") }
        let nonZero = counts.filter { $0.index > 0 }
        if let first = nonZero.first, let last = nonZero.last {
            guard minNonZero > 0, minNonZero <= maxValue, maxValue <= highest,
                  layout.index(of: minNonZero) == first.index, layout.index(of: maxValue) == last.index else {
                throw DecodingError(reason: "minimum \(minNonZero) and maximum \(maxValue) are not in the first and last occupied buckets")
            }
            if first.index == last.index && first.count == 1 && minNonZero != maxValue {
                throw DecodingError(reason: "one value with a minimum \(minNonZero) and a different maximum \(maxValue)")
            }
        } else {
            guard maxValue == 0, minNonZero == UInt64.max else {
                throw DecodingError(reason: "no non-zero values, yet a minimum \(minNonZero) and maximum \(maxValue)")
            }
        }
        var histogram = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: highest, numberOfSignificantValueDigits: digits)
        let extremes = HistogramLayout.Extremes(
            minIndex: nonZero.first?.index ?? -1, maxIndex: nonZero.last?.index ?? -1, minNonZero: minNonZero, max: maxValue)
        for (index, count) in counts { layout.record(index: index, count: count, extremes: extremes, into: &histogram) }
        return histogram
    }

    private static func putBigEndian(_ value: UInt64, bytes: Int, into buffer: inout [UInt8]) {
        for shift in stride(from: (bytes - 1) * 8, through: 0, by: -8) { buffer.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// HdrHistogram's ZigZagEncoding.putLong: LEB128 of the ZigZag value, at most 9 bytes, the ninth holding 8 bits.
    static func putZigZag(_ signed: Int64, into buffer: inout [UInt8]) {
        var value = UInt64(bitPattern: (signed << 1) ^ (signed >> 63))
        for _ in 0..<8 {
            if value < 0x80 { buffer.append(UInt8(value)); return }
            buffer.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        buffer.append(UInt8(truncatingIfNeeded: value))
    }

    static func zigZag(_ bytes: [UInt8], _ offset: inout Int) -> Int64? {
        var value: UInt64 = 0
        for position in 0..<9 {
            guard offset < bytes.count else { return nil }
            let byte = bytes[offset]
            offset += 1
            if position == 8 {
                value |= UInt64(byte) << 56
                break
            }
            value |= UInt64(byte & 0x7F) << UInt64(7 * position)
            if byte & 0x80 == 0 { break }
        }
        return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }
}
