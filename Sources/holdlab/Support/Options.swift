import ArgumentParser
import Foundation
import GSL
import HoldLabIO
import HoldProfiles
import HoldSimulation

/// Where profiles come from and what to override: shared by every command that loads a profile.
struct ProfileSourceOptions: ParsableArguments {
    @Option(name: .customLong("profiles-dir"), help: ArgumentHelp(
        "Directory of profiles (populations in its populations/ folder).",
        discussion: "Default: $HOLDLAB_PROFILES, else ./Profiles, else the Profiles folder of this package.",
        valueName: "dir"), completion: .directory)
    var profilesDirectory: String?

    @Option(name: .customLong("set"), help: ArgumentHelp(
        "Override a profile value, e.g. --set fill.curve=easeInOut, or, in a command that simulates a population of its choosing (simulate, sweep, sensitivity, compare, report, tune, check), a population's: --set population.deliberate.reaction.mu=0.2 (repeatable).",
        discussion: "A population key is population.CLASS.key when one population runs, population.NAME.CLASS.key (NAME a population that runs) when several do.",
        valueName: "key.path=value"))
    var overrides: [String] = []

    var library: ProfileLibrary {
        if let profilesDirectory { return ProfileLibrary(directory: profilesDirectory) }
        return ProfileLibrary.discover(executablePath: Self.executablePath())
    }

    /// Every `--set`, parsed: profile keys and population keys (`population.…`) alike.
    func allOverrides() throws -> [Override] {
        try overrides.map { text throws(ProfileError) in try Override(userParsing: text) }
    }

    /// The `--set` values of the profiles; a population key (`population.…`) is refused (64) with what takes one,
    /// for a command that simulates no population.
    func parsedOverrides(command: String) throws -> [Override] {
        let parsed = try allOverrides()
        if let key = parsed.first(where: \.reachesPopulation) {
            throw UsageError("--set \(key.keyPath): \(command) simulates no population of your choosing; population keys go with simulate, sweep, sensitivity, compare, report, tune, check and profiles check")
        }
        return parsed
    }

    /// The `--set` values of the profiles, leaving out the population keys (which `populationOverrides` applies).
    func profileOverrides() throws -> [Override] {
        try allOverrides().filter { !$0.reachesPopulation }
    }

    /// `populations` with the `--set population.…` values applied: what every command that simulates a population
    /// runs, once per population, so it is also where a population's notes (`Population.notes`: a class drawn at
    /// 0 s for its durations below 0) are kept to be said as warnings when the run starts (`PendingWarnings`).
    /// A sweep (`sweep`, `sensitivity`) says them point by point instead (`Sweep.populationNotes`), `warning` false:
    /// its points may give the population other values.
    func applyingPopulationOverrides(to populations: [Population], warning: Bool = true) throws -> [Population] {
        let applied = try Population.applying(try allOverrides(), to: populations)
        if warning {
            for population in applied {
                for note in population.notes { PendingWarnings.add("warning: \(note)") }
            }
        }
        return applied
    }

    /// Refuses a `--set` key given twice, or also varied by `options` (e.g. `--vary`, `--param`): the last
    /// would win silently.
    func refuseRepeatedKeys(alsoVaried varied: [String] = [], by option: String = "") throws {
        try holdlab.refuseRepeatedKeys(overrides, option: "--set")
        for key in overrides.map(keyPath(of:)) {
            guard let other = varied.first(where: { KeyPaths.overlap($0, key) }) else { continue }
            throw ValidationError("--set \(key) conflicts with \(option) \(other); a key cannot be fixed and varied at once")
        }
    }


    static func executablePath() -> String? {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
        return CommandLine.arguments.first.flatMap { $0.contains("/") ? $0 : nil }
    }
}

