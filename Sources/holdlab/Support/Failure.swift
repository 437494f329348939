import ArgumentParser
import Foundation
import GSL
import HoldFitting
import HoldLabIO
import HoldModel
import HoldPreview
import HoldProfiles
import HoldSimulation
import HoldStudies

/// HoldLab's exit statuses, the one policy every command follows (sysexits.h where one fits). docs/EXIT-STATUS.md
/// has the same table.
enum ExitStatus: Int32, Error {
    case success = 0
    /// The command ran and the answer is "no": `check` found a failing rule, `tune` no point that meets the
    /// constraints.
    case answerIsNo = 1
    /// A bad command line: an unknown option, a malformed or out-of-range value (a `--set` value included),
    /// conflicting options, a repeated `--param`, two outputs that are the same file.
    case usage = 64
    /// Bad content: a profile, population, CSV or review file that is invalid (`profiles check` included), or
    /// degenerate data.
    case dataError = 65
    /// An input cannot be opened: missing, unreadable, a directory.
    case noInput = 66
    /// A program HoldLab needs (gnuplot; ffmpeg for `preview --mp4`) is not installed.
    case unavailable = 69
    /// An internal error: a bug in HoldLab (please report it with the command line).
    case software = 70
    /// A program HoldLab runs (gnuplot, ffmpeg) could not be started, was killed by a signal, or (for `preview`,
    /// whose script is HoldLab's) failed: sysexits' EX_OSERR. Never 1, which is "the answer is no".
    case childFailed = 71
    /// An output cannot be created: its directory is missing or not writable, or the name is a directory.
    case cannotCreate = 73
    /// Writing failed part way: no space left, a closed standard output, an I/O error.
    case ioError = 74
    /// SIGHUP, SIGINT, SIGTERM: temporaries removed, destinations untouched (`Interruption`).
    case hangup = 129
    case interrupted = 130
    case terminated = 143
    /// Standard output is a pipe whose reader went away (EPIPE): ended quietly, as `yes | head` ends `yes`.
    case brokenPipe = 141

    var code: ExitCode { ExitCode(rawValue) }
}

/// A usage error found while a command runs (after ArgumentParser's `validate()`): exit 64.
struct UsageError: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// Runs `body`, turning what it throws into a usage error (64): for values given on the command line that a
/// library parses (`--param`, `--constraint`, `--vary`, `--target`).
func usage<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as ExitStatus {
        throw error
    } catch {
        throw UsageError("\(error)")
    }
}

/// Runs a command body, printing library errors as one `holdlab: error:` line on standard error and mapping them
/// to exit statuses (`ExitStatus`).
///
/// Warnings kept for later (`PendingWarnings`) and not yet said (the work had not started) are said when the body
/// returns with its answer (0, or 1: the answer is no) and dropped when it fails: they are about results it did
/// not make, and a refused command line says only why.
func reportingErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        let result = try body()
        PendingWarnings.say()
        return result
    } catch let error as ExitStatus {
        PendingWarnings.say(dropping: error != .answerIsNo)
        throw error
    } catch let error as ExitCode {
        PendingWarnings.say(dropping: error.rawValue != ExitStatus.answerIsNo.rawValue)
        throw error
    } catch {
        let (status, message) = classify(error)
        PendingWarnings.say(dropping: true)
        if let message { printError(message) }
        throw status
    }
}

/// Warnings about what a run will compute (a population's `Population.notes`), found while its inputs are read
/// and said when the work starts (a progress bar's first update) or the command ends with its answer, so a command
/// line refused later (64) or an output that cannot be made (73) says only why.
enum PendingWarnings {
    nonisolated(unsafe) private static var pending: [String] = []

    /// Keeps `message` (a `warning: ` line) to be said later, once.
    static func add(_ message: String) {
        if !pending.contains(message) { pending.append(message) }
    }

    /// Says the kept warnings (or, `dropping`, forgets them).
    static func say(dropping: Bool = false) {
        let messages = pending
        pending = []
        if !dropping { messages.forEach(printNote) }
    }
}

