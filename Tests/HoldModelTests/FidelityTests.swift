import Foundation
import Testing
@testable import HoldModel

/// Issue 13: where the numbers parted from the seeds. Each expectation is a closed form or the seed's own code
/// executed by hand.
@Suite("Fidelity: one clock, one pulse rule, what the user saw")
struct FidelityTests {
    static func linearBar(threshold: Double, minInterval: Double, onComplete: Bool = true) -> Control {
        var control = Fixture.linearBar()
        control.haptics = Haptics(threshold: threshold, minIntervalSeconds: minInterval, onComplete: onComplete)
        return control
    }

    static func pulses(_ evaluator: HoldEvaluator, phase: Double, release: Double) -> HoldOutcome {
        var ticks = OnTimeTicks()
        evaluator.hold(framePhase: phase, latencies: &ticks)
        return evaluator.resolve(pressEndTime: release)
    }

    @Test("the completion pulse obeys minInterval: the peak pulse rate never exceeds 1 / minInterval")
    func completionPulseThrottled() throws {
        // Threshold 0.047 on a 1 s linear fill at 120 Hz requests a progress pulse every 5–6 frames (41.7–50 ms);
        // with the trigger at 1.000 s a progress pulse on the frame just after it used to play 1e-8 s after the
        // completion pulse (1.3e8 Hz).
        for minInterval in [0.05, 0.055] {
            let evaluator = try Fixture.evaluator(Self.linearBar(threshold: 0.047, minInterval: minInterval))
            for step in 0..<200 {
                let phase = Double(step) / 200 + 1e-6
                let outcome = Self.pulses(evaluator, phase: phase, release: 1.5)
                let rate = try #require(outcome.peakPulseRateHz)
                #expect(rate <= 1 / minInterval + 1e-6, "phase \(phase): \(rate) Hz")
                // Every request is played or dropped, never both, never twice at one instant.
                let times = evaluator.pulseRequests.map(\.time)
                #expect(Set(times).count == times.count)
            }
        }
    }

    @Test("with minInterval 0, a progress pulse at the trigger's instant is the completion pulse: felt once")
    func sameInstantCountsOnce() throws {
        let evaluator = try Fixture.evaluator(Self.linearBar(threshold: 0.05, minInterval: 0))
        let outcome = Self.pulses(evaluator, phase: 0, release: 1.5)
        // Frames at k/120 s: steps 0.05…0.95 on frames 6…114 (19 pulses), then frame 120 at 1.000 s is the
        // trigger's instant: one pulse, the completion pulse.
        #expect(outcome.pulses == 20)
        #expect(outcome.droppedPulses == 0)
        let last = try #require(evaluator.pulseRequests.last)
        #expect(last.kind == .completion && last.time == 1_000_000_000 && last.status == .played)
        #expect(outcome.peakPulseRateHz.map { abs($0 - 20) < 1e-9 } == true)
    }

    @Test("requests exactly minInterval apart play at every frame phase (no floating-point ties)")
    func tiesPlayed() throws {
        // Threshold 0.05 and minInterval 0.05 on the 1 s bar at 120 Hz: requests are 6 frames = exactly 50 ms
        // apart, so none may be dropped, whatever the phase.
        let evaluator = try Fixture.evaluator(Self.linearBar(threshold: 0.05, minInterval: 0.05, onComplete: false))
        for step in 0..<100 {
            let outcome = Self.pulses(evaluator, phase: Double(step) / 100, release: 1.5)
            #expect(outcome.droppedPulses == 0, "phase \(Double(step) / 100)")
            #expect(outcome.pulses == 20 || outcome.pulses == 19, "phase \(Double(step) / 100): \(outcome.pulses)")
        }
    }

    @Test("a frame at a Timer tick's instant shows that tick (KikoCard, phase 0)")
    func frameShowsSimultaneousTick() throws {
        let evaluator = try Fixture.evaluator(Fixture.kikoCard())
        var ticks = OnTimeTicks()
        evaluator.hold(framePhase: 0, latencies: &ticks)
        // Ticks at 0.5 s + n·10 ms; 120 Hz frames land on them every 30 ms from 0.55 s on (frame 66 = 550 ms).
        var progression = TimerFill().progression
        var progressAfter: [Double] = [0]
        for _ in 0..<160 { progressAfter.append(min(1, progression.next())) }
        for milliseconds in [550, 800, 850, 1200, 1450, 2050] {
            let instant = Int64(milliseconds) * 1_000_000
            let tick = (milliseconds - 500) / 10
            #expect(evaluator.heldProgress(at: instant) == progressAfter[tick], "\(milliseconds) ms")
        }
    }

