import Foundation
import HoldLabIO
import HoldLabTestSupport
import Testing
@testable import HoldSimulation

/// `simulate --shard K/N` and `merge`, in process: `ShardRun.simulation` writes a shard file as the command does,
/// `ShardMerge` reads shard files back (the binary's statuses, its one error line and its files stay in
/// HoldLabCLITests).
@Suite("simulate shards and merge, in process")
struct SimulationShardTests {
    /// The shard file `holdlab simulate … --shard K/N --threads T --out FILE` writes for `job` (the recorded command
    /// leaves out `--threads`; the plan command also `--shard` and `--out`).
    static func shard(_ job: SimulationJob, _ shard: ShardSpec, threads: Int? = nil) throws -> String {
        var request = job.request(job.populations[0])
        request.threads = threads ?? request.threads
        return try ShardRun.simulation(
            request, shard: shard, identity: job.identity.entries.map { ($0.key, $0.value) },
            command: job.commandLine + " --shard \(shard) --out shard-\(shard.index)-of-\(shard.count).csv", planCommand: job.commandLine)
    }

    /// `holdlab merge --out OUT FILES…`: the merged CSV, or what `merge` refuses.
    static func merge(_ files: [(path: String, text: String)], out: String = "merged.csv") -> Result<String, ShardError> {
        let merge = ShardMerge()
        do {
            for file in files { try merge.add(path: file.path, text: file.text) }
            let result = try merge.finish(outputArguments: "--out \(out)", mergeCommand: "holdlab merge")
            return .success(ResultDocument(result.table).csv)
        } catch {
            return .failure(error)
        }
    }

    @Test("a simulation cut into 1, 3 and 8 shards of its user chunks merges to the unsharded rows, byte for byte")
    func simulateShards() throws {
        let job = try Make.simulation(["hig-linear-bar", "kikocard-article-latency"], users: 33_000, seed: 4,
                                      commandLine: "holdlab simulate --profile hig-linear-bar --profile kikocard-article-latency --users 33000 --seed 4")
        var whole = job
        whole.commandLine += " --out whole.csv"
        let expected = try whole.csv()
        for count in [1, 3, 8] {
            var files: [(path: String, text: String)] = []
            for index in 1...count {
                let spec = try ShardSpec(index: index, count: count)
                files.append(("shard-\(index)-of-\(count).csv", try Self.shard(job, spec, threads: 1 + index % 2)))
            }
            let merged = try Self.merge(files.reversed(), out: "merged-\(count).csv").get()
            #expect(CSVRecords.dataLines(merged) == CSVRecords.dataLines(expected), "\(count) shards")
            #expect(CSVRecords.withoutCommand(merged) == CSVRecords.withoutCommand(expected))
            #expect(merged.contains("# command: \(job.commandLine) --out merged-\(count).csv\n"))
            #expect(files[0].text.contains("# shard_format: holdlab-shard 2 simulate\n# shard: 1/\(count)\n"))
            #expect(files[0].text.contains("completion_time_us_hdr"))
        }
    }

    @Test("a shard whose tallies were edited consistently (hash recomputed) is still checked column by column")
    func resealedTally() throws {
        let text = try Self.shard(try Make.simulation(users: 5_000), try ShardSpec(index: 1, count: 1))
        let body = text.components(separatedBy: "# shard_end:")[0]
        // Change the histogram's count column so it disagrees with its encoded counts, then reseal with a valid hash.
        let lines = body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.first { $0.hasPrefix("profile,") }).split(separator: ",")
        let column = try #require(header.firstIndex(of: "hold_time_us_count"))
        let rowIndex = try #require(lines.firstIndex { $0.hasPrefix("hig-linear-bar,") })
        var fields = lines[rowIndex].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[column] = String((Int(fields[column]) ?? 0) + 1)
        var edited = lines
        edited[rowIndex] = fields.joined(separator: ",")
        let newBody = edited.joined(separator: "\n")
        let resealed = newBody + "# shard_end: 1 rows fnv1a64:\(testFNV1a64(newBody))\n"
        let message = try #require(Self.merge([("edited.csv", resealed)]).failure).message
        #expect(message.contains("edited.csv: tally row 1 (hig-linear-bar), column hold_time_us_hdr:"), "\(message)")
        #expect(!message.contains("\n"))
    }

    @Test("a resealed shard whose counts no simulation gives (more completed than intent users, more false activations than accidental users) is refused",
          arguments: [("completed", 99_999_999, "completed + premature_release + movement_cancels = "),
                      ("false_activations", 99_999_999, "false_activations 99999999 exceeds accidental_users"),
                      ("users", 1, "users 1 is not intent_users")])
    func impossibleCounts(column: String, value: Int, message expected: String) throws {
        let text = try Self.shard(try Make.simulation(users: 5_000), try ShardSpec(index: 1, count: 1))
        let body = text.components(separatedBy: "# shard_end:")[0]
        let lines = body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.first { $0.hasPrefix("profile,") }).split(separator: ",")
        let index = try #require(header.firstIndex { $0 == column })
        let rowIndex = try #require(lines.firstIndex { $0.hasPrefix("hig-linear-bar,") })
        var fields = lines[rowIndex].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[index] = String(value)
        var edited = lines
        edited[rowIndex] = fields.joined(separator: ",")
        let newBody = edited.joined(separator: "\n")
        let resealed = newBody + "# shard_end: 1 rows fnv1a64:\(testFNV1a64(newBody))\n"
        let message = try #require(Self.merge([("forged.csv", resealed)]).failure).message
        #expect(message.hasPrefix("forged.csv: tally row 1 (hig-linear-bar): ") && message.contains(expected)
                && message.hasSuffix("so this is not a shard holdlab wrote"), "\(message)")
        // The shard as written merges.
        #expect((try? Self.merge([("shard.csv", text)]).get()) != nil)
    }

    @Test("a shard of format version 1 (before the sums of squares) is refused in one line; version 2 merges to the unsharded row")
    func oldShard() throws {
        let job = try Make.simulation(users: 5_000)
        let text = try Self.shard(job, try ShardSpec(index: 1, count: 1))
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
        let message = try #require(Self.merge([("v1.csv", sealed)]).failure).message
        #expect(message.contains("v1.csv: is shard format version 1; this holdlab (")
                && message.contains("reads version 2 only: run that shard again with this holdlab"), "\(message)")
        #expect(!message.contains("\n"))
        // The version-2 shard merges to the unsharded row, intervals included.
        let merged = try Self.merge([("sim.csv", text)]).get()
        #expect(CSVRecords.dataLines(merged) == CSVRecords.dataLines(try job.csv()))
    }
}

extension Result {
    /// The error, or nil on success.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
