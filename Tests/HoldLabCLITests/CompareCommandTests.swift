import Foundation
import Testing

@Suite("holdlab compare")
struct CompareCommandTests {
    static let columns = "population,design,baseline,metric,design_value,baseline_value,diff,diff_lo,diff_hi,unpaired_lo,unpaired_hi,method"

    /// A CSV's data rows as dictionaries by column name.
    static func records(_ csv: String) -> [[String: String]] {
        let lines = CLI.dataLines(csv)
        guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false).map(String.init) else { return [] }
        return lines.dropFirst().map { line in
            Dictionary(uniqueKeysWithValues: zip(header, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
        }
    }

    /// Wilson's 95 % interval, written out again here (not the library's) for the independent check.
    static func wilson(_ successes: Double, _ n: Double) -> (Double, Double) {
        let z = 1.959963984540054, p = successes / n
        let centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        let half = z / (1 + z * z / n) * (p * (1 - p) / n + z * z / (4 * n * n)).squareRoot()
        return (max(0, centre - half), min(1, centre + half))
    }

    /// Newcombe (1998) method 10 for paired proportions from the 2×2 table a (both), b (first only), c (second
    /// only), d (neither).
    static func newcombePaired(a: Double, b: Double, c: Double, d: Double) -> (Double, Double) {
        let n = a + b + c + d
        let p1 = (a + b) / n, p2 = (a + c) / n
        let (l1, u1) = wilson(a + b, n), (l2, u2) = wilson(a + c, n)
        let denominator = ((a + b) * (c + d) * (a + c) * (b + d)).squareRoot()
        let phi = denominator == 0 ? 0 : (a * d - b * c) / denominator
        let lower = p1 - p2 - ((p1 - l1) * (p1 - l1) - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) * (u2 - p2)).squareRoot()
        let upper = p1 - p2 + ((u1 - p1) * (u1 - p1) - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) * (p2 - l2)).squareRoot()
        return (lower, upper)
    }

    /// The delta-method interval for the difference of two means over subsets of the same people, computed
    /// person by person: u = (y₁ − R₁z₁)/Z₁ − (y₂ − R₂z₂)/Z₂, Var = Σu² (paired) or the same without the
    /// cross term (unpaired).
    static func deltaInterval(_ pairs: [(Double?, Double?)]) -> (diff: Double, paired: (Double, Double), unpaired: (Double, Double)) {
        let first = pairs.compactMap(\.0), second = pairs.compactMap(\.1)
        let r1 = first.reduce(0, +) / Double(first.count), r2 = second.reduce(0, +) / Double(second.count)
        var paired = 0.0, unpaired = 0.0
        for (y1, y2) in pairs {
            let u1 = y1.map { ($0 - r1) / Double(first.count) } ?? 0
            let u2 = y2.map { ($0 - r2) / Double(second.count) } ?? 0
            paired += (u1 - u2) * (u1 - u2)
            unpaired += u1 * u1 + u2 * u2
        }
        let z = 1.959963984540054, diff = r1 - r2
        return (diff, (diff - z * paired.squareRoot(), diff + z * paired.squareRoot()),
                (diff - z * unpaired.squareRoot(), diff + z * unpaired.squareRoot()))
    }

    @Test("paired intervals equal an independent computation from two `simulate --per-user` runs, and are narrower than unpaired")
    func pairedIntervalsFromPerUserRows() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let users = "20000"
        let compare = try CLI.run(["compare", "--profile", "hig-linear-bar", "--variant", "slower=gesture.minimumDuration=1.1",
                                   "--users", users, "--seed", "3"])
        #expect(compare.status == 0, "\(compare.stderr)")
        // The same people, simulated separately: simulate draws person i from the same stream whatever the profile.
        var perUser: [[[String: String]]] = []
        for sets in [[], ["--set", "gesture.minimumDuration=1.1"]] {
            let file = directory.appendingPathComponent("users-\(perUser.count).csv")
            let result = try CLI.run(["simulate", "--users", users, "--seed", "3", "--per-user", file.path, "--out", "/dev/null"] + sets)
            #expect(result.status == 0, "\(result.stderr)")
            perUser.append(Self.records(try String(contentsOf: file, encoding: .utf8)))
        }
        let (baseline, design) = (perUser[0], perUser[1])
        try #require(baseline.count == 20000 && design.count == 20000)
        let rows = Dictionary(uniqueKeysWithValues: Self.records(compare.stdout).map { ($0["metric"] ?? "", $0) })
        func value(_ metric: String, _ column: String) throws -> Double {
            let text = rows[metric]?[column] ?? ""
            return try #require(Double(text), "\(metric) \(column): '\(text)'")
        }

        // Rates: each person's pair of outcomes.
        for (metric, event, intent) in [("completion_rate", "completed", "confirm"), ("false_activation_rate", "false_activation", "none"),
                                        ("movement_cancel_rate", "movement_cancel", "confirm")] {
            var table = (a: 0.0, b: 0.0, c: 0.0, d: 0.0)
            for (first, second) in zip(design, baseline) where first["intent"] == intent {
                #expect(first["class"] == second["class"] && first["frame_phase"] == second["frame_phase"])
                switch (first["outcome"] == event, second["outcome"] == event) {
                case (true, true): table.a += 1
                case (true, false): table.b += 1
                case (false, true): table.c += 1
                case (false, false): table.d += 1
                }
            }
            let n = table.a + table.b + table.c + table.d
            let (lower, upper) = Self.newcombePaired(a: table.a, b: table.b, c: table.c, d: table.d)
            // CSV rates have 6 decimals: agreement to rounding.
            #expect(abs(try value(metric, "diff") - (table.b - table.c) / n) <= 1e-6, "\(metric)")
            #expect(abs(try value(metric, "diff_lo") - lower) <= 1e-6, "\(metric) lower")
            #expect(abs(try value(metric, "diff_hi") - upper) <= 1e-6, "\(metric) upper")
            let designValue = try value(metric, "design_value")
            #expect(abs(designValue - (table.a + table.b) / n) <= 5e-7)
        }
        // The point of pairing: the same people make a 1.0 s and a 1.1 s gesture's completion rates differ by
        // far less sampling noise than two separate samples would.
        let pairedWidth = try value("completion_rate", "diff_hi") - value("completion_rate", "diff_lo")
        let unpairedWidth = try value("completion_rate", "unpaired_hi") - value("completion_rate", "unpaired_lo")
        #expect(pairedWidth < unpairedWidth / 5, "paired \(pairedWidth), unpaired \(unpairedWidth)")
        let falseWidth = try value("false_activation_rate", "diff_hi") - value("false_activation_rate", "diff_lo")
        let falseUnpaired = try value("false_activation_rate", "unpaired_hi") - value("false_activation_rate", "unpaired_lo")
        #expect(falseWidth < falseUnpaired)

        // Means over design-dependent subsets: the delta method person by person (ms with 3 decimals).
        for (metric, column) in [("first_feedback_ms", "first_feedback_ms"), ("retract_mean_ms", "retract_ms")] {
            func number(_ record: [String: String]) -> Double? {
                guard let value = Double(record[column] ?? ""), !value.isNaN else { return nil }
                return value
            }
            var pairs: [(Double?, Double?)] = []
            for (first, second) in zip(design, baseline) where first["intent"] == "confirm" {
                pairs.append((number(first), number(second)))
            }
            let expected = Self.deltaInterval(pairs)
            #expect(abs(try value(metric, "diff") - expected.diff) <= 0.0015, "\(metric)")
            #expect(abs(try value(metric, "diff_lo") - expected.paired.0) <= 0.0015, "\(metric) lower")
            #expect(abs(try value(metric, "diff_hi") - expected.paired.1) <= 0.0015, "\(metric) upper")
            #expect(abs(try value(metric, "unpaired_lo") - expected.unpaired.0) <= 0.0015, "\(metric) unpaired lower")
            #expect(abs(try value(metric, "unpaired_hi") - expected.unpaired.1) <= 0.0015, "\(metric) unpaired upper")
            let width = try value(metric, "diff_hi") - value(metric, "diff_lo")
            let unpaired = try value(metric, "unpaired_hi") - value(metric, "unpaired_lo")
            #expect(width < unpaired, "\(metric)")
        }
    }

    @Test("each design's --summaries row is its simulate row; the table has every metric; --threads changes no byte")
    func summariesAndThreads() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let summaries = directory.appendingPathComponent("designs.csv")
        let arguments = ["compare", "--profile", "kikocard-article-latency", "--profile", "kikocard-accelerating",
                         "--variant", "fast=fill.timer.acceleration=0.0001 haptics.threshold=0.05",
                         "--population", "default,motor-impaired", "--users", "6000", "--seed", "5"]
        let one = try CLI.run(arguments + ["--threads", "1", "--summaries", summaries.path])
        #expect(one.status == 0, "\(one.stderr)")
        let two = try CLI.run(arguments + ["--threads", "2", "--summaries", summaries.path + "2"])
        // The provenance names --summaries; every other byte is the same.
        #expect(one.stdout.replacingOccurrences(of: summaries.path, with: "") == two.stdout.replacingOccurrences(of: summaries.path + "2", with: ""))
        #expect(try Data(contentsOf: summaries) != Data())
        #expect(CLI.dataLines(try String(contentsOf: summaries, encoding: .utf8))
                == CLI.dataLines(try String(contentsOfFile: summaries.path + "2", encoding: .utf8)))
        let lines = CLI.dataLines(one.stdout)
        #expect(lines[0] == Self.columns)
        // 2 populations × 2 designs beside the baseline × 15 metrics.
        #expect(lines.count == 1 + 2 * 2 * 15)
        #expect(lines[1].hasPrefix("default,kikocard-accelerating,kikocard-article-latency,completion_rate,"))
        #expect(one.stdout.contains("# design: fast = kikocard-article-latency fnv1a64:"))
        let summaryLines = CLI.dataLines(try String(contentsOf: summaries, encoding: .utf8))
        #expect(summaryLines.count == 1 + 2 * 3)
        for (index, population) in ["default", "motor-impaired"].enumerated() {
            let simulated = try CLI.run(["simulate", "--profile", "kikocard-article-latency", "--profile", "kikocard-accelerating",
                                         "--population", population, "--users", "6000", "--seed", "5"])
            let variant = try CLI.run(["simulate", "--profile", "kikocard-article-latency", "--population", population,
                                       "--users", "6000", "--seed", "5", "--set", "fill.timer.acceleration=0.0001",
                                       "--set", "haptics.threshold=0.05"])
            let expected = CLI.dataLines(simulated.stdout).dropFirst() + CLI.dataLines(variant.stdout).dropFirst()
            let got = summaryLines[(1 + 3 * index)..<(4 + 3 * index)].map { $0.split(separator: ",", maxSplits: 1)[1] }
            #expect(Array(got) == Array(expected), "\(population)")
        }
        // design_value of completion_time_mean_ms for the variant equals its simulate column.
        let row = Self.records(one.stdout).first { $0["design"] == "fast" && $0["metric"] == "completion_time_mean_ms" }
        let summary = Self.records(try String(contentsOf: summaries, encoding: .utf8)).first { $0["design"] == "fast" }
        #expect(row?["design_value"] != nil && row?["design_value"] == summary?["completion_time_mean_ms"])
    }

    @Test("--baseline picks the design the others are compared with; bad designs are usage errors", arguments: [
        (["--profile", "hig-linear-bar"], "at least two designs"),
        (["--profile", "hig-linear-bar", "--profile", "hig-linear-bar"], "two designs are labelled 'hig-linear-bar'"),
        (["--profile", "hig-linear-bar", "--variant", "x"], "--variant x: write LABEL="),
        (["--profile", "hig-linear-bar", "--variant", "a b=fill.curve=easeIn"], "a label is letters"),
        (["--profile", "hig-linear-bar", "--variant", "a=fill.curve"], "'fill.curve' is not key=value"),
        // The last of two values used to win silently.
        (["--profile", "hig-linear-bar", "--variant", "a=fill.duration=0.5 fill.duration=0.6"], "--variant a: fill.duration is given twice"),
        (["--profile", "hig-linear-bar", "--variant", "a=fill.curve=easeIn", "--baseline", "nope"], "--baseline nope is none of the designs"),
        (["--profile", "hig-linear-bar", "--variant", "a=fill.duration=0.6", "--set", "fill.duration=0.5"], "--set also sets"),
        (["--profile", "hig-linear-bar", "--variant", "a=fill.duration=-1"], "fill.duration"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let result = try CLI.run(["compare", "--users", "100"] + arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("--baseline: rows compare every other design with it; a variant's YAML value may hold spaces")
    func baseline() throws {
        let result = try CLI.run(["compare", "--profile", "kikocard-accelerating", "--variant",
                                  "late=fill.timer.latency={dist: exponential, mean: 0.004} haptics.threshold=0.02",
                                  "--baseline", "late", "--users", "2000"])
        #expect(result.status == 0, "\(result.stderr)")
        let records = Self.records(result.stdout)
        #expect(records.count == 15)
        #expect(records.allSatisfy { $0["design"] == "kikocard-accelerating" && $0["baseline"] == "late" })
        #expect(result.stdout.contains("--set 'fill.timer.latency={dist: exponential, mean: 0.004}'"))
    }

    @Test("a missing profile is 66 and no output file appears")
    func missingProfile() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("d.csv")
        let result = try CLI.run(["compare", "--profile", "hig-linear-bar", "--profile", "nope", "--out", out.path])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
