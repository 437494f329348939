import HoldLabIO
/// The scripts `--shards N --emit slurm|parallel` prints: a run cut into N shards on a cluster engine, then
/// `holdlab merge`. Pure text: the caller prints it.
public enum ClusterScript {
    public enum Engine: String, Sendable, CaseIterable {
        /// A Slurm batch script (`sbatch`): a job array of N shard tasks and a merge job after them (afterok).
        case slurm
        /// A bash script running the shards with GNU parallel, then the merge.
        case parallel
    }

    /// What to run and where.
    public struct Plan: Sendable {
        /// `sweep` or `simulate`, and its arguments without `--out`, `--threads`, `--shard(s)` and the emit options.
        public var command: String
        public var arguments: [String]
        /// The merged file (`--out`); the shards go in `out + ".shards/"`.
        public var out: String
        public var shards: Int
        /// The holdlab executable the script runs (overridable with `$HOLDLAB`).
        public var executable: String
        /// The command line that printed the script.
        public var madeBy: String
        /// Slurm: `--partition`, `--time`; both: CPUs (threads) per shard.
        public var partition: String?
        public var timeLimit: String?
        public var cpusPerTask: Int
        /// GNU parallel: `--jobs` and `--sshloginfile`.
        public var jobs: Int?
        public var sshLoginFile: String?

        public init(command: String, arguments: [String], out: String, shards: Int, executable: String, madeBy: String,
                    partition: String? = nil, timeLimit: String? = nil, cpusPerTask: Int = 1, jobs: Int? = nil,
                    sshLoginFile: String? = nil) {
            self.command = command
            self.arguments = arguments
            self.out = out
            self.shards = shards
            self.executable = executable
            self.madeBy = madeBy
            self.partition = partition
            self.timeLimit = timeLimit
            self.cpusPerTask = cpusPerTask
            self.jobs = jobs
            self.sshLoginFile = sshLoginFile
        }

        var shardDirectory: String { out + ".shards" }
        var what: String { command == "sweep" ? "sweep points" : "user chunks" }
    }

    /// One argument quoted for a POSIX shell when it needs it.
    public static func quote(_ argument: String) -> String {
        CSV.commandLine([argument])
    }

    public static func script(_ engine: Engine, _ plan: Plan) -> String {
        switch engine {
        case .slurm: return slurm(plan)
        case .parallel: return parallel(plan)
        }
    }

    private static func header(_ plan: Plan, engine: String) -> String {
        let paragraph = "Runs `holdlab \(plan.command)` as \(plan.shards) shards with \(engine) (--shard K/\(plan.shards): each "
            + "computes a contiguous block of the \(plan.what), exactly as the unsharded run would), then `holdlab merge` "
            + "checks that every shard is there, complete and of this plan, and writes \(plan.out): data rows "
            + "byte-identical to the unsharded run. The shards are kept in \(plan.shardDirectory)/. Relative paths are "
            + "relative to the directory this script runs in. HOLDLAB=/path/to/holdlab overrides the executable below."
        return "#!/bin/bash\n# Made by holdlab \(HoldLabVersion.current): \(Provenance.escaped(plan.madeBy))\n#\n" + comment(paragraph)
    }

    /// Text as `# ` comment lines of at most 100 characters.
    static func comment(_ text: String) -> String {
        // A line break or other control character (in a `--set` value or a file name) escaped as provenance lines
        // escape them (`\n`), so that nothing after it becomes a line of the script.
        let text = Provenance.escaped(text)
        var lines: [String] = []
        var line = "#"
        for word in text.split(separator: " ") {
            if line.count + 1 + word.count > 100 && line != "#" {
                lines.append(line)
                line = "#"
            }
            line += " " + word
        }
        lines.append(line)
        return lines.joined(separator: "\n") + "\n"
    }