/// The hold a command traces: `--release-at`, `--phase`, `--seed` (trace, preview, haptics).
struct OneHoldOptions: ParsableArguments {
    @Option(name: .customLong("release-at"), parsing: .unconditional, help: ArgumentHelp(
        "Seconds after touch-down when the finger lifts (0 to 120; preview: at most 30). Default: hold until the action fired, the fill completed and the bar was first drawn full, plus 0.25 s.",
        valueName: "seconds"))
    var releaseAt: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Fraction of a frame interval from touch-down to the first frame, 0 ≤ phase < 1.", valueName: "0..1"))
    var phase: Double = 0

    @Option(parsing: .unconditional, help: "Seed for the Timer latency draws. (default: 1)", transform: parseSeed)
    var seed: UInt64 = 1

    func validate() throws {
        guard phase.isFinite, phase >= 0, phase < 1 else {
            throw ValidationError("--phase must be at least 0 and below 1 (got \(phase)).")
        }
        if let releaseAt, !(releaseAt.isFinite && releaseAt >= 0 && releaseAt <= 120) {
            throw ValidationError("--release-at must be a number of seconds from 0 to 120 (got \(releaseAt)).")
        }
    }
}

/// `--out FILE|-`.
struct OutputOptions: ParsableArguments {
    @Option(name: .customLong("out"), help: ArgumentHelp(
        "Write the CSV here ('-' for standard output). Files are replaced atomically.", valueName: "file|-"), completion: .file())
    var out: String = "-"

    func validate() throws {
        if out.isEmpty { throw ValidationError("--out needs a file name, or - for standard output") }
    }

    /// The file `--out` names, or nil for standard output.
    var file: String? { out == "-" ? nil : out }
}

/// The options of every command that runs simulations (simulate, sweep, tune).
struct RunOptions: ParsableArguments {
    @Option(name: .customLong("population"), help: ArgumentHelp(
        "Population name or YAML file (simulate and sweep: several, comma-separated or repeated). Default: the one the profiles name.",
        valueName: "name|file"), completion: .populationNames)
    var populations: [String] = []

    /// The `--population` arguments, commas split, in order.
    var populationNames: [String] { commaItems(populations) }

    func validate() throws {
        try refuseEmptyItems(populations, option: "--population", example: "default,hurried")
    }

    /// The one population of a command that runs against one; nil when `--population` is not given.
    var population: String? { populationNames.first }

    /// Refuses several populations for a command that runs against one (`tune`, `check`).
    func refuseSeveralPopulations(_ command: String) throws {
        if populationNames.count > 1 {
            throw ValidationError("\(command) runs against one population (got --population \(populationNames.joined(separator: ","))); run it once per population")
        }
    }

    @OptionGroup var sample: SampleOptions

    var users: Int { sample.users }
    var seed: UInt64 { sample.seed }
    var rng: Generator.Kind { sample.rng }
    var threads: Int? { sample.threads }

    var workerThreads: Int { sample.workerThreads }
}

/// `--users`, `--seed` and `--threads`: how many people every simulation of a run sees, drawn from which seed, on
/// how many threads. Declared once for every command that simulates (through `RunOptions` or `ComparisonOptions`).
struct SampleOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Synthetic users per simulation: per profile, design and population, sweep point or tune evaluation."))
    var users: Int = 100_000

    @Option(parsing: .unconditional, help: "Master seed; every simulation of the run uses it (common random numbers). (default: 1)",
            transform: parseSeed)
    var seed: UInt64 = 1

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "The GSL generator the synthetic users are drawn from: taus2 (the default since 0.3.0) or mt19937 (0.2.0 and earlier: gives their rows).",
        valueName: "taus2|mt19937"))
    var rng: Generator.Kind = .users

    @Option(parsing: .unconditional, help: ArgumentHelp("Worker threads (default: the number of cores). Results do not depend on it."))
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

/// The key path of `key.path=value` (what precedes the first `=`, trimmed: `Override.keyPath(of:)`).
func keyPath(of assignment: String) -> String { Override.keyPath(of: assignment) }

