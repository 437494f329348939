import Foundation

/// The regular files this run has read as inputs (profiles, populations, review files, manifests, CSV data), by
/// device and inode: an output file may not replace one (`OutputFile.renameTogether`). A review folder that `report`
/// regenerates in place (`--inputs DIR/inputs --out DIR`, what reproduce.sh runs) is replaced whole, by design.
///
/// The commands refuse the outputs they can see are inputs before anything runs (`refuseOutputsOverInputs`: the
/// files their options name); this catches the rest, whatever reads them: a profile's default population, the
/// default profile, a file a review names. The readers record what they open (`BoundedFile.read`, `CSVReader`), so
/// a new input is covered without a command listing it.
public final class InputFiles: @unchecked Sendable {
    public static let shared = InputFiles()

    private let lock = NSLock()
    private var files: [FileIdentity: String] = [:]

    struct FileIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// Records an input that `status` describes (a regular file only: standard input, a FIFO or a device is
    /// read once and cannot be replaced by a rename).
    func record(_ path: String, status: stat) {
        guard (status.st_mode & S_IFMT) == S_IFREG else { return }
        let identity = FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        lock.lock()
        defer { lock.unlock() }
        if files[identity] == nil { files[identity] = path }
    }

    /// The input (as it was named when read) that `path` is, if it is one this run read. The recorded path must
    /// still name that file: an input deleted meanwhile may have passed its inode on to a new file (ext4 reuses one
    /// at once), which is no input.
    public func input(at path: String) -> String? {
        guard let identity = Self.identity(of: path) else { return nil }
        lock.lock()
        let input = files[identity]
        lock.unlock()
        guard let input, Self.identity(of: input) == identity else { return nil }
        return input
    }

    private static func identity(of path: String) -> FileIdentity? {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// The error for an output that would replace the input `input`.
    static func replacing(_ destination: String, input: String) -> OutputError {
        let named = OutputFile.canonical(input) == OutputFile.canonical(destination)
        return OutputError(path: destination, message: named
            ? "is an input this run read; write the output to another file"
            : "is \(input), an input this run read; write the output to another file", kind: .replacesInput)
    }
}
