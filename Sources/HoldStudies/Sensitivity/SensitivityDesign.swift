import GSL

/// The two global sensitivity methods of `holdlab sensitivity`.
public enum SensitivityMethod: String, Sendable, CaseIterable {
    /// Variance-based: Saltelli's sampling scheme, Sobol' first-order (S1), total (ST) and optionally
    /// second-order (S2) indices.
    case sobol
    /// Elementary effects (Morris screening): mu, mu*, sigma per parameter from r one-at-a-time trajectories.
    case morris
}

/// Saltelli's sampling scheme in the layout SALib (`SALib.sample.saltelli`) writes and `SALib.analyze.sobol`
/// reads, built on GSL's (unscrambled) Sobol sequence of dimension 2d.
///
/// Point i of the sequence (after the skipped ones) gives two base rows, A = its first d coordinates and B = its
/// last d. Each base row contributes, in this order: A, AB₁ … AB_d (A with column j taken from B), with second-order
/// indices also BA₁ … BA_d (B with column j taken from A), then B: N·(d + 2) or N·(2d + 2) rows.
///
/// Skipping: SALib skips the first M points of its Sobol sequence (M = the smallest power of two ≥ N, at least 16)
/// because the first points repeat values across dimensions (Campolongo et al. 2011, table 2). GSL's sequence
/// leaves out the origin that SALib's starts with, so M − 1 GSL points are skipped: the first base row is point M
/// of the sequence counted from the origin, as in SALib. (The direction numbers differ: GSL uses Bratley and Fox's,
/// SALib Joe and Kuo's; the design's layout, not its exact numbers, is what SALib needs to analyse it.)
public struct SaltelliDesign: Sendable, Equatable {
    public let baseRows: Int
    public let dimensions: Int
    public let secondOrder: Bool

    /// At most 20 parameters: the Sobol sequence has 2d dimensions and GSL's goes to 40.
    public static var maximumParameters: Int { SobolSequence.maximumDimensions / 2 }

    public init(baseRows: Int, dimensions: Int, secondOrder: Bool) {
        self.baseRows = baseRows
        self.dimensions = dimensions
        self.secondOrder = secondOrder
    }

    /// Rows per base row: d + 2, or 2d + 2 with second order.
    public var rowsPerBase: Int { secondOrder ? 2 * dimensions + 2 : dimensions + 2 }
    /// Simulations: N·(d + 2) or N·(2d + 2).
    public var rowCount: Int { baseRows * rowsPerBase }

    /// Points of the 2d-dimensional sequence skipped before the first base row, counted with the origin (SALib's
    /// default `skip_values`): the smallest power of two ≥ N, at least 16.
    public var skippedPoints: Int {
        var power = 16
        while power < baseRows { power *= 2 }
        return power
    }

    /// Whether N is a power of two (Sobol' sequences balance best over 2^k points; SALib warns otherwise).
    public var baseRowsArePowerOfTwo: Bool { baseRows > 0 && baseRows & (baseRows - 1) == 0 }

    /// The design in [0, 1)^d, row by row in SALib's order.
    public func unitRows() throws(SweepError) -> [[Double]] {
        guard (1...Self.maximumParameters).contains(dimensions) else {
            throw SweepError("--method sobol takes 1 to \(Self.maximumParameters) --vary parameters (GSL's Sobol sequence has at most \(SobolSequence.maximumDimensions) dimensions, and Saltelli's scheme needs 2 per parameter); got \(dimensions)")
        }
        let sequence: SobolSequence
        do {
            sequence = try SobolSequence(dimensions: 2 * dimensions)
            for _ in 0..<(skippedPoints - 1) { _ = try sequence.next() }
        } catch {
            throw SweepError("--method sobol: \(error)")
        }
        var rows: [[Double]] = []
        rows.reserveCapacity(rowCount)
        for _ in 0..<baseRows {
            let point: [Double]
            do { point = try sequence.next() } catch { throw SweepError("--method sobol: \(error)") }
            let a = Array(point[0..<dimensions])
            let b = Array(point[dimensions..<(2 * dimensions)])
            rows.append(a)
            for j in 0..<dimensions {
                var ab = a
                ab[j] = b[j]
                rows.append(ab)
            }
            if secondOrder {
                for j in 0..<dimensions {
                    var ba = b
                    ba[j] = a[j]
                    rows.append(ba)
                }
            }
            rows.append(b)
        }
        return rows
    }
}