/// Refuses an option with key=value arguments that names a key twice (`--param x=… --param x=…`): the last would
/// win silently.
func refuseRepeatedKeys(_ values: [String], option: String) throws {
    // A key and one inside it (gesture and gesture.minimumDuration) set one value twice, as a repeated key does.
    if let pair = KeyPaths.firstOverlap(values.map(keyPath(of:))) {
        throw ValidationError(KeyPaths.twice(pair, option: option) + "; give each key once (the last would silently win)")
    }
}

/// The first value that appears twice in `values`, if any: what each "given twice" refusal names.
func firstRepeated<Value: Hashable>(_ values: some Sequence<Value>) -> Value? {
    var seen: Set<Value> = []
    return values.first { !seen.insert($0).inserted }
}

extension RowFormat: ExpressibleByArgument {}
extension Generator.Kind: ExpressibleByArgument {}

/// `--format`, `--columns` and `--no-comments`: how a command that prints rows prints them. A command adopts them
/// with `@OptionGroup var view: RowFormatOptions` and writes `try view.render(csv, for: out)` instead of `csv`.
struct RowFormatOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "csv, table, markdown or json (JSON Lines). Default: table on a terminal, csv into a file or a pipe.",
        valueName: "format"))
    var format: RowFormat?

    @Option(help: ArgumentHelp(
        "Only these columns, in this order (comma separated), in every format.", valueName: "a,b,c"))
    var columns: String?

    @Flag(name: .customLong("no-comments"), help: ArgumentHelp(
        "Leave out the '#' provenance lines (for readers that do not skip them: pandas, polars and R by default). HOLDLAB_NO_COMMENTS=1 makes it the default."))
    var noComments = false

    /// Whether the '#' lines are left out: `--no-comments`, or `HOLDLAB_NO_COMMENTS=1` for a user who wants
    /// comment-free CSV everywhere (gnuplot and the figure footer read the lines, so they stay the default).
    var omitsComments: Bool { noComments || ProcessInfo.processInfo.environment["HOLDLAB_NO_COMMENTS"] == "1" }

    func validate() throws {
        guard let columns else { return }
        if selected(columns).isEmpty {
            throw ValidationError("--columns needs column names, e.g. --columns profile,completion_rate")
        }
        try refuseEmptyItems([columns], option: "--columns", example: "profile,completion_rate")
    }

    /// The format for output `out`: `--format`, else a table when it is a terminal and CSV otherwise.
    func format(for out: OutputFile) -> RowFormat {
        if let format { return format }
        return out == .standardOutput && isatty(STDOUT_FILENO) == 1 ? .table : .csv
    }

    /// Whether `out` gets the CSV exactly as the command writes it (so it may be streamed as rows arrive).
    func isPlainCSV(for out: OutputFile) -> Bool { format(for: out) == .csv && columns == nil && !omitsComments }

    /// Whether the options the command line gives keep the CSV a file must be read back as (a shard, a sweep's
    /// `--out` file, which `--resume` reads): `HOLDLAB_NO_COMMENTS` does not count, since those files always keep
    /// their '#' lines.
    func keepsReadableCSV(for out: OutputFile) -> Bool { format(for: out) == .csv && columns == nil && !noComments }

    /// The selected column names (nil: all).
    var selectedColumns: [String]? { columns.map(selected) }

    private func selected(_ text: String) -> [String] { commaItems([text]) }

    /// A command's typed result as `out` should get it (every format is rendered from the typed cells).
    func render(_ document: ResultDocument, for out: OutputFile) throws -> String {
        do {
            return try document.rendered(as: format(for: out), columns: selectedColumns, comments: !omitsComments)
        } catch {
            throw UsageError(error.message)
        }
    }

    /// `--list-columns`: each column with its unit and definition, as a Markdown table, or in `--format`.
    func columnList(_ columns: [(name: String, unit: String, definition: String)]) throws -> String {
        guard let format, format != .markdown else {
            var text = "| column | unit | definition |\n|---|---|---|\n"
            for column in columns { text += "| `\(column.name)` | \(column.unit) | \(column.definition) |\n" }
            return text
        }
        let table = ResultTable(
            columns: [ResultColumn("column", .text), ResultColumn("unit", .text), ResultColumn("definition", .text)],
            rows: columns.map { [.text($0.name), .text($0.unit), .text($0.definition)] })
        do {
            return try ResultDocument(table).rendered(as: format, columns: selectedColumns, comments: false)
        } catch {
            throw UsageError(error.message)
        }
    }

    /// Refuses, before anything runs, a `--columns` name the command never writes (64), with the closest names.
    func checkColumns(known: [String]) throws {
        for name in selectedColumns ?? [] where !known.contains(name) {
            throw ValidationError("--columns: no column '\(name)'" + Suggestions.didYouMean(name, among: known)
                                  + "; columns: " + known.joined(separator: ", "))
        }
    }
}

