import HoldLabIO

/// `holdlab profiles list`: every profile and population of a library, loaded, with its description or its problem.
public struct ProfileListRequest: Sendable {
    public var library: ProfileLibrary
    /// `--set` overrides applied to every profile (a profile they break is listed invalid).
    public var overrides: [Override]

    public init(library: ProfileLibrary, overrides: [Override] = []) {
        self.library = library
        self.overrides = overrides
    }

    /// The columns, all text: `profile` or `population`, the name (a file stem, whatever it looks like: `007`),
    /// `ok` or `invalid`, and the description or the problem.
    public static let columns = ["kind", "name", "status", "description"].map { ResultColumn($0, .text) }

    /// One row per profile, then per population, each sorted by name; the provenance names the tool and the
    /// directory.
    public func result() -> ResultDocument {
        func row(_ kind: String, _ name: String, _ load: () throws -> String) -> [ResultCell] {
            do {
                return [.text(kind), .text(name), .text("ok"), .text(try load())]
            } catch {
                return [.text(kind), .text(name), .text("invalid"), .text("\(error)")]
            }
        }
        let profiles = library.profileNames().map { name in
            row("profile", name) { try library.loadProfile(name, overrides: overrides).description }
        }
        let populations = library.populationNames().map { name in
            row("population", name) { try library.loadPopulation(name).description }
        }
        let provenance = Provenance([("holdlab", "\(HoldLabVersion.current) profiles list"), ("directory", library.directory)])
        return ResultDocument(ResultTable(provenance: provenance, columns: Self.columns, rows: profiles + populations))
    }
}
