import HoldLabIO
/// `holdlab merge`: shard files back into the unsharded run's CSV.
///
/// Shards are added one at a time. Every one must be complete and unchanged (`ShardFile`), of the same kind,
/// plan and N as the first; none may come twice, and `finish` names any missing. Sweep rows are kept (they are
/// the output); a simulation shard's tallies are merged into one tally per profile as it is added, so memory does
/// not grow with users or with the number of shards.
public final class ShardMerge {
    /// The merged file's parts.
    public struct Result: Sendable {
        public let kind: ShardFormat.Kind
        /// The merged file: what the unsharded run writes.
        public let table: ResultTable
        /// N, and what the shards held ("64 points", "2442 chunks").
        public let shards: Int
        public let units: String
    }

    private struct First {
        let path: String
        let file: ShardFile
    }

    private var first: First?
    private var seen: [Int: String] = [:]
    private var sweepRows: [Int: [String]] = [:]
    private var profiles: [String] = []
    private var tallies: [Tally] = []

    public init() {}

    /// Checks and takes in one shard file's text.
    public func add(path: String, text: String) throws(ShardError) {
        let file = try ShardFile(path: path, text: text)
        if let first {
            let reference = first.file
            guard file.kind == reference.kind else {
                throw ShardError("\(path) is a \(file.kind.rawValue) shard but \(first.path) is a \(reference.kind.rawValue) shard; merge the shards of one run")
            }
            guard file.plan == reference.plan else {
                throw ShardError("\(path) is from another plan than \(first.path) (\(Self.difference(file, reference))); merge the shards of one run")
            }
            guard file.shard.count == reference.shard.count else {
                throw ShardError("\(path) is shard \(file.shard) but \(first.path) is shard \(reference.shard); the run was cut into different numbers of shards")
            }
        } else {
            first = First(path: path, file: file)
        }
        if let earlier = seen[file.shard.index] {
            throw ShardError("shard \(file.shard) is given twice: \(earlier) and \(path)")
        }
        seen[file.shard.index] = path
        switch file.kind {
        case .sweep:
            try checkSweepRows(file)
            sweepRows[file.shard.index] = file.rows
        case .simulate:
            try addTallies(file)
        }
    }

    /// A sweep shard's rows are the finished rows, not tallies: each must be one a simulation writes
    /// (`summaryRowProblem`) and of this plan's profile, populations and seed (the sweep's provenance lines).
    private func checkSweepRows(_ file: ShardFile) throws(ShardError) {
        let columns = file.header.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let recorded = Dictionary(file.provenance, uniquingKeysWith: { first, _ in first })
        let profile = recorded["sweep_profile"].map(Self.name)
        let populations = recorded["sweep_population"].map { $0.components(separatedBy: " ; ").map(Self.name) }
        let seed = recorded["sweep_users"].flatMap { $0.split(separator: " ").last.map(String.init) }
        // `N per point, seed S`: every point's users, or with --precision the cap where a point stops at the latest.
        let cap = recorded["sweep_users"].flatMap { $0.split(separator: " ").first.map(String.init) }
        let precise = recorded["sweep_precision"] != nil
        for (number, row) in file.rows.enumerated() {
            guard let fields = CSV.splitRecord(row), fields.count == columns.count else {
                throw ShardError("\(file.path): row \(number + 1) does not have the \(columns.count) fields of the header")
            }
            // The plan's facts first (what the row says it is of), then whether a simulation writes it.
            var problem: String?
            do {
                func value(_ name: String) -> String? { columns.firstIndex(of: name).map { fields[$0] } }
                if let profile, let given = value("profile"), given != profile {
                    problem = "profile \(Quoted.value(given)) is not the sweep's, \(profile)"
                } else if let populations, let given = value("population"), !populations.contains(given) {
                    problem = "population \(Quoted.value(given)) is not one of the sweep's (\(populations.joined(separator: ", ")))"
                } else if let seed, let given = value("seed"), given != seed {
                    problem = "seed \(Quoted.value(given)) is not the sweep's, \(seed)"
                } else if let cap, let given = value("users") {
                    if !precise, given != cap {
                        problem = "users \(Quoted.value(given)) is not the sweep's, \(cap) per point"
                    } else if precise, let limit = Int(cap), let users = Self.precisionUsersProblem(given, cap: limit) {
                        problem = "users \(users)"
                    }
                }
            }
            problem = problem ?? Self.summaryRowProblem(columns: columns, fields: fields)
            if let problem {
                throw ShardError("\(file.path): row \(number + 1): \(problem); no simulation writes that, so this is not a shard holdlab wrote")
            }
        }
    }

