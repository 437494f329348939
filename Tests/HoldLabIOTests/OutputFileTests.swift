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

    @Test("a path in a folder that does not exist yet is inside it (or the same) however it is written")
    func newFolders() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("holdlab-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("sub"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = directory.path
        let review = root + "/review"  // not created
        #expect(OutputFile.isInside(root + "/review/page.html", folder: review))
        #expect(OutputFile.isInside(root + "/sub/../review/./x/../page.html", folder: review + "/"))
        #expect(OutputFile.isInside(review + "/", folder: review))
        #expect(!OutputFile.isInside(root + "/review/../page.html", folder: review))
        #expect(!OutputFile.isInside(root + "/reviewed.html", folder: review))
        #expect(OutputFile.sameFile(review, root + "/sub/../review/"))
        #expect(OutputFile.sameFile(review + "/a/b.csv", root + "/review/a/./b.csv"))
        #expect(!OutputFile.sameFile(review + "/a/b.csv", root + "/review/b.csv"))
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

    @Test("outputs renamed together: all replaced, or, when one rename fails, every destination as it was")
    func renameTogether() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("holdlab-group-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        func text(_ name: String) -> String? { try? String(contentsOfFile: path(name), encoding: .utf8) }
        try "old a".write(toFile: path("a"), atomically: true, encoding: .utf8)
        try "new a".write(toFile: path("ta"), atomically: true, encoding: .utf8)
        try "new b".write(toFile: path("tb"), atomically: true, encoding: .utf8)
        // b is a non-empty folder: renaming a file over it fails after a was replaced, so a gets its old file back.
        try FileManager.default.createDirectory(atPath: path("b/keep"), withIntermediateDirectories: true)
        #expect(throws: OutputError.self) { try OutputFile.renameTogether([(path("ta"), path("a")), (path("tb"), path("b"))]) }
        #expect(text("a") == "old a")
        #expect(FileManager.default.fileExists(atPath: path("b/keep")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["a", "b", "tb"])
        // A new destination that was created is removed again when a later one fails.
        #expect(throws: OutputError.self) { try OutputFile.renameTogether([(path("tb"), path("c")), (path("none"), path("d"))]) }
        #expect(!FileManager.default.fileExists(atPath: path("c")) && !FileManager.default.fileExists(atPath: path("d")))
        // Both succeed: both replaced, nothing set aside left.
        try FileManager.default.removeItem(atPath: path("b"))
        try "new a".write(toFile: path("ta"), atomically: true, encoding: .utf8)
        try "new b".write(toFile: path("tb"), atomically: true, encoding: .utf8)
        try OutputFile.renameTogether([(path("ta"), path("a")), (path("tb"), path("b"))])
        #expect(text("a") == "new a" && text("b") == "new b")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["a", "b"])
    }

    @Test("an OutputGroup whose second file cannot be written commits neither")
    func groupCommitsTogether() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("holdlab-group-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("first.csv").path
        try "old\n".write(toFile: first, atomically: true, encoding: .utf8)
        do {
            let group = OutputGroup()
            try group.write(.file(first), "new\n")
            #expect(throws: OutputError.self) { try group.write(.file("/dev/full"), String(repeating: "x", count: 1 << 17)) }
        }
        // The run failed; the group went away uncommitted and its temporary with it.
        #expect(try String(contentsOfFile: first, encoding: .utf8) == "old\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["first.csv"])
        let second = OutputGroup()
        try second.write(.file(first), "newer\n")
        try second.commit()
        #expect(try String(contentsOfFile: first, encoding: .utf8) == "newer\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["first.csv"])
    }
}
