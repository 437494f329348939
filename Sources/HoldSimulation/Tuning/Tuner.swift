import GSL
import HoldProfiles

/// A problem with a tuning request, phrased for the command line.
public struct TuneError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A profile key tuned within [lower, upper].
public struct TuneParameter: Sendable, Equatable {
    public let keyPath: String
    public let lower: Double
    public let upper: Double

    /// The CSV column: `param_` and the key path with dots as underscores.
    public var column: String { "param_" + keyPath.replacingOccurrences(of: ".", with: "_") }

    /// Parses `key.path=lo:hi`.
    public init(parsing text: String) throws(TuneError) {
        let sweep: SweepParameter
        do { sweep = try SweepParameter(parsing: text) } catch { throw TuneError(error.message.replacingOccurrences(of: "--vary", with: "--param")) }
        guard case .range(let start, let stop, nil) = sweep.values, stop > start else {
            throw TuneError("--param \(text): expected key.path=lo:hi with lo < hi")
        }
        keyPath = sweep.keyPath
        lower = start
        upper = stop
    }
}

/// Something `tune` can minimise or constrain: a `simulate` column or a tuned parameter.
public struct TuneMetric: Sendable, Equatable {
    public let name: String
    /// nil for a simulate column; the parameter's index otherwise.
    public let parameterIndex: Int?

    /// Resolves a name: a tuned parameter's key path (or its `param_` column) or a numeric `simulate` column.
    public init(_ name: String, parameters: [TuneParameter]) throws(TuneError) {
        if let index = parameters.firstIndex(where: { $0.keyPath == name || $0.column == name }) {
            self.name = parameters[index].keyPath
            parameterIndex = index
            return
        }
        let numeric = SimulationCSV.columns.filter(\.isNumeric).map(\.name)
        guard numeric.contains(name) else {
            throw TuneError("'\(name)' is neither a --param key nor a simulate column; columns: \(numeric.joined(separator: ", "))")
        }
        self.name = name
        parameterIndex = nil
    }

    public func value(values: [Double], summary: SimulationSummary) -> Double {
        if let parameterIndex { return values[parameterIndex] }
        return SimulationCSV.columns.first { $0.name == name }?.numericValue(summary) ?? .nan
    }
}

/// What `tune` optimises.
public enum TuneObjective: Sendable, Equatable {
    case minimize(TuneMetric)
    case maximize(TuneMetric)
    /// Minimise (metric − value)².
    case target(TuneMetric, Double)

    public var metric: TuneMetric {
        switch self {
        case .minimize(let metric), .maximize(let metric), .target(let metric, _): metric
        }
    }
}

/// `METRIC<=V` or `METRIC>=V`.
public struct TuneConstraint: Sendable, Equatable {
    public let metric: TuneMetric
    public let atMost: Bool
    public let bound: Double
    public let text: String

    public init(parsing text: String, parameters: [TuneParameter]) throws(TuneError) {
        let compact = text.filter { !$0.isWhitespace }
        let parts: [Substring]
        if compact.contains("<=") { parts = compact.split(separator: "<", maxSplits: 1); atMost = true }
        else if compact.contains(">=") { parts = compact.split(separator: ">", maxSplits: 1); atMost = false }
        else { throw TuneError("--constraint \(text): expected METRIC<=VALUE or METRIC>=VALUE") }
        guard parts.count == 2, let bound = Double(parts[1].dropFirst()), bound.isFinite else {
            throw TuneError("--constraint \(text): expected METRIC<=VALUE or METRIC>=VALUE with a finite number")
        }
        metric = try TuneMetric(String(parts[0]), parameters: parameters)
        self.bound = bound
        self.text = compact
    }

    /// How far the constraint is violated, relative to the bound's size (0 when satisfied; NaN counts as violated).
    public func violation(_ value: Double) -> Double {
        guard value.isFinite else { return 1 }
        let excess = atMost ? value - bound : bound - value
        return max(0, excess) / max(abs(bound), 1e-3)
    }
}