    /// Why `text` is no users count a run with `--precision` and `--users cap` stops at (`'16385', which a run with
    /// --precision cannot stop at: …`), or nil: it stops at the end of a chunk of `Simulator.chunkSize` users, or at
    /// the cap.
    public static func precisionUsersProblem(_ text: String, cap: Int) -> String? {
        if let users = Int(text), users >= 1, users <= cap, users == cap || users % Simulator.chunkSize == 0 { return nil }
        return "\(Quoted.value(text)), which a run with --precision cannot stop at: it stops after a whole number of "
            + "chunks of \(Simulator.chunkSize) users, or at --users \(cap)"
    }

    /// What is wrong with a summary row (a sweep's, read back by `merge` or `--resume`; its columns may have others
    /// before them) that no simulation writes, or nil: a number column that is not a finite number or NaN, counts
    /// whose relations break (users = intent + accidental users, completed at most the intent users), a rate or
    /// bound outside [0, 1], or a relation between its statistics (`sweepRowProblem`).
    public static func summaryRowProblem(columns: [String], fields: [String]) -> String? {
        func index(_ name: String) -> Int? { columns.firstIndex(of: name) }
        for column in SimulationCSV.columns where column.isNumeric {
            guard let position = index(column.name), position < fields.count else { continue }
            let text = fields[position]
            if text == "NaN" { continue }
            guard let value = Double(text), value.isFinite else {
                return "\(column.name) \(Quoted.value(text)) is not a number (a finite number, or NaN where it is undefined)"
            }
        }
        // Counts are whole numbers as a simulation writes them (not NaN, 1.0, +1 or 0x1).
        for name in ["users"] + Metric.all.compactMap({ if case .count = $0.kind { $0.name } else { nil } }) {
            guard let position = index(name), position < fields.count else { continue }
            guard let count = Int(fields[position]), count >= 0, String(count) == fields[position] else {
                return "\(name) \(Quoted.value(fields[position])) is not a count (a whole number from 0)"
            }
        }
        // The rows' counts are the tally's events by the same column names: the same relations hold.
        if let broken = Tally.countProblem({ event in index(TallyCoding.column(of: event)).flatMap { Int(fields[$0]) } }) {
            return broken
        }
        // A rate is undefined only over nobody.
        for ratio in Metric.countRatios {
            if let rate = index(ratio.rate), fields[rate] == "NaN", let over = index(ratio.denominator), let count = Int(fields[over]), count > 0 {
                return "\(ratio.rate) is NaN where \(ratio.denominator) is \(count)"
            }
        }
        // Times and counts of pulses are never negative (a mismatch can be: the bar looked full after the action).
        for metric in Metric.all {
            switch metric.kind {
            case .mean(let value), .quantile(let value, _), .maximum(let value), .minimum(let value):
                guard value != .mismatch, let position = index(metric.name), let number = Double(fields[position]), number < 0 else { continue }
                return "\(metric.name) \(fields[position]) is negative"
            case .count, .rate:
                continue
            }
        }
        // Every numeric cell is a number or NaN by now (above).
        for (position, column) in columns.enumerated() where position < fields.count && Metric.rateColumns.contains(column) {
            if let value = Double(fields[position]), !value.isNaN, !(0...1).contains(value) {
                return "\(column) \(fields[position]) is not a rate (0 to 1, or NaN)"
            }
        }
        if let problem = sweepRowProblem(columns: columns, fields: fields) { return problem }
        // Every statistic is written with its metric's decimals, as `CSV.number` writes them: not `+0.877719`,
        // `.877719`, `8.77719e-1`, `0.8777190` or `-0.000`, which `--resume` would keep as they are.
        for (position, column) in columns.enumerated() where position < fields.count {
            guard let decimals = Self.decimalsByColumn[column], fields[position] != "NaN" else { continue }
            let text = fields[position], written = CSV.number(Double(text), decimals: decimals)
            if written != text {
                return "\(column) \(Quoted.value(text)) is not written as a simulation writes it (\(written): \(decimals) decimals)"
            }
        }
        return nil
    }

