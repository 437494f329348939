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
    /// - Throws: `CSVTableError` for a file without a header, a row with the wrong number of fields, or an
    ///   unterminated quote, naming the line.
    public init(text: String, path: String) throws(CSVTableError) {
        self.path = path
        var header: [String]?
        var rows: [(Int, [String])] = []
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = try Self.split(line, path: path, line: lineNumber)
            if let header {
                guard fields.count == header.count else {
                    throw CSVTableError("\(path):\(lineNumber): \(fields.count) fields, but the header has \(header.count)")
                }
                rows.append((lineNumber, fields))
            } else {
                header = fields
            }
        }
        guard let header else { throw CSVTableError("\(path): no header row (the file has no data)") }
        columns = header
        self.rows = rows
    }

    /// The index of a column, or an error listing the columns there are.
    public func column(_ name: String) throws(CSVTableError) -> Int {
        guard let index = columns.firstIndex(of: name) else {
            throw CSVTableError("\(path): no column '\(name)'; columns: \(columns.joined(separator: ", "))")
        }
        return index
    }

    private static func split(_ line: Substring, path: String, line number: Int) throws(CSVTableError) -> [String] {
        var fields: [String] = []
        var current = ""
        var quoted = false
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if quoted {
                if character == "\"" {
                    let next = line.index(after: index)
                    if next < line.endIndex && line[next] == "\"" {
                        current.append("\"")
                        index = next
                    } else {
                        quoted = false
                    }
                } else {
                    current.append(character)
                }
            } else if character == "\"" && current.isEmpty {
                quoted = true
            } else if character == "," {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
            index = line.index(after: index)
        }
        guard !quoted else { throw CSVTableError("\(path):\(number): a quoted field is not closed") }
        fields.append(current)
        return fields
    }
}

/// A problem reading a CSV file, naming the file and line.
public struct CSVTableError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
