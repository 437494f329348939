/// One haptic request of a held timeline, in the order they happen.
public struct PulseRequest: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Progress passed the last request's progress + threshold.
        case progress
        /// The action fired (`haptics.onComplete`).
        case completion
    }

    public enum Status: Sendable, Equatable {
        case played
        /// Closer than `minInterval` to the last played pulse.
        case dropped
    }

    public var time: Int64
    public var kind: Kind
    public var status: Status
}
