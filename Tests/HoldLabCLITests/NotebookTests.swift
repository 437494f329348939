import Foundation
import HoldLabTestSupport
import Testing

/// CSV for the notebooks, made once per test run with the built `holdlab`: traces and sweeps. Small user counts: the
/// figures only have to render.
struct Fixtures: Sendable {
    let directory: URL

    private static let shared = Result { () throws -> Fixtures in try Fixtures() }
    static func get() throws -> Fixtures { try shared.get() }

    func url(_ name: String) -> URL { directory.appendingPathComponent(name) }
    func path(_ name: String) -> String { url(name).path }

    struct Failure: Error, CustomStringConvertible { let description: String }

    private init() throws {
        directory = try CLI.temporaryDirectory()
        let traces: [(String, [String])] = [
            ("hig-linear-bar.csv", ["--profile", "hig-linear-bar"]),
            ("mismatched-fill.csv", ["--profile", "mismatched-fill"]),
            ("kiko.csv", ["--profile", "kikocard-accelerating", "--set", "haptics.threshold=0.05"]),
            ("static-long-press.csv", ["--profile", "static-long-press"]),
        ] + ["swiftui", "additive", "fromCurrent"].map { rule in
            ("\(rule).csv", ["--profile", "hig-linear-bar", "--release-at", "0.6", "--set", "retract.interruption=\(rule)"])
        }
        for (name, arguments) in traces { try run(["trace", "--out", path(name)] + arguments) }
        // A population without accidental users: every false activation statistic is NaN.
        try """
            version: 1
            name: confirmers
            description: people who mean to confirm and hold 2 s
            classes:
              - {name: holders, weight: 1, intent: confirm, behavior: hold, hold: {dist: constant, value: 2}}

            """.write(to: url("confirmers.yaml"), atomically: true, encoding: .utf8)
        let durations = ["0.4", "0.6", "0.8", "1.0", "1.2"]
        try sweep("rates.csv", profile: "hig-linear-bar", users: 3000, vary: [("gesture.minimumDuration", durations)])
        try sweep("rates-confirmers.csv", profile: "hig-linear-bar", population: path("confirmers.yaml"), users: 500,
                  vary: [("gesture.minimumDuration", ["0.5", "1.0"])])
        try sweep("pulses.csv", profile: "kikocard-accelerating", users: 1000,
                  vary: [("haptics.threshold", ["0", "0.02", "0.05", "0.1"])])
        try sweep("mismatch.csv", profile: "hig-linear-bar", users: 2000,
                  vary: [("fill.duration", ["0.6", "0.8", "1.0", "1.2", "1.4"])])
        // No fill ever looks full: every mismatch statistic is NaN, and there is one point. (A fill key has no effect
        // without a fill, and is refused: the one point varies the gesture.)
        try sweep("mismatch-none.csv", profile: "static-long-press", users: 500, vary: [("gesture.minimumDuration", ["1.0"])])
        // Short gestures with long fills never complete, so the mismatch cells there are NaN.
        try sweep("grid.csv", profile: "hig-linear-bar", users: 1000,
                  vary: [("gesture.minimumDuration", ["0.6", "0.9", "1.2", "1.5"]), ("fill.duration", ["0.5", "1.0", "1.5"])])
        // Grids the heat map draws on categorical axes: unevenly spaced values (the inner ones listed out of order),
        // names, and names that CSV quotes because they hold commas (gnuplot's strcol cuts them at the first comma,
        // where these two are the same).
        try sweep("grid-uneven.csv", profile: "kikocard-accelerating", users: 300,
                  vary: [("haptics.threshold", ["0.005", "0.01", "0.02", "0.03", "0.05"]),
                         ("fill.timer.acceleration", ["0.0001", "0.00004", "0.00014", "0.00007"])])
        try sweep("grid-curves.csv", profile: "hig-linear-bar", users: 300,
                  vary: [("fill.curve", ["linear", "easeIn", "easeInOut"]), ("haptics.threshold", ["0.005", "0.01", "0.02", "0.05"])])
        try sweep("grid-bezier.csv", profile: "hig-linear-bar", users: 300,
                  vary: [("fill.curve", ["linear", "bezier(0.42,0,1,1)", "bezier(0.42,0,0.58,1)"]),
                         ("fill.duration", ["0.5", "1.0", "1.5"])])
    }

    private func run(_ arguments: [String]) throws {
        let result = try CLI.run(arguments)
        guard result.status == 0 else { throw Failure(description: "holdlab \(arguments): \(result.stderr)") }
    }

