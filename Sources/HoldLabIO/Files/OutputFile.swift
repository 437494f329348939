import Foundation

/// A problem writing output, naming the file.
public struct OutputError: Error, Equatable, CustomStringConvertible {
    /// What failed, which decides the exit status.
    public enum Kind: Sendable, Equatable {
        /// The output cannot be created: a missing or unwritable directory, a directory given as the file (73).
        case cannotCreate
        /// Writing failed part way: no space, a closed standard output, an I/O error (74).
        case writeFailed
        /// Standard output is a pipe whose reader went away (EPIPE): the run ends quietly (141).
        case brokenPipe
        /// The output is a file the run read as an input (`InputFiles`): a usage error (64), nothing replaced.
        case replacesInput
        /// The output is inside a review folder (`OutputFile.reviewFolder(enclosing:)`) it is not: a file the folder
        /// does not make fails its `reproduce.sh --check`, and one it makes is replaced by another run's (64).
        case insideReview
    }

    public let path: String
    public let message: String
    public let kind: Kind

    public init(path: String, message: String, kind: Kind = .cannotCreate) {
        self.path = path
        self.message = message
        self.kind = kind
    }

    public var description: String { "\(path): \(message)" }
}

/// Where a command writes: standard output (`-`) or a file replaced atomically.
///
/// A file is written to a temporary file in the same directory (`PartialFile`) and renamed over the target, so a
/// reader never sees half a file, and a failed or interrupted run leaves the previous file (or none) in place.
public enum OutputFile: Sendable, Equatable {
    case standardOutput
    case file(String)

    /// `-` means standard output.
    public init(argument: String) {
        self = argument == "-" ? .standardOutput : .file(argument)
    }

    /// Writes all of `text`: to standard output, or to a temporary renamed over the file.
    public func write(_ text: String) throws(OutputError) {
        switch self {
        case .standardOutput:
            try StandardOutput.write(text)
        case .file(let path):
            let file = try PartialFile(path: path)
            try file.write(text)
            try file.commit()
        }
    }

    /// Writes all of `text` as `write` does, as the run's last output: then its outputs are in place
    /// (`Temporaries.outputsInPlace`), and a signal lets the run end with its own status.
    public func writeLast(_ text: String) throws(OutputError) {
        try write(text)
        Temporaries.shared.outputsInPlace()
    }

    /// Renames finished temporaries over their destinations as one step, for a command with several outputs
    /// (`preview`'s GIF and MP4, `simulate --out --per-user`): either every destination is replaced or none is.
    ///
    /// It runs under the lock the signal thread takes (`Temporaries.committing`), so an interruption lands wholly
    /// before it (nothing replaced) or after it (everything replaced). An existing destination is first linked
    /// aside (`.NAME.PID.previous`); should a rename fail, the destinations already replaced get their previous
    /// files back (or are removed when there was none), and the error names the file that could not be replaced.
    /// The temporaries are left for the caller to delete.
    public static func renameTogether(_ moves: [(temporary: String, destination: String)]) throws(OutputError) {
        // An output over an input is refused before any is replaced (the temporaries are the caller's to delete).
        for move in moves {
            if let input = InputFiles.shared.input(at: move.destination) {
                throw InputFiles.replacing(move.destination, input: input)
            }
        }
        try Temporaries.shared.committing { () throws(OutputError) in
            var saved: [(destination: String, previous: String?)] = []
            func restore() {
                for (destination, previous) in saved.reversed() {
                    if let previous { rename(previous, destination) } else { unlink(destination) }
                }
            }
            var asides: [String] = []
            defer { for aside in asides { unlink(aside) } }
            // Set every previous file aside first (a hard link, so the destination stays in place meanwhile).
            var previous: [String?] = []
            for move in moves {
                var status = stat()
                guard moves.count > 1, lstat(move.destination, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
                    previous.append(nil)
                    continue
                }
                let aside = Self.sibling(of: move.destination, kind: "previous")
                unlink(aside)
                guard link(move.destination, aside) == 0 else {
                    throw OutputError(path: move.destination, message: "cannot set the previous file aside: \(String(cString: strerror(errno)))")
                }
                asides.append(aside)
                previous.append(aside)
            }
            for (move, aside) in zip(moves, previous) {
                guard rename(move.temporary, move.destination) == 0 else {
                    let reason = String(cString: strerror(errno))
                    restore()
                    throw OutputError(path: move.destination, message: "cannot replace the file: \(reason)"
                        + (saved.isEmpty ? "" : "; the other outputs were left as they were"))
                }
                saved.append((move.destination, aside))
            }
        }
    }