/// The exit status and the one-line message (nil: say nothing) for an error a command threw.
func classify(_ error: Error) -> (ExitStatus, String?) {
    switch error {
    case let error as ExitStatus:
        return (error, nil)
    case let error as UsageError:
        return (.usage, error.message)
    case let error as ValidationError:
        return (.usage, error.message)
    case let error as ProfileError:
        if error.cannotOpen { return (.noInput, error.description) }
        if error.origin.isOverride { return (.usage, error.description) }
        return (.dataError, error.description)
    case let error as OutputError:
        switch error.kind {
        case .cannotCreate: return (.cannotCreate, error.description)
        case .writeFailed: return (.ioError, error.description)
        case .brokenPipe: return (.brokenPipe, nil)
        case .replacesInput, .insideReview: return (.usage, error.description)
        }
    case let error as SweepError:
        return (error.kind == .usage ? .usage : .dataError, error.description)
    case let error as ShardError:
        return (error.kind == .usage ? .usage : .dataError, error.description)
    case let error as FitError:
        return (error.kind == .missingInput ? .noInput : .dataError, error.description)
    case let error as GSLError:
        return (.dataError, "the computation cannot go on: \(error.explanation)")
    case let error as DistributionError:
        return (.dataError, error.description)
    case let error as ControlError:
        return (.dataError, error.description)
    case let error as TimingCurveError:
        return (.dataError, error.description)
    case let error as CSVTableError:
        return (error.kind == .cannotOpen ? .noInput : .dataError, error.description)
    case let error as CurveFitError:
        return (.dataError, error.description)
    case let error as TuneError:
        return (error.kind == .usage ? .usage : .dataError, error.description)
    case let error as SimulationError:
        return (.dataError, error.description)
    case let error as PreviewError:
        switch error.kind {
        case .unavailable: return (.unavailable, error.description)
        case .toolFailed: return (.childFailed, error.description)
        case .cannotCreate: return (.cannotCreate, error.description)
        }
    case let error as AssumptionError:
        // A behaviour assumption set to a value its population file's range allows but its class cannot take.
        return (.dataError, error.description)
    case let error as ExportRefusal:
        return (.dataError, error.description)
    case let error as PlotFailure:
        return (ExitStatus(rawValue: error.status) ?? .software, error.message.isEmpty ? nil : error.message)
    default:
        return (.software, "internal error (please report it with the command line): \(error)")
    }
}

/// One line on standard error: `holdlab: error: MESSAGE` (line breaks inside the message become spaces).
///
/// When a signal's cleanup has started, nothing is printed: the thread waits for the exit with the signal's status
/// (an error then is the cleanup's doing: a child it killed, a temporary it deleted).
func printError(_ message: String) {
    Temporaries.shared.haltIfEnding()
    StandardError.write("holdlab: error: \(Quoted.message(oneLine(message)))\n")
}

/// A note for the person at the terminal (never into the CSV).
func printNote(_ message: String) {
    // --quiet keeps warnings: they say a result may not be what was asked for.
    if Quiet.requested && !message.hasPrefix("warning:") { return }
    StandardError.write("holdlab: \(Quoted.message(message))\n")
}

/// Writes text to standard output, mapping a failure to its status (74, or a quiet 141 for a closed pipe).
func emit(_ text: String) throws {
    try reportingErrors { try StandardOutput.write(text) }
}

func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
}

/// Refuses (64) two outputs of one command that resolve to the same file, before anything runs: the second
/// would silently replace the first.
func refuseSameOutputs(_ outputs: [(option: String, path: String?)]) throws {
    let given = outputs.compactMap { output in output.path.map { (output.option, $0) } }
    for (index, first) in given.enumerated() {
        for second in given[(index + 1)...] where OutputFile.sameFile(first.1, second.1) {
            throw ValidationError(
                "\(first.0) \(first.1) and \(second.0) \(second.1) are the same file; give each output its own file")
        }
    }
}

