import Foundation

/// A folder of outputs assembled in a temporary directory beside its destination and renamed into place only when
/// complete, so a failed or interrupted run leaves no half folder (and an earlier folder of the same name as it was).
///
/// The temporary (`.NAME.PID.partial`) and every file written into it are registered with `Temporaries` before they
/// exist, so a signal at any moment deletes them. An existing destination is replaced only if it is a folder this
/// type wrote (it holds `marker`); anything else there is refused.
public final class PartialDirectory {
    public let path: String
    /// The temporary directory the files are written into.
    public let temporary: String
    private let marker: String
    private var tokens: [Int] = []
    private var committed = false

    /// - Parameters:
    ///   - path: the destination folder.
    ///   - marker: a file name every folder of this kind holds (e.g. `report.md`): an existing folder without it is
    ///     not replaced.
    public init(path: String, marker: String) throws(OutputError) {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.path = trimmed
        self.marker = marker
        var status = stat()
        if stat(trimmed, &status) == 0 {
            guard (status.st_mode & S_IFMT) == S_IFDIR else {
                throw OutputError(path: trimmed, message: "exists and is not a folder; name a folder for the output")
            }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: trimmed)) ?? []
            guard entries.isEmpty || entries.contains(marker) else {
                throw OutputError(path: trimmed, message: "is a folder with other files in it (no \(marker)); name a new or empty folder")
            }
        }
        let parent = OutputFile.directory(of: trimmed)
        if let problem = OutputFile.directoryProblem(of: trimmed) { throw OutputError(path: trimmed, message: problem) }
        // Inside another review folder (the folder itself, a review written again in place, is not inside one).
        try OutputFile.refuseInsideReview(trimmed, what: "a folder it does not make fails its reproduce.sh --check")
        let pid = ProcessInfo.processInfo.processIdentifier
        temporary = (parent == "/" ? "/" : parent + "/") + ".\(OutputFile.fileName(of: trimmed)).\(pid).partial"
        tokens.append(Temporaries.shared.register(temporary))
        guard mkdir(temporary, 0o777) == 0 else {
            let reason = String(cString: strerror(errno))
            throw OutputError(path: trimmed, message: "cannot create a folder in \(parent): \(reason)")
        }
    }

    /// The temporary path of a file in the folder, registered for deletion; for writers that create the file
    /// themselves (gnuplot).
    public func reserve(_ name: String) -> String {
        let file = temporary + "/" + name
        tokens.append(Temporaries.shared.register(file))
        return file
    }

    /// Creates a subfolder (`inputs`, `inputs/profiles`), registered for deletion like the folder itself.
    public func makeFolder(_ name: String) throws(OutputError) {
        let folder = reserve(name)
        guard mkdir(folder, 0o777) == 0 || errno == EEXIST else {
            throw OutputError(path: path + "/" + name, message: "cannot create the folder: \(String(cString: strerror(errno)))")
        }
    }

    /// Writes a file into the folder.
    public func write(_ name: String, _ text: String, executable: Bool = false) throws(OutputError) {
        let file = reserve(name)
        let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, executable ? 0o777 : 0o666)
        guard descriptor >= 0 else {
            throw OutputError(path: path + "/" + name, message: "cannot create it: \(String(cString: strerror(errno)))")
        }
        let status = Array(text.utf8).withUnsafeBytes { StandardStreams.writeAll(descriptor, $0) }
        let closed = close(descriptor)
        if status != 0 || closed != 0 {
            let reason = String(cString: strerror(status != 0 ? status : errno))
            throw OutputError(path: path + "/" + name, message: "cannot write: \(reason)", kind: .writeFailed)
        }
    }

    /// Renames the finished folder into place, replacing an earlier folder of the same kind.
    ///
    /// It runs under the signal thread's lock (`Temporaries.committing`): an interruption lands before it (the
    /// earlier folder stays) or after it (the new folder is in place and the earlier one gone), never between the
    /// renames, which would leave no folder and the earlier one set aside.
    public func commit() throws(OutputError) {
        try Temporaries.shared.committing { () throws(OutputError) in
            var status = stat()
            var old: String?
            if stat(path, &status) == 0 {
                let parent = OutputFile.directory(of: path)
                let aside = (parent == "/" ? "/" : parent + "/") + ".\(OutputFile.fileName(of: path)).\(ProcessInfo.processInfo.processIdentifier).old"
                guard rename(path, aside) == 0 else {
                    throw OutputError(path: path, message: "cannot replace the folder: \(String(cString: strerror(errno)))")
                }
                old = aside
            }
            guard rename(temporary, path) == 0 else {
                let reason = String(cString: strerror(errno))
                if let old { rename(old, path) }
                throw OutputError(path: path, message: "cannot move the finished folder into place: \(reason)")
            }
            committed = true
            for token in tokens { Temporaries.shared.unregister(token) }
            if let old { try? FileManager.default.removeItem(atPath: old) }
        }
    }

    deinit {
        guard !committed else { return }
        try? FileManager.default.removeItem(atPath: temporary)
        for token in tokens { Temporaries.shared.unregister(token) }
    }
}
