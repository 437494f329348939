import Foundation

/// CSV conventions shared by every command (DOMAIN §11): comma separated, provenance on leading `#` lines that
/// gnuplot skips, one header row of snake_case names, `NaN` for a missing value.
public enum CSV {
    /// CSV text as HoldLab's line-based readers take it: a leading UTF-8 byte-order mark (Excel's "CSV UTF-8")
    /// dropped and CRLF line ends made LF, so a file saved by Excel or checked out on Windows reads like the file
    /// HoldLab wrote (whose hashes and seals cover the LF text). ``CSVReader`` does the same as it streams.
    public static func normalizedText(_ text: String) -> String {
        var text = text
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        guard text.utf8.contains(UInt8(ascii: "\r")) else { return text }
        return text.replacingOccurrences(of: "\r\n", with: "\n")
    }

    /// `# key: value` provenance lines.
    public static func provenance(_ entries: [(String, String)]) -> String {
        // Control characters escaped as `Provenance.lines` escapes them: a newline in a value (a file name, a
        // question) must not end the line and turn the rest into a CSV record.
        entries.map { "# \(Provenance.escaped($0.0)): \(Provenance.escaped($0.1))\n" }.joined()
    }

    /// A number with a fixed count of decimals, `NaN` when absent or not finite, and no `-0.000`.
    public static func number(_ value: Double?, decimals: Int) -> String {
        var bytes: [UInt8] = []
        appendNumber(value, decimals: decimals, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `number(value, decimals:)` appended to `bytes`: what per-user rows are built with, a byte at a time (a row
    /// of Strings cost about 3 µs: most of a `--per-user` run).
    @inlinable @inline(__always)
    public static func appendNumber(_ value: Double?, decimals: Int, to bytes: inout [UInt8]) {
        guard let value, value.isFinite else {
            bytes.append(contentsOf: [UInt8(ascii: "N"), UInt8(ascii: "a"), UInt8(ascii: "N")])
            return
        }
        appendFormatted(value, decimals: decimals, to: &bytes, signedZero: false)
    }

    /// `%.Nf` exactly as the C library prints it (the binary value's exact decimal expansion, ties to even), by
    /// integer arithmetic for the values a CSV holds (|value| < 10¹⁵, up to 9 decimals) and `String(format:)`
    /// otherwise. Per-user rows format millions of numbers; Foundation's formatter costs microseconds each.
    static func formatted(_ value: Double, decimals: Int) -> String {
        var bytes: [UInt8] = []
        appendFormatted(value, decimals: decimals, to: &bytes, signedZero: true)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `formatted(value, decimals:)`; without `signedZero`, a negative value that prints as zero
    /// (`-0.000`) loses its sign.
    @inlinable
    public static func appendFormatted(_ value: Double, decimals: Int, to bytes: inout [UInt8], signedZero: Bool) {
        guard decimals >= 0 && decimals <= 9, value.isFinite, abs(value) < 1e15 else {
            var text = String(format: "%.\(decimals)f", value)
            if !signedZero, text.hasPrefix("-"), text.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) {
                text.removeFirst()
            }
            bytes.append(contentsOf: text.utf8)
            return
        }
        let magnitude = abs(value)
        var power: UInt64 = 1
        for _ in 0..<decimals { power &*= 10 }
        var digits: UInt128 = 0
        if magnitude != 0 {
            // magnitude = significand × 2^exponent exactly; scale by 10^decimals, then shift right rounding ties to even.
            let significand = UInt128(magnitude.significandBitPattern | (magnitude.isNormal ? 1 << 52 : 0))
            let exponent = (magnitude.isNormal ? Int(magnitude.exponent) : -1022) - 52
            let scaled = significand &* UInt128(power)
            let shift = -exponent  // > 0: magnitude < 2^50
            if shift < 127 {
                digits = scaled >> shift
                let remainder = scaled & ((1 << shift) &- 1)
                let half: UInt128 = 1 << (shift - 1)
                if remainder > half || (remainder == half && digits & 1 == 1) { digits &+= 1 }
            }
        }
        let negative = value.sign == .minus && (signedZero || digits != 0)
        // The text is built backwards in a buffer of 32 bytes (at most a sign, 16 whole digits, a point and 9
        // decimals), then appended at once. Below 10¹⁵ · 10⁹ the digits may pass 64 bits; the whole part (at most
        // 10¹⁵) and the fraction never do.
        var whole: UInt64
        var fraction: UInt64
        if digits >> 64 == 0 {
            let low = UInt64(truncatingIfNeeded: digits)
            (whole, fraction) = low.quotientAndRemainder(dividingBy: power)
        } else {
            whole = UInt64(digits / UInt128(power))
            fraction = UInt64(digits % UInt128(power))
        }
        var buffer: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &buffer) { text in
            var start = 32
            if decimals > 0 {
                for _ in 0..<decimals {
                    start -= 1
                    text[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction % 10)
                    fraction /= 10
                }
                start -= 1
                text[start] = UInt8(ascii: ".")
            }
            repeat {
                start -= 1
                text[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: whole % 10)
                whole /= 10
            } while whole > 0
            if negative {
                start -= 1
                text[start] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[start...]).assumingMemoryBound(to: UInt8.self))
        }
    }

    /// The decimal digits of `value` (no sign, no leading zeros; "0" for 0).
    @inlinable @inline(__always)
    public static func appendDigits(of value: UInt64, to bytes: inout [UInt8]) {
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: UInt64.max has 20 digits
        var remaining = value
        withUnsafeMutableBytes(of: &buffer) { text in
            var start = 24
            repeat {
                start -= 1
                text[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining % 10)
                remaining /= 10
            } while remaining > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[start...]).assumingMemoryBound(to: UInt8.self))
        }
    }

    /// `"\(value)"` appended to `bytes`.
    @inlinable @inline(__always)
    public static func appendInteger(_ value: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(of: UInt64(value.magnitude), to: &bytes)
    }

    /// A number with `significant` significant digits (`%g`), `NaN` when absent or not finite.
    public static func number(_ value: Double?, significant: Int) -> String {
        guard let value, value.isFinite else { return "NaN" }
        return String(format: "%.\(significant)g", value)
    }

    /// A field, quoted when it contains a comma, quote or newline.
    public static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The fields of one CSV record written by `field` (double-quoted fields with `""` inside); nil when a quote
    /// is left open (the record was cut off).
    public static func splitRecord(_ line: String) -> [String]? {
        var fields: [String] = []
        var current = ""
        var quoted = false
        var iterator = line.makeIterator()
        var pending: Character? = nil
        while let character = pending ?? iterator.next() {
            pending = nil
            if quoted {
                if character == "\"" {
                    if let next = iterator.next() {
                        if next == "\"" { current.append("\"") } else { quoted = false; pending = next }
                    } else {
                        quoted = false
                    }
                } else {
                    current.append(character)
                }
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if quoted { return nil }
        fields.append(current)
        return fields
    }

    /// The fields of a record (a record with an open quote counts as one field).
    public static func fields(_ line: String) -> [String] { splitRecord(line) ?? [line] }

    /// The command line as typed, each argument quoted for a POSIX shell when it needs it.
    public static func commandLine(_ arguments: [String]) -> String {
        arguments.map { argument in
            let safe = argument.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,+@%".contains($0) }
            return safe && !argument.isEmpty ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }
}
