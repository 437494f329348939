import ArgumentParser
import HoldSimulation

struct Trace: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Trace one hold frame by frame.",
        discussion: """
            CSV columns: t_ms (milliseconds after touch-down), model_progress (the animation's value; may leave 0…1), \
            displayed_progress (what the last frame showed, clamped to 0…1), pulses (haptic pulses so far), event \
            (frame, touch_down, recognized, fill_start, pulse, pulse_dropped, fill_complete, trigger, completion_pulse, \
            displayed_full, release, retract_end). Rows run from touch-down until the fill is back at rest.

            Example: holdlab trace --profile hig-linear-bar --release-at 0.6 --out trace.csv
            """)

    @OptionGroup var source: ProfileSourceOptions

    @Option(help: ArgumentHelp("Profile name or YAML file.", valueName: "name|file"))
    var profile: String = "hig-linear-bar"

    @Option(name: .customLong("release-at"), parsing: .unconditional, help: ArgumentHelp(
        "Seconds after touch-down when the finger lifts. Default: hold until the action fired and the fill completed, plus 0.25 s.",
        valueName: "seconds"))
    var releaseAt: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Fraction of a frame interval from touch-down to the first frame, 0 ≤ phase < 1.", valueName: "0..1"))
    var phase: Double = 0

    @Option(parsing: .unconditional, help: "Seed for the Timer latency draws.")
    var seed: UInt64 = 1

    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard phase.isFinite, phase >= 0, phase < 1 else {
            throw ValidationError("--phase must be at least 0 and below 1 (got \(phase)).")
        }
        if let releaseAt, !(releaseAt.isFinite && releaseAt >= 0 && releaseAt <= 120) {
            throw ValidationError("--release-at must be a number of seconds from 0 to 120 (got \(releaseAt)).")
        }
        try source.refuseRepeatedKeys()
        try refuseOutputsOverInputs([("--out", output.file)], inputs: [("--profile", source.library.profilePath(profile))])
    }

    func run() throws {
        try reportingErrors {
            let profile = try source.library.loadProfile(profile, overrides: try source.parsedOverrides())
            let out = OutputFile(argument: output.out)
            try out.checkWritable()
            let request = TraceRequest(profile: profile, releaseAtSeconds: releaseAt, framePhase: phase, seed: seed)
            try out.write(try TraceReport.csv(request, commandLine: typedCommandLine()))
        }
    }
}
