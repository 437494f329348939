import GSL
import HoldLabIO
import HoldProfiles
import HoldSimulation

/// A problem with a tuning request, phrased for the command line.
public struct TuneError: Error, Equatable, CustomStringConvertible {
    /// Whether the command line is at fault (a `--param` range in which no candidate is a valid profile: exit 64)
    /// or the search could not go on (exit 65).
    public enum Kind: Sendable, Equatable { case usage, data }

    public let message: String
    public let kind: Kind
    public init(_ message: String, kind: Kind = .data) {
        self.message = message
        self.kind = kind
    }
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
        // The range is tune's one form, checked here: sweep's parser would speak of its own (steps, lists, lhs).
        // The key is checked as sweep checks a varied key.
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let range = parts.count == 2 ? parts[1].split(separator: ":", omittingEmptySubsequences: false) : []
        guard range.count == 2, let lo = Double(String(range[0].filter { $0 != " " })),
              let hi = Double(String(range[1].filter { $0 != " " })), lo.isFinite, hi.isFinite, lo < hi else {
            throw TuneError("--param \(text): expected key.path=lo:hi, two finite numbers with lo < hi")
        }
        do { try SweepParameter.checkKey(String(parts[0]), of: "--param \(text)") } catch { throw TuneError(error.message) }
        // Tune chooses a design; the people are given (each candidate is a profile, and a population key reached
        // the profile's `population:` name as "cannot set a key inside a scalar").
        if Override.reachesPopulation(String(parts[0])) {
            throw TuneError("--param \(text): tune chooses the control's values, and a population's value is not a design choice; "
                            + "see how it moves the results with sweep --vary \(parts[0])=\(range[0]):\(range[1]):STEP, "
                            + "or fix it with --set \(parts[0])=VALUE")
        }
        keyPath = String(parts[0])
        lower = lo
        upper = hi
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
            let known = parameters.map(\.keyPath) + numeric
            throw TuneError("'\(name)' is neither a --param key nor a simulate column\(Suggestions.didYouMean(name, among: known)); "
                            + "columns: \(numeric.joined(separator: ", "))")
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

    /// The constraint's metric as it is held to the bound: for a rate (a proportion of users) at `z` > 0, its
    /// one-sided Wilson score bound (the upper bound for METRIC<=V, the lower for METRIC>=V), so a point that
    /// passes keeps the promise on a fresh sample with confidence Φ(z); otherwise the metric itself.
    public func heldValue(values: [Double], summary: SimulationSummary, z: Double) -> Double {
        guard z > 0, let proportion = metric.proportion(summary) else { return metric.value(values: values, summary: summary) }
        guard let bounds = Tuner.wilson(proportion, z: z) else { return .nan }
        return atMost ? bounds.upper : bounds.lower
    }

    /// value − bound for METRIC<=V, bound − value for METRIC>=V: ≤ 0 where the constraint holds.
    public func excess(_ value: Double) -> Double { atMost ? value - bound : bound - value }
}

extension TuneMetric {
    /// The proportion behind a rate column (successes over users), or nil for other metrics.
    public func proportion(_ summary: SimulationSummary) -> Proportion? {
        guard parameterIndex == nil else { return nil }
        return Metric.named(name).flatMap(summary.proportion)
    }

