import Foundation
import HoldLabTestSupport
import Testing

@Suite("holdlab --shard and merge")
struct ShardCommandTests {
    static let sweep = ["sweep", "--design", "sobol", "--points", "64", "--vary", "gesture.minimumDuration=0.3:1.2",
                        "--vary", "fill.duration=0.4:1.4", "--users", "300", "--seed", "9"]

    /// Runs every shard of `arguments` cut into `count` and merges them; returns the merged file and the shards.
    static func shardAndMerge(_ arguments: [String], count: Int, in directory: URL) throws -> (String, [String]) {
        var files: [String] = []
        for index in 1...count {
            let file = "shard-\(index)-of-\(count).csv"
            let run = try CLI.run(arguments + ["--shard", "\(index)/\(count)", "--threads", "\(1 + index % 2)", "--out", file], in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            files.append(file)
        }
        let merge = try CLI.run(["merge", "--out", "merged-\(count).csv"] + files.reversed(), in: directory)
        #expect(merge.status == 0, "\(merge.stderr)")
        return (try String(contentsOf: directory.appendingPathComponent("merged-\(count).csv"), encoding: .utf8), files)
    }

    /// Everything but the `# command:` and `# merged:` lines.
    static func withoutCommand(_ text: String) -> [Substring] {
        text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("# command:") && !$0.hasPrefix("# merged:") }
    }

    @Test("a 64-point Sobol sweep cut into 1, 3 and 8 shards merges to the unsharded file's rows, byte for byte")
    func sweepShards() throws {
        let directory = try CLI.temporaryDirectory()
        let whole = try CLI.run(Self.sweep + ["--out", "whole.csv"], in: directory)
        #expect(whole.status == 0)
        let expected = try String(contentsOf: directory.appendingPathComponent("whole.csv"), encoding: .utf8)
        #expect(CLI.dataLines(expected).count == 65)
        for count in [1, 3, 8] {
            let (merged, _) = try Self.shardAndMerge(Self.sweep, count: count, in: directory)
            #expect(CLI.dataLines(merged) == CLI.dataLines(expected), "\(count) shards")
            #expect(Self.withoutCommand(merged) == Self.withoutCommand(expected))
            #expect(merged.contains("# command: holdlab sweep --design sobol --points 64 --vary gesture.minimumDuration=0.3:1.2 --vary fill.duration=0.4:1.4 --users 300 --seed 9 --out merged-\(count).csv\n"))
            #expect(merged.contains("# merged: \(count) shards (64 points) of plan fnv1a64:"))
        }
        // The merged file is a sweep file: --resume finds every point done.
        let resume = try CLI.run(Self.sweep + ["--out", "merged-8.csv", "--resume"], in: directory)
        #expect(resume.status == 0 && resume.stderr.contains("64 of 64 points done"), "\(resume.stderr)")
    }

