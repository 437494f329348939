import Foundation
import HoldLabIO
import Testing

@Suite("holdlab fit")
struct FitCommandTests {
    static let header = "family,n,censored,loglik,aic,bic,ks_stat,ks_pvalue,best,zeta,zeta_se,sigma,sigma_se,shape,"
        + "shape_se,scale,scale_se,mu,mu_se,tau,tau_se,ks_pvalue_mcse"

    /// `holdlab simulate --per-user` output for the hold-only population against hig-linear-bar (action at 1.0 s):
    /// intentional holds are log-logistic(scale 0.9 s, shape 6), and the 35 % longer than 1 s complete.
    static func perUserFile(in directory: URL, users: Int = 4_000) throws -> URL {
        let file = directory.appendingPathComponent("users.csv")
        let result = try CLI.run(["simulate", "--population", "hold-only", "--users", "\(users)", "--seed", "3",
                                  "--per-user", file.path, "--out", directory.appendingPathComponent("summary.csv").path])
        #expect(result.status == 0, "\(result.stderr)")
        return file
    }

    /// The data rows of a fit CSV as dictionaries keyed by column name.
    static func rows(_ csv: String) -> [[String: String]] {
        let lines = CLI.dataLines(csv)
        guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false) else { return [] }
        return lines.dropFirst().map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            var row: [String: String] = [:]
            for (name, value) in zip(header, fields) { row[String(name)] = String(value) }
            return row
        }
    }

    static func number(_ row: [String: String], _ column: String) -> Double {
        row[column].flatMap(Double.init) ?? .nan
    }

    @Test("per-user output, censored at the trigger: recovers log-logistic(0.9, 6); --emit-population loads in simulate")
    func perUserCensoredFit() throws {
        let directory = try CLI.temporaryDirectory()
        let data = try Self.perUserFile(in: directory)
        let population = directory.appendingPathComponent("fitted-holds.yaml")
        let out = directory.appendingPathComponent("fit.csv")
        // B = 19 keeps the test to a few seconds in a debug build (the default is 200).
        let result = try CLI.run([
            "fit", "--data", data.path, "--where", "class=intentional", "--column", "press_end_ms",
            "--censored-column", "outcome", "--censored-value", "completed", "--censor-time-column", "trigger_ms",
            "--family", "loglogistic", "--bootstrap", "19", "--seed", "4", "--out", out.path,
            "--emit-population", population.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let csv = try String(contentsOf: out, encoding: .utf8)
        #expect(CLI.dataLines(csv).first.map(String.init) == Self.header)
        #expect(csv.contains("# unit: press_end_ms in milliseconds × 0.001 = seconds (from the column name)"))
        #expect(csv.contains("# censoring: column outcome = completed; censored times from trigger_ms"))
        #expect(csv.contains("# bootstrap: 19 replicates per family, seed 4"))
        #expect(csv.contains("# data: \(data.path) fnv1a64:"))
        let rows = Self.rows(csv)
        let row = try #require(rows.first)
        #expect(rows.count == 1 && row["family"] == "loglogistic" && row["best"] == "true")
        let n = Self.number(row, "n")
        let censored = Self.number(row, "censored")
        // 80 % of 4,000 users are intentional (binomial sd 25); P(hold > 1 s) = 1/(1 + (1/0.9)^6) = 0.347.
        #expect(abs(n - 3_200) < 100)
        #expect(abs(censored / n - 0.347) < 4 * (0.347 * 0.653 / n).squareRoot())
        for (name, truth) in [("scale", 0.9), ("shape", 6.0)] {
            let estimate = Self.number(row, name)
            let error = Self.number(row, "\(name)_se")
            #expect(abs(estimate - truth) <= 4 * error, "\(name) \(estimate) ± \(error) vs \(truth)")
        }
        let p = Self.number(row, "ks_pvalue")
        #expect(p >= 0.05 && p <= 1, "p = \(p)")
        // Its Monte Carlo standard error √(p(1 − p)/B), printed to 4 decimals.
        #expect(abs(Self.number(row, "ks_pvalue_mcse") - (p * (1 - p) / 19).squareRoot()) <= 0.00005 + 1e-12)
        // 3,200 rows are more than the default 2,000 per bootstrap draw: the provenance says so.
        #expect(csv.contains("each draws 2000 of the \(Int(n)) rows and compares √m·D_b with √n·D"))
        #expect(row["zeta"] == "NaN" && row["mu"] == "NaN" && row["tau_se"] == "NaN")

        let yaml = try String(contentsOf: population, encoding: .utf8)
        #expect(yaml.contains("name: fitted-holds"))
        #expect(yaml.contains("behavior: hold"))
        #expect(yaml.contains("hold: {dist: loglogistic, scale: "))
        let simulate = try CLI.run(["simulate", "--population", population.path, "--users", "2000"])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        #expect(CLI.dataLines(simulate.stdout).last?.hasPrefix("hig-linear-bar,fitted-holds,2000,") == true)
    }

    /// Twelve rows: line 1 a comment, line 2 the header, data on lines 3–14.
    static func handWritten(_ edit: (inout [String]) -> Void = { _ in }) -> String {
        var lines = ["# hand-made holds", "name,t,fired"]
        for index in 1...12 { lines.append("\"user \(index), \"\"x\"\"\",\(Double(index) / 10),\(index % 4 == 0 ? "true" : "0")") }
        edit(&lines)
        return lines.joined(separator: "\n") + "\n"
    }

    static func write(_ text: String, in directory: URL) throws -> URL {
        let file = directory.appendingPathComponent("data.csv")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test("data errors name the file and line, exit 65; a missing file exits 66; nothing is written")
    func dataErrors() throws {
        let directory = try CLI.temporaryDirectory()
        let out = directory.appendingPathComponent("never.csv").path
        func run(_ text: String, _ extra: [String] = []) throws -> CLI.Result {
            let file = try Self.write(text, in: directory)
            return try CLI.run(["fit", "--data", file.path, "--column", "t", "--bootstrap", "0", "--out", out] + extra)
        }
        let missingColumn = try CLI.run(["fit", "--data", try Self.write(Self.handWritten(), in: directory).path,
                                         "--column", "hold", "--out", out])
        #expect(missingColumn.status == 65)
        #expect(missingColumn.stderr.contains("data.csv: no time column 'hold'; the columns are: name, t, fired"),
                "\(missingColumn.stderr)")

        let notNumber = try run(Self.handWritten { $0[6] = "x,abc,0" })
        #expect(notNumber.status == 65 && notNumber.stderr.contains("data.csv:7: t: 'abc' is not a number"),
                "\(notNumber.stderr)")

        let notPositive = try run(Self.handWritten { $0[4] = "x,0,0" })
        #expect(notPositive.status == 65)
        #expect(notPositive.stderr.contains("data.csv:5: t: 0 is not > 0 (the families are fitted to positive durations)"))

        let few = try run("t\n0.1\n0.2\n0.3\n")
        #expect(few.status == 65 && few.stderr.contains("data.csv: 3 rows to fit; at least 10 are needed"))

        let badFlag = try run(Self.handWritten { $0[9] = "x,0.5,maybe" }, ["--censored-column", "fired"])
        #expect(badFlag.status == 65)
        #expect(badFlag.stderr.contains("data.csv:10: fired: 'maybe' is not a censoring flag (allowed: 0, 1, true, false, in any case)"))

        let allCensored = try run(Self.handWritten { lines in
            for index in 2..<lines.count { lines[index] = "x,\(Double(index) / 10),1" }
        }, ["--censored-column", "fired"])
        #expect(allCensored.status == 65)
        #expect(allCensored.stderr.contains("data.csv: all 12 rows are censored; at least one observed time is needed"))

        let missing = try CLI.run(["fit", "--data", directory.appendingPathComponent("nope.csv").path, "--column", "t",
                                   "--out", out])
        #expect(missing.status == 66 && missing.stderr.contains("nope.csv: no such file"))

        #expect(!FileManager.default.fileExists(atPath: out))
        for result in [missingColumn, notNumber, notPositive, few, badFlag, allCensored, missing] {
            #expect(result.stderr.hasPrefix("holdlab: error: ") && result.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test("bad command lines exit 64 with a sentence naming the flag")
    func badFlags() throws {
        let cases: [([String], String)] = [
            (["--bootstrap=-1"], "--bootstrap must be from 0 to 100,000"),
            (["--where", "class"], "--where needs column=value (got 'class')"),
            (["--censored-value", "completed"], "--censored-value and --censor-time-column need --censored-column"),
            (["--scale", "0"], "--scale must be a finite number > 0"),
            (["--family", "normal"], "normal"),
            (["--emit-population", "-"], "--emit-population - needs --out FILE"),
            (["--bootstrap-size", "5"], "--bootstrap-size must be from 10 to 10,000,000 (got 5)"),
        ]
        for (extra, message) in cases {
            let result = try CLI.run(["fit", "--data", "x.csv", "--column", "t"] + extra)
            #expect(result.status == 64, "\(extra): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(extra): \(result.stderr)")
        }
        let help = try CLI.run(["fit", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--censored-column") && help.stdout.contains("lognormal"))
    }
}
