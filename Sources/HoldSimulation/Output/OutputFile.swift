import Foundation

/// A problem writing output, naming the file.
public struct OutputError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let message: String
    public var description: String { "\(path): \(message)" }
}

/// Where a command writes: standard output (`-`) or a file replaced atomically.
///
/// A file is written to a temporary file in the same directory and renamed over the target, so a reader never
/// sees half a file and an interrupted run leaves the previous file (or none) in place.
public enum OutputFile: Sendable, Equatable {
    case standardOutput
    case file(String)

    /// `-` means standard output.
    public init(argument: String) {
        self = argument == "-" ? .standardOutput : .file(argument)
    }

    /// Writes all of `text`.
    public func write(_ text: String) throws(OutputError) {
        switch self {
        case .standardOutput:
            FileHandle.standardOutput.write(Data(text.utf8))
        case .file(let path):
            try Self.replaceAtomically(path, with: Data(text.utf8))
        }
    }

    /// Checks, before long work starts, that the file's directory exists and is writable.
    public func checkWritable() throws(OutputError) {
        guard case .file(let path) = self else { return }
        if Self.isSpecialFile(path) {
            guard FileManager.default.isWritableFile(atPath: path) else {
                throw OutputError(path: path, message: "it is not writable")
            }
            return
        }
        let directory = Self.directory(of: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw OutputError(path: path, message: "the directory \(directory) does not exist")
        }
        guard FileManager.default.isWritableFile(atPath: directory) else {
            throw OutputError(path: path, message: "the directory \(directory) is not writable")
        }
    }

    static func directory(of path: String) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        return directory.isEmpty ? "." : directory
    }

    /// Whether `path` exists and is not a regular file (a device such as /dev/null, a FIFO): such a target is
    /// written in place, never replaced by a rename.
    static func isSpecialFile(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return (status.st_mode & S_IFMT) != S_IFREG && (status.st_mode & S_IFMT) != S_IFDIR
    }

    static func replaceAtomically(_ path: String, with data: Data) throws(OutputError) {
        if isSpecialFile(path) {
            guard let handle = FileHandle(forWritingAtPath: path) else {
                throw OutputError(path: path, message: "cannot open it for writing")
            }
            defer { try? handle.close() }
            do { try handle.write(contentsOf: data) } catch {
                throw OutputError(path: path, message: "cannot write: \(error.localizedDescription)")
            }
            return
        }
        let directory = directory(of: path)
        let name = (path as NSString).lastPathComponent
        let temporary = "\(directory)/.\(name).\(ProcessInfo.processInfo.processIdentifier).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: data) else {
            throw OutputError(path: path, message: "cannot create a file in \(directory)")
        }
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw OutputError(path: path, message: "cannot replace the file: \(reason)")
        }
    }
}
