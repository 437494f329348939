import Foundation
import GSL
import HoldLabIO
import HoldProfiles

/// One number a telemetry fit estimated, with its standard error and confidence interval.
public struct FittedPopulationParameter: Sendable, Equatable {
    /// `CLASS.key…`, as `--set population.…` names it (`deliberate.reaction.mu`, `accidental.weight`).
    public let keyPath: String
    public let value: Double
    /// From the observed information (the inverse numerical Hessian of −ℓ), by the delta method.
    public let standardError: Double
    /// The interval at the request's confidence: on the log scale for a positive number (so it stays positive),
    /// on the natural scale otherwise; a weight's is clipped to [0, 1].
    public let lower: Double
    public let upper: Double
}

/// `holdlab fit --telemetry FILE`: the base population's classes fitted to an app's telemetry by censored maximum
/// likelihood (``TelemetryModel``), and the population file that results.
public struct TelemetryFitRequest: Sendable {
    /// The telemetry CSV (``TelemetryFile``).
    public var path: String
    /// The classes to fit and the starting values; what the fit does not estimate (patience, movement) is kept.
    public var base: Population
    /// Two-sided confidence of the intervals (the emitted ranges).
    public var confidence: Double
    /// The command line the result records.
    public var commandLine: String

    public init(path: String, base: Population, confidence: Double = 0.95, commandLine: String) {
        self.path = path
        self.base = base
        self.confidence = confidence
        self.commandLine = commandLine
    }

    /// Nelder–Mead's first steps in the optimiser's coordinates (log or logit units; a real number's is this times
    /// its scale), then the polishing restart's, and the simplex size at which each stops.
    static let initialStep = 0.1
    static let polishStep = 0.02
    static let sizeTolerance = 1e-8
    static let maxIterations = 40_000
    /// Central-difference steps for the observed information: log and logit coordinates, and seconds.
    static let hessianStep = 1e-4
    static let hessianStepSeconds = 1e-5

    /// Reads the telemetry, fits, and returns the estimates with the population they make.
    ///
    /// - Throws: `FitError`: the file's problems (file, line, column, what is allowed); a base population whose
    ///   react and anticipate classes the telemetry cannot tell apart (one control setting); a fit that finds no
    ///   finite likelihood or no standard errors (a class the data do not determine).
    public func run() throws(FitError) -> TelemetryFitResult {
        guard confidence > 0, confidence < 1 else {
            throw FitError(.invalidData, "the confidence must be between 0 and 1 (got \(confidence))")
        }
        let data = try TelemetryFile.read(path: path)
        let model = try TelemetryModel(base: base)
        let behaviors = model.classes.map(\.behavior)
        let reacts = behaviors.contains { if case .react = $0 { true } else { false } }
        let anticipates = behaviors.contains { if case .anticipate = $0 { true } else { false } }
        if reacts && anticipates && Set(data.settings.map(\.triggerSeconds)).count < 2 {
            throw FitError(.invalidData, path: path,
                           "every hold has the same trigger_ms (\((data.settings[0].triggerSeconds * 1000).shortText) ms): one control "
                           + "setting cannot tell reacting from anticipating people apart (both let go around its end); "
                           + "give telemetry from at least two trigger settings")
        }
        let holds = data.holds
        let objective: ([Double]) -> Double = { u in -model.logLikelihood(u, holds: holds) }
        let start = model.start
        let steps = start.indices.map { index -> Double in
            guard index < model.parameters.count, !model.parameters[index].positive else { return Self.initialStep }
            return Self.initialStep * max(abs(model.parameters[index].start), 0.02)
        }
        var best: Minimization.Result
        do {
            best = try Minimization.nelderMead(start: start, steps: steps, sizeTolerance: Self.sizeTolerance,
                                               maxIterations: Self.maxIterations, objective)
            // Restart from the result until a restart no longer improves it (Nelder–Mead can settle on a non-minimum).
            for _ in 0..<4 {
                let again = try Minimization.nelderMead(
                    start: best.point, steps: steps.map { $0 * Self.polishStep / Self.initialStep },
                    sizeTolerance: Self.sizeTolerance, maxIterations: Self.maxIterations, objective)
                let improved = again.value < best.value - 1e-9
                if again.value <= best.value { best = again }
                if !improved { break }
            }
        } catch {
            throw FitError(.fitFailed, path: path, "the likelihood is not finite near the base population's values: \(error)")
        }
        guard best.value.isFinite, best.value < Minimization.nonFinitePenalty else {
            throw FitError(.fitFailed, path: path, "no parameters give the telemetry a finite likelihood")
        }
        let hessianSteps = start.indices.map { index -> Double in
            index < model.parameters.count && !model.parameters[index].positive ? Self.hessianStepSeconds : Self.hessianStep
        }
        let (_, covariance) = DistributionFitting.observedInformation(objective, at: best.point, steps: hessianSteps)
        guard let covariance else {
            throw FitError(.fitFailed, path: path, "the fit has no standard errors: the observed information is not positive "
                           + "definite, so the telemetry does not determine every parameter (a class too rare, or two "
                           + "classes alike); drop or merge classes in the base population")
        }
        let parameters = Self.estimates(model, at: best.point, covariance: covariance, confidence: confidence)
        return try TelemetryFitResult(request: self, data: data, parameters: parameters, logLikelihood: -best.value,
                                      converged: best.converged || best.stalled, iterations: best.iterations)
    }

