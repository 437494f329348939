import ArgumentParser
import Foundation
import HoldLabIO
import HoldProfiles
import HoldStudies

struct Profiles: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List, show and check profiles.",
        subcommands: [List.self, Show.self, Check.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the profiles and populations in the library, with their descriptions and evidence.",
            discussion: """
                One row per profile and population: kind (profile or population), name, status (ok, or invalid with \
                the problem as the description), description, and for a population its evidence at a glance: how \
                many of its numbers cite a measurement (measured), rest on a stated assumption (assumed) or say \
                neither (unsourced). A table on a terminal, CSV into a pipe or a file.

                Examples:
                  holdlab profiles list
                  holdlab profiles list --format csv --columns name,description
                """)

        @OptionGroup var source: ProfileSourceOptions

        @OptionGroup var view: RowFormatOptions

        func validate() throws { try view.checkColumns(known: ProfileListRequest.columns.map(\.name)) }

        func run() throws {
            let library = source.library
            if let problem = Folder.problem(library.directory) {
                printError("\(library.directory): \(problem) (give one with --profiles-dir or $HOLDLAB_PROFILES)")
                throw ExitStatus.noInput
            }
            let overrides = try reportingErrors { try source.parsedOverrides(command: "profiles list") }
            let document = ProfileListRequest(library: library, overrides: overrides).result()
            try emit(view.render(document, for: .standardOutput))
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a profile resolved: every key with its default, overrides applied.",
            discussion: """
                Examples:
                  holdlab profiles show kikocard-accelerating --set fill.timer.tick=0.016
                  holdlab profiles show hig-linear-bar > my-control.yaml
                """)

        @OptionGroup var source: ProfileSourceOptions

        @Argument(help: ArgumentHelp("Profile name or YAML file.", valueName: "name|file"), completion: .profileNames)
        var profile: String

        func run() throws {
            try reportingErrors {
                try StandardOutput.write(try source.library.resolvedText(profile, overrides: try source.parsedOverrides(command: "profiles show")))
            }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate profile, population and review files; print every problem, exit 65 if any is invalid (66 if one cannot be opened).",
            discussion: """
                Every problem of a file is reported (file:line:column, key path, what is allowed): after a problem the \
                key is taken as absent (its default) and the file checked again. '-' reads standard input. The kind \
                of file comes from its content: a population has classes; a review has no version and review keys \
                (question, profiles, variants, …); else the folder (populations/, reviews/) decides, and anything \
                else is a profile. A review is also checked against the library: the profiles and populations it \
                names load, its set values and variants apply, its baseline is a design and its sweeps parse. \
                --set population.CLASS.key=value applies to population files, other keys to profiles.

                Examples:
                  holdlab profiles check Profiles/*.yaml Profiles/populations/*.yaml \\
                    Profiles/reviews/*.yaml
                  holdlab profiles show hig-linear-bar | holdlab profiles check -
                """)

        @OptionGroup var source: ProfileSourceOptions

        @OptionGroup var quietOption: QuietOption

        @Argument(help: ArgumentHelp("Profile, population or review files, or profile and population names.", valueName: "file"), completion: .profileNames)
        var files: [String] = []

        func validate() throws {
            if files.isEmpty { throw ValidationError("Name at least one profile file to check.") }
        }

        func run() throws {
            let library = source.library
            let overrides = try reportingErrors { try source.allOverrides() }
            // Every file is checked before anything is said: a problem of a `--set` is said of each file that has
            // it (the others may take it, or not read it: a population or review file reads no profile key), or
            // once as it is when every file has it alike (naming one would suggest the others take it).
            var checks: [Result<ProfileFileCheck, ProfileError>] = []
            for file in files {
                do throws(ProfileError) {
                    checks.append(.success(try library.check(file, overrides: overrides, reviewChecks: Self.reviewChecks)))
                } catch {
                    checks.append(.failure(error))
                }
            }
            func problems(_ check: Result<ProfileFileCheck, ProfileError>) -> [ProfileError] {
                switch check {
                case .success(.invalid(_, let problems)): problems
                case .success(.valid): []
                case .failure(let error): [error]
                }
            }
            let refusals = checks.map { problems($0).filter(\.isCommandLines).map(\.description) }
            let alike = ProfileError.refusedAlike(refusals)
            var invalid = 0
            var missing = 0
            var usage = false
            for (file, check) in zip(files, checks) {
                for problem in problems(check) {
                    guard problem.isCommandLines else {
                        printError(problem.description)
                        continue
                    }
                    usage = true
                    if alike {
                        if file == files[0] { printError(problem.description) }
                    } else {
                        printError(files.count > 1 ? problem.said(in: file, note: "one of the \(files.count) files checked").description
                                                   : problem.description)
                    }
                }
                switch check {
                case .success(.valid(let path, let name, let kind)):
                    try emit("ok: \(path) (\(kind == .profile ? name : kind == .population ? "population \(name)" : "review"))\n")
                case .success(.invalid(let path, let found)):
                    if !found.contains(where: \.isCommandLines) {
                        invalid += 1
                        if found.count > 1 { printNote("\(path): \(found.count) problems") }
                    }
                case .failure(let error):
                    if error.origin.isOverride { break }
                    if error.cannotOpen { missing += 1 } else { invalid += 1 }
                }
            }
            // A `--set` at fault is the command line's (64); then the check ran: "no" is status 1; a file that cannot
            // be opened is 66.
            if usage { throw ExitStatus.usage }
            if missing > 0 { throw ExitStatus.noInput }
            if invalid > 0 { throw ExitStatus.dataError }
        }

        /// A review's values as `report` takes them: a sweep as `--sweep` runs it (the grid over one key), each
        /// point's `key=value` text; the decision rule as `--prefer` and `--guard` read it.
        static let reviewChecks = ReviewValueChecks(
            sweepPoints: { text in
                let parameter = try SweepParameter(parsing: text)
                let plan = try SweepPlan(parameters: [parameter], design: .grid, points: nil, seed: 1)
                return plan.points.map { "\(parameter.keyPath)=\($0[0])" }
            },
            rule: { prefer, guardrail in
                _ = try DecisionRule(prefer: prefer ?? DecisionRule.defaultPrefer, guards: guardrail.map { [$0] } ?? [])
            })
    }
}
