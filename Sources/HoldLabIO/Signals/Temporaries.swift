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
        // Then directories being assembled (a report folder and its subfolders), now that the files registered in
        // them are gone: the longest paths first, so a subfolder goes before the folder that holds it.
        for path in paths.values.sorted(by: { $0.utf8.count > $1.utf8.count }) { rmdir(path) }
        children.removeAll()
        paths.removeAll()
    }
}
