import ArgumentParser
import Foundation
import HoldFitting
import HoldModel
import HoldProfiles
import HoldSimulation

/// Exit statuses scripts can rely on (sysexits.h); ArgumentParser uses 64 for a bad command line.
enum ExitStatus {
    static let dataError = ExitCode(65)
    static let noInput = ExitCode(66)
    /// A program HoldLab needs (gnuplot) is not installed.
    static let unavailable = ExitCode(69)
    static let cannotCreate = ExitCode(73)
}

/// Runs a command body, printing library errors as one `holdlab: error:` line on standard error and mapping them
/// to exit statuses.
func reportingErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as ProfileError {
        printError(error.description)
        if case .unknown = error.origin { throw ExitStatus.noInput }
        throw ExitStatus.dataError
    } catch let error as ControlError {
        printError(error.description)
        throw ExitStatus.dataError
    } catch let error as TuneError {
        printError(error.description)
        throw ExitStatus.dataError
    } catch let error as CSVTableError {
        printError(error.description)
        if error.kind == .cannotOpen { throw ExitStatus.noInput }
        throw ExitStatus.dataError
    } catch let error as CurveFitError {
        printError(error.description)
        throw ExitStatus.dataError
    } catch let error as SweepError {
        printError(error.description)
        throw ExitStatus.dataError
    } catch let error as SimulationError {
        printError(error.description)
        throw ExitStatus.dataError
    } catch let error as OutputError {
        printError(error.description)
        throw ExitStatus.cannotCreate
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data("holdlab: error: \(message)\n".utf8))
}

/// The command line as it was typed, with the executable's name shortened to `holdlab`.
func typedCommandLine() -> String {
    CSV.commandLine(["holdlab"] + CommandLine.arguments.dropFirst())
}
