import ArgumentParser
import Foundation
import HoldProfiles

/// Where profiles come from and what to override: shared by every command that loads a profile.
struct ProfileSourceOptions: ParsableArguments {
    @Option(name: .customLong("profiles-dir"), help: ArgumentHelp(
        "Directory of profiles (populations in its populations/ folder).",
        discussion: "Default: $HOLDLAB_PROFILES, else ./Profiles, else the Profiles folder of this package.",
        valueName: "dir"))
    var profilesDirectory: String?

    @Option(name: .customLong("set"), help: ArgumentHelp(
        "Override a profile value, e.g. --set fill.curve=easeInOut or --set fill.timer.latency.value=0.0008 (repeatable).",
        valueName: "key.path=value"))
    var overrides: [String] = []

    var library: ProfileLibrary {
        if let profilesDirectory { return ProfileLibrary(directory: profilesDirectory) }
        return ProfileLibrary.discover(executablePath: Self.executablePath())
    }

    func parsedOverrides() throws -> [Override] {
        try overrides.map { text throws(ProfileError) in try Override(parsing: text) }
    }

    private static func executablePath() -> String? {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
        return CommandLine.arguments.first.flatMap { $0.contains("/") ? $0 : nil }
    }
}

/// `--out FILE|-`.
struct OutputOptions: ParsableArguments {
    @Option(name: .customLong("out"), help: ArgumentHelp(
        "Write the CSV here ('-' for standard output). Files are replaced atomically.", valueName: "file|-"))
    var out: String = "-"
}
