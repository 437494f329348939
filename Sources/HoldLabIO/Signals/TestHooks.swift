import Foundation

/// Seams the tests use to interrupt a run at a known point without timing. They exist only in builds with
/// `HOLDLAB_TEST_HOOKS` (debug builds, which `swift test` runs; Package.swift): a release binary has none, and
/// these calls compile to nothing there.
public enum TestHooks {
    #if HOLDLAB_TEST_HOOKS
    /// `HOLDLAB_TEST_SIGNAL=NAME:N` (NAME one of INT, TERM, HUP) sends the process that signal when the N-th piece
    /// of output is written to a file.
    static let testSignal: (signal: Int32, after: Int)? = {
        guard let text = ProcessInfo.processInfo.environment["HOLDLAB_TEST_SIGNAL"] else { return nil }
        let parts = text.split(separator: ":")
        let names: [Substring: Int32] = ["INT": SIGINT, "TERM": SIGTERM, "HUP": SIGHUP]
        guard parts.count == 2, let number = names[parts[0]], let after = Int(parts[1]), after >= 1 else { return nil }
        return (number, after)
    }()

    nonisolated(unsafe) private static var writes = 0

    /// `HOLDLAB_TEST_SIGNAL_IN_PLACE=NAME` sends the process that signal right after its outputs are all in place
    /// (`Temporaries.outputsInPlace`), and carries on: the run then ends with its own status.
    static let signalInPlace: Int32? = {
        guard let text = ProcessInfo.processInfo.environment["HOLDLAB_TEST_SIGNAL_IN_PLACE"] else { return nil }
        return ["INT": SIGINT, "TERM": SIGTERM, "HUP": SIGHUP][text]
    }()

    /// `HOLDLAB_TEST_KILL_AFTER_POINTS=N`: a sweep kills itself (SIGKILL, as a killed machine would) once N rows
    /// reached its file.
    static let killAfterPoints = ProcessInfo.processInfo.environment["HOLDLAB_TEST_KILL_AFTER_POINTS"].flatMap(Int.init)
    #endif

    /// Counts a piece of file output; with `HOLDLAB_TEST_SIGNAL`, sends the signal and waits for the exit when it
    /// is due.
    @inline(__always)
    public static func countWrite() {
        #if HOLDLAB_TEST_HOOKS
        guard let (number, after) = testSignal else { return }
        writes += 1
        if writes == after {
            kill(getpid(), number)
            Signals.waitForExit()
        }
        #endif
    }

    /// With `HOLDLAB_TEST_SIGNAL_IN_PLACE`, sends the signal (once the outputs are in place).
    @inline(__always)
    static func outputsInPlace() {
        #if HOLDLAB_TEST_HOOKS
        if let number = signalInPlace { kill(getpid(), number) }
        #endif
    }

    /// Whether a sweep with `rows` rows in its file should die now (`HOLDLAB_TEST_KILL_AFTER_POINTS`).
    @inline(__always)
    public static func sweepDies(afterRows rows: Int) -> Bool {
        #if HOLDLAB_TEST_HOOKS
        return killAfterPoints.map { rows >= $0 } ?? false
        #else
        return false
        #endif
    }
}
