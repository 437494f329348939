import Foundation
import Testing

/// The `_lo`/`_hi` columns of the seven means, checked from outside: recomputed person by person from `--per-user`,
/// shown as `mean [lo, hi]` in the table, markdown and JSON views, and carried through shards.
@Suite("holdlab simulate: the means' 95 % intervals")
struct MeanIntervalCommandTests {
    /// Each mean, its per-user column, which users it averages over, and its CSV decimals.
    struct Mean {
        let column: String
        let perUser: String
        let completedOnly: Bool
        let decimals: Int
    }

    static let means = [
        Mean(column: "completion_time_mean_ms", perUser: "trigger_ms", completedOnly: true, decimals: 3),
        Mean(column: "pulses_mean", perUser: "pulses", completedOnly: true, decimals: 3),
        Mean(column: "dropped_pulses_mean", perUser: "dropped_pulses", completedOnly: true, decimals: 3),
        Mean(column: "mismatch_mean_ms", perUser: "mismatch_ms", completedOnly: true, decimals: 3),
        Mean(column: "progress_at_trigger_mean", perUser: "progress_at_trigger", completedOnly: true, decimals: 6),
        Mean(column: "first_feedback_ms", perUser: "first_feedback_ms", completedOnly: false, decimals: 3),
        Mean(column: "retract_mean_ms", perUser: "retract_ms", completedOnly: false, decimals: 3),
    ]

    /// t(0.975, ν) by the Cornish–Fisher expansion of Student's t in the normal quantile (Abramowitz & Stegun
    /// 26.7.5, four terms): written out here, not GSL's, for the independent check. Its error is below 10⁻⁸ for
    /// ν ≥ 100, far below the CSV's rounding.
    static func t975(_ nu: Double) -> Double {
        let z = 1.959963984540054
        let z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z, z9 = z7 * z * z
        return z + (z3 + z) / (4 * nu) + (5 * z5 + 16 * z3 + 3 * z) / (96 * nu * nu)
            + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * nu * nu * nu)
            + (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / (92160 * nu * nu * nu * nu)
    }

