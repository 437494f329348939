import Foundation
import GSL
import HoldProfiles

/// The likelihood of telemetry under a population's classes: each hold's release time is a mixture over the
/// classes, each class's release law following HoldLab's behaviour for the control setting of that hold.
///
/// - `react`: release = cue + R, R from the class's reaction distribution; the cue is the first of the bar drawn
///   full and the trigger (``TelemetryHold/cueSeconds``).
/// - `anticipate`: release ~ normal(target·(1 + bias), target·weber), the target being the fill's nominal end
///   (``TelemetryHold/targetSeconds``).
/// - `hold`: release from the class's hold distribution, whatever the control does.
///
/// A censored hold contributes ln Σ wₖ Sₖ(t), an observed one ln Σ wₖ fₖ(t). Not modelled, and so not fitted: a
/// react class's patience (it matters only for a control that shows nothing for longer than the patience; fit
/// telemetry from controls with visible feedback), finger movement (a cancel is censoring, independent of the
/// release), the clipping of negative draws at 0 (its probability is negligible for a fitted population).
struct TelemetryModel {
    /// One fitted number, on the scale the optimiser moves (log for positive numbers).
    struct Parameter {
        /// `CLASS.key…` as `--set population.…` names it.
        let keyPath: String
        /// Whether the optimiser moves its logarithm (the number must be > 0).
        let positive: Bool
        /// The base population's value: the starting point.
        let start: Double
    }

    enum Behavior {
        /// The reaction's family and parameter names, each an index into `parameters`.
        case react(family: String, names: [(name: String, index: Int)])
        case anticipate(bias: Int, weber: Int)
        case hold(family: String, names: [(name: String, index: Int)])
    }

    struct ClassModel {
        let name: String
        let behavior: Behavior
    }

    let classes: [ClassModel]
    /// The behaviour parameters; the weights come after them in the optimiser's vector (`classes.count − 1` logits,
    /// the first class's fixed at 0).
    let parameters: [Parameter]
    /// The base population's normalised weights: the starting point of the logits.
    let startWeights: [Double]

    /// Numbers that are any real (others must be > 0): a normal's mean, an ex-Gaussian's or lognormal's mu.
    static let realNames: Set<String> = ["mu", "mean", "value", "min", "max"]

    /// The model of `base`'s classes. Throws for a class whose distribution is a mixture (not fittable here).
    init(base: Population) throws(FitError) {
        var parameters: [Parameter] = []
        var classes: [ClassModel] = []
        func distributionNames(_ userClass: UserClass, key: String, _ distribution: Distribution) throws(FitError)
            -> (String, [(name: String, index: Int)])
        {
            guard distribution.family != "mixture" else {
                throw FitError(.fitFailed, "class \(userClass.name): its \(key) is a mixture, which telemetry cannot be "
                               + "fitted to; give the base population one family there (e.g. {dist: lognormal, median: 0.1, sigma: 0.6})")
            }
            let prefix = "\(userClass.name).\(key)."
            let written = base.parameters.filter { $0.keyPath.hasPrefix(prefix) }
            var names: [(name: String, index: Int)] = []
            for parameter in written {
                let name = String(parameter.keyPath.dropFirst(prefix.count))
                names.append((name, parameters.count))
                parameters.append(Parameter(keyPath: parameter.keyPath, positive: !Self.realNames.contains(name),
                                            start: parameter.value))
            }
            return (distribution.family, names)
        }
        for userClass in base.classes {
            switch userClass.behavior {
            case .react(let reaction, _):
                let (family, names) = try distributionNames(userClass, key: "reaction", reaction)
                classes.append(ClassModel(name: userClass.name, behavior: .react(family: family, names: names)))
            case .anticipate(let bias, let weber):
                let biasIndex = parameters.count
                parameters.append(Parameter(keyPath: "\(userClass.name).bias", positive: false, start: bias))
                parameters.append(Parameter(keyPath: "\(userClass.name).weber", positive: true, start: max(weber, 0.01)))
                classes.append(ClassModel(name: userClass.name, behavior: .anticipate(bias: biasIndex, weber: biasIndex + 1)))
            case .hold(let duration):
                let (family, names) = try distributionNames(userClass, key: "hold", duration)
                classes.append(ClassModel(name: userClass.name, behavior: .hold(family: family, names: names)))
            }
        }
        self.classes = classes
        self.parameters = parameters
        startWeights = base.normalizedWeights
    }

