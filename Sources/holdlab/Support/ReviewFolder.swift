import Foundation
import HoldLabIO
import HoldProfiles
import HoldSimulation
import HoldStudies

/// A review folder (`holdlab report --out DIR`) read back: its designs as `report` resolved them, from the profiles
/// and populations the folder carries in `inputs/` (as `reproduce.sh` does), and the design report.md recommends.
/// Each design is checked against the hash designs.csv recorded, so what is read is what was reviewed.
struct ReviewFolder {
    let path: String
    let plan: ComparisonPlan
    /// What report.md recommends.
    let stated: ReviewArgumentText.Stated

    init(path: String) throws {
        self.path = path
        let designsPath = (path as NSString).appendingPathComponent("designs.csv")
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            printError("--review-folder \(path): no such folder (give the folder 'holdlab report --out' wrote)")
            throw ExitStatus.noInput
        }
        guard FileManager.default.fileExists(atPath: designsPath) else {
            printError("--review-folder \(path): not a review folder: it has no designs.csv (give the folder 'holdlab report --out' wrote)")
            throw ExitStatus.noInput
        }
        let recorded = Self.provenance(try ProfileLibrary.read(designsPath, what: "review's designs.csv"))
        func dataError(_ message: String) -> Error {
            printError("\(designsPath): \(message)")
            return ExitStatus.dataError
        }
        guard let command = recorded.first(where: { $0.key == "command" })?.value else {
            throw dataError("no '# command:' line; the report that wrote this folder cannot be read back")
        }
        guard let words = CommandRecord.words(command), words.count >= 2, words[0] == "holdlab", words[1] == "report" else {
            throw dataError("its '# command:' line is not a holdlab report command line: \(oneLine(command))")
        }
        // The recorded command, reading the folder's inputs as reproduce.sh does (--html - only satisfies the
        // command's check that it writes something: nothing runs).
        let inputs = (path as NSString).appendingPathComponent(ReviewInputs.folder)
        let report: Report
        do {
            report = try Report.parse(Array(words.dropFirst(2)) + ["--inputs", inputs, "--html", "-"])
        } catch {
            throw dataError("its '# command:' line does not parse with holdlab \(HoldLabVersion.current): \(Report.message(for: error))")
        }
        let library: ProfileLibrary
        do {
            library = try report.carriedInputs(reviewFile: nil).library
        } catch let error as UsageError {
            // Said of the folder the user named, not of report's --inputs.
            let message = error.description.replacingOccurrences(of: "; --inputs names a review folder's inputs/ folder", with: "")
                .replacingOccurrences(of: "--inputs \(inputs): ", with: "")
                .replacingOccurrences(of: "; run without --inputs to read it from the library", with: " (inputs/manifest.tsv lists none)")
            printError("--review-folder \(path): \(message)")
            let manifest = (inputs as NSString).appendingPathComponent(ReviewInputs.manifestName)
            throw FileManager.default.fileExists(atPath: manifest) ? ExitStatus.dataError : ExitStatus.noInput
        }
        plan = try report.comparison.resolve(report.source, library: library)
        // Each design as designs.csv recorded it: the same profile, hash and values set.
        let designs = recorded.filter { $0.key == "design" }.map(\.value)
        let resolved = plan.provenance(users: 0, seed: 0).entries.filter { $0.key == "design" }.map { Provenance.escaped($0.value) }
        for (index, line) in resolved.enumerated() where index >= designs.count || designs[index] != line {
            throw dataError("the design '\(plan.designs[index].label)' is recorded as "
                + (index < designs.count ? "'\(designs[index])'" : "nothing") + ", but \(plan.paths[index]) now gives '\(line)': "
                + "the folder's inputs were changed since the review was made")
        }
        if designs.count != resolved.count {
            throw dataError("it records \(designs.count) designs; its command line gives \(resolved.count)")
        }
        let reportPath = (path as NSString).appendingPathComponent("report.md")
        if FileManager.default.fileExists(atPath: reportPath) {
            stated = ReviewArgumentText.recommended(inReport: try ProfileLibrary.read(reportPath, what: "review's report.md",
                                                                                       limit: 64 << 20),
                                                    labels: plan.designs.map(\.label))
        } else {
            stated = .unreadable
        }
    }

    /// The `# key: value` lines that open a CSV, as written (values escaped as `Provenance` escapes them).
    static func provenance(_ text: String) -> [Provenance.Entry] {
        var entries: [Provenance.Entry] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("# ") else { break }
            let body = line.dropFirst(2)
            guard let colon = body.range(of: ": ") else { continue }
            entries.append(Provenance.Entry(String(body[..<colon.lowerBound]), String(body[colon.upperBound...])))
        }
        return entries
    }
}
