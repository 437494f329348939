import GSL
import HoldLabIO
import HoldProfiles
import HoldSimulation

/// What `holdlab sweep` runs: one profile varied over a plan, every point simulated with the same seed.
public struct SweepRequest: Sendable {
    /// The profile's YAML text and the path errors name.
    public var profileText: String
    public var profilePath: String
    /// `--set` overrides applied to every point before the point's own values.
    public var baseOverrides: [Override]
    /// How a point's error names a base override the user did not give as `--set` (by its text: `--variant fast
    /// fill.duration=0.6` for a report's variant baseline); any other is `--set TEXT`.
    public var overrideNames: [String: String] = [:]
    /// The populations, in order, `--set population.…` values applied: every point is simulated against each
    /// (rows population by population), with the point's own population values (`--vary population.…`) applied.
    public var populations: [Population]
    /// The first population.
    public var population: Population { populations[0] }
    public var plan: SweepPlan
    /// Synthetic users per point.
    public var users: Int
    public var seed: UInt64
    /// The GSL generator every point's people and Timer latencies are drawn from (`--rng`).
    public var rng: Generator.Kind
    public var threads: Int
    /// Whether the base profile is a point's (the profile with the `--set`s is valid only with the varied values):
    /// its identity is then the file's text and the `--set`s (`identity`), not a point's resolved profile.
    public var baseStandsIn = false
    /// `--precision`: each point (against each population) stops on its own at the first chunk where it meets every
    /// target, so its row is the `simulate --precision` row of its values; `users` is then the cap.
    public var precision: Precision?

    public init(profileText: String, profilePath: String, baseOverrides: [Override], population: Population,
                plan: SweepPlan, users: Int, seed: UInt64, rng: Generator.Kind = .users, threads: Int) {
        self.init(profileText: profileText, profilePath: profilePath, baseOverrides: baseOverrides, populations: [population],
                  plan: plan, users: users, seed: seed, rng: rng, threads: threads)
    }