    /// The estimates with their errors and intervals, behaviour parameters first, then every class's weight.
    static func estimates(_ model: TelemetryModel, at u: [Double], covariance: [[Double]], confidence: Double)
        -> [FittedPopulationParameter]
    {
        let z = Distribution.normal(mean: 0, sd: 1).quantile(0.5 + confidence / 2)
        var result: [FittedPopulationParameter] = []
        for (index, parameter) in model.parameters.enumerated() {
            let se = covariance[index][index].squareRoot()
            if parameter.positive {
                let value = exp(u[index])
                result.append(FittedPopulationParameter(keyPath: parameter.keyPath, value: value, standardError: value * se,
                                                        lower: exp(u[index] - z * se), upper: exp(u[index] + z * se)))
            } else {
                result.append(FittedPopulationParameter(keyPath: parameter.keyPath, value: u[index], standardError: se,
                                                        lower: u[index] - z * se, upper: u[index] + z * se))
            }
        }
        // w = softmax(0, u₁, …): ∂wₖ/∂uⱼ = wₖ(δₖⱼ − wⱼ) for j ≥ 1.
        let weights = model.weights(u)
        let offset = model.parameters.count
        for (k, weight) in weights.enumerated() {
            let gradient = (1..<weights.count).map { j in weight * ((k == j ? 1 : 0) - weights[j]) }
            var variance = 0.0
            for a in gradient.indices {
                for b in gradient.indices {
                    variance += gradient[a] * covariance[offset + a][offset + b] * gradient[b]
                }
            }
            let se = max(variance, 0).squareRoot()
            result.append(FittedPopulationParameter(
                keyPath: "\(model.classes[k].name).weight", value: weight, standardError: se,
                lower: max(0, weight - z * se), upper: min(1, weight + z * se)))
        }
        return result
    }
}

/// What a telemetry fit found: the estimates, the population file they make, and the table `fit` prints.
public struct TelemetryFitResult: Sendable {
    public let request: TelemetryFitRequest
    public let data: TelemetryData
    /// Behaviour parameters in class order, then the weights.
    public let parameters: [FittedPopulationParameter]
    public let logLikelihood: Double
    public let converged: Bool
    public let iterations: Int
    /// The fitted population, as `populationYAML` writes it and `Population.load` reads it back.
    public let population: Population

    init(request: TelemetryFitRequest, data: TelemetryData, parameters: [FittedPopulationParameter],
         logLikelihood: Double, converged: Bool, iterations: Int) throws(FitError) {
        self.request = request
        self.data = data
        self.parameters = parameters
        self.logLikelihood = logLikelihood
        self.converged = converged
        self.iterations = iterations
        let yaml = Self.yaml(request: request, data: data, parameters: parameters)
        do {
            population = try Population.load(yaml: yaml, path: "fitted population")
        } catch {
            throw FitError(.fitFailed, path: request.path, "the fitted values do not make a valid population: \(error)")
        }
        populationYAML = yaml
    }

    /// The population file (schema version 2): every fitted number with its interval as its range and the telemetry
    /// file's hash as its source; the numbers the fit does not estimate as the base population gives them, their
    /// source saying so.
    public let populationYAML: String

    /// `populationYAML` named after the file it is written to (`--emit-population Profiles/populations/ours.yaml`
    /// names it `ours`), as `fit --data` names its population: the library finds a population by its file's name
    /// and refuses a file whose `name:` differs. Standard output (`-`) keeps `BASE-fitted`.
    public func populationYAML(path: String) -> String {
        guard let name = FittedPopulation.name(forPath: path) else { return populationYAML }
        return Self.yaml(request: request, data: data, parameters: parameters, name: name)
    }

    /// The estimate at `keyPath`, if fitted.
    public func parameter(_ keyPath: String) -> FittedPopulationParameter? {
        parameters.first { $0.keyPath == keyPath }
    }

    /// The columns of the table: the parameter, its estimate, standard error and interval.
    public static let columns = [
        ResultColumn("parameter", .text),
        ResultColumn("value", .number, definition: "maximum-likelihood estimate (seconds for times, fractions for weights)"),
        ResultColumn("se", .number, definition: "standard error from the observed information, by the delta method"),
        ResultColumn("lo", .number, definition: "lower end of the confidence interval (log scale for positive numbers)"),
        ResultColumn("hi", .number, definition: "upper end of the confidence interval"),
    ]

