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