/// What `holdlab tune` runs.
public struct TuneRequest: Sendable {
    public var profileText: String
    public var profilePath: String
    public var baseOverrides: [Override]
    public var population: Population
    public var parameters: [TuneParameter]
    public var objective: TuneObjective
    public var constraints: [TuneConstraint]
    public var users: Int
    /// The seed of every evaluation (common random numbers).
    public var seed: UInt64
    /// The seed of the final check of the optimum.
    public var checkSeed: UInt64
    public var threads: Int

    public init(profileText: String, profilePath: String, baseOverrides: [Override], population: Population,
                parameters: [TuneParameter], objective: TuneObjective, constraints: [TuneConstraint], users: Int,
                seed: UInt64, checkSeed: UInt64, threads: Int) {
        self.profileText = profileText
        self.profilePath = profilePath
        self.baseOverrides = baseOverrides
        self.population = population
        self.parameters = parameters
        self.objective = objective
        self.constraints = constraints
        self.users = users
        self.seed = seed
        self.checkSeed = checkSeed
        self.threads = threads
    }
}

/// One simulated point of the search.
public struct TuneEvaluation: Sendable {
    public let index: Int
    public let values: [Double]
    public let summary: SimulationSummary
    /// The objective alone (sign-adjusted for maximising).
    public let objective: Double
    /// The penalty for violated constraints (0 when feasible).
    public let penalty: Double
    public var score: Double { objective + penalty }
    public var feasible: Bool { penalty == 0 }
}

/// The outcome of a search.
public struct TuneResult: Sendable {
    public let method: String
    public let converged: Bool
    public let trajectory: [TuneEvaluation]
    public let best: TuneEvaluation
    /// The optimum re-simulated with `checkSeed`.
    public let check: SimulationSummary
    /// Candidates the search tried that are not valid profiles (skipped as infeasible), with the reason.
    public let invalidCandidates: [String]
}

/// Simulation-based optimisation: every evaluation simulates the profile with the candidate values and the same
/// seed (common random numbers, so the objective is a deterministic function of the values); GSL's Brent minimiser
/// for one parameter, Nelder–Mead for several; constraints as penalties.
public enum Tuner {
    /// Penalty per unit of relative constraint violation, times the objective's scale (|objective at the start| + 1).
    static let penaltyWeight = 100.0

