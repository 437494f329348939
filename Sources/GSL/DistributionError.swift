#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Why a distribution specification was rejected; descriptions are short lowercase sentences that
/// name the family, the parameter, the offending value and what is allowed.
///
/// Pitfall: equality compares the payload doubles, so an error carrying NaN is not `==` to itself;
/// compare ``description`` when that matters.
public enum DistributionError: Error, Equatable, CustomStringConvertible {
    /// The family name is not one of ``Distribution/families``.
    case unknownFamily(String, allowed: [String])
    /// A required parameter is absent (for lognormal, `name` may be `"mu or median"`).
    case missingParameter(family: String, name: String)
    /// A parameter key the family does not take.
    case unknownParameter(family: String, name: String, allowed: [String])
    /// Parameters that exclude each other were given together (lognormal `mu` and `median`).
    case conflictingParameters(family: String, names: [String])
    /// A parameter value outside its domain; `requirement` reads like `"must be > 0"`.
    case invalidParameter(family: String, name: String, value: Double, requirement: String)
    /// Mixture weight number `index` (0-based) is negative, NaN or infinite.
    case invalidWeight(index: Int, value: Double)
    /// The mixture weights sum to zero (or overflow to infinity).
    case invalidTotalWeight(Double)
    /// A mixture without components.
    case emptyMixture
    /// Valid parameters whose draws overflow: at the generator's most extreme uniforms a draw reaches `extreme`
    /// (infinite or NaN).
    case nonFiniteDraws(family: String, extreme: Double)

    /// E.g. `lognormal sigma must be > 0 (got -0.6)`.
    public var description: String {
        switch self {
        case .unknownFamily(let name, let allowed):
            "unknown distribution family \"\(name)\" (allowed: \(allowed.joined(separator: ", ")))"
        case .missingParameter(let family, let name):
            "\(family) is missing parameter \(name)"
        case .unknownParameter(let family, let name, let allowed):
            allowed.isEmpty
                ? "\(family) takes no parameter \"\(name)\""
                : "\(family) has no parameter \"\(name)\" (allowed: \(allowed.joined(separator: ", ")))"
        case .conflictingParameters(let family, let names):
            "\(family) takes \(names.joined(separator: " or ")), not both"
        case .invalidParameter(let family, let name, let value, let requirement):
            "\(family) \(name) \(requirement) (got \(value))"
        case .invalidWeight(let index, let value):
            "mixture component \(index) weight must be finite and >= 0 (got \(value))"
        case .invalidTotalWeight(let total):
            "mixture weights must sum to a finite number > 0 (got \(total))"
        case .emptyMixture:
            "mixture needs at least one component"
        case .nonFiniteDraws(let family, let extreme):
            "\(family) draws overflow: at the generator's most extreme uniforms (2^-32 from 0 or 1) a draw reaches "
                + "\(extreme); the parameters must keep every draw a finite number of seconds"
        }
    }
}

extension Distribution {
    /// Every family name accepted by ``init(family:parameters:)``, in declaration order:
    /// constant, uniform, normal, lognormal, gamma, weibull, exponential, exgaussian, loglogistic, mixture.
    public static let families: [String] = [
        "constant", "uniform", "normal", "lognormal", "gamma",
        "weibull", "exponential", "exgaussian", "loglogistic", "mixture",
    ]

    /// The parameter keys of `family`, or nil for an unknown family.
    ///
    /// lognormal lists `mu`, `median`, `sigma`: exactly one of `mu` and `median` must be given.
    /// mixture returns `[]`: it has no scalar parameters and is built with ``init(mixture:)``.
    public static func parameterNames(of family: String) -> [String]? {
        switch family {
        case "constant": ["value"]
        case "uniform": ["min", "max"]
        case "normal": ["mean", "sd"]
        case "lognormal": ["mu", "median", "sigma"]
        case "gamma", "weibull": ["shape", "scale"]
        case "exponential": ["mean"]
        case "exgaussian": ["mu", "sigma", "tau"]
        case "loglogistic": ["scale", "shape"]
        case "mixture": []
        default: nil
        }
    }

