import ArgumentParser
import Foundation
import HoldLabIO
import HoldProfiles

struct Profiles: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List, show and check profiles.",
        subcommands: [List.self, Show.self, Check.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the profiles and populations in the library, with their descriptions.",
            discussion: """
                One row per profile and population: kind (profile or population), name, status (ok, or invalid with \
                the problem as the description) and description. A table on a terminal, CSV into a pipe or a file.

                Examples:
                  holdlab profiles list
                  holdlab profiles list --format csv --columns name,description
                """)

        @OptionGroup var source: ProfileSourceOptions

        @OptionGroup var view: RowFormatOptions

        func validate() throws { try view.checkColumns(known: ProfileListRequest.columns.map(\.name)) }

        func run() throws {
            let library = source.library
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: library.directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                printError("\(library.directory): no such profile directory (give one with --profiles-dir or $HOLDLAB_PROFILES)")
                throw ExitStatus.noInput
            }
            let overrides = try reportingErrors { try source.parsedOverrides() }
            let document = ProfileListRequest(library: library, overrides: overrides).result()
            try emit(view.render(document, for: .standardOutput))
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
                try StandardOutput.write(try source.library.resolvedText(profile, overrides: try source.parsedOverrides()))
            }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate profile files; print every problem, exit 65 if any is invalid (66 if one cannot be opened).",
            discussion: """
                Every problem of a file is reported (file:line:column, key path, what is allowed): after a problem the \
                key is taken as absent (its default) and the file checked again. '-' reads standard input.

                Examples:
                  holdlab profiles check Profiles/*.yaml
                  holdlab profiles show hig-linear-bar | holdlab profiles check -
                """)

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
                    switch try library.check(file, overrides: overrides) {
                    case .valid(let path, let name):
                        try emit("ok: \(path) (\(name))\n")
                    case .invalid(let path, let problems):
                        for problem in problems {
                            printError(problem.description)
                            if case .override = problem.origin { throw ExitStatus.usage }
                        }
                        invalid += 1
                        if problems.count > 1 { printNote("\(path): \(problems.count) problems") }
                    }
                } catch let error as ProfileError {
                    printError(error.description)
                    if case .override = error.origin { throw ExitStatus.usage }
                    if error.cannotOpen { missing += 1 } else { invalid += 1 }
                }
            }
            // The check ran: "no" is status 1; a file that cannot be opened is 66.
            if missing > 0 { throw ExitStatus.noInput }
            if invalid > 0 { throw ExitStatus.dataError }
        }
    }
}