    @Test("the frame at the trigger's instant shows the bar full: linear-matching mismatch is exactly 0 at phase 0")
    func linearMatchingExact() throws {
        let evaluator = try Fixture.evaluator(Fixture.linearBar(afterTrigger: .stay))
        var ticks = OnTimeTicks()
        let held = evaluator.hold(framePhase: 0, latencies: &ticks)
        #expect(held.firstFullFrame == 1_000_000_000 - 8_333_333 || held.firstFullFrame == 1_000_000_000)
        let outcome = evaluator.resolve(pressEndTime: 2)
        // 0.999 is reached on frame 120 only (119/120 = 0.99167): the full frame is the trigger's instant.
        #expect(held.firstFullFrame == 1_000_000_000)
        #expect(outcome.mismatch == 0)
        #expect(outcome.displayedProgressAtTrigger == 1)
    }

    @Test("seed 004's Timer adds 0.01 s to a Double: a 12 s fill completes on tick 1,201, at 12.01 s")
    func seed004Accumulation() throws {
        // The seed: timePassed += tick; progress = timePassed / totalDuration. By hand: 1,200 additions of 0.01
        // give 11.99999999999979 < 12; the 1,201st gives 12.00999999999979.
        var elapsed = 0.0
        for _ in 0..<1200 { elapsed += 0.01 }
        #expect(elapsed < 12)
        let timer = TimerFill(tickSeconds: 0.01, durationSeconds: 12)
        #expect(timer.idealTickCount == 1201)
        var control = Fixture.kikoCard()
        control.fill = Fill(start: .touchDown, delaySeconds: 0, model: .timer(timer))
        control.gesture.minimumDurationSeconds = 0
        let evaluator = try Fixture.evaluator(control)
        var ticks = OnTimeTicks()
        let held = evaluator.hold(framePhase: 0, latencies: &ticks)
        #expect(held.fillComplete == 12_010_000_000)
        #expect(held.trigger == 12_010_000_000)
        // The increment form keeps seed 000's arithmetic: 160 ticks.
        #expect(TimerFill().idealTickCount == 160)
    }

    @Test("a hold that fires and is released before the bar looked full has no mismatch")
    func completedUnseen() throws {
        // hig-linear-bar with the action 0.2 s early and a retract after the trigger: released at 0.85 s the
        // action fired at 0.8 s, but the bar (0.85 at most) never looked full.
        var control = Fixture.linearBar(afterTrigger: .retract)
        control.trigger.offsetSeconds = -0.2
        let evaluator = try Fixture.evaluator(control)
        var ticks = OnTimeTicks()
        evaluator.hold(framePhase: 0.3, latencies: &ticks)
        let early = evaluator.resolve(pressEndTime: 0.85)
        #expect(early.completed)
        #expect(early.firstFullFrameSeen == nil && early.mismatch == nil)
        // Held on, it looks full on its own full frame, 0.2 s after the trigger.
        let late = evaluator.resolve(pressEndTime: 1.5)
        let mismatch = try #require(late.mismatchSeconds)
        #expect(mismatch <= -0.2 + 1e-9 && mismatch > -0.2 - 1 / 120.0)
    }

    @Test("feedback counts only while the finger is down: a static long press released early felt nothing")
    func feedbackWhileDown() throws {
        var control = Fixture.linearBar()
        control.fill.model = .none
        control.retract = Retract(mode: .instant, curve: .linear, durationSeconds: nil)
        let evaluator = try Fixture.evaluator(control)
        var ticks = OnTimeTicks()
        evaluator.hold(framePhase: 0, latencies: &ticks)
        #expect(evaluator.resolve(pressEndTime: 0.9).feedback == nil)
        #expect(evaluator.resolve(pressEndTime: 1.0).feedback == 1_000_000_000)
    }

    @Test("retract time is the first frame drawn empty, not when the model settles (additive retract)")
    func retractToFirstEmptyFrame() throws {
        // 1.0 s linear fill released at 0.3 s with a 0.2 s easeOut additive retract: the model is
        // fill(t) − easeOut(τ/0.2), which settles at 1.0 s (0.7 s after the release) but is below 0 from
        // τ ≈ 47 ms; at 120 Hz phase 0 the first frame drawn empty is frame 42, at 350 ms.
        let evaluator = try Fixture.evaluator(Fixture.linearBar(interruption: .additive))
        var ticks = OnTimeTicks()
        evaluator.hold(framePhase: 0, latencies: &ticks)
        let outcome = evaluator.resolve(pressEndTime: 0.3)
        #expect(outcome.rest == 1_000_000_000)
        #expect(outcome.firstEmptyFrame == 350_000_000)
        #expect(outcome.retractSeconds.map { abs($0 - 0.05) < 1e-12 } == true)
        #expect(evaluator.progress(atSeconds: 0.35) < 0.001)
        #expect(evaluator.progress(atSeconds: 0.3 + 5 / 120.0 - 1e-9) >= 0.001)
    }

