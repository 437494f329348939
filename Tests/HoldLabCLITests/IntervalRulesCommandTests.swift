import Foundation
import HoldLabTestSupport
import Testing

/// `--intervals`: the intervals of holdlab 0.3.9 (0.3) by default, those of 0.2 and 0.1 on request.
@Suite("compare --intervals")
struct IntervalRulesCommandTests {
    /// The output of holdlab 0.1.0 for these arguments (Golden/*-0.1.csv, written by the 0.1.0 binary).
    static let goldens: [(file: String, arguments: [String])] = [
        ("compare-slow-0.1.csv", ["compare", "--profile", "hig-linear-bar", "--variant", "slow=gesture.minimumDuration=1.1",
                                  "--users", "2000", "--seed", "2"]),
        ("compare-mid-0.1.csv", ["compare", "--profile", "hig-linear-bar", "--variant",
                                 "mid=fill.curve=easeIn fill.duration=0.95 gesture.minimumDuration=0.85",
                                 "--population", "default,motor-impaired", "--users", "3000", "--seed", "5"]),
    ]

    @Test("--intervals 0.1 reproduces holdlab 0.1.0's rows byte for byte, apart from the version and the option itself",
          arguments: 0..<2)
    func reproducesOldRows(index: Int) throws {
        let (file, arguments) = Self.goldens[index]
        let golden = try String(contentsOf: CLI.root.appendingPathComponent("Tests/HoldLabCLITests/Golden/\(file)"), encoding: .utf8)
        // 0.1.0's populations are Profiles/populations/v1/ since 0.2.0 changed default's reaction time (issue 28).
        var old = arguments
        if let index = old.firstIndex(of: "--population") {
            old[index + 1] = old[index + 1].split(separator: ",").map { "v1/" + $0 }.joined(separator: ",")
        } else {
            old += ["--population", "v1/default"]
        }
        // 0.1.0 drew its users from mt19937 (0.3.0's default is taus2; Golden.comparable drops the `# rng:` line).
        let result = try CLI.run(old + ["--intervals", "0.1", "--rng", "mt19937"])
        #expect(result.status == 0, "\(result.stderr)")
        var lines = Golden.comparable(result.stdout).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The provenance's version line, and the command line, which records the options so the run can be repeated.
        try #require(lines.count > 2 && lines[0].hasPrefix("# holdlab: ") && lines[1].hasSuffix(" --intervals 0.1"), "\(lines.prefix(2))")
        lines[0] = "# holdlab: 0.1.0 compare"
        lines[1] = String(lines[1].dropLast(" --intervals 0.1".count))
        lines[1] = lines[1].replacingOccurrences(of: "v1/", with: "")
        if !arguments.contains("--population") { lines[1] = String(lines[1].dropLast(" --population default".count)) }
        #expect(lines.joined(separator: "\n") == golden)
    }

    @Test("by default no difference between different designs has zero width: slow at seed 2 (issue 27)")
    func noZeroWidth() throws {
        // The case of issue 27 as it was found: 0.2.0's people (mt19937).
        let result = try CLI.run(Self.goldens[0].arguments + ["--rng", "mt19937"])
        #expect(result.status == 0, "\(result.stderr)")
        let records = CSVRecords.records(result.stdout)
        let unseen = try #require(records.first { $0["metric"] == "completed_unseen_rate" })
        #expect(unseen["diff"] == "0.000000" && unseen["diff_lo"] == "-0.001880" && unseen["diff_hi"] == "0.001880")
        #expect(unseen["method"] == "bonett-price-delta")
        for record in records {
            let metric = record["metric"] ?? ""
            // Means whose difference is the same for every person (a gesture 100 ms later, one pulse each) are exact.
            if ["completion_time_mean_ms", "pulses_mean", "dropped_pulses_mean"].contains(metric) { continue }
            #expect(record["diff_lo"] != record["diff_hi"], "\(metric)")
            #expect(record["unpaired_lo"] != record["unpaired_hi"], "\(metric)")
        }
        #expect(result.stdout.contains("# method: rates: bonett-price-paired (Bonett and Price 2012"))
    }

    @Test("an unknown --intervals is a usage error naming the choices; --help lists the option")
    func usage() throws {
        let bad = try CLI.run(["compare", "--variant", "a=fill.curve=easeIn", "--intervals", "0.4", "--users", "10"])
        #expect(bad.status == 64 && ["0.1", "0.2", "0.3"].allSatisfy(bad.stderr.contains), "\(bad.stderr)")
        let help = try CLI.run(["compare", "--help"])
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("--intervals <version>") && words.contains("reproduces the rows of holdlab 0.1 byte for byte"), "\(words)")
    }
}