    /// `.NAME.PID.KIND` beside `path` (a shorter name when that one would be too long).
    static func sibling(of path: String, kind: String) -> String {
        let directory = directory(of: path)
        let pid = ProcessInfo.processInfo.processIdentifier
        var name = ".\(fileName(of: path)).\(pid).\(kind)"
        if name.utf8.count > 255 { name = ".holdlab.\(pid).\(fnv1a64Hex(path)).\(kind)" }
        return (directory == "/" ? "/" : directory + "/") + name
    }

    /// Checks, before long work starts, that the file can be created: its directory exists and is writable, and
    /// the name is not a directory.
    public func checkWritable() throws(OutputError) {
        guard case .file(let path) = self else { return }
        try Self.checkWritable(path)
    }

    static func checkWritable(_ path: String) throws(OutputError) {
        guard !path.isEmpty else { throw OutputError(path: "''", message: "an empty file name; name a file or - for standard output") }
        var status = stat()
        if stat(path, &status) == 0 {
            if (status.st_mode & S_IFMT) == S_IFDIR {
                throw OutputError(path: path, message: "is a directory; name a file (e.g. \(Self.joined(path, "out.csv")))")
            }
            if (status.st_mode & S_IFMT) != S_IFREG {
                guard access(path, W_OK) == 0 else { throw OutputError(path: path, message: "it is not writable") }
                return
            }
        } else if path.hasSuffix("/") {
            throw OutputError(path: path, message: "names a directory (it ends in /); name a file")
        }
        if let problem = directoryProblem(of: path) { throw OutputError(path: path, message: problem) }
        try refuseInsideReview(path, what: "a file it does not make fails its reproduce.sh --check, and one it makes would no longer be its own")
    }

    /// Refuses (`.insideReview`) a file or folder at `path` inside a review folder (`reviewFolder(enclosing:)`),
    /// saying `what` writing there would do.
    static func refuseInsideReview(_ path: String, what: String) throws(OutputError) {
        guard let review = reviewFolder(enclosing: path) else { return }
        throw OutputError(path: path, message: "is inside the review folder \(review) (its report.md and reproduce.sh): \(what); "
            + "write it outside the folder", kind: .insideReview)
    }

    /// The review folder (one holding both `report.md` and `reproduce.sh`, as `holdlab report` writes it) that a file
    /// or folder at `path` would be inside, at any depth; nil for none. A folder this process is assembling
    /// (`.NAME.PID.partial`, `PartialDirectory`) is not one: its files are the review's own.
    public static func reviewFolder(enclosing path: String) -> String? {
        let partial = ".\(ProcessInfo.processInfo.processIdentifier).partial"
        var folder = canonical(path)
        while folder != "/" && !folder.isEmpty {
            folder = directory(of: folder)
            let name = fileName(of: folder)
            if name.hasPrefix(".") && name.hasSuffix(partial) { return nil }
            if access(folder + "/report.md", F_OK) == 0 && access(folder + "/reproduce.sh", F_OK) == 0 { return folder }
        }
        return nil
    }

    /// What keeps a file or folder from being made at `path` in its directory (`directory(of:)`): that it does not
    /// exist, that it (or a folder on the way to it) is a file, or that it is not writable; nil when it can be. The
    /// one wording of every output, file or folder.
    public static func directoryProblem(of path: String) -> String? {
        let directory = directory(of: path)
        var status = stat()
        guard stat(directory, &status) == 0 else {
            return errno == ENOTDIR ? "\(directory) is not a directory: a part of it is a file"
                : "the directory \(directory) does not exist"
        }
        guard (status.st_mode & S_IFMT) == S_IFDIR else { return "\(directory) is not a directory" }
        guard access(directory, W_OK | X_OK) == 0 else { return "the directory \(directory) is not writable" }
        return nil
    }

