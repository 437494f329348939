import Foundation
@testable import HoldStudies
import Testing
@testable import HoldSimulation

/// The Ishigami function f = sin x₁ + a·sin² x₂ + b·x₃⁴·sin x₁ on [−π, π]³ (Ishigami and Homma 1990), whose
/// Sobol' indices are known in closed form (Sobol' and Levitan 1999; SALib's test function):
/// V = a²/8 + bπ⁴/5 + b²π⁸/18 + 1/2, V₁ = (1 + bπ⁴/5)²/2, V₂ = a²/8, V₃ = 0, V₁₃ = 8b²π⁸/225.
enum Ishigami {
    static let a = 7.0
    static let b = 0.1
    static func f(_ x: [Double]) -> Double { sin(x[0]) + a * pow(sin(x[1]), 2) + b * pow(x[2], 4) * sin(x[0]) }
    static let pi4 = pow(Double.pi, 4)
    static let pi8 = pow(Double.pi, 8)
    static let variance = a * a / 8 + b * pi4 / 5 + b * b * pi8 / 18 + 0.5
    static let v13 = 8 * b * b * pi8 / 225
    static let first = [0.5 * pow(1 + b * pi4 / 5, 2) / variance, a * a / 8 / variance, 0]
    static let total = [(0.5 * pow(1 + b * pi4 / 5, 2) + v13) / variance, a * a / 8 / variance, v13 / variance]
    /// S2 in the order (1,2), (1,3), (2,3).
    static let second = [0, v13 / variance, 0]

    static func outputs(_ design: SaltelliDesign) throws -> [Double] {
        try design.unitRows().map { row in f(row.map { -Double.pi + 2 * Double.pi * $0 }) }
    }
}

@Suite("sensitivity: Saltelli and Morris designs, Sobol' and Morris estimators")
struct SensitivityTests {
    @Test("Ishigami's closed-form indices: the published values, to 1e-3")
    func ishigamiReference() {
        // Saltelli et al. 2008, table 4.1 / the issue: S1 = 0.314, 0.442, 0; ST = 0.558, 0.442, 0.244.
        for (value, reference) in zip(Ishigami.first + Ishigami.total, [0.314, 0.442, 0, 0.558, 0.442, 0.244]) {
            #expect(abs(value - reference) < 1e-3)
        }
    }

    @Test("Ishigami at N = 2^14: every S1, ST and S2 within its bootstrap 95 % interval, and close to the truth")
    func ishigami() throws {
        let design = SaltelliDesign(baseRows: 1 << 14, dimensions: 3, secondOrder: true)
        let outputs = try Ishigami.outputs(design)
        let indices = try SobolIndices.analyze(
            outputs: outputs, design: design, bootstrap: SensitivityBootstrap(resamples: 200, seed: 1)).get()
        let cases = zip(indices.first, Ishigami.first).map { ("S1", $0, $1) }
            + zip(indices.total, Ishigami.total).map { ("ST", $0, $1) }
            + zip(indices.second, Ishigami.second).map { ("S2", $0, $1) }
        for (name, estimate, truth) in cases {
            #expect(estimate.lower <= truth && truth <= estimate.upper, "\(name): \(truth) outside [\(estimate.lower), \(estimate.upper)]")
            // The intervals are narrow at this N: a 95 % half-width of at most 0.03 (S2's is the widest).
            #expect(estimate.halfWidth > 0 && estimate.halfWidth < 0.03, "\(name) half-width \(estimate.halfWidth)")
        }
    }

    @Test("Ishigami without second order: the d + 2 layout gives the same S1 and ST as the 2d + 2 one")
    func layouts() throws {
        let bootstrap = SensitivityBootstrap(resamples: 50, seed: 3)
        let short = SaltelliDesign(baseRows: 1024, dimensions: 3, secondOrder: false)
        let long = SaltelliDesign(baseRows: 1024, dimensions: 3, secondOrder: true)
        let shortRows = try short.unitRows()
        let longRows = try long.unitRows()
        #expect(shortRows.count == 1024 * 5 && longRows.count == 1024 * 8)
        // Per base row: A, AB_j (A with column j of B), [BA_j (B with column j of A)], B.
        for base in [0, 17, 1023] {
            let a = longRows[base * 8], b = longRows[base * 8 + 7]
            #expect(shortRows[base * 5] == a && shortRows[base * 5 + 4] == b)
            for j in 0..<3 {
                var ab = a, ba = b
                ab[j] = b[j]
                ba[j] = a[j]
                #expect(longRows[base * 8 + 1 + j] == ab && shortRows[base * 5 + 1 + j] == ab)
                #expect(longRows[base * 8 + 4 + j] == ba)
            }
        }
        // The indices are statistics of A, B and AB only, but the standardisation uses every output (SALib's), so
        // the two layouts agree only approximately.
        let s = try SobolIndices.analyze(outputs: try Ishigami.outputs(short), design: short, bootstrap: bootstrap).get()
        let l = try SobolIndices.analyze(outputs: try Ishigami.outputs(long), design: long, bootstrap: bootstrap).get()
        for j in 0..<3 {
            #expect(abs(s.total[j].value - l.total[j].value) < 1e-12)  // ST does not depend on the shift (but for rounding)
            #expect(abs(s.first[j].value - l.first[j].value) < 0.02)
        }
    }