    /// A sweep of every point against each of `populations` (at least one).
    public init(profileText: String, profilePath: String, baseOverrides: [Override], populations: [Population],
                plan: SweepPlan, users: Int, seed: UInt64, rng: Generator.Kind = .users, threads: Int) {
        precondition(!populations.isEmpty, "a sweep needs a population")
        self.rng = rng
        self.profileText = profileText
        self.profilePath = profilePath
        self.baseOverrides = baseOverrides
        self.populations = populations
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

    /// The profile of every point (or of the points in `range`: a shard's), validated before anything is simulated;
    /// a point's population values (`population.…` keys) are applied to the populations and checked too.
    public static func profiles(_ request: SweepRequest, points range: Range<Int>? = nil) throws -> [Profile] {
        let range = range ?? request.plan.points.indices
        var profiles: [Profile] = []
        profiles.reserveCapacity(range.count)
        // The first point that does not load, unless a later one's problem is its own values alone (a value its key
        // never takes): that is said wherever it stands, so what is said does not depend on the values' order.
        var first: SweepError?
        for index in range {
            let (assignments, overrides) = try pointOverrides(request, point: index)
            do {
                // Up to 100,000 points: their source trees (for check's fixes) are not kept.
                profiles.append(try Profile.load(
                    yaml: request.profileText, path: request.profilePath,
                    overrides: request.baseOverrides + overrides.filter { !$0.reachesPopulation }).withoutSource())
                if request.plan.variesPopulation { _ = try Population.applying(overrides, to: request.populations) }
            } catch {
                let said = pointError(index, assignments, error, names: request.overrideNames)
                if error.isOwnValue(among: assignments) { throw said }
                first = first ?? said
            }
        }
        if let first { throw first }
        return profiles
    }

    /// The populations of point `index` (0-based), in request order: `request.populations` with the point's
    /// `population.…` values applied.
    public static func populations(_ request: SweepRequest, point index: Int) throws -> [Population] {
        guard request.plan.variesPopulation else { return request.populations }
        let (assignments, overrides) = try pointOverrides(request, point: index)
        do {
            return try Population.applying(overrides, to: request.populations)
        } catch {
            throw pointError(index, assignments, error, names: request.overrideNames)
        }
    }

    /// What the rows from the `first`-th on of the points in `range` (a shard's; every point by default) should know
    /// of the people they simulate (`Population.notes`: a class drawn at 0 s for much of a distribution), each said
    /// once and at the points where it holds: a note that holds at every row of its population is given as it is;
    /// one that holds at some points only (the plan varies that population's values) is given for each such point,
    /// `point 3 (population.intentional.hold.mean=-1): …`, the first `limit` of them, then how many more there are
    /// and where. Notes in `said` (already said by the caller) are left out.
    public static func populationNotes(
        _ request: SweepRequest, points range: Range<Int>? = nil, from first: Int = 0, besides said: [String] = [],
        limit: Int = 8
    ) throws -> [String] {
        let range = range ?? request.plan.points.indices
        let width = range.count
        let total = width * request.populations.count
        guard width > 0, first < total else { return [] }
        var notes: [String] = []
        guard request.plan.variesPopulation else {
            // Every row of a population has its notes.
            for (index, population) in request.populations.enumerated() where (index + 1) * width > first {
                for note in population.notes where !said.contains(note) && !notes.contains(note) { notes.append(note) }
            }
            return notes
        }
        // Each row's notes in its population's class order; then what holds at every row of its population.
        var rows: [(point: Int, notes: [String])] = []
        var order: [String] = []
        var found: [String: (population: Int, rows: Int)] = [:]
        var rowsRun = Array(repeating: 0, count: request.populations.count)
        for row in max(0, first)..<total {
            let (point, index) = (range.lowerBound + row % width, row / width)
            rowsRun[index] += 1
            let notes = try populations(request, point: point)[index].notes.filter { !said.contains($0) }
            for note in notes {
                if found[note] == nil {
                    order.append(note)
                    found[note] = (index, 0)
                }
                found[note]?.rows += 1
            }
            rows.append((point, notes))
        }
        let everywhere = Set(order.filter { note in found[note].map { $0.rows == rowsRun[$0.population] } ?? false })
        notes += order.filter(everywhere.contains)
        // The rest row by row (the CSV's order).
        let atPoints = rows.flatMap { row in row.notes.filter { !everywhere.contains($0) }.map { (point: row.point, note: $0) } }
        for (point, note) in atPoints.prefix(limit) {
            let assignments = (try? pointOverrides(request, point: point).0) ?? []
            notes.append("point \(point + 1) (\(assignments.joined(separator: ", "))): \(note)")
        }
        if atPoints.count > limit {
            let rest = atPoints.dropFirst(limit)
            var points: [Int] = []
            for (point, _) in rest where points.last != point { points.append(point) }
            let shown = points.prefix(10).map { "\($0 + 1)" }.joined(separator: ", ") + (points.count > 10 ? ", …" : "")
            notes.append("and \(rest.count) more like these, at point\(points.count == 1 ? "" : "s") \(shown)")
        }
        return notes
    }

    /// The error of point `index` (0-based): the point and its values, then what is wrong, named by the key path
    /// the sweep varies rather than as a `--set` the user never typed (a `--set` the user did type that is at fault
    /// with the point's values is named as such).
    public static func pointError(_ index: Int, _ assignments: [String], _ error: Error,
                                  names: [String: String] = [:]) -> SweepError {
        SweepError("point \(index + 1) (\(assignments.joined(separator: ", "))): \(pointMessage(assignments, error, names: names))",
                   point: index)
    }

    /// What is wrong with a point of `assignments` (a sweep's, a tune candidate's): a problem of the command
    /// line's values by its key path, each value at fault other than the point's own named (`names`: a variant's
    /// value as `--variant LABEL TEXT` or where a review file writes it; else `--set TEXT`); any other as it is (a
    /// file's, with its place).
    public static func pointMessage(_ assignments: [String], _ error: Error, names: [String: String] = [:]) -> String {
        guard let error = error as? ProfileError, error.origin.isOverride else { return "\(error)" }
        return error.overrides(besides: assignments).map { "\(names[$0] ?? "--set \($0)"): " }.joined() + error.keyedMessage
    }

    /// A point's `key=value` texts and its overrides, profile and population keys alike.
    private static func pointOverrides(_ request: SweepRequest, point index: Int) throws(SweepError) -> ([String], [Override]) {
        try pointOverrides(request.plan, point: index, names: request.overrideNames)
    }

    /// Point `index`'s (0-based) `key=value` texts and its overrides, profile and population keys alike; a value
    /// that is no override is the point's error.
    public static func pointOverrides(_ plan: SweepPlan, point index: Int,
                                      names: [String: String] = [:]) throws(SweepError) -> (assignments: [String], overrides: [Override]) {
        let assignments = zip(plan.parameters, plan.points[index]).map { "\($0.keyPath)=\($1)" }
        do {
            return (assignments, try assignments.map { text throws(ProfileError) in try Override(parsing: text) })
        } catch {
            throw pointError(index, assignments, error, names: names)
        }
    }

    /// The columns: the varied keys as `param_…` columns (numbers when every point's value is one, else text:
    /// `fill.curve=linear,easeIn`), then the `simulate` columns.
    public static func columns(_ plan: SweepPlan) -> [ResultColumn] {
        plan.parameters.indices.map { index in
            let numeric = plan.points.allSatisfy { point in Double(point[index]).map(\.isFinite) ?? false }
            return ResultColumn(plan.parameters[index].column, numeric ? .number : .text)
        } + SimulationCSV.resultColumns
    }

    /// The CSV header.
    public static func header(_ plan: SweepPlan) -> String {
        (plan.parameters.map(\.column) + SimulationCSV.columns.map(\.name)).joined(separator: ",")
    }

    /// A data row: the point's values (as given), then its `simulate` row.
    public static func cells(values: [String], summary: SimulationSummary) -> [ResultCell] {
        values.map { value in Double(value).map { .formatted(CSV.field(value), value: $0) } ?? .text(value) }
            + SimulationCSV.cells(summary)
    }

    /// A data row as CSV.
    public static func row(values: [String], summary: SimulationSummary) -> String {
        cells(values: values, summary: summary).map(\.csvText).joined(separator: ",")
    }

    /// The rows as one typed block under `provenance`.
    public static func table(_ plan: SweepPlan, rows: [[ResultCell]], provenance: Provenance) -> ResultTable {
        ResultTable(provenance: provenance, columns: columns(plan), rows: rows)
    }

    /// The provenance lines that identify a sweep's results; `--resume` requires them to match exactly.
    public static func identity(_ request: SweepRequest, baseProfile: Profile) -> [(String, String)] {
        // A design file's points are identified by their hash (the file name may change; the points may not).
        let vary = request.plan.parameters.map(\.text).joined(separator: " ; ")
            + (request.plan.design == .file ? " ; points fnv1a64:\(request.plan.pointsHash)" : "")
        // A point standing in for the base (`baseStandsIn`) resolves without what its own values make moot, keys
        // that other points read: the file as read and the `--set`s identify the sweep instead, in the order of their
        // texts (no key is given twice, so their order changes nothing).
        let sets = request.baseOverrides.map(\.text).sorted()
        let profile = request.baseStandsIn
            ? "\(baseProfile.name) fnv1a64:\(fnv1a64Hex(([request.profileText] + sets).joined(separator: "\n"))) (the file's text\(sets.isEmpty ? "" : " and --set"): valid only with the varied values)"
            : "\(baseProfile.name) fnv1a64:\(baseProfile.contentHash)"
        return [
            ("sweep_profile", profile),
            ("sweep_population", request.populations.map { "\($0.name) fnv1a64:\($0.contentHash)" }.joined(separator: " ; ")),
            ("sweep_design", "\(request.plan.design.rawValue), \(request.plan.points.count) points, vary \(vary)"),
            ("sweep_users", "\(request.users) per point, seed \(request.seed)"),
            ("rng", request.rng.rawValue),
        ] + (request.precision.map { precision in
            [("sweep_precision", "\(precision): each point stops at the first chunk of \(Simulator.chunkSize) users where every target is met (its users column says where), at most sweep_users")]
        } ?? [])
    }

    /// A point whose run reached `--users` without meeting `--precision`: its values and the targets it missed, so
    /// the warning can give the advice that fits each (`PrecisionOutcome.advice`).
    public struct PointShortfall: Sendable, Equatable {
        public var values: [String]
        public var shortfalls: [PrecisionOutcome.Shortfall]

        /// `0.5 1.2: completion_rate half-width 0.0031 (…), wanted 0.002`.
        public var description: String {
            "\(values.joined(separator: " ")): " + PrecisionOutcome.describe(shortfalls)
        }
    }

    /// What a point's run fell short of when it reached `--users` without meeting `--precision` (nil when it met
    /// it, or without `--precision`): its values, then each target's half-width reached.
    public static func precisionShortfall(_ request: SweepRequest, values: [String], summary: SimulationSummary) -> PointShortfall? {
        guard let precision = request.precision else { return nil }
        let outcome = precision.outcome([summary], cap: request.users)
        guard !outcome.met else { return nil }
        return PointShortfall(values: values, shortfalls: outcome.shortfalls)
    }

    /// `precisionShortfall` of a row read back for `--resume` (its cells, in `columns(plan)` order): the targets its
    /// printed interval misses, when it took every user (a row that stopped before the cap met them), so a resumed
    /// sweep warns of the rows an earlier run capped as the whole run would have.
    public static func precisionShortfall(_ request: SweepRequest, resumed cells: [ResultCell]) -> PointShortfall? {
        guard let precision = request.precision else { return nil }
        let columns = Self.columns(request.plan)
        func text(_ name: String) -> String? {
            columns.firstIndex { $0.name == name }.flatMap { $0 < cells.count ? cells[$0].plainText : nil }
        }
        func value(_ name: String) -> Double? { text(name).flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil } }
        guard let users = value("users"), users >= Double(request.users) else { return nil }
        let row = "\(text("profile") ?? ""), \(text("population") ?? "")"
        let short = precision.targets.compactMap { target in
            PrecisionOutcome.Shortfall(target: target, estimate: value(target.metric), lower: value(target.metric + "_lo"),
                                       upper: value(target.metric + "_hi"), row: row)
        }
        guard !short.isEmpty else { return nil }
        return PointShortfall(values: cells.prefix(request.plan.parameters.count).map(\.plainText), shortfalls: short)
    }