    /// The table `holdlab fit --telemetry` writes: one row per fitted number, its provenance naming the file, the
    /// base population, the holds and the likelihood.
    public var document: ResultDocument {
        var provenance = Provenance.made(by: "fit", commandLine: request.commandLine)
        provenance.append("telemetry", "\(data.path) fnv1a64:\(data.contentHash)")
        let censored = data.holds.filter(\.censored).count
        provenance.append("holds", "\(data.holds.count) (\(censored) censored) over \(data.settings.count) control settings")
        provenance.append("base population", "\(request.base.name) fnv1a64:\(request.base.contentHash)")
        provenance.append("loglik", "\(logLikelihood.shortText) after \(iterations) Nelder–Mead iterations\(converged ? "" : " (not converged)")")
        provenance.append("intervals", "\(Self.percent(request.confidence)) % Wald, log scale for positive numbers")
        let rows = parameters.map { parameter -> [ResultCell] in
            [.text(parameter.keyPath), .significant(parameter.value, digits: 6), .significant(parameter.standardError, digits: 4),
             .significant(parameter.lower, digits: 6), .significant(parameter.upper, digits: 6)]
        }
        return ResultDocument(ResultTable(provenance: provenance, columns: Self.columns, rows: rows))
    }

    static func percent(_ confidence: Double) -> String { (confidence * 100).shortText }

    /// Writes the population (see ``populationYAML``).
    static func yaml(request: TelemetryFitRequest, data: TelemetryData, parameters: [FittedPopulationParameter],
                     name: String? = nil) -> String {
        let base = request.base
        let fitted = Dictionary(parameters.map { ($0.keyPath, $0) }, uniquingKeysWith: { first, _ in first })
        let kept = Dictionary(base.parameters.map { ($0.keyPath, $0) }, uniquingKeysWith: { first, _ in first })
        let origin = "telemetry \(data.path) fnv1a64:\(data.contentHash)"
        func number(_ keyPath: String) -> String {
            if let estimate = fitted[keyPath] {
                let source = "fitted to \(origin), \(data.holds.count) holds, by censored maximum likelihood "
                    + "(holdlab \(HoldLabVersion.current) fit); range: \(percent(request.confidence)) % interval, se \(estimate.standardError.shortText)"
                return "{value: \(estimate.value.shortText), range: [\(estimate.lower.shortText), \(estimate.upper.shortText)], "
                    + "source: \(FittedPopulation.quoted(source))}"
            }
            guard let parameter = kept[keyPath] else { return "0" }
            let note = "not fitted to telemetry; as base population \(base.name)"
            let source: String
            switch parameter.evidence.source {
            case let text? where text.hasPrefix(Evidence.assumptionPrefix):
                source = "\(Evidence.assumptionPrefix) \(note): " + String(text.dropFirst(Evidence.assumptionPrefix.count)).trimmingCharacters(in: .whitespaces)
            case let text?:
                source = "\(note): \(text)"
            case nil:
                source = "\(Evidence.assumptionPrefix) \(note), which gives no source"
            }
            let range = parameter.evidence.range.map { ", range: [\($0.lowerBound.shortText), \($0.upperBound.shortText)]" } ?? ""
            return "{value: \(parameter.value.shortText)\(range), source: \(FittedPopulation.quoted(source))}"
        }
        func distribution(_ className: String, _ key: String, _ law: Distribution) -> [String] {
            let prefix = "\(className).\(key)."
            var lines = ["    \(key):", "      dist: \(law.family)"]
            for parameter in base.parameters where parameter.keyPath.hasPrefix(prefix) {
                let name = String(parameter.keyPath.dropFirst(prefix.count))
                lines.append("      \(name): \(number(parameter.keyPath))")
            }
            return lines
        }
        var lines = [
            "version: \(Population.schemaVersion)",
            "name: \(LibraryName.yamlScalar(name ?? "\(base.name)-fitted"))",
            "description: \(FittedPopulation.quoted("\(base.name)'s classes fitted to \(data.holds.count) holds of \(data.path)"))",
            "source: \(FittedPopulation.quoted("holdlab \(HoldLabVersion.current): \(request.commandLine); \(origin)"))",
            "classes:",
        ]
        for userClass in base.classes {
            let name = userClass.name
            lines.append("  - name: \(FittedPopulation.quoted(name))")
            lines.append("    weight: \(number("\(name).weight"))")
            lines.append("    intent: \(userClass.intent.rawValue)")
            lines.append("    behavior: \(userClass.behavior.name)")
            switch userClass.behavior {
            case .react(let reaction, let patience):
                lines += distribution(name, "reaction", reaction)
                lines += distribution(name, "patience", patience)
            case .anticipate:
                lines.append("    bias: \(number("\(name).bias"))")
                lines.append("    weber: \(number("\(name).weber"))")
            case .hold(let duration):
                lines += distribution(name, "hold", duration)
            }
            if userClass.movement != nil {
                lines.append("    movement:")
                lines.append("      drift: \(number("\(name).movement.drift"))")
                if kept["\(name).movement.touchRate"] != nil {
                    lines.append("      touchRate: \(number("\(name).movement.touchRate"))")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
