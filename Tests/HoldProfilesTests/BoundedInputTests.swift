import Foundation
import Testing
@testable import HoldProfiles

private let base = """
    version: 1
    name: test
    description: a test profile
    gesture: {minimumDuration: 1.0, maximumDistance: 10}
    trigger: {source: gesture, offset: 0}
    fill: {start: touchDown, model: animation, curve: linear, duration: match}

    """

private func failure(_ text: String, overrides: [String] = []) -> ProfileError? {
    do {
        _ = try Profile.load(yaml: text, path: "p.yaml", overrides: overrides.map { try Override(parsing: $0) })
        return nil
    } catch let error as ProfileError {
        return error
    } catch {
        return nil
    }
}

@Suite("An action cannot fire before its gesture is recognised")
struct ActionBeforeRecognitionTests {
    @Test("gesture source: a negative offset fires before recognition, by the clock's nanosecond too",
          arguments: ["-0.3", "-0.000001", "-0.999", "-1e-9"])
    func gestureSource(offset: String) throws {
        let error = try #require(failure(base, overrides: ["trigger.offset=\(offset)"]))
        #expect(error.keyPath == "trigger.offset" && error.message.contains("before the gesture recognises at 1000 ms"))
    }

    @Test("gesture source: offset 0 and positive offsets are fine")
    func gestureSourceFine() {
        #expect(failure(base) == nil)
        #expect(failure(base, overrides: ["trigger.offset=0.2"]) == nil)
    }

    @Test("fill source: a fill from touch-down that completes before recognition, unless the offset makes up for it")
    func fillSource() throws {
        let early = try #require(failure(base, overrides: ["trigger.source=fill", "fill.duration=0.7"]))
        #expect(early.message.contains("fires the action at 700 ms (the fill's completion + offset)"))
        #expect(early.message.contains("use an offset of at least 0.3 s"))
        #expect(failure(base, overrides: ["trigger.source=fill", "fill.duration=0.7", "trigger.offset=0.3"]) == nil)
        #expect(failure(base, overrides: ["trigger.source=fill", "fill.duration=0.7", "fill.delay=0.3"]) == nil)
        // A fill that starts at recognition always completes after it.
        #expect(failure(base, overrides: ["trigger.source=fill", "fill.duration=0.1", "fill.start=recognized"]) == nil)
        let pulled = try #require(failure(base, overrides: ["trigger.source=fill", "fill.duration=0.1", "fill.start=recognized",
                                                           "trigger.offset=-0.2"]))
        #expect(pulled.message.contains("fires the action at 900 ms"))
    }

    @Test("a --set that breaks the rule is reported at the override")
    func overrideOrigin() throws {
        let error = try #require(failure(base, overrides: ["trigger.offset=-0.3"]))
        #expect(error.origin == .override("trigger.offset=-0.3"))
    }
}

@Suite("YAML input is bounded")
struct BoundedYAMLTests {
    @Test("anchors and aliases are refused before they expand", arguments: [
        "description: &a x\nsource: *a\n", "description: x\ngesture: &g {minimumDuration: 1}\n", "description: [&a 1, *a]\n",
    ])
    func anchors(text: String) throws {
        let error = try #require(failure("version: 1\nname: t\n" + text))
        #expect(error.message.contains("anchors and aliases"))
    }

    @Test("& and * inside text are not anchors")
    func notAnchors() {
        #expect(failure(base.replacingOccurrences(of: "a test profile", with: "press & hold *firmly* a&b")) == nil)
        #expect(failure(base.replacingOccurrences(of: "a test profile", with: "'&quoted *too*'")) == nil)
        // After a comma in a plain scalar (a citation, emphasis), and in a block scalar's lines.
        #expect(failure(base.replacingOccurrences(of: "a test profile", with: "fill 1.0 s, *not* 0.8 s")) == nil)
        #expect(failure(base.replacingOccurrences(of: "a test profile", with: "Smith, Jones, &c. 2019")) == nil)
        #expect(failure(base.replacingOccurrences(of: "description: a test profile", with: "description: |\n  *one*\n  &two\n")) == nil)
    }

    @Test("an anchor after a lone quote in a block scalar is still found: the parser finds them, not the text")
    func anchorsAfterQuote() throws {
        let text = base.replacingOccurrences(of: "description: a test profile", with: "description: >-\n  'tis a control\n")
            + "source: &s x\nx-note: *s\n"
        let error = try #require(failure(text))
        #expect(error.message.contains("anchors and aliases"))
    }

