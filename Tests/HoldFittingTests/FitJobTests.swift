import Foundation
import HoldFitting
import HoldLabIO
import HoldLabTestSupport
import Testing

/// The example telemetry `holdlab fit` reads (docs/commands/fit.md): 400 holds, 157 censored at 1,000 ms.
private let holds = Golden.packageRoot.appendingPathComponent("docs/examples/holds.csv").path

@Suite("fit: the job's typed result")
struct FitJobTests {
    /// What `holdlab fit docs/examples/holds.csv --column hold_ms --censored-column fired --bootstrap 10 --seed 3`
    /// runs, with the command line it records plus `extra`.
    static func request(_ extra: String = "") -> FitRequest {
        FitRequest(data: FitDataRequest(path: holds, column: "hold_ms", censoredColumn: "fired"), bootstrapReplicates: 10,
                   seed: 3, threads: 2,
                   commandLine: "holdlab fit docs/examples/holds.csv --column hold_ms --censored-column fired --bootstrap 10 --seed 3" + extra)
    }

    @Test("golden: the CSV, the table and a Markdown selection, byte for byte as `holdlab fit` wrote them")
    func golden() throws {
        #expect(Golden.relative(try Self.request().run().document.csv) == (try Golden.text("fit-holds.csv")))
        let table = try Self.request(" --format table").run().document.rendered(as: .table)
        #expect(Golden.relative(table) == (try Golden.text("fit-holds.table")))
        let markdown = try Self.request(" --format markdown --columns family,aic,best,zeta,ks_pvalue").run().document
            .rendered(as: .markdown, columns: ["family", "aic", "best", "zeta", "ks_pvalue"])
        #expect(Golden.relative(markdown) == (try Golden.text("fit-holds.md")))
    }

    @Test("JSON types per column: the family a string, counts and estimates numbers, best a boolean, NaN null")
    func jsonTypes() throws {
        var request = Self.request()
        request.bootstrapReplicates = 0
        let kinds = try JSONTypes.of(try request.run().document)
        #expect(kinds["family"] == [.string] && kinds["best"] == [.boolean])
        for name in ["n", "censored", "loglik", "aic", "bic", "ks_stat"] { #expect(kinds[name] == [.number], "\(name)") }
        // No bootstrap: no p-value and no Monte Carlo error.
        #expect(kinds["ks_pvalue"] == [.null] && kinds["ks_pvalue_mcse"] == [.null])
        // Every parameter is some family's (a number) and not another's (null).
        for name in FitTable.parameterColumns { #expect(kinds[name] == [.number, .null], "\(name)") }
        #expect(kinds.count == FitTable.columns.count)
    }

    @Test("every family by default: five rows in order, exactly one best (the lowest AIC); no bootstrap, NaN p-values")
    func allFamilies() throws {
        let result = try FitRequest(data: FitDataRequest(path: holds, column: "hold_ms"), bootstrapReplicates: 0,
                                    threads: 2, commandLine: "holdlab fit").run()
        let table = result.document.tables[0]
        func column(_ name: String) -> [ResultCell] {
            let index = table.index(of: name) ?? -1
            return table.rows.map { $0[index] }
        }
        #expect(column("family").map(\.plainText) == ["lognormal", "gamma", "weibull", "exgaussian", "loglogistic"])
        #expect(column("best").filter { $0 == .boolean(true) }.count == 1)
        #expect(column("censored").allSatisfy { $0 == .integer(0) })
        #expect(column("ks_pvalue").allSatisfy(\.isMissing) && column("ks_pvalue_mcse").allSatisfy(\.isMissing))
        #expect(table.provenance.value(of: "bootstrap") == "none (ks_pvalue NaN)")
        let aic = column("aic").compactMap(\.numericValue)
        let best = try #require(column("best").firstIndex(of: .boolean(true)))
        #expect(aic.count == 5 && aic.allSatisfy { $0 >= aic[best] })
        #expect(result.report.bestIndex == best)
    }

    @Test("a hand-written CSV with comments, quoted fields and true/0 flags fits; t is taken as seconds")
    func handWrittenFile() throws {
        var lines = ["# hand-made holds", "name,t,fired"]
        for index in 1...12 { lines.append("\"user \(index), \"\"x\"\"\",\(Double(index) / 10),\(index % 4 == 0 ? "true" : "0")") }
        let path = try TemporaryFiles.write(lines.joined(separator: "\n") + "\n")
        let result = try FitRequest(data: FitDataRequest(path: path, column: "t", censoredColumn: "fired"),
                                    families: [.weibull], bootstrapReplicates: 9, commandLine: "holdlab fit").run()
        let table = result.document.tables[0]
        #expect(table.rows.count == 1 && table.rows[0][1] == .integer(12) && table.rows[0][2] == .integer(3))
        #expect(table.provenance.value(of: "unit") == "t taken as seconds (scale 1, from the column name)")
        #expect(table.provenance.value(of: "data")?.hasPrefix("\(path) fnv1a64:") == true)
    }

    @Test("the population it emits names the file, the data and the command line")
    func population() throws {
        let result = try Self.request().run()
        let yaml = result.population(path: "out/fitted-holds.yaml")
        #expect(yaml.contains("name: fitted-holds\n") && yaml.contains("hold: {dist: lognormal, "))
        #expect(yaml.contains("holdlab \(HoldLabVersion.current): \(result.commandLine); data fnv1a64:"))
    }
}