/// Refuses (64) an output that is one of the command's inputs (`fit --data d.csv --out d.csv`, `sweep --profile
/// p.yaml --out p.yaml`): the run would replace what it reads.
func refuseOutputsOverInputs(_ outputs: [(option: String, path: String?)], inputs: [(option: String, path: String?)]) throws {
    try refuseOutputs(outputs, over: inputs.map { input in
        (input.path, { path in "the file \(input.option) \(path) reads" })
    })
}

/// Refuses (64) an output that is one of the files a command reads as arguments (`merge --out s1.csv s1.csv …`).
///
/// - Parameters:
///   - kind: what each file is ("shard file").
///   - command: the command that reads them ("merge").
func refuseOutputsOverInputs(_ outputs: [(option: String, path: String?)], files: [String], kind: String, readBy command: String) throws {
    try refuseOutputs(outputs, over: files.map { file in (file, { path in "the \(kind) \(path) that \(command) reads" }) })
}

/// The one check behind both: the first output that is the same file as an input, named with the input's phrase.
private func refuseOutputs(_ outputs: [(option: String, path: String?)], over inputs: [(path: String?, phrase: (String) -> String)]) throws {
    for output in outputs {
        guard let outputPath = output.path else { continue }
        for input in inputs {
            guard let inputPath = input.path, OutputFile.sameFile(outputPath, inputPath) else { continue }
            throw ValidationError("\(output.option) \(outputPath) is \(input.phrase(inputPath)); write the output to another file")
        }
    }
}

/// Names, once, the values a run writes as NaN because they are undefined (`ResultTable.undefinedValueNotes`): a
/// rate or statistic over nobody, a statistic none of the holds it counts had (no completed hold looked full, so no
/// mismatch), and a mean's interval over a single value. The CSV keeps `NaN` (gnuplot skips it).
///
/// - Parameter subject: what a row is ("profile", "point").
func noteUndefinedValues(_ table: ResultTable, subject: String) {
    for note in table.undefinedValueNotes(subject: subject) { printNote(note) }
}


/// Refuses (64) a profile or population file that `option` would write under a name the library cannot find it by:
/// the file is named after its contents (`NAME.yaml`, `LibraryName`), so `a b.yaml` or `#x.yaml` would not load
/// back. Standard output (`-`) is named by the caller; a folder is refused later (73), as any output folder is.
func refuseUnnamedLibraryFile(_ path: String?, option: String, kind: String, example: String) throws {
    guard let path, path != "-", !path.isEmpty, !isFolder(path) else { return }
    // The library finds NAME.yaml and nothing else (not .yml, .YAML or no extension).
    guard path.hasSuffix(".yaml") else {
        throw ValidationError("\(option) \(path): the library reads \(kind) files named NAME.yaml; end the name with .yaml, e.g. \(example)")
    }
    guard LibraryName.ofFile(path) == nil else { return }
    throw ValidationError("\(option) \(path): the \(kind) is named after its file, so the file name (without .yaml) "
                          + "must be letters, digits, - and _ (not - alone, which names standard input), e.g. \(example)")
}

/// Whether `path` names a folder: an existing one, or any path ending in `/`.
func isFolder(_ path: String) -> Bool {
    path.hasSuffix("/") || Folder.problem(path) == nil
}

/// Refuses (64) two profiles of one name: rows are labelled by a profile's name, so they could not be told apart
/// (`--profile x --profile x`, or two files that both say `name: x`).
func refuseSameProfileNames(_ profiles: [Profile], given arguments: [String]) throws {
    for (index, profile) in profiles.enumerated() {
        guard let earlier = profiles[..<index].firstIndex(where: { $0.name == profile.name }) else { continue }
        let first = earlier < arguments.count ? arguments[earlier] : profile.name
        let second = index < arguments.count ? arguments[index] : profile.name
        if first == second { throw UsageError("--profile \(second) is given twice; its rows (or panels) could not be told apart") }
        throw UsageError("--profile \(first) and --profile \(second) are both named \(profile.name); rows are labelled by name, so give each its own name (compare and report label designs with --variant LABEL=…)")
    }
}

