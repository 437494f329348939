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
          arguments: [("completed", 99_999_999, "completed 99999999 exceeds intent_users "),
                      ("false_activations", 99_999_999, "false_activations 99999999 exceeds accidental_users"),
                      ("users", 1, "exceeds users 1"), ("users", 4_999, "users 4999 is not intent_users ")])
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

    @Test("every tally a simulation counts is consistent: each shipped profile against each shipped population, with and without --precision")
    func countedTalliesAreConsistent() throws {
        let library = Make.library
        let profiles = try library.profileNames().map { try library.loadProfile($0) }
        #expect(profiles.count >= 13)
        for name in library.populationNames() {
            let population = try library.loadPopulation(name)
            let request = SimulationRequest(profiles: profiles, population: population, users: 3_000, seed: 7, threads: 2)
            for (profile, tally) in zip(profiles, try Simulator.tallies(request, chunks: 0..<Simulator.chunkCount(users: 3_000))) {
                #expect(tally.inconsistency() == nil, "\(profile.name) × \(name): \(tally.inconsistency() ?? "")")
                #expect(tally[.user] == 3_000)
            }
        }
    }

    @Test("a tally no simulation counts is named, counts near Int.max included (no overflow trap)")
    func inconsistentTallies() throws {
        var tally = Tally()
        tally[.user] = 10; tally[.intent] = 8; tally[.accidental] = 2; tally[.completed] = 5; tally[.prematureRelease] = 2
        tally[.movementCancel] = 1
        // None of the 8 had a first feedback (no values of it), and every one had none.
        tally[.noFeedback] = 8
        #expect(tally.inconsistency() == nil)
        var cases: [(Tally, String)] = []
        var a = tally; a[.intent] = .max; a[.accidental] = 1; cases.append((a, "intent_users 9223372036854775807 exceeds users 10"))
        var b = tally; b[.user] = .max; b[.intent] = .max; b[.accidental] = .max
        cases.append((b, "users 9223372036854775807 is not intent_users 9223372036854775807 + accidental_users 9223372036854775807"))
        var c = tally; c[.movementCancel] = 2; cases.append((c, "completed + premature_release + movement_cancels is not intent_users 8"))
        var d = tally; d[.prematureImpatience] = 2; d[.prematureMismatch] = 1
        cases.append((d, "premature_impatience + premature_mismatch exceeds premature_release 2"))
        var e = tally; e[.completedUnseen] = 1; cases.append((e, "completed_unseen 1 exceeds completed_with_fill 0"))
        var f = tally; f.valueCounts[HoldValue.retract.rawValue] = 9; cases.append((f, "9 values of retract exceed intent_users 8"))
        var g = tally; g.valueCounts[HoldValue.mismatch.rawValue] = .max; cases.append((g, "values of mismatch exceed completed 5"))
        // Feedback or none, for every intent user; a hold that gave up at its patience had none; a mismatch needs a
        // completed hold with a fill that looked full.
        var i = tally; i[.noFeedback] = 7
        cases.append((i, "0 values of first_feedback and no_feedback 7 do not add up to intent_users 8"))
        var j = tally; j.valueCounts[HoldValue.firstFeedback.rawValue] = 3
        cases.append((j, "3 values of first_feedback and no_feedback 8 do not add up to intent_users 8"))
        var k = tally; k[.noFeedback] = 1; k.valueCounts[HoldValue.firstFeedback.rawValue] = 7; k[.prematureImpatience] = 2
        cases.append((k, "premature_impatience 2 exceeds no_feedback 1"))
        var l = tally; l[.completedWithFill] = 5; l[.completedUnseen] = 3; l.valueCounts[HoldValue.mismatch.rawValue] = 3
        cases.append((l, "3 values of mismatch exceed the 2 completed holds with a fill that looked full"))
        // Sums beyond what their values' histogram buckets hold: 6 holds of exactly 1 pulse sum to 6, not 5 (the
        // thousandth of slack per value let 6,000 pass for 6,163); a mismatch sum above its positive values' reach.
        var pulsed = tally
        for _ in 0..<5 { pulsed.take(.pulses, 1, real: 1) }
        pulsed.maxima[HoldValue.pulses.rawValue] = 1
        pulsed.finish()
        #expect(pulsed.inconsistency() == nil, "\(pulsed.inconsistency() ?? "")")
        var fewer = pulsed; fewer.sums[HoldValue.pulses.rawValue] = 4; fewer.squares[HoldValue.pulses.rawValue] = 4
        cases.append((fewer, "the sum of pulses is outside what its values' histogram buckets can sum to"))
        var signed = tally
        signed[.completedWithFill] = 5
        for amount in [-3_000, -2_000, 994, 994, 994] as [Int64] { signed.take(.mismatch, amount, real: Double(amount) / 1e6) }
        signed.finish()
        #expect(signed.inconsistency() == nil, "\(signed.inconsistency() ?? "")")
        var shifted = signed
        shifted.sums[HoldValue.mismatch.rawValue] += 4_000
        shifted.squares[HoldValue.mismatch.rawValue] += 8_000_000
        cases.append((shifted, "the sum of mismatch is outside what its values' histogram buckets can sum to"))
        // Dropped pulses are whole numbers from 0, each at most a pulse count's reach.
        var dropped = pulsed
        for amount in [0, 2, 3, 0, 1] as [Int64] { dropped.take(.droppedPulses, amount, real: 0) }
        #expect(dropped.inconsistency() == nil, "\(dropped.inconsistency() ?? "")")
        var fractional = dropped; fractional.sums[HoldValue.droppedPulses.rawValue] = 3; fractional.squares[HoldValue.droppedPulses.rawValue] = 2
        cases.append((fractional, "the sum of squares of dropped_pulses is below its sum"))
        var many = dropped; many.sums[HoldValue.droppedPulses.rawValue] = 1_000_000_000_000
        many.squares[HoldValue.droppedPulses.rawValue] = Int128(1_000_000_000_000) * 1_000_000_000_000
        cases.append((many, "the sum of dropped_pulses is outside what 5 counts of at most 10,000,000 can sum to"))
        // A first feedback after its hold ended; a progress above 1.
        var felt = tally
        for _ in 0..<2 { felt.take(.holdTime, 1_000_000, real: 0) }
        felt.take(.firstFeedback, 100_000, real: 0); felt.take(.firstFeedback, 200_000, real: 0)
        felt[.noFeedback] = 6
        felt.finish()
        #expect(felt.inconsistency() == nil, "\(felt.inconsistency() ?? "")")
        var late = felt
        late.sums[HoldValue.firstFeedback.rawValue] = 99_999_999_999_999
        late.squares[HoldValue.firstFeedback.rawValue] = Int128(99_999_999_999_999) * 99_999_999_999_999
        cases.append((late, "the sum of first_feedback is outside what "))
        var full = tally
        for _ in 0..<5 { full.take(.progressAtTrigger, 1_000_000_000, real: 1) }
        full.minima[HoldValue.progressAtTrigger.rawValue] = 1
        full.finish()
        #expect(full.inconsistency() == nil, "\(full.inconsistency() ?? "")")
        var over = full
        over.sums[HoldValue.progressAtTrigger.rawValue] = 6_000_000_000
        over.squares[HoldValue.progressAtTrigger.rawValue] = Int128(6_000_000_000) * 6_000_000_000 / 5
        over.minima[HoldValue.progressAtTrigger.rawValue] = 1.2
        cases.append((over, "the sum of progress_at_trigger is outside what 5 progresses of 0 to 1 can sum to"))
        // Five completion times of 1 s: their sum is 5 s, not 50 s, whatever the squares say.
        var h = tally
        for _ in 0..<5 { h.take(.completionTime, 1_000_000, real: 0) }
        h.finish()
        #expect(h.inconsistency() == nil, "\(h.inconsistency() ?? "")")
        h.sums[HoldValue.completionTime.rawValue] = 50_000_000
        h.squares[HoldValue.completionTime.rawValue] = 1_000_000_000_000_000
        cases.append((h, "the sum of completion_time is outside its count times its smallest and largest values"))
        // Squares one beyond what the values allow, either way, is refused exactly (a bound in doubles took 10⁻¹² of
        // slack, one unit at 6,163 values of 1 s): 5 values of exactly 1 s (the buckets pin them) square to 5·10¹²;
        // 4 of 3 s and one of 1 s (sum 13 s) have n·Σy² = 5·37·10¹² > (13·10⁶)², one below is still above.
        var exact = tally
        for _ in 0..<5 { exact.take(.completionTime, 1_000_000, real: 0) }
        exact.finish()
        var above = exact; above.squares[HoldValue.completionTime.rawValue] += 1
        cases.append((above, "the sum of squares of completion_time is outside what its values' histogram buckets can sum to"))
        var below = exact; below.squares[HoldValue.completionTime.rawValue] -= 1
        cases.append((below, "the sum of squares of completion_time is below the square of its sum over its count"))
        // Cauchy–Schwarz, exactly: n·Σy² ≥ (Σy)² at equality passes, one unit of Σy² below does not (values spread
        // over two buckets, so the buckets alone do not settle it).
        var spread = tally
        spread[.completed] = 5
        for amount in [1, 1, 1, 1, 1] as [Int64] { spread.take(.droppedPulses, amount, real: 0) }
        #expect(spread.inconsistency() == nil, "\(spread.inconsistency() ?? "")")
        var unequal = spread; unequal.squares[HoldValue.droppedPulses.rawValue] = 4
        cases.append((unequal, "the sum of squares of dropped_pulses is below the square of its sum over its count"))
        // Extremes: five completed holds (with a fill) of two pulses 10 ms apart, 20 ms of mismatch, a full bar.
        var x = tally
        x[.completedWithFill] = 5
        for _ in 0..<5 {
            x.take(.pulses, 2, real: 2)
            x.take(.mismatch, 20_000, real: 0.02)
            x.take(.progressAtTrigger, 1_000_000_000, real: 1)
            x.take(.pulseRate, 0, real: 100)
        }
        x.finish()
        #expect(x.inconsistency() == nil, "\(x.inconsistency() ?? "")")
        func forge(_ change: (inout Tally) -> Void, _ message: String) {
            var forged = x
            change(&forged)
            cases.append((forged, message))
        }
        forge({ $0.maxima[HoldValue.pulses.rawValue] = 5000 }, "the largest pulses 5000.0 is not its values' largest, 2.0")
        forge({ $0.maxima[HoldValue.pulses.rawValue] = 3 }, "the largest pulses 3.0 is not its values' largest, 2.0")
        forge({ $0.maxima[HoldValue.mismatch.rawValue] = .infinity }, "the largest mismatch is inf, not a value's")
        forge({ $0.maxima[HoldValue.mismatch.rawValue] = 0.5 }, "the largest mismatch 0.5 is not its values' largest, 0.02")
        forge({ $0.maxima[HoldValue.pulseRate.rawValue] = -5 }, "the largest pulse_rate -5.0 is not a rate of pulses")
        // Every hold showed a full bar: no smallest progress can lie below that (nor above it).
        forge({ $0.minima[HoldValue.progressAtTrigger.rawValue] = 5 }, "the smallest progress_at_trigger 5.0 is not within its values' spread about their mean 1.0")
        forge({ $0.minima[HoldValue.progressAtTrigger.rawValue] = 0.2 }, "the smallest progress_at_trigger 0.2 is not within its values' spread about their mean 1.0")
        forge({ $0.valueCounts[HoldValue.pulses.rawValue] = 0; $0.sums[HoldValue.pulses.rawValue] = 0
                $0.squares[HoldValue.pulses.rawValue] = 0 }, "the largest pulses is 2.0 over no values")
        // A rate needs two pulses in one hold.
        var single = tally
        for _ in 0..<5 { single.take(.pulses, 1, real: 1) }
        single.maxima[HoldValue.pulseRate.rawValue] = 50
        single.finish()
        cases.append((single, "a pulse_rate of 50.0 where no completed hold had two pulses"))
        for (forged, message) in cases {
            #expect(forged.inconsistency()?.contains(message) == true, "\(forged.inconsistency() ?? "nil") vs \(message)")
        }
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
