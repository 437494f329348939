import Testing
@testable import HoldProfiles

@Suite("Library names: one rule for profiles, populations and the files tune and fit write")
struct LibraryNameTests {
    @Test("letters (any script), digits, - and _ name a profile; separators, quotes, # and line breaks do not",
          arguments: [("kikocard-1200ms", true), ("wähler_2", true), ("日本", true), ("a_b-c9", true),
                      ("", false), ("#x", false), ("a b", false), ("a.b", false), ("a,b", false), ("\"q\"", false),
                      ("a\nb", false), ("a/b", false)])
    func names(name: String, valid: Bool) {
        #expect(LibraryName.isValid(name) == valid)
    }

    @Test("a written file's name is its stem when that is a name, nil for '-' and for a stem that is none",
          arguments: [("out/kikocard-1200ms.yaml", "kikocard-1200ms" as String?), ("wähler.yaml", "wähler"),
                      ("ours", "ours"), ("-", nil), ("#t.yaml", nil), ("dir/a b.yaml", nil), ("a.b.yaml", nil)])
    func files(path: String, name: String?) {
        #expect(LibraryName.ofFile(path) == name)
    }

    @Test("a profile and a population whose name breaks the rule are refused with it, at the name's line")
    func refusals() {
        #expect(throws: ProfileError.self) { try Profile.load(yaml: "version: 1\nname: \"a b\"\n", path: "p.yaml") }
        do {
            _ = try Profile.load(yaml: "version: 1\nname: \"a b\"\n", path: "p.yaml")
        } catch {
            #expect(error.description.contains("p.yaml:2:7: name: " + LibraryName.rule("a b")))
        }
    }
}