    @Test("Saltelli design: SALib's skip (the power of two ≥ N, at least 16), the first base row, too many parameters")
    func saltelliDesign() throws {
        #expect(SaltelliDesign(baseRows: 8, dimensions: 2, secondOrder: false).skippedPoints == 16)
        #expect(SaltelliDesign(baseRows: 100, dimensions: 2, secondOrder: false).skippedPoints == 128)
        #expect(SaltelliDesign(baseRows: 128, dimensions: 2, secondOrder: false).skippedPoints == 128)
        #expect(!SaltelliDesign(baseRows: 100, dimensions: 2, secondOrder: false).baseRowsArePowerOfTwo)
        // Point 16 of the 4-dimensional Sobol sequence (counted from the origin) is (1/32)·(1, 31, 13, 3)? Whatever
        // its digits, every coordinate is a multiple of 1/32 in [0, 1): points 16…31 are the 32-point net's second half.
        let first = try SaltelliDesign(baseRows: 8, dimensions: 2, secondOrder: false).unitRows()[0]
        for x in first { #expect(x >= 0 && x < 1 && (x * 32).rounded() == x * 32) }
        #expect(throws: SweepError.self) { try SaltelliDesign(baseRows: 8, dimensions: 21, secondOrder: false).unitRows() }
    }

    @Test("Morris on a linear function over unit ranges: mu = the coefficient, mu* = its absolute value, sigma = 0")
    func morrisLinear() {
        let coefficients = [3.0, -2.0, 0.5, 0, 10]
        for levels in [4, 6, 10] {
            let design = MorrisDesign(trajectories: 25, levels: levels, dimensions: 5, seed: 9)
            let trajectories = design.build()
            let outputs = trajectories.flatMap { $0.points.map { zip(coefficients, $0).reduce(0) { $0 + $1.0 * $1.1 } } }
            let result = MorrisIndices.analyze(outputs: outputs, design: design, trajectories: trajectories,
                                               bootstrap: SensitivityBootstrap(resamples: 100, seed: 1))
            guard case .success(let indices) = result else { Issue.record("undefined"); return }
            for (i, c) in coefficients.enumerated() {
                #expect(abs(indices.mu[i] - c) < 1e-12)
                #expect(abs(indices.muStar[i].value - abs(c)) < 1e-12)
                #expect(indices.sigma[i] < 1e-12)
                #expect(indices.muStar[i].halfWidth < 1e-12)  // every effect the same: nothing to resample
            }
        }
    }

    @Test("Morris trajectories: each step moves one parameter by ±Δ on the p-level grid, every parameter once")
    func morrisDesign() {
        let design = MorrisDesign(trajectories: 40, levels: 6, dimensions: 4, seed: 2)
        #expect(design.delta == 0.6)
        let trajectories = design.build()
        #expect(trajectories == design.build())  // seeded
        #expect(trajectories != MorrisDesign(trajectories: 40, levels: 6, dimensions: 4, seed: 3).build())
        for trajectory in trajectories {
            #expect(trajectory.points.count == 5 && Set(trajectory.moved) == Set(0..<4))
            for point in trajectory.points {
                for x in point { #expect(x >= -1e-12 && x <= 1 + 1e-12 && abs(x * 5 - (x * 5).rounded()) < 1e-9) }
            }
            for (k, parameter) in trajectory.moved.enumerated() {
                let before = trajectory.points[k], after = trajectory.points[k + 1]
                for i in 0..<4 where i != parameter { #expect(before[i] == after[i]) }
                #expect(abs(after[parameter] - before[parameter] - trajectory.direction[parameter] * 0.6) < 1e-12)
            }
        }
    }

    @Test("Morris on Ishigami's x₃: mu ≈ 0 but mu* > 0 (an effect that changes sign), and sigma > mu*")
    func morrisNonlinear() {
        let design = MorrisDesign(trajectories: 200, levels: 4, dimensions: 3, seed: 4)
        let trajectories = design.build()
        let outputs = trajectories.flatMap { $0.points.map { Ishigami.f($0.map { -Double.pi + 2 * Double.pi * $0 }) } }
        guard case .success(let m) = MorrisIndices.analyze(outputs: outputs, design: design, trajectories: trajectories,
                                                           bootstrap: SensitivityBootstrap(resamples: 200, seed: 1)) else {
            Issue.record("undefined")
            return
        }
        // x₂'s effect a·(sin² x₂' − sin² x₂)/Δ is symmetric: |mu| well below mu*.
        #expect(abs(m.mu[1]) < 0.5 * m.muStar[1].value)
        #expect(m.muStar[2].value > 0 && m.sigma[2] > m.muStar[2].value * 0.5)
        #expect(m.muStar.allSatisfy { $0.lower < $0.value && $0.value < $0.upper })
    }

    @Test("undefined indices: a NaN output names its row; a constant output is 0/0, not 0")
    func undefined() {
        let design = SaltelliDesign(baseRows: 4, dimensions: 2, secondOrder: false)
        let bootstrap = SensitivityBootstrap(resamples: 10, seed: 1)
        var outputs = Array(repeating: 1.0, count: design.rowCount)
        #expect(SobolIndices.analyze(outputs: outputs, design: design, bootstrap: bootstrap) == .failure(UndefinedIndices(.constant)))
        outputs[5] = .nan
        #expect(SobolIndices.analyze(outputs: outputs, design: design, bootstrap: bootstrap) == .failure(UndefinedIndices(.notFinite(row: 5))))
    }

    @Test("the bootstrap is seeded: the same seed gives the same intervals, another seed others")
    func bootstrapSeeded() throws {
        let design = SaltelliDesign(baseRows: 256, dimensions: 3, secondOrder: false)
        let outputs = try Ishigami.outputs(design)
        func run(_ seed: UInt64) throws -> SobolIndices {
            try SobolIndices.analyze(outputs: outputs, design: design, bootstrap: SensitivityBootstrap(resamples: 100, seed: seed)).get()
        }
        #expect(try run(7) == run(7))
        #expect(try run(7).first[0].halfWidth != run(8).first[0].halfWidth)
        #expect(try run(7).first[0].value == run(8).first[0].value)
    }

    @Test("plans: Morris refuses a stepped range and an odd p; Sobol' refuses more simulations than a sweep allows")
    func planErrors() throws {
        let stepped = [try SweepParameter(parsing: "gesture.minimumDuration=0.3:1.5:0.1")]
        #expect(throws: SweepError.self) { try SensitivityPlan(method: .morris, parameters: stepped, points: 10, seed: 1) }
        let ranges = try ["gesture.minimumDuration=0.3:1.5", "fill.curve=linear,easeIn,easeOut"].map { try SweepParameter(parsing: $0) }
        #expect(throws: SweepError.self) { try SensitivityPlan(method: .morris, parameters: ranges, points: 10, levels: 5, seed: 1) }
        #expect(throws: SweepError.self) { try SensitivityPlan(method: .sobol, parameters: ranges, points: 40_000, seed: 1) }
        let morris = try SensitivityPlan(method: .morris, parameters: ranges, points: 3, levels: 4, seed: 1)
        #expect(morris.sweepPlan.points.count == 9 && morris.sweepPlan.design == .morris)
        // A list's levels visit its items: p = 4 levels over 3 items map 0, 1/3, 2/3, 1 to items 0, 1, 1, 2.
        #expect(Set(morris.sweepPlan.points.map { $0[1] }).isSubset(of: ["linear", "easeIn", "easeOut"]))
        let sobol = try SensitivityPlan(method: .sobol, parameters: ranges, points: 8, seed: 1)
        #expect(sobol.sweepPlan.points.count == 32)
        #expect(sobol.sweepPlan.points.allSatisfy { Double($0[0]).map { $0 >= 0.3 && $0 <= 1.5 } ?? false })
        #expect(throws: SweepError.self) { try SweepPlan(parameters: ranges, design: .saltelli, points: 8, seed: 1) }
    }
}