    private static func slurm(_ plan: Plan) -> String {
        let n = plan.shards
        let directory = quote(plan.shardDirectory)
        var common = ["--cpus-per-task=\(plan.cpusPerTask)"]
        if let partition = plan.partition { common.append("--partition=\(quote(partition))") }
        if let time = plan.timeLimit { common.append("--time=\(quote(time))") }
        var mergeOptions: [String] = []
        if let partition = plan.partition { mergeOptions.append("--partition=\(quote(partition))") }
        if let time = plan.timeLimit { mergeOptions.append("--time=\(quote(time))") }
        let shardCommand = (["exec \"$HOLDLAB\"", plan.command] + plan.arguments.map(quote)
            + ["--shard \"$SLURM_ARRAY_TASK_ID/\(n)\"", "--threads \"${SLURM_CPUS_PER_TASK:-1}\"",
               "--out \"$SHARDS/shard-$SLURM_ARRAY_TASK_ID-of-\(n).csv\""]).joined(separator: " ")
        return header(plan, engine: "a Slurm job array") + """
        #
        # Submit from the directory the paths are relative to:   sbatch THIS_FILE   (or: bash THIS_FILE)
        # That first job (or bash) only submits two jobs and ends: the array of \(n) shard tasks (each runs this same
        # file with $SLURM_ARRAY_TASK_ID = K, with --threads following $SLURM_CPUS_PER_TASK), and the merge, which
        # starts only when every task has succeeded (--dependency=afterok; cancelled if one fails). Logs:
        # \(Provenance.escaped(plan.shardDirectory))/slurm-*.log.
        #SBATCH --job-name=holdlab-\(plan.command)-submit
        #SBATCH --ntasks=1
        #SBATCH --cpus-per-task=1
        #SBATCH --output=\(plan.out.replacingOccurrences(of: "%", with: "%%")).submit-%j.log
        set -euo pipefail
        export HOLDLAB=${HOLDLAB:-\(quote(plan.executable))}
        export SHARDS=\(directory)
        export MERGED=\(quote(plan.out))
        # sbatch reads % in a log's name as a pattern (%j, %A): the folder's own % doubled.
        LOGS=${SHARDS//\\%/%%}

        if [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then
          # One task of the array: shard $SLURM_ARRAY_TASK_ID of \(n).
          \(shardCommand)
        fi

        mkdir -p "$SHARDS"
        array=$(sbatch --parsable --job-name=holdlab-\(plan.command) --array=1-\(n) \(common.joined(separator: " ")) \\
          --chdir="$PWD" --output="$LOGS/slurm-%A_%a.log" "$0")
        array=${array%%;*}
        merge=$(sbatch --parsable --job-name=holdlab-merge --dependency=afterok:"$array" --kill-on-invalid-dep=yes \\
          --cpus-per-task=1 \(mergeOptions.map { $0 + " " }.joined())--chdir="$PWD" --output="$LOGS/slurm-merge-%j.log" \\
          --wrap='exec "$HOLDLAB" merge --out "$MERGED" "$SHARDS"/shard-*-of-\(n).csv')
        merge=${merge%%;*}
        echo "holdlab: submitted the \(n) shards as job array $array and the merge as job $merge; $MERGED appears when it ends"

        """
    }

    private static func parallel(_ plan: Plan) -> String {
        let n = plan.shards
        let directory = quote(plan.shardDirectory)
        var options = ["--halt now,fail=1"]
        if let jobs = plan.jobs { options.append("--jobs \(jobs)") }
        if let file = plan.sshLoginFile {
            options += ["--sshloginfile \(quote(file))", "--workdir \"$PWD\"", "--env run_shard --env HOLDLAB --env SHARDS"]
        }
        // The shard's command is a bash function that parallel runs with the shard number alone: parallel reads its
        // own command line for replacement strings ({}, {.}, {#}, …), which a path or a --set value may hold.
        let shardCommand = (["\"$HOLDLAB\"", plan.command] + plan.arguments.map(quote)
            + ["--shard \"$1/\(n)\"", "--threads \(plan.cpusPerTask)", "--out \"$SHARDS/shard-$1-of-\(n).csv\""]).joined(separator: " ")
        var text = header(plan, engine: "GNU parallel")
        text += """
        #
        # Run it with bash (GNU parallel must be installed). The first failing shard stops the others
        # (--halt now,fail=1) and nothing is merged.\(plan.sshLoginFile == nil ? "" : """

        # --sshloginfile: the shards run on the machines listed there, each in this same directory ("$PWD"), which
        # must be on a file system they share, with holdlab at the same path.
        """)
        set -euo pipefail
        export HOLDLAB=${HOLDLAB:-\(quote(plan.executable))}
        export SHARDS=\(directory)
        # Shard $1 of \(n).
        run_shard() {
          \(shardCommand)
        }
        export -f run_shard
        mkdir -p "$SHARDS"
        parallel \(options.joined(separator: " ")) run_shard {} ::: $(seq 1 \(n))
        "$HOLDLAB" merge --out \(quote(plan.out)) "$SHARDS"/shard-*-of-\(n).csv

        """
        return text
    }
}
