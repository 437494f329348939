#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif
internal import CGSL

/// The random part of one draw of a ``Distribution``: the generator's numbers it takes, taken in the order
/// `sample` takes them, before the library calls (`log`, `exp`, `log1p`, `pow`) that make them a duration.
///
/// `sample(g)` is `finish(pending(g))`. A simulation draws a block of people's pending draws one person after
/// another (the generator's order), then finishes them a class at a time (``Distribution/finish(_:at:count:into:)``):
/// the same operations on the same numbers, so the same bits, while the library calls of independent people
/// overlap and no branch depends on which class a person drew.
public struct PendingDraw: Sendable {
    /// The numbers drawn, by family: a uniform (`uniform`, `exponential`, `weibull`, `loglogistic`, and the
    /// exgaussian's exponential part in `c`), a polar point's coordinate and squared radius (`normal`,
    /// `lognormal`, the exgaussian's normal part), or the finished value (`constant`, `gamma`).
    var a = 0.0, b = 0.0, c = 0.0
    /// A mixture's component, or `PendingDraw.finished` when `a` is the finished value (a mixture of mixtures).
    var component: Int32 = -1

    static let finished: Int32 = -2

    public init() {}
}

extension Distribution {
    /// The random part of a draw (``PendingDraw``): every number `sample` takes from `g`, in its order.
    @inline(__always)
    public func pending(_ g: Generator) -> PendingDraw {
        var draw = PendingDraw()
        switch self {
        case .constant:
            break
        case .uniform, .exponential:
            draw.a = g.uniform()
        case .normal:
            (draw.a, draw.b) = g.polarPoint()
        case .lognormal:
            // GSL's lognormal draws its own point (uniforms that may be 0, its x kept), not gsl_ran_gaussian's.
            var u: Double, v: Double, r2: Double
            repeat {
                u = -1 + 2 * g.uniform()
                v = -1 + 2 * g.uniform()
                r2 = u * u + v * v
            } while r2 > 1.0 || r2 == 0
            (draw.a, draw.b) = (u, r2)
        case .gamma(let shape, let scale):
            // GSL's rejection loop: its library calls decide how many numbers it takes.
            draw.a = gsl_ran_gamma(g.rng, shape, scale)
        case .weibull, .loglogistic:
            draw.a = g.uniformPositive()
        case .exgaussian:
            (draw.a, draw.b) = g.polarPoint()
            draw.c = g.uniform()
        case .mixture(let mixture):
            let index = mixture.component(at: g.uniform())
            let chosen = mixture.components[index].distribution
            if case .mixture = chosen {
                draw.a = chosen.sample(g)
                draw.component = PendingDraw.finished
            } else {
                draw = chosen.pending(g)
                draw.component = Int32(index)
            }
        }
        return draw
    }

    /// A draw from its random part: GSL's formulas (randist/flat.c, gauss.c, lognormal.c, exponential.c,
    /// weibull.c), so the same values as `gsl_ran_*`, draw for draw (`DistributionSamplingTests`).
    @inline(__always)
    public func finish(_ draw: PendingDraw) -> Double {
        switch self {
        case .constant(let value): return value
        case .uniform(let min, let max): return Self.uniform(draw.a, min: min, max: max)
        case .normal(let mean, let sd): return mean + Generator.gaussian(y: draw.a, r2: draw.b, sigma: sd)
        case .lognormal(let mu, let sigma): return Self.lognormal(draw.a, draw.b, mu: mu, sigma: sigma)
        case .gamma: return draw.a
        case .weibull(let shape, let scale): return scale * pow(-log(draw.a), 1 / shape)
        case .exponential(let mean): return Self.exponential(draw.a, mean: mean)
        case .exgaussian(let mu, let sigma, let tau): return Self.exgaussian(draw, mu: mu, sigma: sigma, tau: tau)
        case .loglogistic(let scale, let shape): return Self.loglogistic(draw.a, scale: scale, shape: shape)
        case .mixture(let mixture):
            if draw.component == PendingDraw.finished { return draw.a }
            return mixture.components[Int(draw.component)].distribution.finish(draw)
        }
    }

    /// Finishes the pending draws `draws[indices[k]]`, k < `count`, of this distribution into `values[k]`: what
    /// `finish` gives each, with the family decided once for the lot.
    public func finish(_ draws: UnsafePointer<PendingDraw>, at indices: UnsafePointer<Int32>, count: Int,
                       into values: UnsafeMutablePointer<Double>) {
        switch self {
        case .lognormal(let mu, let sigma):
            for k in 0..<count {
                let draw = draws[Int(indices[k])]
                values[k] = Self.lognormal(draw.a, draw.b, mu: mu, sigma: sigma)
            }
        case .loglogistic(let scale, let shape):
            for k in 0..<count { values[k] = Self.loglogistic(draws[Int(indices[k])].a, scale: scale, shape: shape) }
        case .exgaussian(let mu, let sigma, let tau):
            for k in 0..<count { values[k] = Self.exgaussian(draws[Int(indices[k])], mu: mu, sigma: sigma, tau: tau) }
        case .exponential(let mean):
            for k in 0..<count { values[k] = Self.exponential(draws[Int(indices[k])].a, mean: mean) }
        default:
            for k in 0..<count { values[k] = finish(draws[Int(indices[k])]) }
        }
    }

    // The formulas, one place each: `finish` and the loops above.

    @inline(__always)
    private static func uniform(_ u: Double, min: Double, max: Double) -> Double { min * (1 - u) + max * u }

    @inline(__always)
    private static func lognormal(_ u: Double, _ r2: Double, mu: Double, sigma: Double) -> Double {
        let normal = u * (-2.0 * log(r2) / r2).squareRoot()
        return exp(sigma * normal + mu)
    }

    @inline(__always)
    private static func exponential(_ u: Double, mean: Double) -> Double { -mean * log1p(-u) }

    @inline(__always)
    private static func exgaussian(_ draw: PendingDraw, mu: Double, sigma: Double, tau: Double) -> Double {
        let normal = Generator.gaussian(y: draw.a, r2: draw.b, sigma: sigma)
        return mu + normal + -tau * log1p(-draw.c)
    }

    /// The inverse of the CDF at `u`.
    @inline(__always)
    private static func loglogistic(_ u: Double, scale: Double, shape: Double) -> Double {
        scale * exp((log(u) - log1p(-u)) / shape)
    }
}
