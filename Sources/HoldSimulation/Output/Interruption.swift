import Foundation

/// What an interrupted or failing run must undo: temporary files not yet renamed into place, and child
/// processes (gnuplot) still drawing into them.
///
/// Every temporary an output creates is registered here before it exists and unregistered once it was renamed
/// or removed, so a signal at any moment finds exactly the files to delete.
public final class Temporaries: @unchecked Sendable {
    public static let shared = Temporaries()

    private let lock = NSLock()
    private var paths: [Int: String] = [:]
    private var children: [Int: Int32] = [:]
    private var nextToken = 0
    /// Set once the run is ending (a signal arrived): nothing new may be created.
    private var closed = false

    /// Registers a path to delete if the run ends before `unregister`; returns the token to unregister it with.
    ///
    /// After a signal has started the cleanup, the calling thread waits here for the exit instead of creating a
    /// file nobody would delete.
    public func register(_ path: String) -> Int {
        lock.lock()
        if closed {
            lock.unlock()
            Interruption.waitForExit()
        }
        defer { lock.unlock() }
        nextToken += 1
        paths[nextToken] = path
        return nextToken
    }

    public func unregister(_ token: Int) {
        lock.lock()
        defer { lock.unlock() }
        paths[token] = nil
    }

    /// Registers a child process to terminate if the run is interrupted.
    public func registerChild(_ pid: Int32) -> Int {
        lock.lock()
        defer { lock.unlock() }
        nextToken += 1
        children[nextToken] = pid
        return nextToken
    }

    public func unregisterChild(_ token: Int) {
        lock.lock()
        defer { lock.unlock() }
        children[token] = nil
    }

    /// Kills registered children (and waits until they are gone, so none can recreate a file), then deletes every
    /// registered temporary. The destinations are untouched.
    public func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        closed = true
        for pid in children.values {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
        }
        for path in paths.values { unlink(path) }
        // Then directories being assembled (a report folder), now that the files registered in them are gone.
        for path in paths.values { rmdir(path) }
        children.removeAll()
        paths.removeAll()
    }
}

/// SIGINT, SIGTERM and SIGHUP end a run cleanly: temporaries are deleted, destinations are left as they were, and
/// the process exits with 128 + the signal number (130, 143, 129), the status a shell reports for the signal.
///
/// The signals are blocked in every thread and taken by one thread waiting in `sigwait`, which runs ordinary code
/// (locks, `unlink`) safely at any moment of the run. SIGPIPE is ignored so a closed pipe shows up as EPIPE on the
/// write, where `StandardOutput` handles it. A signal the parent set to be ignored (`nohup`) stays ignored.
public enum Interruption {
    /// The signals that end a run, with their exit statuses.
    public static let signals: [(signal: Int32, status: Int32)] = [(SIGINT, 130), (SIGTERM, 143), (SIGHUP, 129)]

    /// Call first thing in `main`, before any thread is started (threads inherit the blocked set).
    public static func install() {
        signal(SIGPIPE, SIG_IGN)
        var set = sigset_t()
        sigemptyset(&set)
        for (number, _) in signals {
            if !isIgnored(number) { sigaddset(&set, number) }
        }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let waited = set
        Thread.detachNewThread {
            var mask = waited
            var received: Int32 = 0
            while sigwait(&mask, &received) != 0 {}
            Temporaries.shared.removeAll()
            let status = signals.first { $0.signal == received }?.status ?? 128 + received
            _exit(status)
        }
    }

    /// Runs `body` (which starts a child process) with the default signal handling a child should inherit:
    /// nothing blocked and SIGPIPE not ignored. The window is the length of a `posix_spawn`.
    public static func withDefaultSignalsForChildren<T>(_ body: () throws -> T) rethrows -> T {
        var set = sigset_t()
        sigemptyset(&set)
        for (number, _) in signals { sigaddset(&set, number) }
        var previous = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &set, &previous)
        signal(SIGPIPE, SIG_DFL)
        defer {
            signal(SIGPIPE, SIG_IGN)
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        return try body()
    }

    /// Blocks the calling thread until the process exits (the signal thread is cleaning up and will `_exit`).
    static func waitForExit() -> Never {
        while true { sleep(3600) }
    }

    /// Test seam: `HOLDLAB_TEST_SIGNAL=NAME:N` (NAME one of INT, TERM, HUP) sends the process that signal when the
    /// N-th piece of output is written to a file, so tests can interrupt a run at a known point without timing.
    static let testSignal: (signal: Int32, after: Int)? = {
        guard let text = ProcessInfo.processInfo.environment["HOLDLAB_TEST_SIGNAL"] else { return nil }
        let parts = text.split(separator: ":")
        let names: [Substring: Int32] = ["INT": SIGINT, "TERM": SIGTERM, "HUP": SIGHUP]
        guard parts.count == 2, let number = names[parts[0]], let after = Int(parts[1]), after >= 1 else { return nil }
        return (number, after)
    }()

    nonisolated(unsafe) private static var writes = 0

    /// Counts a piece of file output for the test seam; sends the signal and waits for the exit when it is due.
    static func countWrite() {
        guard let (number, after) = testSignal else { return }
        writes += 1
        if writes == after {
            kill(getpid(), number)
            waitForExit()
        }
    }

    /// Whether the signal's disposition is SIG_IGN (inherited from the parent, as `nohup` sets SIGHUP).
    private static func isIgnored(_ number: Int32) -> Bool {
        #if os(Linux)
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { return false }
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 1
        #else
        return false
        #endif
    }
}