    /// The decimals of every statistic's columns (its value and interval bounds), as a summary row writes them.
    static let decimalsByColumn: [String: Int] = Dictionary(Metric.all.flatMap { metric -> [(String, Int)] in
        if case .count = metric.kind { return [] }
        return [metric.name, metric.name + "_lo", metric.name + "_hi"].map { ($0, metric.decimals) }
    }, uniquingKeysWith: { first, _ in first })

    /// The relations every summary row holds between its printed columns: a rate is its counts' ratio where both
    /// are columns (to its 6 decimals), each estimate within its interval, the registry's order of one value's
    /// statistics (`Metric.orderedPairs`: quantiles in order and at most their maximum, a mean between its minimum
    /// and maximum), and a pulse rate only where a completed hold had two pulses. Nil when they hold.
    static func sweepRowProblem(columns: [String], fields: [String]) -> String? {
        func value(_ name: String) -> Double? {
            columns.firstIndex(of: name).flatMap { Double(fields[$0]) }.flatMap { $0.isNaN ? nil : $0 }
        }
        for ratio in Metric.countRatios {
            if let name = ratio.numerator, let numerator = value(name), let denominator = value(ratio.denominator), denominator > 0,
               let rate = value(ratio.rate), abs(rate - numerator / denominator) > 1e-6 {
                return "\(ratio.rate) \(rate) is not \(name) / \(ratio.denominator) (\(numerator) / \(denominator))"
            }
        }
        // Every intent user has one outcome, so the outcome rates over them sum to 1, and the two reasons to let go
        // early are parts of letting go early (each rate to its 6 decimals: half a millionth of rounding each).
        if let completed = value("completion_rate"), let early = value("premature_release_rate"),
           let cancelled = value("movement_cancel_rate"), abs(completed + early + cancelled - 1) > 2e-6 {
            return "completion_rate + premature_release_rate + movement_cancel_rate is \(completed + early + cancelled), not 1: every intent user has one outcome"
        }
        if let early = value("premature_release_rate"), let impatient = value("premature_impatience_rate"),
           let mismatched = value("premature_mismatch_rate"), impatient + mismatched > early + 2e-6 {
            return "premature_impatience_rate + premature_mismatch_rate exceeds premature_release_rate \(early)"
        }
        // Whoever gave up at their patience had no feedback.
        if let impatient = value("premature_impatience_rate"), let none = value("no_feedback_rate"), impatient > none + 1e-6 {
            return "premature_impatience_rate \(impatient) exceeds no_feedback_rate \(none): who gave up at their patience had no feedback"
        }
        var ordered = Metric.orderedPairs.map { ($0.smaller, $0.larger) }
        for name in columns where columns.contains(name + "_lo") && columns.contains(name + "_hi") {
            ordered += [(name + "_lo", name), (name, name + "_hi")]
        }
        for (smaller, larger) in ordered {
            guard let a = value(smaller), let b = value(larger), a > b + abs(b) * 1e-12 else { continue }
            return "\(smaller) \(a) is above \(larger) \(b)"
        }
        if value("peak_pulse_rate_hz") != nil, let most = value("pulses_max"), most < 2 {
            return "peak_pulse_rate_hz where pulses_max is \(most): a rate needs two pulses in one hold"
        }
        if let problem = intervalProblem(value) { return problem }
        // The values of every completed hold: defined exactly where a hold completed, a progress at most 1.
        if let completed = value("completed") {
            for name in ["completion_time_mean_ms", "pulses_mean", "dropped_pulses_mean", "progress_at_trigger_mean",
                         "progress_at_trigger_min", "completion_time_p50_ms"] {
                guard let position = columns.firstIndex(of: name) else { continue }
                let undefined = fields[position] == "NaN"
                if undefined != (completed == 0) {
                    return "\(name) is \(fields[position]) where completed is \(fields[columns.firstIndex(of: "completed")!]): "
                        + "it is NaN exactly where no hold completed"
                }
            }
        }
        for name in ["progress_at_trigger_mean", "progress_at_trigger_min"] {
            if let progress = value(name), progress > 1 { return "\(name) \(progress) is above 1: a displayed progress is at most 1" }
        }
        return nil
    }