    /// The warning for the points that fell short (`precisionShortfall`), of `rows` run, with the advice that fits
    /// their shortfalls, each kind once (every point's, shown or not); nil when none fell short.
    public static func precisionWarning(_ request: SweepRequest, shortfalls: [PointShortfall], rows: Int) -> String? {
        guard let precision = request.precision, !shortfalls.isEmpty else { return nil }
        return PrecisionOutcome.capWarning(precision, cap: request.users, runs: shortfalls.count, of: rows, noun: "rows",
                                           shown: shortfalls.map(\.description), shortfalls: shortfalls.flatMap(\.shortfalls))
    }

    /// Rows in the file: every point for each population.
    public static func rowCount(_ request: SweepRequest) -> Int { request.plan.points.count * request.populations.count }

    /// Simulates rows from `first` on (row r is point r mod points against population r div points), in batches
    /// within a population, calling `onRows` with each batch's rows in row order.
    ///
    /// - Parameter progress: users simulated so far in this call (over all rows).
    public static func run(
        _ request: SweepRequest, profiles: [Profile], from first: Int = 0,
        onRows: ([[ResultCell]]) throws -> Void, progress: ((Int) -> Void)? = nil
    ) throws {
        try run(request, profiles: profiles, points: 0..<profiles.count, from: first, onRows: onRows, progress: progress)
    }

