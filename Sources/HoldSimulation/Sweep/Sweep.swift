import HoldProfiles

/// What `holdlab sweep` runs: one profile varied over a plan, every point simulated with the same seed.
public struct SweepRequest: Sendable {
    /// The profile's YAML text and the path errors name.
    public var profileText: String
    public var profilePath: String
    /// `--set` overrides applied to every point before the point's own values.
    public var baseOverrides: [Override]
    public var population: Population
    public var plan: SweepPlan
    /// Synthetic users per point.
    public var users: Int
    public var seed: UInt64
    public var threads: Int

    public init(profileText: String, profilePath: String, baseOverrides: [Override], population: Population,
                plan: SweepPlan, users: Int, seed: UInt64, threads: Int) {
        self.profileText = profileText
        self.profilePath = profilePath
        self.baseOverrides = baseOverrides
        self.population = population
        self.plan = plan
        self.users = users
        self.seed = seed
        self.threads = threads
    }
}

/// Parameter sweeps: every point is a `simulate` run of the profile with the point's values `--set`, with the
/// same seed (common random numbers), so a sweep row equals the `simulate` row for those values and curves are
/// smooth. Points are simulated a batch at a time (a batch shares its synthetic people) and reported in order.
public enum Sweep {
    /// Points simulated together; rows are reported after each batch.
    public static let batchSize = 4

    /// The base profile (with the `--set` overrides, before any point's values).
    public static func baseProfile(_ request: SweepRequest) throws(ProfileError) -> Profile {
        try Profile.load(yaml: request.profileText, path: request.profilePath, overrides: request.baseOverrides)
    }

    /// The profile of every point, validated before anything is simulated.
    public static func profiles(_ request: SweepRequest) throws -> [Profile] {
        var profiles: [Profile] = []
        profiles.reserveCapacity(request.plan.points.count)
        for (index, values) in request.plan.points.enumerated() {
            let assignments = zip(request.plan.parameters, values).map { "\($0.keyPath)=\($1)" }
            do {
                let overrides = try assignments.map { text throws(ProfileError) in try Override(parsing: text) }
                profiles.append(try Profile.load(
                    yaml: request.profileText, path: request.profilePath, overrides: request.baseOverrides + overrides))
            } catch {
                throw SweepError("point \(index + 1) (\(assignments.joined(separator: ", "))): \(error)")
            }
        }
        return profiles
    }

    /// The CSV header: the varied keys as `param_…` columns, then the `simulate` columns.
    public static func header(_ plan: SweepPlan) -> String {
        (plan.parameters.map(\.column) + SimulationCSV.columns.map(\.name)).joined(separator: ",")
    }

    /// A data row: the point's values, then its `simulate` row.
    public static func row(values: [String], summary: SimulationSummary) -> String {
        (values.map(CSV.field) + [SimulationCSV.row(summary)]).joined(separator: ",")
    }

    /// The provenance lines that identify a sweep's results; `--resume` requires them to match exactly.
    public static func identity(_ request: SweepRequest, baseProfile: Profile) -> [(String, String)] {
        let vary = request.plan.parameters.map(\.text).joined(separator: " ; ")
        return [
            ("sweep_profile", "\(baseProfile.name) fnv1a64:\(baseProfile.contentHash)"),
            ("sweep_population", "\(request.population.name) fnv1a64:\(request.population.contentHash)"),
            ("sweep_design", "\(request.plan.design.rawValue), \(request.plan.points.count) points, vary \(vary)"),
            ("sweep_users", "\(request.users) per point, seed \(request.seed)"),
        ]
    }

    /// Simulates points from `first` on, in batches, calling `onRows` with each batch's rows in point order.
    ///
    /// - Parameter progress: users simulated so far in this call (over all points).
    public static func run(
        _ request: SweepRequest, profiles: [Profile], from first: Int = 0,
        onRows: ([String]) throws -> Void, progress: ((Int) -> Void)? = nil
    ) throws {
        var start = first
        while start < profiles.count {
            let end = min(profiles.count, start + batchSize)
            let done = (start - first) * request.users
            let summaries = try Simulator.run(
                SimulationRequest(profiles: Array(profiles[start..<end]), population: request.population,
                                  users: request.users, seed: request.seed, threads: request.threads),
                progress: { users in progress?(done + users * (end - start)) })
            try onRows(zip(request.plan.points[start..<end], summaries).map { row(values: $0, summary: $1) })
            start = end
        }
    }

    /// The rows of an earlier run of the same sweep, checked line by line, for `--resume`.
    ///
    /// - Throws: `SweepError` saying what differs when the file came from another profile, population, design,
    ///   user count or seed, or when its rows are not this sweep's points in order.
    public static func completedRows(
        existing text: String, path: String, request: SweepRequest, baseProfile: Profile
    ) throws(SweepError) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        var recorded: [String: String] = [:]
        for line in lines where line.hasPrefix("# ") {
            let body = line.dropFirst(2)
            if let colon = body.firstIndex(of: ":") {
                recorded[String(body[..<colon])] = String(body[body.index(after: colon)...]).trimmedLeading()
            }
        }
        for (key, value) in identity(request, baseProfile: baseProfile) {
            guard let old = recorded[key] else {
                throw SweepError("--resume: \(path) has no '# \(key):' line; it was not written by holdlab sweep")
            }
            if old != value {
                let what = key.replacingOccurrences(of: "sweep_", with: "")
                throw SweepError("--resume: \(path) came from a different \(what) (file: \(old); now: \(value)); remove it or change --out")
            }
        }
        let data = lines.filter { !$0.hasPrefix("#") }
        guard let headerLine = data.first else { return [] }
        guard headerLine == header(request.plan) else {
            throw SweepError("--resume: \(path) has a different header; it was written by another version of holdlab")
        }
        let rows = Array(data.dropFirst())
        guard rows.count <= request.plan.points.count else {
            throw SweepError("--resume: \(path) has \(rows.count) rows but the sweep has \(request.plan.points.count) points")
        }
        for (index, row) in rows.enumerated() {
            let expected = request.plan.points[index].map(CSV.field).joined(separator: ",") + ","
            guard row.hasPrefix(expected) else {
                throw SweepError("--resume: row \(index + 1) of \(path) is not point \(index + 1) of this sweep (\(expected.dropLast()))")
            }
        }
        return rows
    }
}

extension String {
    fileprivate func trimmedLeading() -> String { String(drop { $0 == " " }) }
}