    /// The mean behind a mean column (with its standard error), or nil for other metrics.
    public func mean(_ summary: SimulationSummary) -> SampleMean? {
        guard parameterIndex == nil else { return nil }
        return Metric.named(name).flatMap(summary.mean)
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
    /// The GSL generator every evaluation's people and Timer latencies are drawn from (`--rng`).
    public var rng: Generator.Kind
    public var threads: Int
    /// A rate constraint must hold for the rate's one-sided Wilson bound at this confidence (0.5: the rate itself).
    public var confidence: Double
    /// `--precision`: each evaluation (and the check) stops on its own at the first chunk where it meets every
    /// target; `users` is then the cap.
    public var precision: Precision?

    public init(profileText: String, profilePath: String, baseOverrides: [Override], population: Population,
                parameters: [TuneParameter], objective: TuneObjective, constraints: [TuneConstraint], users: Int,
                seed: UInt64, checkSeed: UInt64, rng: Generator.Kind = .users, threads: Int,
                confidence: Double = Tuner.defaultConfidence) {
        self.rng = rng
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
        self.confidence = confidence
    }
}

/// One simulated point of the search.
public struct TuneEvaluation: Sendable {
    public let index: Int
    public let values: [Double]
    public let summary: SimulationSummary
    /// The objective alone (sign-adjusted for maximising).
    public let objective: Double
    /// Σ relative violations of the constraints, rates taken at their confidence bound (0 when feasible).
    public let violation: Double
    /// What the minimiser compares: the objective where feasible, above every objective the scan saw otherwise.
    public let score: Double
    /// score − objective: 0 for a feasible point (whose score is its objective, or the minimisers' stand-in for an
    /// undefined one).
    public var penalty: Double { feasible ? 0 : score - objective }
    public var feasible: Bool { violation == 0 }
    /// Whether the objective has a value here (a metric none of the holds had, such as `peak_pulse_rate_hz` where no
    /// completed hold rendered two pulses, is NaN): a point without one cannot be recommended.
    public var defined: Bool { objective.isFinite }
    /// Feasible with a defined objective: what a recommendation must be.
    public var recommendable: Bool { feasible && defined }

    /// Feasibility first (Deb 2000): a feasible point with a defined objective beats any other; such points compare
    /// by objective; then feasible points without an objective, then infeasible ones by total violation (a defined
    /// objective first, then the smaller); ties go to the earlier evaluation.
    public func isBetter(than other: TuneEvaluation) -> Bool {
        if recommendable != other.recommendable { return recommendable }
        if recommendable { return (objective, index) < (other.objective, other.index) }
        if feasible != other.feasible { return feasible }
        if violation != other.violation { return violation < other.violation }
        if defined != other.defined { return defined }
        if defined && objective != other.objective { return objective < other.objective }
        return index < other.index
    }
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
    /// Per parameter, when the optimum sits on a constraint's boundary: the standard error the constraint's sampling
    /// error gives it (SE of the rate over the rate's slope) and the constraint; nil otherwise.
    public let boundaries: [(constraint: String, standardError: Double)?]

    /// False when no evaluated point meets every constraint with a defined objective: nothing to recommend.
    public var feasible: Bool { best.recommendable }
    /// Whether points met every constraint but the objective was undefined at every one of them.
    public var objectiveUndefined: Bool { best.feasible && !best.defined }
}

/// Simulation-based optimisation: every evaluation simulates the profile with the candidate values and the same
/// seed (common random numbers, so the objective is a deterministic function of the values).
///
/// Feasibility comes first: the best point is the feasible one with the best objective, or, when none is feasible,
/// the one with the smallest total violation. The minimisers see one number per point: the objective where feasible;
/// elsewhere the largest objective of the initial scan plus the violation times the objective's range over that scan,
/// so every infeasible point scores above every feasible one the scan saw (the scale comes from the scan, never from
/// one evaluation). One parameter: a 21-point scan; each constraint whose feasibility switches once along it has its
/// boundary found by GSL's Brent root finder on the constraint, the objective is then minimised by Brent inside the
/// feasible interval, and an optimum at an end of a scan cell is refined by golden section. Several parameters:
/// Nelder–Mead on the unit box from the best point of a Sobol scan, restarted with shrinking steps.
public enum Tuner {
    /// The default of `--confidence`.
    public static let defaultConfidence = 0.95
    /// Scan points of the one-parameter search (21 evaluations, ends included).
    static let scanIntervals = 20
    /// Brent's and the root finder's tolerance, as a fraction of the range.
    static let relativeTolerance = 1e-4

