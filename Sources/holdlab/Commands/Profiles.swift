import ArgumentParser
import Foundation
import HoldLabIO
import HoldProfiles
import HoldSimulation

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

        static let columns = ["kind", "name", "status", "description"]

        func validate() throws { try view.checkColumns(known: Self.columns) }

        func run() throws {
            let library = source.library
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: library.directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                printError("\(library.directory): no such profile directory (give one with --profiles-dir or $HOLDLAB_PROFILES)")
                throw ExitStatus.noInput
            }
            let overrides = try reportingErrors { try source.parsedOverrides() }
            var text = CSV.provenance([("holdlab", "\(HoldLabVersion.current) profiles list"), ("directory", library.directory)])
            text += Self.columns.joined(separator: ",") + "\n"
            func row(_ kind: String, _ name: String, _ load: () throws -> String) {
                let fields: [String]
                do {
                    fields = [kind, name, "ok", try load()]
                } catch {
                    fields = [kind, name, "invalid", "\(error)"]
                }
                text += fields.map(CSV.field).joined(separator: ",") + "\n"
            }
            for name in library.profileNames() {
                row("profile", name) { try library.loadProfile(name, overrides: overrides).description }
            }
            for name in library.populationNames() {
                row("population", name) { try library.loadPopulation(name).description }
            }
            let out = OutputFile.standardOutput
            try emit(view.render(text, for: out))
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
                    // A name that is not in the library gets the library's error (with suggestions); a file is read.
                    let path = library.profilePath(file)
                    if !ProfileLibrary.isFilePath(file), !FileManager.default.fileExists(atPath: path) {
                        _ = try library.loadProfile(file, overrides: overrides)
                    }
                    let text = try ProfileLibrary.read(path, what: "profile")
                    let problems = Profile.problems(yaml: text, path: ProfileLibrary.displayPath(path), overrides: overrides)
                    if problems.isEmpty {
                        let profile = try Profile.load(yaml: text, path: ProfileLibrary.displayPath(path), overrides: overrides)
                        try emit("ok: \(ProfileLibrary.displayPath(path)) (\(profile.name))\n")
                        continue
                    }
                    for problem in problems {
                        printError(problem.description)
                        if case .override = problem.origin { throw ExitStatus.usage }
                    }
                    invalid += 1
                    if problems.count > 1 { printNote("\(ProfileLibrary.displayPath(path)): \(problems.count) problems") }
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