    /// Simulates the points in `range` (`profiles[i]` is point `range.lowerBound + i`) against each population,
    /// population by population, from the `first`-th of those rows on, in batches within a population. A shard
    /// (`--shard`) is such a range with one population. When the plan varies a population value each point is its
    /// own batch, against its own population: its row is the `simulate` row of that population edited by hand.
    public static func run(
        _ request: SweepRequest, profiles: [Profile], points range: Range<Int>, from first: Int = 0,
        onRows: ([[ResultCell]]) throws -> Void, progress: ((Int) -> Void)? = nil
    ) throws {
        try run(request, profiles: profiles, points: range, from: first, onSummaries: { batch in
            try onRows(batch.map { cells(values: $0.values, summary: $0.summary) })
        }, progress: progress)
    }

    /// `run`, handing on each batch's summaries with their points' values rather than the rows' cells. With
    /// `--precision` every point is its own batch: its run stops on its own.
    public static func run(
        _ request: SweepRequest, profiles: [Profile], points range: Range<Int>, from first: Int = 0,
        onSummaries: ([(values: [String], summary: SimulationSummary)]) throws -> Void, progress: ((Int) -> Void)? = nil
    ) throws {
        let width = range.count
        guard width > 0 else { return }
        let total = width * request.populations.count
        var start = first
        while start < total {
            let offset = start % width
            let end = min(width, offset + (request.plan.variesPopulation || request.precision != nil ? 1 : batchSize))
            let population = try populations(request, point: range.lowerBound + offset)[start / width]
            let done = (start - first) * request.users
            let summaries = try Simulator.run(
                SimulationRequest(profiles: Array(profiles[offset..<end]), population: population,
                                  users: request.users, seed: request.seed, rng: request.rng,
                                  threads: request.threads, precision: request.precision),
                progress: { users in progress?(done + users * (end - offset)) })
            let points = request.plan.points[(range.lowerBound + offset)..<(range.lowerBound + end)]
            try onSummaries(zip(points, summaries).map { (values: $0, summary: $1) })
            start += end - offset
        }
    }