    /// A rate's interval columns that are not the 95 % Wilson interval of its counts (each to the 6 decimals it is
    /// written with), where its counts are columns or its rate pins them (fewer than 500,000 people: its 6 decimals
    /// name one count); nil when they are.
    static func intervalProblem(_ value: (String) -> Double?) -> String? {
        for ratio in Metric.countRatios where ratio.intervalColumns {
            guard let trials = value(ratio.denominator).flatMap({ Int(exactly: $0) }), trials > 0, let rate = value(ratio.rate),
                  let lo = value(ratio.rate + "_lo"), let hi = value(ratio.rate + "_hi") else { continue }
            let successes: Int
            if let count = ratio.numerator.flatMap(value) {
                // A count that is no Int (2⁶³ from a forged Int.max) is one no run has: another check names it.
                guard let whole = Int(exactly: count) else { continue }
                successes = whole
            } else if trials < 500_000 {
                successes = Int((rate * Double(trials)).rounded())
            } else {
                continue
            }
            guard let wilson = Proportion(successes: successes, trials: trials).wilson95 else { continue }
            if abs(lo - wilson.lower) > 6e-7 || abs(hi - wilson.upper) > 6e-7 {
                return "\(ratio.rate)_lo, _hi [\(CSV.number(lo, decimals: 6)), \(CSV.number(hi, decimals: 6))] are not the 95 % Wilson interval of \(successes) of \(trials) "
                    + "(\(CSV.number(wilson.lower, decimals: 6)), \(CSV.number(wilson.upper, decimals: 6)))"
            }
        }
        return nil
    }

    private func addTallies(_ file: ShardFile) throws(ShardError) {
        let expected = (["profile"] + TallyCoding.columns).joined(separator: ",")
        guard file.header == expected else {
            throw ShardError("\(file.path): the tally header is not shard format \(ShardFormat.version)'s")
        }
        let names = file.provenance.filter { $0.0 == "profile" }.map { Self.name($0.1) }
        guard file.rows.count == names.count else {
            throw ShardError("\(file.path) has \(file.rows.count) tally rows for \(names.count) profiles")
        }
        let columns = ["profile"] + TallyCoding.columns
        for (index, row) in file.rows.enumerated() {
            guard let fields = CSV.splitRecord(row), fields.count == columns.count else {
                throw ShardError("\(file.path): tally row \(index + 1) does not have the \(columns.count) fields of the header")
            }
            guard fields[0] == names[index] else {
                throw ShardError("\(file.path): tally row \(index + 1) is profile \(Quoted.value(fields[0])) where the provenance names '\(names[index])'")
            }
            let tally: Tally
            do {
                tally = try TallyCoding.decode(Array(fields.dropFirst()))
            } catch {
                throw ShardError("\(file.path): tally row \(index + 1) (\(fields[0])), column \(error.column): \(error.reason)")
            }
            if let problem = tally.inconsistency() {
                throw ShardError("\(file.path): tally row \(index + 1) (\(fields[0])): \(problem); no simulation counts that, so this is not a shard holdlab wrote")
            }
            if tallies.count <= index {
                tallies.append(tally)
                profiles.append(fields[0])
            } else if let overflow = tallies[index].merge(checking: tally) {
                throw ShardError("\(file.path): tally row \(index + 1) (\(fields[0])): added to the shards before it, \(overflow) overflows; no run has that many users, so this is not a shard holdlab wrote")
            }
        }
    }

