import HoldModel
import HoldProfiles


/// What `holdlab preview` (and `holdlab report`) animate: one hold of each design, all pressed at t = 0 and
/// released at the same instant (or each held to its own end).
public struct PreviewRequest: Sendable {
    /// One to `maximumDesigns` designs, drawn side by side in this order.
    public var designs: [Design]
    /// When the finger lifts, seconds after touch-down; nil holds each design until its action fired and its fill
    /// completed, plus 0.25 s (what `trace` does).
    public var releaseAtSeconds: Double?
    /// Fraction of a display frame from touch-down to the first frame, in [0, 1).
    public var framePhase: Double
    /// Seed of the Timer latency draws (as `trace --seed`).
    public var seed: UInt64
    /// The command that made the preview, for the provenance footer.
    public var commandLine: String

    /// The most designs a preview draws side by side.
    public static let maximumDesigns = 4

    public init(designs: [Design], releaseAtSeconds: Double? = nil, framePhase: Double = 0, seed: UInt64 = 1,
                commandLine: String) {
        self.designs = designs
        // -0 is 0: one instant, one text in the outputs (`--phase -0` wrote "-0.0").
        self.releaseAtSeconds = releaseAtSeconds.map { $0 + 0 }
        self.framePhase = framePhase + 0
        self.seed = seed
        self.commandLine = commandLine
    }
}

/// What one design's screen and haptic engine do over time, read off its `trace` (`TraceRequest.run`): the same
/// model, rows and instants as `holdlab trace` for the same profile, release, phase and seed.
public struct DesignTimeline: Sendable {
    public var design: Design
    public var trace: HoldTrace
    /// Played pulses (progress and completion), nanoseconds after touch-down; dropped requests are not here.
    public var pulses: [HapticPulse]
    /// When the action fired, or nil.
    public var trigger: Int64?
    /// When the finger lifted (or movement cancelled).
    public var release: Int64
    /// The last row of the trace: the fill is at rest from here on.
    public var end: Int64

    public init(design: Design, trace: HoldTrace) {
        self.design = design
        self.trace = trace
        pulses = HapticPulse.played(in: trace)
        trigger = trace.outcome.completed ? trace.timeline.trigger : nil
        release = trace.outcome.pressEnd
        end = trace.rows.last?.time ?? 0
    }

    /// What the screen shows at `time` (ns): the displayed progress of the last trace row at or before it (the last
    /// display frame, clamped to 0–1), exactly `trace`'s `displayed_progress` column.
    public func displayedProgress(at time: Int64) -> Double {
        let rows = trace.rows
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if rows[middle].time <= time { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? 0 : rows[low - 1].displayedProgress
    }

    /// The played pulses in (after, upTo]: what an animation frame at `upTo` flashes when the previous one was at `after`.
    public func pulses(after: Int64, upTo: Int64) -> [HapticPulse] {
        pulses.filter { $0.time > after && $0.time <= upTo }
    }

    /// The state line under the control at `time`.
    public func status(at time: Int64) -> DesignStatus {
        if let trigger, trigger <= time { return .fired }
        // A completed hold's trigger came at or before its release, so it returned above.
        if release <= time { return .released }
        if time < trace.timeline.recognition { return .pressing }
        return .recognized
    }
}

/// The state a panel names under its control.
public enum DesignStatus: Int, Sendable, CaseIterable {
    /// Finger down, the gesture not yet recognised.
    case pressing = 1
    /// Finger down, the gesture recognised, the action not fired yet.
    case recognized = 2
    /// The action fired.
    case fired = 3
    /// The finger lifted before the action: cancelled.
    case released = 4

    /// The words the preview shows.
    public var text: String {
        switch self {
        case .pressing: "holding…"
        case .recognized: "recognised: holding…"
        case .fired: "action fired"
        case .released: "released: cancelled"
        }
    }
}

/// One played haptic pulse of a trace.
public struct HapticPulse: Sendable, Equatable {
    /// Nanoseconds after touch-down.
    public var time: Int64
    /// The completion pulse (at the trigger), not a progress pulse.
    public var isCompletion: Bool

    public init(time: Int64, isCompletion: Bool) {
        self.time = time
        self.isCompletion = isCompletion
    }

    /// The pulses a trace played, in time order: its `pulse` and `completion_pulse` rows. Dropped requests
    /// (`pulse_dropped`, `completion_pulse_dropped`) are not felt and are left out.
    public static func played(in trace: HoldTrace) -> [HapticPulse] {
        trace.rows.compactMap { row in
            switch row.event {
            case .pulse: HapticPulse(time: row.time, isCompletion: false)
            case .completionPulse: HapticPulse(time: row.time, isCompletion: true)
            default: nil
            }
        }
    }
}

/// The instants an animation samples: GIF frames every 20 ms, or video frames at a display's rate.
public struct FrameSchedule: Sendable, Equatable {
    /// Nanoseconds after touch-down of each frame, ascending, the first at 0 (or the display's phase).
    public var times: [Int64]

    /// GIF frames: every `gifDelayCentiseconds` hundredths of a second from touch-down through `end`, then
    /// `gifHoldSeconds` more of the last state, so the loop's restart is legible.
    public static func gif(through end: Int64) -> FrameSchedule {
        let step = Int64(gifDelayCentiseconds) * 10_000_000
        let last = (end + Instant.nanoseconds(gifHoldSeconds) + step - 1) / step
        return FrameSchedule(times: (0...last).map { $0 * step })
    }

    /// Video frames at a display's refresh rate and phase (the trace's own frame instants), through `end` plus
    /// the same hold as the GIF.
    public static func display(refreshRateHz: Double, phase: Double, through end: Int64) -> FrameSchedule {
        let clock = FrameClock(refreshRateHz: refreshRateHz, phase: phase)
        let last = clock.firstFrame(atOrAfter: end + Instant.nanoseconds(gifHoldSeconds))
        return FrameSchedule(times: (0...last).map(clock.time(ofFrame:)))
    }

    /// Hundredths of a second between GIF frames: 2, i.e. 50 frames per second. GIF delays are whole
    /// centiseconds and browsers raise delays below 2 cs to 10 cs (100 ms), so 2 cs is the finest delay every
    /// viewer plays as written.
    public static let gifDelayCentiseconds = 2

    /// Seconds the last state stays on screen before the animation loops.
    public static let gifHoldSeconds = 0.6
}

/// The designs of a request, traced.
public struct PreviewTimelines: Sendable {
    public var request: PreviewRequest
    public var designs: [DesignTimeline]

    /// Traces each design with `TraceRequest.run`: the request's release, phase and seed, as `trace` would.
    public init(_ request: PreviewRequest) throws(ControlError) {
        self.request = request
        var designs: [DesignTimeline] = []
        for design in request.designs {
            let trace = try TraceRequest(
                profile: design.profile, releaseAtSeconds: request.releaseAtSeconds, framePhase: request.framePhase,
                seed: request.seed).run()
            designs.append(DesignTimeline(design: design, trace: trace))
        }
        self.designs = designs
    }

    /// The latest instant any design's trace reaches.
    public var end: Int64 { designs.map(\.end).max() ?? 0 }

    /// The fastest display among the designs, frames per second (the MP4's rate).
    public var fastestRefreshRate: Double {
        designs.map(\.design.profile.control.display.refreshRateHz).max() ?? 60
    }
}