    /// What `--resume` keeps of an earlier run's file.
    public struct Resumption: Sendable, Equatable {
        /// The complete rows, in point order.
        public var rows: [String]
        /// Why the file's last row was dropped (cut off, or not the right number of fields), to say on standard
        /// error; its point is computed again.
        public var dropped: String?
    }

    /// The rows of an earlier run of the same sweep, checked line by line, for `--resume`.
    ///
    /// - Throws: `SweepError` (kind `.data`) saying what differs when the file came from another profile,
    ///   population, design, user count or seed, has another header, or has a damaged row before its last.
    public static func completedRows(
        existing text: String, path: String, request: SweepRequest, baseProfile: Profile
    ) throws(SweepError) -> [String] {
        try resumption(existing: text, path: path, request: request, baseProfile: baseProfile).rows
    }

    /// The rows `--resume` keeps, and what it dropped.
    ///
    /// A file cut in the middle of its last line (no newline at the end), or whose last row has the wrong number
    /// of fields or values that are not this sweep's, loses that row: its point is computed again and the reason
    /// is returned to be said. Anything damaged before the last row, a header that is not this sweep's, or
    /// provenance from another sweep is refused: the file is never extended into a corrupt CSV.
    ///
    /// - Parameter option: the option that names the file (`--out`, sensitivity's `--samples`), for the advice.
    public static func resumption(
        existing text: String, path: String, request: SweepRequest, baseProfile: Profile, option: String = "--out"
    ) throws(SweepError) -> Resumption {
        func refuse(_ message: String) -> SweepError {
            SweepError("--resume: \(path) \(message); remove it or choose another \(option)", kind: .data)
        }
        if text.isEmpty { return Resumption(rows: [], dropped: "\(path) is empty; computing every point") }
        // A file saved again by Excel or a Windows editor (a byte-order mark, CRLF) resumes like the file written.
        let text = CSV.normalizedText(text)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var dropped: String?
        if lines.last == "" {
            lines.removeLast()
        } else {
            let cut = lines.removeLast()
            if !cut.hasPrefix("#") && !cut.isEmpty {
                dropped = "the last line of \(path) was cut off (no newline at its end)"
            }
        }
        var recorded: [String: String] = [:]
        for line in lines {
            if let entry = Provenance.Entry(line: Substring(line)) { recorded[entry.key] = entry.value }
        }
        // Another version may compute other numbers (CHANGELOG.md says which): its rows are not this run's.
        guard let writer = recorded["holdlab"] else {
            throw refuse("has no '# holdlab:' line; it was not written by holdlab sweep, or was written with --no-comments (which --resume cannot read back)")
        }
        let version = writer.split(separator: " ").first.map(String.init) ?? ""
        guard version == HoldLabVersion.current else {
            throw refuse("was written by holdlab \(version), and this is \(HoldLabVersion.current) (a version may move the numbers; CHANGELOG.md says which); finish it with holdlab \(version)")
        }
        if request.precision == nil, let old = recorded["sweep_precision"] {
            throw refuse("came from a different precision (file: \(old); now: none, every point runs --users)")
        }
        for (key, value) in identity(request, baseProfile: baseProfile) {
            if key == "sweep_precision" && recorded[key] == nil {
                throw refuse("came from a different precision (file: none, every point ran --users; now: \(value))")
            }
            guard let old = recorded[key] else {
                throw refuse("has no '# \(key):' line; it was not written by holdlab sweep, or was cut off, or was written with --no-comments (which --resume cannot read back)")
            }
            if old != value {
                let what = key.replacingOccurrences(of: "sweep_", with: "")
                let named = ["users": "users and seed", "rng": "generator"][what] ?? what
                throw refuse("came from a different \(named) (file: \(old); now: \(value))")
            }
        }
        let data = lines.filter { !$0.hasPrefix("#") && !$0.isEmpty }
        guard let headerLine = data.first else {
            return Resumption(rows: [], dropped: dropped.map { "\($0); computing every point" })
        }
        let expectedHeader = header(request.plan)
        guard headerLine == expectedHeader else {
            throw refuse("has a different header (\(headerLine.prefix(80))…); it was not written by this sweep and version of holdlab")
        }
        let columns = expectedHeader.split(separator: ",").map(String.init)
        var rows = Array(data.dropFirst())
        guard rows.count <= rowCount(request) else {
            throw refuse("has \(rows.count) rows but the sweep has \(rowCount(request)) (points × populations)")
        }
        for (index, row) in rows.enumerated() {
            guard let problem = problem(with: row, point: index, columns: columns, request: request, baseProfile: baseProfile) else {
                continue
            }
            if index == rows.count - 1 {
                rows.removeLast()
                let reason = dropped ?? "row \(index + 1) of \(path) \(problem)"
                return Resumption(rows: rows, dropped: "\(reason); computing point \(index + 1) again")
            }
            throw refuse("row \(index + 1) \(problem)")
        }
        if let dropped { return Resumption(rows: rows, dropped: "\(dropped); computing point \(rows.count + 1) again") }
        return Resumption(rows: rows, dropped: nil)
    }

