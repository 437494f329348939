import Foundation
import Histogram
import HoldLabTestSupport
import Testing
import HoldProfiles
@testable import HoldSimulation

@Suite("shards: exact tallies, HdrHistogram V2, shard files")
struct ShardTests {
    /// A histogram configured as Tally's time histograms.
    static func histogram() -> Histogram<UInt64> {
        Histogram(lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .four)
    }

    static func roundTrip(_ histogram: Histogram<UInt64>) throws -> Histogram<UInt64> {
        let minimum = histogram.countForValue(0) == 0 ? histogram.min : histogram.minNonZero
        return try HistogramCoding.decode(
            HistogramCoding.encode(histogram), minNonZero: histogram.totalCount == histogram.countForValue(0) ? UInt64.max : minimum,
            max: histogram.maxRecorded, total: histogram.totalCount, highest: 3_600_000_000, digits: .four)
    }

    @Test("V2 bytes of a small histogram are HdrHistogram's: header, ZigZag LEB128 counts, runs of zeros as −n")
    func goldenBytes() {
        var histogram = Self.histogram()
        histogram.record(1, count: 3)
        histogram.record(5, count: 1)
        let hex = HistogramCoding.encode(histogram).map { String(format: "%02x", $0) }.joined()
        // cookie 1c849313, payload 4 bytes, offset 0, 4 digits, lowest 1, highest 3,600,000,000 (d693a400), ratio
        // 1.0; counts: index 0 empty (0), index 1 three (zigzag 6), indexes 2–4 empty (−3: zigzag 5), index 5 one (2).
        #expect(hex == "1c849313" + "00000004" + "00000000" + "00000004" + "0000000000000001" + "00000000d693a400"
            + "3ff0000000000000" + "00060502")
    }

    @Test("ZigZag LEB128 round-trips the extremes, the ninth byte holding 8 bits")
    func zigZag() {
        for value: Int64 in [0, 1, -1, 63, -64, 64, 1 << 35, -(1 << 40), Int64.max, Int64.min] {
            var bytes: [UInt8] = []
            HistogramCoding.putZigZag(value, into: &bytes)
            #expect(bytes.count <= 9)
            var offset = 0
            #expect(HistogramCoding.zigZag(bytes, &offset) == value && offset == bytes.count)
        }
    }

    @Test("the bucket layout is the library's: every value's bucket, and each bucket's lowest value")
    func layout() {
        let layout = HistogramLayout(digits: 4, highest: 3_600_000_000)
        var histogram = Self.histogram()
        var state: UInt64 = 12345
        for _ in 0..<2000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let value = (state >> 20) % 3_600_000_000 >> ((state >> 5) % 30)
            let index = layout.index(of: value)
            let low = layout.value(at: index)
            #expect(low == histogram.lowestEquivalentForValue(value), "value \(value)")
            #expect(layout.index(of: low) == index)
        }
        histogram.record(3_600_000_000)
        #expect(layout.index(of: 3_600_000_000) < layout.length)
    }

    @Test("a histogram read back equals the one written: counts, exact minimum and maximum, every quantile")
    func histogramRoundTrip() throws {
        var state: UInt64 = 7
        for withZeros in [false, true] {
            var histogram = Self.histogram()
            for _ in 0..<5000 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                histogram.record((state >> 33) % 2_000_000 + (withZeros ? 0 : 17), count: 1 + (state >> 60))
            }
            if withZeros { histogram.record(0, count: 40) }
            let back = try Self.roundTrip(histogram)
            #expect(back == histogram)
            #expect(back.maxRecorded == histogram.maxRecorded && back.min == histogram.min)
            for percentile in stride(from: 0.0, through: 100.0, by: 0.5) {
                #expect(back.valueAtPercentile(percentile) == histogram.valueAtPercentile(percentile), "p\(percentile)")
            }
        }
        var one = Self.histogram()
        one.record(123_457)
        #expect(try Self.roundTrip(one) == one)
        #expect(try Self.roundTrip(one).valueAtPercentile(50) == 123_457)
    }

    @Test("damaged V2 bytes are refused, never trapped on")
    func damagedHistogram() {
        var histogram = Self.histogram()
        histogram.record(1000, count: 5)
        histogram.record(90_000, count: 2)
        let bytes = HistogramCoding.encode(histogram)
        func decode(_ bytes: [UInt8], total: UInt64 = 7, min: UInt64 = 1000, max: UInt64 = 90_000) -> Bool {
            (try? HistogramCoding.decode(bytes, minNonZero: min, max: max, total: total, highest: 3_600_000_000, digits: .four)) != nil
        }
        #expect(decode(bytes))
        #expect(!decode(Array(bytes.prefix(30))))
        #expect(!decode(Array(bytes.dropLast())))
        #expect(!decode(bytes, total: 8))
        #expect(!decode(bytes, min: 5))
        #expect(!decode(bytes, max: 200_000))
        var cookie = bytes
        cookie[3] = 0x14
        #expect(!decode(cookie))
        var huge = Array(bytes.prefix(40))
        HistogramCoding.putZigZag(-Int64(1) << 40, into: &huge)
        HistogramCoding.putZigZag(1, into: &huge)
        huge[7] = UInt8(huge.count - 40)
        #expect(!decode(huge, total: 1))
    }

    @Test("the shard format covers every event and every kept aggregate of a tally, in format 2's column order")
    func everyField() {
        let fields = TallyCoding.fields
        for event in HoldEvent.allCases {
            #expect(fields.contains { if case .count(event) = $0 { true } else { false } }, "\(event)")
        }
        for value in HoldValue.allCases {
            if value.keepsMean {
                #expect(fields.contains { if case .sum(value) = $0 { true } else { false } }, "\(value) sum")
                #expect(fields.contains { if case .squares(value) = $0 { true } else { false } }, "\(value) squares")
            }
            if value.quantiles != nil {
                #expect(fields.contains { if case .quantiles(value) = $0 { true } else { false } }, "\(value) quantiles")
            }
            if value.keepsMaximum || value.keepsMinimum {
                #expect(fields.contains {
                    switch $0 {
                    case .maximumCount(value), .extreme(value), .optionalExtreme(value): true
                    default: false
                    }
                }, "\(value) extreme")
            }
        }
        #expect(Set(TallyCoding.columns).count == TallyCoding.columns.count)
        // Format 2's header, as every shard written since has it (a changed layout would not merge with them).
        #expect(TallyCoding.columns.prefix(12).joined(separator: ",") == "users,intent_users,completed,premature_release,"
            + "premature_impatience,premature_mismatch,movement_cancels,accidental_users,false_activations,"
            + "completion_time_sum_us,completion_time_squares_us2,completion_time_us_count")
        #expect(TallyCoding.columns.count == 53)
    }

    @Test("values that keep a mean come first: their raw value is their lane in a person's record (8 lanes)")
    func meanLanes() {
        #expect(HoldValue.meanValues.map(\.rawValue) == Array(0..<HoldValue.meanValues.count))
        #expect(HoldValue.meanValues.count <= 8)
        #expect(HoldEvent.allCases.count <= 16 && HoldValue.allCases.count <= 16)
    }

    @Test("tallies of chunk ranges, written and read back and merged, give the unsharded summary exactly")
    func shardedTallies() throws {
        let library = Make.library
        let profiles = try ["hig-linear-bar", "kikocard-article-latency", "mismatched-fill", "static-long-press"].map {
            try library.loadProfile($0)
        }
        let population = try library.loadPopulation("default")
        let request = SimulationRequest(profiles: profiles, population: population, users: 20_000, seed: 5, threads: 2)
        let whole = try Simulator.run(request).map(SimulationCSV.row)
        let chunks = Simulator.chunkCount(users: request.users)
        for count in [1, 2, 5] {
            var merged: [Tally]?
            for index in 1...count {
                let range = try ShardSpec(index: index, count: count).range(of: chunks)
                let tallies = try Simulator.tallies(request, chunks: range).map { tally in
                    let fields = TallyCoding.encode(tally)
                    #expect(fields.count == TallyCoding.columns.count)
                    return try TallyCoding.decode(fields)
                }
                if merged == nil {
                    merged = tallies
                } else {
                    for position in tallies.indices { merged?[position].merge(tallies[position]) }
                }
            }
            let rows = zip(profiles, merged ?? []).map {
                SimulationCSV.row(SimulationSummary(profile: $0.name, population: population.name, seed: 5, tally: $1))
            }
            #expect(rows == whole, "\(count) shards")
        }
    }

    @Test("shards cover the units once, in order, sizes within one")
    func ranges() throws {
        for total in [1, 7, 64, 2442] {
            for count in [1, 3, 8, 64] where count <= total {
                let ranges = try (1...count).map { try ShardSpec(index: $0, count: count).range(of: total) }
                #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == total)
                for (a, b) in zip(ranges, ranges.dropFirst()) { #expect(a.upperBound == b.lowerBound) }
                let sizes = ranges.map(\.count)
                #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1 && (sizes.min() ?? 0) >= 1)
            }
        }
        #expect(throws: ShardError.self) { try ShardSpec(parsing: "0/3") }
        #expect(throws: ShardError.self) { try ShardSpec(parsing: "4/3") }
        #expect(throws: ShardError.self) { try ShardSpec(parsing: "3") }
        #expect(throws: ShardError.self) { try ShardSpec(parsing: "a/b") }
        #expect(throws: ShardError.self) { try ShardSpec(index: 9, count: 8).check(units: 4, what: "points") }
        #expect(throws: ShardError.self) { try ShardSpec(index: 1, count: 5).check(units: 4, what: "points") }
    }
}
