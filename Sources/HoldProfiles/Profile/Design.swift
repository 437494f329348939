/// A design under review: a label and the resolved profile (a shipped profile, or one with `--set` or `--variant`
/// values). What `compare`, `report` and `preview` put side by side.
public struct Design: Sendable {
    public var label: String
    public var profile: Profile

    public init(label: String, profile: Profile) {
        self.label = label
        self.profile = profile
    }
}
