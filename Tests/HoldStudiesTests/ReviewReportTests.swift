import HoldLabIO
import HoldLabTestSupport
import HoldProfiles
@testable import HoldStudies
import Testing

@Suite("report.md: formatting and the parameters section")
struct ReviewReportTests {
    @Test("a rate prints the same in a sentence, a table and the scorecard: two decimals below 1 %, one above")
    func percent() {
        #expect(ReviewReport.percent(0.0005) == "0.05 %")
        #expect(ReviewReport.percent(0.001) == "0.10 %")
        #expect(ReviewReport.percent(0.123456) == "12.3 %")
        #expect(ReviewReport.percent(0) == "0.0 %")
        // The table's cell starts with the sentence's value (0.1 % against 0.05 % was the fault).
        let proportion = Proportion(successes: 1, trials: 2_000)
        #expect(ReviewReport.rate(proportion).hasPrefix(ReviewReport.percent(0.0005) + " ("))
        // A bound of exactly 0 takes the other's decimals: Wilson's upper bound of 0 of 3,000 is 0.128 %.
        #expect(ReviewReport.rate(Proportion(successes: 0, trials: 3_000)) == "0.0 % (0.00–0.13)")
        #expect(ReviewReport.rate(Proportion(successes: 0, trials: 20)) == "0.0 % (0.0–16.1)")
    }

    @Test("a signed difference keeps its sign when it rounds to 0: -0.0 to +0.3, not 0.0 to +0.3")
    func signedRoundsToZero() {
        #expect(ReviewArgumentText.signed(-2.3, 1) == "-2.3" && ReviewArgumentText.signed(0.3, 1) == "+0.3")
        #expect(ReviewArgumentText.signed(-0.023, 1) == "-0.0" && ReviewArgumentText.signed(0.04, 1) == "+0.0")
        #expect(ReviewArgumentText.signed(0, 1) == "0.0")
        // Points take a third decimal where two read 0 (0.3.17: "-0.00"); below that the sign still shows.
        #expect(ReviewArgumentText.points(-0.0004) == "-0.04" && ReviewArgumentText.points(-0.00001) == "-0.001")
        #expect(ReviewArgumentText.points(-0.000001) == "-0.000")
    }

    @Test("a variant's parameters carry its own name and say what it changes; a plain profile is shown as loaded")
    func parameters() throws {
        let library = Make.library
        let sets = ["fill.curve=easeIn", "fill.duration=0.6"]
        let profile = try library.loadProfile("hig-linear-bar", overrides: try sets.map { try Override(parsing: $0) })
        let variant = ReviewInput.Design(design: Design(label: "fast", profile: profile), sets: sets, actionMs: nil, fullMs: nil)
        let yaml = ReviewReport.parametersYAML(variant)
        #expect(yaml.contains("\nname: fast\n"))
        #expect(yaml.contains("description: \"hig-linear-bar with fill.curve=easeIn fill.duration=0.6\""))
        #expect(!yaml.contains(profile.description))
        #expect(ReviewReport.parametersIntroduction(variant).contains("fnv1a64:\(profile.contentHash)"))
        let base = try library.loadProfile("hig-linear-bar")
        let plain = ReviewInput.Design(design: Design(label: "hig-linear-bar", profile: base), sets: [], actionMs: nil, fullMs: nil)
        #expect(ReviewReport.parametersYAML(plain) == base.canonicalYAML)
        #expect(ReviewReport.parametersIntroduction(plain).isEmpty)
    }

    @Test("a robustness row decided only by guardrails of the other unit shows their margin in their unit, not a dash")
    func marginInTheOtherUnit() {
        let assumption = BehaviourAssumption(name: "reaction", keyPath: "deliberate.reaction.value", unit: "s",
                                             ranges: ["*": 0.1...0.3], source: "assumption: a constructed case")
        func point(_ value: Double, verdict: Int = 1, margin: Double?, guardMargin: Double?) -> RobustnessFinding.Point {
            RobustnessFinding.Point(value: value, isAssumed: value == 0.2, decision: Decision(
                recommended: verdict, keepsBaseline: false, reasons: [], margin: margin, guardMargin: guardMargin,
                guardMarginMetric: guardMargin == nil ? nil : "completion_time_mean_ms"))
        }
        func finding(_ points: [RobustnessFinding.Point]) -> RobustnessFinding {
            RobustnessFinding(assumption: assumption, population: "q", assumedValue: 0.2, range: 0.1...0.3, source: "",
                              points: points, assumedVerdict: 1, below: nil, above: nil)
        }
        // Only the ms guardrail decides (a preferred rate): its smallest margin where the verdict holds, in ms; the
        // point with another verdict does not count.
        let guarded = finding([point(0.1, verdict: 0, margin: nil, guardMargin: 1), point(0.2, margin: nil, guardMargin: 7.6),
                               point(0.3, margin: nil, guardMargin: 12)])
        #expect(guarded.minimumMargin == nil)
        #expect(ReviewArgumentText.marginCell(guarded, prefer: "completion_rate") == "8 ms on the guardrails in ms")
        // A margin in the preferred metric's unit is the one shown.
        let own = finding([point(0.2, margin: 1.25, guardMargin: 3), point(0.3, margin: 0.5, guardMargin: nil)])
        #expect(ReviewArgumentText.marginCell(own, prefer: "completion_rate") == DecisionRule.amount(0.5, metric: "completion_rate"))
        #expect(ReviewArgumentText.marginCell(finding([point(0.2, margin: nil, guardMargin: nil)]), prefer: "completion_rate") == "–")
    }

    @Test("figure titles state the takeaway; text for gnuplot loses its quotes")
    func headlines() {
        #expect(ReviewFigures.sweepHeadline(key: "fill.duration", points: ["0.6", "0.7", "0.8"], completion: [0.02, 0.03, 0.31])
                == "Completion rises 28.0 points between fill.duration = 0.7 and 0.8 (points are not joined: nothing was simulated between them)")
        #expect(ReviewFigures.sweepHeadline(key: "k", points: ["1", "2"], completion: [0.5, 0.5]) == "Completion and false activation against k")
        #expect(ReviewFigures.gnuplotText("it's \"x\"\nnext") == "it’s ”x” next")
    }
}
