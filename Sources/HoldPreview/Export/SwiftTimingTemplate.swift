// The model part of the exported Swift timing type: HoldModel's formulas, ported line for line (the same operations
// in the same order, so the same doubles), over the profile's numbers that `SwiftExport` writes above it.
// `__TIMING__` is replaced by the type's name. Foundation only; nothing here depends on the profile.

extension ControlExport {
    static let swiftTimingModel = #"""

        // MARK: - The model
        // Ported from HoldLab's HoldModel: every instant is placed on whole nanoseconds after touch-down (rounded
        // once, as holdlab rounds it), Bézier curves are solved as WebKit and Chromium solve them (11 spline samples,
        // at most 4 Newton steps with epsilon 1e-7, then bisection), springs in closed form.

        /// A timing curve: linear, a cubic Bézier, or a damped spring (mass 1).
        public enum Curve: Sendable {
            case linear
            case bezier(Bezier)
            case spring(Spring)
        }

        /// How progress advances while the finger is down.
        public enum FillModel: Sendable {
            /// An animation along `curve` over `duration` seconds (a spring takes its pace from itself).
            case animation(curve: Curve, duration: Double)
            /// A repeating Timer: each tick `progress += increment; increment += acceleration`, or with
            /// `duration`, `elapsed += tick; progress = elapsed / duration`; every tick late by `latency` seconds.
            case timer(tick: Double, initialIncrement: Double, acceleration: Double, duration: Double?,
                       latency: Double)
            /// No fill at all.
            case none
        }

        public enum RetractMode: Sendable { case instant, animation, reverse }
        public enum Interruption: Sendable { case swiftui, additive, fromCurrent }

        /// A cubic Bézier from (0, 0) to (1, 1) through (x1, y1) and (x2, y2); x1 and x2 clamped to [0, 1].
        public struct Bezier: Sendable {
            public let x1: Double, y1: Double, x2: Double, y2: Double
            let ax: Double, bx: Double, cx: Double
            let ay: Double, by: Double, cy: Double
            let isIdentity: Bool
            let spline: [Double]

            public init(x1: Double, y1: Double, x2: Double, y2: Double) {
                let cx1 = Swift.min(Swift.max(x1, 0), 1)
                let cx2 = Swift.min(Swift.max(x2, 0), 1)
                self.x1 = cx1
                self.y1 = y1
                self.x2 = cx2
                self.y2 = y2
                let cx = 3 * cx1
                let bx = 3 * (cx2 - cx1) - cx
                let ax = 1 - cx - bx
                self.cx = cx
                self.bx = bx
                self.ax = ax
                let cy = 3 * y1
                let by = 3 * (y2 - y1) - cy
                self.cy = cy
                self.by = by
                self.ay = 1 - cy - by
                isIdentity = cx1 == y1 && cx2 == y2
                let deltaT = 1.0 / Double(11 - 1)
                spline = (0..<11).map { i in
                    let ti = deltaT * Double(i)
                    return ((ax * ti + bx) * ti + cx) * ti
                }
            }

            func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
            func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }

            static func derivative(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
                let s = 1 - t
                return 3 * (s * s * p1 + 2 * s * t * (p2 - p1) + t * t * (1 - p2))
            }

            /// Progress for normalised time x: exactly 0 at or below 0, exactly 1 at or above 1.
            public func value(at x: Double) -> Double {
                if x.isNaN { return x }
                if x <= 0 { return 0 }
                if x >= 1 { return 1 }
                if isIdentity { return x }
                return sampleY(solveX(x))
            }

            /// dy/dx at normalised time x (the limit where both derivatives vanish).
            public func slope(at x: Double) -> Double {
                if x.isNaN { return x }
                let t = solveX(Swift.min(Swift.max(x, 0), 1))
                let dx = Self.derivative(t, x1, x2)
                let dy = Self.derivative(t, y1, y2)
                if dx != 0 || dy != 0 { return dy / dx }
                let s = 1 - t
                let ddx = 6 * (s * (x2 - 2 * x1) + t * (1 - 2 * x2 + x1))
                let ddy = 6 * (s * (y2 - 2 * y1) + t * (1 - 2 * y2 + y1))
                if ddx != 0 || ddy != 0 { return ddy / ddx }
                return ay / ax
            }

