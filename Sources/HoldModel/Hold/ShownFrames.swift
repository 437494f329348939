/// The first frames on which a hold's fill looks started and full (`Int64.max` for never): the part of a held timeline
/// that depends on the person's frame phase when nothing else does (`HoldEvaluator.summarizes`).
public struct ShownFrames: Sendable, Equatable {
    public var visible: Int64
    public var full: Int64

    public init(visible: Int64, full: Int64) {
        self.visible = visible
        self.full = full
    }
}
