#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A CSV file read back whole: `#` lines and blank lines skipped, one header row, quoted fields allowed.
///
/// For large files use ``CSVReader`` (one record at a time, constant memory) or ``CSVNumericColumns``.
public struct CSVTable: Sendable {
    /// Column names from the header row.
    public let columns: [String]
    /// Data rows with the 1-based line number each came from, for error messages.
    public let rows: [(line: Int, fields: [String])]
    /// The file's name in messages.
    public let path: String

    /// Parses CSV text.
    ///
    /// - Throws: `CSVTableError` for a file without a header, a row with the wrong number of fields, or a malformed
    ///   quoted field, naming the line.
    public init(text: String, path: String) throws(CSVTableError) {
        self.path = path
        let reader = CSVReader(bytes: Array(text.utf8), path: path)
        guard let header = try reader.readHeader() else {
            throw CSVTableError(path: path, "no header row (the file has no data)")
        }
        var rows: [(Int, [String])] = []
        while try reader.next() {
            try reader.checkFieldCount()
            rows.append((reader.line, (0..<reader.fieldCount).map { reader.field($0) }))
        }
        columns = header
        self.rows = rows
    }

    /// The index of a column, or an error listing the columns there are.
    public func column(_ name: String) throws(CSVTableError) -> Int {
        guard let index = columns.firstIndex(of: name) else {
            throw CSVTableError(path: path, "no column '\(name)'\(Suggestions.didYouMean(name, among: columns)); columns: \(columns.joined(separator: ", "))")
        }
        return index
    }
}

extension CSVReader {
    /// Why a file whose header is `header` is no CSV but a YAML mapping (a profile, population or review given where
    /// a CSV goes: its header is one "column", `version: 1`), or nil. A mapping's key is followed by a colon and a
    /// space or the line's end (YAML's rule), so a one-column CSV named `t:ms` is a CSV.
    static func yamlProblem(header: [String]) -> String? {
        guard header.count == 1, let first = header.first, let colon = first.firstIndex(of: ":"),
              first[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }),
              !first[..<colon].isEmpty else { return nil }
        let after = first.index(after: colon)
        guard after == first.endIndex || first[after] == " " || first[after] == "\t" else { return nil }
        return "this is a YAML file (its first line is '\(first)'), not a CSV: a profile, population or review goes to "
            + "--profile, --population or --review; this reads a CSV's columns"
    }
}

/// A problem reading a CSV file, naming the file and line.
public struct CSVTableError: Error, Equatable, CustomStringConvertible {
    /// Why a CSV file could not be read, broadly: decides the exit status (66 for ``cannotOpen``, 65 otherwise).
    public enum Kind: Sendable, Equatable {
        /// The file is missing, a directory, or unreadable.
        case cannotOpen
        /// The content is malformed (or a read failed half-way).
        case invalidContent
    }

    public let path: String
    /// The 1-based line of the record at fault, when one is.
    public let line: Int?
    public let reason: String
    /// What went wrong, broadly.
    public let kind: Kind

    public init(path: String, line: Int? = nil, _ reason: String, kind: Kind = .invalidContent) {
        self.path = path
        self.line = line
        self.reason = reason
        self.kind = kind
    }

    public var description: String { line.map { "\(path):\($0): \(reason)" } ?? "\(path): \(reason)" }
}

