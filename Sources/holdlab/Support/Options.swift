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

/// The options of every command that runs simulations (simulate, sweep, tune).
struct RunOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Population name or YAML file. Default: the one the profiles name.", valueName: "name|file"))
    var population: String?

    @Option(help: "Synthetic users per simulation (per profile, sweep point or tune evaluation).")
    var users: Int = 100_000

    @Option(help: "Master seed; every simulation of the run uses it (common random numbers).")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("Worker threads (default: the number of cores). Results do not depend on it."))
    var threads: Int?

    func validate() throws {
        guard users >= 1 && users <= 10_000_000_000 else {
            throw ValidationError("--users must be from 1 to 10,000,000,000 (got \(users)).")
        }
        if let threads, !(1...256).contains(threads) {
            throw ValidationError("--threads must be from 1 to 256 (got \(threads)).")
        }
    }

    /// `--threads`, or the number of cores.
    var workerThreads: Int { threads ?? ProcessInfo.processInfo.activeProcessorCount }
}