    /// The optimiser's dimension: behaviour parameters, then one logit per class after the first.
    var dimension: Int { parameters.count + classes.count - 1 }

    /// The optimiser's start.
    var start: [Double] {
        let behaviour = parameters.map { $0.positive ? log($0.start) : $0.start }
        // A class the base gives weight 0 starts at a small weight: the fit may find it.
        let first = max(startWeights[0], 1e-3)
        return behaviour + startWeights.dropFirst().map { log(max($0, 1e-3) / first) }
    }

    /// The natural values of the behaviour parameters at `u`.
    func natural(_ u: [Double]) -> [Double] {
        parameters.indices.map { parameters[$0].positive ? exp(u[$0]) : u[$0] }
    }

    /// The normalised class weights at `u`.
    func weights(_ u: [Double]) -> [Double] {
        let logits = [0] + u[parameters.count...]
        let top = logits.max() ?? 0
        let exps = logits.map { exp($0 - top) }
        let total = exps.reduce(0, +)
        return exps.map { $0 / total }
    }

    /// A class's distribution at natural values, or nil where they give none (the optimiser then sees −∞).
    private static func distribution(_ family: String, _ names: [(name: String, index: Int)], _ values: [Double]) -> Distribution? {
        var named: [String: Double] = [:]
        for (name, index) in names { named[name] = values[index] }
        return try? Distribution(family: family, parameters: named)
    }

    /// ℓ at optimiser coordinates `u` over `holds`; −∞ where the parameters are invalid.
    func logLikelihood(_ u: [Double], holds: [TelemetryHold]) -> Double {
        let values = natural(u)
        let logWeights = weights(u).map(log)
        enum Law {
            case shifted(Distribution)
            case anticipate(bias: Double, weber: Double)
            case fixed(Distribution)
        }
        var laws: [Law] = []
        for model in classes {
            switch model.behavior {
            case .react(let family, let names):
                guard let law = Self.distribution(family, names, values) else { return -.infinity }
                laws.append(.shifted(law))
            case .anticipate(let bias, let weber):
                guard values[bias] > -1, values[weber] > 0 else { return -.infinity }
                laws.append(.anticipate(bias: values[bias], weber: values[weber]))
            case .hold(let family, let names):
                guard let law = Self.distribution(family, names, values) else { return -.infinity }
                laws.append(.fixed(law))
            }
        }
        let standard = Distribution.normal(mean: 0, sd: 1)
        let halfLogTwoPi = 0.5 * log(2 * Double.pi)
        var total = 0.0
        var terms = [Double](repeating: 0, count: laws.count)
        for hold in holds {
            let t = hold.time
            for (k, law) in laws.enumerated() {
                let term: Double
                switch law {
                case .shifted(let reaction):
                    let x = t - hold.cueSeconds
                    term = hold.censored ? reaction.logSurvival(x) : reaction.logPDF(x)
                case .anticipate(let bias, let weber):
                    let target = hold.targetSeconds
                    let sd = target * weber
                    let z = (t - target * (1 + bias)) / sd
                    term = hold.censored ? standard.logSurvival(z) : -0.5 * z * z - log(sd) - halfLogTwoPi
                case .fixed(let duration):
                    term = hold.censored ? duration.logSurvival(t) : duration.logPDF(t)
                }
                terms[k] = logWeights[k] + term
            }
            let top = terms.max() ?? -.infinity
            guard top.isFinite else { return -.infinity }
            var sum = 0.0
            for term in terms { sum += exp(term - top) }
            total += top + log(sum)
        }
        return total
    }
}
