import Testing
@testable import HoldModel

/// Helpers shared by the model tests.
enum Fixture {
    /// seed 003's bar: 1.0 s linear fill matching minimumDuration, 0.2 s easeOut retract.
    static func linearBar(
        minimumDuration: Double = 1.0, refreshRate: Double = 120, interruption: Retract.Interruption = .swiftui,
        afterTrigger: Retract.AfterTrigger = .retract
    ) -> Control {
        Control(
            gesture: Gesture(minimumDurationSeconds: minimumDuration, maximumDistancePoints: 10),
            trigger: Trigger(source: .gesture, offsetSeconds: 0),
            fill: Fill(start: .touchDown, delaySeconds: 0, model: .animation(curve: .linear, durationSeconds: minimumDuration)),
            retract: Retract(mode: .animation, curve: .easeOut, durationSeconds: 0.2, interruption: interruption,
                             afterTrigger: afterTrigger),
            haptics: Haptics(threshold: 0, minIntervalSeconds: 0, onComplete: true),
            display: Display(refreshRateHz: refreshRate, resolution: 0.001))
    }

    /// seed 000's KikoCard: 0.5 s long press, then a 10 ms accelerating Timer; pulse every 0.01 of progress.
    static func kikoCard(minInterval: Double = 0) -> Control {
        Control(
            gesture: Gesture(minimumDurationSeconds: 0.5, maximumDistancePoints: 10),
            trigger: Trigger(source: .fill, offsetSeconds: 0),
            fill: Fill(start: .recognized, delaySeconds: 0, model: .timer(TimerFill())),
            retract: Retract(mode: .instant, curve: .linear, durationSeconds: nil, interruption: .swiftui, afterTrigger: .stay),
            haptics: Haptics(threshold: 0.01, minIntervalSeconds: minInterval, onComplete: false),
            display: Display(refreshRateHz: 120, resolution: 0.001))
    }

    static func evaluator(_ control: Control) throws -> HoldEvaluator {
        HoldEvaluator(try PreparedControl(control))
    }
}

/// Latencies replayed from a list (then 0).
struct ScriptedLatencies: TickLatencySource {
    var values: [Double]
    var index = 0
    init(_ values: [Double]) { self.values = values }
    mutating func nextLatencySeconds() -> Double {
        defer { index += 1 }
        return index < values.count ? values[index] : 0
    }
}

@Suite("KikoCard: DOMAIN §2 figures")
struct KikoCardTests {
    @Test("ideal 10 ms ticks: fill completes on tick 160, trigger 2.100 s after touch-down, 77 pulses")
    func idealTicks() throws {
        #expect(TimerFill().idealTickCount == 160)
        let evaluator = try Fixture.evaluator(Fixture.kikoCard())
        var ticks = OnTimeTicks()
        let held = evaluator.hold(framePhase: 0.37, latencies: &ticks)
        // 160 ticks of exactly 0.01 s after the 0.5 s recognition: exact up to rounding of 0.5 + 160 · 0.01.
        #expect(abs((held.fillStartTime ?? .nan) - 0.5) < 1e-12)
        #expect(abs((held.triggerTime ?? .nan) - 2.1) < 1e-9)
        let outcome = evaluator.resolve(pressEndTime: 3.0)
        #expect(outcome.completed)
        #expect(outcome.pulses == 77)
        #expect(outcome.droppedPulses == 0)
    }

    @Test("the article's 1.72 s means a mean tick of 10.75 ms: coalesced late slots, not the model")
    func articleFigure() throws {
        // Twelve ticks each one whole slot late (10 ms + 1 µs) push completion back by twelve slots: 1.72 s of fill.
        let late = Array(repeating: 0.010001, count: 12) + Array(repeating: 0, count: 148)
        var latencies = ScriptedLatencies(late)
        let evaluator = try Fixture.evaluator(Fixture.kikoCard())
        let held = evaluator.hold(framePhase: 0, latencies: &latencies)
        let fill = (held.fillCompleteTime ?? .nan) - (held.fillStartTime ?? .nan)
        #expect(abs(fill - 1.72) < 1e-9)
        #expect(abs(fill / 160 - 0.01075) < 1e-9)
    }

    @Test("release before completion resets progress to 0 at once and fires nothing")
    func earlyRelease() throws {
        let evaluator = try Fixture.evaluator(Fixture.kikoCard())
        var ticks = OnTimeTicks()
        evaluator.hold(framePhase: 0, latencies: &ticks)
        let outcome = evaluator.resolve(pressEndTime: 1.5)
        #expect(!outcome.completed)
        #expect(outcome.retractSeconds == 0)
        #expect(evaluator.progress(atSeconds: 1.4999) > 0.3)
        #expect(evaluator.progress(atSeconds: 1.5) == 0)
        // Pulses only while the finger is down: strictly fewer than 77.
        #expect(outcome.pulses > 0 && outcome.pulses < 77)
    }

