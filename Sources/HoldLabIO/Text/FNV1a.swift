/// FNV-1a, 64-bit (Fowler–Noll–Vo): a stable, dependency-free content fingerprint for provenance lines and shard
/// seals, not a cryptographic hash. The one implementation every module uses.
public struct FNV1a64: Sendable, Equatable {
    /// The offset basis: the hash of no bytes.
    public static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    /// The 64-bit FNV prime.
    public static let prime: UInt64 = 0x0000_0100_0000_01B3

    /// The hash of the bytes absorbed so far.
    public var value: UInt64

    public init() { value = Self.offsetBasis }

    /// Absorbs one byte.
    @inlinable
    public mutating func absorb(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* Self.prime
    }

    /// Absorbs bytes in order.
    @inlinable
    public mutating func absorb<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes { absorb(byte) }
    }

    /// The hash as 16 lowercase hex digits.
    public var hex: String { Self.hex(value) }

    /// A 64-bit value as 16 lowercase hex digits.
    public static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// The FNV-1a 64 hash of a text's UTF-8 bytes, as 16 hex digits.
public func fnv1a64Hex(_ text: String) -> String {
    var hash = FNV1a64()
    hash.absorb(text.utf8)
    return hash.hex
}
