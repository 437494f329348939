import Foundation
import HoldLabIO
import HoldProfiles

/// A figure that could not be drawn: one message line and the exit status it maps to.
public struct PlotFailure: Error, Sendable {
    public let status: Int32
    public let message: String

    public init(status: Int32, message: String) {
        self.status = status
        self.message = message
    }
}

/// The folder of gnuplot notebooks (`*.gp`), found the way `ProfileLibrary.discover` finds profiles.
public struct NotebookFolder: Sendable {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// `$HOLDLAB_NOTEBOOKS` if set, else `./Notebooks` if it exists, else the `Notebooks` folder of the package the
    /// executable was built from (walking up from the executable, then from this source file).
    public static func discover(executablePath: String?, sourceFile: String = #filePath) -> NotebookFolder {
        NotebookFolder(directory: ProfileLibrary.packageFolder(
            "Notebooks", environment: "HOLDLAB_NOTEBOOKS", executablePath: executablePath, sourceFile: sourceFile))
    }

    /// Whether the argument is a file path rather than a notebook name.
    public static func isPath(_ argument: String) -> Bool { argument.contains("/") || argument.hasSuffix(".gp") }

    /// The names of the notebooks in the folder, sorted.
    public func names() -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return entries.filter { $0.hasSuffix(".gp") }.map { String($0.dropLast(3)) }.sorted()
    }

    /// The script for a name or path.
    ///
    /// - Throws: `PlotFailure` (66) when there is no such file; for a name, the message lists the notebooks there are.
    public func script(_ nameOrPath: String) throws(PlotFailure) -> String {
        let path = Self.isPath(nameOrPath) ? nameOrPath : "\(directory)/\(nameOrPath).gp"
        guard Self.isFile(path) else {
            if Self.isPath(nameOrPath) { throw PlotFailure(status: 66, message: "\(path): no such notebook file") }
            let known = names()
            throw PlotFailure(status: 66, message: "no notebook '\(nameOrPath)' in \(directory); known: "
                + (known.isEmpty ? "none" : known.joined(separator: ", ")))
        }
        return path
    }

    public static func isFile(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && !flag.boolValue
    }
}

/// gnuplot `-e` assignments: `name='text'` or `name=number`.
public enum GnuplotAssignment {
    /// A gnuplot identifier: a letter or underscore, then letters, digits and underscores.
    public static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetter || first == "_" else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" }
    }

    /// A decimal number gnuplot reads as one (`12`, `-0.5`, `.5`, `1e-3`); anything else is passed as a string.
    public static func isNumber(_ text: String) -> Bool {
        var scalars = Substring(text).unicodeScalars[...]
        if scalars.first == "+" || scalars.first == "-" { scalars = scalars.dropFirst() }
        let mantissa = scalars.prefix { $0.isASCIIDigit || $0 == "." }
        let digits = mantissa.filter(\.isASCIIDigit).count
        guard digits > 0, mantissa.filter({ $0 == "." }).count <= 1 else { return false }
        var rest = scalars.dropFirst(mantissa.count)
        if rest.isEmpty { return true }
        guard rest.first == "e" || rest.first == "E" else { return false }
        rest = rest.dropFirst()
        if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
        return !rest.isEmpty && rest.allSatisfy(\.isASCIIDigit)
    }

    /// Why a value cannot go between gnuplot's single quotes, or nil when it can.
    public static func problem(with value: String) -> String? {
        if value.contains("'") || value.contains("\"") { return "contains a quote" }
        if value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "contains a control character" }
        return nil
    }

    /// `name='value'`, or `name=value` for a number.
    public static func text(_ name: String, _ value: String) -> String {
        isNumber(value) ? "\(name)=\(value)" : "\(name)='\(value)'"
    }
}

/// Runs gnuplot on a notebook, writing the figure to a temporary file that is renamed over `out` on success.
public enum Gnuplot {
    /// The figure's kinds: the notebooks choose pngcairo or svg by the output's extension.
    public static let extensions = ["png", "svg"]

