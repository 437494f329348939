import Foundation

/// What a finished process did.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// Whether it exited (rather than being ended by a signal).
    public var exited: Bool

    public init(status: Int32, stdout: String, stderr: String, exited: Bool = true) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.exited = exited
    }
}

/// Runs a program to its end, the one way every test target does: its arguments, working directory and
/// environment (`environment` entries replace the test's own; `removing` drops variables), optional text on
/// standard input, and both output streams read to their end before waiting, so a large output cannot block it.
///
/// - Parameters:
///   - brokenPipe: its standard output is a pipe whose reader is already gone (what `| head -c0` leaves).
///   - keepStandardError: false sends standard error to /dev/null.
public func runProcess(
    _ executable: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
    removing: [String] = [], input: String? = nil, brokenPipe: Bool = false, keepStandardError: Bool = true
) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    var merged = ProcessInfo.processInfo.environment
    for name in removing { merged.removeValue(forKey: name) }
    merged.merge(environment) { $1 }
    process.environment = merged
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = keepStandardError ? err : FileHandle.nullDevice
    let inPipe = input.map { _ in Pipe() }
    process.standardInput = inPipe ?? FileHandle.nullDevice
    if brokenPipe { try out.fileHandleForReading.close() }
    try process.run()
    var writer: Thread?
    if let inPipe, let input {
        // Written from another thread, so a program that writes before it reads cannot deadlock with us.
        writer = Thread {
            inPipe.fileHandleForWriting.write(Data(input.utf8))
            try? inPipe.fileHandleForWriting.close()
        }
        writer?.start()
    }
    let outData = brokenPipe ? Data() : out.fileHandleForReading.readDataToEndOfFile()
    let errData = keepStandardError ? err.fileHandleForReading.readDataToEndOfFile() : Data()
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self), exited: process.terminationReason == .exit)
}