    /// What is wrong with a row of an earlier run, or nil when it is point `point`'s complete row.
    private static func problem(
        with row: String, point index: Int, columns: [String], request: SweepRequest, baseProfile: Profile
    ) -> String? {
        let point = index % request.plan.points.count
        let population = request.populations[index / request.plan.points.count]
        guard let fields = CSV.splitRecord(row) else { return "ends inside a quoted field" }
        guard fields.count == columns.count else {
            return "has \(fields.count) fields where the header has \(columns.count)"
        }
        let expected = request.plan.points[point].map(CSV.field).joined(separator: ",") + ","
        guard row.hasPrefix(expected) else {
            return "is not point \(point + 1) of this sweep (\(expected.dropLast()))"
        }
        if let empty = zip(columns, fields).first(where: { $0.1.isEmpty }) {
            return "has no value in column \(empty.0)"
        }
        // With --precision a point's users are where it stopped: at most --users (checked below).
        let known: [(String, String)] = [
            ("profile", baseProfile.name), ("population", population.name), ("seed", "\(request.seed)"),
        ] + (request.precision == nil ? [("users", "\(request.users)")] : [])
        if request.precision != nil, let index = columns.firstIndex(of: "users") {
            if let problem = ShardMerge.precisionUsersProblem(fields[index], cap: request.users) { return "has users \(problem)" }
        }
        for (column, value) in known {
            if let index = columns.firstIndex(of: column), fields[index] != value {
                return "has \(column) \(Quoted.value(fields[index])) where this sweep has '\(value)'"
            }
        }
        // Its values are kept as they are: they must be ones a simulation writes, as merge checks a shard's.
        if let problem = ShardMerge.summaryRowProblem(columns: columns, fields: fields) { return "is not a row holdlab wrote: \(problem)" }
        return nil
    }
}
