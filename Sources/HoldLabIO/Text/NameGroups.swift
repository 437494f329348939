/// Names grouped by what they share (a reason, a design), the groups and the names in order of first appearance and
/// each name once in its group: the lists a note prints, "a, b (reason); c (other reason)".
public struct NameGroups: Sendable, Equatable {
    public private(set) var keys: [String] = []
    public private(set) var names: [[String]] = []

    public init() {}

    public var isEmpty: Bool { keys.isEmpty }

    /// Adds `name` to the group of `key` (a new group after the others when `key` is new).
    public mutating func add(_ name: String, to key: String) {
        if let group = keys.firstIndex(of: key) {
            if !names[group].contains(name) { names[group].append(name) }
        } else {
            keys.append(key)
            names.append([name])
        }
    }

    /// Every group as `format(its names joined by ", ", its key)`, the groups joined by "; ".
    public func joined(_ format: (_ names: String, _ key: String) -> String) -> String {
        zip(names, keys).map { format($0.joined(separator: ", "), $1) }.joined(separator: "; ")
    }
}
