import Foundation
import HoldLabIO
import HoldProfiles
import HoldSimulation
import HoldStudies

/// A review folder (`holdlab report --out DIR`) read back: its designs as `report` resolved them, from the profiles
/// and populations the folder carries in `inputs/` (as `reproduce.sh` does), and the design report.md recommends.
/// Each design is checked against the hash designs.csv recorded, so what is read is what was reviewed.
struct ReviewFolder {
    let plan: ComparisonPlan
    /// What report.md recommends; nil when the folder has no report.md.
    let stated: ReviewArgumentText.Stated?
    let reportPath: String

    init(path: String) throws {
        let designsPath = (path as NSString).appendingPathComponent("designs.csv")
        if let problem = Folder.problem(path) {
            printError("--review-folder \(path): \(problem) (give the folder 'holdlab report --out' wrote)")
            throw ExitStatus.noInput
        }
        guard FileManager.default.fileExists(atPath: designsPath) else {
            printError("--review-folder \(path): not a review folder: it has no designs.csv (give the folder 'holdlab report --out' wrote)")
            throw ExitStatus.noInput
        }
        let recorded = Provenance.leadingEntries(of: try ProfileLibrary.read(designsPath, what: "review's designs.csv"))
        // The command line as reproduce.sh runs it: designs.csv's `# command:` line has its control characters
        // escaped (a tab in a --set value would not read back), the script has every argument shell-quoted as is.
        let scriptPath = (path as NSString).appendingPathComponent("reproduce.sh")
        guard FileManager.default.fileExists(atPath: scriptPath) else {
            printError("--review-folder \(path): not a review folder: it has no reproduce.sh (give the folder 'holdlab report --out' wrote)")
            throw ExitStatus.noInput
        }
        let script = try ProfileLibrary.read(scriptPath, what: "review's reproduce.sh")
        func dataError(_ file: String, _ message: String) -> Error {
            printError("\(file): \(message)")
            return ExitStatus.dataError
        }
        let start = "holdlab report ", end = " --inputs \"$here/\(ReviewInputs.folder)\""
        guard let opening = script.range(of: start), let closing = script.range(of: end, range: opening.upperBound..<script.endIndex),
              let arguments = CommandRecord.words(String(script[opening.upperBound..<closing.lowerBound]))
        else {
            throw dataError(scriptPath, "it does not run 'holdlab report … --inputs \"$here/inputs\"' as holdlab report writes it; the review cannot be read back")
        }
        // The recorded command, reading the folder's inputs as reproduce.sh does (--html - only satisfies the
        // command's check that it writes something: nothing runs).
        let inputs = (path as NSString).appendingPathComponent(ReviewInputs.folder)
        let report: Report
        do {
            report = try Report.parse(arguments + ["--inputs=" + inputs, "--html", "-"])
        } catch {
            throw dataError(scriptPath, "its holdlab report command line does not parse with holdlab \(HoldLabVersion.current): \(Report.message(for: error))")
        }
        let library: ProfileLibrary
        do {
            library = try ReviewInputs.library(report.source.library, readingCarried: inputs, named: report.namedInputs).library
        } catch let error as ReviewInputsError {
            printError("--review-folder \(path): \(error.message)" + (error.reason == .notCarried ? " (inputs/manifest.tsv lists none)" : ""))
            let manifest = (inputs as NSString).appendingPathComponent(ReviewInputs.manifestName)
            throw error.reason == .manifest && !FileManager.default.fileExists(atPath: manifest) ? ExitStatus.noInput : ExitStatus.dataError
        }
        plan = try report.comparison.resolve(report.source, library: library)
        // Each design as designs.csv recorded it: the same profile, hash and values set.
        let designs = recorded.filter { $0.key == "design" }.map(\.value)
        let resolved = plan.provenance(users: 0, seed: 0).entries.filter { $0.key == "design" }.map { Provenance.escaped($0.value) }
        // Their number first: a designs.csv cut short (or emptied) is that file's fault, not the inputs'.
        if designs.count != resolved.count {
            throw dataError(designsPath, "it records \(designs.count) design(s) (its '# design:' lines); reproduce.sh's command line "
                + "gives \(resolved.count): designs.csv was changed since the review was made")
        }
        // The inputs are at fault only where the profile they give has another hash than the one recorded; with the
        // same hash (or none whole: a line cut short) it is designs.csv's line, or reproduce.sh's values, that moved.
        func hash(_ line: String) -> Substring? {
            line.split(separator: " ").first { $0.hasPrefix("fnv1a64:") && $0.count == "fnv1a64:".count + 16 }
        }
        for (index, line) in resolved.enumerated() where designs[index] != line {
            let label = plan.designs[index].label
            if let recorded = hash(designs[index]), recorded != hash(line) {
                throw dataError(designsPath, "the design '\(label)' is recorded as '\(designs[index])', but "
                    + "\(plan.paths[index]) now gives '\(line)': the folder's inputs were changed since the review was made")
            }
            throw dataError(designsPath, "the design '\(label)' is recorded as '\(designs[index])', where reproduce.sh's command "
                + "line and the folder's inputs give '\(line)'" + (hash(designs[index]) == nil ? "" : " (the same profile)")
                + ": designs.csv (or reproduce.sh) was changed or cut short since the review was made")
        }
        reportPath = (path as NSString).appendingPathComponent("report.md")
        // A report.md that is gone matters only without --design (`Export` says so then).
        stated = FileManager.default.fileExists(atPath: reportPath)
            ? ReviewArgumentText.recommended(inReport: try ProfileLibrary.read(reportPath, what: "review's report.md", limit: 64 << 20),
                                             labels: plan.designs.map(\.label))
            : nil
    }
}
