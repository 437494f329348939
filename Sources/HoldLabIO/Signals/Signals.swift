import Foundation

/// SIGINT, SIGTERM and SIGHUP end a run cleanly: temporaries are deleted, destinations are left as they were, and
/// the process exits with 128 + the signal number (130, 143, 129), the status a shell reports for the signal. A
/// signal that arrives once the outputs are all in place (`Temporaries.outputsInPlace`) lets the run end with its
/// own status.
///
/// The signals are blocked in every thread and taken by one thread waiting in `sigwait`, which runs ordinary code
/// (locks, `unlink`) safely at any moment of the run. SIGPIPE is ignored so a closed pipe shows up as EPIPE on the
/// write, where `StandardOutput` handles it. A signal the parent set to be ignored (`nohup`) stays ignored.
public enum Signals {
    /// The signals that end a run, with their exit statuses.
    public static let signals: [(signal: Int32, status: Int32)] = [(SIGINT, 130), (SIGTERM, 143), (SIGHUP, 129)]

    /// The signals that end a run which were not ignored when the process started (`nohup` ignores SIGHUP): a
    /// child gets these back at their default disposition, and keeps ignoring the others.
    nonisolated(unsafe) private(set) static var handled: [Int32] = signals.map(\.signal)

    /// How long a signal that arrives once the run's outputs are in place waits for the run's own exit, seconds.
    static let finishingGrace = 5.0

    /// Call first thing in `main`, before any thread is started (threads inherit the blocked set).
    public static func install() {
        signal(SIGPIPE, SIG_IGN)
        var set = sigset_t()
        sigemptyset(&set)
        handled = signals.map(\.signal).filter { !isIgnored($0) }
        for number in handled { sigaddset(&set, number) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let waited = set
        Thread.detachNewThread {
            var mask = waited
            var received: Int32 = 0
            while sigwait(&mask, &received) != 0 {}
            // Once the outputs are all in place the run is only finishing (notes on standard error): exiting 130
            // or 143 then would say the destinations were left as they were. The run ends with its own status,
            // given a few seconds; past them (standard error blocked), as any interrupted run.
            if Temporaries.shared.isFinishing { Thread.sleep(forTimeInterval: Self.finishingGrace) }
            Temporaries.shared.removeAll()
            let status = signals.first { $0.signal == received }?.status ?? 128 + received
            _exit(status)
        }
    }

    /// The signal handling a child process starts with (`ChildProcess` sets it in `posix_spawn`'s attributes, so
    /// this process never unblocks a signal, not even for the length of a spawn): no signal blocked, and SIGPIPE
    /// and the handled signals at their default disposition.
    static func childSignalAttributes(_ attributes: inout posix_spawnattr_t) {
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        for number in handled { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
    }

    /// Blocks the calling thread until the process exits (the signal thread is cleaning up and will `_exit`).
    package static func waitForExit() -> Never {
        while true { sleep(3600) }
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