    @Test("frame times are exact on the integer clock at any phase")
    func frameClockExact() {
        for rate in [60.0, 90.0, 120.0, 59.94] {
            for phase in [0.0, 0.25, 0.5, 0.999999] {
                let clock = FrameClock(refreshRateHz: rate, phase: phase)
                for index in [0, 1, 7, 119, 120, 1000, 432_000] {
                    let time = clock.time(ofFrame: index)
                    #expect(clock.firstFrame(atOrAfter: time) == index)
                    #expect(clock.firstFrame(atOrAfter: time + 1) == index + 1)
                    #expect(clock.lastFrame(atOrBefore: time) == index)
                    #expect(clock.lastFrame(atOrBefore: time - 1) == (index == 0 ? nil : index - 1))
                }
            }
        }
        // 120 frames of 1/120 s are exactly 1 s.
        #expect(FrameClock(refreshRateHz: 120, phase: 0).time(ofFrame: 120) == 1_000_000_000)
    }
}

@Suite("Speed paths give the frame-by-frame answers")
struct SpeedPathTests {
    @Test("progress pulses found ahead for a block, its people's searches interleaved, equal each person's own",
          arguments: [
              TimingCurve.linear, .easeIn, .easeInOut,
              .bezier(UnitBezier(x1: 0.05, y1: 0.9, x2: 0.1, y2: 1)), .bezier(UnitBezier(x1: 0.9, y1: 0, x2: 0.95, y2: 0.1)),
          ], [0.9, 0.0043, 7.3, 1e-9])
    func pulsesInterleaved(curve: TimingCurve, duration: Double) throws {
        // Down to a step of a thousandth at 1000 Hz (a request nearly every frame, as many as the steps allow: the
        // bound each lane's region is sized by) and a step within the tolerance (a region of one a frame).
        for (threshold, refresh) in [(0.01, 120.0), (0.05, 60), (0.2, 59.94), (0.003, 1000), (0.001, 1000), (1e-12, 120)] {
            var control = Fixture.linearBar()
            control.fill.model = .animation(curve: curve, durationSeconds: duration)
            control.display.refreshRateHz = refresh
            control.haptics = Haptics(threshold: threshold, minIntervalSeconds: 0, onComplete: false)
            let batch = try Fixture.evaluator(control)
            let single = try Fixture.evaluator(control)
            #expect(batch.preparesPulses)
            // 4k + 3 people (a last group of three lanes), a phase twice in a row, the ends of the phase's range.
            var phases: [Double] = []
            for person in 0..<39 {
                let spread = Double((person * 7_919) % 1_000) / 1_000
                phases.append(spread + 0.0001 * Double(person % 3))
            }
            phases += [0, 0, 0.999_999_999, 0.5]
            phases.withUnsafeBufferPointer { batch.preparePulses(phases: $0) }
            for phase in phases {
                var ticks = OnTimeTicks()
                batch.hold(framePhase: phase, latencies: &ticks)
                single.hold(framePhase: phase, latencies: &ticks)
                #expect(batch.pulseRequests.map(\.time) == single.pulseRequests.map(\.time), "\(curve) \(duration) \(threshold) \(phase)")
            }
            // Every hold took its prepared requests (the comparison above is of the interleaved path).
            #expect(batch.preparedNext == phases.count)
            // A hold out of order finds its own: the prepared ones are only ever a person's own.
            phases.withUnsafeBufferPointer { batch.preparePulses(phases: $0) }
            for phase in phases.reversed() {
                var ticks = OnTimeTicks()
                batch.hold(framePhase: phase, latencies: &ticks)
                single.hold(framePhase: phase, latencies: &ticks)
                #expect(batch.pulseRequests.map(\.time) == single.pulseRequests.map(\.time))
            }
        }
    }