    @Test("brackets in text do not nest; flow collections after a block scalar still do")
    func bracketsInText() throws {
        let many = String(repeating: "[", count: 40)
        #expect(failure(base.replacingOccurrences(of: "a test profile", with: "x" + many)) == nil)
        #expect(failure(base.replacingOccurrences(of: "description: a test profile",
                                                  with: "description: |\n  " + many + "\n  " + String(repeating: "{", count: 40) + "\n")) == nil)
        let deep = base.replacingOccurrences(of: "description: a test profile", with: "description: |\n  text\nsource: "
            + many + String(repeating: "]", count: 40))
        #expect(try #require(failure(deep)).message.contains("nested more than 32 deep"))
    }

    @Test("deep nesting, long lists, many values and large texts are refused with one message")
    func limits() throws {
        let deep = "version: 1\nname: t\ndescription: " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "\n"
        #expect(try #require(failure(deep)).message.contains("nested more than 32 deep"))
        let list = "version: 1\nname: t\ndescription: [" + Array(repeating: "1", count: 1_001).joined(separator: ",") + "]\n"
        #expect(try #require(failure(list)).message.contains("a list of 1001 items; at most 1000"))
        let values = "version: 1\nname: t\ndescription: x\n" + (0..<12_000).map { "k\($0): [1]" }.joined(separator: "\n")
        #expect(try #require(failure(values)).message.contains("more than 20000 values"))
        let large = base + String(repeating: "#", count: ProfileLibrary.maximumYAMLBytes)
        #expect(try #require(failure(large)).message.contains("bytes of YAML"))
    }

    @Test("a key twice is refused where it is given again, with its key path and where it was first",
          arguments: [
            ("version: 1\nname: t\nname: again\n", "t.yaml:3:1: name: given twice (first at line 2, column 1); give it once"),
            ("version: 1\nname: t\nfill:\n  curve: linear\n  curve: easeIn\n",
             "t.yaml:5:3: fill.curve: given twice (first at line 4, column 3); give it once"),
            // Quoted keys, on one line of a flow mapping: the column is the file's.
            ("version: 1\nname: t\ngesture: {\"minimumDuration\": 1, 'minimumDuration': 2}\n",
             "t.yaml:3:33: gesture.minimumDuration: given twice (first at line 3, column 11); give it once"),
            ("version: 2\nname: p\nclasses:\n  - name: a\n    hold: {dist: constant, value: 1, value: 2}\n",
             "t.yaml:5:38: classes[0].hold.value: given twice (first at line 5, column 28); give it once"),
            // Another key given twice elsewhere does not hide the one the parser names.
            ("a: {z: 1, z: 2, y: 3, y: 4}\nb: 1\nb: 2\n", "t.yaml:1:23: a.y: given twice (first at line 1, column 17); give it once"),
            ("b: 1\nb: 2\nx:\n  é: 1\n  é: 2\n", "t.yaml:5:3: x.é: given twice (first at line 4, column 3); give it once"),
          ])
    func duplicateKey(yaml: String, message: String) throws {
        do {
            _ = try ConfigNode.parse(yaml, path: "t.yaml")
            Issue.record("\(yaml) was accepted")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("reading files: missing, directory, too large, not UTF-8 are told apart")
    func reading() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("holdlab-read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func readError(_ path: String, limit: Int = ProfileLibrary.maximumYAMLBytes) -> ProfileError? {
            do { _ = try ProfileLibrary.read(path, what: "profile", limit: limit); return nil } catch { return error }
        }
        let missing = try #require(readError(directory.appendingPathComponent("none.yaml").path))
        #expect(missing.cannotOpen && missing.message == "no such profile file")
        let folder = try #require(readError(directory.path))
        #expect(folder.cannotOpen && folder.message == "is a directory, not a profile file")
        let big = directory.appendingPathComponent("big.yaml")
        try Data(repeating: 0x23, count: 101).write(to: big)
        let tooLarge = try #require(readError(big.path, limit: 100))
        #expect(!tooLarge.cannotOpen && tooLarge.message.contains("larger than 100 bytes"))
        #expect(readError(big.path, limit: 101) == nil)
        let binary = directory.appendingPathComponent("bin.yaml")
        try Data([0x61, 0x0A, 0x62, 0xFF]).write(to: binary)
        let notText = try #require(readError(binary.path))
        #expect(!notText.cannotOpen && notText.message.contains("byte 4 is 0xff") && notText.origin == .file(path: binary.path, line: 2, column: 1))
    }
}
