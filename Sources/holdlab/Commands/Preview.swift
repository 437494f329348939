import ArgumentParser
import Foundation
import HoldLabIO
import HoldPreview
import HoldProfiles
import HoldSimulation

struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Animate one hold of one or more designs side by side: an animated GIF, and an MP4 when ffmpeg is installed.",
        discussion: """
            Every design is traced exactly as 'holdlab trace' traces it (same release, phase and seed) and drawn as \
            its profile describes it (display.indicator: bar or ring): the fill as the display shows it, the status \
            (holding, the action fired, released), a dot for each frame in which a haptic pulse plays, and a \
            timeline with the pulses, the action and the release up to a playhead. The header counts time; the \
            footer carries the version, the command and each profile's hash. The same command gives the same bytes.

            The GIF runs at 50 frames per second (a delay of 2/100 s per frame: GIF delays are whole hundredths, and \
            browsers slow anything shorter to 1/10 s, so 2/100 s is the finest every viewer honours); each GIF \
            frame shows what the display showed at that instant. The MP4 (H.264) has one frame per display frame, \
            at the fastest design's refresh rate. Both hold the last state 0.6 s before looping.

            Designs: each --profile, then each --variant LABEL="key=value key=value …", which is the first profile \
            with those --set overrides (a value with spaces goes in braces, as in --set). At most 4.

            The GIF and the MP4 are written to temporaries and renamed into place together: a failed or \
            interrupted run leaves both files as they were (or absent).

            Exit status: 64 bad command line, 65 invalid profile, 66 missing profile, 69 gnuplot (or, for --mp4, \
            ffmpeg) not installed, 71 gnuplot or ffmpeg failed or was killed, 73 an output cannot be written, \
            129/130/143 interrupted.

            Examples:
              holdlab preview --profile kikocard-accelerating --profile hig-linear-bar \\
                --out review.gif
              holdlab preview --profile kikocard-accelerating --profile hig-linear-bar \\
                --release-at 1.2
              holdlab preview --profile hig-linear-bar --variant "slow=fill.duration=1.5" \\
                --variant "spring=fill.curve=snappy" --no-mp4
            """)

    @OptionGroup var source: ProfileSourceOptions

    @Option(help: ArgumentHelp("Profile name or YAML file (repeatable). Default: hig-linear-bar.", valueName: "name|file"), completion: .profileNames)
    var profile: [String] = []

    @Option(help: ArgumentHelp(
        "A design made from the first profile with overrides, e.g. --variant \"fast=fill.duration=0.6 gesture.minimumDuration=0.6\" (repeatable).",
        valueName: "label=\"key=value …\""))
    var variant: [String] = []

    @OptionGroup var hold: OneHoldOptions

    @OptionGroup var quietOption: QuietOption

    @Option(name: .customLong("out"), help: ArgumentHelp("The animated GIF.", valueName: "file.gif"), completion: .file(extensions: ["gif"]))
    var out: String = "preview.gif"

    @Option(name: .customLong("mp4"), help: ArgumentHelp(
        "The MP4. Default: the GIF's name with .mp4 when ffmpeg is installed (a note says when it is not).", valueName: "file.mp4"), completion: .file(extensions: ["mp4"]))
    var mp4: String?

    @Flag(name: .customLong("no-mp4"), help: "Write the GIF only.")
    var noMP4 = false

    /// The latest release a preview draws: 30 s is 1,500 GIF frames.
    static let longestReleaseSeconds = 30.0
    /// The longest animation, touch-down to the fill at rest: the longest hold and a retract as long again.
    static let longestAnimationSeconds = 60.0

    /// The MP4's path: `--mp4`, or beside the GIF when ffmpeg is there.
    var videoPath: String? {
        if noMP4 { return nil }
        if let mp4 { return mp4 }
        let stem = (out as NSString).deletingPathExtension
        return stem + ".mp4"
    }

    func validate() throws {
        if let releaseAt = hold.releaseAt, releaseAt > Self.longestReleaseSeconds {
            throw ValidationError("--release-at: a preview animates at most \(Int(Self.longestReleaseSeconds)) s of a hold (got \(releaseAt)); use holdlab trace for longer ones")
        }
        guard out.lowercased().hasSuffix(".gif"), (out as NSString).lastPathComponent.count > 4 else {
            throw ValidationError("--out \(out): the preview is an animated GIF; name a .gif file")
        }
        if noMP4 && mp4 != nil { throw ValidationError("--mp4 and --no-mp4 contradict each other; give one") }
        if let mp4, !(mp4.lowercased().hasSuffix(".mp4") && (mp4 as NSString).lastPathComponent.count > 4) {
            throw ValidationError("--mp4 \(mp4): name a .mp4 file")
        }
        let designs = max(profile.count, 1) + variant.count
        guard designs <= PreviewRequest.maximumDesigns else {
            throw ValidationError("a preview draws at most \(PreviewRequest.maximumDesigns) designs side by side (got \(designs) from --profile and --variant)")
        }
        var labels: Set<String> = []
        for text in variant {
            let (label, _) = try ComparisonOptions.parseVariant(text)
            guard labels.insert(label).inserted else { throw ValidationError("--variant \(label) is given twice; give each label once") }
        }
        try source.refuseRepeatedKeys()
        try refuseSameOutputs([("--out", out), ("--mp4", mp4)])
        let library = source.library
        try refuseOutputsOverInputs([("--out", out), ("--mp4", mp4)], inputs: profile.map { ("--profile", library.profilePath($0)) })
    }

    func run() throws {
        try reportingErrors {
            let library = source.library
            let overrides = try source.parsedOverrides(command: "preview")
            let names = profile.isEmpty ? ["hig-linear-bar"] : profile
            var designs: [Design] = []
            var firstText = ""
            for (loaded, text) in try library.loadProfilesWithText(names, overrides: overrides) {
                if designs.isEmpty { firstText = text }
                designs.append(Design(label: loaded.name, profile: loaded))
            }
            try refuseSameProfileNames(designs.map(\.profile), given: names)
            for text in variant {
                let design = try ComparisonOptions.loadVariant(
                    text, of: library.profilePath(names[0]), profileText: firstText, common: overrides).design
                // Panels are titled by label: a variant labelled as a profile could not be told from it.
                if designs.contains(where: { $0.label == design.label }) {
                    throw UsageError("--variant \(design.label) has the label of --profile \(design.label); panels are titled by label, so give it another")
                }
                designs.append(design)
            }
            let ffmpeg = PreviewRenderer.isInstalled("ffmpeg")
            if mp4 != nil && !ffmpeg {
                // Asked for a video that cannot be made: say so before drawing anything.
                throw PreviewError(.unavailable, "ffmpeg is not installed (or not on PATH), so --mp4 cannot be written; install it with: sudo apt-get install ffmpeg, or leave out --mp4")
            }
            let video = videoPath.flatMap { path in mp4 != nil || ffmpeg ? path : nil }
            try OutputFile.file(out).checkWritable()
            if let video { try OutputFile.file(video).checkWritable() }
            let request = PreviewRequest(
                designs: designs, releaseAtSeconds: hold.releaseAt, framePhase: hold.phase, seed: hold.seed, commandLine: CommandRecord.line())
            let timelines = try PreviewTimelines(request)
            // Held to the end, a long hold would be drawn frame by frame for minutes: the same bound as --release-at.
            if hold.releaseAt == nil, let longest = timelines.designs.max(by: { $0.release < $1.release }),
               Double(longest.release) / 1e9 > Self.longestReleaseSeconds {
                throw ValidationError("\(longest.design.label) is held \(String(format: "%.3f", Double(longest.release) / 1e9)) s before it is let go "
                                      + "(the action and the fill done, then 0.25 s); a preview animates at most "
                                      + "\(Int(Self.longestReleaseSeconds)) s of a hold: give --release-at, or use holdlab trace")
            }
            // And after the release, the retract: a spring that settles after minutes would be drawn as long.
            if let longest = timelines.designs.max(by: { $0.end < $1.end }), Double(longest.end) / 1e9 > Self.longestAnimationSeconds {
                throw ValidationError("\(longest.design.label)'s fill is at rest \(String(format: "%.3f", Double(longest.end) / 1e9)) s after "
                                      + "touch-down (released at \(String(format: "%.3f", Double(longest.release) / 1e9)) s, then its retract); "
                                      + "a preview animates at most \(Int(Self.longestAnimationSeconds)) s: give an earlier --release-at or a "
                                      + "shorter retract (--set retract.duration=0.3), or use holdlab trace")
            }
            // The GIF and the MP4 are renamed into place together: a failure or an interrupt leaves both as they were.
            try PreviewRenderer.render(timelines, gif: out, mp4: video)
            Temporaries.shared.outputsInPlace()
            if video == nil && !noMP4 {
                printNote("note: ffmpeg is not installed, so no MP4 was written (sudo apt-get install ffmpeg); the GIF is \(out)")
            }
        }
    }
}
