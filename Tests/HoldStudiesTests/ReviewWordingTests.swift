@testable import HoldStudies
import Testing

@Suite("report: the words of its findings")
struct ReviewWordingTests {
    @Test("an interval of people per 100 that crosses 0 says both directions, never a negative number of fewer",
          arguments: [(0.003, 0.012, "fewer", "0.3 to 1.2 fewer"), (-0.002, 0.012, "fewer", "0.2 more to 1.2 fewer"),
                      (-0.002, 0.012, "more", "0.2 fewer to 1.2 more"), (0, 0.012, "more", "0.0 to 1.2 more")])
    func crossingInterval(near: Double, far: Double, words: String, text: String) {
        #expect(ReviewArgumentText.interval(near, far, words) == text)
    }
}

extension ReviewWordingTests {
    @Test("a difference and its interval per 100 take the decimals that keep every end that is not 0 from reading 0")
    func smallDifferences() {
        // The outside probe of 0.3.17: 0.012 per 100 fewer failures, 95 % CI 0.011 more to 0.035 fewer, read
        // "0.0 fewer (95 % CI 0.0 more to 0.0 fewer)".
        let decimals = ReviewArgumentText.perHundredDecimals([0.000117, -0.000113, 0.000348])
        #expect(decimals == 2)
        #expect(ReviewArgumentText.perHundredDifference(0.000117, decimals: decimals) == "0.01")
        #expect(ReviewArgumentText.interval(-0.000113, 0.000348, "fewer", decimals: decimals) == "0.01 more to 0.03 fewer")
        // Three decimals where two still read 0; no more than three.
        #expect(ReviewArgumentText.perHundredDecimals([0.000017, -0.000013, 0.000048]) == 3)
        #expect(ReviewArgumentText.interval(-0.000013, 0.000048, "fewer", decimals: 3) == "0.001 more to 0.005 fewer")
        // Differences that read at one decimal keep it; 0 itself needs none more.
        #expect(ReviewArgumentText.perHundredDecimals([0.003, 0.0004, 0.012]) == 2)
        #expect(ReviewArgumentText.perHundredDecimals([0.003, 0, 0.012]) == 1)
        #expect(ReviewArgumentText.perHundredDecimals([1e-9]) == 3)
    }
}
