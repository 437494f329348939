import Foundation
import Testing
@testable import HoldProfiles

@Suite("display.indicator: how the control draws its progress")
struct IndicatorTests {
    static let text = """
        version: 1
        name: test
        description: a test profile
        display: {refreshRate: 120}
        """

    static func load(_ text: String, _ overrides: [String] = []) throws -> Profile {
        try Profile.load(yaml: text, path: "p.yaml", overrides: overrides.map { try Override(parsing: $0) })
    }

    @Test("bar by default; ring when asked; the canonical form names only a ring, so bar hashes did not change")
    func defaultsAndCanonical() throws {
        let bar = try Self.load(Self.text)
        #expect(bar.indicator == .bar)
        #expect(!bar.canonicalYAML.contains("indicator"))
        let explicit = try Self.load(Self.text.replacingOccurrences(of: "{refreshRate: 120}", with: "{refreshRate: 120, indicator: bar}"))
        #expect(explicit.contentHash == bar.contentHash)
        let ring = try Self.load(Self.text, ["display.indicator=ring"])
        #expect(ring.indicator == .ring)
        #expect(ring.canonicalYAML.contains("display: {refreshRate: 120, resolution: 0.001, indicator: ring}"))
        #expect(ring.contentHash != bar.contentHash)
        // The canonical form loads back to the same profile.
        #expect(try Self.load(ring.canonicalYAML).indicator == .ring)
    }

    @Test("an unknown shape names the key, the line and what is allowed")
    func unknown() {
        let text = Self.text.replacingOccurrences(of: "{refreshRate: 120}", with: "{refreshRate: 120, indicator: donut}")
        #expect(throws: ProfileError.self) { try Self.load(text) }
        do { _ = try Self.load(text) } catch {
            #expect("\(error)".contains("p.yaml:4"))
            #expect("\(error)".contains("display.indicator: unknown value 'donut'; allowed: bar, ring"))
        }
    }

    @Test("the shipped ring profiles say ring")
    func shipped() throws {
        let library = ProfileLibrary(directory: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Profiles").path)
        #expect(try library.loadProfile("hig-linear-ring").indicator == .ring)
        #expect(try library.loadProfile("flutter-punyawatdev").indicator == .ring)
        #expect(try library.loadProfile("hig-linear-bar").indicator == .bar)
    }
}
