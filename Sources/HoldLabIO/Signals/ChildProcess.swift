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

    /// A child that could not be started.
    public struct StartError: Error, CustomStringConvertible {
        public let tool: String
        public let code: Int32
        public var description: String { "cannot start \(tool): \(String(cString: strerror(code)))" }
        public var localizedDescription: String { description }
    }

    /// Runs `tool` to its end: standard output discarded, standard input `input` (or nothing), standard error
    /// collected.
    ///
    /// The child is started with `posix_spawn`: its signal mask empty and SIGINT, SIGTERM, SIGHUP and SIGPIPE at
    /// their defaults (`Signals.childSignalAttributes`), set in the spawn's attributes so this process never unblocks
    /// a signal; in a process group of its own, so a Ctrl-C at the terminal reaches HoldLab alone (which then stops
    /// the child and everything it started, by process id and group); and registered under the lock the signal
    /// thread takes (`Temporaries.spawn`). Its end is awaited without reaping it (`WNOWAIT`) and taken back under
    /// that lock (`Temporaries.finishChild`): when a signal is being handled, this thread waits for the exit there.
    ///
    /// - Parameter currentDirectory: the directory the child starts in (default: this process's). A caller that
    ///   passes file names to a tool that cannot quote them (gnuplot's space-separated lists) runs it where the files
    ///   are and passes their bare names.
    /// - Throws: `StartError` when it could not be started at all.
    public static func run(_ tool: String, arguments: [String], input: String? = nil,
                           currentDirectory: String? = nil) throws(StartError) -> Outcome {
        var errors: [Int32] = [-1, -1]
        var stdin: [Int32] = [-1, -1]
        guard makePipe(&errors) else { throw StartError(tool: tool, code: errno) }
        defer { for descriptor in errors + stdin where descriptor >= 0 { close(descriptor) } }
        if input != nil {
            guard makePipe(&stdin) else { throw StartError(tool: tool, code: errno) }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input != nil {
            posix_spawn_file_actions_adddup2(&actions, stdin[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        if let currentDirectory {
            guard let changeDirectory = addChangeDirectory,
                  changeDirectory(&actions, currentDirectory) == 0 else { throw StartError(tool: tool, code: ENOSYS) }
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        Signals.childSignalAttributes(&attributes)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        // A tool found through a relative PATH entry is named from here: the child may start in another directory.
        let tool = tool.hasPrefix("/") ? tool : FileManager.default.currentDirectoryPath + "/" + tool
        let argv = ([tool] + arguments).map { strdup($0) } + [nil]
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + environment { free(pointer) } }
        var failure: Int32 = 0
        let (token, started) = Temporaries.shared.spawn {
            var pid: pid_t = 0
            failure = argv.withUnsafeBufferPointer { pointers in
                environment.withUnsafeBufferPointer { variables in
                    posix_spawn(&pid, tool, &actions, &attributes, pointers.baseAddress!, variables.baseAddress!)
                }
            }
            return failure == 0 ? pid : nil
        }
        guard let pid = started else { throw StartError(tool: tool, code: failure) }
        // The child's ends of the pipes are its own now.
        close(errors[1]); errors[1] = -1
        if input != nil { close(stdin[0]); stdin[0] = -1 }

        // Feed the input from another thread while this one drains the messages, so neither pipe fills up. SIGPIPE
        // is ignored here: a child that stops reading gives EPIPE, which ends the feeding.
        let fed = DispatchSemaphore(value: 0)
        if let input {
            let descriptor = stdin[1]
            stdin[1] = -1
            let data = Array(input.utf8)
            Thread.detachNewThread {
                _ = data.withUnsafeBytes { StandardStreams.writeAll(descriptor, $0) }
                close(descriptor)
                fed.signal()
            }
        }
        var messages: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 14)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(errors[0], $0.baseAddress, $0.count) }
            if count > 0 { messages += chunk[..<count]; continue }
            if count < 0 && errno == EINTR { continue }
            break
        }
        if input != nil { fed.wait() }
        var information = siginfo_t()
        while waitid(P_PID, id_t(pid), &information, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        let status = Temporaries.shared.finishChild(token)
        let exited = status & 0x7F == 0
        return Outcome(status: exited ? (status >> 8) & 0xFF : status & 0x7F, exited: exited,
                       messages: String(decoding: messages, as: UTF8.self))
    }

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29 and later; declared only under `_GNU_SOURCE`, which the
    /// Swift importer does not define), looked up once.
    private static let addChangeDirectory:
        (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32).self)
    }()

    /// A pipe whose descriptors are closed in children (each child gets its ends through the spawn's actions).
    private static func makePipe(_ descriptors: inout [Int32]) -> Bool {
        guard pipe(&descriptors) == 0 else { return false }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return true
    }
}