    @Test("progress pulses found by jumping through the fill's inverse, judged on table bounds, equal a frame-by-frame check",
          arguments: [
              TimingCurve.linear, .easeIn, .easeOut, .easeInOut, .ease,
              .bezier(UnitBezier(x1: 0.05, y1: 0.9, x2: 0.1, y2: 1)), .bezier(UnitBezier(x1: 0.9, y1: 0, x2: 0.95, y2: 0.1)),
          // The shortest fill a profile takes: one nanosecond (shorter ones round to 0 ns and are refused).
          ], [0.9, 0.0043, 7.3, 1e-9])
    func pulsesByJumps(curve: TimingCurve, duration: Double) throws {
        let end = Instant.nanoseconds(duration)
        for threshold in [0.01, 0.047, 0.05, 0.2] {
            var control = Fixture.linearBar()
            control.fill.model = .animation(curve: curve, durationSeconds: duration)
            control.haptics = Haptics(threshold: threshold, minIntervalSeconds: 0, onComplete: false)
            let evaluator = try Fixture.evaluator(control)
            for step in 0..<40 {
                let phase = Double(step) / 40 + 0.003
                var ticks = OnTimeTicks()
                let held = evaluator.hold(framePhase: phase, latencies: &ticks)
                let clock = FrameClock(refreshRateHz: 120, phase: phase)
                // The definition: every frame from the fill's start to the first frame at or after its end.
                var expected: [Int64] = []
                var last = 0.0
                var index = clock.firstFrame(atOrAfter: 0)
                while true {
                    let time = clock.time(ofFrame: index)
                    let progress = evaluator.heldProgress(at: time)
                    if progress >= last + threshold - HapticSchedule.stepTolerance {
                        last = progress
                        expected.append(time)
                    }
                    if time >= end { break }
                    index += 1
                }
                #expect(evaluator.pulseRequests.map(\.time) == expected, "\(curve) \(threshold) \(phase)")
                // And the first frames that look started and full, by the same definition.
                var frame = 0
                while evaluator.heldProgress(at: clock.time(ofFrame: frame)) < 0.001 { frame += 1 }
                #expect(held.firstVisibleFrame == clock.time(ofFrame: frame))
                while evaluator.heldProgress(at: clock.time(ofFrame: frame)) < 0.999 { frame += 1 }
                #expect(held.firstFullFrame == clock.time(ofFrame: frame))
            }
        }
    }

    @Test("the first frame at or after an instant, from one multiplication, equals the search by definition; a search start from the position's whole part is never after it")
    func firstFrameFastPath() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        for refresh in [1.0, 24, 59.94, 60, 90, 120, 144, 240, 1000] {
            for _ in 0..<4000 {
                let phase = Double(next() % 1_000_000) / 1_000_000
                let clock = FrameClock(refreshRateHz: refresh, phase: phase)
                // Instants spread over an hour, and instants right at or next to a frame.
                var instants = [Int64(next() % 3_600_000_000_000), Int64(next() % 2_000_000_000)]
                let frame = clock.time(ofFrame: Int(next() % 1000))
                instants += [frame - 2, frame - 1, frame, frame + 1, frame + 2, 0, -5]
                // Before and at the first frame (an early instant and a late phase answer frame 0 without dividing).
                let first = clock.time(ofFrame: 0)
                instants += [first / 2, first - 3, first - 1, first, first + 1, Int64(next() % UInt64(max(1, first)))]
                for instant in instants {
                    let fast = clock.firstFrame(atOrAfter: instant)
                    #expect(fast == clock.firstFrameByCorrection(atOrAfter: instant), "\(refresh) \(phase) \(instant)")
                    // The definition itself: the first frame at or after the instant.
                    #expect(clock.time(ofFrame: fast) >= instant)
                    if fast > 0 { #expect(clock.time(ofFrame: fast - 1) < instant) }
                    // A search's start: never after the first frame, at most one before it.
                    let start = clock.frameNoLaterThanFirst(atOrAfter: instant)
                    #expect(start <= fast && start >= fast - 1, "\(refresh) \(phase) \(instant)")
                    // The answer itself when the frame before is shown 3 ns or more before the instant (2 ns and the
                    // half nanosecond of rounding), below the fast path's limit.
                    if fast > 0, instant < FrameClock.fastPathLimit, instant - clock.time(ofFrame: fast - 1) >= 3 {
                        #expect(start == fast, "\(refresh) \(phase) \(instant)")
                    }
                }
            }
        }
    }

    @Test("a spring fill's lower bound holds, and the retract search from it finds the frame-by-frame answer",
          arguments: [
              Spring.snappy, .bouncy, .smooth, Spring(duration: 0.3, bounce: 0.6), Spring(duration: 0.4, bounce: -0.5),
              Spring(stiffness: 100, damping: 20),
          ])
    func springRetractBound(spring: Spring) throws {
        for t in stride(from: 0.0, through: 1.5, by: 0.01) {
            let bound = spring.fillLowerBound(afterSeconds: t)
            for s in stride(from: t, through: t + 2, by: 0.0005) {
                #expect(1 + spring.state(at: s, x0: -1, v0: 0).displacement >= bound, "\(spring) \(t) \(s)")
            }
        }
        for interruption in [Retract.Interruption.swiftui, .additive] {
            var control = Fixture.linearBar(interruption: interruption)
            control.fill.model = .animation(curve: .spring(spring), durationSeconds: 0)
            let evaluator = try Fixture.evaluator(control)
            for step in 0..<60 {
                let phase = Double(step % 7) / 7 + 0.01
                var ticks = OnTimeTicks()
                evaluator.hold(framePhase: phase, latencies: &ticks)
                let end = Int64(step) * 13_000_000 + 1_000_000
                let outcome = evaluator.resolve(pressEnd: end)
                guard let found = outcome.firstEmptyFrame else { continue }
                // The definition: every frame from the release on, up to the first at or after the rest.
                let clock = FrameClock(refreshRateHz: control.display.refreshRateHz, phase: phase)
                let last = clock.firstFrame(atOrAfter: outcome.rest)
                var index = clock.firstFrame(atOrAfter: end)
                while index < last,
                      HoldEvaluator.displayed(evaluator.progress(at: clock.time(ofFrame: index))) >= control.display.resolution {
                    index += 1
                }
                #expect(found == clock.time(ofFrame: index), "\(spring) \(interruption) \(phase) \(end)")
            }
        }
    }