    /// `gnuplot` on `$PATH`, or nil.
    public static func executable() -> String? { ChildProcess.find("gnuplot") }

    /// Runs `gnuplot -e ASSIGNMENTS SCRIPT` with `out` replaced by a temporary name; gnuplot's messages go to standard
    /// error as they are (with the temporary name shown as `out`).
    ///
    /// gnuplot cannot be given every path: `data` is a space-separated list and the notebooks quote paths in single
    /// quotes for the shell. With `directory`, gnuplot runs in it and `out` and the data are bare names there, so the
    /// directory's own path (`Design Reviews/it's final`) never reaches gnuplot; without it, a path gnuplot cannot take
    /// is refused with a message rather than failing inside gnuplot.
    ///
    /// - Throws: `PlotFailure` 69 without gnuplot, 64 for a path gnuplot cannot be given, 65 when gnuplot fails or
    ///   writes nothing, 1 when it cannot run or is killed, 73 when the figure cannot be moved into place. No figure,
    ///   whole or partial, is left behind.
    public static func render(script: String, assignments: [(String, String)], out: String,
                              in directory: String? = nil) throws(PlotFailure) {
        guard let gnuplot = executable() else {
            throw PlotFailure(status: 69, message: "gnuplot is not installed (or not on PATH); install it with: sudo apt-get install gnuplot-nox")
        }
        if script.contains("'") {
            throw PlotFailure(status: 64, message: "\(script): the notebook's path contains a quote, which its shell commands cannot take; move or link the notebooks (HOLDLAB_NOTEBOOKS)")
        }
        if let problem = GnuplotAssignment.problem(with: out) {
            throw PlotFailure(status: 64, message: "\(out): the figure's name \(problem); gnuplot cannot be given it")
        }
        let target = directory.map { $0 + "/" + out } ?? out
        let folder = (out as NSString).deletingLastPathComponent
        let name = (out as NSString).lastPathComponent
        let fileExtension = (name as NSString).pathExtension.lowercased()
        let temporaryName = (folder.isEmpty ? "" : folder + "/")
            + ".\(name).\(ProcessInfo.processInfo.processIdentifier).tmp.\(fileExtension)"
        let temporary = directory.map { $0 + "/" + temporaryName } ?? temporaryName
        let token = Temporaries.shared.register(temporary)
        defer {
            unlink(temporary)
            Temporaries.shared.unregister(token)
        }

        let variables = ([("out", temporaryName)] + assignments).map { GnuplotAssignment.text($0.0, $0.1) }
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(gnuplot, arguments: ["-e", variables.joined(separator: "; "), script],
                                           currentDirectory: directory)
        } catch {
            throw PlotFailure(status: 1, message: "cannot run \(gnuplot): \(error.localizedDescription)")
        }
        if !outcome.messages.isEmpty {
            StandardError.write(outcome.messages.replacingOccurrences(of: temporaryName, with: out))
        }

        let shown = "gnuplot on \(script)"
        guard outcome.exited else {
            throw PlotFailure(status: 1, message: "\(shown) was killed by signal \(outcome.status); no figure written")
        }
        // 65: a notebook refused its data and said why in one line (see the check at the top of each notebook).
        if outcome.status == 65 { throw PlotFailure(status: 65, message: "") }
        guard outcome.status == 0 else {
            throw PlotFailure(status: 65, message: "\(shown) failed (exit status \(outcome.status)); its message is above; no figure written")
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: temporary)
        guard let size = attributes?[.size] as? Int, size > 0 else {
            throw PlotFailure(status: 65, message: "\(shown) wrote no figure (does the notebook `set output out`?)")
        }
        if rename(temporary, target) != 0 {
            throw PlotFailure(status: 73, message: "\(target): cannot replace the file: \(String(cString: strerror(errno)))")
        }
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
