import Testing
@testable import HoldModel

@Suite("Interruption: a release during the fill (DOMAIN §5)")
struct InterruptionTests {
    /// The DOMAIN §5 table: 1.0 s linear fill, released at 0.6 s, 0.2 s easeOut retract; values at 0.65, 0.70,
    /// 0.80, 0.90 s. The table is printed to three decimals, hence ±0.001 (plus rounding of the printed value).
    static let times = [0.65, 0.70, 0.80, 0.90]
    static let table: [(Retract.Interruption, [Double])] = [
        (.swiftui, [0.404, 0.221, 0, 0]),
        (.additive, [0.272, 0.015, -0.200, -0.100]),
        (.fromCurrent, [0.373, 0.189, 0, 0]),
    ]

    @Test("the three rules reproduce the table to ±0.001", arguments: [0, 1, 2])
    func table(row: Int) throws {
        let (rule, expected) = Self.table[row]
        let evaluator = try Fixture.evaluator(Fixture.linearBar(interruption: rule))
        var ticks = OnTimeTicks()
        evaluator.hold(framePhase: 0, latencies: &ticks)
        let outcome = evaluator.resolve(pressEndTime: 0.6)
        #expect(!outcome.completed)
        for (time, value) in zip(Self.times, expected) {
            let progress = evaluator.progress(atSeconds: time)
            #expect(abs(progress - value) <= 0.001 + 1e-9, "\(rule) at \(time): \(progress) vs \(value)")
        }
        // At rest: swiftui and fromCurrent after 0.2 s; additive once the fill has run on to 1.0 s too.
        let rest = rule == .additive ? 1.0 : 0.8
        #expect(abs(outcome.restTime - rest) < 1e-12)
        #expect(evaluator.progress(atSeconds: rest + 0.01) == 0)
    }

    @Test("a spring retract merges: position and velocity carry over from the fill")
    func springMerges() throws {
        var control = Fixture.linearBar()
        control.retract = Retract(
            mode: .animation, curve: .spring(Spring(stiffness: 500, damping: 30)), durationSeconds: nil,
            interruption: .additive, afterTrigger: .retract)
        let evaluator = try Fixture.evaluator(control)
        var ticks = OnTimeTicks()
        evaluator.hold(framePhase: 0, latencies: &ticks)
        let outcome = evaluator.resolve(pressEndTime: 0.6)
        // Position continuous; velocity (one-sided differences, h = 1e-6 s) continuous at +1 / s of the linear fill.
        let h = 1e-6
        let before = evaluator.progress(atSeconds: 0.6 - h)
        let at = evaluator.progress(atSeconds: 0.6)
        let after = evaluator.progress(atSeconds: 0.6 + h)
        #expect(abs(at - 0.6) < 1e-12)
        #expect(abs((at - before) / h - 1) < 1e-3)
        #expect(abs((after - at) / h - 1) < 1e-2)
        // It then heads for 0 and comes to rest within the display resolution.
        // It keeps rising for a moment (x″ = −k·0.6 − c·1 = −330 /s²: still +0.0013 after 2 ms), then falls to 0.
        #expect(evaluator.progress(atSeconds: 0.602) > 0.6)
        #expect(evaluator.progress(atSeconds: 0.65) < 0.6)
        #expect(abs(evaluator.progress(atSeconds: outcome.restTime)) <= 0.001 + 1e-9)
    }

    @Test("reverse plays the fill backwards at its own rate, or at the rate that empties a full bar in `duration`")
    func reverse() throws {
        var control = Fixture.linearBar()
        control.retract = Retract(mode: .reverse, curve: .linear, durationSeconds: nil, interruption: .swiftui,
                                  afterTrigger: .retract)
        var evaluator = try Fixture.evaluator(control)
        var ticks = OnTimeTicks()
        evaluator.hold(framePhase: 0, latencies: &ticks)
        var outcome = evaluator.resolve(pressEndTime: 0.6)
        #expect(abs(outcome.restTime - 1.2) < 1e-12)
        #expect(abs(evaluator.progress(atSeconds: 0.9) - 0.3) < 1e-12)
        // Flutter's reverseDuration 0.3 s for a full bar: from 0.6 it takes 0.18 s.
        control.retract.durationSeconds = 0.3
        evaluator = try Fixture.evaluator(control)
        evaluator.hold(framePhase: 0, latencies: &ticks)
        outcome = evaluator.resolve(pressEndTime: 0.6)
        #expect(abs(outcome.restTime - 0.78) < 1e-12)
        #expect(abs(evaluator.progress(atSeconds: 0.69) - 0.3) < 1e-9)
    }

    @Test("after the action fires the fill stays full, or retracts like an early release")
    func afterTrigger() throws {
        let stay = try Fixture.evaluator(Fixture.linearBar(afterTrigger: .stay))
        var ticks = OnTimeTicks()
        stay.hold(framePhase: 0, latencies: &ticks)
        var outcome = stay.resolve(pressEndTime: 1.3)
        #expect(outcome.completed && outcome.retractSeconds == nil && stay.progress(atSeconds: 2) == 1)
        let retract = try Fixture.evaluator(Fixture.linearBar(afterTrigger: .retract))
        retract.hold(framePhase: 0, latencies: &ticks)
        outcome = retract.resolve(pressEndTime: 1.3)
        #expect(outcome.completed && abs((outcome.retractSeconds ?? .nan) - 0.2) < 1e-12)
        #expect(retract.progress(atSeconds: 1.5) == 0)
    }
}
