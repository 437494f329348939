/// The checksum of POSIX `cksum` (a CRC-32 with polynomial 0x04C11DB7 over the bytes and then their length): what a
/// shell script can compute with nothing but POSIX tools, so `reproduce.sh` can recognise the files it was written
/// with. A fingerprint against accidents, not a cryptographic hash.
public enum POSIXChecksum {
    static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index) << 24
        for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        return crc
    }

    /// `cksum < FILE`'s output for these bytes: the checksum and the byte count, separated by a space.
    public static func line<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var crc: UInt32 = 0
        for byte in bytes { crc = (crc << 8) ^ table[Int((crc >> 24) ^ UInt32(byte))] }
        var length = bytes.count
        while length > 0 {
            crc = (crc << 8) ^ table[Int((crc >> 24) ^ UInt32(length & 0xFF))]
            length >>= 8
        }
        return "\(~crc) \(bytes.count)"
    }

    /// `cksum`'s line for a text's UTF-8 bytes.
    public static func line(_ text: String) -> String { line(Array(text.utf8)) }
}
