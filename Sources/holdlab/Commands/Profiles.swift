import ArgumentParser
import Foundation
import HoldProfiles

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
            print(text, terminator: "")
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
                print("# \(library.profilePath(profile)) (resolved, fnv1a64:\(loaded.contentHash))")
                print(loaded.canonicalYAML, terminator: "")
            }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate profile files; print every problem, exit 65 if any is invalid (66 if one is missing).",
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
                    print("ok: \(library.profilePath(file)) (\(profile.name))")
                } catch {
                    printError(error.description)
                    if case .unknown = error.origin { missing += 1 } else { invalid += 1 }
                }
            }
            if invalid > 0 { throw ExitStatus.dataError }
            if missing > 0 { throw ExitStatus.noInput }
        }
    }
}
