import Testing
@testable import HoldSimulation

@Suite("Tallies read from shards merge with overflow checks")
struct TallyMergeTests {
    /// A tally as a shard holds it, with one column changed.
    static func tally(_ column: String, _ value: String) throws -> Tally {
        var values = TallyCoding.encode(Tally())
        let index = try #require(TallyCoding.columns.firstIndex(of: column))
        values[index] = value
        return try TallyCoding.decode(values)
    }

    @Test("counts, sums, squares and value counts that would overflow are named and leave the tally unchanged",
          arguments: [("users", "\(Int.max)"), ("completion_time_sum_us", "\(Int128.max)"),
                      ("retract_squares_us2", "\(Int128.max)"), ("first_feedback_count", "\(Int.max)")])
    func overflow(column: String, value: String) throws {
        var merged = try Self.tally(column, value)
        let before = TallyCoding.encode(merged)
        let problem = merged.merge(checking: try Self.tally(column, value))
        #expect(problem != nil)
        #expect(TallyCoding.encode(merged) == before)
    }

    @Test("a negative sum past Int128's minimum overflows too; ordinary tallies merge as merge does")
    func negativeAndOrdinary() throws {
        var low = try Self.tally("mismatch_sum_us", "\(Int128.min)")
        #expect(low.merge(checking: try Self.tally("mismatch_sum_us", "-1"))?.contains("mismatch") == true)
        var a = try Self.tally("users", "7"), b = a
        #expect(a.merge(checking: try Self.tally("users", "5")) == nil)
        b.merge(try Self.tally("users", "5"))
        #expect(a[.user] == 12 && TallyCoding.encode(a) == TallyCoding.encode(b))
    }

    @Test("a histogram of more than Int.max values is refused as it is read")
    func histogramTotal() {
        #expect(throws: TallyCoding.ColumnError.self) { try Self.tally("hold_time_us_count", "\(UInt64.max)") }
    }
}