    /// The Wilson score interval at `z` (Wilson 1927): (p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n).
    public static func wilson(_ proportion: Proportion, z: Double) -> (lower: Double, upper: Double)? {
        guard proportion.trials > 0 else { return nil }
        let n = Double(proportion.trials)
        let p = Double(proportion.successes) / n
        let z2 = z * z
        let denominator = 1 + z2 / n
        let centre = (p + z2 / (2 * n)) / denominator
        let half = z * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot() / denominator
        return (max(0, centre - half), min(1, centre + half))
    }

    /// A rate's sampling standard error as its 95 % Wilson interval implies it: the interval's half-width over z,
    /// √(p(1−p)/n + z²/4n²) / (1 + z²/n). Above 0 at 0 or n events, where √(p(1−p)/n) would say the rate is exact
    /// (a boundary printed "± 0" from 0 false activations in 750 accidental users). NaN without trials.
    static func rateStandardError(_ proportion: Proportion) -> Double {
        guard proportion.trials > 0 else { return .nan }
        let n = Double(proportion.trials), p = Double(proportion.successes) / n, z = Proportion.z95
        return (p * (1 - p) / n + z * z / (4 * n * n)).squareRoot() / (1 + z * z / n)
    }

    /// People whose outcome must differ between the ends of `boundarySecant`'s window.
    static let slopeFlips = 40.0
    /// Standard errors of a mean its window's ends must differ by.
    static let slopeStandardErrors = 4.0

    /// A metric's slope at a boundary `edge`, and the half-width of the window it was measured across: the secant
    /// across a window centred on it (within `range`), widened from half-width `start` by doubling until the metric's
    /// difference between its two ends is `enough` (a rate: at least `slopeFlips` of its `trials` people have a
    /// different outcome, common random numbers putting the same people at both ends, so the rate's difference counts
    /// them; a mean: at least `slopeStandardErrors` of its standard errors), or until it spans the range; 0 when an end
    /// is not a valid candidate before any window is measured, or the metric does not move. `metric(x)` is the value
    /// simulated (as printed) and the metric's value there, nil for an invalid candidate or an undefined value.
    ///
    /// 0.3.16 took the secant across the whole scan cell, so the same boundary read ± 0.037, 0.00097 or 0.0097 for
    /// ranges 0.05:1.5, 0.05:20 and 0.05:200 of one parameter (`TuneTests.boundaryStandardErrorIsLocal`).
    static func boundarySecant(at edge: Double, start: Double, range: ClosedRange<Double>, enough: (Double) -> Bool,
                               metric: (Double) -> (x: Double, value: Double)?) -> (slope: Double, half: Double) {
        var slope = 0.0
        var half = Swift.max(start, Double.leastNormalMagnitude)
        while half.isFinite {
            let a = Swift.max(range.lowerBound, edge - half), b = Swift.min(range.upperBound, edge + half)
            guard let low = metric(a), let high = metric(b) else { break }
            if high.x > low.x {
                let difference = abs(high.value - low.value)
                slope = difference / (high.x - low.x)
                if enough(difference) { break }
            }
            if a == range.lowerBound && b == range.upperBound { break }
            half *= 2
        }
        return (slope, half)
    }

    /// How much a mean's secant may change from its window to one four times as wide before the mean is taken to move
    /// in steps across the boundary (a Timer's ticks): a local slope then says little about the boundary's spread.
    static let slopeSteadiness = 2.0

