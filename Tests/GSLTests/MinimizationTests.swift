#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GSL
import Testing

@Suite("Nelder–Mead and Brent minimisation")
struct MinimizationTests {
    /// Rosenbrock's banana: minimum 0 at (1, 1), a curved valley that slows every simplex method.
    static func rosenbrock(_ p: [Double]) -> Double {
        let a = 1 - p[0]
        let b = p[1] - p[0] * p[0]
        return a * a + 100 * b * b
    }

    @Test("Rosenbrock from the classic start (−1.2, 1) reaches (1, 1)")
    func rosenbrockMinimum() throws {
        let result = try Minimization.nelderMead(start: [-1.2, 1], steps: [0.5, 0.5], sizeTolerance: 1e-10) {
            Self.rosenbrock($0)
        }
        #expect(result.converged)
        // A simplex of size 1e-10 sits in the valley; the valley's floor makes the position ~1e-9-accurate
        // (f ≈ |Δ|²), so 1e-7 is a 100× margin.
        #expect(abs(result.point[0] - 1) < 1e-7 && abs(result.point[1] - 1) < 1e-7, "\(result.point)")
        #expect(result.value < 1e-14)
        #expect(result.value == Self.rosenbrock(result.point))
        #expect(result.iterations > 10 && result.iterations < 10_000)
        #expect(result.size < 1e-10)
    }

    @Test("GSL manual quadratic 10(x − 1)² + 20(y − 2)² + 30: minimum 30 at (1, 2)")
    func manualQuadratic() throws {
        let result = try Minimization.nelderMead(start: [5, 7], steps: [1, 1], sizeTolerance: 1e-7) { p in
            10 * (p[0] - 1) * (p[0] - 1) + 20 * (p[1] - 2) * (p[1] - 2) + 30
        }
        #expect(result.converged && !result.stalled)
        // Size 1e-7 bounds the best vertex's distance from the minimum to a few 1e-7.
        #expect(abs(result.point[0] - 1) < 1e-6 && abs(result.point[1] - 2) < 1e-6, "\(result.point)")
        #expect(abs(result.value - 30) < 1e-11)
    }

    @Test("a tolerance below the objective's resolution ends as stalled, quickly, at the minimum")
    func stall() throws {
        // Around the minimum 30, f changes by 10·d², invisible beside 30 for d < √(30ε/10) ≈ 2.6e-8: size 1e-12
        // cannot be reached.
        let result = try Minimization.nelderMead(start: [5, 7], steps: [1, 1], sizeTolerance: 1e-12) { p in
            10 * (p[0] - 1) * (p[0] - 1) + 20 * (p[1] - 2) * (p[1] - 2) + 30
        }
        #expect(result.stalled && !result.converged)
        #expect(result.iterations < 1_000, "a stall must not run to maxIterations (10,000)")
        #expect(abs(result.point[0] - 1) < 1e-6 && abs(result.point[1] - 2) < 1e-6, "\(result.point)")
        #expect(result.value == 30)
    }

