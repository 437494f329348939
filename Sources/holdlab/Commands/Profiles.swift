import ArgumentParser
import Foundation
import HoldProfiles
import HoldSimulation

struct Profiles: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List, show and check profiles.",
        subcommands: [List.self, Show.self, Check.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the profiles and populations in the library.",
            discussion: "Example: holdlab profiles list")

        @OptionGroup var source: ProfileSourceOptions

        func run() throws {
            let library = source.library
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: library.directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                printError("\(library.directory): no such profile directory (give one with --profiles-dir or $HOLDLAB_PROFILES)")
                throw ExitStatus.noInput
            }
            var text = "Profiles in \(library.directory):\n"
            let names = library.profileNames()
            let width = (names.map(\.count).max() ?? 0) + 2
            for name in names {
                let summary: String
                do {
                    summary = try library.loadProfile(name).description
                } catch {
                    summary = "INVALID: \(error)"
                }
                text += "  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + summary + "\n"
            }
            text += "Populations in \(library.directory)/populations:\n"
            for name in library.populationNames() { text += "  \(name)\n" }
            try emit(text)
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a profile resolved: every key with its default, overrides applied.",
            discussion: "Example: holdlab profiles show kikocard-accelerating --set fill.timer.tick=0.016")

        @OptionGroup var source: ProfileSourceOptions

        @Argument(help: ArgumentHelp("Profile name or YAML file.", valueName: "name|file"))
        var profile: String

        func run() throws {
            try reportingErrors {
                let library = source.library
                let loaded = try library.loadProfile(profile, overrides: try source.parsedOverrides())
                try StandardOutput.write("# \(library.profilePath(profile)) (resolved, fnv1a64:\(loaded.contentHash))\n"
                                         + loaded.canonicalYAML)
            }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate profile files; print every problem, exit 1 if any is invalid (66 if one cannot be opened).",
            discussion: "Example: holdlab profiles check Profiles/*.yaml")

        @OptionGroup var source: ProfileSourceOptions

        @Argument(help: ArgumentHelp("Profile files or names.", valueName: "file"))
        var files: [String] = []

        func validate() throws {
            if files.isEmpty { throw ValidationError("Name at least one profile file to check.") }
        }

        func run() throws {
            let library = source.library
            let overrides = try reportingErrors { try source.parsedOverrides() }
            var invalid = 0
            var missing = 0
            for file in files {
                do {
                    let profile = try library.loadProfile(file, overrides: overrides)
                    try emit("ok: \(library.profilePath(file)) (\(profile.name))\n")
                } catch let error as ProfileError {
                    printError(error.description)
                    if case .override = error.origin { throw ExitStatus.usage }
                    if error.cannotOpen { missing += 1 } else { invalid += 1 }
                }
            }
            // The check ran: "no" is status 1; a file that cannot be opened is 66.
            if missing > 0 { throw ExitStatus.noInput }
            if invalid > 0 { throw ExitStatus.answerIsNo }
        }
    }
}