/// Morris's one-at-a-time design (Morris 1991) as SALib (`SALib.sample.morris`, without trajectory optimisation)
/// builds it: r trajectories of d + 1 points on a p-level grid of [0, 1]^d.
///
/// With Δ = p / (2(p − 1)), a trajectory starts from x* drawn uniformly from {0, 1/(p − 1), …, 1 − Δ} in each
/// coordinate, a direction D_i = ±1 per parameter and a random order π of the parameters. Point 0 has coordinate
/// x*_i, plus Δ where D_i = −1; point k moves parameter π(k) by D_i·Δ. Every move stays on the grid and in [0, 1].
/// Draws come from GSL stream `stream` of the seed: for each trajectory the d starting levels, the d directions,
/// then the order (a GSL shuffle).
public struct MorrisDesign: Sendable, Equatable {
    public let trajectories: Int
    public let levels: Int
    public let dimensions: Int
    public let seed: UInt64

    /// The stream of the master seed that draws trajectories (far from the simulation's chunk streams).
    static let stream: UInt64 = 0x3022_1500_0000_0000

    public init(trajectories: Int, levels: Int, dimensions: Int, seed: UInt64) {
        self.trajectories = trajectories
        self.levels = levels
        self.dimensions = dimensions
        self.seed = seed
    }

    /// The step of an elementary effect, as a fraction of each range: p / (2(p − 1)).
    public var delta: Double { Double(levels) / (2 * Double(levels - 1)) }
    /// Simulations: r·(d + 1).
    public var rowCount: Int { trajectories * (dimensions + 1) }

    /// One trajectory: its points in [0, 1]^d, and which parameter each step moves and in which direction.
    public struct Trajectory: Sendable, Equatable {
        public var points: [[Double]]
        /// For step k (1…d): the parameter that moved from point k − 1 to point k.
        public var moved: [Int]
        /// +1 when that parameter went up, −1 when down (indexed by parameter).
        public var direction: [Double]
    }

    public func build() -> [Trajectory] {
        let generator = Generator(seed: seed, stream: Self.stream, kind: .mt19937)
        let startLevels = levels / 2
        let step = 1 / Double(levels - 1)
        var result: [Trajectory] = []
        result.reserveCapacity(trajectories)
        for _ in 0..<trajectories {
            let start = (0..<dimensions).map { _ in Double(generator.uniformInt(below: startLevels)) * step }
            let direction = (0..<dimensions).map { _ in generator.uniformInt(below: 2) == 0 ? -1.0 : 1.0 }
            var order = Array(0..<dimensions)
            generator.shuffle(&order)
            var point = zip(start, direction).map { $1 < 0 ? $0 + delta : $0 }
            var points = [point]
            for parameter in order {
                point[parameter] += direction[parameter] * delta
                points.append(point)
            }
            result.append(Trajectory(points: points, moved: order, direction: direction))
        }
        return result
    }
}

extension SweepParameter {
    /// The value at a Morris grid position u ∈ [0, 1]: a range's start + u·(stop − start) (its stop at u = 1), or
    /// a list's item round(u·(k − 1)), so p = k levels visit every item.
    func levelValue(at u: Double) -> String {
        switch values {
        case .list(let items):
            return items[max(0, min(items.count - 1, Int((u * Double(items.count - 1)).rounded())))]
        case .range(let start, let stop, _):
            return Self.format(u >= 1 ? stop : start + u * (stop - start))
        }
    }
}

extension SweepPlan {
    /// A plan of points already chosen by a sensitivity design (`.saltelli` or `.morris`).
    init(parameters: [SweepParameter], design: SweepDesign, chosen points: [[String]]) {
        self.parameters = parameters
        self.design = design
        self.points = points
    }
}
