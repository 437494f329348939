import Foundation
import GSL
import Testing

@Suite("Bessel special functions")
struct SpecialFunctionsTests {
    // Reference values: mpmath 1.3.0 at 30 digits (besseljzero(0, s), besselj(1, x)), cross-checked
    // against SciPy 1.17.1 (jn_zeros, j1). GSL's zeros carry their own error estimate of about
    // 3e-15 relative (j₀,₁ comes out 7 ulps low), so 1e-14 relative is a margin of ~3 over GSL's
    // claim while any wrong-zero or off-by-one mistake is O(1).
    static let zeroTolerance = 1e-14
    // J₁ is O(1) and GSL evaluates it to a few ulps absolute for |x| ≤ 100; near its own zeros
    // (x = 7 is close to j₁,₂ = 7.0156) relative error is meaningless, so the test is absolute.
    static let j1Tolerance = 1e-14

    @Test(
        "zeros of J0 match mpmath",
        arguments: [
            (1, 2.4048255576957727686),
            (2, 5.5200781102863106496),
            (3, 8.653727912911012217),
            (10, 30.634606468431975118),
            (100, 313.37426607752784472),
        ]
    )
    func zerosOfJ0(_ s: Int, _ expected: Double) throws {
        let zero = try SpecialFunctions.besselJ0Zero(s)
        #expect(abs(zero - expected) <= Self.zeroTolerance * expected, "j_{0,\(s)} = \(zero)")
    }

    @Test("the first zero is the textbook 2.404825557695773 and J1 there is 0.5191474972894669")
    func firstZeroAndJ1There() throws {
        let j01 = try SpecialFunctions.besselJ0Zero(1)
        #expect(abs(j01 - 2.404825557695773) <= Self.zeroTolerance * 2.404825557695773)
        // J₁(j₀,₁) = 0.51914749728946678814 (mpmath); evaluated at GSL's j₀,₁, which is 1.7e-15
        // below the true zero, |J₁'| ≤ 1 moves the value by < 2e-15, well inside 1e-14.
        #expect(abs(try SpecialFunctions.besselJ1(j01) - 0.5191474972894669) <= Self.j1Tolerance)
        // Second zero: J₁(j₀,₂) = −0.34026480655836814856 (mpmath), the sign alternates.
        let j02 = try SpecialFunctions.besselJ0Zero(2)
        #expect(abs(try SpecialFunctions.besselJ1(j02) + 0.34026480655836814856) <= Self.j1Tolerance)
    }

    @Test(
        "J1 matches mpmath",
        arguments: [
            (0.0, 0.0),
            (0.1, 0.049937526036242000321),
            (1.0, 0.44005058574493351596),
            (2.5, 0.49709410246427403801),
            (7.0, -0.0046828234823458326991),
            (-3.0, -0.33905895852593645893),
            (100.0, -0.077145352014112158033),
        ]
    )
    func besselJ1(_ x: Double, _ expected: Double) throws {
        let value = try SpecialFunctions.besselJ1(x)
        #expect(abs(value - expected) <= Self.j1Tolerance, "J1(\(x)) = \(value)")
    }

    @Test("J1 is odd and NaN passes through")
    func oddAndNaN() throws {
        for x in [0.3, 4.2, 17.5] {
            #expect(try SpecialFunctions.besselJ1(-x) == -(try SpecialFunctions.besselJ1(x)))
        }
        #expect(try SpecialFunctions.besselJ1(.nan).isNaN)
    }

    @Test("s = 0 and negative s throw GSL_EINVAL instead of aborting")
    func zeroIndexThrows() {
        for s in [0, -1, Int.min, Int(UInt32.max) + 1] {
            #expect {
                _ = try SpecialFunctions.besselJ0Zero(s)
            } throws: { error in
                guard let error = error as? GSLError else { return false }
                return error.status == 4 && error.function == "gsl_sf_bessel_zero_J0_e"
            }
        }
    }

    @Test("an underflowing J1 argument throws GSL_EUNDRFLW and an infinite one GSL_EDOM")
    func j1Errors() {
        // J₁(x) ≈ x/2 is subnormal for the smallest normal x and below: GSL reports underflow (15),
        // which its default handler would turn into abort().
        for x in [Double.leastNormalMagnitude, -Double.leastNonzeroMagnitude] {
            #expect {
                _ = try SpecialFunctions.besselJ1(x)
            } throws: { error in
                (error as? GSLError).map { $0.status == 15 && $0.function == "gsl_sf_bessel_J1_e" } ?? false
            }
        }
        for x in [Double.infinity, -.infinity] {
            #expect {
                _ = try SpecialFunctions.besselJ1(x)
            } throws: { error in
                (error as? GSLError)?.status == 1
            }
        }
    }

    @Test(
        "scaled I0 matches mpmath",
        arguments: [
            (0.0, 1.0),
            (0.5, 0.64503527044915006811),
            (1.0, 0.4657596075936404365),
            (5.0, 0.18354081260932835307),
            (30.0, 0.073145946482237293929),
            (400.0, 0.019953356281939989871),
            (-2.5, 0.27004644161220273956),
        ]
    )
    func besselI0Scaled(_ x: Double, _ expected: Double) throws {
        // Reference: mpmath 1.3.0 at 30 digits, exp(−|x|)·besseli(0, x). GSL's Chebyshev fits are
        // good to a few ulps relative; 1e-14 relative leaves a margin of ~10.
        let value = try SpecialFunctions.besselI0Scaled(x)
        #expect(abs(value - expected) <= 1e-14 * expected, "I0e(\(x)) = \(value)")
    }

    @Test("scaled I0: even, NaN passes through, infinities give the limit 0, huge arguments do not overflow")
    func besselI0ScaledEdges() throws {
        for x in [0.3, 4.2, 700.0] {
            #expect(try SpecialFunctions.besselI0Scaled(-x) == (try SpecialFunctions.besselI0Scaled(x)))
        }
        #expect(try SpecialFunctions.besselI0Scaled(.nan).isNaN)
        #expect(try SpecialFunctions.besselI0Scaled(.infinity) == 0)
        #expect(try SpecialFunctions.besselI0Scaled(-.infinity) == 0)
        // e^(−x)·I₀(x) ≈ 1/√(2πx) for large x: 1e300 gives ~4e-151, finite and positive.
        let huge = try SpecialFunctions.besselI0Scaled(1e300)
        #expect(huge > 0 && abs(huge * (2 * Double.pi * 1e300).squareRoot() - 1) <= 1e-12)
    }
}