    /// The merged CSV: the unsharded run's provenance (its command is the plan's command plus `outputArguments`),
    /// a `merged` line, the header, and the rows.
    public func finish(outputArguments: String, mergeCommand: String) throws(ShardError) -> Result {
        guard let first else { throw ShardError("no shard files given", kind: .usage) }
        let file = first.file
        let count = file.shard.count
        let missing = (1...count).filter { seen[$0] == nil }
        if !missing.isEmpty {
            let list = missing.count > 10 ? missing.prefix(10).map(String.init).joined(separator: ", ") + ", …" : missing.map(String.init).joined(separator: ", ")
            throw ShardError("shard\(missing.count == 1 ? "" : "s") \(list) of \(count) \(missing.count == 1 ? "is" : "are") missing (\(missing.count) of \(count)); run \(missing.count == 1 ? "it" : "them") and merge again")
        }
        let identity = Array(file.provenance.drop { $0.0 == "holdlab" || $0.0 == "command" })
        let command = file.planCommand + (outputArguments.isEmpty ? "" : " " + outputArguments)
        let head = ShardRun.head(kind: file.kind, command: command, identity: identity)
        let units: String
        var rows: [[ResultCell]] = []
        let columns: [ResultColumn]
        switch file.kind {
        case .sweep:
            var records: [String] = []
            for index in 1...count { records += sweepRows[index] ?? [] }
            guard records.count == file.total else {
                throw ShardError("the shards hold \(records.count) rows for \(file.total) points")
            }
            // The varied keys' columns come before the simulate columns: numbers when every row's value is one.
            let names = CSV.fields(file.header)
            let fields = records.map(CSV.fields)
            let parameters = names.count - SimulationCSV.columns.count
            columns = (0..<max(0, parameters)).map { index in
                let numeric = fields.allSatisfy { index < $0.count && (Double($0[index]).map(\.isFinite) ?? false) }
                return ResultColumn(names[index], numeric ? .number : .text)
            } + SimulationCSV.resultColumns
            // The plan's hash covers its points' values (`ShardRun.sweepPlan`: the header, then each point as its
            // row writes it): the rows' varied values, in row order, must give it back.
            let madeBy = file.provenance.first { $0.0 == "holdlab" }?.1.split(separator: " ").first.map(String.init)
            guard ShardFormat.sweepPlanHash(identity: identity, header: file.header,
                                            points: fields.map { Array($0.prefix(max(0, parameters))) },
                                            holdlab: madeBy ?? HoldLabVersion.current) == file.plan else {
                throw ShardError("the varied values of the shards' rows are not the points of their plan ('# shard_plan:'): "
                                 + "a row's values were changed after its shard was written, so these are not shards holdlab wrote; run the shards again")
            }
            rows = records.map { ResultTable.cells(parsing: $0, columns: columns) }
            units = "\(file.total) points"
        case .simulate:
            columns = SimulationCSV.resultColumns
            guard let population = identity.first(where: { $0.0 == "population" }).map({ Self.name($0.1) }),
                  let usersLine = identity.first(where: { $0.0 == "users" })?.1,
                  let users = Int(usersLine.prefix { $0.isNumber }),
                  let seed = usersLine.split(separator: " ").last.flatMap({ UInt64($0) }) else {
                throw ShardError("\(first.path): no '# population:' or '# users: N per profile, seed S' line")
            }
            for (name, tally) in zip(profiles, tallies) {
                guard tally[.user] == users else {
                    throw ShardError("the shards hold \(tally[.user]) users of profile \(name) where the run has \(users)")
                }
                rows.append(SimulationCSV.cells(SimulationSummary(profile: name, population: population, seed: seed, tally: tally)))
            }
            units = "\(file.total) chunks"
        }
        var entries = head
        entries.append(("merged", "\(count) shards (\(units)) of plan \(file.plan), by \(mergeCommand)"))
        return Result(kind: file.kind, table: ResultTable(provenance: Provenance(entries), columns: columns, rows: rows),
                      shards: count, units: units)
    }

    /// "default fnv1a64:…" → "default".
    private static func name(_ value: String) -> String {
        guard let range = value.range(of: " fnv1a64:", options: .backwards) else { return value }
        return String(value[..<range.lowerBound])
    }

    /// What tells two plans apart, for the message.
    private static func difference(_ file: ShardFile, _ reference: ShardFile) -> String {
        let a = Dictionary(file.provenance, uniquingKeysWith: { $0 + "; " + $1 })
        let b = Dictionary(reference.provenance, uniquingKeysWith: { $0 + "; " + $1 })
        if let version = a["holdlab"], version != b["holdlab"] { return "holdlab \(version) vs \(b["holdlab"] ?? "?")" }
        for (key, _) in file.provenance where key != "command" && a[key] != b[key] {
            return "\(key) '\(a[key] ?? "none")' vs '\(b[key] ?? "none")'"
        }
        return "'\(file.planCommand)' vs '\(reference.planCommand)'"
    }
}
