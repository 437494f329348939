import ArgumentParser
import Foundation
import HoldLabIO
import HoldSimulation

@main
struct HoldLab: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "holdlab",
        abstract: "Simulate and tune hold-to-confirm controls.",
        discussion: """
            Profiles (YAML) describe a control: gesture, fill, trigger, retract, haptics, display. Commands write CSV \
            with '#' provenance lines that gnuplot skips. Exit status: 0 success, 1 the answer is no (check: a rule \
            fails; tune: nothing feasible), 64 bad command line, 65 invalid profile or data, 66 an input cannot be opened, 69 gnuplot (or \
            ffmpeg) not installed, 71 gnuplot or ffmpeg could not start, was killed or (preview) failed, 73 an output cannot be created, 74 write error, 129/130/143 hangup/interrupt/terminate (no \
            temporary left), 141 standard output's reader went away. docs/EXIT-STATUS.md has the table.
            """,
        version: HoldLabVersion.current,
        subcommands: [Simulate.self, Compare.self, Report.self, GuidelineCheck.self, SweepCommand.self, SensitivityCommand.self, Merge.self, Trace.self, Preview.self, Haptics.self, Export.self, Plot.self, Profiles.self, Fit.self, FitCurve.self, Tune.self, Benchmark.self]
    )

    /// Parses, runs and exits with HoldLab's status policy (`ExitStatus`): every error is one line on standard
    /// error, standard output failures end in 74 (141 for a closed pipe), and temporaries never outlive the run.
    static func main() {
        StandardStreams.prepare()
        Signals.install()
        let arguments = joiningNegativeValues(Array(CommandLine.arguments.dropFirst()))
        let status = execute(arguments)
        // A signal whose cleanup has started decides the status (129, 130, 143), whatever the run ended with.
        Temporaries.shared.haltIfEnding()
        Temporaries.shared.removeAll()
        Foundation.exit(status)
    }

    static func execute(_ arguments: [String]) -> Int32 {
        do {
            try refuseUnknownHelpTopic(arguments)
            try refuseUnknownCommand(arguments)
            try refuseUnknownOptions(arguments)
            try refuseRepeatedOptions(arguments)
            var command = try parseAsRoot(arguments)
            try command.run()
            return ExitStatus.success.rawValue
        } catch let status as ExitStatus {
            return status.rawValue
        } catch let code as ExitCode {
            return code.rawValue
        } catch let error as UsageError {
            printError(error.message)
            printSeeHelp(arguments)
            return ExitStatus.usage.rawValue
        } catch {
            return report(error, arguments: arguments)
        }
    }

    /// `holdlab help NAME` for a NAME that is no subcommand is a usage error (ArgumentParser would print the root
    /// help and succeed, hiding the typo from a script).
    static func refuseUnknownHelpTopic(_ arguments: [String]) throws {
        guard arguments.count > 1, arguments[0] == "help", !arguments[1].hasPrefix("-") else { return }
        let known = configuration.subcommands.map { $0._commandName }
        guard !known.contains(arguments[1]) else { return }
        throw UsageError("help: no subcommand '\(arguments[1])'; subcommands: \(known.joined(separator: ", "))")
    }

    /// A first word (or `profiles`' second) that is no subcommand gets the ones it is close to, where ArgumentParser
    /// would say only "Unexpected argument": `holdlab simulat` → did you mean 'simulate'?
    static func refuseUnknownCommand(_ arguments: [String]) throws {
        var commands: [ParsableCommand.Type] = configuration.subcommands
        var path = ""
        for word in arguments.prefix(2) {
            guard !word.hasPrefix("-"), !commands.isEmpty else { return }
            let names = commands.map { $0._commandName } + (path.isEmpty ? ["help"] : [])
            guard let match = commands.first(where: { $0._commandName == word }) else {
                if names.contains(word) { return }
                throw UsageError("'\(path)\(word)' is no command\(Suggestions.didYouMean(word, among: names)); commands: "
                    + names.filter { $0 != "help" }.joined(separator: ", "))
            }
            path += word + " "
            commands = match.configuration.subcommands
        }
    }

    /// ArgumentParser's outcomes: help and version on standard output (status 0), usage errors as one line and a
    /// pointer to the help (64); anything else by `classify`.
    private static func report(_ error: Error, arguments: [String]) -> Int32 {
        let code = exitCode(for: error)
        if code == .success {
            let text = fullMessage(for: error)
            do {
                try StandardOutput.write(text.hasSuffix("\n") ? text : text + "\n")
            } catch {
                let (status, message) = classify(error)
                if let message { printError(message) }
                return status.rawValue
            }
            return 0
        }
        if code == .validationFailure || error is ValidationError {
            var message = message(for: error)
            if message.hasPrefix("Error: ") { message.removeFirst(7) }
            printError(message)
            printSeeHelp(arguments)
            return ExitStatus.usage.rawValue
        }
        let (status, message) = classify(error)
        if let message { printError(message) }
        return status.rawValue
    }

    /// `--name -0.2` becomes `--name=-0.2`: a negative number after an option is that option's value (ArgumentParser
    /// would take `-0.2` for an option of its own and say the value is missing); so is a list that starts with
    /// standard input (`--population -,default`). Arguments after `--` are kept.
    static func joiningNegativeValues(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var literal = false
        for argument in arguments {
            if !literal, let last = result.last, last.hasPrefix("--"), last.count > 2, !last.contains("="),
               argument.hasPrefix("-"), argument.count > 1, Double(argument) != nil || argument.hasPrefix("-,") {
                result[result.count - 1] = last + "=" + argument
                continue
            }
            if argument == "--" { literal = true }
            result.append(argument)
        }
        return result
    }

    /// Refuses an option given twice that its command takes once (64): ArgumentParser would silently keep the last.
    /// The options a command takes more than once are the ones its declarations make repeatable (arrays), read from
    /// ArgumentParser's own description of the command (`repeatableOptions(of:)`).
    static func refuseRepeatedOptions(_ arguments: [String]) throws {
        let names = commandPath(arguments)
        guard let command = commandType(names) else { return }
        let repeatable = repeatableOptions(of: command)
        var seen: Set<String> = []
        for argument in arguments.dropFirst(names.count) {
            if argument == "--" { break }
            guard argument.hasPrefix("--"), argument.count > 2 else { continue }
            let name = String(argument.split(separator: "=", maxSplits: 1)[0])
            if repeatable.contains(name) { continue }
            if !seen.insert(name).inserted {
                throw UsageError("\(name) is given twice; give it once (the last would silently win)")
            }
        }
    }

    /// A `--name` the command does not declare is a usage error naming it, before anything else is checked:
    /// ArgumentParser runs a command's `validate()` first, so `tune --minimze X` was told to give one of `--minimize`,
    /// `--maximize` and `--target`, hiding the typo. The value after an option that takes one is skipped (it may
    /// start with `--` under `parsing: .unconditional`); everything after `--` is a value.
    static func refuseUnknownOptions(_ arguments: [String]) throws {
        let names = commandPath(arguments)
        guard let command = commandType(names) else { return }
        let declared = declaredOptions(of: command)
        guard !declared.isEmpty else { return }
        var rest = arguments.dropFirst(names.count)[...]
        while let argument = rest.popFirst() {
            if argument == "--" { break }
            guard argument.hasPrefix("--"), argument.count > 2 else { continue }
            let parts = argument.split(separator: "=", maxSplits: 1)
            let name = String(parts[0])
            // ArgumentParser's own: help, version, and the JSON description tools read.
            let builtIn = ["--help", "--version", "--experimental-dump-help"].contains(name)
            guard let takesValue = declared[name] ?? (builtIn ? false : nil) else {
                let closest = Suggestions.closest(to: name, among: Array(declared.keys).sorted(), limit: 1)
                throw UsageError("Unknown option '\(name)'" + (closest.first.map { ". Did you mean '\($0)'?" } ?? ""))
            }
            if takesValue && parts.count == 1 { _ = rest.popFirst() }
        }
    }

    /// Every long name (`--users`) `command` declares, with whether it takes a value, from ArgumentParser's JSON
    /// description of it; empty when the description cannot be read (nothing is then refused here).
    static func declaredOptions(of command: ParsableCommand.Type) -> [String: Bool] {
        var names: [String: Bool] = [:]
        for option in longOptions(of: command) { names[option.name] = option.takesValue }
        return names
    }

    /// The options and flags `command` declares, by long name (`--set`), from ArgumentParser's JSON description of
    /// it: whether each takes a value and may be repeated. Empty when the description cannot be read.
    static func longOptions(of command: ParsableCommand.Type) -> [(name: String, takesValue: Bool, repeats: Bool)] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(command._dumpHelp().utf8)) as? [String: Any],
              let info = object["command"] as? [String: Any], let arguments = info["arguments"] as? [[String: Any]]
        else { return [] }
        var options: [(name: String, takesValue: Bool, repeats: Bool)] = []
        for argument in arguments where argument["kind"] as? String != "positional" {
            for name in argument["names"] as? [[String: Any]] ?? [] where name["kind"] as? String == "long" {
                guard let text = name["name"] as? String else { continue }
                options.append(("--" + text, argument["kind"] as? String == "option", argument["isRepeating"] as? Bool == true))
            }
        }
        return options
    }

    /// The long names (`--set`) of the options and flags `command` declares repeatable, from ArgumentParser's JSON
    /// description of it (the `isRepeating` of each argument).
    static func repeatableOptions(of command: ParsableCommand.Type) -> Set<String> {
        Set(longOptions(of: command).filter(\.repeats).map(\.name))
    }

    /// The command type a path of subcommand names leads to; nil for none.
    static func commandType(_ names: [String]) -> ParsableCommand.Type? {
        var commands: [ParsableCommand.Type] = configuration.subcommands
        var found: ParsableCommand.Type?
        for name in names {
            guard let next = commands.first(where: { $0._commandName == name }) else { return nil }
            found = next
            commands = next.configuration.subcommands
        }
        return found
    }

    /// The subcommand names at the start of the arguments (`["profiles", "check"]`).
    static func commandPath(_ arguments: [String]) -> [String] {
        var names: [String] = []
        var commands: [ParsableCommand.Type] = configuration.subcommands
        for argument in arguments {
            guard let next = commands.first(where: { $0._commandName == argument }) else { break }
            names.append(argument)
            commands = next.configuration.subcommands
        }
        return names
    }

    /// `see 'holdlab help SUBCOMMAND'` for the subcommand the arguments name.
    private static func printSeeHelp(_ arguments: [String]) {
        let names = commandPath(arguments)
        StandardError.write("see 'holdlab help\(names.map { " " + $0 }.joined())'\n")
    }
}