    @Test("minInterval drops pulses closer than it to the last played one, counting them")
    func minimumInterval() throws {
        let evaluator = try Fixture.evaluator(Fixture.kikoCard(minInterval: 0.025))
        var ticks = OnTimeTicks()
        evaluator.hold(framePhase: 0, latencies: &ticks)
        let outcome = evaluator.resolve(pressEndTime: 3)
        // Requests are the same 77; played ones are at least 25 ms apart, so peak rate ≤ 40 Hz.
        #expect(outcome.pulses + outcome.droppedPulses == 77)
        #expect(outcome.droppedPulses > 0)
        #expect((outcome.peakPulseRateHz ?? .infinity) <= 40 + 1e-9)
        let played = evaluator.requestedPulses.filter(\.played).map(\.time)
        for (a, b) in zip(played, played.dropFirst()) { #expect(b - a >= 0.025 - 1e-12) }
    }
}

@Suite("Timer semantics (Foundation Timer, D)")
struct TimerTests {
    @Test("a latency never makes a tick early, and a repeating timer keeps its schedule")
    func neverEarly() throws {
        // Negative draws (a normal latency) count as 0; positive ones delay only their own tick.
        let latencies = [-0.004, 0.003, -0.001, 0.0, 0.002]
        var source = ScriptedLatencies(latencies)
        let evaluator = try Fixture.evaluator(Fixture.kikoCard())
        evaluator.hold(framePhase: 0, latencies: &source)
        // Re-run to read the fire times through progress steps: fire k is at 0.5 + 0.01·k + max(0, latency_k).
        var probe = ScriptedLatencies(latencies)
        let expected = (0..<5).map { k in 0.5 + 0.01 * Double(k + 1) + max(0, probe.nextLatencySeconds()) }
        for (k, time) in expected.enumerated() {
            let before = evaluator.heldProgress(atSeconds: time - 1e-9)
            let after = evaluator.heldProgress(atSeconds: time)
            #expect(after > before, "tick \(k + 1) fires at \(time)")
            #expect(time >= 0.5 + 0.01 * Double(k + 1))
        }
    }

    @Test("missed slots are coalesced into one fire, not replayed")
    func coalescing() throws {
        // Tick 1 is 25 ms late: slots 2 and 3 pass while it is late, so the next fire is slot 4 at 0.54 s.
        var source = ScriptedLatencies([0.025])
        let evaluator = try Fixture.evaluator(Fixture.kikoCard())
        let held = evaluator.hold(framePhase: 0, latencies: &source)
        #expect(evaluator.heldProgress(atSeconds: 0.535 - 1e-9) == 0)
        #expect(abs(evaluator.heldProgress(atSeconds: 0.535) - 0.0007) < 1e-15)
        #expect(abs(evaluator.heldProgress(atSeconds: 0.54) - (0.0007 + 0.00077)) < 1e-15)
        #expect(evaluator.heldProgress(atSeconds: 0.5499) == evaluator.heldProgress(atSeconds: 0.54))
        // Still 160 fires in all, two slots later than ideal.
        #expect(abs((held.fillCompleteTime ?? .nan) - (2.1 + 0.02)) < 1e-9)
    }
}

@Suite("Display and mismatch")
struct DisplayTests {
    @Test("linear fill matching minimumDuration: mismatch within one frame at 60 and 120 Hz, over many phases",
          arguments: [60.0, 120.0])
    func linearMismatch(refreshRate: Double) throws {
        let evaluator = try Fixture.evaluator(Fixture.linearBar(refreshRate: refreshRate))
        let frame = 1 / refreshRate
        for step in 0..<200 {
            let phase = Double(step) / 200
            var ticks = OnTimeTicks()
            evaluator.hold(framePhase: phase, latencies: &ticks)
            let outcome = evaluator.resolve(pressEndTime: 5)
            let mismatch = try #require(outcome.mismatchSeconds)
            // Full means ≥ 0.999, reached at 0.999 s; the first frame at or after it is at most one frame later.
            #expect(mismatch <= 0.001 + 1e-12 && mismatch > -frame, "phase \(phase): mismatch \(mismatch)")
            #expect(abs(mismatch) <= frame)
        }
    }

    @Test("a fill shorter than the gesture looks full early: positive mismatch of the difference")
    func mismatchedFill() throws {
        var control = Fixture.linearBar()
        control.fill.model = .animation(curve: .linear, durationSeconds: 0.8)
        let evaluator = try Fixture.evaluator(control)
        var ticks = OnTimeTicks()
        evaluator.hold(framePhase: 0.5, latencies: &ticks)
        let outcome = evaluator.resolve(pressEndTime: 2)
        let mismatch = try #require(outcome.mismatchSeconds)
        #expect(mismatch > 0.2 - 1 / 120 && mismatch <= 0.2 + 0.001)
    }

