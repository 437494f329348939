import Foundation
import HoldLabIO
import HoldLabTestSupport
import HoldProfiles
import Testing

/// A small library kept for these tests: profiles named 007, 2024 and NaN, an invalid one, one with a comma, a
/// quote and a pipe in its description, and a population named 1e3.
private let fixture = ProfileLibrary(directory: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Golden/library").path)

@Suite("profiles list, show and check: the jobs")
struct ProfileCommandsTests {
    @Test("list golden: the CSV, the table and a Markdown selection, byte for byte as `holdlab profiles list` wrote them")
    func listGolden() throws {
        let document = ProfileListRequest(library: fixture).result()
        #expect(Golden.relative(document.csv) == (try Golden.text("profiles-list.csv")))
        // The table pads each column to its widest cell, and the invalid profile's message holds the fixture's absolute
        // path, whose length depends on the checkout: compare with runs of padding made one width (the renderer's
        // widths are ResultRenderingTests' to check).
        func unpadded(_ text: String) -> String {
            text.replacingOccurrences(of: " {2,}", with: "  ", options: .regularExpression)
                .replacingOccurrences(of: " +\n", with: "\n", options: .regularExpression)
        }
        #expect(unpadded(Golden.relative(try document.rendered(as: .table))) == unpadded(try Golden.text("profiles-list.table")))
        let markdown = try document.rendered(as: .markdown, columns: ["name", "description", "kind"], comments: false)
        #expect(Golden.relative(markdown) == (try Golden.text("profiles-list.md")))
    }

    @Test("list JSON: a profile named 007, 2024 or NaN and a population named 1e3 stay strings")
    func listJSON() throws {
        let document = ProfileListRequest(library: fixture).result()
        // The evidence counts are numbers for a population, null for a profile.
        #expect(try JSONTypes.of(document) == ["kind": [.string], "name": [.string], "status": [.string], "description": [.string],
                                               "measured": [.null, .number], "assumed": [.null, .number], "unsourced": [.null, .number]])
        let json = try document.rendered(as: .json, columns: ["name"])
        #expect(json == "{\"name\":\"007\"}\n{\"name\":\"2024\"}\n{\"name\":\"NaN\"}\n{\"name\":\"bad\"}\n{\"name\":\"quoted\"}\n{\"name\":\"1e3\"}\n")
    }

    @Test("a library file whose name is not its file name is refused at its name: line, by name, in check and in list")
    func misnamedLibraryFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("holdlab-misnamed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("populations"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Profiles")
        let profile = try String(contentsOf: shipped.appendingPathComponent("hig-linear-bar.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "name: hig-linear-bar", with: "name: wrongname")
        try profile.write(to: directory.appendingPathComponent("misnamed.yaml"), atomically: true, encoding: .utf8)
        let population = try String(contentsOf: shipped.appendingPathComponent("populations/default.yaml"), encoding: .utf8)
        try population.write(to: directory.appendingPathComponent("populations/default.yaml"), atomically: true, encoding: .utf8)
        try population.replacingOccurrences(of: "name: default", with: "name: other")
            .write(to: directory.appendingPathComponent("populations/crowd.yaml"), atomically: true, encoding: .utf8)
        let library = ProfileLibrary(directory: directory.path)
        let path = directory.appendingPathComponent("misnamed.yaml").path
        let line = try #require(profile.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("name:") }) + 1
        do {
            _ = try library.loadProfile("misnamed")
            Issue.record("a misnamed profile loaded")
        } catch {
            #expect(error.description.hasPrefix("\(path):\(line):7: name: 'wrongname' is not the file's name, misnamed"), "\(error)")
            #expect(!error.origin.isOverride)
        }
        guard case .invalid(_, let problems) = try library.check("misnamed") else {
            Issue.record("check passed a misnamed profile")
            return
        }
        #expect(problems.map(\.keyPath) == ["name"])
        #expect(throws: ProfileError.self) { try library.loadPopulation("crowd") }
        #expect(try library.loadPopulation("default").name == "default")
        // A file given by its path outside the library keeps its own name.
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("holdlab-elsewhere-\(UUID().uuidString).yaml")
        try profile.write(to: elsewhere, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        #expect(try ProfileLibrary(directory: shipped.path).loadProfile(elsewhere.path).name == "wrongname")
        let listed = ProfileListRequest(library: library).result().csv
        #expect(listed.contains("profile,misnamed,invalid,") && listed.contains("is not the file's name"), "\(listed)")
    }

    @Test("list: --set reaches every profile; one it breaks is listed invalid with the problem")
    func listOverrides() throws {
        let document = ProfileListRequest(library: fixture, overrides: [try Override(parsing: "fill.duration=-1")]).result()
        let rows = document.tables[0].rows.map { $0.map(\.plainText) }
        #expect(rows.filter { $0[0] == "profile" }.allSatisfy { $0[2] == "invalid" })
        #expect(rows.last == ["population", "1e3", "ok", "everyone holds for two seconds", "0", "0", "2"])
    }

    @Test("list of an empty directory: the provenance and the header only")
    func emptyList() throws {
        let directory = try TemporaryFiles.directory()
        let csv = ProfileListRequest(library: ProfileLibrary(directory: directory.path)).result().csv
        #expect(csv == "# holdlab: \(HoldLabVersion.current) profiles list\n# directory: \(directory.path)\nkind,name,status,description,measured,assumed,unsourced\n")
    }

    @Test("show golden: the profile resolved with an override, as `holdlab profiles show` printed it")
    func showGolden() throws {
        let text = try fixture.resolvedText("007", overrides: [try Override(parsing: "gesture.minimumDuration=0.8")])
        #expect(Golden.relative(text) == (try Golden.text("profiles-show.yaml")))
        let kiko = try Make.library.resolvedText("kikocard-accelerating", overrides: [try Override(parsing: "fill.timer.tick=0.016")])
        #expect(kiko.contains("timer: {tick: 0.016, initialIncrement: 0.0007"))
    }

    @Test("check: a valid file by path or name, every problem of an invalid one, the library's error for an unknown name")
    func check() throws {
        let path = fixture.profilePath("007")
        #expect(try fixture.check(path) == .valid(path: path, name: "007", kind: .profile))
        #expect(try fixture.check("2024") == .valid(path: fixture.profilePath("2024"), name: "2024", kind: .profile))
        guard case .invalid(let badPath, let problems) = try fixture.check("bad") else {
            Issue.record("bad.yaml checked valid")
            return
        }
        #expect(badPath == fixture.profilePath("bad"))
        #expect(problems.map(\.description) == [
            "\(badPath):4:15: fill.model: unknown value 'sprinkler'; allowed: animation, timer, none",
        ])
        #expect(throws: ProfileError.self) { try fixture.check("nosuch") }
        do {
            _ = try fixture.check("./nosuch.yaml")
            Issue.record("a missing file checked")
        } catch {
            #expect(error.cannotOpen)
        }
    }

    @Test("check lists a profile's unknown population beside its other problems, and no problem a set-aside key caused")
    func checkListsEveryProblem() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("holdlab-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func problems(_ name: String, _ text: String) throws -> [String] {
            let path = folder.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            guard case .invalid(_, let problems) = try fixture.check(path) else { return [] }
            return problems.map { problem in
                guard case .file(_, let line, _) = problem.origin else { return "? \(problem.keyPath)" }
                return "\(line) \(problem.keyPath)"
            }
        }
        #expect(try problems("p3.yaml", "version: 1\nname: p3\ndescription: x\ngesture: {minimumDuration: -1}\npopulation: nobody\n")
                == ["4 gesture.minimumDuration", "5 population"])
        // The only class lacks its weight: set aside, it left `classes` empty, which is no problem of the file's.
        let one = "version: 1\nname: nw\nclasses:\n  - name: c\n    intent: confirm\n    behavior: hold\n    hold: {dist: constant, value: 1}\n"
        #expect(try problems("nw.yaml", one) == ["4 classes[0].weight"])
        // A version-2 weight without its value: the value is at fault, not the weight that holds it, nor the classes.
        let valueless = "version: 2\nname: pv\nclasses:\n  - name: a\n    weight: {range: [0.5, 3], source: \"assumption: x\"}\n    intent: confirm\n    behavior: hold\n    hold: {dist: constant, value: 2}\n"
        #expect(try problems("pv.yaml", valueless) == ["5 classes[0].weight.value"])
        // Keys given twice are each one problem, at their second place, and hide nothing else in the file.
        let twice = "version: 1\nname: d9\ndescription: x\ngesture: {minimumDuration: 1.0, maximumDistance: -3}\nfill:\n  curve: linear\n  curve: easeIn\ndisplay: {refreshRate: 5000}\n"
        #expect(try problems("d9.yaml", twice) == ["4 gesture.maximumDistance", "7 fill.curve", "8 display.refreshRate"])
        let review = "profiles: [\"007\", \"2024\"]\npopulations: [\"1e3\"]\nusers: 100\nusers: 200\nvariants:\n  fast: {fill.curve: easeIn, fill.curve: easeOut}\nset: {haptics.onComplete: true, haptics.onComplete: false}\n"
        #expect(try problems("d3.yaml", review) == ["4 users", "6 variants.fast.fill.curve", "7 set.haptics.onComplete"])
    }
}