    @Test("a spring fill's first frames drawn started and full are the first frames, from frame 0, that reach the levels",
          arguments: [
              Spring.snappy, .bouncy, .smooth, Spring(duration: 0.3, bounce: 0.6), Spring(duration: 0.4, bounce: -0.5),
              Spring(stiffness: 100, damping: 20), Spring(stiffness: 2000, damping: 10), Spring(duration: 3, bounce: 0),
          ])
    func springShownFrames(spring: Spring) throws {
        var checked = 0
        for resolution in [0.1, 0.01, 0.001, 1e-4, 1e-7] {
            for refresh in [60.0, 120, 240, 1000] {
                var control = Fixture.linearBar(interruption: .swiftui)
                control.fill.model = .animation(curve: .spring(spring), durationSeconds: 0)
                control.display.resolution = resolution
                control.display.refreshRateHz = refresh
                let evaluator = try Fixture.evaluator(control)
                for step in 0..<40 {
                    let phase = Double(step) / 40 + 0.003
                    var ticks = OnTimeTicks()
                    let held = evaluator.hold(framePhase: phase, latencies: &ticks)
                    // The definition: the first frame whose held progress reaches the level, searched from frame 0.
                    let clock = FrameClock(refreshRateHz: refresh, phase: phase)
                    func first(_ level: Double) -> Int64? {
                        for index in 0..<200_000 where evaluator.heldProgress(at: clock.time(ofFrame: index)) >= level {
                            return clock.time(ofFrame: index)
                        }
                        return nil
                    }
                    #expect(held.firstVisibleFrame == first(resolution), "\(spring) \(resolution) \(refresh) \(phase)")
                    #expect(held.firstFullFrame == first(1 - resolution), "\(spring) \(resolution) \(refresh) \(phase)")
                    checked += 1
                }
            }
        }
        #expect(checked == 800)
    }

    // The searches start from a bound per floor under the retracted progress (`retractBoundByFloor`); the Timer fill
    // takes the scaled form under every interruption, additive included.
    @Test("retract searches judged on the retract curve's table bounds find the frame-by-frame first empty and full frames",
          arguments: [
              TimingCurve.easeOut, .easeIn, .ease, .bezier(UnitBezier(x1: 0.2, y1: 0.9, x2: 0.3, y2: 1)),
          ], [0.2, 0.0031, 1.7])
    func retractByBounds(retractCurve: TimingCurve, retractDuration: Double) throws {
        for interruption in [Retract.Interruption.swiftui, .additive, .fromCurrent] {
            for fill in [Fill.Model.animation(curve: .linear, durationSeconds: 1.0),
                         .animation(curve: .easeInOut, durationSeconds: 1.0),
                         .timer(TimerFill(tickSeconds: 0.01, initialIncrement: 0.004, acceleration: 0.0002))] {
                var control = Fixture.linearBar(interruption: interruption)
                control.fill.model = fill
                control.retract.curve = retractCurve
                control.retract.durationSeconds = retractDuration
                let evaluator = try Fixture.evaluator(control)
                let resolution = control.display.resolution
                for step in 0..<90 {
                    let phase = Double(step % 11) / 11 + 0.004
                    var ticks = OnTimeTicks()
                    evaluator.hold(framePhase: phase, latencies: &ticks)
                    let end = Int64(step) * 12_300_000 + 400_000
                    let outcome = evaluator.resolve(pressEnd: end)
                    let empty = try #require(outcome.firstEmptyFrame)
                    let clock = FrameClock(refreshRateHz: control.display.refreshRateHz, phase: phase)
                    func shown(_ index: Int) -> Double { HoldEvaluator.displayed(evaluator.progress(at: clock.time(ofFrame: index))) }
                    // The definitions: the first frame from the release on drawn empty, and the first frame of the
                    // hold drawn full before it.
                    let last = clock.firstFrame(atOrAfter: outcome.rest)
                    var index = clock.firstFrame(atOrAfter: end)
                    while index < last, shown(index) >= resolution { index += 1 }
                    let context = "\(retractCurve) \(retractDuration) \(interruption) \(fill) \(phase) \(end)"
                    #expect(empty == clock.time(ofFrame: index), "\(context)")
                    var full: Int64?
                    var frame = 0
                    while clock.time(ofFrame: frame) < empty {
                        if shown(frame) >= 1 - resolution { full = clock.time(ofFrame: frame); break }
                        frame += 1
                    }
                    #expect(outcome.firstFullFrameSeen == full, "\(context)")
                }
            }
        }
    }

