import ArgumentParser
import HoldLabIO
import HoldPreview
import HoldProfiles

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the tuned control as source code: SwiftUI and Core Haptics, or Jetpack Compose.",
        discussion: """
            --swift writes one Swift file: a Foundation-only timing type <Name>Timing (the profile's \
            numbers; triggerTime(), progress(at:releasedAt:), pulseTimes(framePhase:releasedAt:), ported from \
            HoldLab's model so they agree with 'holdlab trace'), a SwiftUI view <Name>HoldButton \
            (#if canImport(SwiftUI)) and a CHHapticEngine player <Name>Haptics with the AHAP pattern \
            'holdlab haptics' exports (#if canImport(CoreHaptics)), with a note where the profile's system \
            haptic differs from the exported transient. --kotlin writes the same numbers as an object with \
            const vals, the held progress, the pulse times, a VibrationEffect and a @Composable.

            A Timer fill whose latency is drawn at random is exported with every tick on time (a note says so).

            Examples:
              holdlab export --profile hig-linear-bar --swift --out HoldButton.swift
              holdlab export --profile kikocard-accelerating --kotlin --name Kiko
              holdlab export --swift --set fill.curve=easeInOut --out -
            """)

    @OptionGroup var source: ProfileSourceOptions

    @Option(help: ArgumentHelp("Profile name or YAML file ('-' for standard input).", valueName: "name|file|-"),
            completion: .profileNames)
    var profile: String = "hig-linear-bar"

    @Flag(help: "Write Swift (timing type, SwiftUI view, Core Haptics player).")
    var swift = false

    @Flag(help: "Write Kotlin (Jetpack Compose).")
    var kotlin = false

    @Option(help: ArgumentHelp("Base of the generated names (<name>Timing …); default: from the profile name.",
                               valueName: "ident"))
    var name: String?

    @OptionGroup var quietOption: QuietOption

    @Option(name: .customLong("out"), help: ArgumentHelp(
        "Write the source here ('-' for standard output). Files are replaced atomically.", valueName: "file|-"),
            completion: .file())
    var out: String = "-"

    func validate() throws {
        if swift == kotlin {
            throw ValidationError(swift ? "give one of --swift and --kotlin, not both"
                                        : "give --swift or --kotlin: the language to write")
        }
        if let name, !ControlExport.isValidName(name) {
            throw ValidationError("--name '\(name)' is not a usable name: ASCII letters, digits and _, not starting "
                + "with a digit, not a Swift or Kotlin keyword, at most 100 characters (e.g. --name HoldToDelete)")
        }
        if out.isEmpty { throw ValidationError("--out needs a file name, or - for standard output") }
        try source.refuseRepeatedKeys()
        try refuseOutputsOverInputs([("--out", out == "-" ? nil : out)],
                                    inputs: [("--profile", source.library.profilePath(profile))])
    }

    func run() throws {
        try reportingErrors {
            let loaded = try source.library.loadProfile(profile, overrides: try source.parsedOverrides(command: "export"))
            let output = OutputFile(argument: out)
            try output.checkWritable()
            let request = ControlExport.Request(
                profile: loaded, language: swift ? .swift : .kotlin,
                typeName: name ?? ControlExport.typeName(forProfile: loaded.name), commandLine: CommandRecord.line())
            let result = try ControlExport.export(request)
            try output.write(result.text)
            for note in result.notes { printNote(note) }
        }
    }
}
