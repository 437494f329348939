import ArgumentParser
import Foundation
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

            --review-folder DIR exports a design of a review folder ('holdlab report --out DIR'): the one its \
            report.md recommends (ship or keep), or the one --design names, made from the profiles the folder \
            carries in inputs/ with the values the review set, each checked against the hash designs.csv \
            recorded. The generated names come from the design's label.

            Examples:
              holdlab export --profile hig-linear-bar --swift --out HoldButton.swift
              holdlab export --profile kikocard-accelerating --kotlin --name Kiko
              holdlab export --swift --set fill.curve=easeInOut --out -
              holdlab export --review-folder review --swift --out Review.swift
              holdlab export --review-folder review --design fast --kotlin --out Fast.kt
            """)

    @OptionGroup var source: ProfileSourceOptions

    @Option(help: ArgumentHelp("Profile name or YAML file ('-' for standard input; default: hig-linear-bar).",
                               valueName: "name|file|-"),
            completion: .profileNames)
    var profile: String?

    @Option(name: .customLong("review-folder"), help: ArgumentHelp(
        "Export a design of this review folder (what 'holdlab report --out' wrote) instead of --profile.",
        valueName: "dir"), completion: .directory)
    var reviewFolder: String?

    @Option(help: ArgumentHelp(
        "With --review-folder: the design to export, by its label (default: the one report.md recommends).",
        valueName: "label"))
    var design: String?

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
        if let reviewFolder {
            if reviewFolder.isEmpty { throw ValidationError("--review-folder needs a folder") }
            for (given, option) in [(profile != nil, "--profile"), (!source.overrides.isEmpty, "--set"),
                                    (source.profilesDirectory != nil, "--profiles-dir")] where given {
                throw ValidationError("\(option) and --review-folder both name the design: the review folder carries "
                    + "its profiles and the values it set; give one of them")
            }
            // Nothing is written into the review: it would no longer be the folder its reproduce.sh regenerates.
            if OutputFile.isInside(out, folder: reviewFolder) {
                throw ValidationError("--out \(out) is inside --review-folder \(reviewFolder): write the code outside the review")
            }
            return
        }
        if design != nil { throw ValidationError("--design names a design of a review folder: give --review-folder DIR too") }
        try source.refuseRepeatedKeys()
        try refuseOutputsOverInputs([("--out", out == "-" ? nil : out)],
                                    inputs: [("--profile", source.library.profilePath(profileArgument))])
    }

    var profileArgument: String { profile ?? "hig-linear-bar" }

    /// The profile to export and the name its code takes by default: --profile (with --set), or a review folder's
    /// design.
    func exported() throws -> (profile: Profile, name: String) {
        guard let reviewFolder else {
            let loaded = try source.library.loadProfile(profileArgument, overrides: try source.parsedOverrides(command: "export"))
            return (loaded, loaded.name)
        }
        let folder = try ReviewFolder(path: reviewFolder)
        let labels = folder.plan.designs.map(\.label)
        let listed = labels.map { "'\($0)'" }.joined(separator: ", ")
        let index: Int
        if let design {
            guard let named = labels.firstIndex(of: design) else {
                throw UsageError("--design '\(design)': the review in \(reviewFolder) has the designs \(listed)")
            }
            index = named
        } else {
            switch folder.stated {
            case .design(let recommended): index = recommended
            case .undecided:
                throw UsageError("\(folder.reportPath) recommends no design (undecided): name one with --design (\(listed))")
            case .unreadable:
                throw UsageError("\(folder.reportPath) states no recommendation as holdlab report writes one: name the design with --design (\(listed))")
            case nil:
                printError("--review-folder \(reviewFolder): no report.md to read the recommendation from: name the design with --design (\(listed))")
                throw ExitStatus.noInput
            }
        }
        // The profile as the review resolved it (its hash the one designs.csv records); the label names the code.
        return (folder.plan.designs[index].profile, labels[index])
    }

    func run() throws {
        try reportingErrors {
            let (loaded, designName) = try exported()
            let output = OutputFile(argument: out)
            try output.checkWritable()
            let request = ControlExport.Request(
                profile: loaded, language: swift ? .swift : .kotlin,
                typeName: name ?? ControlExport.typeName(forProfile: designName), commandLine: CommandRecord.line())
            let result = try ControlExport.export(request)
            try output.writeLast(result.text)
            for note in result.notes { printNote(note) }
        }
    }
}