    // The first-empty search starts from a bound looked up by the release instant (`emptyBoundByRelease`, a refined
    // bound per cell of the fill), and stops without evaluating a frame once the retract has certainly emptied the
    // bar (`retractEmptyAfter`); the completion pulse alone is counted without the pulse list. Releases are drawn at
    // random over the whole fill and beyond, and at the edges of the lookup's cells.
    @Test("release-indexed retract bounds, the certain-empty shortcut and the lone completion pulse give the frame-by-frame answers",
          arguments: [
              TimingCurve.easeOut, .linear, .easeInOut, .bezier(UnitBezier(x1: 0.1, y1: 0.9, x2: 0.2, y2: 1)),
          ])
    func releaseIndexedRetract(retractCurve: TimingCurve) throws {
        var state: UInt64 = 0x5DEE_CE66_D1CE_4E5B
        func uniform() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        for interruption in [Retract.Interruption.swiftui, .additive, .fromCurrent] {
            for (fillCurve, fillSeconds, retractSeconds) in [(TimingCurve.linear, 1.0, 0.2), (.easeIn, 0.7, 0.05),
                                                            (.linear, 0.37, 1.3)] {
                var control = Fixture.linearBar(interruption: interruption)
                control.fill.model = .animation(curve: fillCurve, durationSeconds: fillSeconds)
                control.fill.delaySeconds = 0.013
                control.haptics.onComplete = fillSeconds != 1.0
                control.retract.curve = retractCurve
                control.retract.durationSeconds = retractSeconds
                control.display.refreshRateHz = 90
                let evaluator = try Fixture.evaluator(control)
                let resolution = control.display.resolution
                let fill = Instant.nanoseconds(fillSeconds)
                let cell = Double(fill) / Double(RetractPlan.releaseCells)
                for step in 0..<400 {
                    let phase = uniform()
                    var ticks = OnTimeTicks()
                    let held = evaluator.hold(framePhase: phase, latencies: &ticks)
                    // Anywhere up to twice the fill, or a nanosecond around a cell's edge.
                    let edge = 13_000_000 + Int64((Double(Int(uniform() * 4096)) * cell).rounded(.down))
                    let end = step % 3 == 0 ? edge + Int64(step % 5) - 2 : Int64(uniform() * Double(2 * fill + 30_000_000))
                    let outcome = evaluator.resolve(pressEnd: end)
                    let clock = FrameClock(refreshRateHz: 90, phase: phase)
                    func shown(_ time: Int64) -> Double { HoldEvaluator.displayed(evaluator.progress(at: time)) }
                    let context = "\(retractCurve) \(interruption) \(fillCurve) \(phase) \(end)"
                    let completed = held.trigger.map { $0 <= end } ?? false
                    #expect(outcome.pulses == (completed && control.haptics.onComplete ? 1 : 0), "\(context)")
                    guard end > 13_000_000 else { continue }
                    let empty = try #require(outcome.firstEmptyFrame)
                    let last = clock.firstFrame(atOrAfter: outcome.rest)
                    var index = clock.firstFrame(atOrAfter: end)
                    while index < last, shown(clock.time(ofFrame: index)) >= resolution { index += 1 }
                    #expect(empty == clock.time(ofFrame: index), "\(context)")
                }
            }
        }
    }