    static func records(_ csv: String) -> [[String: String]] {
        let lines = CLI.dataLines(csv)
        guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false).map(String.init) else { return [] }
        return lines.dropFirst().map { line in
            Dictionary(uniqueKeysWithValues: zip(header, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
        }
    }

    @Test("every mean's interval recomputed person by person from --per-user agrees with the summary to its rounding")
    func perUser() throws {
        let directory = try CLI.temporaryDirectory()
        let run = try CLI.run(["simulate", "--profile", "kikocard-article-latency", "--profile", "mismatched-fill",
                               "--profile", "hig-linear-bar", "--users", "12000", "--seed", "5",
                               "--set", "haptics.minInterval=0.02", "--out", "summary.csv", "--per-user", "users.csv"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let summaries = Self.records(try String(contentsOf: directory.appendingPathComponent("summary.csv"), encoding: .utf8))
        let users = Self.records(try String(contentsOf: directory.appendingPathComponent("users.csv"), encoding: .utf8))
        #expect(summaries.count == 3 && users.count == 36_000)
        var varying = 0
        for summary in summaries {
            let profile = try #require(summary["profile"])
            let mine = users.filter { $0["profile"] == profile && $0["intent"] == "confirm" }
            for mean in Self.means {
                let values = mine.filter { !mean.completedOnly || $0["outcome"] == "completed" }
                    .compactMap { $0[mean.perUser].flatMap(Double.init) }.filter { !$0.isNaN }
                let n = Double(values.count)
                let average = values.reduce(0, +) / n
                let s = (values.map { ($0 - average) * ($0 - average) }.reduce(0, +) / (n - 1)).squareRoot()
                let half = Self.t975(n - 1) * s / n.squareRoot()
                let lo = try #require(summary[mean.column + "_lo"].flatMap(Double.init))
                let hi = try #require(summary[mean.column + "_hi"].flatMap(Double.init))
                let written = try #require(summary[mean.column].flatMap(Double.init))
                // The summary rounds to `decimals` (half a unit in the last place); the per-user values are rounded
                // to the same unit, which moves a mean or a bound by at most another half: one unit in all.
                let unit = pow(10, -Double(mean.decimals)) * 1.000001
                #expect(abs(written - average) <= unit, "\(profile) \(mean.column): \(written) vs \(average)")
                #expect(abs(lo - (average - half)) <= unit, "\(profile) \(mean.column)_lo: \(lo) vs \(average - half)")
                #expect(abs(hi - (average + half)) <= unit, "\(profile) \(mean.column)_hi: \(hi) vs \(average + half)")
                #expect(lo <= written && written <= hi)
                if hi - lo > 10 * unit { varying += 1 }
            }
        }
        // The check means something: most of the 21 intervals have a width well above the rounding.
        #expect(varying >= 10, "only \(varying) intervals wider than the rounding")
    }

    @Test("each new column sits right after its mean; fewer than two values give NaN bounds")
    func columnsAndEdges() throws {
        let list = try CLI.run(["simulate", "--list-columns"])
        let names = list.stdout.split(separator: "\n").dropFirst(2).map { String($0.split(separator: "`")[1]) }
        for mean in Self.means {
            let index = try #require(names.firstIndex(of: mean.column))
            #expect(Array(names[(index + 1)...(index + 2)]) == [mean.column + "_lo", mean.column + "_hi"])
        }
        #expect(list.stdout.contains("| `retract_mean_ms_hi` | ms | 95 % Student t interval of the mean, upper bound (NaN with fewer than 2 values) |"))
        // One user (seed 1: an intent user who completes): each mean has its one value and no interval, and the
        // note says why, rather than calling them over nobody.
        let run = try CLI.run(["simulate", "--users", "1"])
        let one = Self.records(run.stdout)[0]
        for mean in Self.means { #expect(one[mean.column + "_lo"] == "NaN" && one[mean.column + "_hi"] == "NaN", "\(mean.column)") }
        #expect(one["completed"] == "1" && one["completion_time_mean_ms"] == "1000.000")
        #expect(run.stderr.contains("note: a mean of a single value has no 95 % interval, so these are written as NaN: completion_time_mean_ms_lo, completion_time_mean_ms_hi, pulses_mean_lo"), "\(run.stderr)")
        #expect(!run.stderr.contains("over nobody: completion_time_mean_ms_lo") && !run.stderr.contains("nobody: false_activation_rate, false_activation_rate_lo, false_activation_rate_hi, completion_time"))
    }

    @Test("table, markdown and json of one simulate row show every mean as mean [lo, hi], rounded to its interval")
    func views() throws {
        let arguments = ["simulate", "--profile", "kikocard-article-latency", "--users", "20000", "--no-comments"]
        let csv = Self.records(try CLI.run(arguments + ["--format", "csv"]).stdout)[0]
        let table = try CLI.run(arguments + ["--format", "table"])
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n").map(String.init)
        for mean in Self.means {
            let line = try #require(lines.first { $0.hasPrefix(mean.column + " ") }, "\(mean.column)")
            let cell = line.dropFirst(mean.column.count).drop { $0 == " " }
            // `value [lo, hi]` (then the unit): three numbers, the bounds those of the CSV to the shown digits.
            let parts = cell.split(whereSeparator: { " [],".contains($0) }).map(String.init)
            let (value, lo, hi) = (try #require(Double(parts[0])), try #require(Double(parts[1])), try #require(Double(parts[2])))
            let decimals = parts[1].split(separator: ".").dropFirst().first?.count ?? 0
            let unit = pow(10, -Double(decimals))
            #expect(cell.contains(" [") && cell.contains(", ") && cell.contains("]"), "\(line)")
            #expect(abs(lo - Double(csv[mean.column + "_lo"]!)!) <= unit / 2 + 1e-12, "\(line)")
            #expect(abs(hi - Double(csv[mean.column + "_hi"]!)!) <= unit / 2 + 1e-12, "\(line)")
            #expect(abs(value - Double(csv[mean.column]!)!) <= unit / 2 + 1e-12, "\(line)")
            if mean.column.hasSuffix("_ms") { #expect(line.hasSuffix("] ms"), "\(line)") }
            #expect(!lines.contains { $0.hasPrefix(mean.column + "_lo") || $0.hasPrefix(mean.column + "_hi") })
        }
        // kikocard-article-latency: completion time varies with Timer latency, so its interval has width and few digits.
        #expect(lines.contains { $0.hasPrefix("completion_time_mean_ms ") && !$0.contains(".000 [") }, "\(table.stdout)")
        // Markdown shows the same cells as the table.
        let markdown = try CLI.run(arguments + ["--format", "markdown"]).stdout
        for mean in Self.means {
            let line = try #require(lines.first { $0.hasPrefix(mean.column + " ") })
            let cell = line.dropFirst(mean.column.count).drop { $0 == " " }
            #expect(markdown.contains("| `\(mean.column)` | \(cell) |\n"), "\(mean.column): \(markdown)")
        }
        let json = try CLI.run(arguments + ["--format", "json"]).stdout
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        for mean in Self.means {
            #expect(object[mean.column + "_lo"] as? Double == Double(csv[mean.column + "_lo"]!))
            #expect(object[mean.column + "_hi"] as? Double == Double(csv[mean.column + "_hi"]!))
        }
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
        let sealed = old + "# shard_end: 1 rows fnv1a64:\(ShardCommandTests.fnv1a64(old))\n"
        try sealed.write(to: directory.appendingPathComponent("v1.csv"), atomically: true, encoding: .utf8)
        let merge = try CLI.run(["merge", "--out", "merged.csv", "v1.csv"], in: directory)
        #expect(merge.status == 65)
        #expect(merge.stderr.contains("v1.csv: is shard format version 1; this holdlab (") && merge.stderr.contains("reads version 2 only: run that shard again with this holdlab"), "\(merge.stderr)")
        #expect(merge.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("merged.csv").path))
        // The version-2 shard merges to the unsharded row, intervals included.
        #expect(try CLI.run(["merge", "--out", "merged.csv", "sim.csv"], in: directory).status == 0)
        let whole = try CLI.run(["simulate", "--users", "5000"])
        #expect(CLI.dataLines(try String(contentsOf: directory.appendingPathComponent("merged.csv"), encoding: .utf8)) == CLI.dataLines(whole.stdout))
    }
}
