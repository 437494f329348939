import ArgumentParser
import Foundation
import HoldSimulation

@main
struct HoldLab: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "holdlab",
        abstract: "Simulate and tune hold-to-confirm controls.",
        discussion: """
            Profiles (YAML) describe a control: gesture, fill, trigger, retract, haptics, display. Commands write CSV \
            with '#' provenance lines that gnuplot skips. Exit status: 0 success, 1 the answer is no (profiles check, \
            tune), 64 bad command line, 65 invalid profile or data, 66 an input cannot be opened, 69 gnuplot not \
            installed, 73 an output cannot be created, 74 write error, 129/130/143 hangup/interrupt/terminate (no \
            temporary left), 141 standard output's reader went away. README.md has the table.
            """,
        version: HoldLabVersion.current,
        subcommands: [Simulate.self, SweepCommand.self, Trace.self, Plot.self, Profiles.self, Fit.self, FitCurve.self, Tune.self, Benchmark.self]
    )

    /// Parses, runs and exits with HoldLab's status policy (`ExitStatus`): every error is one line on standard
    /// error, standard output failures end in 74 (141 for a closed pipe), and temporaries never outlive the run.
    static func main() {
        StandardStreams.prepare()
        Interruption.install()
        let arguments = Array(CommandLine.arguments.dropFirst())
        let status = execute(arguments)
        Temporaries.shared.removeAll()
        Foundation.exit(status)
    }

    static func execute(_ arguments: [String]) -> Int32 {
        do {
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

    /// `see 'holdlab help SUBCOMMAND'` for the subcommand the arguments name.
    private static func printSeeHelp(_ arguments: [String]) {
        var names: [String] = []
        var commands: [ParsableCommand.Type] = configuration.subcommands
        for argument in arguments {
            guard let next = commands.first(where: { $0._commandName == argument }) else { break }
            names.append(argument)
            commands = next.configuration.subcommands
        }
        StandardError.write("see 'holdlab help\(names.map { " " + $0 }.joined())'\n")
    }
}
