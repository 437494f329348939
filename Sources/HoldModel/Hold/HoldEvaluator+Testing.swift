// The evaluator's test-only switch: a debug build (what `swift test` builds) can turn the shortcuts off, so tests hold
// them against the general path; a release build has no such switch, and every shortcut test is the constant `true`.

/// Whether an evaluator takes its shortcuts: the phase-only timeline, the release-indexed retract bound, the
/// certain-empty stop and the lone-completion-pulse count. Always in a release build.
struct Shortcuts {
#if DEBUG
    let taken: Bool
    static let all = Shortcuts(taken: true)
#else
    @inline(__always) var taken: Bool { true }
    static let all = Shortcuts()
#endif
}

#if DEBUG
extension HoldEvaluator {
    /// - Parameter shortcuts: false takes the general path everywhere (no phase-only timeline, no release-indexed
    ///   retract bound, no certain-empty stop, no lone-completion-pulse count), so tests can hold the shortcuts
    ///   against it.
    convenience init(_ prepared: PreparedControl, shortcuts: Bool) {
        self.init(prepared, Shortcuts(taken: shortcuts))
    }

    /// Requested pulses of the last `hold` (time in seconds, played).
    var requestedPulses: [(time: Double, played: Bool)] {
        pulseRequests.map { (Instant.seconds($0.time), $0.status == .played) }
    }
}
#endif