    /// A grid sweep with `holdlab sweep`, the first key outermost.
    private func sweep(_ name: String, profile: String, population: String = "default", users: Int,
                       vary: [(key: String, values: [String])]) throws {
        let varies = vary.flatMap { ["--vary", "\($0.key)=\($0.values.joined(separator: ","))"] }
        try run(["sweep", "--profile", profile, "--population", population, "--users", "\(users)", "--out", path(name)] + varies)
    }
}

@Suite("Notebooks")
struct NotebookTests {
    /// Runs gnuplot on a notebook; returns its standard error (warnings) and the output file's contents.
    static func render(_ notebook: String, data: [URL], out: URL, variables: [String: String] = [:]) throws
        -> (warnings: String, figure: Data)
    {
        let assignments = ["data='\(data.map(\.path).joined(separator: " "))'", "out='\(out.path)'"]
            + variables.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }
        let result = try runProcess("/usr/bin/env", ["gnuplot", "-e", assignments.joined(separator: "; "),
                                                     CLI.root.appendingPathComponent("Notebooks/\(notebook)").path])
        #expect(result.status == 0, "\(notebook): \(result.stderr)")
        return (result.stderr, FileManager.default.contents(atPath: out.path) ?? Data())
    }

    /// Renders PNG and SVG; both must come without a word on standard error and be the kind their name says.
    /// Returns the SVG's text, whose labels tests can read.
    @discardableResult
    static func renderBoth(_ notebook: String, data: [URL], variables: [String: String] = [:]) throws -> String {
        let directory = try CLI.temporaryDirectory()
        var svgText = ""
        for name in ["figure.png", "figure.svg"] {
            let (warnings, figure) = try render(notebook, data: data, out: directory.appendingPathComponent(name), variables: variables)
            #expect(warnings.isEmpty, "\(notebook) \(variables): \(warnings)")
            #expect(figure.count > 5_000, "\(notebook) \(name): \(figure.count) bytes")
            if name.hasSuffix(".png") {
                #expect(figure.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(notebook): not a PNG")
            } else {
                svgText = String(decoding: figure, as: UTF8.self)
                #expect(svgText.contains("<svg"), "\(notebook): not an SVG")
                // The provenance footer, from the first file's '#' lines (files without them have none).
                let provenance = try String(contentsOf: data[0], encoding: .utf8)
                if let version = provenance.split(separator: "\n").first(where: { $0.hasPrefix("# holdlab: ") }),
                   variables["footer"] != "0" {
                    let footer = "holdlab " + version.dropFirst("# holdlab: ".count)
                    #expect(svgText.contains(">\(footer) · "), "\(notebook): no provenance footer")
                    if let profile = provenance.split(separator: "\n").first(where: { $0.hasPrefix("# profile: ") || $0.hasPrefix("# sweep_profile: ") }),
                       data.count <= 2 {
                        #expect(svgText.contains(String(profile.split(separator: " ")[3])), "\(notebook): the footer lacks the profile hash")
                    }
                } else {
                    #expect(!svgText.contains(">holdlab "), "\(notebook): a footer without provenance")
                }
            }
        }
        return svgText
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
        try Self.renderBoth("trace.gp", data: [csv])
    }

    @Test("fill-curves.gp titles each curve by its profile and overrides; profiles without a full frame or trigger are fine")
    func fillCurves() throws {
        let fixtures = try Fixtures.get()
        let svg = try Self.renderBoth("fill-curves.gp", data: [
            "hig-linear-bar.csv", "mismatched-fill.csv", "kiko.csv", "static-long-press.csv",
        ].map(fixtures.url))
        for title in ["hig-linear-bar", "mismatched-fill", "kikocard-accelerating haptics.threshold=0.05", "static-long-press",
                      "action fires", "first frame full"] {
            #expect(svg.contains(">\(title)<"), "fill-curves lacks the title \(title)")
        }
        // A file without provenance is titled by its name.
        let bare = fixtures.url("bare-trace.csv")
        let text = try String(contentsOf: fixtures.url("hig-linear-bar.csv"), encoding: .utf8)
        try CLI.dataLines(text).joined(separator: "\n").write(to: bare, atomically: true, encoding: .utf8)
        #expect(try Self.renderBoth("fill-curves.gp", data: [bare]).contains(">bare-trace<"))
    }

    @Test("design-rates.gp draws every design in every population, a population without accidental users included")
    func designRates() throws {
        let fixtures = try Fixtures.get()
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let designs = directory.appendingPathComponent("designs.csv")
        let result = try CLI.run(["compare", "--profile", "hig-linear-bar", "--profile", "mismatched-fill", "--variant",
                                  "slow=gesture.minimumDuration=1.3", "--population", "default," + fixtures.path("confirmers.yaml"),
                                  "--users", "2000", "--summaries", designs.path, "--out", "/dev/null"])
        #expect(result.status == 0, "\(result.stderr)")
        let svg = try Self.renderBoth("design-rates.gp", data: [designs])
        for text in ["hig-linear-bar", "mismatched-fill", "slow", "default", "confirmers", "Completion rate (95 % Wilson interval)"] {
            #expect(svg.contains(">\(text)<"), "design-rates lacks \(text)")
        }
    }

    @Test("retract-rules.gp draws the three interruption rules, titled from each file's --set")
    func retractRules() throws {
        let fixtures = try Fixtures.get()
        let svg = try Self.renderBoth("retract-rules.gp", data: ["additive.csv", "fromCurrent.csv", "swiftui.csv"].map(fixtures.url))
        for title in ["swiftui", "additive", "fromCurrent", "below 0: drawn as an empty bar"] {
            #expect(svg.contains(">\(title)<"), "retract-rules lacks \(title)")
        }
    }

    @Test("the sweep notebooks render PNG and SVG without warnings, NaN columns and single points included", arguments: [
        ("rates-vs-duration.gp", "rates.csv", [:]),
        ("rates-vs-duration.gp", "rates-confirmers.csv", [:]),
        // Another x than the default (a sweep of that key alone: a grid of two is refused, HostileInputTests).
        ("rates-vs-duration.gp", "mismatch.csv", ["x": "param_fill_duration"]),
        ("pulses-vs-threshold.gp", "pulses.csv", [:]),
        ("mismatch-vs-duration.gp", "mismatch.csv", [:]),
        ("mismatch-vs-duration.gp", "mismatch-none.csv", ["x": "param_gesture_minimumDuration"]),
        ("heatmap.gp", "grid.csv", [:]),
        ("heatmap.gp", "grid.csv", ["z": "mismatch_p95_ms"]),
        ("heatmap.gp", "grid.csv", ["x": "param_fill_duration", "y": "param_gesture_minimumDuration", "z": "pulses_mean"]),
        ("heatmap.gp", "mismatch-none.csv", ["x": "param_gesture_minimumDuration", "y": "param_gesture_minimumDuration", "z": "mismatch_mean_ms"]),
    ] as [(String, String, [String: String])])
    func sweepNotebooks(notebook: String, data: String, variables: [String: String]) throws {
        let fixtures = try Fixtures.get()
        let svg = try Self.renderBoth(notebook, data: [fixtures.url(data)], variables: variables)
        // The x axis is labelled by the key path and its unit, and the title names the sweep's profile.
        let x = variables["x"] ?? [
            "rates-vs-duration.gp": "param_gesture_minimumDuration", "pulses-vs-threshold.gp": "param_haptics_threshold",
            "mismatch-vs-duration.gp": "param_fill_duration", "heatmap.gp": "param_gesture_minimumDuration",
        ][notebook] ?? ""
        let unit = x.hasSuffix("threshold") ? "(progress 0–1)" : "(s)"
        let label = x.dropFirst("param_".count).replacingOccurrences(of: "_", with: ".") + " " + unit
        #expect(svg.contains(">\(label)<"), "\(notebook) lacks the x label \(label)")
        #expect(svg.contains("population, "), "\(notebook) lacks the sweep's provenance")
    }

    /// A grid for the heat map: the swept columns and their values in the order the axes should show them.
    struct HeatGrid: Sendable, CustomTestStringConvertible {
        let data: String
        let x: String, xValues: [String]
        let y: String, yValues: [String]
        let z: String
        var testDescription: String { "\(data) \(z) over \(x) × \(y)" }
    }

    /// Every text of an SVG drawn by gnuplot with where it is anchored: (anchor, x, y, text).
    static func texts(_ svg: String) -> [(anchor: String, x: Double, y: Double, text: String)] {
        let pattern = try! NSRegularExpression(
            pattern: #"translate\(([-0-9.]+),([-0-9.]+)\)"[^>]*text-anchor="(\w+)"\s*>\s*<text>([^<]*)</text>"#)
        let range = NSRange(svg.startIndex..., in: svg)
        return pattern.matches(in: svg, range: range).map { match in
            let group = { (i: Int) in String(svg[Range(match.range(at: i), in: svg)!]) }
            return (group(3), Double(group(1))!, Double(group(2))!, group(4))
        }
    }

    @Test("heatmap.gp draws uneven and named grids on categorical axes: one equal cell and one tic per value, labelled as swept",
          arguments: [
              HeatGrid(data: "grid-uneven.csv", x: "param_haptics_threshold", xValues: ["0.005", "0.01", "0.02", "0.03", "0.05"],
                       y: "param_fill_timer_acceleration", yValues: ["0.00004", "0.00007", "0.0001", "0.00014"], z: "pulses_mean"),
              HeatGrid(data: "grid-curves.csv", x: "param_fill_curve", xValues: ["linear", "easeIn", "easeInOut"],
                       y: "param_haptics_threshold", yValues: ["0.005", "0.01", "0.02", "0.05"], z: "completion_rate"),
              HeatGrid(data: "grid-bezier.csv", x: "param_fill_curve", xValues: ["linear", "bezier(0.42,0,1,1)", "bezier(0.42,0,0.58,1)"],
                       y: "param_fill_duration", yValues: ["0.5", "1.0", "1.5"], z: "mismatch_p95_ms"),
              // The same grid with the axes swapped: names up the y axis.
              HeatGrid(data: "grid-curves.csv", x: "param_haptics_threshold", xValues: ["0.005", "0.01", "0.02", "0.05"],
                       y: "param_fill_curve", yValues: ["linear", "easeIn", "easeInOut"], z: "pulses_mean"),
          ])
    func heatmapCategories(grid: HeatGrid) throws {
        let fixtures = try Fixtures.get()
        let svg = try Self.renderBoth("heatmap.gp", data: [fixtures.url(grid.data)], variables: ["x": grid.x, "y": grid.y, "z": grid.z])
        let texts = Self.texts(svg)
        // The x tics are the centred texts on the row of the first value's tic; the y tics the right-aligned texts in
        // the column of the first value's. They must be exactly the swept values, in order, evenly spaced.
        func tics(anchor: String, first: String, along: KeyPath<(anchor: String, x: Double, y: Double, text: String), Double>,
                  across: KeyPath<(anchor: String, x: Double, y: Double, text: String), Double>) -> [(position: Double, text: String)] {
            guard let line = texts.first(where: { $0.anchor == anchor && $0.text == first })?[keyPath: across] else { return [] }
            return texts.filter { $0.anchor == anchor && abs($0[keyPath: across] - line) < 0.5 }
                .map { ($0[keyPath: along], $0.text) }
        }
        let xTics = tics(anchor: "middle", first: grid.xValues[0], along: \.x, across: \.y).sorted { $0.position < $1.position }
        let yTics = tics(anchor: "end", first: grid.yValues[0], along: \.y, across: \.x).sorted { $0.position > $1.position }
        #expect(xTics.map(\.text) == grid.xValues, "\(grid): x tics")
        #expect(yTics.map(\.text) == grid.yValues, "\(grid): y tics")
        for (axis, ticks) in [("x", xTics), ("y", yTics)] where ticks.count > 2 {
            let gaps = zip(ticks.dropFirst(), ticks).map { abs($0.position - $1.position) }
            #expect(gaps.max()! - gaps.min()! < 0.5, "\(grid): \(axis) tics unevenly spaced: \(gaps)")
        }
        if grid.data == "grid-uneven.csv" {
            // The regression: on numeric axes the tics were 0.00001 apart from 0.00004 and read 0.00013.
            #expect(svg.contains(">0.00014<") && !svg.contains(">0.00013<") && !svg.contains(">0.015<"))
        }
    }

    @Test("every notebook opens with a comment saying what it shows and how to run it, and Notebooks/README.md lists it")
    func headers() throws {
        let folder = CLI.root.appendingPathComponent("Notebooks")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".gp") }.sorted()
        #expect(names == ["design-rates.gp", "fill-curves.gp", "heatmap.gp", "mismatch-vs-duration.gp", "pulses-vs-threshold.gp",
                          "rates-vs-duration.gp", "retract-rules.gp", "robustness-margin.gp", "scorecard.gp", "sensitivity.gp", "trace.gp"])
        let readme = try String(contentsOf: folder.appendingPathComponent("README.md"), encoding: .utf8)
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let header = text.split(separator: "\n").prefix { $0.hasPrefix("#") }.joined(separator: "\n")
            #expect(header.count > 200, "\(name) has no opening comment")
            #expect(header.contains("gnuplot -e \"data=") && header.contains("holdlab plot \(name.dropLast(3)) --data"),
                    "\(name)'s comment does not say how to run it")
            #expect(readme.contains("`\(name)`"), "Notebooks/README.md does not list \(name)")
            #expect(text.contains("if (!exists(\"data\"))") && text.contains("if (!exists(\"out\"))"))
        }
    }
}