    public static func run(_ request: TuneRequest, onEvaluation: ((TuneEvaluation) -> Void)? = nil) throws -> TuneResult {
        var trajectory: [TuneEvaluation] = []
        var cache: [[Double]: TuneEvaluation] = [:]
        var invalid: [[Double]: String] = [:]
        var scale: Double?
        var failure: Error?

        func profile(_ values: [Double]) throws -> Profile {
            let assignments = zip(request.parameters, values).map { "\($0.keyPath)=\(SweepParameter.format($1))" }
            let overrides = try assignments.map { text throws(ProfileError) in try Override(parsing: text) }
            return try Profile.load(yaml: request.profileText, path: request.profilePath,
                                    overrides: request.baseOverrides + overrides)
        }

        func evaluate(_ raw: [Double]) -> Double {
            // Evaluate at the value as printed, so every row of the trajectory can be reproduced exactly.
            let values = zip(raw, request.parameters).map { value, parameter in
                Double(SweepParameter.format(min(parameter.upper, max(parameter.lower, value)))) ?? value
            }
            if let known = cache[values] { return known.score }
            if invalid[values] != nil { return Minimization.nonFinitePenalty }
            let candidate: Profile
            do {
                candidate = try profile(values)
            } catch {
                // Part of a range can make an invalid control (e.g. an action before touch-down): infeasible there.
                let assignments = zip(request.parameters, values).map { "\($0.keyPath)=\(SweepParameter.format($1))" }
                let reason = (error as? ProfileError).map { "\($0.keyPath): \($0.message)" } ?? "\(error)"
                invalid[values] = "\(assignments.joined(separator: " ")): \(reason)"
                return Minimization.nonFinitePenalty
            }
            do {
                let summary = try Simulator.run(SimulationRequest(
                    profiles: [candidate], population: request.population, users: request.users,
                    seed: request.seed, threads: request.threads))[0]
                let metric = request.objective.metric.value(values: values, summary: summary)
                let objective: Double
                switch request.objective {
                case .minimize: objective = metric
                case .maximize: objective = -metric
                case .target(_, let goal): objective = (metric - goal) * (metric - goal)
                }
                let objectiveScale = scale ?? (abs(objective.isFinite ? objective : 0) + 1)
                scale = objectiveScale
                let violation = request.constraints.reduce(0) {
                    $0 + $1.violation($1.metric.value(values: values, summary: summary))
                }
                let evaluation = TuneEvaluation(
                    index: trajectory.count + 1, values: values, summary: summary, objective: objective,
                    penalty: violation * penaltyWeight * objectiveScale)
                trajectory.append(evaluation)
                cache[values] = evaluation
                onEvaluation?(evaluation)
                return evaluation.score.isFinite ? evaluation.score : Minimization.nonFinitePenalty
            } catch {
                failure = failure ?? error
                return Minimization.nonFinitePenalty
            }
        }

        let method: String
        let converged: Bool
        if request.parameters.count == 1 {
            let parameter = request.parameters[0]
            method = "brent"
            let result = try Minimization.brent(lower: parameter.lower, upper: parameter.upper, scanPoints: 20,
                                                absoluteTolerance: (parameter.upper - parameter.lower) * 1e-4,
                                                relativeTolerance: 0) { evaluate([$0]) }
            converged = result.converged
        } else {
            method = "nelder-mead"
            // Simulated objectives are often step-shaped (ticks, frames, counts), where a simplex stalls on a
            // plateau. So: a Sobol scan of the box (8 points per parameter, at least 16) picks the start, then
            // Nelder–Mead runs from the best point so far with steps of 0.1, 0.05, 0.025 and 0.0125 of each range.
            let unit = { (u: [Double]) in zip(u, request.parameters).map { $1.lower + $0 * ($1.upper - $1.lower) } }
            let toUnit = { (values: [Double]) in zip(values, request.parameters).map { ($0 - $1.lower) / ($1.upper - $1.lower) } }
            let dimensions = request.parameters.count
            let scan = try SobolSequence(dimensions: dimensions)
            for _ in 0..<max(16, 8 * dimensions) { _ = evaluate(unit(try scan.next())) }
            var finished = false
            for step in [0.1, 0.05, 0.025, 0.0125] {
                guard let leader = trajectory.min(by: { ($0.score, $0.index) < ($1.score, $1.index) }) else { break }
                let result = try Minimization.nelderMead(
                    start: toUnit(leader.values), steps: Array(repeating: step, count: dimensions), sizeTolerance: 1e-3,
                    maxIterations: 400
                ) { u in
                    // Outside the box: the value at the nearest point of the box plus a penalty for the distance.
                    let outside = u.reduce(0) { $0 + max(0, -$1) + max(0, $1 - 1) }
                    return evaluate(unit(u)) + outside * penaltyWeight * (scale ?? 1)
                }
                finished = result.converged
            }
            converged = finished
        }
        if let failure { throw failure }
        guard let best = trajectory.min(by: { ($0.score, $0.index) < ($1.score, $1.index) }) else {
            let example = invalid.values.sorted().first.map { "; for example \($0)" } ?? ""
            throw TuneError("no candidate in the --param ranges is a valid profile\(example)")
        }
        let check = try Simulator.run(SimulationRequest(
            profiles: [try profile(best.values)], population: request.population, users: request.users,
            seed: request.checkSeed, threads: request.threads))[0]
        return TuneResult(method: method, converged: converged, trajectory: trajectory, best: best, check: check,
                          invalidCandidates: invalid.values.sorted())
    }

    /// The tuned profile's YAML: the resolved profile with the best values, renamed and described as tuned.
    public static func tunedProfile(_ request: TuneRequest, result: TuneResult) throws -> Profile {
        let assignments = zip(request.parameters, result.best.values).map { "\($0.keyPath)=\(SweepParameter.format($1))" }
        var overrides = try assignments.map { text throws(ProfileError) in try Override(parsing: text) }
        let base = try Profile.load(yaml: request.profileText, path: request.profilePath, overrides: request.baseOverrides)
        overrides.append(try Override(parsing: "name=\(base.name)-tuned"))
        var profile = try Profile.load(yaml: request.profileText, path: request.profilePath,
                                       overrides: request.baseOverrides + overrides)
        profile.description = "\(base.description); tuned by holdlab tune: \(assignments.joined(separator: ", "))"
        return profile
    }
}
