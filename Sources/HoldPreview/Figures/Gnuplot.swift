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
            if let problem = Folder.problem(directory) {
                // A mistyped HOLDLAB_NOTEBOOKS: say so rather than "known: none".
                throw PlotFailure(status: 66, message: "no notebook '\(nameOrPath)' in \(directory): \(problem)"
                    + " (the notebooks are HOLDLAB_NOTEBOOKS, else ./Notebooks)")
            }
            let known = names()
            throw PlotFailure(status: 66, message: "no notebook '\(nameOrPath)' in \(directory); known: "
                + (known.isEmpty ? "none" : known.joined(separator: ", ")))
        }
        return path
    }

    /// The variables a notebook lets a caller set: each name it gives a default with `if (!exists("NAME"))`,
    /// gnuplot's own `ARG0` and the ones `plot` sets itself (`data`, `out`, `footer`) aside. Empty for a notebook that
    /// declares none (one of the user's own, read as is).
    public static func variables(ofScript path: String) -> [String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        var names: [String] = []
        var rest = Substring(text)
        while let start = rest.range(of: "exists(\"") {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { break }
            let name = String(rest[..<end])
            if !["ARG0", "data", "out", "footer"].contains(name), !names.contains(name) { names.append(name) }
            rest = rest[end...]
        }
        return names
    }

    /// The defaults a notebook gives its variables as text (`if (!exists("x")) x = 'param_fill_duration'`): the
    /// quoted ones only; a number or an expression is left out.
    public static func defaults(ofScript path: String) -> [String: String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        var defaults: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let start = line.range(of: "if (!exists(\""), let close = line[start.upperBound...].range(of: "\"))") else { continue }
            let name = String(line[start.upperBound..<close.lowerBound])
            var rest = line[close.upperBound...].drop { $0 == " " }
            guard rest.hasPrefix(name) else { continue }
            rest = rest.dropFirst(name.count).drop { $0 == " " }
            guard rest.hasPrefix("=") else { continue }
            rest = rest.dropFirst().drop { $0 == " " }
            guard let quote = rest.first, quote == "'" || quote == "\"" else { continue }
            let body = rest.dropFirst()
            guard let end = body.firstIndex(of: quote), defaults[name] == nil else { continue }
            defaults[name] = String(body[..<end])
        }
        return defaults
    }

    public static func isFile(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && !flag.boolValue
    }
}

/// What a variable of HoldLab's notebooks takes: the one table `plot` checks a `--var` value against
/// (`problem(name:value:)`) and `GnuplotAssignment` writes it by (a flag as a number, everything else as a string).
/// The names are those `NotebookFolder.variables(ofScript:)` finds; a variable not listed here names things.
public enum NotebookVariableKind: Equatable, Sendable {
    /// Any text: labels and titles, which the notebooks escape where they build a command of them.
    case text
    /// 1 or 0, passed as a number: whether to print each cell's value, whether the colour scale diverges, whether to
    /// draw the footer.
    case flag
    /// One of a few words.
    case choice([String])
    /// Column, metric or rule names: letters, digits and `_ . - + %`, several separated by spaces or commas. The
    /// notebooks pass them to awk in the shell (`metrics=x'; touch FILE; '` ran `touch`) and into commands they eval.
    case names

    /// Every variable that does not name things.
    static let table: [String: NotebookVariableKind] = [
        "xlabel": .text, "ylabel": .text, "zlabel": .text, "headline": .text, "question": .text,
        "recommendation": .text, "titles": .text, "rules": .text,
        "labels": .flag, "diverging": .flag, "footer": .flag,
        "style": .choice(["classic", "slide"]),
    ]

    /// What variable `name` of a HoldLab notebook takes.
    public static func of(_ name: String) -> NotebookVariableKind { table[name] ?? .names }

    /// Why `value` cannot be variable `name`'s (what `--var name=value` is refused with), or nil.
    public static func problem(name: String, value: String) -> String? {
        switch of(name) {
        case .text:
            return nil
        case .flag:
            return value == "0" || value == "1" ? nil : "--var \(name)=\(value): \(name) takes 1 or 0"
        case .choice(let words):
            return words.contains(value) ? nil
                : "--var \(name)=\(value): \(name) takes " + words.dropLast().joined(separator: ", ") + " or " + words.last!
        case .names:
            let allowed = value.unicodeScalars.allSatisfy { scalar in
                ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                    || "_.-+% ,".unicodeScalars.contains(scalar)
            }
            // The labels: the text variables but `rules`, which names rules though it may quote them.
            let labels = table.filter { $0.value == .text && $0.key != "rules" }.keys.sorted().joined(separator: ", ")
            return allowed ? nil : "--var \(name)=\(value): \(name) takes column, metric or rule names (letters, digits "
                + "and _ . - + %, several separated by spaces or commas), not any text; the labels (\(labels)) take any"
        }
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

    /// Why a value cannot be a gnuplot string on one line, or nil when it can (quotes and backslashes can:
    /// `quoted` escapes them).
    public static func problem(with value: String) -> String? {
        if value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "contains a control character" }
        return nil
    }