            /// The parameter t with X(t) = x: spline guess, Newton, bisection (Chromium's SolveCurveX).
            func solveX(_ x: Double) -> Double {
                if x.isNaN { return x }
                if x <= 0 { return 0 }
                if x >= 1 { return 1 }
                let epsilon = 1e-7
                let deltaT = 1.0 / Double(11 - 1)
                var t0 = 0.0, t1 = 1.0, t2 = x
                var previous = 0.0
                for i in 1..<11 {
                    let ti = deltaT * Double(i)
                    let sample = spline[i]
                    if x <= sample {
                        t1 = ti
                        t0 = ti - deltaT
                        if sample > previous {
                            t2 = t0 + (t1 - t0) * (x - previous) / (sample - previous)
                        } else {
                            t2 = t0
                        }
                        break
                    }
                    previous = sample
                }
                var guess = t2
                for _ in 0..<4 {
                    let error = sampleX(guess) - x
                    if abs(error) < epsilon { return guess }
                    let derivative = Self.derivative(guess, x1, x2)
                    if abs(derivative) < epsilon { break }
                    guess -= error / derivative
                    if !(guess >= 0 && guess <= 1) { break }
                }
                if guess >= 0 && guess <= 1 && abs(sampleX(guess) - x) < epsilon { return guess }
                var low = t0, high = t1
                var t = (t2 > low && t2 < high) ? t2 : 0.5 * (low + high)
                for _ in 0..<64 {
                    let value = sampleX(t)
                    if abs(value - x) < epsilon { return t }
                    if x > value { low = t } else { high = t }
                    let next = 0.5 * (low + high)
                    if next == t { break }
                    t = next
                }
                return t
            }
        }

        /// A damped spring, mass 1: x'' + 2ζω₀x' + ω₀²x = 0, x the displacement from the target.
        public struct Spring: Sendable {
            /// Stiffness k (1/s²).
            public let stiffness: Double
            /// Damping ratio ζ.
            public let dampingRatio: Double

            public init(stiffness: Double, dampingRatio: Double) {
                self.stiffness = stiffness
                self.dampingRatio = dampingRatio
            }

            /// Displacement and velocity at t seconds from (x0, v0), in closed form.
            public func state(at t: Double, x0: Double, v0: Double) -> (displacement: Double, velocity: Double) {
                if !(t > 0) { return t.isNaN ? (t, t) : (x0, v0) }
                if t == .infinity && dampingRatio > 0 { return (0, 0) }
                let omega0 = stiffness.squareRoot()
                let zeta = dampingRatio
                if abs(zeta - 1) <= 1e-8 {
                    let decay = exp(-omega0 * t)
                    let slope = v0 + omega0 * x0
                    return (decay * (x0 + slope * t), decay * (v0 - omega0 * slope * t))
                }
                if zeta < 1 {
                    let alpha = zeta * omega0
                    let omegaD = omega0 * ((1 - zeta) * (1 + zeta)).squareRoot()
                    let b = (v0 + alpha * x0) / omegaD
                    let decay = exp(-alpha * t)
                    let cosine = cos(omegaD * t)
                    let sine = sin(omegaD * t)
                    return (decay * (x0 * cosine + b * sine),
                            decay * (v0 * cosine - (alpha * b + x0 * omegaD) * sine))
                }
                let root = ((zeta - 1) * (zeta + 1)).squareRoot()
                let r1 = -omega0 / (zeta + root)
                let r2 = -omega0 * (zeta + root)
                let a = (v0 - r2 * x0) / (r1 - r2)
                let b = x0 - a
                let e1 = exp(r1 * t), e2 = exp(r2 * t)
                return (a * e1 + b * e2, a * r1 * e1 + b * r2 * e2)
            }
        }

        // MARK: The clock

        /// Seconds to whole nanoseconds, halves away from zero (NaN is 0).
        public static func nanoseconds(_ seconds: Double) -> Int64 {
            let value = seconds * 1_000_000_000.0
            guard value == value else { return 0 }
            return nearest(Swift.max(-9e18, Swift.min(9e18, value)))
        }

        static func nearest(_ x: Double) -> Int64 { x >= 0 ? Int64(x + 0.5) : -Int64(-x + 0.5) }

        public static func seconds(_ nanoseconds: Int64) -> Double { Double(nanoseconds) / 1_000_000_000.0 }

        static let recognitionInstant = nanoseconds(minimumDuration)

        /// When the fill starts moving (nanoseconds after touch-down); nil without a fill.
        static let fillStartInstant: Int64? = {
            if case .none = fill { return nil }
            return (fillStartsAtRecognition ? recognitionInstant : 0) + nanoseconds(fillDelay)
        }()

        static var isTimer: Bool {
            if case .timer = fill { return true }
            return false
        }

        static let fillNominalInstant: Int64? = fillNominalSeconds.map(nanoseconds)

        /// The Timer's fires while held: when each fires and the progress after it (uncapped).
        struct Fires: Sendable {
            var times: [Int64] = []
            var progress: [Double] = []
        }

        static let fires: Fires = {
            var fires = Fires()
            guard case .timer(let tick, let initialIncrement, let acceleration, let duration, let latency) = fill,
                  let start = fillStartInstant else { return fires }
            var progress = 0.0, increment = initialIncrement, elapsed = 0.0
            func next() -> Double {
                if let duration {
                    elapsed += tick
                    progress = elapsed / duration
                    return progress
                }
                progress += increment
                increment += acceleration
                return progress
            }
            let interval = nanoseconds(tick)
            let late = latency > 0 ? Swift.min(nanoseconds(latency), nanoseconds(3_600)) : 0
            var slot: Int64 = 1
            for _ in 0..<100_000 {
                let value = next()
                fires.times.append(start + slot * interval + late)
                fires.progress.append(value)
                slot += 1 + late / interval
                if value >= 1 { break }
            }
            return fires
        }()

        /// When the fill completes if the finger stays down (nanoseconds); nil without a fill.
        static let fillCompleteInstant: Int64? = {
            guard let start = fillStartInstant else { return nil }
            if isTimer { return fires.times.last }
            return start + (fillNominalInstant ?? 0)
        }()

        /// When the action fires if the finger is still down (nanoseconds); nil when it never can.
        static let triggerInstant: Int64? = triggerFollowsGesture
            ? recognitionInstant + nanoseconds(triggerOffset)
            : fillCompleteInstant.map { $0 + nanoseconds(triggerOffset) }

        // MARK: The held fill

        static func heldProgress(_ time: Int64) -> Double {
            guard let start = fillStartInstant else { return 0 }
            let clock = time - start
            switch fill {
            case .none:
                return 0
            case .timer:
                var low = 0, high = fires.times.count
                while low < high {
                    let mid = (low + high) / 2
                    if fires.times[mid] <= time { low = mid + 1 } else { high = mid }
                }
                return low == 0 ? 0 : Swift.min(1, fires.progress[low - 1])
            case .animation(.spring(let spring), _):
                return clock <= 0 ? 0 : 1 + spring.state(at: seconds(clock), x0: -1, v0: 0).displacement
            case .animation(let curve, _):
                let duration = fillNominalInstant ?? 0
                if clock <= 0 { return 0 }
                if clock >= duration { return 1 }
                let u = Double(clock) / Double(duration)
                if case .bezier(let bezier) = curve { return bezier.value(at: u) }
                return u
            }
        }

        static func heldVelocity(_ time: Int64) -> Double {
            guard let start = fillStartInstant else { return 0 }
            let clock = time - start
            switch fill {
            case .none, .timer:
                return 0
            case .animation(.spring(let spring), _):
                return time <= start ? 0 : spring.state(at: seconds(clock), x0: -1, v0: 0).velocity
            case .animation(let curve, _):
                let duration = fillNominalInstant ?? 0
                if clock <= 0 || clock >= duration { return 0 }
                let u = Double(clock) / Double(duration)
                if case .bezier(let bezier) = curve { return bezier.slope(at: u) / seconds(duration) }
                return 1 / seconds(duration)
            }
        }

        // MARK: The retract

        static let retractInstant: Int64 = retractDuration.map(nanoseconds) ?? fillNominalInstant ?? 0

        static let reverseRate: Double = {
            if let seconds = retractDuration, let nominal = fillNominalSeconds { return nominal / seconds }
            return 1
        }()

        static func retractDone(_ elapsed: Int64) -> Double {
            if elapsed <= 0 { return 0 }
            if elapsed >= retractInstant { return 1 }
            let u = Double(elapsed) / Double(retractInstant)
            if case .bezier(let bezier) = retractCurve { return bezier.value(at: u) }
            return u
        }

        static func retractProgress(_ time: Int64, end: Int64, start: Int64) -> Double {
            let fillEnd = fillCompleteInstant ?? end
            let originProgress = heldProgress(end)
            let originClock = Swift.min(end, fillEnd) - start
            let elapsed = time - end
            switch retractMode {
            case .instant:
                return 0
            case .reverse:
                let clock = Double(originClock) - Double(elapsed) * reverseRate
                guard clock > 0 else { return 0 }
                return heldProgress(start + nearest(clock))
            case .animation:
                if case .spring(let spring) = retractCurve {
                    return spring.state(at: seconds(elapsed), x0: originProgress, v0: heldVelocity(end)).displacement
                }
                let done = retractDone(elapsed)
                if isTimer { return originProgress * (1 - done) }
                switch retractInterruption {
                case .swiftui: return heldProgress(time) * (1 - done)
                case .additive: return heldProgress(time) - done
                case .fromCurrent: return originProgress * (1 - done)
                }
            }
        }

        // MARK: Haptics

        /// The instant of display frame `index` for a touch-down `phase` of a frame interval before the first frame.
        static func frameInstant(_ index: Int, phase: Double) -> Int64 {
            nearest((Double(index) + phase) * (1_000_000_000.0 / refreshRate))
        }

        static func firstFrame(atOrAfter instant: Int64, phase: Double) -> Int {
            let position = Double(instant) / (1_000_000_000.0 / refreshRate) - phase
            if position <= 0 { return 0 }
            var index = Int(position.rounded(.up))
            while index > 0 && frameInstant(index - 1, phase: phase) >= instant { index -= 1 }
            while frameInstant(index, phase: phase) < instant { index += 1 }
            return index
        }

        /// Progress pulse requests: on every Timer fire, else on every frame while the fill moves (and the first frame
        /// after it completes), where progress ≥ the last request's + threshold (1e-12 forgiven on frames).
        static func progressRequests(phase: Double) -> [Int64] {
            guard hapticThreshold > 0, let start = fillStartInstant else { return [] }
            var requests: [Int64] = []
            var last = 0.0
            if isTimer {
                for index in fires.times.indices where fires.progress[index] >= last + hapticThreshold {
                    last = fires.progress[index]
                    requests.append(fires.times[index])
                }
                return requests
            }
            let end = start + (fillNominalInstant ?? 0)
            var index = firstFrame(atOrAfter: start, phase: phase)
            while true {
                let time = frameInstant(index, phase: phase)
                let progress = heldProgress(time)
                if progress >= last + hapticThreshold - 1e-12 {
                    last = progress
                    requests.append(time)
                }
                if time >= end { break }
                index += 1
            }
            return requests
        }

        /// Every request in time order (the completion pulse first at a shared instant): one at the same instant as
        /// the previous is the same pulse; another plays if minInterval has passed since the last played pulse.
        static func schedule(phase: Double) -> [(time: Int64, completion: Bool, played: Bool)] {
            let completion = hapticOnComplete ? triggerInstant : nil
            let requests = progressRequests(phase: phase)
            if requests.isEmpty { return completion.map { [($0, true, true)] } ?? [] }
            let minimum = nanoseconds(hapticMinInterval)
            var pulses: [(time: Int64, completion: Bool, played: Bool)] = []
            var lastRequest: Int64?
            var lastPlayed: Int64?
            var pending = completion
            func take(_ time: Int64, _ isCompletion: Bool) {
                if time == lastRequest { return }
                lastRequest = time
                let played = lastPlayed.map { time - $0 >= minimum } ?? true
                if played { lastPlayed = time }
                pulses.append((time, isCompletion, played))
            }
            for time in requests {
                if let instant = pending, instant <= time {
                    take(instant, true)
                    pending = nil
                }
                take(time, false)
            }
            if let instant = pending { take(instant, true) }
            return pulses
        }

        // MARK: - The answers

        /// Seconds after touch-down when the action fires for a hold held at least that long; nil when it never
        /// fires.
        public static func triggerTime() -> Double? { triggerInstant.map(seconds) }

        /// The fill's progress (the model's value: a spring may overshoot 1) `t` seconds after touch-down, for a
        /// finger held throughout, or released at `releasedAt` (then the retract, or the completed fill when the
        /// action fired and the fill stays). A release is processed before a frame at the same instant.
        public static func progress(at t: Double, releasedAt: Double? = nil) -> Double {
            let time = nanoseconds(t)
            guard let release = releasedAt else { return heldProgress(time) }
            let end = nanoseconds(release)
            if time < end { return heldProgress(time) }
            guard let start = fillStartInstant else { return 0 }
            let completed = triggerInstant.map { $0 <= end } ?? false
            if completed && afterTriggerStays { return heldProgress(time) }
            guard end > start else { return 0 }
            return retractProgress(time, end: end, start: start)
        }

        /// What the screen shows for a progress: clamped to 0…1.
        public static func displayed(_ progress: Double) -> Double { Swift.min(1, Swift.max(0, progress)) }

        /// Seconds after touch-down of the haptic pulses that play (progress pulses and the completion pulse),
        /// for frames starting `framePhase` of a frame interval after touch-down; up to `releasedAt` when given
        /// (a Timer fire or the trigger at the release instant still counts, a frame's pulse does not).
        public static func pulseTimes(framePhase: Double = 0, releasedAt: Double? = nil) -> [Double] {
            let end = releasedAt.map(nanoseconds)
            return schedule(phase: framePhase).filter { pulse in
                guard pulse.played else { return false }
                guard let end else { return true }
                return pulse.time < end || (pulse.time == end && (pulse.completion || isTimer))
            }.map { seconds($0.time) }
        }
    }

    """#
}