    // A simulation takes a block of people through `shownFrames(phases:into:)` and `summarize`: the same answers as
    // `hold` and `resolve` person by person, for every control whose timeline depends on the phase alone.
    @Test("blocks of holds summarize as hold and resolve do, person by person")
    func blocksOfHolds() throws {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func uniform() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var controls: [Control] = []
        for fill in [Fill.Model.animation(curve: .linear, durationSeconds: 1.0), .animation(curve: .easeInOut, durationSeconds: 0.8),
                     .animation(curve: .spring(.snappy), durationSeconds: 0), .none,
                     .animation(curve: .bezier(UnitBezier(x1: 0.3, y1: 1.4, x2: 0.6, y2: 1)), durationSeconds: 0.6)] {
            for retract in [Retract(mode: .animation, curve: .easeOut, durationSeconds: 0.2, interruption: .swiftui, afterTrigger: .retract),
                            Retract(mode: .animation, curve: .linear, durationSeconds: 0.5, interruption: .additive, afterTrigger: .stay),
                            Retract(mode: .animation, curve: .ease, durationSeconds: 1.0, interruption: .fromCurrent, afterTrigger: .retract),
                            Retract(mode: .animation, curve: .spring(.bouncy), durationSeconds: nil, interruption: .swiftui, afterTrigger: .stay),
                            Retract(mode: .reverse, curve: .linear, durationSeconds: 0.3, interruption: .swiftui, afterTrigger: .retract),
                            Retract(mode: .instant, curve: .linear, durationSeconds: nil, interruption: .swiftui, afterTrigger: .stay)] {
                if case .none = fill, retract.mode != .instant { continue }
                var control = Fixture.linearBar()
                control.fill.model = fill
                control.retract = retract
                control.haptics.onComplete = controls.count % 2 == 0
                if case .none = fill {} else if controls.count % 3 == 0 { control.trigger = Trigger(source: .fill, offsetSeconds: 0.05) }
                controls.append(control)
            }
        }
        let people = 600
        for control in controls {
            let blocks = try Fixture.evaluator(control)
            // The reference takes the general path everywhere: a timeline built per hold, the refined retract bound,
            // every frame scanned, the pulse list walked.
            let single = HoldEvaluator(try PreparedControl(control), shortcuts: false)
            #expect(blocks.summarizes && !single.summarizes)
            let phases = (0..<people).map { _ in uniform() }
            let ends = (0..<people).map { _ in Int64(uniform() * 2.2e9) }
            var shown = [ShownFrames](repeating: ShownFrames(visible: 0, full: 0), count: people)
            var summaries = [HoldSummary](repeating: HoldSummary(), count: people)
            phases.withUnsafeBufferPointer { phases in
                blocks.shownFrames(phases: phases, into: &shown)
                shown.withUnsafeBufferPointer { shown in
                    blocks.summarize(phases: phases, shown: shown.baseAddress!, ends: ends, into: &summaries)
                }
            }
            for person in 0..<people {
                var ticks = OnTimeTicks()
                let held = single.hold(framePhase: phases[person], latencies: &ticks)
                let outcome = single.resolve(pressEnd: ends[person])
                let context = "\(control.fill.model) \(control.retract) \(phases[person]) \(ends[person])"
                #expect(shown[person] == ShownFrames(visible: held.firstVisibleFrame ?? .max, full: held.firstFullFrame ?? .max),
                        "\(context)")
                #expect(summaries[person] == outcome.summary, "\(context)")
            }
        }
    }

    @Test("a linear fill's first started and full frames, from one clock per control, equal the frame-by-frame check")
    func linearThresholdFrames() throws {
        for (duration, refresh) in [(0.3, 120.0), (1.0, 120), (1.7, 60), (0.0123, 144), (0.9, 59.94)] {
            var control = Fixture.linearBar(minimumDuration: max(duration, 0.1), refreshRate: refresh)
            control.fill.model = .animation(curve: .linear, durationSeconds: duration)
            control.fill.delaySeconds = 0.0371
            let evaluator = try Fixture.evaluator(control)
            for step in 0..<200 {
                let phase = Double(step) / 200 + 0.0007
                var ticks = OnTimeTicks()
                let held = evaluator.hold(framePhase: phase, latencies: &ticks)
                let clock = FrameClock(refreshRateHz: refresh, phase: phase)
                var frame = 0
                while evaluator.heldProgress(at: clock.time(ofFrame: frame)) < 0.001 { frame += 1 }
                #expect(held.firstVisibleFrame == clock.time(ofFrame: frame), "\(duration) \(phase)")
                while evaluator.heldProgress(at: clock.time(ofFrame: frame)) < 0.999 { frame += 1 }
                #expect(held.firstFullFrame == clock.time(ofFrame: frame), "\(duration) \(phase)")
            }
        }
    }
}

/// Cases a second reading of the change found; each against the straightforward definition.
@Suite("Fidelity: edge cases from review")
struct FidelityReviewTests {
    /// The first frame from touch-down whose displayed progress (after the press is resolved) is ≥ `level`, by
    /// checking every frame up to `limit` frames.
    static func firstFrameShowing(_ level: Double, _ evaluator: HoldEvaluator, _ clock: FrameClock, limit: Int) -> Int64? {
        for index in 0..<limit {
            let time = clock.time(ofFrame: index)
            if HoldEvaluator.displayed(evaluator.progress(at: time)) >= level { return time }
        }
        return nil
    }

    @Test("a hold that fires and ends before its delayed fill starts shows nothing: no full frame, no mismatch")
    func delayedFillNeverShown() throws {
        var control = Fixture.linearBar(afterTrigger: .retract)
        control.fill.delaySeconds = 1.2
        let evaluator = try Fixture.evaluator(control)
        var ticks = OnTimeTicks()
        evaluator.hold(framePhase: 0.3, latencies: &ticks)
        let outcome = evaluator.resolve(pressEndTime: 1.1)
        #expect(outcome.completed)
        #expect(outcome.firstFullFrameSeen == nil && outcome.mismatch == nil)
        #expect(evaluator.progress(atSeconds: 2.5) == 0)
    }