    /// A gnuplot double-quoted string holding `text` exactly: a backslash, a double quote and a backquote are
    /// escaped (`\\`, `\"`, `` \` ``). gnuplot runs `` `text` `` inside a double-quoted string as a shell command and
    /// puts its output in its place (`--var 'xlabel=the `key`'` ran `key`); escaped, a backquote is itself. Single
    /// quotes are not used: gnuplot's scanner takes a backslash before a quote as an escape even there, so `'a\'`
    /// never ends. The caller keeps control characters out (`problem(with:)`).
    public static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "`", with: "\\`") + "\""
    }

    /// `name="value"`, or `name=value` for a number: where `guessing` (a notebook of the user's own, whose variables
    /// HoldLab does not know) for every value that reads as a number, else for the flags (`NotebookVariableKind`) only;
    /// every other variable of HoldLab's notebooks takes a string, a number-like one too (`xlabel=2024` is a label,
    /// `z=1` a column name).
    public static func text(_ name: String, _ value: String, guessing: Bool) -> String {
        let number = isNumber(value) && (guessing || NotebookVariableKind.of(name) == .flag)
        return number ? "\(name)=\(value)" : "\(name)=\(quoted(value))"
    }
}

/// Runs gnuplot on a notebook, writing the figure to a temporary file that is renamed over `out` on success.
public enum Gnuplot {
    /// The figure's kinds: the notebooks choose pngcairo or svg by the output's extension.
    public static let extensions = ["png", "svg"]

    /// The exit status of a gnuplot that could not start or was killed by a signal (docs/EXIT-STATUS.md: a failed child).
    public static let childFailed: Int32 = 71

    /// `gnuplot` on `$PATH`, or nil.
    public static func executable() -> String? { ChildProcess.find("gnuplot") }

    /// Runs `gnuplot -e ASSIGNMENTS SCRIPT` with `out` replaced by a temporary name; gnuplot's messages go to standard
    /// error as they are (with the temporary name shown as `out`).
    ///
    /// gnuplot cannot be given every path: `data` is a space-separated list and the notebooks quote paths in single
    /// quotes for the shell. With `directory`, gnuplot runs in it and `out` and the data are bare names there, so the
    /// directory's own path (`Design Reviews/it's final`) never reaches gnuplot; without it, a path gnuplot cannot take
    /// is refused with a message rather than failing inside gnuplot. (`render(script:data:assignments:out:)` takes
    /// any data and figure paths: it makes such a directory itself.)
    ///
    /// - Parameter failure: the status when gnuplot fails on the script or writes nothing: 65 (the default) where the
    ///   notebook or its data are the user's, 71 for HoldLab's own figures of its own CSVs (`report`), where the
    ///   fault is the installation's (a gnuplot without the terminal), not the user's data.
    /// - Throws: `PlotFailure` 69 without gnuplot, 64 for a path gnuplot cannot be given, `failure` when gnuplot
    ///   fails or writes nothing, 71 when it cannot run or is killed, 73 when the figure cannot be moved into place.
    ///   No figure, whole or partial, is left behind.
    public static func render(script: String, assignments: [(String, String)], out: String,
                              in directory: String? = nil, failure: Int32 = 65) throws(PlotFailure) {
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

        let variables = ([("out", temporaryName)] + assignments).map { GnuplotAssignment.text($0.0, $0.1, guessing: false) }
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(gnuplot, arguments: ["-e", variables.joined(separator: "; "), script],
                                           currentDirectory: directory)
        } catch {
            throw PlotFailure(status: childFailed, message: "cannot run \(gnuplot): \(error.description)")
        }
        if !outcome.messages.isEmpty {
            StandardError.write(outcome.messages.replacingOccurrences(of: temporaryName, with: out))
        }

