import Foundation

/// A file written in pieces to a temporary name and renamed over the target only when complete, so a reader
/// never sees a half-written file and a failed run leaves nothing behind.
public final class PartialFile {
    public let path: String
    private let temporary: String?
    private let handle: FileHandle
    private var finished = false

    public init(path: String) throws(OutputError) {
        self.path = path
        // A device or FIFO (e.g. /dev/null) is written in place: renaming over it would replace it.
        if OutputFile.isSpecialFile(path) {
            guard let handle = FileHandle(forWritingAtPath: path) else {
                throw OutputError(path: path, message: "cannot open it for writing")
            }
            self.handle = handle
            temporary = nil
            return
        }
        let directory = OutputFile.directory(of: path)
        let name = (path as NSString).lastPathComponent
        let temporary = "\(directory)/.\(name).\(ProcessInfo.processInfo.processIdentifier).partial"
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
              let handle = FileHandle(forWritingAtPath: temporary) else {
            throw OutputError(path: path, message: "cannot create a file in \(directory)")
        }
        self.temporary = temporary
        self.handle = handle
    }

    public func write(_ text: String) throws(OutputError) {
        do {
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            throw OutputError(path: path, message: "cannot write: \(error.localizedDescription)")
        }
    }

    /// Renames the finished file into place.
    public func commit() throws(OutputError) {
        finished = true
        try? handle.close()
        guard let temporary else { return }
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw OutputError(path: path, message: "cannot replace the file: \(reason)")
        }
    }

    deinit {
        if !finished {
            try? handle.close()
            if let temporary { unlink(temporary) }
        }
    }
}
