import ArgumentParser
import Foundation
import HoldLabIO
import HoldPreview
import HoldSimulation

struct Plot: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw a figure from HoldLab CSV with a gnuplot notebook.",
        discussion: """
            Runs gnuplot on NOTEBOOK with the variables data='FILE …' and out='FIG', plus each --var, and writes the \
            figure atomically: gnuplot draws into a temporary file beside FIG that is renamed when it succeeds, so a \
            failed run leaves no figure, whole or partial. A .png is drawn with pngcairo, a .svg with svg. gnuplot's \
            warnings and errors are shown on standard error as gnuplot prints them. Every figure carries a small \
            footer with its provenance (tool version, profile hashes, population, users, seed) read from the CSVs' '#' \
            lines; --no-footer leaves it out.

            NOTEBOOK is a name from the Notebooks folder ($HOLDLAB_NOTEBOOKS, else ./Notebooks, else this package's): \
            trace, fill-curves, retract-rules, rates-vs-duration, pulses-vs-threshold, mismatch-vs-duration, heatmap, \
            design-rates, scorecard, robustness-margin, sensitivity. \
            An argument with a '/' or ending in .gp is a script path. Notebooks/README.md lists the commands behind \
            each figure.

            File names may hold spaces, quotes or any other character: gnuplot runs in a folder beside the figure \
            where the data, the notebook and the figure have names HoldLab chose, and its messages name the files \
            as given.

            Exit status: 64 bad command line (including an --out that is not .png or .svg), 65 gnuplot failed, 66 a \
            missing notebook or data file, 69 gnuplot is not installed, 71 gnuplot could not start or was killed, \
            73 the figure cannot be written, 129/130/143 interrupted.

            Examples:
              holdlab trace --profile hig-linear-bar --release-at 0.6 --out trace.csv
              holdlab plot trace --data trace.csv
              holdlab sweep --vary gesture.minimumDuration=0.3:1.5:0.1 --out rates.csv
              holdlab plot rates-vs-duration --data rates.csv --out rates.svg
              holdlab plot heatmap --data grid.csv --var z=mismatch_p95_ms \\
                --out mismatch.png
            """)

    @Argument(help: ArgumentHelp("Notebook name (e.g. rates-vs-duration) or a .gp file.", valueName: "notebook"))
    var notebook: String

    @Option(name: .customLong("data"), parsing: .upToNextOption, help: ArgumentHelp(
        "CSV file(s) the notebook reads, passed as data='FILE …' (several for fill-curves and retract-rules).",
        valueName: "file"), completion: .file())
    var data: [String] = []

    @Option(name: .customLong("out"), help: ArgumentHelp(
        "The figure: a .png or .svg file (default: NOTEBOOK.png in the current directory).", valueName: "fig.png|fig.svg"), completion: .file(extensions: ["png", "svg"]))
    var out: String?

    @Option(name: .customLong("var"), help: ArgumentHelp(
        "Set a notebook variable, e.g. --var z=mismatch_p95_ms or --var labels=0 (repeatable). HoldLab's notebooks take labels and diverging as 1 or 0, style as classic or slide, everything else as a string; a notebook file of your own gets numbers as numbers, anything else as a string.",
        valueName: "name=value"))
    var variables: [String] = []

    @Flag(name: .customLong("no-footer"), help: "Leave out the provenance footer (version, profile hash, population, users, seed).")
    var noFooter = false

    @OptionGroup var quietOption: QuietOption

    /// The notebook's name without folders or `.gp`.
    var notebookStem: String {
        let name = (notebook as NSString).lastPathComponent
        return name.hasSuffix(".gp") ? String(name.dropLast(3)) : name
    }

    /// The figure's path: `--out`, or NOTEBOOK.png.
    var figure: String { out ?? "\(notebookStem).png" }

    func validate() throws {
        guard !data.isEmpty else { throw ValidationError("name the CSV file(s) to plot with --data FILE …") }
        let fileExtension = (figure as NSString).pathExtension.lowercased()
        guard Gnuplot.extensions.contains(fileExtension), (figure as NSString).lastPathComponent.count > 4 else {
            throw ValidationError("--out \(figure): the figure must be a .png or .svg file")
        }
        var named: [String: String] = [:]
        for assignment in variables {
            let (name, _) = try Self.parse(assignment)
            // The last would silently win, as a --set or --vary key given twice would.
            if let earlier = named[name] {
                throw ValidationError("--var \(name) is given twice (\(earlier) and \(assignment)); the last would silently win")
            }
            named[name] = assignment
        }
        try refuseOutputsOverInputs([("--out", figure)], inputs: data.filter { $0 != "-" }.map { ("--data", $0) })
        if data.filter({ $0 == "-" }).count > 1 { throw ValidationError("--data - is given twice: standard input can be read once") }
    }

    /// `name=value` from `--var`.
    static func parse(_ assignment: String) throws -> (String, String) {
        guard let equals = assignment.firstIndex(of: "=") else {
            throw ValidationError("--var \(assignment): write name=value")
        }
        let name = String(assignment[..<equals])
        let value = String(assignment[assignment.index(after: equals)...])
        guard !value.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("--var \(assignment): the value is empty; write name=value (e.g. --var z=completion_rate)")
        }
        guard GnuplotAssignment.isIdentifier(name) else {
            throw ValidationError("--var \(assignment): '\(name)' is not a gnuplot variable name (a letter or _, then letters, digits and _)")
        }
        guard name != "data" && name != "out" && name != "footer" else {
            if name == "footer" { throw ValidationError("--var \(assignment): leave the footer out with --no-footer") }
            throw ValidationError("--var \(assignment): set \(name) with --\(name)")
        }
        if let problem = GnuplotAssignment.problem(with: value) {
            throw ValidationError("--var \(assignment): the value \(problem); gnuplot strings cannot hold it")
        }
        return (name, value)
    }

    func run() throws {
        do {
            let folder = NotebookFolder.discover(executablePath: Self.executablePath())
            let script = try folder.script(notebook)
            let parsed = try variables.map(Self.parse)
            // A name the notebook does not read would be dropped without a word (`--var lables=0`).
            let known = NotebookFolder.variables(ofScript: script)
            // HoldLab's notebooks declare every variable they read; a notebook of the user's own is checked when it
            // declares some.
            if !known.isEmpty || !NotebookFolder.isPath(notebook), let (name, _) = parsed.first(where: { !known.contains($0.0) }) {
                throw PlotFailure(status: 64, message: "--var \(name): \(notebookStem) has no variable '\(name)'"
                    + Suggestions.didYouMean(name, among: known) + "; "
                    + (known.isEmpty ? "it has none to set (data and out come from --data and --out)" : "its variables: " + known.joined(separator: ", ")))
            }
            // HoldLab's notebooks: a value that names something has no quote or other character a shell or an eval
            // would take as its own.
            if !NotebookFolder.isPath(notebook), let problem = parsed.lazy.compactMap({ NotebookVariableKind.problem(name: $0.0, value: $0.1) }).first {
                throw PlotFailure(status: 64, message: problem)
            }
            // A HoldLab notebook with two axes (heatmap's x and y) draws nothing but its diagonal from one column.
            if !NotebookFolder.isPath(notebook) {
                let defaults = NotebookFolder.defaults(ofScript: script)
                func value(_ name: String) -> (text: String, given: Bool)? {
                    if let given = parsed.last(where: { $0.0 == name }) { return (given.1, true) }
                    return defaults[name].map { ($0, false) }
                }
                if let x = value("x"), let y = value("y"), x.text == y.text {
                    let how = x.given && y.given ? "" : " (\(x.given ? "y" : "x") by default)"
                    throw PlotFailure(status: 64, message: "--var x, --var y: \(notebookStem)'s two axes are both \(x.text)\(how); "
                        + "give two columns (a sweep of two parameters, or a parameter and a metric)")
                }
            }
            for file in data where file != "-" && !NotebookFolder.isFile(file) {
                var isDirectory: ObjCBool = false
                let exists = FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory)
                throw PlotFailure(status: 66, message: "\(file): " + (exists && isDirectory.boolValue ? "is a directory, not a data file" : "no such data file"))
            }
            for file in data where file != "-" && !FileManager.default.isReadableFile(atPath: file) {
                throw PlotFailure(status: 66, message: "\(file): cannot open the data file: permission denied")
            }
            // A file that is no CSV (a profile, population or review given as data, bytes that are not UTF-8, a
            // column named twice): the notebook would say "missing column(s) …" or draw the first of two.
            for file in data where file != "-" {
                do {
                    _ = try CSVReader(path: file).readHeader()
                } catch {
                    throw PlotFailure(status: error.kind == .cannotOpen ? 66 : 65, message: error.description)
                }
            }
            try reportingErrors { try OutputFile.file(figure).checkWritable() }
            let assignments = parsed + (noFooter ? [("footer", "0")] : [])
            // gnuplot sees names HoldLab chose for the data, the notebook and the figure: any path works.
            try Gnuplot.render(script: script, data: data, assignments: assignments, out: figure,
                               guessing: NotebookFolder.isPath(notebook))
            Temporaries.shared.outputsInPlace()
        } catch let failure as PlotFailure {
            if !failure.message.isEmpty { printError(failure.message) }
            throw ExitCode(failure.status)
        }
    }

    private static func executablePath() -> String? {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
        return CommandLine.arguments.first.flatMap { $0.contains("/") ? $0 : nil }
    }
}
