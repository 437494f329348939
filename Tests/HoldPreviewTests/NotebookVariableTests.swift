import Foundation
import HoldPreview
import Testing

@Suite("The kinds of HoldLab notebooks' variables: one table for plot's checks and gnuplot's assignments")
struct NotebookVariableTests {
    static let folder = NotebookFolder(directory: Fixtures.root.appendingPathComponent("Notebooks").path)

    @Test("every variable the table names is read by a HoldLab notebook (footer is plot's own), and none is stale")
    func tableNamesNotebookVariables() {
        let read = Set(Self.folder.names().flatMap { NotebookFolder.variables(ofScript: Self.folder.directory + "/\($0).gp") })
        #expect(read.count > 10)
        for name in ["xlabel", "ylabel", "zlabel", "headline", "question", "recommendation", "titles", "rules",
                     "labels", "diverging", "style"] {
            #expect(read.contains(name), "\(name)")
            #expect(NotebookVariableKind.of(name) != .names, "\(name)")
        }
        #expect(NotebookVariableKind.of("footer") == .flag)
        // Every other variable a notebook reads names columns, metrics or rules.
        for name in read.subtracting(["xlabel", "ylabel", "zlabel", "headline", "question", "recommendation", "titles",
                                      "rules", "labels", "diverging", "style"]) {
            #expect(NotebookVariableKind.of(name) == .names, "\(name)")
        }
    }

    @Test("values: text takes anything, flags 1 or 0 (as numbers), style a word, names no shell characters (as strings)")
    func valuesAndAssignments() {
        #expect(NotebookVariableKind.problem(name: "xlabel", value: "it's `the` \"key\"") == nil)
        #expect(NotebookVariableKind.problem(name: "labels", value: "1") == nil)
        #expect(NotebookVariableKind.problem(name: "diverging", value: "abc") == "--var diverging=abc: diverging takes 1 or 0")
        #expect(NotebookVariableKind.problem(name: "style", value: "slide") == nil)
        #expect(NotebookVariableKind.problem(name: "style", value: "abc") == "--var style=abc: style takes classic or slide")
        #expect(NotebookVariableKind.problem(name: "metrics", value: "completion_rate, p95-x +1%") == nil)
        #expect(NotebookVariableKind.problem(name: "metrics", value: "x'; touch f; '")?.hasPrefix(
            "--var metrics=x'; touch f; ': metrics takes column, metric or rule names") == true)
        #expect(NotebookVariableKind.problem(name: "x", value: "a$b")?.hasSuffix(
            "the labels (headline, question, recommendation, titles, xlabel, ylabel, zlabel) take any") == true)
        #expect(GnuplotAssignment.text("labels", "1", guessing: false) == "labels=1")
        #expect(GnuplotAssignment.text("xlabel", "2024", guessing: false) == "xlabel=\"2024\"")
        #expect(GnuplotAssignment.text("z", "1", guessing: false) == "z=\"1\"")
        #expect(GnuplotAssignment.text("z", "1", guessing: true) == "z=1")
    }
}

extension NotebookVariableTests {
    @Test("a notebook's quoted defaults: heatmap's axes and colour, none for a number or an unquoted one")
    func notebookDefaults() throws {
        let defaults = NotebookFolder.defaults(ofScript: Self.folder.directory + "/heatmap.gp")
        #expect(defaults["x"] == "param_gesture_minimumDuration")
        #expect(defaults["y"] == "param_fill_duration")
        #expect(defaults["z"] == "completion_rate")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("holdlab-defaults-\(UUID().uuidString).gp")
        try Data("if (!exists(\"a\")) a = \"one\"\nif (!exists(\"n\")) n = 3\nif (!exists(\"b\")) c = 'x'\n".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(NotebookFolder.defaults(ofScript: url.path) == ["a": "one"])
    }
}
