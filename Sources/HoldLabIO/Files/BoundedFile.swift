import Foundation

/// A text input that could not be read, naming it: the messages every reader of profiles, populations, review
/// files and data files gives.
public struct InputError: Error, Equatable, CustomStringConvertible {
    /// The input as messages name it (`standard input` for `-`).
    public let path: String
    /// The line of the first bad byte, for text that is not UTF-8.
    public let line: Int?
    public let message: String
    /// Whether the input could not be opened at all (missing, unreadable, a directory): exit 66; otherwise its
    /// content is at fault (too large, not UTF-8): exit 65.
    public let cannotOpen: Bool

    public init(path: String, line: Int? = nil, message: String, cannotOpen: Bool) {
        self.path = path
        self.line = line
        self.message = message
        self.cannotOpen = cannotOpen
    }

    public var description: String { "\(path)\(line.map { ":\($0)" } ?? ""): \(message)" }
}

/// Whole-file reads with a size limit, UTF-8 checked: no input can make a reader's time or memory grow past the
/// limit, and an endless device is refused after `limit + 1` bytes.
public enum BoundedFile {
    /// The argument that names standard input.
    public static let standardInputArgument = "-"

    /// Reads a file (or standard input for `-`) as UTF-8 text.
    ///
    /// - Parameters:
    ///   - what: the kind of file, for messages (`profile`, `population`, `review`).
    ///   - limit: the most bytes read; a longer file is refused.
    ///   - input: whether the file is recorded as an input no output may replace (`InputFiles`); false for one the
    ///     run reads back to replace it.
    /// - Throws: `InputError`, `cannotOpen` for a missing, unreadable or directory path.
    public static func read(_ path: String, what: String, limit: Int, input: Bool = true) throws(InputError) -> String {
        if path == standardInputArgument { return try StandardInput.text(what: what, limit: limit) }
        func refuse(_ message: String) -> InputError { InputError(path: path, message: message, cannotOpen: true) }
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw refuse(errno == ENOENT ? "no such \(what) file" : "cannot open the \(what) file: \(String(cString: strerror(errno)))")
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            throw refuse("is a directory, not a \(what) file")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw refuse("cannot open the \(what) file: \(String(cString: strerror(errno)))")
        }
        if input { InputFiles.shared.record(path, status: status) }
        defer { close(descriptor) }
        return try readAll(descriptor, path: path, what: what, limit: limit)
    }

    /// The text of an open descriptor, at most `limit` bytes, UTF-8 checked; errors name `path`.
    static func readAll(_ descriptor: Int32, path: String, what: String, limit: Int) throws(InputError) -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count <= limit {
            let wanted = min(chunk.count, limit + 1 - bytes.count)
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, wanted) }
            if count < 0 {
                if errno == EINTR { continue }
                throw InputError(path: path, message: "cannot read the \(what) file: \(String(cString: strerror(errno)))",
                                 cannotOpen: true)
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        if bytes.count > limit {
            throw InputError(path: path, message: "the \(what) file is larger than \(limit) bytes, the most holdlab reads; is it the right file?",
                             cannotOpen: false)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let index = firstInvalidUTF8(bytes)
            let line = 1 + bytes[..<index].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            throw InputError(
                path: path, line: line,
                message: "the \(what) file is not UTF-8 text (byte \(index + 1) is 0x\(String(bytes[index], radix: 16)))",
                cannotOpen: false)
        }
        return text
    }

    /// The offset of the first byte that is not part of valid UTF-8.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return min(offset, max(0, bytes.count - 1))
            case .error: return min(offset, max(0, bytes.count - 1))
            }
        }
    }
}

/// Standard input (`-` wherever a profile, population or data file is expected), read once: a command that reads
/// its profile twice (to check it, then to vary it) gets the same text both times.
enum StandardInput {
    nonisolated(unsafe) private static var cached: String?
    private static let lock = NSLock()

    /// Everything on standard input as UTF-8 text, at most `limit` bytes (the first caller's limit reads it).
    static func text(what: String, limit: Int) throws(InputError) -> String {
        lock.lock()
        defer { lock.unlock() }
        if let cached { return cached }
        let text = try BoundedFile.readAll(STDIN_FILENO, path: "standard input", what: what, limit: limit)
        cached = text
        return text
    }
}
