import Foundation

/// A file written in pieces to a temporary in the destination's directory and renamed over the destination only
/// when complete, so a reader never sees a half-written file and a failed run leaves nothing behind.
///
/// The temporary (`.NAME.PID.partial`) is registered with `Temporaries` before it is created, so SIGINT, SIGTERM
/// or SIGHUP at any moment deletes it; it is also deleted when the object goes away uncommitted (an error). A
/// device or FIFO (e.g. /dev/null, /dev/full) is written in place.
public final class PartialFile {
    public let path: String
    /// The file renamed over: `path`, or the file a symbolic link at `path` points to (the link is kept).
    private let destination: String
    private let temporary: String?
    private let descriptor: Int32
    private var token: Int?
    private var buffer: [UInt8] = []
    private var finished = false
    private static let bufferSize = 1 << 16

    public init(path: String) throws(OutputError) {
        self.path = path
        try OutputFile.checkWritable(path)
        // A device or FIFO, or a name for one of this process's descriptors (/dev/stdout, /proc/self/fd/1, also
        // when it is a regular file the shell opened): written in place, appending to what the shell opened.
        let throughDescriptor = OutputFile.namesDescriptor(path)
        if throughDescriptor || OutputFile.isSpecialFile(path) {
            let descriptor = open(path, O_WRONLY | O_CLOEXEC | (throughDescriptor ? O_APPEND : 0))
            guard descriptor >= 0 else {
                throw OutputError(path: path, message: "cannot open it for writing: \(String(cString: strerror(errno)))")
            }
            self.descriptor = descriptor
            destination = path
            temporary = nil
            return
        }
        // A symbolic link stays a link: the file it points to is replaced.
        let destination = OutputFile.isSymbolicLink(path) ? OutputFile.canonical(path) : path
        self.destination = destination
        let directory = OutputFile.directory(of: destination)
        let pid = ProcessInfo.processInfo.processIdentifier
        var name = ".\(OutputFile.fileName(of: destination)).\(pid).partial"
        if name.utf8.count > 255 { name = ".holdlab.\(pid).\(fnv1a64Hex(destination)).partial" }
        let temporary = (directory == "/" ? "/" : directory + "/") + name
        let token = Temporaries.shared.register(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            Temporaries.shared.unregister(token)
            throw OutputError(path: path, message: "cannot create a file in \(directory): \(reason)")
        }
        self.temporary = temporary
        self.descriptor = descriptor
        self.token = token
    }

    /// Appends `text` (buffered).
    public func write(_ text: String) throws(OutputError) {
        TestHooks.countWrite()
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.bufferSize { try flush() }
    }

    /// Writes what is buffered, so a write error shows before other outputs are committed.
    public func flush() throws(OutputError) {
        let status = buffer.withUnsafeBytes { StandardStreams.writeAll(descriptor, $0) }
        buffer.removeAll(keepingCapacity: true)
        if status != 0 {
            throw OutputError(path: path, message: "cannot write: \(String(cString: strerror(status)))", kind: .writeFailed)
        }
    }

    /// Writes what is buffered and renames the finished file into place.
    public func commit() throws(OutputError) {
        try Self.commitTogether([self])
    }

    /// Writes what each file has buffered and closes it, then renames them all into place as one step
    /// (`OutputFile.renameTogether`): a failure or a signal leaves every destination as it was, or all of them
    /// replaced. On a failure every temporary is deleted.
    public static func commitTogether(_ files: [PartialFile]) throws(OutputError) {
        var moves: [(temporary: String, destination: String)] = []
        var failure: OutputError?
        for file in files where !file.finished {
            do {
                try file.flush()
            } catch {
                failure = failure ?? error
            }
            file.finished = true
            if close(file.descriptor) != 0 && failure == nil {
                failure = OutputError(path: file.path, message: "cannot write: \(String(cString: strerror(errno)))", kind: .writeFailed)
            }
            if let temporary = file.temporary { moves.append((temporary, file.destination)) }
        }
        defer {
            for file in files {
                if let temporary = file.temporary { unlink(temporary) }
                file.token.map(Temporaries.shared.unregister)
                file.token = nil
            }
        }
        if let failure { throw failure }
        try OutputFile.renameTogether(moves)
    }

    /// Deletes the temporary without touching the destination.
    public func discard() {
        guard !finished else { return }
        finished = true
        close(descriptor)
        if let temporary { unlink(temporary) }
        token.map(Temporaries.shared.unregister)
        token = nil
    }

    deinit { discard() }
}
