import ArgumentParser
import Foundation
import HoldLabIO
import HoldSimulation
import HoldStudies

extension ClusterScript.Engine: ExpressibleByArgument {}

/// `--shard K/N`, and `--shards N --emit slurm|parallel` with the engines' options: shared by sweep and simulate.
struct ShardOptions: ParsableArguments {
    // Values may start with '-' (a mistyped -1/3 is refused by the K/N check, not taken for a missing value).
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Compute only shard K of N and write a shard file for 'holdlab merge' (e.g. --shard 3/8).", valueName: "K/N"))
    var shard: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("With --emit: cut the run into N shards.", valueName: "N"))
    var shards: Int?

    @Option(help: ArgumentHelp(
        "Print a script that runs the --shards on a cluster and merges them into --out: slurm (an sbatch script) or parallel (GNU parallel).",
        valueName: "engine"))
    var emit: ClusterScript.Engine?

    @Option(help: ArgumentHelp("--emit slurm: the Slurm partition.", valueName: "name"))
    var partition: String?

    @Option(help: ArgumentHelp("--emit slurm: the time limit of each shard task (Slurm's --time, e.g. 1:00:00).", valueName: "limit"))
    var time: String?

    @Option(name: .customLong("cpus-per-task"), parsing: .unconditional, help: ArgumentHelp(
        "With --emit: CPUs per shard (Slurm's --cpus-per-task; each shard's --threads follows it). Default 1.", valueName: "n"))
    var cpusPerTask: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("--emit parallel: shards run at once (parallel's --jobs; default: its own, one per core).", valueName: "n"))
    var jobs: Int?

    @Option(name: .customLong("sshloginfile"), help: ArgumentHelp(
        "--emit parallel: run the shards on the machines in this file (parallel's --sshloginfile; a shared directory).",
        valueName: "file"), completion: .file())
    var sshLoginFile: String?

    /// The options these add, and whether each takes a value: what a shard's own command line leaves out.
    static let optionNames: Set<String> = [
        "--shard", "--shards", "--emit", "--partition", "--time", "--cpus-per-task", "--jobs", "--sshloginfile",
    ]

    func validate() throws {
        if shard != nil && (shards != nil || emit != nil) {
            throw ValidationError("--shard K/N runs one shard; --shards N --emit ENGINE prints a script that runs them all: give one")
        }
        if let shard {
            do { _ = try ShardSpec(parsing: shard) } catch { throw ValidationError(error.message) }
        }
        if (shards == nil) != (emit == nil) {
            throw ValidationError(shards == nil ? "--emit needs --shards N: how many shards to cut the run into" : "--shards N needs --emit slurm or --emit parallel")
        }
        if let shards, !(1...ShardSpec.maximumCount).contains(shards) {
            throw ValidationError("--shards must be from 1 to \(ShardSpec.maximumCount) (got \(shards))")
        }
        if emit != .slurm {
            if partition != nil { throw ValidationError("--partition goes with --emit slurm") }
            if time != nil { throw ValidationError("--time goes with --emit slurm") }
        }
        if emit != .parallel {
            if jobs != nil { throw ValidationError("--jobs goes with --emit parallel") }
            if sshLoginFile != nil { throw ValidationError("--sshloginfile goes with --emit parallel") }
        }
        if emit == nil && cpusPerTask != nil { throw ValidationError("--cpus-per-task goes with --emit slurm or parallel") }
        if let cpusPerTask, !(1...256).contains(cpusPerTask) {
            throw ValidationError("--cpus-per-task must be from 1 to 256 (got \(cpusPerTask))")
        }
        if let jobs, !(1...10_000).contains(jobs) { throw ValidationError("--jobs must be from 1 to 10000 (got \(jobs))") }
        if let time, time.isEmpty || time.contains(where: { $0.isWhitespace }) {
            throw ValidationError("--time '\(time)': a Slurm time limit such as 30, 1:00:00 or 2-00:00:00")
        }
        if let partition, partition.isEmpty || partition.contains(where: { $0.isWhitespace }) {
            throw ValidationError("--partition '\(partition)': a partition name, without spaces")
        }
    }

    /// Checks `--out` for a script: it names the merged file, beside which the shards go.
    func validate(out: OutputOptions) throws {
        if emit != nil && out.out == "-" {
            throw ValidationError("--emit needs --out FILE: the merged file (the shards go in FILE.shards/)")
        }
    }

    var parsedShard: ShardSpec? {
        get throws { try shard.map { text in try usage { try ShardSpec(parsing: text) } } }
    }

    /// The script for `--emit`, or nil without it.
    ///
    /// - Throws: a usage error (64) when an input is standard input (`-`, alone or in a comma list): every shard of
    ///   the script runs holdlab again, and standard input can be read only once, here.
    func script(command: String, out: String) throws -> String? {
        guard let emit, let shards else { return nil }
        // The name is written into the script's comments and sbatch directives, where a line break would end the line.
        if out.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw UsageError("--out \(CSV.commandLine([out])): a name with a line break or other control character cannot be written into a job script; choose another name")
        }
        let arguments = planArguments()
        for (index, argument) in arguments.enumerated() where index > 0 && arguments[index - 1].hasPrefix("--")
            && argument.split(separator: ",", omittingEmptySubsequences: false).contains("-") {
            throw UsageError("\(arguments[index - 1]) - with --emit: each shard of the script runs holdlab again and cannot read this standard input; save it to a file and name the file")
        }
        let plan = ClusterScript.Plan(
            command: command, arguments: planArguments(), out: out, shards: shards,
            executable: executablePath(), madeBy: CommandRecord.line(), partition: partition, timeLimit: time,
            cpusPerTask: cpusPerTask ?? 1, jobs: jobs, sshLoginFile: sshLoginFile)
        return ClusterScript.script(emit, plan)
    }
}

/// The subcommand's arguments without those that do not change results (`--out`, `--per-user`, `--threads`, `--resume`, `--shard`
/// and the `--emit` options): what every shard of a plan shares.
func planArguments() -> [String] {
    CommandRecord.arguments(Array(CommandLine.arguments.dropFirst(2)), dropping: planDropped, flags: CommandRecord.resume)
}

/// The plan's command line: `holdlab SUBCOMMAND` and `planArguments()`.
func planCommandLine() -> String {
    CSV.commandLine(["holdlab", CommandLine.arguments.dropFirst().first ?? ""] + planArguments())
}

private let planDropped = ShardOptions.optionNames.union(["--out", "--per-user"]).union(CommandRecord.threads)

/// This executable's absolute path, for scripts that run it again.
func executablePath() -> String {
    if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
    return CommandLine.arguments.first ?? "holdlab"
}
