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

    /// The columns: `profile` or `population`, the name (a file stem, whatever it looks like: `007`), `ok` or
    /// `invalid`, the description or the problem; then, for a population, its evidence at a glance: how many of
    /// its numbers cite a measurement (`measured`), rest on a stated assumption (`assumed`), or say neither
    /// (`unsourced`: every number of a version-1 file). Empty for a profile or an invalid population.
    public static let columns = ["kind", "name", "status", "description"].map { ResultColumn($0, .text) } + [
        ResultColumn("measured", .integer, unit: "count", definition: "numbers whose source cites a measurement (M)"),
        ResultColumn("assumed", .integer, unit: "count", definition: "numbers whose source is 'assumption: …' (U)"),
        ResultColumn("unsourced", .integer, unit: "count", definition: "numbers without a source"),
    ]

    /// One row per profile, then per population, each sorted by name; the provenance names the tool and the
    /// directory.
    public func result() -> ResultDocument {
        let none = Array(repeating: ResultCell.formatted("", value: nil), count: 3)
        func row(_ kind: String, _ name: String, _ load: () throws -> (String, [ResultCell])) -> [ResultCell] {
            do {
                let (description, evidence) = try load()
                return [.text(kind), .text(name), .text("ok"), .text(description)] + evidence
            } catch {
                return [.text(kind), .text(name), .text("invalid"), .text("\(error)")] + none
            }
        }
        let profiles = library.profileNames().map { name in
            // Invalid as `profiles check` says: a profile whose population the library lacks too.
            row("profile", name) {
                let profile = try library.loadProfile(name, overrides: overrides)
                try library.checkPopulation(of: profile)
                return (profile.description, none)
            }
        }
        let populations = library.populationNames().map { name in
            row("population", name) {
                let population = try library.loadPopulation(name)
                let count = population.evidenceCount
                return (population.description, [.integer(count.measured), .integer(count.assumed), .integer(count.unsourced)])
            }
        }
        let provenance = Provenance([("holdlab", "\(HoldLabVersion.current) profiles list"), ("directory", library.directory)])
        return ResultDocument(ResultTable(provenance: provenance, columns: Self.columns, rows: profiles + populations))
    }
}