    /// The directory a path's file lives in: everything before the last `/` (`/` for a file at the root), or `.`
    /// for a bare name (`x`, `.`, `..`).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = path[..<slash]
        if directory.isEmpty { return "/" }
        return String(directory)
    }

    /// The last component of a path (what follows the last `/`).
    static func fileName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// `name` inside `directory`, with one slash between them however `directory` ends ("out/" and "out" give
    /// "out/report.md").
    public static func joined(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// Whether `path` is a symbolic link.
    static func isSymbolicLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK
    }

    /// Whether `path` names one of this process's open descriptors (`/dev/stdout`, `/dev/fd/3`, `/proc/self/fd/1`),
    /// itself or through symbolic links: such a name is written in place, since renaming over it would replace the
    /// link (`/dev/stdout` itself) and leave the descriptor's file untouched.
    static func namesDescriptor(_ path: String) -> Bool {
        var current = path
        for _ in 0..<16 {
            if current.hasPrefix("/dev/fd/") || current.hasPrefix("/proc/self/fd/") || current.hasPrefix("/proc/thread-self/fd/")
                || (current.hasPrefix("/proc/") && current.contains("/fd/")) || ["/dev/stdout", "/dev/stderr", "/dev/stdin"].contains(current) {
                return true
            }
            guard isSymbolicLink(current), let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else {
                return false
            }
            current = target.hasPrefix("/") ? target : joined(directory(of: current), target)
        }
        return false
    }

    /// Whether `path` exists and is neither a regular file nor a directory (a device such as /dev/null, a FIFO):
    /// such a target is written in place, never replaced by a rename.
    static func isSpecialFile(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return (status.st_mode & S_IFMT) != S_IFREG && (status.st_mode & S_IFMT) != S_IFDIR
    }

    /// Whether two output paths end up as the same file: the same existing file (by device and inode, through
    /// `./`, `..` or symbolic links), or the same new name in the same directory. Devices such as /dev/null are
    /// never the same output (writing both there is fine).
    public static func sameFile(_ first: String, _ second: String) -> Bool {
        if first == "-" || second == "-" {
            // Standard output and a name for the file it is (`/dev/stdout`, the file the shell redirected it to).
            let other = first == "-" ? second : first
            guard other != "-" else { return false }
            var a = stat(), b = stat()
            return fstat(STDOUT_FILENO, &a) == 0 && stat(other, &b) == 0 && (a.st_mode & S_IFMT) != S_IFCHR
                && a.st_dev == b.st_dev && a.st_ino == b.st_ino
        }
        if isSpecialFile(first) || isSpecialFile(second) { return false }
        var a = stat(), b = stat()
        if stat(first, &a) == 0, stat(second, &b) == 0 {
            return a.st_dev == b.st_dev && a.st_ino == b.st_ino
        }
        return canonical(first) == canonical(second)
    }

    /// Whether `path` would be written in `folder` or below it, both resolved as `canonical` resolves a path
    /// (symbolic links, `.`, `..`); never for `-`.
    public static func isInside(_ path: String, folder: String) -> Bool {
        guard path != "-" else { return false }
        let root = realpath(folder, nil).map { pointer -> String in
            defer { free(pointer) }
            return String(cString: pointer)
        } ?? canonical(folder)
        let file = canonical(path)
        return file == root || file.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// An absolute path for a file that may not exist yet: its directory resolved (symbolic links, `.`, `..`),
    /// then its name; a dangling symbolic link is followed to where it points.
    static func canonical(_ path: String, depth: Int = 0) -> String {
        // `dir/` names `dir`.
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        var status = stat()
        if depth < 16, lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK,
           let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
            let next = target.hasPrefix("/") ? target : joined(directory(of: path), target)
            return canonical(next, depth: depth + 1)
        }
        let directory = directory(of: path)
        let name = fileName(of: path)
        // A directory that does not exist yet (`new/page.html`) is resolved as far as it exists, so that the path is
        // absolute and compares with others (`isInside`, `sameFile`) whichever way it was written.
        let resolved = realpath(directory, nil).map { pointer -> String in
            defer { free(pointer) }
            return String(cString: pointer)
        } ?? (directory == path ? directory : canonical(directory, depth: depth))
        // `.` and `..` as the last part: the resolved directory itself, or its parent.
        if name == "." { return resolved }
        if name == ".." { return Self.directory(of: resolved) }
        return joined(resolved, name)
    }
}

/// The outputs of one command that writes several (`simulate --out --per-user`, `fit --out --emit-population`,
/// `compare --summaries`), committed together so that "a failed run leaves the previous file, or none" holds for
/// all of them at once: each file is written to its temporary as the run goes, standard output's text is kept,
/// and `commit` writes standard output first (a closed pipe then leaves every file as it was) and renames the files
/// into place in one step (`PartialFile.commitTogether`). Files not committed are deleted when the group goes away.
public final class OutputGroup {
    private var files: [PartialFile] = []
    private var standardOutput: [String] = []

    public init() {}

    /// Adds a file being written piece by piece.
    public func add(_ file: PartialFile) { files.append(file) }

    /// Writes `text` to `output`: into a temporary for a file, or kept for standard output, until `commit`.
    public func write(_ output: OutputFile, _ text: String) throws(OutputError) {
        switch output {
        case .standardOutput:
            standardOutput.append(text)
        case .file(let path):
            let file = try PartialFile(path: path)
            try file.write(text)
            try file.flush()
            files.append(file)
        }
    }

    /// Writes what goes to standard output, then renames every file into place together; the run's outputs are
    /// then in place (`Temporaries.outputsInPlace`).
    public func commit() throws(OutputError) {
        defer { files.removeAll() }
        for text in standardOutput { try StandardOutput.write(text) }
        standardOutput.removeAll()
        try PartialFile.commitTogether(files)
        // A command's outputs are committed once, last: the run is only finishing now.
        Temporaries.shared.outputsInPlace()
    }
}