/// Reads CSV one record at a time from a file (or bytes in memory), in memory bounded by the longest record.
///
/// Format: UTF-8; lines whose first character other than spaces and tabs is `#` and blank lines are skipped (outside
/// quoted fields); a UTF-8 byte-order mark at the start is skipped; the first other line is the header; fields are comma separated and may be double-quoted (`""` is
/// a quote inside quotes; quoted fields may span lines); spaces and tabs around fields and a CR before the newline are
/// ignored, so CRLF files read like LF files; the last line needs no newline. ``line`` is the 1-based line the
/// current record starts on.
///
/// Works on bytes: every delimiter is ASCII, and UTF-8 never uses ASCII bytes inside a multi-byte character. A record
/// is a list of byte ranges into one buffer, refilled in ``chunkSize`` reads; nothing is allocated per field unless
/// the caller asks for a `String` (``field(_:)``). Numbers are parsed from the bytes (``double(_:)``). Bytes that are
/// not UTF-8 are an error, reported at the line they are on. The FNV-1a 64 hash of every byte read is kept in
/// ``contentHash`` (complete once ``next()`` has returned false).
///
/// Not thread-safe: one reader per thread.
public final class CSVReader {
    /// Bytes read from the file per `read(2)`: 1 MiB.
    public static let chunkSize = 1 << 20
    /// The longest record accepted, 64 MiB: beyond it the file is refused rather than read into memory whole.
    public static let maximumRecordBytes = 64 << 20

    /// The file's name in messages.
    public let path: String
    /// The 1-based line the current record (or the header, right after ``readHeader()``) starts on.
    public private(set) var line = 0

    private var buffer: [UInt8]
    /// Valid bytes in `buffer` are `0..<filled`; parsing has consumed `0..<position`.
    private var filled = 0
    private var position = 0
    /// The line number at `position`.
    private var positionLine = 1
    private var descriptor: Int32
    private var atEndOfFile: Bool
    /// Field boundaries of the current record: start and end offsets into `buffer`, and whether the field was
    /// quoted with `""` escapes inside (so its text needs unescaping).
    private var starts: [Int] = []
    private var ends: [Int] = []
    private var escaped: [Bool] = []
    private var columns: [String] = []
    private var hash = FNV1a64()
    /// Continuation bytes still expected by the UTF-8 check, carried across chunks.
    private var utf8Pending = 0
    /// The longest record this reader accepts.
    private let maximumRecordBytes: Int
    /// The line of a byte that is not UTF-8, found when the bytes were given in memory.
    private var invalidUTF8Line: Int?
    /// Whether nothing was parsed yet (a byte-order mark may come first).
    private var atStart = true
    /// A NUL-terminated copy of a numeric field for `strtod`.
    private var scratch = [CChar](repeating: 0, count: 128)

    private static let quote = UInt8(ascii: "\"")
    private static let comma = UInt8(ascii: ",")
    private static let newline = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")
    private static let hashMark = UInt8(ascii: "#")

    /// Opens `path` for streaming.
    ///
    /// - Throws: ``CSVTableError`` of kind ``CSVTableError/Kind/cannotOpen``: "no such file", "is a directory, not a
    ///   file", or "cannot read the file (reason)".
    public convenience init(path: String) throws(CSVTableError) {
        try self.init(path: path, chunkSize: Self.chunkSize)
    }

