/// A CSV file read back: `#` lines and blank lines skipped, one header row, quoted fields allowed.
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
        var records = CSVRecords(text, path: path)
        guard let header = try records.next() else {
            throw CSVTableError(path: path, "no header row (the file has no data)")
        }
        var rows: [(Int, [String])] = []
        while let record = try records.next() {
            guard record.fields.count == header.fields.count else {
                throw CSVTableError(path: path, line: record.line,
                                    "\(record.fields.count) fields, but the header has \(header.fields.count)")
            }
            rows.append((record.line, record.fields))
        }
        columns = header.fields
        self.rows = rows
    }

    /// The index of a column, or an error listing the columns there are.
    public func column(_ name: String) throws(CSVTableError) -> Int {
        guard let index = columns.firstIndex(of: name) else {
            throw CSVTableError(path: path, "no column '\(name)'; columns: \(columns.joined(separator: ", "))")
        }
        return index
    }
}

/// A problem reading a CSV file, naming the file and line.
public struct CSVTableError: Error, Equatable, CustomStringConvertible {
    public let path: String
    /// The 1-based line of the record at fault, when one is.
    public let line: Int?
    public let reason: String

    public init(path: String, line: Int? = nil, _ reason: String) {
        self.path = path
        self.line = line
        self.reason = reason
    }

    public var description: String { line.map { "\(path):\($0): \(reason)" } ?? "\(path): \(reason)" }
}

/// A CSV record: its fields and the line it starts on.
struct CSVRecord {
    var fields: [String]
    var line: Int
}

/// Splits CSV text into records, skipping `#` lines and blank lines (outside quoted fields).
///
/// Works on UTF-8 bytes: every delimiter is ASCII, and UTF-8 never uses ASCII bytes inside a multi-byte character,
/// so fields split correctly and decode back to the same text (a byte per character of a typical CSV, where an
/// array of Unicode scalars would take four).
struct CSVRecords {
    private let bytes: [UInt8]
    private let path: String
    private var position = 0
    private var line = 1

    private static let quote = UInt8(ascii: "\"")
    private static let comma = UInt8(ascii: ",")
    private static let newline = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")
    private static let hash = UInt8(ascii: "#")

    init(_ text: String, path: String) {
        bytes = Array(text.utf8)
        self.path = path
    }

    /// The next record, or nil at the end of the text.
    mutating func next() throws(CSVTableError) -> CSVRecord? {
        while position < bytes.count {
            // A line that is blank or a # comment is skipped whole.
            var probe = position
            while probe < bytes.count, bytes[probe] == Self.space || bytes[probe] == Self.tab { probe += 1 }
            if probe >= bytes.count {
                position = probe
                return nil
            }
            let first = bytes[probe]
            if first == Self.hash || first == Self.newline || first == Self.carriageReturn {
                skipLine()
                continue
            }
            return try record()
        }
        return nil
    }

    private mutating func skipLine() {
        while position < bytes.count, bytes[position] != Self.newline { position += 1 }
        if position < bytes.count {
            position += 1
            line += 1
        }
    }

    private mutating func record() throws(CSVTableError) -> CSVRecord {
        let startLine = line
        var fields: [String] = []
        while true {
            let (field, ended) = try field(startLine: startLine)
            fields.append(field)
            if ended { return CSVRecord(fields: fields, line: startLine) }
        }
    }

    private func isBlank(_ byte: UInt8) -> Bool {
        byte == Self.space || byte == Self.tab || byte == Self.carriageReturn
    }

    /// One field; `ended` is true when it was the record's last.
    private mutating func field(startLine: Int) throws(CSVTableError) -> (String, ended: Bool) {
        while position < bytes.count, bytes[position] == Self.space || bytes[position] == Self.tab { position += 1 }
        if position < bytes.count, bytes[position] == Self.quote {
            position += 1
            var text: [UInt8] = []
            while true {
                guard position < bytes.count else {
                    throw CSVTableError(path: path, line: startLine, "a quoted field is not closed")
                }
                let byte = bytes[position]
                position += 1
                if byte == Self.quote {
                    if position < bytes.count, bytes[position] == Self.quote {
                        text.append(Self.quote)
                        position += 1
                        continue
                    }
                    break
                }
                if byte == Self.newline { line += 1 }
                text.append(byte)
            }
            while position < bytes.count, isBlank(bytes[position]) { position += 1 }
            return try endOfField(String(decoding: text, as: UTF8.self), startLine: startLine)
        }
        let start = position
        while position < bytes.count, bytes[position] != Self.comma, bytes[position] != Self.newline { position += 1 }
        var end = position
        while end > start, isBlank(bytes[end - 1]) { end -= 1 }
        return try endOfField(String(decoding: bytes[start..<end], as: UTF8.self), startLine: startLine)
    }

    private mutating func endOfField(_ text: String, startLine: Int) throws(CSVTableError) -> (String, ended: Bool) {
        guard position < bytes.count else { return (text, true) }
        switch bytes[position] {
        case Self.comma:
            position += 1
            return (text, false)
        case Self.newline:
            position += 1
            line += 1
            return (text, true)
        default:
            throw CSVTableError(path: path, line: startLine, "text after a closing quote")
        }
    }
}