    @Test("a correlated 4-D quadratic: minimum at the known centre")
    func correlatedQuadratic() throws {
        let centre = [0.3, -2.0, 5.0, 1e-3]
        let result = try Minimization.nelderMead(start: [0, 0, 0, 0], steps: [1, 1, 1, 1], sizeTolerance: 1e-10) { p in
            let d = zip(p, centre).map { $0 - $1 }
            // Positive definite: diagonal 4, 3, 2, 1 plus a 0.5 coupling between neighbours.
            var sum = 4 * d[0] * d[0] + 3 * d[1] * d[1] + 2 * d[2] * d[2] + d[3] * d[3]
            for i in 0..<3 { sum += d[i] * d[i + 1] }
            return sum
        }
        #expect(result.converged)
        for (x, c) in zip(result.point, centre) { #expect(abs(x - c) < 1e-8, "\(result.point)") }
    }

    @Test("one dimension works: (x − 3)²")
    func oneDimensionalSimplex() throws {
        let result = try Minimization.nelderMead(start: [0], steps: [1]) { ($0[0] - 3) * ($0[0] - 3) }
        #expect(result.converged && abs(result.point[0] - 3) < 1e-7)
    }

    @Test("maxIterations stops the search with converged == false and the best point so far")
    func iterationLimit() throws {
        let result = try Minimization.nelderMead(start: [-1.2, 1], steps: [0.5, 0.5], maxIterations: 5) {
            Self.rosenbrock($0)
        }
        #expect(!result.converged)
        #expect(result.iterations == 5)
        #expect(result.value <= Self.rosenbrock([-1.2, 1]))
    }

    @Test("NaN and +inf values are penalised, not passed to GSL: the search avoids them and converges")
    func nonFiniteRegions() throws {
        // NaN for x ≤ 0 (like log of a negative scale), +inf for y > 4; minimum at (2, 1).
        var nonFiniteCalls = 0
        let result = try Minimization.nelderMead(start: [1, 1], steps: [5, 5]) { p in
            if p[0] <= 0 { nonFiniteCalls += 1; return .nan }
            if p[1] > 4 { nonFiniteCalls += 1; return .infinity }
            return (p[0] - 2) * (p[0] - 2) + (p[1] - 1) * (p[1] - 1)
        }
        #expect(nonFiniteCalls > 0, "the steps must reach the NaN and +inf regions for this test to mean anything")
        #expect(result.converged)
        #expect(abs(result.point[0] - 2) < 1e-7 && abs(result.point[1] - 1) < 1e-7, "\(result.point)")
        #expect(result.value.isFinite)
    }

    @Test("−inf stops the search at that point, value −inf, not converged")
    func unboundedBelow() throws {
        let result = try Minimization.nelderMead(start: [0], steps: [10]) { p in p[0] > 5 ? -.infinity : p[0] * p[0] }
        #expect(result.value == -.infinity)
        #expect(!result.converged)
        #expect(result.point[0] > 5)
    }

    @Test("bad input throws GSL errors instead of aborting")
    func badInput() {
        #expect(throws: GSLError.self) { try Minimization.nelderMead(start: [], steps: []) { _ in 0 } }
        do {
            _ = try Minimization.nelderMead(start: [1, 2], steps: [1]) { _ in 0 }
            Issue.record("expected GSL_EBADLEN")
        } catch {
            #expect(error.status == 19)
        }
        do {
            _ = try Minimization.nelderMead(start: [1], steps: [0]) { _ in 0 }
            Issue.record("expected GSL_EINVAL")
        } catch {
            #expect(error.status == 4)
        }
        do {
            _ = try Minimization.nelderMead(start: [1, 1], steps: [1, 1]) { _ in .nan }
            Issue.record("expected GSL_EBADFUNC")
        } catch {
            #expect(error.status == 9 && error.function == "gsl_multimin_fminimizer_set")
        }
    }

    @Test("Brent on a bracketing triple: cos has its minimum −1 at π")
    func brentBracketed() throws {
        let result = try Minimization.brent(lower: 2, guess: 3, upper: 4) { cos($0) }
        #expect(result.converged && !result.atBoundary && !result.stalled)
        // The bracket shrinks below 1e-10 + 1e-7·3.14; the minimum lies inside it.
        #expect(abs(result.x - Double.pi) < 4e-7, "\(result.x)")
        #expect(result.lower <= Double.pi && Double.pi <= result.upper)
        #expect(abs(result.value + 1) < 1e-13)
    }

    @Test("Brent asked for a bracket below GSL's √ε·|x| floor ends as stalled, not at maxIterations")
    func brentStall() throws {
        let result = try Minimization.brent(lower: 2, guess: 3, upper: 4, absoluteTolerance: 0,
                                            relativeTolerance: 1e-12, maxIterations: 500) { cos($0) }
        #expect(result.stalled && !result.converged)
        #expect(result.iterations < 100)
        #expect(abs(result.x - Double.pi) < 1e-7)
    }

    @Test("Brent with a scan over an interval: the grid finds the bracket around the interior minimum")
    func brentScan() throws {
        // (x − 0.7)⁴ − x/10: f′ = 4(x − 0.7)³ − 0.1 = 0 at x = 0.7 + (0.025)^(1/3).
        let expected = 0.7 + pow(0.025, 1.0 / 3.0)
        let result = try Minimization.brent(lower: -3, upper: 5) { x in pow(x - 0.7, 4) - x / 10 }
        #expect(result.converged && !result.atBoundary)
        // Bracket below 1e-10 + 1e-7·0.99.
        #expect(abs(result.x - expected) < 2e-7, "\(result.x) vs \(expected)")
    }

    @Test("Brent scan: a minimum at an end is returned as that end, atBoundary")
    func brentBoundary() throws {
        let rising = try Minimization.brent(lower: 1, upper: 2) { $0 * $0 }
        #expect(rising.atBoundary && rising.converged && rising.x == 1 && rising.value == 1 && rising.iterations == 0)
        let falling = try Minimization.brent(lower: 1, upper: 2) { -$0 }
        #expect(falling.atBoundary && falling.x == 2)
    }

    @Test("Brent: NaN values are penalised; errors for a non-bracket, a bad interval, an all-NaN scan")
    func brentNonFiniteAndErrors() throws {
        let result = try Minimization.brent(lower: 0, upper: 4) { x in x < 1 ? .nan : (x - 2) * (x - 2) }
        #expect(result.converged && abs(result.x - 2) < 3e-7)
        do {
            _ = try Minimization.brent(lower: 0, guess: 0.5, upper: 1) { $0 }
            Issue.record("expected GSL_EINVAL")
        } catch {
            #expect(error.status == 4 && error.function == "gsl_min_fminimizer_set_with_values")
        }
        #expect(throws: GSLError.self) { try Minimization.brent(lower: 2, upper: 1) { $0 } }
        do {
            _ = try Minimization.brent(lower: 0, upper: 1) { _ in .nan }
            Issue.record("expected GSL_EBADFUNC")
        } catch {
            #expect(error.status == 9)
        }
        let unbounded = try Minimization.brent(lower: 0, upper: 1) { $0 > 0.5 ? -.infinity : 0 }
        #expect(unbounded.value == -.infinity && !unbounded.converged)
    }
}
