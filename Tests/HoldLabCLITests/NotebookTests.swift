import Foundation
import Testing

@Suite("Notebooks")
struct NotebookTests {
    /// Runs gnuplot on a notebook; returns its standard error (warnings) and the output file's size.
    static func render(_ notebook: String, data: URL, out: URL) throws -> (warnings: String, bytes: Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gnuplot", "-e", "data='\(data.path)'; out='\(out.path)'",
                             CLI.root.appendingPathComponent("Notebooks/\(notebook)").path]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let warnings = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let size = (try? FileManager.default.attributesOfItem(atPath: out.path)[.size] as? Int) ?? 0
        return (warnings, size)
    }

    @Test("trace.gp renders PNG and SVG without warnings, with and without pulses", arguments: [
        ["--profile", "kikocard-accelerating", "--set", "haptics.threshold=0.05", "--release-at", "2.4"],
        ["--profile", "hig-linear-bar", "--release-at", "0.6", "--set", "retract.interruption=additive"],
        ["--profile", "static-long-press"],
    ])
    func trace(arguments: [String]) throws {
        let directory = try CLI.temporaryDirectory()
        let csv = directory.appendingPathComponent("trace.csv")
        #expect(try CLI.run(["trace", "--out", csv.path] + arguments).status == 0)
        for name in ["trace.png", "trace.svg"] {
            let (warnings, bytes) = try Self.render("trace.gp", data: csv, out: directory.appendingPathComponent(name))
            #expect(warnings.isEmpty, "\(warnings)")
            #expect(bytes > 5_000)
        }
    }
}