    @Test("a bar that reaches full only after the release (slow retract under a running fill) looked full")
    func fullAfterRelease() throws {
        var control = Fixture.linearBar(afterTrigger: .retract)
        control.display.resolution = 0.01
        control.fill.model = .animation(curve: .linear, durationSeconds: 1.2)
        control.retract = Retract(mode: .animation, curve: .linear, durationSeconds: 10, interruption: .swiftui)
        let evaluator = try Fixture.evaluator(control)
        for step in 0..<50 {
            let phase = 0.5 + Double(step) / 500
            var ticks = OnTimeTicks()
            evaluator.hold(framePhase: phase, latencies: &ticks)
            let outcome = evaluator.resolve(pressEndTime: 1.1879)
            let clock = FrameClock(refreshRateHz: 120, phase: phase)
            #expect(outcome.firstFullFrameSeen == Self.firstFrameShowing(0.99, evaluator, clock, limit: 400),
                    "phase \(phase)")
        }
    }

    @Test("an overshooting Bézier fill's first full frame is the first frame that shows it")
    func overshootingBezier() throws {
        var control = Fixture.linearBar(afterTrigger: .stay)
        control.fill.model = .animation(curve: .bezier(UnitBezier(x1: 0.2, y1: 1.3, x2: 0.6, y2: 1.0)), durationSeconds: 1)
        let evaluator = try Fixture.evaluator(control)
        for step in 0..<200 {
            let phase = Double(step) / 200 + 0.0035
            var ticks = OnTimeTicks()
            let held = evaluator.hold(framePhase: phase, latencies: &ticks)
            _ = evaluator.resolve(pressEndTime: 5)
            let clock = FrameClock(refreshRateHz: 120, phase: phase)
            #expect(held.firstFullFrame == Self.firstFrameShowing(0.999, evaluator, clock, limit: 200), "phase \(phase)")
        }
    }

    @Test("an undamped retract spring is refused (it never settles); a barely damped one (at rest after 23 minutes) resolves at its first empty frame")
    func undampedSpringRetract() throws {
        var control = Fixture.linearBar()
        control.display.refreshRateHz = 240
        control.retract = Retract(mode: .animation, curve: .spring(Spring(stiffness: 100, damping: 0)), durationSeconds: nil)
        #expect(throws: ControlError.self) { try Fixture.evaluator(control) }
        // Damping 0.01: the amplitude falls as e^(−0.005 t), below the 0.001 resolution after about 1,380 s.
        control.retract = Retract(mode: .animation, curve: .spring(Spring(stiffness: 100, damping: 0.01)), durationSeconds: nil)
        let evaluator = try Fixture.evaluator(control)
        var ticks = OnTimeTicks()
        evaluator.hold(framePhase: 0, latencies: &ticks)
        let outcome = evaluator.resolve(pressEndTime: 0.5)
        #expect(!outcome.completed)
        // From x₀ = 0.5 with the fill's velocity 1/s and ω = 10 rad/s, x(t) = 0.5 cos ωt + 0.1 sin ωt first reaches
        // zero at (π − atan 5)/10 = 0.17682 s; it drops below the 0.001 resolution just before, on a 240 Hz frame.
        let empty = try #require(outcome.retractSeconds)
        let zero = (Double.pi - atan(5)) / 10
        #expect(empty > zero - 0.005 && empty <= zero + 1 / 240.0, "\(empty)")
    }

    @Test("a progress pulse on the frame at the release instant comes after the release: not felt")
    func pulseAtReleaseInstant() throws {
        var control = Fixture.linearBar()
        control.haptics = Haptics(threshold: 0.05, minIntervalSeconds: 0, onComplete: false)
        let evaluator = try Fixture.evaluator(control)
        var ticks = OnTimeTicks()
        evaluator.hold(framePhase: 0, latencies: &ticks)
        // Frame 6 at 50 ms requests the first pulse; a release at 50 ms is processed before that frame renders.
        #expect(evaluator.resolve(pressEndTime: 0.05).pulses == 0)
        #expect(evaluator.resolve(pressEndTime: 0.050000001).pulses == 1)
        let trace = HoldTrace(evaluator: evaluator, framePhase: 0, pressEndTime: 0.05, latencies: &ticks)
        #expect(trace.rows.last?.pulses == 0)
        // Feedback: the first visible frame (frame 1, 8.3 ms) is before the release either way.
        #expect(evaluator.resolve(pressEndTime: 0.05).feedback == 8_333_333)
    }
}
