import GSL
import HoldLabIO
import HoldProfiles
import HoldSimulation

/// A CSV HoldLab wrote, read back the way the command-line tests read the binary's output: so a test that drives a
/// job in process asserts on the same text.
public enum CSVRecords {
    /// The lines that are not `#` provenance lines (the header first).
    public static func dataLines(_ csv: String) -> [Substring] {
        csv.split(separator: "\n").filter { !$0.hasPrefix("#") }
    }

    /// The data rows as dictionaries by column name (fields split at commas: the numeric CSVs quote nothing).
    public static func records(_ csv: String) -> [[String: String]] {
        let lines = dataLines(csv)
        guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false).map(String.init) else { return [] }
        return lines.dropFirst().map { line in
            Dictionary(uniqueKeysWithValues: zip(header, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
        }
    }

    /// The lines of `text` but its `# command:` line (which records the options given) and, for a merged shard
    /// file, its `# merged:` line.
    public static func withoutCommand(_ text: String) -> [Substring] {
        text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("# command:") && !$0.hasPrefix("# merged:") }
    }
}

/// FNV-1a 64 as 16 hex digits (a shard's `shard_end` hash), written out again here (not the library's) so a test can
/// reseal an edited shard independently.
public func testFNV1a64(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
}

extension Make {
    /// The job `holdlab simulate` makes of library profiles (with `--set` values, and `own` values for some of them
    /// alone, as their own files would have) against library populations (nil: the one the profiles name), as the
    /// command builds it.
    public static func simulation(
        _ profiles: [String] = ["hig-linear-bar"], populations: [String]? = nil, overrides: [String] = [],
        own: [String: [String]] = [:], users: Int,
        seed: UInt64 = 1, rng: Generator.Kind = .users, threads: Int = 2, commandLine: String = "holdlab simulate"
    ) throws -> SimulationJob {
        let library = Make.library
        let loaded = try profiles.map { name in
            let parsed = try (overrides + (own[name] ?? [])).map { text throws(ProfileError) in try Override(parsing: text) }
            return try library.loadProfile(name, overrides: parsed)
        }
        let names = try SimulationJob.populationNames(given: populations ?? [], profiles: loaded)
        return SimulationJob(profiles: loaded, populations: try names.map(library.loadPopulation), users: users, seed: seed,
                             rng: rng, threads: threads, commandLine: commandLine)
    }
}

extension SimulationJob {
    /// Runs the job as `simulate --out … --per-user …` does: the summary's CSV, and the per-user file (its head, then
    /// one row per user and profile).
    public func runWithPerUser() throws -> (summary: String, perUser: String) {
        var perUser = perUserHead()
        let table = try run(perUser: { perUser += $0 })
        return (ResultDocument(table).csv, perUser)
    }

    /// The summary as CSV (`simulate --out`).
    public func csv() throws -> String { ResultDocument(try run()).csv }
}