    /// Builds a distribution from a family name and named parameters, rejecting anything invalid.
    ///
    /// Keys per family are ``parameterNames(of:)``. Checks, first failure wins: known family; no
    /// unknown keys (in sorted key order); lognormal not given both `mu` and `median`; no missing
    /// keys; then each value in key order: finite (NaN and ±inf are always rejected), and > 0 for
    /// sd, sigma, median, shape, scale, mean (exponential) and tau; uniform also needs max > min.
    /// `lognormal` with `median: m` is stored as `mu = ln(m)`. Family "mixture" has no scalar
    /// parameters, so it always throws here (``DistributionError/emptyMixture`` when given no keys).
    public init(family: String, parameters: [String: Double]) throws(DistributionError) {
        guard let allowed = Distribution.parameterNames(of: family) else {
            throw .unknownFamily(family, allowed: Distribution.families)
        }
        for name in parameters.keys.sorted() where !allowed.contains(name) {
            throw .unknownParameter(family: family, name: name, allowed: allowed)
        }
        let reader = ParameterReader(family: family, parameters: parameters)
        switch family {
        case "constant":
            self = .constant(value: try reader.finite("value"))
        case "uniform":
            let min = try reader.finite("min")
            let max = try reader.finite("max")
            guard max > min else {
                throw .invalidParameter(family: family, name: "max", value: max, requirement: "must be > min = \(min)")
            }
            self = .uniform(min: min, max: max)
        case "normal":
            self = .normal(mean: try reader.finite("mean"), sd: try reader.positive("sd"))
        case "lognormal":
            switch (parameters["mu"] != nil, parameters["median"] != nil) {
            case (true, true):
                throw .conflictingParameters(family: family, names: ["mu", "median"])
            case (false, false):
                throw .missingParameter(family: family, name: "mu or median")
            case (true, false):
                let mu = try reader.finite("mu")
                self = .lognormal(mu: mu, sigma: try reader.positive("sigma"))
            case (false, true):
                let median = try reader.positive("median")
                self = .lognormal(mu: log(median), sigma: try reader.positive("sigma"))
            }
        case "gamma":
            self = .gamma(shape: try reader.positive("shape"), scale: try reader.positive("scale"))
        case "weibull":
            self = .weibull(shape: try reader.positive("shape"), scale: try reader.positive("scale"))
        case "exponential":
            self = .exponential(mean: try reader.positive("mean"))
        case "exgaussian":
            let mu = try reader.finite("mu")
            let sigma = try reader.positive("sigma")
            self = .exgaussian(mu: mu, sigma: sigma, tau: try reader.positive("tau"))
        case "loglogistic":
            self = .loglogistic(scale: try reader.positive("scale"), shape: try reader.positive("shape"))
        default:
            throw .emptyMixture
        }
        try checkFiniteDraws()
    }

    /// The standard normal quantile at 1 − 2⁻³², and ln 2³²: the most extreme uniforms a generator gives are 2⁻³²
    /// from 0 or 1 (32-bit generators step by 2⁻³²).
    static let extremeNormal = 6.231_648_724_617_21, extremeLog = 22.180_709_777_918_25

    /// The draws at the generator's most extreme uniforms, or bounds beyond them, from closed forms that cannot fail
    /// to converge (GSL's inverse CDFs do for a gamma of small or large shape, giving NaN for a sound distribution):
    /// each family's quantile at 2⁻³² and 1 − 2⁻³², a gamma's upper one bounded by k + 2√(kL) + 2L scales (Laurent
    /// and Massart's tail bound, L = ln 2³²), an ex-Gaussian's by the sum of its parts' extremes, a mixture's its
    /// components'. A uniform's draws, min·(1 − u) + max·u, lie between its ends.
    public var extremeDraws: [Double] {
        let z = Self.extremeNormal, tail = Self.extremeLog
        switch self {
        case .constant(let value): return [value]
        case .uniform(let min, let max): return [min, max]
        case .normal(let mean, let sd): return [mean - z * sd, mean + z * sd]
        case .lognormal(let mu, let sigma): return [exp(mu - z * sigma), exp(mu + z * sigma)]
        case .gamma(let shape, let scale): return [scale * (shape + 2 * (shape * tail).squareRoot() + 2 * tail)]
        case .weibull(let shape, let scale): return [scale * pow(tail, 1 / shape)]
        case .exponential(let mean): return [mean * tail]
        case .exgaussian(let mu, let sigma, let tau): return [mu - z * sigma, mu + z * sigma + tau * tail]
        case .loglogistic(let scale, let shape): return [scale * exp(-tail / shape), scale * exp(tail / shape)]
        case .mixture(let mixture): return mixture.drawable.flatMap(\.distribution.extremeDraws)
        }
    }

    /// Refuses parameters that are each valid but whose draws overflow (`lognormal mu: 720`, whose median e^720 is
    /// infinite; `exgaussian tau: 1e308`): every draw at the most extreme uniforms must be finite.
    func checkFiniteDraws() throws(DistributionError) {
        if let extreme = extremeDraws.first(where: { !$0.isFinite }) {
            throw .nonFiniteDraws(family: family, extreme: extreme)
        }
    }
}

/// Reads one named parameter and checks its domain, naming the family in errors.
private struct ParameterReader {
    let family: String
    let parameters: [String: Double]

    func finite(_ name: String) throws(DistributionError) -> Double {
        guard let value = parameters[name] else { throw .missingParameter(family: family, name: name) }
        guard value.isFinite else {
            throw .invalidParameter(family: family, name: name, value: value, requirement: "must be finite")
        }
        return value
    }

    func positive(_ name: String) throws(DistributionError) -> Double {
        let value = try finite(name)
        guard value > 0 else {
            throw .invalidParameter(family: family, name: name, value: value, requirement: "must be > 0")
        }
        return value
    }
}