    /// The candidates the search starts from, in the order it evaluates them: one parameter's scan of its range
    /// (`scanIntervals` cells, both ends), or a Sobol scan of the box (8 points per parameter, at least 16).
    public static func scanCandidates(_ parameters: [TuneParameter]) throws -> [[Double]] {
        if parameters.count == 1 {
            let (lower, upper) = (parameters[0].lower, parameters[0].upper)
            return (0...scanIntervals).map {
                [$0 == scanIntervals ? upper : lower + (upper - lower) * Double($0) / Double(scanIntervals)]
            }
        }
        let scan = try SobolSequence(dimensions: parameters.count)
        return try (0..<max(16, 8 * parameters.count)).map { _ in
            zip(try scan.next(), parameters).map { $1.lower + $0 * ($1.upper - $1.lower) }
        }
    }

    /// The overrides of a candidate's values, as printed (`SweepParameter.format`), so a row can be reproduced.
    public static func overrides(_ parameters: [TuneParameter], values: [Double]) throws(ProfileError) -> [Override] {
        try zip(parameters, values).map { parameter, value throws(ProfileError) in
            try Override(parsing: "\(parameter.keyPath)=\(SweepParameter.format(value))")
        }
    }

    public static func run(_ request: TuneRequest, onEvaluation: ((TuneEvaluation) -> Void)? = nil) throws -> TuneResult {
        guard request.confidence >= 0.5, request.confidence < 1 else {
            throw TuneError("--confidence \(request.confidence): expected a probability in [0.5, 1)")
        }
        let z = Distribution.normal(mean: 0, sd: 1).quantile(request.confidence)
        var trajectory: [TuneEvaluation] = []
        var cache: [[Double]: TuneEvaluation] = [:]
        var invalid: [[Double]: String] = [:]
        // The infeasible points' floor and scale, set from the initial scan.
        var ceiling: Double?
        var scale = 1.0
        var failure: Error?

        func profile(_ values: [Double]) throws -> Profile {
            try Profile.load(yaml: request.profileText, path: request.profilePath,
                             overrides: request.baseOverrides + overrides(request.parameters, values: values))
        }

        // A key without effect where it is tuned (fill.delay of no fill) is refused as a whole, as sweep and
        // sensitivity refuse it: skipping the values where it is refused would recommend the one that is not.
        for parameter in request.parameters {
            for end in [parameter.lower, parameter.upper] {
                let text = "\(parameter.keyPath)=\(SweepParameter.format(end))"
                do {
                    _ = try Profile.load(yaml: request.profileText, path: request.profilePath,
                                         overrides: request.baseOverrides + [try Override(parsing: text)])
                } catch where error.withoutEffect && error.keyPath == parameter.keyPath {
                    // A --set that makes the key moot is named with it, as sweep names it.
                    let sets = error.overrides(besides: [text]).map { "--set \($0): " }.joined()
                    throw TuneError("--param \(parameter.keyPath): \(sets)\(error.keyedMessage)", kind: .usage)
                } catch {
                    // Another problem at this end is the search's to meet (an infeasible candidate), not a refusal.
                }
            }
        }

        func score(objective: Double, violation: Double) -> Double {
            guard violation > 0 else { return objective.isFinite ? objective : Minimization.nonFinitePenalty }
            return (ceiling ?? 0) + scale * (1 + violation)
        }

        /// Evaluates at the value as printed (so every row can be reproduced exactly); nil for an invalid profile.
        func simulate(_ raw: [Double]) -> TuneEvaluation? {
            let values = zip(raw, request.parameters).map { value, parameter in
                Double(SweepParameter.format(min(parameter.upper, max(parameter.lower, value)))) ?? value
            }
            if let known = cache[values] { return known }
            if invalid[values] != nil { return nil }
            let candidate: Profile
            do {
                candidate = try profile(values)
            } catch {
                // Part of a range can make an invalid control (e.g. an action before touch-down): infeasible there.
                let assignments = zip(request.parameters, values).map { "\($0.keyPath)=\(SweepParameter.format($1))" }
                let reason = (error as? ProfileError).map { "\($0.keyPath): \($0.message)" } ?? "\(error)"
                invalid[values] = "\(assignments.joined(separator: " ")): \(reason)"
                return nil
            }
            do {
                let summary = try Simulator.run(SimulationRequest(
                    profiles: [candidate], population: request.population, users: request.users,
                    seed: request.seed, rng: request.rng, threads: request.threads,
                    precision: request.precision))[0]
                let metric = request.objective.metric.value(values: values, summary: summary)
                let objective: Double
                switch request.objective {
                case .minimize: objective = metric
                case .maximize: objective = -metric
                case .target(_, let goal): objective = (metric - goal) * (metric - goal)
                }
                let violation = request.constraints.reduce(0) {
                    $0 + $1.violation($1.heldValue(values: values, summary: summary, z: z))
                }
                let evaluation = TuneEvaluation(
                    index: trajectory.count + 1, values: values, summary: summary, objective: objective,
                    violation: violation, score: score(objective: objective, violation: violation))
                trajectory.append(evaluation)
                cache[values] = evaluation
                onEvaluation?(evaluation)
                return evaluation
            } catch {
                failure = failure ?? error
                return nil
            }
        }

        func evaluate(_ raw: [Double]) -> Double {
            guard let evaluation = simulate(raw) else { return Minimization.nonFinitePenalty }
            // Scores of points evaluated before the scale was known are recomputed with it.
            let value = score(objective: evaluation.objective, violation: evaluation.violation)
            return value.isFinite ? value : Minimization.nonFinitePenalty
        }

        /// Sets the infeasible points' floor and scale from the objectives evaluated so far.
        func calibrate() {
            let objectives = trajectory.map(\.objective).filter(\.isFinite)
            guard let high = objectives.max(), let low = objectives.min() else { return }
            ceiling = high
            scale = max(high - low, abs(high) * 1e-9, Double.leastNormalMagnitude)
        }

        /// No candidate tried is a valid profile: the --param ranges are at fault, with an example and its problem.
        func noValidCandidate() -> TuneError {
            let example = invalid.values.sorted().first.map { "; for example \($0)" } ?? ""
            return TuneError("no candidate in the --param ranges is a valid profile\(example)", kind: .usage)
        }

        let method: String
        var converged: Bool
        var boundaries: [(constraint: String, standardError: Double)?] = Array(repeating: nil, count: request.parameters.count)
        if request.parameters.count == 1 {
            let parameter = request.parameters[0]
            let width = parameter.upper - parameter.lower
            let tolerance = width * relativeTolerance
            method = "brent"
            let grid = try scanCandidates(request.parameters).map { $0[0] }
            let scanned = grid.map { simulate([$0]) }
            if let failure { throw failure }
            // Brent needs a valid point to start from: without one, say why the range has none.
            if trajectory.isEmpty { throw noValidCandidate() }
            calibrate()
            // Constraints whose feasibility switches exactly once along the scan: their boundary, by root finding.
            var low = parameter.lower, high = parameter.upper
            var boundaryOf: [Int: (constraint: TuneConstraint, standardError: Double)] = [:]
            for constraint in request.constraints {
                func excess(_ evaluation: TuneEvaluation?) -> Double? {
                    guard let evaluation else { return nil }
                    let value = constraint.excess(constraint.heldValue(values: evaluation.values, summary: evaluation.summary, z: z))
                    return value.isFinite ? value : nil
                }
                // Whether the constraint holds at each valid scan point. An invalid candidate (a profile the range
                // reaches but the model refuses: `minimumDuration=0` under a matching fill, a Timer of more than
                // 100,000 ticks) says nothing about the constraint and is passed over, at either end or inside (0.3.15
                // gave up on the boundary; counting it infeasible made a second switch on the feasible side); an
                // undefined value leaves the switch unknown.
                var points: [(index: Int, holds: Bool)] = []
                var undefined = false
                for (index, evaluation) in scanned.enumerated() {
                    guard let evaluation else { continue }
                    guard let value = excess(evaluation) else { undefined = true; break }
                    points.append((index, value <= 0))
                }
                let switches = zip(points, points.dropFirst()).filter { $0.holds != $1.holds }
                guard !undefined, switches.count == 1, let (before, after) = switches.first else { continue }
                // The scan cell of the switch, between the two valid points (invalid ones may lie between them).
                let (lower, upper) = (before.index, after.index)
                let feasibleAbove = after.holds
                var root = grid[lower]
                do {
                    // Where the constraint holds exactly (excess 0, e.g. 20 of 4,000 against 0.005) counts as
                    // feasible: shift it below 0 so the root is the switch, not any point of that plateau.
                    let floor = max(abs(constraint.bound), 1e-3) * 1e-9
                    root = try RootFinding.brent(lower: grid[lower], upper: grid[upper], absoluteTolerance: tolerance,
                                                 relativeTolerance: 0) { x in
                        guard let value = excess(simulate([x])) else {
                            return (feasibleAbove ? 1 : -1) * (x - grid[lower] < grid[upper] - x ? 1 : -1)
                        }
                        return value > 0 ? value : min(value, 0) - floor
                    }
                } catch {
                    root = feasibleAbove ? grid[upper] : grid[lower]
                }
                // The root lies within the tolerance of the switch: step to its feasible side.
                var edge = root
                for _ in 0..<8 {
                    if let value = excess(simulate([edge])), value <= 0 { break }
                    edge = feasibleAbove ? min(grid[upper], edge + tolerance / 2) : max(grid[lower], edge - tolerance / 2)
                }
                if let value = excess(simulate([edge])), value > 0 { edge = feasibleAbove ? grid[upper] : grid[lower] }
                edge = Double(SweepParameter.format(edge)) ?? edge
                // The edge's standard error: the metric's sampling SE over its slope at the edge (the delta method;
                // `boundarySecant`), a rate's else across the scan cell. A mean that does not vary between people
                // here (a gesture's completion time) has none to spread the edge: 0.
                var standardError = Double.nan
                if let here = simulate([edge]), let p = constraint.metric.proportion(here.summary), p.trials > 0 {
                    var slope = Self.boundarySecant(at: edge, start: 4 * tolerance, range: parameter.lower...parameter.upper,
                                                   enough: { $0 * Double(p.trials) >= Self.slopeFlips }) { x in
                        simulate([x]).flatMap { evaluation in
                            constraint.metric.proportion(evaluation.summary).map { (evaluation.values[0], $0.rate ?? 0) }
                        }
                    }.slope
                    if slope == 0, let a = scanned[lower], let b = scanned[upper], let pa = constraint.metric.proportion(a.summary),
                       let pb = constraint.metric.proportion(b.summary) {
                        slope = abs((pb.rate ?? 0) - (pa.rate ?? 0)) / (grid[upper] - grid[lower])
                    }
                    if slope > 0 { standardError = Self.rateStandardError(p) / slope }
                } else if let here = simulate([edge]), let mean = constraint.metric.mean(here.summary), let error = mean.standardError {
                    if error == 0 {
                        standardError = 0
                    } else {
                        func mean(_ x: Double) -> (x: Double, value: Double)? {
                            simulate([x]).flatMap { evaluation in
                                constraint.metric.mean(evaluation.summary)?.value.map { (evaluation.values[0], $0) }
                            }
                        }
                        let range = parameter.lower...parameter.upper
                        let (slope, half) = Self.boundarySecant(at: edge, start: 4 * tolerance, range: range,
                                                                enough: { $0 >= Self.slopeStandardErrors * error }, metric: mean)
                        // A mean that jumps (every completion a Timer tick later) gives a window straddling the jump a
                        // steep secant, and the boundary a standard error far below its spread over seeds (0.3.18's
                        // first cut: ± 2.7e-08 where the spread was 6.8e-07): the secant four times as wide must agree.
                        // (Where the wide window's ends are no valid candidates, the local secant stands.)
                        var steady = true
                        if slope > 0, let low = mean(Swift.max(range.lowerBound, edge - 4 * half)),
                           let high = mean(Swift.min(range.upperBound, edge + 4 * half)), high.x > low.x {
                            let wide = abs(high.value - low.value) / (high.x - low.x)
                            steady = wide > 0 && slope / wide <= Self.slopeSteadiness && wide / slope <= Self.slopeSteadiness
                        }
                        if slope > 0 { standardError = steady ? error / slope : .infinity }
                    }
                }
                if feasibleAbove, edge > low { low = edge; boundaryOf[0] = (constraint, standardError) }
                if !feasibleAbove, edge < high { high = edge; boundaryOf[1] = (constraint, standardError) }
            }
            converged = true
            // Without a defined objective anywhere there is nothing to minimise: the scan is the answer (no point).
            if low < high, trajectory.contains(where: \.defined) {
                // The objective inside the feasible interval (its scan reuses the cache where the grids coincide).
                let inner = try Minimization.brent(lower: low, upper: high, scanPoints: low == parameter.lower && high == parameter.upper ? scanIntervals : 10,
                                                   absoluteTolerance: tolerance, relativeTolerance: 0) { evaluate([$0]) }
                converged = inner.converged || inner.stalled
                // An optimum at a scan end that is not a constraint's boundary: refine the end cell by golden section.
                let innerWidth = (high - low) / Double(low == parameter.lower && high == parameter.upper ? scanIntervals : 10)
                if inner.atBoundary {
                    let atLow = abs(inner.x - low) <= abs(inner.x - high)
                    if (atLow && boundaryOf[0] == nil) || (!atLow && boundaryOf[1] == nil) {
                        var a = atLow ? low : high - innerWidth, b = atLow ? low + innerWidth : high
                        let ratio = (5.0.squareRoot() - 1) / 2
                        var c = b - ratio * (b - a), d = a + ratio * (b - a)
                        var fc = evaluate([c]), fd = evaluate([d])
                        while b - a > tolerance {
                            if fc < fd { b = d; d = c; fd = fc; c = b - ratio * (b - a); fc = evaluate([c]) }
                            else { a = c; c = d; fc = fd; d = a + ratio * (b - a); fd = evaluate([d]) }
                        }
                    }
                }
            }
            // Which boundary the best point sits on, if any.
            if let best = trajectory.min(by: { $0.isBetter(than: $1) }), best.feasible {
                for (side, edge) in [(0, low), (1, high)] where abs(best.values[0] - edge) <= tolerance {
                    if let entry = boundaryOf[side] { boundaries[0] = (entry.constraint.text, entry.standardError) }
                }
            }
        } else {
            method = "nelder-mead"
            // Simulated objectives are often step-shaped (ticks, frames, counts), where a simplex stalls on a
            // plateau. So: a Sobol scan of the box (8 points per parameter, at least 16) picks the start, then
            // Nelder–Mead runs from the best point so far with steps of 0.1, 0.05, 0.025 and 0.0125 of each range.
            let unit = { (u: [Double]) in zip(u, request.parameters).map { $1.lower + $0 * ($1.upper - $1.lower) } }
            let toUnit = { (values: [Double]) in zip(values, request.parameters).map { ($0 - $1.lower) / ($1.upper - $1.lower) } }
            let dimensions = request.parameters.count
            for candidate in try scanCandidates(request.parameters) { _ = simulate(candidate) }
            calibrate()
            var finished = false
            // Without a defined objective anywhere there is nothing to minimise: the scan is the answer (no point).
            for step in [0.1, 0.05, 0.025, 0.0125] where trajectory.contains(where: \.defined) {
                guard let leader = trajectory.min(by: { $0.isBetter(than: $1) }) else { break }
                let result = try Minimization.nelderMead(
                    start: toUnit(leader.values), steps: Array(repeating: step, count: dimensions), sizeTolerance: 1e-3,
                    maxIterations: 400
                ) { u in
                    // Outside the box: the value at the nearest point of the box plus a penalty for the distance.
                    let outside = u.reduce(0) { $0 + max(0, -$1) + max(0, $1 - 1) }
                    return evaluate(unit(u)) + outside * scale
                }
                finished = result.converged
            }
            converged = finished
        }
        if let failure { throw failure }
        // Scores as the minimisers saw them, with the final scale.
        let ranked = trajectory.map {
            TuneEvaluation(index: $0.index, values: $0.values, summary: $0.summary, objective: $0.objective,
                           violation: $0.violation, score: score(objective: $0.objective, violation: $0.violation))
        }
        guard let best = ranked.min(by: { $0.isBetter(than: $1) }) else { throw noValidCandidate() }
        let check = try Simulator.run(SimulationRequest(
            profiles: [try profile(best.values)], population: request.population, users: request.users,
            seed: request.checkSeed, rng: request.rng, threads: request.threads,
            precision: request.precision))[0]
        return TuneResult(method: method, converged: converged, trajectory: ranked, best: best, check: check,
                          invalidCandidates: invalid.values.sorted(), boundaries: boundaries)
    }