    /// Opens `path` with reads of `chunkSize` bytes and records up to `maximumRecordBytes` (tests use tiny sizes to
    /// cross every boundary).
    init(path: String, chunkSize: Int, maximumRecordBytes: Int = CSVReader.maximumRecordBytes) throws(CSVTableError) {
        self.maximumRecordBytes = maximumRecordBytes
        if path == "-" {
            // Standard input: streamed like a file (a copy of the descriptor, so closing it leaves descriptor 0).
            self.path = "standard input"
            descriptor = dup(STDIN_FILENO)
            atEndOfFile = false
            buffer = [UInt8](repeating: 0, count: max(1, chunkSize))
            guard descriptor >= 0 else {
                throw CSVTableError(path: self.path, "cannot read it (\(Self.errorText(errno)))", kind: .cannotOpen)
            }
            // A directory given as standard input (`< /tmp`) cannot be opened as data, as a directory named is not.
            var status = stat()
            if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
                close(descriptor)
                descriptor = -1
                throw CSVTableError(path: self.path, "is a directory, not a file", kind: .cannotOpen)
            }
            return
        }
        self.path = path
        var status = stat()
        guard stat(path, &status) == 0 else {
            let reason = errno == ENOENT || errno == ENOTDIR ? "no such file" : "cannot read the file (\(Self.errorText(errno)))"
            throw CSVTableError(path: path, reason, kind: .cannotOpen)
        }
        guard (status.st_mode & S_IFMT) != S_IFDIR else {
            throw CSVTableError(path: path, "is a directory, not a file", kind: .cannotOpen)
        }
        let opened = open(path, O_RDONLY)
        guard opened >= 0 else {
            throw CSVTableError(path: path, "cannot read the file (\(Self.errorText(errno)))", kind: .cannotOpen)
        }
        InputFiles.shared.record(path, status: status)
        descriptor = opened
        atEndOfFile = false
        buffer = [UInt8](repeating: 0, count: max(1, chunkSize))
    }

    /// Reads `bytes` already in memory (`path` names them in messages). Bytes that are not UTF-8 make the first
    /// ``next()`` throw, naming their line.
    public init(bytes: [UInt8], path: String) {
        self.path = path
        descriptor = -1
        atEndOfFile = true
        buffer = bytes
        filled = bytes.count
        maximumRecordBytes = Self.maximumRecordBytes
        if let bad = absorb(0..<bytes.count) {
            invalidUTF8Line = 1 + bytes[..<bad].lazy.filter { $0 == Self.newline }.count
        } else if utf8Pending != 0 {
            invalidUTF8Line = 1 + bytes.lazy.filter { $0 == Self.newline }.count
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The header's column names.
    public var header: [String] { columns }

    /// The FNV-1a 64 hash (16 hex digits) of the bytes read so far: of the whole file once ``next()`` returned false.
    public var contentHash: String { hash.hex }

    /// Reads the header row: its names (trimmed, unquoted), or nil when the file has nothing but `#` lines and blank
    /// lines. A name given twice is refused: every reader takes columns by name, and which of the two it took would
    /// be silent (empty names, a trailing comma's, are not names and may repeat). A YAML file (a profile, population
    /// or review given where a CSV goes) is refused here, for every reader, by what it is (`yamlProblem`): read as a
    /// CSV its first line would be the one column, `version: 1`.
    public func readHeader() throws(CSVTableError) -> [String]? {
        guard try next() else { return nil }
        columns = (0..<fieldCount).map { field($0) }
        // A quoted name is a CSV's field, whatever it holds (`"fill.duration: x"`): the quote precedes its first byte.
        let quoted = starts.first.map { $0 > 0 && buffer[$0 - 1] == Self.quote } ?? false
        if !quoted, let yaml = Self.yamlProblem(header: columns) { throw CSVTableError(path: path, yaml) }
        var first: [String: Int] = [:]
        for (index, name) in columns.enumerated() where !name.isEmpty {
            if let earlier = first[name] {
                throw CSVTableError(path: path, line: line, "the column '\(name)' is given twice in the header (fields "
                                    + "\(earlier + 1) and \(index + 1)); name each column once")
            }
            first[name] = index
        }
        return columns
    }

    /// The index of column `name` in the header, or nil.
    public func index(of name: String) -> Int? { columns.firstIndex(of: name) }

    /// Moves to the next record; false at the end of the input.
    ///
    /// - Throws: ``CSVTableError`` for an unclosed quoted field, text after a closing quote, a record longer than
    ///   ``maximumRecordBytes``, bytes that are not UTF-8, or a failed read.
    public func next() throws(CSVTableError) -> Bool {
        if let invalidUTF8Line { throw CSVTableError(path: path, line: invalidUTF8Line, "is not UTF-8 text") }
        if atStart {
            // A UTF-8 byte-order mark (Excel's "CSV UTF-8") is not part of the first column's name.
            atStart = false
            while filled - position < 3 && !atEndOfFile { try refill() }
            if filled - position >= 3, buffer[position] == 0xEF, buffer[position + 1] == 0xBB, buffer[position + 2] == 0xBF {
                position += 3
            }
        }
        while true {
            // Skip blank lines and # comments; the record starts at the first other line.
            var probe = position
            while true {
                while probe < filled, buffer[probe] == Self.space || buffer[probe] == Self.tab { probe += 1 }
                if probe < filled { break }
                if atEndOfFile { position = filled; return false }
                try refill()
                probe = position
            }
            let first = buffer[probe]
            if first == Self.hashMark || first == Self.newline || first == Self.carriageReturn {
                guard let end = try lineEnd(from: probe) else { position = filled; return false }
                position = end + 1
                positionLine += 1
                continue
            }
            if try parseRecord() { return true }
            // The record ran past the buffer: refill (keeping the record's bytes) and parse it again.
            try refill()
        }
    }

    /// The number of fields in the current record.
    public var fieldCount: Int { starts.count }

    /// Throws "N fields, but the header has M" when the current record's field count differs from the header's.
    public func checkFieldCount() throws(CSVTableError) {
        guard fieldCount == columns.count else {
            throw CSVTableError(path: path, line: line, "\(fieldCount) fields, but the header has \(columns.count)")
        }
    }

    /// Field `index` of the current record as text (unquoted, `""` unescaped, trimmed); allocates a `String`.
    public func field(_ index: Int) -> String {
        let range = starts[index]..<ends[index]
        guard escaped[index] else { return String(decoding: buffer[range], as: UTF8.self) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(range.count)
        var offset = range.lowerBound
        while offset < range.upperBound {
            bytes.append(buffer[offset])
            offset += buffer[offset] == Self.quote ? 2 : 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether field `index` holds exactly the UTF-8 bytes `text`; with `ignoringASCIICase`, ASCII letters match
    /// either case. Allocates nothing for fields without `""` escapes.
    /// Field `index` quoted for a message (`Quoted.value`: a long cell is cut, its length given).
    public func quotedField(_ index: Int) -> String { Quoted.value(field(index)) }

    public func field(_ index: Int, equals text: [UInt8], ignoringASCIICase: Bool = false) -> Bool {
        guard !escaped[index] else {
            let value = Array(field(index).utf8)
            return ignoringASCIICase ? Self.equalIgnoringCase(value[...], text) : value == text
        }
        let slice = buffer[starts[index]..<ends[index]]
        guard slice.count == text.count else { return false }
        return ignoringASCIICase ? Self.equalIgnoringCase(slice, text) : slice.elementsEqual(text)
    }

    /// Field `index` as a number, or nil when it is not one.
    ///
    /// Accepts what C's `strtod` accepts over the whole field, which is what Swift's `Double(String)` accepts: decimal
    /// and hexadecimal floating point with an optional sign, and `nan`, `inf`, `infinity` in any case with an
    /// optional sign (so NumPy's `nan`, `inf`, `-inf`, pandas' `NaN`, JavaScript's `Infinity`). An empty field is not
    /// a number. No `String` is made.
    public func double(_ index: Int) -> Double? {
        let start = starts[index]
        let count = ends[index] - start
        guard count > 0, !escaped[index] else { return nil }
        if let value = Self.simpleDecimal(buffer, start, count) { return value }
        // A number as long as the record allows (`1.000…` of 200 digits is still strtod's): room for it and its NUL.
        if count >= scratch.count { scratch = [CChar](repeating: 0, count: count + 1) }
        return buffer.withUnsafeBufferPointer { bytes in
            scratch.withUnsafeMutableBufferPointer { copy in
                guard let source = bytes.baseAddress, let target = copy.baseAddress else { return nil }
                memcpy(target, source + start, count)
                target[count] = 0
                var end: UnsafeMutablePointer<CChar>?
                let value = strtod(target, &end)
                guard let end, end - target == count else { return nil }
                return value
            }
        }
    }

    // MARK: Parsing

    /// Parses one record starting at `position`; false when it runs past the bytes buffered (and the file has more).
    private func parseRecord() throws(CSVTableError) -> Bool {
        starts.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        escaped.removeAll(keepingCapacity: true)
        var offset = position
        var lines = 0
        let limit = filled
        return try buffer.withUnsafeBufferPointer { (bytes) throws(CSVTableError) -> Bool in
            while true {
                while offset < limit, bytes[offset] == Self.space || bytes[offset] == Self.tab { offset += 1 }
                if offset < limit, bytes[offset] == Self.quote {
                    offset += 1
                    let contentStart = offset
                    var hasEscape = false
                    while true {
                        guard offset < limit else {
                            if atEndOfFile {
                                throw CSVTableError(path: path, line: positionLine, "a quoted field is not closed")
                            }
                            return false
                        }
                        let byte = bytes[offset]
                        if byte == Self.quote {
                            guard offset + 1 < limit || atEndOfFile else { return false }
                            if offset + 1 < limit, bytes[offset + 1] == Self.quote {
                                hasEscape = true
                                offset += 2
                                continue
                            }
                            break
                        }
                        if byte == Self.newline { lines += 1 }
                        offset += 1
                    }
                    starts.append(contentStart)
                    ends.append(offset)
                    escaped.append(hasEscape)
                    offset += 1
                    while offset < limit,
                          bytes[offset] == Self.space || bytes[offset] == Self.tab || bytes[offset] == Self.carriageReturn {
                        offset += 1
                    }
                } else {
                    let start = offset
                    while offset < limit, bytes[offset] != Self.comma, bytes[offset] != Self.newline { offset += 1 }
                    var end = offset
                    while end > start,
                          bytes[end - 1] == Self.space || bytes[end - 1] == Self.tab || bytes[end - 1] == Self.carriageReturn {
                        end -= 1
                    }
                    starts.append(start)
                    ends.append(end)
                    escaped.append(false)
                }
                guard offset < limit else {
                    guard atEndOfFile else { return false }
                    line = positionLine
                    position = offset
                    positionLine += lines
                    return true
                }
                switch bytes[offset] {
                case Self.comma:
                    offset += 1
                case Self.newline:
                    line = positionLine
                    position = offset + 1
                    positionLine += lines + 1
                    return true
                default:
                    throw CSVTableError(path: path, line: positionLine, "text after a closing quote")
                }
            }
        }
    }

    /// The offset of the newline ending the line that contains `offset` (reading more as needed), or nil when the
    /// input ends first.
    private func lineEnd(from offset: Int) throws(CSVTableError) -> Int? {
        var probe = offset
        while true {
            while probe < filled {
                if buffer[probe] == Self.newline { return probe }
                probe += 1
            }
            if atEndOfFile { return nil }
            let consumed = position
            try refill()
            probe -= consumed
        }
    }

    /// Moves the unconsumed bytes to the front of the buffer and reads more after them, growing the buffer when one
    /// record fills it.
    private func refill() throws(CSVTableError) {
        guard !atEndOfFile else { return }
        let remaining = filled - position
        if position > 0 {
            buffer.withUnsafeMutableBufferPointer { bytes in
                guard let base = bytes.baseAddress else { return }
                memmove(base, base + position, remaining)
            }
            filled = remaining
            position = 0
        }
        if filled == buffer.count {
            guard buffer.count < maximumRecordBytes else {
                let limit = maximumRecordBytes >= 1 << 20 ? "\(maximumRecordBytes >> 20) MiB" : "\(maximumRecordBytes) bytes"
                throw CSVTableError(path: path, line: positionLine, "a record longer than \(limit) (an unclosed quote?)")
            }
            buffer.append(contentsOf: repeatElement(0, count: min(buffer.count, maximumRecordBytes - buffer.count)))
        }
        while true {
            let count = buffer.withUnsafeMutableBufferPointer { bytes -> Int in
                guard let base = bytes.baseAddress else { return 0 }
                return read(descriptor, base + filled, bytes.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                // An input that cannot be read is one that cannot be opened (66), not bad data.
                throw CSVTableError(path: path, "cannot read the file (\(Self.errorText(errno)))", kind: .cannotOpen)
            }
            if count == 0 {
                atEndOfFile = true
                close(descriptor)
                descriptor = -1
                if utf8Pending != 0 { throw CSVTableError(path: path, line: positionLine, "is not UTF-8 text") }
            } else {
                let range = filled..<(filled + count)
                filled += count
                try checkUTF8(range)
            }
            return
        }
    }

    /// Hashes the new bytes and checks them as UTF-8, naming the line of the first bad byte.
    private func checkUTF8(_ range: Range<Int>) throws(CSVTableError) {
        if let bad = absorb(range) {
            var line = positionLine
            for offset in position..<bad where buffer[offset] == Self.newline { line += 1 }
            throw CSVTableError(path: path, line: line, "is not UTF-8 text")
        }
    }

    /// FNV-1a over `range` and a UTF-8 check (lead and continuation bytes; overlong forms are not looked for): the
    /// offset of the first bad byte, or nil.
    @discardableResult
    private func absorb(_ range: Range<Int>) -> Int? {
        var hash = self.hash
        var pending = utf8Pending
        var bad: Int?
        buffer.withUnsafeBufferPointer { bytes in
            for offset in range {
                let byte = bytes[offset]
                hash.absorb(byte)
                if pending > 0 {
                    if byte & 0xC0 == 0x80 { pending -= 1 } else if bad == nil { bad = offset }
                } else if byte >= 0x80 {
                    switch byte {
                    case 0xC2...0xDF: pending = 1
                    case 0xE0...0xEF: pending = 2
                    case 0xF0...0xF4: pending = 3
                    default: if bad == nil { bad = offset }
                    }
                }
            }
        }
        self.hash = hash
        utf8Pending = pending
        return bad
    }

    private static func equalIgnoringCase(_ slice: ArraySlice<UInt8>, _ text: [UInt8]) -> Bool {
        guard slice.count == text.count else { return false }
        return zip(slice, text).allSatisfy { a, b in
            a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= UInt8(ascii: "a") && (a | 0x20) <= UInt8(ascii: "z"))
        }
    }

    private static func errorText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text).lowercased()
    }

    /// Powers of ten exactly representable as doubles (10⁰ … 10²²).
    private static let exactPowers: [Double] = (0...22).map { pow(10, Double($0)) }

    /// Plain decimals `[-+]digits[.digits][e[-+]digits]` with at most 15 significant digits and a small enough
    /// exponent, converted exactly (Clinger's fast path: an integer below 2⁵³ times or divided by an exact power of
    /// ten is one correctly rounded operation); nil for anything else, which `strtod` then handles.
    private static func simpleDecimal(_ buffer: [UInt8], _ start: Int, _ count: Int) -> Double? {
        buffer.withUnsafeBufferPointer { bytes -> Double? in
            var offset = start
            let end = start + count
            var negative = false
            if bytes[offset] == UInt8(ascii: "-") || bytes[offset] == UInt8(ascii: "+") {
                negative = bytes[offset] == UInt8(ascii: "-")
                offset += 1
            }
            var mantissa: UInt64 = 0
            var digits = 0
            var scale = 0
            var sawDigit = false
            while offset < end, bytes[offset] &- 48 < 10 {
                mantissa = mantissa &* 10 &+ UInt64(bytes[offset] &- 48)
                if mantissa != 0 { digits += 1 }
                sawDigit = true
                offset += 1
            }
            if offset < end, bytes[offset] == UInt8(ascii: ".") {
                offset += 1
                while offset < end, bytes[offset] &- 48 < 10 {
                    mantissa = mantissa &* 10 &+ UInt64(bytes[offset] &- 48)
                    if mantissa != 0 { digits += 1 }
                    scale -= 1
                    sawDigit = true
                    offset += 1
                }
            }
            guard sawDigit, digits <= 15 else { return nil }
            if offset < end, bytes[offset] | 0x20 == UInt8(ascii: "e") {
                offset += 1
                var exponentNegative = false
                if offset < end, bytes[offset] == UInt8(ascii: "-") || bytes[offset] == UInt8(ascii: "+") {
                    exponentNegative = bytes[offset] == UInt8(ascii: "-")
                    offset += 1
                }
                var exponent = 0
                var exponentDigits = 0
                while offset < end, bytes[offset] &- 48 < 10, exponentDigits < 4 {
                    exponent = exponent * 10 + Int(bytes[offset] &- 48)
                    exponentDigits += 1
                    offset += 1
                }
                guard exponentDigits > 0 else { return nil }
                scale += exponentNegative ? -exponent : exponent
            }
            guard offset == end, abs(scale) <= 22 else { return nil }
            var value = Double(mantissa)
            value = scale < 0 ? value / exactPowers[-scale] : value * exactPowers[scale]
            return negative ? -value : value
        }
    }
}

/// Numeric columns of a CSV file, read streaming (one record at a time): what `fit-curve` needs from sweep output,
/// at any size, in memory for the numbers only.
public struct CSVNumericColumns: Sendable {
    /// What a row with a non-finite value in one of the columns means.
    public enum NonFinite: Sendable {
        /// NaN (any spelling) skips the row and counts it in ``skipped``; ±infinity is an error naming file:line.
        case skipNaNRows
        /// Any non-finite value (NaN or ±infinity, any spelling) skips the row and counts it in ``skipped``:
        /// missing values, as `fit-curve` treats them.
        case skipNonFiniteRows
        /// Any non-finite value is an error naming file:line.
        case reject
    }

    /// One array per requested column, in the order asked for; equal lengths.
    public let values: [[Double]]
    /// The 1-based line each kept row came from.
    public let lines: [Int]
    /// Rows skipped because a value was not finite (``NonFinite/skipNaNRows``, ``NonFinite/skipNonFiniteRows``).
    public let skipped: Int
    /// FNV-1a 64 hash (16 hex digits) of the whole file, for provenance.
    public let contentHash: String

    /// Reads `columns` from the CSV file at `path` (see ``CSVReader`` for the format).
    ///
    /// - Throws: ``CSVTableError``: the file cannot be opened (kind ``CSVTableError/Kind/cannotOpen``), has no
    ///   header, lacks a column (listing the columns there are), a row has the wrong field count, or a value is not a
    ///   number (naming the column, the text and the line).
    public static func read(path: String, columns: [String], nonFinite: NonFinite) throws(CSVTableError) -> CSVNumericColumns {
        try read(CSVReader(path: path), columns: columns, nonFinite: nonFinite)
    }

    /// The same from a reader already made (for text in memory: ``CSVReader/init(bytes:path:)``).
    public static func read(_ reader: CSVReader, columns: [String], nonFinite: NonFinite) throws(CSVTableError) -> CSVNumericColumns {
        let path = reader.path
        guard let header = try reader.readHeader() else {
            throw CSVTableError(path: path, "no header row (the file has no data)")
        }
        var indices: [Int] = []
        for name in columns {
            guard let index = reader.index(of: name) else {
                throw CSVTableError(path: path, "no column '\(name)'; columns: \(header.joined(separator: ", "))")
            }
            indices.append(index)
        }
        var values = [[Double]](repeating: [], count: columns.count)
        var lines: [Int] = []
        var skipped = 0
        var row = [Double](repeating: 0, count: columns.count)
        while try reader.next() {
            try reader.checkFieldCount()
            var skip = false
            for (slot, index) in indices.enumerated() {
                guard let value = reader.double(index) else {
                    throw CSVTableError(path: path, line: reader.line,
                                        "\(columns[slot]): \(reader.quotedField(index)) is not a number")
                }
                if (value.isNaN && nonFinite == .skipNaNRows) || (!value.isFinite && nonFinite == .skipNonFiniteRows) {
                    skip = true
                } else if !value.isFinite {
                    throw CSVTableError(path: path, line: reader.line,
                                        "\(columns[slot]): \(reader.quotedField(index)) is not a finite number")
                }
                row[slot] = value
            }
            if skip {
                skipped += 1
                continue
            }
            for slot in row.indices { values[slot].append(row[slot]) }
            lines.append(reader.line)
        }
        return CSVNumericColumns(values: values, lines: lines, skipped: skipped, contentHash: reader.contentHash)
    }
}