    @Test("frames land at (k + phase)/rate, and events on a frame count as that frame")
    func frameClock() {
        let clock = FrameClock(refreshRateHz: 120, phase: 0.25)
        // 0.25/120 s = 2,083,333.3 ns, on the integer clock.
        #expect(clock.time(ofFrame: 0) == 2_083_333)
        #expect(clock.firstFrame(atOrAfter: clock.time(ofFrame: 7)) == 7)
        #expect(clock.firstFrame(atOrAfter: clock.time(ofFrame: 7) + 1) == 8)
        #expect(clock.lastFrame(atOrBefore: clock.time(ofFrame: 7) - 1) == 6)
        #expect(clock.lastFrame(atOrBefore: clock.time(ofFrame: 7)) == 7)
        #expect(clock.lastFrame(atOrBefore: 0) == nil)
        #expect(clock.firstFrame(atOrAfter: 0) == 0)
    }

    @Test("displayed progress at the trigger is the last frame's, and negative model values draw empty")
    func displayedAtTrigger() throws {
        var control = Fixture.linearBar()
        control.fill.model = .animation(curve: .linear, durationSeconds: 2.0)
        let evaluator = try Fixture.evaluator(control)
        var ticks = OnTimeTicks()
        evaluator.hold(framePhase: 0, latencies: &ticks)
        let outcome = evaluator.resolve(pressEndTime: 3)
        // Frame at exactly 1.0 s (phase 0, 120 Hz): shows 1.0 / 2.0 = 0.5.
        #expect(abs((outcome.displayedProgressAtTrigger ?? .nan) - 0.5) < 1e-9)
        #expect(HoldEvaluator.displayed(-0.2) == 0)
        #expect(HoldEvaluator.displayed(1.04) == 1)
    }
}

@Suite("Trigger, start and delay")
struct TriggerTests {
    @Test("trigger by fill with an offset fires late, and a release between fill end and trigger loses the action")
    func lateTrigger() throws {
        var control = Fixture.linearBar()
        control.trigger = Trigger(source: .fill, offsetSeconds: 0.5)
        let evaluator = try Fixture.evaluator(control)
        var ticks = OnTimeTicks()
        let held = evaluator.hold(framePhase: 0, latencies: &ticks)
        #expect(abs((held.triggerTime ?? .nan) - 1.5) < 1e-12)
        #expect(!evaluator.resolve(pressEndTime: 1.2).completed)
        #expect(evaluator.resolve(pressEndTime: 1.5).completed)
    }

    @Test("a fill that starts on recognition after a delay starts at minimumDuration + delay")
    func recognizedStartWithDelay() throws {
        var control = Fixture.kikoCard()
        control.fill.delaySeconds = 0.1
        let evaluator = try Fixture.evaluator(control)
        var ticks = OnTimeTicks()
        let held = evaluator.hold(framePhase: 0, latencies: &ticks)
        #expect(abs((held.fillStartTime ?? .nan) - 0.6) < 1e-12)
        #expect(abs((held.triggerTime ?? .nan) - 2.2) < 1e-9)
        // Released before the fill started: nothing to retract, nothing shown.
        let outcome = evaluator.resolve(pressEndTime: 0.55)
        #expect(outcome.retractSeconds == nil && outcome.pulses == 0)
    }

    @Test("no fill: the static long press fires at minimumDuration, and its only feedback is the action")
    func staticLongPress() throws {
        var control = Fixture.linearBar()
        control.fill.model = .none
        control.retract.mode = .instant
        let evaluator = try Fixture.evaluator(control)
        var ticks = OnTimeTicks()
        let held = evaluator.hold(framePhase: 0.3, latencies: &ticks)
        #expect(held.firstVisibleFrameTime == nil && held.firstFullFrameTime == nil)
        #expect(held.firstFeedbackTime == 1.0)
        let outcome = evaluator.resolve(pressEndTime: 1.2)
        #expect(outcome.completed && outcome.mismatchSeconds == nil && outcome.pulses == 1)
    }

    @Test("contradictions are rejected with the key path to fix")
    func contradictions() {
        var control = Fixture.linearBar()
        control.fill.model = .none
        control.trigger.source = .fill
        #expect(throws: ControlError(
            keyPath: "trigger.source",
            message: "is fill, but fill.model is none: with no fill the action can only follow the gesture")) {
            _ = try PreparedControl(control)
        }
        var stalled = Fixture.kikoCard()
        stalled.fill.model = .timer(TimerFill(tickSeconds: 0.01, initialIncrement: 0, acceleration: 0))
        #expect(throws: ControlError(
            keyPath: "fill.timer", message: "initialIncrement and acceleration are both 0: the fill would never move")) {
            _ = try PreparedControl(stalled)
        }
        var early = Fixture.linearBar()
        early.trigger.offsetSeconds = -1.5
        #expect(throws: ControlError.self) { _ = try PreparedControl(early) }
    }
}
