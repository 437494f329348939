import ArgumentParser
import HoldLabIO
import HoldModel
import HoldProfiles

struct Trace: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Trace one hold frame by frame.",
        discussion: """
            CSV columns: t_ms (milliseconds after touch-down), model_progress (the animation's value; may leave 0…1), \
            displayed_progress (what the last frame showed, clamped to 0…1), pulses (haptic pulses so far), event \
            (\(TraceEvent.allCases.map(\.rawValue).joined(separator: ", "))). Rows run from touch-down until the fill is \
            back at rest (at most \(HoldTrace.maximumFrames) frames: a longer trace says where its frames end).

            Examples:
              holdlab trace --profile hig-linear-bar --release-at 0.6 --out trace.csv
              holdlab trace --profile kikocard-accelerating --seed 7 --out - | tail -3
            """)

    @OptionGroup var source: ProfileSourceOptions

    @Option(help: ArgumentHelp("Profile name or YAML file.", valueName: "name|file"), completion: .profileNames)
    var profile: String = "hig-linear-bar"

    @OptionGroup var hold: OneHoldOptions

    @OptionGroup var output: OutputOptions

    @OptionGroup var view: RowFormatOptions

    @OptionGroup var quietOption: QuietOption

    func validate() throws {
        try source.refuseRepeatedKeys()
        try refuseOutputsOverInputs([("--out", output.file)], inputs: [("--profile", source.library.profilePath(profile))])
    }

    func run() throws {
        try reportingErrors {
            let profile = try source.library.loadProfile(profile, overrides: try source.parsedOverrides(command: "trace"))
            let out = OutputFile(argument: output.out)
            try out.checkWritable()
            let request = TraceRequest(profile: profile, releaseAtSeconds: hold.releaseAt, framePhase: hold.phase, seed: hold.seed)
            let trace = try request.run()
            try out.writeLast(try view.render(request.result(of: trace, commandLine: CommandRecord.line()), for: out))
            if let note = TraceRequest.truncationNote(trace) { printNote("warning: the trace is " + note) }
        }
    }
}
