import GSL

extension Profile {
    /// The Timer latency in seconds when the profile's latency distribution is a constant (every tick late by the
    /// same amount, as `DrawnLatencies` then draws it without the generator); nil when it is drawn at random. What
    /// `holdlab export` needs to know to reproduce a Timer fill exactly.
    public var constantTimerLatencySeconds: Double? {
        timerLatency.variance == 0 ? timerLatency.mean : nil
    }

    /// The latency distribution as one line of text, for a note.
    public var timerLatencyText: String { "\(timerLatency)" }
}
