import Foundation
import HoldLabIO
import Testing
@testable import HoldSimulation

/// Wilson's few-events regime and the exact interval its note names.
///
/// Reference values: `scipy.stats.beta.ppf` (SciPy 1.x, `docs/reference/paired-intervals.py`); tolerance 1e-9
/// absolute (GSL's `gsl_cdf_beta_Pinv` and SciPy's agree to about 1e-12).
@Suite("simulate: the few-events regime of Wilson's interval")
struct FewEventsTests {
    @Test("Clopper–Pearson against SciPy's beta quantiles; the few-events regime", arguments: [
        (0, 10, 0.0, 0.308497107818761), (1, 300, 8.43891323178004e-05, 0.0184312520480679),
        (4, 325, 0.00336333683681866, 0.0312110838390803), (10, 10, 0.691502892181239, 1.0),
        (5, 10, 0.187086028447399, 0.812913971552601),
    ])
    func clopperPearson(successes: Int, trials: Int, lower: Double, upper: Double) throws {
        let exact = try #require(Proportion(successes: successes, trials: trials).clopperPearson95)
        #expect(abs(exact.lower - lower) < 1e-9 && abs(exact.upper - upper) < 1e-9, "\(exact)")
        #expect(Proportion(successes: successes, trials: trials).hasFewEvents)
    }

    @Test("the few-events regime: at most 10 events or non-events, any trials")
    func fewEvents() {
        #expect(Proportion(successes: 10, trials: 100_000).hasFewEvents)
        #expect(!Proportion(successes: 11, trials: 100_000).hasFewEvents)
        #expect(Proportion(successes: 99_990, trials: 100_000).hasFewEvents)
        #expect(!Proportion(successes: 0, trials: 0).hasFewEvents && Proportion(successes: 0, trials: 0).clopperPearson95 == nil)
    }
}
