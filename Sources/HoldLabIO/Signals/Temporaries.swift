import Foundation

/// What an interrupted or failing run must undo: temporary files not yet renamed into place, and child
/// processes (gnuplot, ffmpeg) still drawing into them.
///
/// Every temporary an output creates is registered here before it exists and unregistered once it was renamed
/// or removed, so a signal at any moment finds exactly the files to delete. Children are started under this
/// object's lock (`spawn`), so a signal never finds a child that is running but not yet registered, and a child's
/// end is taken back under the lock (`finishChild`), so its process id is never reused while registered.
///
/// Once the cleanup has started (`removeAll`, from the signal thread or at the end of `main`), the run is
/// *ending*: any thread that would create a file, start a child, take a child's end or report an error waits for
/// the exit instead (`haltIfEnding`), so the cleanup's own effects (a child killed, a temporary deleted) are never
/// reported as a failure of their own with another exit status.
public final class Temporaries: @unchecked Sendable {
    public static let shared = Temporaries()

    // Recursive: `committing` may unregister the temporaries it renamed.
    private let lock = NSRecursiveLock()
    private var paths: [Int: String] = [:]
    private var children: [Int: pid_t] = [:]
    private var nextToken = 0
    /// Set once the run is ending (a signal arrived, or `main` is cleaning up): nothing new may be created.
    private var closed = false
    /// Set once the run's outputs are all in place (`outputsInPlace`): the run is only finishing.
    private var finished = false

    /// Says that the run's outputs are all in place (a command's last commit, `OutputGroup.commit`): a signal from
    /// then on finds nothing to undo, and lets the run end with its own status (`Signals`).
    public func outputsInPlace() {
        lock.lock()
        finished = true
        lock.unlock()
        TestHooks.outputsInPlace()
    }

    /// Whether the run's outputs are all in place.
    public var isFinishing: Bool {
        lock.lock()
        defer { lock.unlock() }
        return finished
    }

    /// Registers a path to delete if the run ends before `unregister`; returns the token to unregister it with.
    ///
    /// After a signal has started the cleanup, the calling thread waits here for the exit instead of creating a
    /// file nobody would delete.
    public func register(_ path: String) -> Int {
        lock.lock()
        if closed {
            lock.unlock()
            Signals.waitForExit()
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

    /// Whether the cleanup has started: the process is about to exit with a signal's status.
    public var isEnding: Bool {
        lock.lock()
        defer { lock.unlock() }
        return closed
    }

    /// Waits for the exit when the cleanup has started; call before reporting an error or ending the run, so the
    /// signal's status (129, 130, 143) is the only outcome of an interrupted run.
    public func haltIfEnding() {
        if isEnding { Signals.waitForExit() }
    }

    /// Runs `body`, which starts a child process and returns its id (nil: it did not start), under the lock, and
    /// registers the child: a signal is handled either before the child exists (and `body` never runs) or after it
    /// is registered (and the cleanup kills it).
    ///
    /// - Returns: the token for `finishChild`, and the child's id (nil when `body` returned nil).
    public func spawn(_ body: () -> pid_t?) -> (token: Int, pid: pid_t?) {
        lock.lock()
        if closed {
            lock.unlock()
            Signals.waitForExit()
        }
        defer { lock.unlock() }
        guard let pid = body() else { return (0, nil) }
        nextToken += 1
        children[nextToken] = pid
        return (nextToken, pid)
    }

    /// Takes back a child that has ended (waited for with `WNOWAIT`, not yet reaped): unregisters it and reaps it,
    /// returning its wait status. When the cleanup has started (it killed the child), waits for the exit instead.
    public func finishChild(_ token: Int) -> Int32 {
        lock.lock()
        if closed {
            lock.unlock()
            Signals.waitForExit()
        }
        defer { lock.unlock() }
        guard let pid = children.removeValue(forKey: token) else { return 0 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    /// Kills registered children and their process groups (and waits until they are gone, so none can recreate a
    /// file), then deletes every registered temporary, files before the folders that hold them. The destinations
    /// are untouched. From then on the run is ending (`isEnding`).
    public func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        closed = true
        for pid in children.values {
            // Each child leads a process group of its own (`ChildProcess`): the group takes anything it started.
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        for path in paths.values { unlink(path) }
        // Then directories being assembled (a report folder and its subfolders), now that the files registered in
        // them are gone: the longest paths first, so a subfolder goes before the folder that holds it.
        for path in paths.values.sorted(by: { $0.utf8.count > $1.utf8.count }) { rmdir(path) }
        children.removeAll()
        paths.removeAll()
    }

    /// Runs `body` (renames that commit several outputs) under the lock: a signal's cleanup runs entirely before
    /// it (and `body` never runs) or after it, never between two of its renames.
    public func committing<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        lock.lock()
        if closed {
            lock.unlock()
            Signals.waitForExit()
        }
        defer { lock.unlock() }
        return try body()
    }
}
