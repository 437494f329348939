import Foundation

/// Standard output and standard error written with `write(2)`, so a stream that cannot be written ends the run
/// with a status instead of a crash.
///
/// - A closed standard output (`>&-`) or one that fails (`>/dev/full`: ENOSPC) is an I/O error: one line on
///   standard error, exit status 74.
/// - A reader that went away (`| head`): EPIPE, no message, exit status 141 (what a shell shows for a program
///   that SIGPIPE ended, as coreutils' programs are).
/// - A closed or failing standard error only loses the message.
public enum StandardStreams {
    /// Whether standard output / error were closed when the process started.
    nonisolated(unsafe) public private(set) static var outputWasClosed = false
    nonisolated(unsafe) public private(set) static var errorWasClosed = false

    /// Call first thing in `main`: a closed descriptor 0, 1 or 2 is reopened on /dev/null, so no file the run
    /// opens can take its number (and receive what was meant for the terminal); closed ones are remembered.
    public static func prepare() {
        for descriptor: Int32 in [0, 1, 2] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
            if opened >= 0 && opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
            if descriptor == 1 { outputWasClosed = true }
            if descriptor == 2 { errorWasClosed = true }
        }
    }

    /// Writes all bytes to a descriptor, retrying after EINTR and short writes; returns 0 or the errno.
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard var pointer = bytes.baseAddress else { return 0 }
        var remaining = bytes.count
        while remaining > 0 {
            let written = write(descriptor, pointer, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if written == 0 { return EIO }
            pointer += written
            remaining -= written
        }
        return 0
    }
}

/// Standard output (`-` wherever a file is expected).
public enum StandardOutput {
    /// The name errors use.
    public static let name = "standard output"

    /// Writes all of `text`.
    ///
    /// - Throws: `OutputError` of kind `.brokenPipe` (EPIPE) or `.writeFailed` (any other error, closed included).
    public static func write(_ text: String) throws(OutputError) {
        if StandardStreams.outputWasClosed {
            throw OutputError(path: name, message: "cannot write: it is closed", kind: .writeFailed)
        }
        var text = text
        let status = text.withUTF8 { StandardStreams.writeAll(1, UnsafeRawBufferPointer($0)) }
        if status == EPIPE { throw OutputError(path: name, message: "the reader closed the pipe", kind: .brokenPipe) }
        if status != 0 {
            throw OutputError(path: name, message: "cannot write: \(String(cString: strerror(status)))", kind: .writeFailed)
        }
    }
}

/// Standard error: messages for the person at the terminal. Never fails: a closed or full standard error loses
/// the message and changes nothing else.
public enum StandardError {
    public static func write(_ text: String) {
        if StandardStreams.errorWasClosed { return }
        var text = text
        _ = text.withUTF8 { StandardStreams.writeAll(2, UnsafeRawBufferPointer($0)) }
    }
}
