import Foundation
import Testing
@testable import HoldLabIO

@Suite("CSV reader: streaming, byte-level, errors at file:line")
struct CSVReaderTests {
    /// Writes `text` to a fresh temporary file.
    static func file(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("holdlab-csv-\(UUID().uuidString).csv")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Every record as (line, fields), from `reader`.
    static func records(_ reader: CSVReader) throws -> [(Int, [String])] {
        var result: [(Int, [String])] = []
        if let header = try reader.readHeader() { result.append((reader.line, header)) }
        while try reader.next() { result.append((reader.line, (0..<reader.fieldCount).map { reader.field($0) })) }
        return result
    }

    static let tricky = "# comment\r\n  # indented comment\n\nname , t,flag\r\n"
        + "\"a, \"\"quoted\"\" name\", 1.5 ,true\r\n"
        + "\"two\nlines\",\"2.25\" , 0\n"
        + "\t\n"
        + "plain,3e-1,1"

    @Test("quotes, CRLF, comment and blank lines, a field over two lines, no final newline: fields and line numbers")
    func trickyText() throws {
        let records = try Self.records(CSVReader(bytes: Array(Self.tricky.utf8), path: "t.csv"))
        #expect(records.map(\.0) == [4, 5, 6, 9])
        #expect(records.map(\.1) == [["name", "t", "flag"], ["a, \"quoted\" name", "1.5", "true"],
                                     ["two\nlines", "2.25", "0"], ["plain", "3e-1", "1"]])
    }

    @Test("a UTF-8 byte-order mark and CRLF: the same records as without, in memory and in chunks of 1 to 5 bytes")
    func byteOrderMark() throws {
        let plain = try Self.records(CSVReader(bytes: Array(Self.tricky.utf8), path: "t.csv"))
        let marked = [UInt8]([0xEF, 0xBB, 0xBF]) + Array(Self.tricky.replacingOccurrences(of: "\n", with: "\r\n").utf8)
        let fromMemory = try Self.records(CSVReader(bytes: marked, path: "t.csv"))
        #expect(fromMemory.map(\.1).first == plain.map(\.1).first, "the header's first name has no BOM")
        #expect(fromMemory.map(\.0) == plain.map(\.0))
        let path = try Self.file(String(decoding: marked, as: UTF8.self))
        defer { try? FileManager.default.removeItem(atPath: path) }
        for chunk in 1...5 {
            let got = try Self.records(CSVReader(path: path, chunkSize: chunk))
            #expect(got.map(\.1).first == ["name", "t", "flag"], "chunk \(chunk)")
            #expect(got.count == plain.count, "chunk \(chunk)")
        }
        // Only at the start: a BOM later is data, and a file of a BOM alone has no header.
        #expect(try CSVReader(bytes: [0xEF, 0xBB, 0xBF], path: "b.csv").readHeader() == nil)
        #expect(try CSVTable(text: "a,b\n\u{FEFF}x,1\n", path: "m.csv").rows[0].fields[0] == "\u{FEFF}x")
        #expect(try CSVTable(text: "\u{FEFF}hold_s\r\n1\r\n", path: "e.csv").column("hold_s") == 0)
        #expect(CSV.normalizedText("\u{FEFF}a,b\r\n1,2\r\n") == "a,b\n1,2\n")
    }

    @Test("a header that names a column twice is refused, with the line and both fields; empty names may repeat")
    func repeatedColumnNames() throws {
        #expect(throws: CSVTableError(path: "d.csv", line: 2,
                                      "the column 't' is given twice in the header (fields 1 and 3); name each column once")) {
            try CSVTable(text: "# made by hand\nt,x,t\n1,2,3\n", path: "d.csv")
        }
        // Quoting and spaces do not make a name different; a trailing comma's empty names are no names.
        #expect(throws: CSVTableError.self) { try CSVTable(text: "a, \"a\"\n1,2\n", path: "q.csv") }
        #expect(try CSVTable(text: "a,b,,\n1,2,,\n", path: "e.csv").columns == ["a", "b", "", ""])
    }

    @Test("a YAML file is refused by the header itself, for every reader; a one-column CSV named with a colon is a CSV")
    func yamlWhereACSVGoes() throws {
        let yaml = "# a profile\nversion: 1\nname: h\ndescription: x\n"
        let message = "this is a YAML file (its first line is 'version: 1'), not a CSV: a profile, population or review "
            + "goes to --profile, --population or --review; this reads a CSV's columns"
        // The header reader, the whole-table reader (whatever column is asked for next) and the numeric columns.
        #expect(throws: CSVTableError(path: "h.yaml", message)) {
            try CSVReader(bytes: Array(yaml.utf8), path: "h.yaml").readHeader()
        }
        #expect(throws: CSVTableError(path: "h.yaml", message)) { try CSVTable(text: yaml, path: "h.yaml") }
        #expect(throws: CSVTableError(path: "h.yaml", message)) {
            try CSVNumericColumns.read(CSVReader(bytes: Array(yaml.utf8), path: "h.yaml"), columns: ["version: 1"],
                                       nonFinite: .reject)
        }
        // A key with nothing after it (a mapping's start) is YAML too.
        #expect(throws: CSVTableError.self) { try CSVTable(text: "profile:\n  name: x\n", path: "r.yaml") }
        // A colon inside a name (a unit), and a header of two fields, are a CSV's.
        let table = try CSVTable(text: "t:ms\n1\n2\n", path: "t.csv")
        #expect(table.columns == ["t:ms"] && table.rows.count == 2)
        #expect(try CSVTable(text: "version: 1,b\n1,2\n", path: "v.csv").columns == ["version: 1", "b"])
        // A quoted name is a field, not a YAML key (the second probe of 0.3.18).
        #expect(try CSVTable(text: "\"fill.duration: x\"\n0.6\n", path: "q.csv").columns == ["fill.duration: x"])
    }

    @Test("streaming from a file in chunks of 1 to 17 bytes gives the same records, lines and hash as in memory")
    func chunkBoundaries() throws {
        let path = try Self.file(Self.tricky)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let memory = CSVReader(bytes: Array(Self.tricky.utf8), path: path)
        let expected = try Self.records(memory)
        for chunk in 1...17 {
            let reader = try CSVReader(path: path, chunkSize: chunk)
            let got = try Self.records(reader)
            #expect(got.map(\.0) == expected.map(\.0), "chunk \(chunk)")
            #expect(got.map(\.1) == expected.map(\.1), "chunk \(chunk)")
            #expect(reader.contentHash == memory.contentHash)
        }
        #expect(memory.contentHash == fnv1a64HexForTest(Self.tricky))
    }

    @Test("numbers: decimal, exponent, hex, and nan/inf/infinity in any case with signs; not numbers: empty, 1e, 1.2.3")
    func numbers() throws {
        let cells: [(String, Double?)] = [
            ("0", 0), ("-0.5", -0.5), ("+2", 2), ("1e3", 1000), ("2.5E-3", 0.0025), (".5", 0.5), ("5.", 5),
            ("0.1", 0.1), ("123456789012345678901", Double("123456789012345678901")), ("1e-320", Double("1e-320")), ("1e400", .infinity),
            ("0x1p-2", 0.25), ("0.30000000000000004", 0.30000000000000004), ("inf", .infinity), ("-inf", -.infinity),
            ("Infinity", .infinity), ("-INFINITY", -.infinity), ("INF", .infinity), ("", nil), ("1e", nil),
            ("1.2.3", nil), ("abc", nil), ("1,5", nil), ("- 1", nil),
        ]
        let text = "x\n" + cells.map { $0.0.contains(",") || $0.0.isEmpty ? "\"\($0.0)\"" : $0.0 }.joined(separator: "\n") + "\n"
        let reader = CSVReader(bytes: Array(text.utf8), path: "n.csv")
        _ = try reader.readHeader()
        for (cell, expected) in cells {
            #expect(try reader.next())
            let value = reader.double(0)
            #expect(value == expected, "'\(cell)': \(String(describing: value))")
            // Agrees with Swift's own parser.
            #expect(value == Double(cell) || (value == nil && Double(cell) == nil), "'\(cell)'")
        }
        for spelling in ["nan", "NaN", "NAN", "-nan", "+NaN"] {
            let nan = CSVReader(bytes: Array("x\n\(spelling)\n".utf8), path: "n.csv")
            _ = try nan.readHeader()
            #expect(try nan.next())
            #expect(nan.double(0)?.isNaN == true, "\(spelling)")
        }
    }

    @Test("decimal fast path and strtod agree bit for bit on 20,000 random decimals of 1 to 17 digits")
    func fastPathAgrees() throws {
        var state: UInt64 = 12345
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 11
        }
        var cells: [String] = []
        for _ in 0..<20_000 {
            let digits = Int(next() % 17) + 1
            let mantissa = String(next() % UInt64(pow(10, Double(digits))))
            let exponent = Int(next() % 60) - 30
            cells.append(next() % 2 == 0 ? "\(mantissa)e\(exponent)" : "0.\(mantissa)")
        }
        let reader = CSVReader(bytes: Array(("x\n" + cells.joined(separator: "\n")).utf8), path: "r.csv")
        _ = try reader.readHeader()
        for cell in cells {
            #expect(try reader.next())
            #expect(reader.double(0)?.bitPattern == Double(cell)?.bitPattern, "\(cell)")
        }
    }

    @Test("errors name file:line: unclosed quote, text after a quote, field count, bad UTF-8, missing file, directory")
    func errors() throws {
        func message(_ text: String) -> String {
            do {
                _ = try Self.records(CSVReader(bytes: Array(text.utf8), path: "e.csv"))
                let reader = CSVReader(bytes: Array(text.utf8), path: "e.csv")
                _ = try reader.readHeader()
                while try reader.next() { try reader.checkFieldCount() }
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(message("a,b\n1,2\n\"3,4\n") == "e.csv:3: a quoted field is not closed")
        #expect(message("a,b\n# c\n1,\"2\"x\n") == "e.csv:3: text after a closing quote")
        #expect(message("a,b\n\"x\ny\",2\n1,2,3\n") == "e.csv:4: 3 fields, but the header has 2")

        var bytes = Array("a\n1\n2\n".utf8)
        bytes.insert(0xFF, at: 4)
        let path = try Self.file("")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        do {
            let reader = try CSVReader(path: path, chunkSize: 3)
            _ = try Self.records(reader)
            Issue.record("expected an error")
        } catch {
            #expect("\(error)" == "\(path):3: is not UTF-8 text")
        }
        // Bytes given in memory too: the first next() names the line.
        do {
            _ = try Self.records(CSVReader(bytes: Array("a\n1\n".utf8) + [0xFF, 0x0A], path: "m.csv"))
            Issue.record("expected an error")
        } catch {
            #expect("\(error)" == "m.csv:3: is not UTF-8 text")
        }
        // A quote never closed: the record grows to the limit, then the file is refused instead of read whole.
        let unclosed = try Self.file("a,b\n1,\"" + String(repeating: "x,y\n", count: 100))
        defer { try? FileManager.default.removeItem(atPath: unclosed) }
        do {
            _ = try Self.records(CSVReader(path: unclosed, chunkSize: 16, maximumRecordBytes: 64))
            Issue.record("expected an error")
        } catch {
            #expect("\(error)" == "\(unclosed):2: a record longer than 64 bytes (an unclosed quote?)")
        }
        for (missing, reason) in [("/nonexistent/x.csv", "no such file"),
                                  (FileManager.default.temporaryDirectory.path, "is a directory, not a file")] {
            do {
                _ = try CSVReader(path: missing)
                Issue.record("expected an error")
            } catch {
                #expect(error.kind == .cannotOpen && error.reason == reason)
            }
        }
    }

    @Test("numeric columns, streaming: NaN rows skipped (any spelling), infinity refused at its line, hash of the file")
    func numericColumns() throws {
        let text = "# sweep\nx,note,y\n1,a,2\n2,\"b,c\",nan\nNaN,d,4\n3,e,6\r\n"
        let path = try Self.file(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let columns = try CSVNumericColumns.read(path: path, columns: ["x", "y"], nonFinite: .skipNaNRows)
        #expect(columns.values == [[1, 3], [2, 6]] && columns.lines == [3, 6] && columns.skipped == 2)
        #expect(columns.contentHash == fnv1a64HexForTest(text))
        do {
            _ = try CSVNumericColumns.read(CSVReader(bytes: Array("x,y\n1,2\n2,-Infinity\n".utf8), path: "i.csv"),
                                           columns: ["x", "y"], nonFinite: .skipNaNRows)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "i.csv:3: y: '-Infinity' is not a finite number")
        }
        do {
            _ = try CSVNumericColumns.read(CSVReader(bytes: Array("x,y\n1,2\n".utf8), path: "i.csv"),
                                           columns: ["x", "z"], nonFinite: .reject)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "i.csv: no column 'z'; columns: x, y")
        }
    }
}

/// FNV-1a 64 of the text's UTF-8 bytes, written out independently of the reader.
func fnv1a64HexForTest(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
}