/// Refuses (64) input names no file answers to: an empty one (`--profile ''`, an empty variable), and two inputs read
/// from standard input (`--profile - --population -`), which can be read only once.
func refuseUnreadableInputNames(_ inputs: [(option: String, value: String?)]) throws {
    // An empty name (an empty variable) names no file: a usage error, not a profile that cannot be opened (66).
    if let empty = inputs.first(where: { $0.value.map { $0.trimmingCharacters(in: .whitespaces).isEmpty } ?? false }) {
        throw ValidationError("\(empty.option) '\(empty.value ?? "")': an empty name (an empty variable?); give a name or a YAML file")
    }
    let dashes = inputs.filter { $0.value == "-" }.map(\.option)
    if dashes.count > 1 {
        throw ValidationError("\(dashes.joined(separator: " - and ")) - both read standard input; give one of them a file")
    }
}

/// An output written as it is produced: a file committed atomically at the end (`PartialFile`), or standard
/// output (`-`), written through.
enum StreamedOutput {
    case file(PartialFile)
    case standardOutput

    /// `-` is standard output; a file is checked to be creatable, then opened as a temporary beside it.
    init(argument: String) throws {
        if argument == "-" { self = .standardOutput; return }
        self = .file(try PartialFile(path: argument))
    }

    func write(_ text: String) throws {
        switch self {
        case .file(let file): try file.write(text)
        case .standardOutput: try StandardOutput.write(text)
        }
    }

    /// Every byte written out (before the run's other output is committed).
    func flush() throws { if case .file(let file) = self { try file.flush() } }

    /// The file renamed into place.
    func commit() throws { if case .file(let file) = self { try file.commit() } }

    /// The file, to commit with the run's other outputs (`OutputGroup`); nothing for standard output.
    var partialFile: PartialFile? { if case .file(let file) = self { file } else { nil } }
}

/// A seed from the command line, or an error that says what a seed is (ArgumentParser's own says only that the
/// value is invalid): a whole number from 0 to 2⁶⁴ − 1.
func parseSeed(_ text: String) throws -> UInt64 {
    guard let value = UInt64(text) else {
        throw ValidationError("a seed is a whole number from 0 to \(UInt64.max)")
    }
    return value
}

/// The items of comma-separated option values (`--population default,hurried`, `--columns a,b`), trimmed, in order,
/// without empty ones (which `refuseEmptyItems` refuses in validation).
func commaItems(_ values: [String]) -> [String] {
    values.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
}

/// Refuses (64) a comma-separated value with an empty item (`--population ,`, `--population ''`,
/// `--columns a,,b`): an extra comma, or a script's empty variable, which would otherwise be skipped silently and the
/// command run on the defaults, as `--vary`'s lists refuse an empty value.
func refuseEmptyItems(_ values: [String], option: String, example: String) throws {
    for value in values {
        let items = value.split(separator: ",", omittingEmptySubsequences: false)
        guard items.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) else { continue }
        throw ValidationError("\(option) '\(value)': the list has an empty name (an extra comma, or an empty variable); "
            + "give names separated by single commas, e.g. \(option) \(example)")
    }
}