    @Test("simulate shards with --per-user merge to the same bytes in any order, and the merged command writes no per-user file")
    func perUserShardsInAnyOrder() throws {
        let directory = try CLI.temporaryDirectory()
        let arguments = ["simulate", "--users", "9000", "--profile", "hig-linear-bar", "--profile", "static-long-press", "--seed", "9"]
        for index in 1...3 {
            let run = try CLI.run(arguments + ["--shard", "\(index)/3", "--out", "s\(index).csv", "--per-user", "u\(index).csv"], in: directory)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let forward = try CLI.run(["merge", "--out", "-", "s1.csv", "s2.csv", "s3.csv"], in: directory)
        let backward = try CLI.run(["merge", "--out", "-", "s3.csv", "s1.csv", "s2.csv"], in: directory)
        #expect(forward.status == 0 && backward.status == 0, "\(forward.stderr) \(backward.stderr)")
        #expect(forward.stdout == backward.stdout)
        let command = try #require(forward.stdout.split(separator: "\n").first { $0.hasPrefix("# command:") })
        #expect(command.hasPrefix("# command: holdlab " + arguments.joined(separator: " ")), "\(command)")
        #expect(!command.contains("--per-user"))
    }

    /// Makes three shards of a small sweep in a fresh directory.
    static func threeShards() throws -> URL {
        let directory = try CLI.temporaryDirectory()
        let arguments = ["sweep", "--vary", "gesture.minimumDuration=0.4:1.0:0.2", "--users", "200"]
        for index in 1...3 {
            #expect(try CLI.run(arguments + ["--shard", "\(index)/3", "--out", "s\(index).csv"], in: directory).status == 0)
        }
        return directory
    }

    /// `merge` exits 65 with one line containing `message`, and writes nothing.
    static func refuses(_ files: [String], in directory: URL, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let run = try CLI.run(["merge", "--out", "merged.csv"] + files, in: directory)
        #expect(run.status == 65, sourceLocation: sourceLocation)
        #expect(run.stderr.contains(message), "\(run.stderr)", sourceLocation: sourceLocation)
        #expect(run.stderr.split(separator: "\n").count == 1, sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("merged.csv").path), sourceLocation: sourceLocation)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty, "temporaries left: \(left)", sourceLocation: sourceLocation)
    }

    @Test("merge refuses a missing, duplicated, foreign, truncated or corrupted shard: one line, 65, nothing written")
    func refusals() throws {
        let directory = try Self.threeShards()
        func write(_ name: String, _ text: String) throws {
            try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let s2 = try String(contentsOf: directory.appendingPathComponent("s2.csv"), encoding: .utf8)
        try Self.refuses(["s1.csv", "s3.csv"], in: directory, "shard 2 of 3 is missing")
        try Self.refuses(["s1.csv", "s2.csv", "s2.csv", "s3.csv"], in: directory, "shard 2/3 is given twice: s2.csv and s2.csv")
        try write("copy.csv", s2)
        try Self.refuses(["s1.csv", "s2.csv", "copy.csv", "s3.csv"], in: directory, "shard 2/3 is given twice: s2.csv and copy.csv")
        // Truncated: cut at every eighth byte, including just before the final newline and inside the end line.
        let bytes = Array(s2.utf8)
        for cut in stride(from: 1, to: bytes.count, by: max(1, bytes.count / 8)) + [bytes.count - 1, bytes.count - 20] {
            try write("cut.csv", String(decoding: bytes[..<cut], as: UTF8.self))
            let run = try CLI.run(["merge", "--out", "merged.csv", "s1.csv", "cut.csv", "s3.csv"], in: directory)
            #expect(run.status == 65 && (run.stderr.contains("truncated") || run.stderr.contains("not a holdlab shard")), "cut \(cut): \(run.stderr)")
        }
        try write("cut.csv", s2.components(separatedBy: "# shard_end:")[0])
        try Self.refuses(["s1.csv", "cut.csv", "s3.csv"], in: directory, "cut.csv: is truncated (no '# shard_end:' line")
        // Content after the seal (a row appended, two shards joined): said so, with the line, not called truncated.
        let sealLine = s2.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("# shard_end:") }! + 1
        try write("tail.csv", s2 + "0.6,extra\n")
        try Self.refuses(["s1.csv", "tail.csv", "s3.csv"], in: directory,
                         "tail.csv: has content after its '# shard_end:' line (line \(sealLine))")
        // Corrupted: one digit of a data row changed.
        let row = try #require(s2.split(separator: "\n").first { $0.hasPrefix("0.6,") })
        let changed = row.replacingOccurrences(of: ",200,", with: ",201,")
        try write("bad.csv", s2.replacingOccurrences(of: String(row), with: changed))
        try Self.refuses(["s1.csv", "bad.csv", "s3.csv"], in: directory, "bad.csv: is corrupted")
        // Foreign: another plan (seed), another N, a plain sweep CSV, and a CSV that is not holdlab's at all.
        #expect(try CLI.run(["sweep", "--vary", "gesture.minimumDuration=0.4:1.0:0.2", "--users", "200", "--seed", "2",
                             "--shard", "2/3", "--out", "seed2.csv"], in: directory).status == 0)
        try Self.refuses(["s1.csv", "seed2.csv", "s3.csv"], in: directory, "seed2.csv is from another plan than s1.csv (sweep_users '200 per point, seed 2' vs '200 per point, seed 1')")
        #expect(try CLI.run(["sweep", "--vary", "gesture.minimumDuration=0.4:1.0:0.2", "--users", "200",
                             "--shard", "2/2", "--out", "n2.csv"], in: directory).status == 0)
        try Self.refuses(["s1.csv", "n2.csv", "s3.csv"], in: directory, "n2.csv is shard 2/2 but s1.csv is shard 1/3")
        #expect(try CLI.run(["sweep", "--vary", "gesture.minimumDuration=0.4:1.0:0.2", "--users", "200", "--out", "plain.csv"], in: directory).status == 0)
        try Self.refuses(["s1.csv", "plain.csv"], in: directory, "plain.csv: is not a holdlab shard")
        try write("other.csv", "a,b\n1,2\n")
        try Self.refuses(["other.csv"], in: directory, "other.csv: is not a holdlab shard")
        try write("empty.csv", "")
        try Self.refuses(["empty.csv"], in: directory, "empty.csv: is empty")
        let simulation = try CLI.run(["simulate", "--users", "5000", "--shard", "1/1", "--out", "sim.csv"], in: directory)
        #expect(simulation.status == 0)
        try Self.refuses(["s1.csv", "sim.csv"], in: directory, "sim.csv is a simulate shard but s1.csv is a sweep shard")
        // A missing file is an input that cannot be opened (66), and still nothing is written.
        let missing = try CLI.run(["merge", "--out", "merged.csv", "s1.csv", "s2.csv", "nope.csv"], in: directory)
        #expect(missing.status == 66 && missing.stderr.contains("nope.csv: no such shard file"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("merged.csv").path))
    }

    @Test("--shard and --shards are checked before anything runs")
    func usageErrors() throws {
        for (arguments, message) in [
            (["simulate", "--shard", "3/2"], "--shard 3/2: K must be from 1 to N (2)"),
            (["simulate", "--shard", "x"], "--shard x: expected K/N"),
            (["simulate", "--users", "5000", "--shard", "3/3"], "the run has 2 user chunks of 4096 (--users 5000); use at most 2 shards"),
            (["sweep", "--vary", "fill.duration=0.5,1", "--shard", "1/3"], "--shard 1/3: the run has 2 points; use at most 2 shards"),
            (["sweep", "--vary", "fill.duration=0.5,1", "--shards", "2"], "--shards N needs --emit slurm or --emit parallel"),
            (["sweep", "--vary", "fill.duration=0.5,1", "--shards", "2", "--emit", "slurm"], "--emit needs --out FILE"),
            (["sweep", "--vary", "fill.duration=0.5,1", "--shard", "1/2", "--shards", "2", "--emit", "slurm"], "give one"),
            (["sweep", "--vary", "fill.duration=0.5,1", "--out", "x.csv", "--resume", "--shard", "1/2"], "--resume goes with an unsharded sweep"),
            (["simulate", "--shards", "2", "--emit", "parallel", "--out", "x.csv", "--partition", "p"], "--partition goes with --emit slurm"),
            (["simulate", "--shards", "2", "--emit", "slurm", "--out", "x.csv", "--jobs", "2"], "--jobs goes with --emit parallel"),
            (["merge"], "Name the shard files to merge"),
            // --shards N is named as given, not as a --shard the user never typed.
            (["sweep", "--vary", "fill.duration=0.4,1.4", "--shards", "3", "--emit", "parallel", "--out", "x.csv"],
             "holdlab: error: --shards 3: the run has 2 points; use at most 2 shards"),
            (["simulate", "--users", "2000", "--shards", "3", "--emit", "parallel", "--out", "x.csv"],
             "holdlab: error: --shards 3: the run has 1 user chunks of 4096 (--users 2000); use at most 1 shards"),
            (["merge", "--out", "a1.csv", "a1.csv"], "--out a1.csv is the shard file a1.csv that merge reads"),
        ] {
            let run = try CLI.run(arguments)
            #expect(run.status == 64, "\(arguments)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
    }

    @Test("--emit slurm and parallel print scripts that bash accepts, with the shard and merge commands")
    func scripts() throws {
        let directory = try CLI.temporaryDirectory()
        let slurm = try CLI.run(Self.sweep + ["--shards", "8", "--emit", "slurm", "--out", "rates.csv", "--cpus-per-task", "2",
                                              "--partition", "short", "--time", "30:00", "--threads", "3"], in: directory)
        #expect(slurm.status == 0, "\(slurm.stderr)")
        for piece in [
            "#!/bin/bash\n# Made by holdlab ", "#SBATCH --job-name=holdlab-sweep-submit",
            "--array=1-8 --cpus-per-task=2 --partition=short --time=30:00",
            "--dependency=afterok:\"$array\" --kill-on-invalid-dep=yes",
            "--shard \"$SLURM_ARRAY_TASK_ID/8\" --threads \"${SLURM_CPUS_PER_TASK:-1}\" --out \"$SHARDS/shard-$SLURM_ARRAY_TASK_ID-of-8.csv\"",
            "merge --out \"$MERGED\" \"$SHARDS\"/shard-*-of-8.csv", "export SHARDS=rates.csv.shards",
            // sbatch reads % in a log's name as a pattern: the folder's own is doubled.
            "LOGS=${SHARDS//\\%/%%}", "--output=\"$LOGS/slurm-%A_%a.log\"",
        ] {
            #expect(slurm.stdout.contains(piece), "missing: \(piece)")
        }
        let task = try #require(slurm.stdout.split(separator: "\n").first { $0.hasPrefix("  exec \"$HOLDLAB\" sweep") })
        #expect(!task.contains("--threads 3"), "each task's threads follow SLURM_CPUS_PER_TASK, not --threads")
        let parallel = try CLI.run(["simulate", "--profile", "kikocard-accelerating",
                                    "--set", "fill.timer.latency={dist: exponential, mean: 0.004}", "--shards", "4",
                                    "--emit", "parallel", "--jobs", "4", "--sshloginfile", "nodes.txt", "--out", "sim.csv"], in: directory)
        #expect(parallel.status == 0, "\(parallel.stderr)")
        for piece in [
            // parallel is given the shard number alone: the command, with its braces, is a bash function.
            "parallel --halt now,fail=1 --jobs 4 --sshloginfile nodes.txt --workdir \"$PWD\" --env run_shard --env HOLDLAB --env SHARDS run_shard {} ::: $(seq 1 4)",
            "simulate --profile kikocard-accelerating --set 'fill.timer.latency={dist: exponential, mean: 0.004}' --shard \"$1/4\" --threads 1 --out \"$SHARDS/shard-$1-of-4.csv\"",
            "export -f run_shard", "\"$HOLDLAB\" merge --out sim.csv \"$SHARDS\"/shard-*-of-4.csv",
        ] {
            #expect(parallel.stdout.contains(piece), "missing: \(piece)")
        }
        for (name, script) in [("slurm.sh", slurm.stdout), ("parallel.sh", parallel.stdout)] {
            let url = directory.appendingPathComponent(name)
            try script.write(to: url, atomically: true, encoding: .utf8)
            #expect(try runProcess("/bin/bash", ["-n", url.path]).status == 0, "bash -n \(name)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["parallel.sh", "slurm.sh"])
    }

    /// `file`'s first row with `change` applied to its fields by column name, resealed with a valid hash.
    static func forgeFirstRow(_ url: URL, _ change: (inout [String: Int]) -> Void) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        var lines = text.components(separatedBy: "# shard_end:")[0].split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        lines.removeLast()
        let header = try #require(lines.firstIndex { !$0.hasPrefix("#") })
        let names = lines[header].split(separator: ",").map(String.init)
        var fields = lines[header + 1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        var counts: [String: Int] = [:]
        for (index, name) in names.enumerated() { if let value = Int(fields[index]) { counts[name] = value } }
        change(&counts)
        for (index, name) in names.enumerated() { if let value = counts[name] { fields[index] = String(value) } }
        lines[header + 1] = fields.joined(separator: ",")
        let body = lines.joined(separator: "\n") + "\n"
        let rows = lines.count - header - 1
        try (body + "# shard_end: \(rows) rows fnv1a64:\(testFNV1a64(body))\n").write(to: url, atomically: true, encoding: .utf8)
    }

    @Test("merge refuses a sweep shard row of users its plan cannot give, as --resume of the merged file would: fixed --users, and --precision's chunk ends")
    func sweepRowUsers() throws {
        let directory = try CLI.temporaryDirectory()
        for k in 1...2 {
            let run = try CLI.run(["sweep", "--vary", "gesture.minimumDuration=0.6,1.2", "--users", "2000", "--shard", "\(k)/2",
                                   "--out", "w\(k).csv"], in: directory)
            #expect(run.status == 0, "\(run.stderr)")
        }
        // More people, every count still adding up (the extra are accidental users whose action never fired).
        try Self.forgeFirstRow(directory.appendingPathComponent("w1.csv")) { $0["users"]! += 1000; $0["accidental_users"]! += 1000 }
        let merge = try CLI.run(["merge", "--out", "m.csv", "w1.csv", "w2.csv"], in: directory)
        #expect(merge.status == 65 && merge.stderr.contains("w1.csv: row 1: users '3000' is not the sweep's, 2000 per point"), "\(merge.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("m.csv").path))
        // With --precision a point stops at a chunk's end or at the cap.
        let precise = ["sweep", "--vary", "gesture.minimumDuration=0.6,1.2", "--users", "12000", "--precision", "completion_rate=0.02"]
        for k in 1...2 {
            let run = try CLI.run(precise + ["--shard", "\(k)/2", "--out", "p\(k).csv"], in: directory)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let merged = try CLI.run(["merge", "--out", "pm.csv", "p1.csv", "p2.csv"], in: directory)
        #expect(merged.status == 0, "\(merged.stderr)")
        try Self.forgeFirstRow(directory.appendingPathComponent("p1.csv")) { $0["users"]! += 1; $0["accidental_users"]! += 1 }
        let refused = try CLI.run(["merge", "--out", "pm2.csv", "p1.csv", "p2.csv"], in: directory)
        #expect(refused.status == 65 && refused.stderr.contains(
            "which a run with --precision cannot stop at: it stops after a whole number of chunks of 4096 users, or at --users 12000"),
                "\(refused.stderr)")
        // --resume says the same of a row of the file it resumes.
        let file = directory.appendingPathComponent("pm.csv")
        let text = try String(contentsOf: file, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.firstIndex { !$0.hasPrefix("#") })
        let usersColumn = try #require(lines[header].split(separator: ",").firstIndex(of: "users"))
        var fields = lines[header + 1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[usersColumn] = String(Int(fields[usersColumn])! + 1)
        var edited = lines
        edited[header + 1] = fields.joined(separator: ",")
        try edited.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let resumed = try CLI.run(precise + ["--out", "pm.csv", "--resume"], in: directory)
        #expect(resumed.status == 65 && resumed.stderr.contains(
            "which a run with --precision cannot stop at: it stops after a whole number of chunks of 4096 users, or at --users 12000"),
                "\(resumed.stderr)")
    }

    @Test("merge refuses a shard of format version 1 (before the sums of squares): one line, 65, nothing written")
    func oldShard() throws {
        let directory = try CLI.temporaryDirectory()
        #expect(try CLI.run(["simulate", "--users", "5000", "--shard", "1/1", "--out", "sim.csv"], in: directory).status == 0)
        let text = try String(contentsOf: directory.appendingPathComponent("sim.csv"), encoding: .utf8)
        #expect(text.contains("# shard_format: holdlab-shard 2 simulate\n") && text.contains(",completion_time_squares_us2,"))
        // The same file as version 1 wrote it: no squares columns, format 1, resealed with a valid hash.
        let lines = text.components(separatedBy: "# shard_end:")[0].split(separator: "\n").map(String.init)
        let header = try #require(lines.first { $0.hasPrefix("profile,") }).split(separator: ",").map(String.init)
        let keep = header.indices.filter { !header[$0].contains("_squares") }
        let old = lines.map { line -> String in
            if line.hasPrefix("# shard_format:") { return "# shard_format: holdlab-shard 1 simulate" }
            guard !line.hasPrefix("#") else { return line }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return keep.map { fields[$0] }.joined(separator: ",")
        }.joined(separator: "\n") + "\n"
        let sealed = old + "# shard_end: 1 rows fnv1a64:\(testFNV1a64(old))\n"
        try sealed.write(to: directory.appendingPathComponent("v1.csv"), atomically: true, encoding: .utf8)
        let merge = try CLI.run(["merge", "--out", "merged.csv", "v1.csv"], in: directory)
        #expect(merge.status == 65)
        #expect(merge.stderr.contains("v1.csv: is shard format version 1; this holdlab (") && merge.stderr.contains("reads version 2 only: run that shard again with this holdlab"), "\(merge.stderr)")
        #expect(merge.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("merged.csv").path))
        // The version-2 shard merges to the unsharded row, intervals included: SimulationShardTests, in process.
    }
}