@Suite("Gauss–Legendre rules")
struct QuadratureTests {
    @Test("2- and 3-point rules are the textbook ones")
    func smallRules() throws {
        // n = 2: ±1/√3 with weights 1; n = 3: 0, ±√(3/5) with weights 5/9, 8/9, 5/9.
        let two = try Quadrature.gaussLegendre(points: 2)
        #expect(abs(two.nodes[0] + 1 / 3.0.squareRoot()) <= 1e-15 && abs(two.nodes[1] - 1 / 3.0.squareRoot()) <= 1e-15)
        #expect(two.weights.allSatisfy { abs($0 - 1) <= 1e-15 })
        let three = try Quadrature.gaussLegendre(points: 3)
        let outer = (3.0 / 5).squareRoot()
        for (node, expected) in zip(three.nodes, [-outer, 0, outer]) { #expect(abs(node - expected) <= 1e-15) }
        for (weight, expected) in zip(three.weights, [5.0 / 9, 8.0 / 9, 5.0 / 9]) { #expect(abs(weight - expected) <= 1e-15) }
    }

    @Test("an n-point rule integrates x^m exactly up to m = 2n − 1, increasing nodes", arguments: [1, 6, 12, 20])
    func exactness(_ n: Int) throws {
        let rule = try Quadrature.gaussLegendre(points: n)
        #expect(rule.nodes.count == n && rule.weights.count == n)
        #expect(zip(rule.nodes, rule.nodes.dropFirst()).allSatisfy { $0 < $1 })
        #expect(rule.weights.allSatisfy { $0 > 0 })
        // ∫₋₁¹ x^m dx = 2/(m + 1) for even m, 0 for odd m; |x^m| ≤ 1 and Σ w = 2, so rounding is
        // ~n ulps: 1e-14 absolute.
        for m in 0...(2 * n - 1) {
            let sum = zip(rule.nodes, rule.weights).reduce(0.0) { $0 + $1.1 * pow($1.0, Double(m)) }
            let exact = m % 2 == 0 ? 2 / Double(m + 1) : 0
            #expect(abs(sum - exact) <= 1e-14, "n = \(n), m = \(m): \(sum)")
        }
        // One degree more is no longer exact: the rule really has n points. Its error shrinks fast
        // with n (1.8e-7 at n = 12, 2.8e-12 at n = 20), still far above the 1e-14 rounding bound.
        let m = 2 * n
        let sum = zip(rule.nodes, rule.weights).reduce(0.0) { $0 + $1.1 * pow($1.0, Double(m)) }
        #expect(abs(sum - 2 / Double(m + 1)) > 1e-13)
    }

    @Test("n < 1 throws GSL_EINVAL instead of returning an empty rule")
    func badCount() {
        for n in [0, -3] {
            #expect(throws: GSLError.invalidArgument("gsl_integration_glfixed_table_alloc")) {
                _ = try Quadrature.gaussLegendre(points: n)
            }
        }
    }
}

@Suite("Digamma and trigamma")
struct PolygammaTests {
    // ψ(1) = −γ, ψ(1/2) = −γ − 2 ln 2, ψ(4) = 1 + 1/2 + 1/3 − γ; ψ′(1) = π²/6, ψ′(1/2) = π²/2,
    // ψ′(4) = π²/6 − 1 − 1/4 − 1/9 (closed forms). GSL evaluates both to a few ulps: 1e-14 relative.
    static let euler = 0.577_215_664_901_532_860_6

    @Test("closed-form values at 1/2, 1 and 4; the recurrences at 123.4; x ≤ 0 and NaN throw GSL_EDOM")
    func values() throws {
        let pi2 = Double.pi * Double.pi
        let cases: [(Double, Double, Double)] = [
            (0.5, -Self.euler - 2 * log(2.0), pi2 / 2),
            (1, -Self.euler, pi2 / 6),
            (4, 1 + 0.5 + 1.0 / 3 - Self.euler, pi2 / 6 - 1 - 0.25 - 1.0 / 9),
        ]
        for (x, psi, psi1) in cases {
            #expect(abs(try SpecialFunctions.digamma(x) - psi) <= 1e-14 * abs(psi), "ψ(\(x))")
            #expect(abs(try SpecialFunctions.trigamma(x) - psi1) <= 1e-14 * psi1, "ψ′(\(x))")
        }
        let x = 123.4
        #expect(abs(try SpecialFunctions.digamma(x + 1) - SpecialFunctions.digamma(x) - 1 / x) <= 1e-14)
        #expect(abs(try SpecialFunctions.trigamma(x) - SpecialFunctions.trigamma(x + 1) - 1 / (x * x)) <= 1e-17)
        for bad in [0, -1.5, Double.nan] {
            #expect(throws: GSLError.self) { try SpecialFunctions.digamma(bad) }
            #expect(throws: GSLError.self) { try SpecialFunctions.trigamma(bad) }
        }
    }
}
