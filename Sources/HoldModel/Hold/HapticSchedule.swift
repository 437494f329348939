/// The haptic pulses of a hold (DOMAIN §6): the progress steps a fill requests, the completion pulse, and one rule
/// for playing them.
///
/// One rule for every pulse: requests (a progress step on a frame or tick, the completion pulse at the trigger) are
/// taken in time order, the completion pulse first at an instant it shares with a progress request; a request at the
/// same instant as the previous one is the same pulse (felt once, counted once); any other request plays when at least
/// `minInterval` has passed since the last played pulse and is dropped otherwise. The actuator then renders the
/// played pulses: one closer than `actuatorMinInterval` to the last rendered pulse merges into it (felt as one), so
/// the shortest gap between rendered pulses is at least `actuatorMinInterval` and no pulse rate above
/// `1 / actuatorMinInterval` is ever reported (nor above `1 / minInterval` whenever minInterval > 0).
struct HapticSchedule {
    /// A pulse is requested when progress ≥ the last request's progress + threshold; 0 means no progress pulses.
    let threshold: Double
    /// A request closer than this (nanoseconds) to the last played pulse is dropped.
    let minInterval: Int64
    /// One more pulse when the action fires.
    let onComplete: Bool
    /// A played pulse closer than this (nanoseconds) to the last rendered one merges into it.
    let actuatorMinInterval: Int64

    init(_ haptics: Haptics) {
        threshold = haptics.threshold
        minInterval = Instant.nanoseconds(haptics.minIntervalSeconds)
        onComplete = haptics.onComplete
        actuatorMinInterval = Instant.nanoseconds(haptics.actuatorMinIntervalSeconds)
    }

    /// How far below a haptic step a frame's progress may be and still reach it (rounding of `last + threshold`).
    static let stepTolerance = 1e-12

    /// Merges the progress requests with the completion request and applies the throttle (see the type's rule).
    func schedule(progress requests: ReusedArray<Int64>, completion: Int64?,
                  into pulses: inout ReusedArray<PulseRequest>) {
        if requests.isEmpty {
            // The completion pulse alone (no progress steps): the first request always plays.
            if let completion { pulses.append(PulseRequest(time: completion, kind: .completion, status: .played)) }
            return
        }
        var lastRequest: Int64?
        var lastPlayed: Int64?
        var pendingCompletion = completion
        let minInterval = minInterval
        func take(_ time: Int64, _ kind: PulseRequest.Kind) {
            if time == lastRequest { return }
            lastRequest = time
            let played = lastPlayed.map { time - $0 >= minInterval } ?? true
            if played { lastPlayed = time }
            pulses.append(PulseRequest(time: time, kind: kind, status: played ? .played : .dropped))
        }
        for time in requests {
            if let completion = pendingCompletion, completion <= time {
                take(completion, .completion)
                pendingCompletion = nil
            }
            take(time, .progress)
        }
        if let completion = pendingCompletion { take(completion, .completion) }
    }

    /// Whether a haptic request at `time` is felt for a press that ends at `end`, in the documented same-instant
    /// order: the trigger (and its completion pulse) and a Timer tick (`onTicks`: the fill advances on them) come
    /// before a release at their instant, a frame (and the progress pulse it requests) after it.
    @inline(__always)
    static func countsWhileDown(_ time: Int64, kind: PulseRequest.Kind, end: Int64, onTicks: Bool) -> Bool {
        time < end || (time == end && (kind == .completion || onTicks))
    }

    /// Counts the pulses felt while the finger was down into `summary`: played and dropped, and the shortest gap
    /// between two rendered ones (a played pulse closer than `actuatorMinInterval` to the last rendered one merges
    /// into it and starts no gap). The schedule assumed the finger stays down; requests up to the end of the press did
    /// not depend on that (the completion request is at the trigger, so it is in only if the action fired, and it
    /// changes only what follows it).
    @inline(__always)
    static func count(_ pulses: ReusedArray<PulseRequest>, pressEnd end: Int64, onTicks: Bool,
                      actuatorMinInterval: Int64, into summary: inout HoldSummary) {
        var previousRendered: Int64?
        var shortestGap = Int64.max
        for request in pulses {
            guard countsWhileDown(request.time, kind: request.kind, end: end, onTicks: onTicks) else { break }
            guard request.status == .played else { summary.droppedPulses += 1; continue }
            summary.pulses += 1
            if let previous = previousRendered {
                let gap = request.time - previous
                if gap < actuatorMinInterval { continue }
                shortestGap = min(shortestGap, gap)
            }
            previousRendered = request.time
        }
        summary.shortestPulseGap = shortestGap
    }
}

extension PreparedFill {
    /// The progress requests of a fill that follows a curve, checked on every frame while the fill moves, and on the
    /// first frame after it completes. A frame that lands exactly on a step (0.95 = 114/120 after 0.90 with threshold
    /// 0.05) reaches it: the comparison forgives the rounding of `last + threshold` (1e-12 of progress, far below
    /// anything a display or a hand can tell).
    func requestProgressPulsesOnFrames(start: Int64, clock: FrameClock, threshold: Double, steps: FillSteps,
                                       into requests: inout ReusedArray<Int64>) {
        var lastRequestProgress = 0.0
        let end = start + nominalNanoseconds
        var index = clock.firstFrame(atOrAfter: start)
        while true {
            let time = clock.time(ofFrame: index)
            let progress = progress(at: time, start: start, steps: steps)
            if progress >= lastRequestProgress + threshold - HapticSchedule.stepTolerance {
                lastRequestProgress = progress
                requests.append(time)
            }
            if time >= end { break }
            index += 1
        }
    }
}
