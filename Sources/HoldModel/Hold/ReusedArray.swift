/// An array emptied and refilled once per hold: emptying only resets a count, so the per-user path neither frees nor
/// reallocates storage and does not go through `Array.removeAll(keepingCapacity:)` (a generic range replacement
/// that cost several per cent of a run). Elements past `count` are stale and never read.
public struct ReusedArray<Element>: RandomAccessCollection {
    private var storage: [Element] = []
    public private(set) var count = 0

    init() {}

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    @inline(__always)
    public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < count, "ReusedArray index out of range")
        return storage[position]
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count < storage.count { storage[count] = element } else { storage.append(element) }
        count += 1
    }

    /// Empties the array, keeping its storage.
    @inline(__always)
    mutating func removeAll() { count = 0 }

    mutating func reserveCapacity(_ capacity: Int) { storage.reserveCapacity(capacity) }
}

extension ReusedArray: Sendable where Element: Sendable {}