        let shown = "gnuplot on \(script)"
        try Self.check(outcome, shown: shown, failure: failure)
        let attributes = try? FileManager.default.attributesOfItem(atPath: temporary)
        guard let size = attributes?[.size] as? Int, size > 0 else {
            throw PlotFailure(status: failure, message: "\(shown) wrote no figure (does the notebook `set output out`?)")
        }
        if rename(temporary, target) != 0 {
            throw PlotFailure(status: 73, message: "\(target): cannot replace the file: \(String(cString: strerror(errno)))")
        }
    }

    /// How gnuplot ended, as both renderers report it: killed (71), a notebook's refusal of its data (`failure`,
    /// said in one line already), any other failure (`failure`, its message above).
    private static func check(_ outcome: ChildProcess.Outcome, shown: String, failure: Int32 = 65) throws(PlotFailure) {
        guard outcome.exited else {
            throw PlotFailure(status: childFailed, message: "\(shown) was killed by signal \(outcome.status); no figure written")
        }
        if outcome.status == 65 { throw PlotFailure(status: failure, message: failure == 65 ? "" : "\(shown) refused its data (exit status 65); its message is above; no figure written") }
        guard outcome.status == 0 else {
            throw PlotFailure(status: failure, message: "\(shown) failed (exit status \(outcome.status)); its message is above; no figure written")
        }
    }

    /// The file's bytes without a leading UTF-8 byte-order mark and with CRLF line ends as LF, or nil when it has
    /// neither (or cannot be read: gnuplot then says so itself).
    static func withoutByteOrderMarkOrCR(_ path: String) -> Data? {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return nil }
        return withoutByteOrderMarkOrCR(data)
    }

    /// `data` without a leading UTF-8 byte-order mark and with CRLF as LF, or nil when it has neither.
    static func withoutByteOrderMarkOrCR(_ data: Data) -> Data? {
        let bom = data.starts(with: [0xEF, 0xBB, 0xBF])
        guard bom || data.contains(0x0D) else { return nil }
        var copy = Data(capacity: data.count)
        var previous: UInt8?
        for byte in data.dropFirst(bom ? 3 : 0) {
            if let held = previous { if !(held == 0x0D && byte == 0x0A) { copy.append(held) } }
            previous = byte
        }
        if let held = previous { copy.append(held) }
        return copy
    }

    /// Draws `script` over the data files `data` into `out`, whatever characters the paths hold.
    ///
    /// gnuplot cannot be given every path: `data` is a space-separated list, `set output` and `plot` treat a leading
    /// `|` or `<` as a command, and the notebooks paste names between single quotes in shell commands. So gnuplot
    /// runs in a folder HoldLab makes beside the figure (`.NAME.PID.plot`), where every name is one HoldLab
    /// chose: a link per data file (its own name when that is plain, else with `_` for the other characters), the
    /// notebook's folder linked as `Notebooks`, and the figure drawn as a bare name there and renamed over `out`.
    /// gnuplot's messages name the data files as given.
    ///
    /// - Throws: as `render(script:assignments:out:)`; 73 when the folder cannot be made.
    ///
    /// - Parameter guessing: pass a value that reads as a number as one whatever its name (a notebook of the user's
    ///   own); false passes HoldLab's notebooks' strings as strings (`GnuplotAssignment.text`).
    public static func render(script: String, data: [String], assignments: [(String, String)], out: String,
                              guessing: Bool) throws(PlotFailure) {
        guard let gnuplot = executable() else {
            throw PlotFailure(status: 69, message: "gnuplot is not installed (or not on PATH); install it with: sudo apt-get install gnuplot-nox")
        }
        let here = FileManager.default.currentDirectoryPath
        func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : here + "/" + path }
        let target = absolute(out)
        let stage = (target as NSString).deletingLastPathComponent + "/."
            + (target as NSString).lastPathComponent + ".\(ProcessInfo.processInfo.processIdentifier).plot"
        var tokens = [Temporaries.shared.register(stage)]
        var created: [String] = []
        defer {
            for path in created.reversed() { unlink(path) }
            rmdir(stage)
            for token in tokens { Temporaries.shared.unregister(token) }
        }
        guard mkdir(stage, 0o700) == 0 else {
            throw PlotFailure(status: 73, message: "\(out): cannot create a folder beside it: \(String(cString: strerror(errno)))")
        }
        func link(_ name: String, to destination: String) throws(PlotFailure) {
            let path = stage + "/" + name
            tokens.append(Temporaries.shared.register(path))
            guard symlink(destination, path) == 0 else {
                throw PlotFailure(status: 73, message: "\(out): cannot link \(destination) beside it: \(String(cString: strerror(errno)))")
            }
            created.append(path)
        }

        // The notebook: its folder as `Notebooks` (the notebooks load footer.gpi from beside themselves).
        let scriptPath = absolute(script)
        let notebookName = (scriptPath as NSString).lastPathComponent
        try link("Notebooks", to: (scriptPath as NSString).deletingLastPathComponent)
        let scriptArgument: String
        if Self.isPlain(notebookName) {
            scriptArgument = "Notebooks/" + notebookName
        } else {
            try link("notebook.gp", to: scriptPath)
            scriptArgument = "notebook.gp"
        }

        // The data files, under plain names of their own.
        var used: Set<String> = ["Notebooks", "notebook.gp"]
        var staged: [(name: String, original: String)] = []
        for (index, file) in data.enumerated() {
            // '-': standard input, read once, given to gnuplot as a file of its own (named so in messages).
            if file == "-" {
                let path = stage + "/standard-input.csv"
                tokens.append(Temporaries.shared.register(path))
                // A directory or an unreadable descriptor as standard input is an input that cannot be opened (66).
                let text: Data
                do {
                    text = try FileHandle.standardInput.readToEnd() ?? Data()
                } catch {
                    var status = stat()
                    let isDirectory = fstat(STDIN_FILENO, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
                    throw PlotFailure(status: 66, message: "standard input: " + (isDirectory ? "is a directory, not a data file" : "cannot be read (\(error.localizedDescription))"))
                }
                let bytes = Self.withoutByteOrderMarkOrCR(text) ?? text
                guard FileManager.default.createFile(atPath: path, contents: bytes) else {
                    throw PlotFailure(status: 73, message: "\(out): cannot write standard input beside it")
                }
                created.append(path)
                used.insert("standard-input.csv")
                staged.append(("standard-input.csv", "standard input"))
                continue
            }
            var name = Self.plainName((file as NSString).lastPathComponent)
            if name.hasPrefix("figure.") || used.contains(name) { name = "\(index + 1)-" + name }
            used.insert(name)
            // gnuplot and the notebooks' checks read a byte-order mark as part of the first line and keep a CR on
            // every value: such a file (Excel's "CSV UTF-8") is given to them as a copy without either.
            if let copy = Self.withoutByteOrderMarkOrCR(absolute(file)) {
                let path = stage + "/" + name
                tokens.append(Temporaries.shared.register(path))
                guard FileManager.default.createFile(atPath: path, contents: copy) else {
                    throw PlotFailure(status: 73, message: "\(out): cannot write a copy of \(file) beside it")
                }
                created.append(path)
            } else {
                try link(name, to: absolute(file))
            }
            staged.append((name, file))
        }

        let figureName = "figure." + (out as NSString).pathExtension.lowercased()
        let figure = stage + "/" + figureName
        tokens.append(Temporaries.shared.register(figure))
        created.append(figure)
        let variables = ([("out", figureName), ("data", staged.map(\.name).joined(separator: " "))] + assignments)
            .map { GnuplotAssignment.text($0.0, $0.1, guessing: guessing) }
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(gnuplot, arguments: ["-e", variables.joined(separator: "; "), scriptArgument],
                                           currentDirectory: stage)
        } catch {
            throw PlotFailure(status: childFailed, message: "cannot run \(gnuplot): \(error.description)")
        }
        var messages = outcome.messages.replacingOccurrences(of: figureName, with: out)
        for (name, original) in staged where name != original {
            messages = messages.replacingOccurrences(of: name, with: original)
        }
        // The notebook as given, not the name it has in the folder gnuplot runs in ("Notebooks/x.gp" line 3: …).
        messages = messages.replacingOccurrences(of: "\"\(scriptArgument)\"", with: "\"\(script)\"")
        // 65: a notebook refused its data and said why in one line: that line is holdlab's error line.
        if outcome.exited && outcome.status == 65, let refusal = Self.refusal(messages) {
            throw PlotFailure(status: 65, message: refusal)
        }
        if !messages.isEmpty { StandardError.write(messages) }
        let shown = "gnuplot on \(script)"
        try Self.check(outcome, shown: shown)
        var status = stat()
        guard stat(figure, &status) == 0, status.st_size > 0 else {
            throw PlotFailure(status: 65, message: "\(shown) wrote no figure (does the notebook `set output out`?)")
        }
        do {
            try OutputFile.renameTogether([(figure, out)])
        } catch {
            throw PlotFailure(status: 73, message: error.description)
        }
    }

    /// The one line a notebook prints when it refuses its data (exit status 65), or nil when it printed otherwise.
    static func refusal(_ messages: String) -> String? {
        let lines = messages.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return lines.count == 1 ? lines[0] : nil
    }

    /// Whether a file name can go into gnuplot's lists and the notebooks' shell quotes as it is.
    static func isPlain(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || "._+-".unicodeScalars.contains($0) }
            && !name.hasPrefix("-")
    }

    /// `name` with every character a plain name cannot hold replaced by `_`.
    static func plainName(_ name: String) -> String {
        let plain = String(String.UnicodeScalarView(name.unicodeScalars.map {
            $0.isASCIILetter || $0.isASCIIDigit || "._+-".unicodeScalars.contains($0) ? $0 : "_"
        }))
        return plain.isEmpty || plain.hasPrefix("-") ? "_" + plain : plain
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
