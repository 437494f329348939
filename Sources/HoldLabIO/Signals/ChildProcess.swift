import Foundation

/// A program HoldLab runs as a child (gnuplot, ffmpeg), the one way every module does: found on `$PATH`, started
/// with the signal handling a child should inherit, registered so an interruption stops it by process id, its
/// standard input fed from a string, its messages collected.
public enum ChildProcess {
    /// How a child ended.
    public struct Outcome: Sendable {
        /// Its exit status, or the signal that ended it.
        public var status: Int32
        /// Whether it exited (rather than being ended by a signal).
        public var exited: Bool
        /// What it wrote on standard error.
        public var messages: String

        public var succeeded: Bool { exited && status == 0 }
    }

    /// `name` on `$PATH` (an executable file, not a directory), or nil.
    public static func find(_ name: String, searchPath: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        for directory in (searchPath ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (directory.isEmpty ? "." : String(directory)) + "/" + name
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
               FileManager.default.isExecutableFile(atPath: candidate) {
                return candidate
            }
        }
        return nil
    }

    /// Runs `tool` to its end: standard output discarded, standard input `input` (or nothing).
    ///
    /// - Parameter currentDirectory: the directory the child starts in (default: this process's). A caller that
    ///   passes file names to a tool that cannot quote them (gnuplot's space-separated lists) runs it where the files
    ///   are and passes their bare names.
    /// - Throws: the error of starting it (it could not run at all).
    public static func run(_ tool: String, arguments: [String], input: String? = nil,
                           currentDirectory: String? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory, isDirectory: true) }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let stdin = input.map { _ in Pipe() }
        process.standardInput = stdin ?? FileHandle.nullDevice
        try Signals.withDefaultSignalsForChildren { try process.run() }
        let child = Temporaries.shared.registerChild(process.processIdentifier)
        defer { Temporaries.shared.unregisterChild(child) }
        // Feed the input from another thread while this one drains the messages, so neither pipe fills up.
        if let stdin, let input {
            let handle = stdin.fileHandleForWriting
            let data = Data(input.utf8)
            Thread.detachNewThread {
                try? handle.write(contentsOf: data)
                try? handle.close()
            }
        }
        let messages = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, exited: process.terminationReason == .exit,
                       messages: String(decoding: messages, as: UTF8.self))
    }
}