    /// The constraint the best point violates most, with its held value and the excess over its bound, or nil when
    /// the point is feasible.
    public static func worstViolation(_ request: TuneRequest, at evaluation: TuneEvaluation)
        -> (constraint: TuneConstraint, value: Double, excess: Double)? {
        let z = Distribution.normal(mean: 0, sd: 1).quantile(request.confidence)
        let violations = request.constraints.map { constraint in
            let value = constraint.heldValue(values: evaluation.values, summary: evaluation.summary, z: z)
            return (constraint: constraint, value: value, excess: constraint.excess(value), relative: constraint.violation(value))
        }
        guard let worst = violations.max(by: { $0.relative < $1.relative }), worst.relative > 0 else { return nil }
        return (worst.constraint, worst.value, worst.excess)
    }

    /// The tuned profile's YAML: the resolved profile with the best values, renamed and described as tuned.
    ///
    /// - Parameters:
    ///   - name: the profile's name (the file's name without `.yaml`, so the library finds it by that name); nil:
    ///     `NAME-tuned`.
    ///   - commandLine: the tune command, recorded in `source` with the seeds, so the profile says how it was made.
    ///   - base: the profile tuned (the command's, which may be a candidate standing in for a profile valid only
    ///     with the tuned values: `studyBase`); nil: the request's profile with its `--set`s.
    public static func tunedProfile(_ request: TuneRequest, result: TuneResult, base given: Profile? = nil, name: String? = nil,
                                    commandLine: String? = nil) throws -> Profile {
        let assignments = zip(request.parameters, result.best.values).map { "\($0.keyPath)=\(SweepParameter.format($1))" }
        var overrides = try assignments.map { text throws(ProfileError) in try Override(parsing: text) }
        let base = try given ?? Profile.load(yaml: request.profileText, path: request.profilePath, overrides: request.baseOverrides)
        overrides.append(try Override(parsing: "name=\(name ?? base.name + "-tuned")"))
        var profile = try Profile.load(yaml: request.profileText, path: request.profilePath,
                                       overrides: request.baseOverrides + overrides)
        // The tuned values first: the base's own description names its values (a "1.0 s fill"), which the tuned
        // profile no longer has, so it is quoted as the base's.
        profile.description = "tuned by holdlab tune: \(assignments.joined(separator: ", ")); from \(base.name): \(base.description)"
        if let commandLine {
            profile.source = "tuned from \(base.name) (fnv1a64:\(base.contentHash)) by holdlab \(HoldLabVersion.current): "
                + "\(commandLine); seed \(request.seed), \(request.users) users per evaluation, checked with seed \(request.checkSeed)"
        }
        return profile
    }
}
