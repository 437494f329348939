import GSL

/// |a − b| ≤ tolerance · max(|a|, |b|), with exact equality required when either is 0 or infinite.
func isClose(_ a: Double, _ b: Double, relative tolerance: Double) -> Bool {
    if a == b { return true }
    return abs(a - b) <= tolerance * max(abs(a), abs(b))
}

/// One distribution with reference values computed once with SciPy 1.17.1 (ex-Gaussian with
/// mpmath at 40 digits, since SciPy's exponnorm is off by ~1e-15 relative).
struct Reference: Sendable, CustomStringConvertible {
    let name: String
    let distribution: Distribution
    /// (x, pdf, cdf, survival) triples.
    let points: [(x: Double, pdf: Double, cdf: Double, survival: Double)]
    let mean: Double
    let variance: Double
    let median: Double

    var description: String { name }
}

/// μ of the lognormal used throughout: median 0.12 s, rounded as the profiles print it.
let lognormalMu = -2.120264

let lognormalReference = Distribution.lognormal(mu: lognormalMu, sigma: 0.6)
let exgaussianReference = Distribution.exgaussian(mu: 0.19, sigma: 0.025, tau: 0.06)

/// Weights 9 and 1 deliberately do not sum to 1: the mixture must normalise them to 0.9 and 0.1.
let mixtureReference: Distribution = {
    do {
        return try Distribution(mixture: [(weight: 9, distribution: lognormalReference), (weight: 1, distribution: exgaussianReference)])
    } catch {
        return .constant(value: .nan)
    }
}()

let references: [Reference] = [
    Reference(
        name: "uniform", distribution: .uniform(min: 0.1, max: 0.5),
        points: [(0.05, 0, 0, 1), (0.2, 2.5, 0.25, 0.75), (0.45, 2.5, 0.87499999999999989, 0.12500000000000011)],
        mean: 0.30000000000000004, variance: 0.013333333333333334, median: 0.30000000000000004),
    Reference(
        name: "normal", distribution: .normal(mean: 0.3, sd: 0.05),
        points: [
            (0.22, 2.2184166935891128, 0.054799291699558043, 0.94520070830044201),
            (0.3, 7.9788456080286538, 0.5, 0.5),
            (0.41, 0.70949185692462913, 0.98609655248650141, 0.013903447513498616),
        ],
        mean: 0.29999999999999999, variance: 0.0025000000000000005, median: 0.29999999999999999),
    Reference(
        name: "lognormal", distribution: lognormalReference,
        points: [
            (0.05, 4.5864799714783349, 0.072266895780965221, 0.92773310421903477),
            (0.12, 5.5408650055737994, 0.50000030838232223, 0.49999969161767771),
            (0.4, 0.22199768372297843, 0.97760504256025738, 0.022394957439742631),
        ],
        mean: 0.14366601694231618, variance: 0.0089438863672518642, median: 0.11999994434402382),
    Reference(
        name: "gamma", distribution: .gamma(shape: 2.5, scale: 0.08),
        points: [
            (0.05, 2.4869083934039407, 0.060008439711155423, 0.93999156028884456),
            (0.2, 3.051038033734685, 0.58411981300449201, 0.41588018699550788),
            (0.6, 0.10682111186517643, 0.98963766208421355, 0.010362337915786429),
        ],
        mean: 0.20000000000000001, variance: 0.016, median: 0.17405840764382105),
    Reference(
        name: "weibull", distribution: .weibull(shape: 1.8, scale: 0.35),
        points: [
            (0.1, 1.6998195106970069, 0.099564135820232005, 0.90043586417976795),
            (0.35, 1.8919514117388465, 0.63212055882855767, 0.36787944117144233),
            (0.9, 0.04591614685371017, 0.9958060678182884, 0.0041939321817115859),
        ],
        mean: 0.31125035635827447, variance: 0.032015721476030587, median: 0.2855207954853875),
    Reference(
        name: "exponential", distribution: .exponential(mean: 0.2),
        points: [
            (0.01, 4.7561471225035694, 0.048770575499285991, 0.95122942450071402),
            (0.2, 1.8393972058572117, 0.63212055882855767, 0.36787944117144233),
            (1.5, 0.002765421850739168, 0.99944691562985222, 0.00055308437014783363),
        ],
        mean: 0.20000000000000001, variance: 0.040000000000000008, median: 0.13862943611198905),
    Reference(
        name: "exgaussian", distribution: exgaussianReference,
        points: [
            (0.15, 0.77415896187652877, 0.0083497539869663018, 0.99165024601303375),
            (0.21, 8.456763968627005, 0.28073876329898284, 0.71926123670101709),
            (0.5, 0.10367954920314951, 0.99377922704781108, 0.0062207729521889704),
        ],
        mean: 0.25, variance: 0.0042250000000000005, median: 0.23605064668961928),
    Reference(
        name: "loglogistic", distribution: .loglogistic(scale: 0.1, shape: 4),
        points: [
            (0.05, 4.4290657439446361, 0.058823529411764705, 0.94117647058823528),
            (0.1, 10, 0.5, 0.5),
            (0.3, 0.16061867935752538, 0.98780487804878048, 0.01219512195121952),
        ],
        mean: 0.11107207345395914, variance: 0.0033709577665872702, median: 0.10000000000000001),
    Reference(
        name: "mixture", distribution: mixtureReference,
        points: [
            (0.05, 4.12783199101841, 0.065040206273353163, 0.93495979372664673),
            (0.15, 3.8002650104291957, 0.58135193024128418, 0.41864806975871582),
            (0.4, 0.25469094952000987, 0.97655095625407196, 0.023449043745928128),
        ],
        mean: 0.15429941524808455, variance: 0.00948962016628874, median: .nan),
]
