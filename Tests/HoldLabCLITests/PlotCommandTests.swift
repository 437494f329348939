import Foundation
import HoldLabTestSupport
import HoldLabIO
import Testing

@Suite("holdlab plot")
struct PlotCommandTests {
    /// Runs `holdlab` through `env` with extra environment variables (e.g. a PATH without gnuplot).
    static func run(_ arguments: [String], environment: [String: String], in directory: URL) throws -> CLI.Result {
        let settings = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let result = try runProcess("/usr/bin/env", settings + [try CLI.executable.path] + arguments, in: directory)
        return CLI.Result(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    static func contents(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    static func isPNG(_ url: URL) -> Bool {
        let data = FileManager.default.contents(atPath: url.path) ?? Data()
        return data.count > 5_000 && data.starts(with: [0x89, 0x50, 0x4E, 0x47])
    }

    @Test("every figure carries the provenance footer from the CSV's '#' lines; --no-footer leaves it out")
    func footer() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("rates.csv")
        #expect(try CLI.run(["sweep", "--vary", "gesture.minimumDuration=0.5,1", "--users", "500", "--seed", "4",
                             "--out", csv.path]).status == 0)
        let with = directory.appendingPathComponent("with.svg"), without = directory.appendingPathComponent("without.svg")
        #expect(try CLI.run(["plot", "rates-vs-duration", "--data", csv.path, "--out", with.path]).status == 0)
        #expect(try CLI.run(["plot", "rates-vs-duration", "--data", csv.path, "--out", without.path, "--no-footer"]).status == 0)
        let svg = try String(contentsOf: with, encoding: .utf8)
        #expect(svg.contains(">holdlab \(HoldLabVersion.current) sweep · hig-linear-bar fnv1a64:13fde7832bbb8234 · population default · users 500 per point · seed 4<"),
                "\(svg.split(separator: "\n").filter { $0.contains("holdlab") })")
        #expect(!(try String(contentsOf: without, encoding: .utf8)).contains(">holdlab "))
        let refused = try CLI.run(["plot", "rates-vs-duration", "--data", csv.path, "--var", "footer=0"])
        #expect(refused.status == 64 && refused.stderr.contains("--no-footer"))
    }

    @Test("a one-CSV notebook given several files refuses in one line (65), every one of them; gnuplot names a script as given")
    func oneFileNotebooks() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("t.csv")
        #expect(try CLI.run(["trace", "--out", csv.path]).status == 0)
        let notebooks = try FileManager.default.contentsOfDirectory(atPath: CLI.root.appendingPathComponent("Notebooks").path)
            .filter { $0.hasSuffix(".gp") }.map { String($0.dropLast(3)) }.sorted()
        #expect(notebooks.count >= 11)
        for notebook in notebooks where notebook != "fill-curves" && notebook != "retract-rules" {
            let result = try CLI.run(["plot", notebook, "--data", csv.path, csv.path, "--out", directory.appendingPathComponent("x.png").path])
            #expect(result.status == 65 && result.stderr == "holdlab: error: this notebook draws one CSV (2 given); run it once per file, or plot several with fill-curves or retract-rules\n",
                    "\(notebook): \(result.stderr)")
        }
        #expect(try Self.contents(directory) == ["t.csv"])
        // A script of one's own is named in gnuplot's messages as it was given, not as it sits in the plot folder.
        try "set output out\nplot undefined_thing\n".write(to: directory.appendingPathComponent("bad.gp"), atomically: true, encoding: .utf8)
        let own = try Self.run(["plot", "./bad.gp", "--data", "t.csv", "--out", "b.png"], environment: [:], in: directory)
        #expect(own.status == 65 && own.stderr.contains("\"./bad.gp\" line 2: undefined variable: undefined_thing")
                && !own.stderr.contains("Notebooks/bad.gp"), "\(own.stderr)")
    }

    @Test("help explains the command with an example and the exit statuses")
    func help() throws {
        let root = try CLI.run(["--help"])
        #expect(root.stdout.contains("plot"))
        let help = try CLI.run(["plot", "--help"])
        #expect(help.status == 0)
        // Help wraps lines at the terminal's width; compare with whitespace runs as single spaces.
        let flat = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for text in ["holdlab plot rates-vs-duration --data rates.csv", "--var", "69 gnuplot is not installed", ".png or .svg"] {
            #expect(flat.contains(text), "help lacks \(text)")
        }
        // Every notebook of the package is named among the NOTEBOOKs (robustness-margin was left out).
        let notebooks = try FileManager.default.contentsOfDirectory(atPath: CLI.root.appendingPathComponent("Notebooks").path)
            .filter { $0.hasSuffix(".gp") }.map { String($0.dropLast(3)) }
        #expect(notebooks.count >= 11)
        for notebook in notebooks {
            #expect(flat.contains(" \(notebook),") || flat.contains(" \(notebook).") , "help lacks the notebook \(notebook)")
        }
    }

    @Test("a notebook by name writes the figure, PNG or SVG, and nothing else; quietly")
    func happyPath() throws {
        let fixtures = try Fixtures.get()
        let directory = try CLI.temporaryDirectory()
        let png = directory.appendingPathComponent("rates.png")
        let result = try CLI.run(["plot", "rates-vs-duration", "--data", fixtures.path("rates.csv"), "--out", png.path])
        #expect(result.status == 0 && result.stderr.isEmpty && result.stdout.isEmpty, "\(result.stderr)")
        #expect(Self.isPNG(png))
        let svg = directory.appendingPathComponent("Retract.SVG")
        let rules = try CLI.run(["plot", "retract-rules", "--data"] + ["swiftui.csv", "additive.csv", "fromCurrent.csv"].map(fixtures.path)
                                + ["--out", svg.path])
        #expect(rules.status == 0 && rules.stderr.isEmpty, "\(rules.stderr)")
        #expect(String(decoding: FileManager.default.contents(atPath: svg.path) ?? Data(), as: UTF8.self).contains("<svg"))
        // No temporary files are left beside the figures.
        #expect(try Self.contents(directory) == ["Retract.SVG", "rates.png"])
    }

    @Test("--var passes strings quoted and numbers bare; --out defaults to NOTEBOOK.png; notebooks are found from anywhere")
    func variablesAndDefaults() throws {
        let fixtures = try Fixtures.get()
        // A directory without ./Notebooks: the notebook comes from the package the executable was built from.
        let directory = try CLI.temporaryDirectory()
        let result = try CLI.run(["plot", "heatmap", "--data", fixtures.path("grid.csv"), "--var", "z=mismatch_p95_ms",
                                  "--var", "labels=0"], in: directory)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        #expect(try Self.contents(directory) == ["heatmap.png"])
        #expect(Self.isPNG(directory.appendingPathComponent("heatmap.png")))
        // A script path is used as is; the default figure takes its name.
        let script = CLI.root.appendingPathComponent("Notebooks/fill-curves.gp").path
        let path = try CLI.run(["plot", script, "--data", fixtures.path("kiko.csv"), fixtures.path("mismatched-fill.csv")], in: directory)
        #expect(path.status == 0 && path.stderr.isEmpty, "\(path.stderr)")
        #expect(Self.isPNG(directory.appendingPathComponent("fill-curves.png")))
    }

    @Test("a --var string reaches gnuplot as text: backquotes, quotes and backslashes run nothing and stay as written")
    func variablesAreText() throws {
        let fixtures = try Fixtures.get()
        let directory = try CLI.temporaryDirectory()
        // gnuplot runs `…` inside a double-quoted string as a shell command: the label must not create the file.
        let sentinel = directory.appendingPathComponent("ran")
        for label in ["the `touch \(sentinel.path)` key", "a \\` b \" c ' d \\", "`touch \(sentinel.path)`"] {
            let result = try CLI.run(["plot", "heatmap", "--data", fixtures.path("grid.csv"), "--var", "z=mismatch_p95_ms",
                                      "--var", "xlabel=\(label)", "--out", "h.svg"], in: directory)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(label): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: sentinel.path), "\(label) ran a command")
            // The SVG holds the label as written (XML-escaped).
            let svg = try String(contentsOf: directory.appendingPathComponent("h.svg"), encoding: .utf8)
            let escaped = label.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
                .replacingOccurrences(of: "'", with: "&apos;")
            #expect(svg.contains(escaped) || svg.contains(label), "\(label) not drawn as written")
        }
        // fill-curves builds its plot command as a string and evals it: a title there is escaped again. (Titles are
        // space-separated words: ${IFS} is the shell's space.)
        for title in ["a\"b", "a\\b", "x\"y\\\"z", "`touch${IFS}\(sentinel.path)`", "it's"] {
            let result = try CLI.run(["plot", "fill-curves", "--data", fixtures.path("kiko.csv"), "--var", "titles=\(title)",
                                      "--out", "f.svg"], in: directory)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(title): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: sentinel.path), "\(title) ran a command")
            let svg = try String(contentsOf: directory.appendingPathComponent("f.svg"), encoding: .utf8)
            #expect(svg.contains(">\(title)<"), "\(title) not drawn as written")
        }
        // A label or title that reads as a number is text too: passed as a number, gnuplot failed on it (65).
        for (notebook, data, variable) in [("heatmap", "grid.csv", "xlabel"), ("heatmap", "grid.csv", "zlabel"),
                                           ("fill-curves", "kiko.csv", "titles"), ("fill-curves", "kiko.csv", "headline")] {
            for text in ["2024", "-0.5", "1e3"] {
                // A headline is drawn on slides only.
                let style = variable == "headline" ? ["--var", "style=slide"] : []
                let result = try CLI.run(["plot", notebook, "--data", fixtures.path(data), "--var", "\(variable)=\(text)"]
                                         + style + ["--out", "n.svg"], in: directory)
                #expect(result.status == 0 && result.stderr.isEmpty, "\(notebook) \(variable)=\(text): \(result.stderr)")
                let svg = try String(contentsOf: directory.appendingPathComponent("n.svg"), encoding: .utf8)
                #expect(svg.contains(">\(text)<"), "\(notebook) \(variable)=\(text) not drawn as written")
            }
        }
    }

    @Test("$HOLDLAB_NOTEBOOKS names the notebook folder")
    func environmentFolder() throws {
        let fixtures = try Fixtures.get()
        let folder = try CLI.temporaryDirectory()
        try FileManager.default.copyItem(at: CLI.root.appendingPathComponent("Notebooks/mismatch-vs-duration.gp"),
                                         to: folder.appendingPathComponent("mine.gp"))
        let directory = try CLI.temporaryDirectory()
        let result = try Self.run(["plot", "mine", "--data", fixtures.path("mismatch.csv")],
                                  environment: ["HOLDLAB_NOTEBOOKS": folder.path], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.isPNG(directory.appendingPathComponent("mine.png")))
        let unknown = try Self.run(["plot", "heatmap", "--data", fixtures.path("grid.csv")],
                                   environment: ["HOLDLAB_NOTEBOOKS": folder.path], in: directory)
        #expect(unknown.status == 66 && unknown.stderr.contains("known: mine"), "\(unknown.stderr)")
    }

    @Test("unknown notebook and missing data file: exit 66, saying what exists; nothing written")
    func missingInputs() throws {
        let fixtures = try Fixtures.get()
        let directory = try CLI.temporaryDirectory()
        let out = directory.appendingPathComponent("never.png").path
        let unknown = try CLI.run(["plot", "rates-vs-durations", "--data", fixtures.path("rates.csv"), "--out", out])
        #expect(unknown.status == 66)
        #expect(unknown.stderr.hasPrefix("holdlab: error: no notebook 'rates-vs-durations' in "))
        #expect(unknown.stderr.contains("known: design-rates, fill-curves, heatmap, mismatch-vs-duration, pulses-vs-threshold, rates-vs-duration, retract-rules, robustness-margin, scorecard, sensitivity, trace"))
        let noScript = try CLI.run(["plot", directory.appendingPathComponent("gone.gp").path, "--data", fixtures.path("rates.csv"), "--out", out])
        #expect(noScript.status == 66 && noScript.stderr.contains("gone.gp: no such notebook file"))
        let missing = try CLI.run(["plot", "rates-vs-duration", "--data", fixtures.path("rates.csv"),
                                   directory.appendingPathComponent("nowhere.csv").path, "--out", out])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("nowhere.csv: no such data file"))
        #expect(try Self.contents(directory).isEmpty)
    }

    @Test("bad command lines: exit 64 for the figure's extension, --var names and control characters, no --data")
    func badCommandLines() throws {
        let fixtures = try Fixtures.get()
        let directory = try CLI.temporaryDirectory()
        let data = fixtures.path("rates.csv")
        let cases: [([String], String)] = [
            (["--out", directory.appendingPathComponent("fig.jpg").path], "the figure must be a .png or .svg file"),
            (["--out", directory.appendingPathComponent("fig").path], "the figure must be a .png or .svg file"),
            (["--out", "-"], "the figure must be a .png or .svg file"),
            (["--var", "2x=param_fill_duration"], "'2x' is not a gnuplot variable name"),
            (["--var", "x-axis=param_fill_duration"], "'x-axis' is not a gnuplot variable name"),
            (["--var", "x"], "--var x: write name=value"),
            // Quotes and backslashes reach gnuplot escaped (the hostile table draws with them); control characters
            // cannot be one line of a gnuplot string.
            (["--var", "x=a\nb"], "the value contains a control character"),
            (["--var", "x=a\u{1}b"], "the value contains a control character"),
            (["--var", "out=elsewhere.png"], "set out with --out"),
        ]
        for (extra, message) in cases {
            let result = try CLI.run(["plot", "rates-vs-duration", "--data", data] + extra, in: directory)
            #expect(result.status == 64, "\(extra)")
            #expect(result.stderr.contains(message), "\(extra): \(result.stderr)")
        }
        let noData = try CLI.run(["plot", "rates-vs-duration"], in: directory)
        #expect(noData.status == 64 && noData.stderr.contains("--data"))
        #expect(try Self.contents(directory).isEmpty)
    }

    @Test("gnuplot failing: its own message on stderr, exit 65, no figure and no temporary file; an old figure stays")
    func gnuplotFails() throws {
        let fixtures = try Fixtures.get()
        let directory = try CLI.temporaryDirectory()
        let script = directory.appendingPathComponent("broken.gp")
        try """
            set terminal pngcairo
            set output out
            set datafile separator comma
            plot data using 'param_fill_duration':'no_such_column' with lines

            """.write(to: script, atomically: true, encoding: .utf8)
        let figure = directory.appendingPathComponent("broken.png")
        let result = try CLI.run(["plot", script.path, "--data", fixtures.path("mismatch.csv"), "--out", figure.path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("no column with header \"no_such_column\""), "\(result.stderr)")
        #expect(result.stderr.contains("holdlab: error: gnuplot on \(script.path) failed (exit status 1)"))
        #expect(try Self.contents(directory) == ["broken.gp"])
        // A figure from an earlier run is left as it was.
        try Data("earlier figure".utf8).write(to: figure)
        #expect(try CLI.run(["plot", script.path, "--data", fixtures.path("mismatch.csv"), "--out", figure.path]).status == 65)
        #expect(FileManager.default.contents(atPath: figure.path) == Data("earlier figure".utf8))
        #expect(try Self.contents(directory) == ["broken.gp", "broken.png"])
    }

    @Test("a notebook that draws nothing: exit 65; gnuplot's warnings pass through on a success")
    func noFigureAndWarnings() throws {
        let fixtures = try Fixtures.get()
        let directory = try CLI.temporaryDirectory()
        let silent = directory.appendingPathComponent("silent.gp")
        try "print 'nothing drawn'\n".write(to: silent, atomically: true, encoding: .utf8)
        let nothing = try CLI.run(["plot", silent.path, "--data", fixtures.path("rates.csv")], in: directory)
        #expect(nothing.status == 65 && nothing.stderr.contains("wrote no figure"), "\(nothing.stderr)")
        // One point: gnuplot warns that the x range is empty, and still draws.
        let warns = directory.appendingPathComponent("warns.gp")
        try """
            set terminal pngcairo
            set output out
            set datafile separator comma
            plot data using 'param_gesture_minimumDuration':'users' with points

            """.write(to: warns, atomically: true, encoding: .utf8)
        let warned = try CLI.run(["plot", warns.path, "--data", fixtures.path("mismatch-none.csv")], in: directory)
        #expect(warned.status == 0, "\(warned.stderr)")
        #expect(warned.stderr.contains("Warning: empty x range"), "\(warned.stderr)")
        #expect(Self.isPNG(directory.appendingPathComponent("warns.png")) || (try? Data(contentsOf: directory.appendingPathComponent("warns.png")))?.isEmpty == false)
        // The temporary name gnuplot drew into is shown as the figure's own.
        #expect(!warned.stderr.contains(".tmp."))
        #expect(try Self.contents(directory).allSatisfy { !$0.hasPrefix(".") })
    }

    @Test("gnuplot not installed: exit 69 saying how to install it")
    func noGnuplot() throws {
        let fixtures = try Fixtures.get()
        let directory = try CLI.temporaryDirectory()
        let result = try Self.run(["plot", "rates-vs-duration", "--data", fixtures.path("rates.csv")],
                                  environment: ["PATH": directory.path], in: directory)
        #expect(result.status == 69)
        #expect(result.stderr.contains("gnuplot is not installed") && result.stderr.contains("apt-get install gnuplot-nox"))
        #expect(try Self.contents(directory).isEmpty)
    }
}
