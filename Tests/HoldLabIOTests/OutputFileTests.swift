import Foundation
import Testing
@testable import HoldLabIO

@Suite("The output layer: directories of any path, same-file detection, atomic files")
struct OutputFileTests {
    @Test("the directory of a path", arguments: [
        ("x", "."), (".", "."), ("..", "."), ("a/b", "a"), ("/x", "/"), ("a/b/c.csv", "a/b"), ("./x", "."), ("a/", "a"),
    ])
    func directory(path: String, expected: String) {
        #expect(OutputFile.directory(of: path) == expected)
    }

    @Test("two paths to one file are the same output; devices never are")
    func sameFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("holdlab-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("sub"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = directory.appendingPathComponent("a.csv").path
        #expect(OutputFile.sameFile(a, directory.path + "/./a.csv"))
        #expect(OutputFile.sameFile(a, directory.path + "/sub/../a.csv"))
        #expect(!OutputFile.sameFile(a, directory.path + "/b.csv"))
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/l.csv", withDestinationPath: "a.csv")
        #expect(OutputFile.sameFile(a, directory.path + "/l.csv"))  // dangling: a.csv does not exist yet
        try Data("x".utf8).write(to: URL(fileURLWithPath: a))
        #expect(OutputFile.sameFile(a, directory.path + "/l.csv"))  // existing: same inode
        #expect(!OutputFile.sameFile("/dev/null", "/dev/null"))
        #expect(!OutputFile.sameFile("-", "-"))
    }

    @Test("a partial file appears only when committed; discarded, it leaves nothing")
    func partialFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("holdlab-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("p.csv").path
        let file = try PartialFile(path: path)
        try file.write("a,b\n")
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 1)
        file.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        let kept = try PartialFile(path: path)
        try kept.write("a,b\n")
        try kept.commit()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "a,b\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["p.csv"])
    }

    @Test("errors have kinds: cannot create (a directory, a missing one) and write failures (/dev/full)")
    func kinds() throws {
        #expect(throws: OutputError.self) { try OutputFile.file(".").checkWritable() }
        do { try OutputFile.file("/nonexistent-dir/x").write("x") } catch { #expect(error.kind == .cannotCreate) }
        do { try OutputFile.file("/dev/full").write("x") } catch { #expect(error.kind == .writeFailed) }
    }
}
