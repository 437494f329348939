import Testing

@testable import HoldModel

// Reference values were computed independently in Python with mpmath at 40 significant digits: X(t) = x solved by
// 140 bisection steps on the Bernstein form 3(1−t)²t·x1 + 3(1−t)t²·x2 + t³ (error < 1e-40), then y = Y(t).
// The Swift solver stops at |X(t) − x| < 1e-7 (DOMAIN §3), so its y error is at most 1e-7 × the local slope
// (≤ 2.3 for these curves): 1e-6 leaves a safety factor of about 4 while still catching any solver slip.

/// Tolerance for comparisons with the high-precision references: 1e-7 solver tolerance × slope ≤ 2.3, rounded up.
private let referenceTolerance = 1e-6

private func close(_ a: Double, _ b: Double, _ tolerance: Double) -> Bool { abs(a - b) <= tolerance }

@Suite("UnitBezier and TimingCurve")
struct CurveTests {

    // MARK: DOMAIN figures

    @Test("DOMAIN §2 figures: easeInOut(0.25), easeIn(0.5), easeOut(0.5), easeInOut slope at 0.5")
    func domainFigures() {
        // DOMAIN quotes four decimals, so 1e-4 is the precision of the figure itself (half a unit in the last place
        // would be 5e-5; the exact values are 0.12916, 0.31536, 0.68464, 1.72414).
        #expect(close(UnitBezier.easeInOut.value(at: 0.25), 0.1292, 1e-4))
        #expect(close(UnitBezier.easeIn.value(at: 0.5), 0.3154, 1e-4))
        #expect(close(UnitBezier.easeOut.value(at: 0.5), 0.6846, 1e-4))
        #expect(close(UnitBezier.easeInOut.slope(at: 0.5), 1.7241, 1e-4))
        // The same figures through TimingCurve.
        #expect(close(TimingCurve.easeInOut.value(at: 0.25) ?? .nan, 0.1292, 1e-4))
        #expect(close(TimingCurve.easeIn.value(at: 0.5) ?? .nan, 0.3154, 1e-4))
    }

    // MARK: Reference tables

    static let referenceTables: [(String, UnitBezier, [(Double, Double)])] = [
        ("easeIn", .easeIn, [
            (0.05, 0.00447461529589), (0.1, 0.0170266096516), (0.2, 0.0622820001367), (0.25, 0.0934646507188),
            (0.3, 0.129576760845), (0.4, 0.214860938753), (0.5, 0.315356812573), (0.6, 0.429119769296),
            (0.7, 0.554814032529), (0.8, 0.691633933319), (0.9, 0.839427845762), (0.95, 0.917757795958),
        ]),
        ("easeOut", .easeOut, [
            (0.05, 0.082242204042), (0.1, 0.160572154238), (0.2, 0.308366066681), (0.25, 0.378138130825),
            (0.3, 0.445185967471), (0.4, 0.570880230704), (0.5, 0.684643187427), (0.6, 0.785139061247),
            (0.7, 0.870423239155), (0.8, 0.937717999863), (0.9, 0.982973390348), (0.95, 0.995525384704),
        ]),
        ("easeInOut", .easeInOut, [
            (0.05, 0.00482974966786), (0.1, 0.0197224535483), (0.2, 0.0816598562659), (0.25, 0.129161931047),
            (0.3, 0.187395906705), (0.4, 0.331883870098), (0.5, 0.5), (0.6, 0.668116129902),
            (0.7, 0.812604093295), (0.8, 0.918340143734), (0.9, 0.980277546452), (0.95, 0.995170250332),
        ]),
        ("ease", .ease, [
            (0.05, 0.0329515413059), (0.1, 0.094796305716), (0.2, 0.295244334268), (0.25, 0.408510591355),
            (0.3, 0.513315160973), (0.4, 0.682540505978), (0.5, 0.802403387585), (0.6, 0.885229309876),
            (0.7, 0.940764614298), (0.8, 0.975625355624), (0.9, 0.994316477485), (0.95, 0.99862454145),
        ]),
        ("bezier(0.3,-0.5,0.7,1.5)", UnitBezier(x1: 0.3, y1: -0.5, x2: 0.7, y2: 1.5), [
            (0.05, -0.060353758391), (0.1, -0.0807916098246), (0.2, -0.0309280299549), (0.25, 0.0280780380369),
            (0.3, 0.103694009283), (0.4, 0.289683867791), (0.5, 0.5), (0.6, 0.710316132209),
            (0.7, 0.896305990717), (0.8, 1.03092802995), (0.9, 1.08079160982), (0.95, 1.06035375839),
        ]),
    ]

    @Test("value(at:) matches a 40-digit reference solver to 1e-6", arguments: 0..<5)
    func referenceTable(index: Int) {
        let (name, curve, table) = Self.referenceTables[index]
        for (x, expected) in table {
            let got = curve.value(at: x)
            #expect(close(got, expected, referenceTolerance), "\(name) at \(x): \(got) vs \(expected)")
        }
    }

    @Test("slope(at:) matches reference slopes; vanishing end tangents use L'Hôpital")
    func slopes() {
        // Reference dy/dx from the 40-digit solver. The slope is taken at a t with |X(t) − x| < 1e-7, so its error is
        // about 1e-7 × |d²y/dx²| (< 10 here) ≈ 1e-6; 1e-5 leaves a margin of 10.
        let table: [(UnitBezier, [(Double, Double)])] = [
            (.easeInOut, [(0.1, 0.402244218816), (0.25, 1.05926184117), (0.5, 1.72413793103),
                          (0.75, 1.05926184117), (0.9, 0.402244218816)]),
            (.ease, [(0.1, 1.53975785289), (0.25, 2.20788294566), (0.5, 0.994142452426),
                     (0.75, 0.346765721613), (0.9, 0.117447087439)]),
            (.easeIn, [(0.1, 0.324183074991), (0.25, 0.674597794608), (0.5, 1.07397877982),
                       (0.75, 1.3682889634), (0.9, 1.53507400983)]),
        ]
        for (curve, points) in table {
            for (x, expected) in points {
                #expect(close(curve.slope(at: x), expected, 1e-5), "\(curve) slope at \(x)")
            }
        }
        // End tangents, exact by construction: Y′/X′ at t = 0 is y1/x1 and at t = 1 is (1−y2)/(1−x2); where both
        // vanish the second-derivative ratio gives 1/0.58 for easeIn at 1 and easeOut at 0.
        #expect(close(UnitBezier.easeIn.slope(at: 1), 1 / 0.58, 1e-12))
        #expect(close(UnitBezier.easeOut.slope(at: 0), 1 / 0.58, 1e-12))
        #expect(close(UnitBezier.ease.slope(at: 0), 0.1 / 0.25, 1e-12))
        #expect(UnitBezier.easeIn.slope(at: 0) == 0)
        #expect(UnitBezier.linear.slope(at: 0.3) == 1)
    }

    // MARK: End points, clamping, monotonicity

    @Test("end points are exact and inputs outside [0, 1] clamp to them")
    func endPoints() {
        let curves: [UnitBezier] = [.linear, .easeIn, .easeOut, .easeInOut, .ease,
                                    UnitBezier(x1: 0.3, y1: -0.5, x2: 0.7, y2: 1.5)]
        for curve in curves {
            #expect(curve.value(at: 0) == 0)
            #expect(curve.value(at: 1) == 1)
            #expect(curve.value(at: -0.5) == 0)
            #expect(curve.value(at: 2) == 1)
            #expect(curve.value(at: .nan).isNaN)
            #expect(curve.solveX(0) == 0)
            #expect(curve.solveX(1) == 1)
        }
        #expect(TimingCurve.linear.value(at: 0.37) == 0.37)
        #expect(TimingCurve.linear.value(at: -1) == 0)
        #expect(TimingCurve.linear.value(at: 7) == 1)
        #expect(TimingCurve.smooth.value(at: 0.5) == nil)
        #expect(UnitBezier.linear.value(at: 0.123456789) == 0.123456789)
    }

    @Test("control-point x is clamped to [0, 1] in init")
    func clamping() {
        let curve = UnitBezier(x1: -0.2, y1: 0.3, x2: 1.7, y2: 0.9)
        #expect(curve.x1 == 0 && curve.x2 == 1)
        #expect(curve.y1 == 0.3 && curve.y2 == 0.9)
        #expect(curve == UnitBezier(x1: 0, y1: 0.3, x2: 1, y2: 0.9))
    }

    @Test("solveX returns t with |X(t) − x| < 1e-7 inside [0, 1], including a curve whose X′ vanishes mid-way")
    func solver() {
        // bezier(1,0,0,1): X′(t) = 3(2t − 1)², zero at t = 0.5, so Newton gives up there and bisection must finish.
        let hard = UnitBezier(x1: 1, y1: 0, x2: 0, y2: 1)
        for curve in [hard, .easeIn, .easeInOut, .ease] {
            for i in 0...1000 {
                let x = Double(i) / 1000
                let t = curve.solveX(x)
                let back = 3 * (1 - t) * (1 - t) * t * curve.x1 + 3 * (1 - t) * t * t * curve.x2 + t * t * t
                #expect(t >= 0 && t <= 1)
                #expect(abs(back - x) < 1e-7, "solveX(\(x)) = \(t), X(t) = \(back)")
            }
        }
    }

    @Test("monotone presets are non-decreasing on a 1e-4 grid")
    func monotone() {
        // Exact non-decrease is expected: neighbouring grid values differ by ≥ slope × 1e-4 while each value's error
        // is ≤ slope × 1e-7, and where the slope is ~0 (easeIn at 0) the error shrinks with it.
        for curve in [UnitBezier.linear, .easeIn, .easeOut, .easeInOut, .ease] {
            var previous = curve.value(at: 0)
            var violations = 0
            for i in 1...10_000 {
                let value = curve.value(at: Double(i) / 10_000)
                if value < previous { violations += 1 }
                previous = value
            }
            #expect(violations == 0, "\(curve)")
        }
    }

    // MARK: Inverse

    @Test("inverse(y:) round-trips to 1e-6 on the presets")
    func inverseRoundTrip() {
        // value(inverse(y)) differs from y by the forward solver's 1e-7 × slope (≤ 2.3), so ≤ 2.3e-7; the reverse
        // inverse(value(x)) recovers the solver's own t, whose X is within 1e-7 of x. 1e-6 covers both with margin.
        for curve in [UnitBezier.linear, .easeIn, .easeOut, .easeInOut, .ease] {
            for i in 0...200 {
                let level = Double(i) / 200
                let x = curve.inverse(y: level)
                #expect(x >= 0 && x <= 1)
                #expect(close(curve.value(at: x), level, 1e-6), "\(curve) y \(level) → x \(x)")
                let y = curve.value(at: level)
                #expect(close(curve.inverse(y: y), level, 1e-6), "\(curve) x \(level) → y \(y)")
            }
        }
        #expect(UnitBezier.easeInOut.inverse(y: 0) == 0)
        #expect(UnitBezier.easeInOut.inverse(y: -3) == 0)
        // Y′(1) = 0, so Y(t) rounds to exactly 1.0 for t within ~1e-8 of 1: the smallest such x is just below 1.
        #expect(close(UnitBezier.easeInOut.inverse(y: 1), 1, 1e-6))
        #expect(UnitBezier.easeInOut.inverse(y: 1.01) == .infinity)
        #expect(UnitBezier.easeInOut.inverse(y: .nan).isNaN)
    }

    @Test("a curve with y outside [0, 1] dips, overshoots, and inverse finds the first crossing")
    func overshoot() {
        let curve = UnitBezier(x1: 0.3, y1: -0.5, x2: 0.7, y2: 1.5)
        // Extremes from the reference: trough y = −0.0809475019311 at x = 0.104955698687, peak y = 1.08094750193
        // at x = 0.895044301313. Sampled on a 1e-4 grid the extreme is within (1e-4)²·|y″|/2 ≈ 1e-7 of the true
        // one; 1e-6 also absorbs the solver's 1e-7 × slope.
        var low = Double.infinity, high = -Double.infinity
        for i in 0...10_000 {
            let y = curve.value(at: Double(i) / 10_000)
            low = min(low, y)
            high = max(high, y)
        }
        #expect(close(low, -0.0809475019311, 1e-6))
        #expect(close(high, 1.08094750193, 1e-6))
        // Smallest x reaching a level (references from the 40-digit solver; same 1e-6 tolerance as the tables).
        #expect(close(curve.inverse(y: 0.01), 0.236233755866027, 1e-6))  // after the initial dip, not at x = 0
        #expect(close(curve.inverse(y: 0.5), 0.5, 1e-6))
        #expect(close(curve.inverse(y: 1), 0.771853636766061, 1e-6))  // looks full well before the end
        #expect(close(curve.inverse(y: 1.05), 0.821345942045511, 1e-6))
        #expect(curve.inverse(y: -0.05) == 0)  // value(0) = 0 ≥ −0.05 already
        #expect(curve.inverse(y: 1.2) == .infinity)  // never reached: the peak is 1.0809
        // The crossing really is the first: just before it the curve is below the level.
        for level in [0.01, 0.3, 1.0, 1.05, 1.08] {
            let x = curve.inverse(y: level)
            #expect(close(curve.value(at: x), level, 1e-6))
            #expect(curve.value(at: x - 1e-4) < level)
        }
    }

    // MARK: Parsing and printing

    @Test("every listed form parses, with whitespace after commas and around the text")
    func parsesEveryForm() throws {
        let cases: [(String, TimingCurve)] = [
            ("linear", .linear),
            ("easeIn", .easeIn),
            ("easeOut", .easeOut),
            ("easeInOut", .easeInOut),
            ("ease", .ease),
            ("smooth", .smooth),
            ("snappy", .snappy),
            ("bouncy", .bouncy),
            ("bezier(0.25,0.1,0.25,1)", .ease),
            ("bezier(0.3, -0.5, 0.7, 1.5)", .bezier(UnitBezier(x1: 0.3, y1: -0.5, x2: 0.7, y2: 1.5))),
            ("  bezier( 0 , 0 , 1 , 1 )\t", .bezier(.linear)),
            ("spring(0.5,0.3)", .bouncy),
            ("spring(0.4, -0.2)", .spring(Spring(duration: 0.4, bounce: -0.2))),
            ("interpolatingSpring(500,30)", .spring(Spring(stiffness: 500, damping: 30))),
            ("interpolatingSpring(170, 0)", .spring(Spring(stiffness: 170, damping: 0))),
            ("spring(5e-1,0)", .smooth),
        ]
        for (text, expected) in cases {
            let parsed = try TimingCurve(parsing: text)
            #expect(parsed == expected, "\(text)")
        }
    }

    @Test("description prints presets by name and round-trips every value")
    func descriptionRoundTrips() throws {
        let cases: [(TimingCurve, String)] = [
            (.linear, "linear"),
            (.easeIn, "easeIn"),
            (.easeOut, "easeOut"),
            (.easeInOut, "easeInOut"),
            (.ease, "ease"),
            (.smooth, "smooth"),
            (.snappy, "snappy"),
            (.bouncy, "bouncy"),
            (.bezier(.linear), "bezier(0,0,1,1)"),
            (.bezier(UnitBezier(x1: 0.3, y1: -0.5, x2: 0.7, y2: 1.5)), "bezier(0.3,-0.5,0.7,1.5)"),
            (.bezier(UnitBezier(x1: 0.1, y1: 0.2, x2: 0.3, y2: 1e-5)), "bezier(0.1,0.2,0.3,1e-05)"),
            (.spring(Spring(duration: 0.4, bounce: 0.2)), "spring(0.4,0.2)"),
            (.spring(Spring(duration: 1, bounce: -0.5)), "spring(1,-0.5)"),
            (.spring(Spring(stiffness: 500, damping: 30)), "interpolatingSpring(500,30)"),
            (.spring(.swiftUIDefault), "spring(0.55,0)"),
            (.spring(Spring(response: 0.3, dampingFraction: 0.8)), "spring(0.3,0.19999999999999996)"),
        ]
        for (curve, text) in cases {
            #expect(curve.description == text)
            let parsed = try TimingCurve(parsing: curve.description)
            #expect(parsed == curve, "\(text)")
        }
        // Response springs outside 0.5 ≤ f ≤ 1 print as interpolatingSpring and still read back equal.
        for fraction in [0.05, 0.2, 0.33, 0.45, 1.5, 3.0] {
            for response in [0.2, 0.35, 0.55, 1.0] {
                let curve = TimingCurve.spring(Spring(response: response, dampingFraction: fraction))
                #expect(curve.description.hasPrefix("interpolatingSpring("))
                let parsed = try TimingCurve(parsing: curve.description)
                #expect(parsed == curve, "\(curve.description)")
            }
        }
    }

    @Test("each bad input gives its own error text")
    func parseErrors() {
        let allowed = "linear, easeIn, easeOut, easeInOut, ease, bezier(x1,y1,x2,y2), spring(duration,bounce), "
            + "interpolatingSpring(stiffness,damping), smooth, snappy, bouncy"
        let cases: [(String, String)] = [
            ("bezier(1.2,0,1,1)", "timing curve 'bezier(1.2,0,1,1)': x1 = 1.2 is outside [0, 1]"),
            ("bezier(0,0,-0.1,1)", "timing curve 'bezier(0,0,-0.1,1)': x2 = -0.1 is outside [0, 1]"),
            ("bezier(0,0,1)", "timing curve 'bezier(0,0,1)': bezier takes 4 numbers (bezier(x1,y1,x2,y2)), found 3"),
            ("spring(0,0.3)", "timing curve 'spring(0,0.3)': duration = 0 must be at least 0.001 (seconds)"),
            // Beyond the bounds a spring's formulas overflow and its settling search never ends (a hang, not an error).
            ("spring(1e-200,0.5)", "timing curve 'spring(1e-200,0.5)': duration = 1e-200 must be at least 0.001 (seconds)"),
            ("interpolatingSpring(1e50,1)", "timing curve 'interpolatingSpring(1e50,1)': stiffness = 1e50 must be > 0 and at most 1e9 (1/s²)"),
            ("interpolatingSpring(100,1e7)", "timing curve 'interpolatingSpring(100,1e7)': damping = 1e7 must be from 0 to 1e6 (1/s)"),
            ("bezier(0,1e308,1,-1e308)", "timing curve 'bezier(0,1e308,1,-1e308)': y1 = 1e308 is outside [-100, 100]"),
            ("bezier(0,0,1,-100.5)", "timing curve 'bezier(0,0,1,-100.5)': y2 = -100.5 is outside [-100, 100]"),
            ("spring(0.5,1)", "timing curve 'spring(0.5,1)': bounce = 1 must be in (-1, 1)"),
            ("spring(0.5,-1)", "timing curve 'spring(0.5,-1)': bounce = -1 must be in (-1, 1)"),
            ("wobbly", "timing curve 'wobbly': not recognised; allowed: \(allowed)"),
            ("linear(1)", "timing curve 'linear(1)': not recognised; allowed: \(allowed)"),
            ("", "timing curve '': not recognised; allowed: \(allowed)"),
            ("spring(nan,0)", "timing curve 'spring(nan,0)': duration 'nan' is not a finite number"),
            ("spring(0.5,inf)", "timing curve 'spring(0.5,inf)': bounce 'inf' is not a finite number"),
            ("bezier(0,0,1,x)", "timing curve 'bezier(0,0,1,x)': y2 'x' is not a number"),
            ("bezier(0,,1,1)", "timing curve 'bezier(0,,1,1)': y1 '' is not a number"),
            ("spring(0.5,0.3", "timing curve 'spring(0.5,0.3': missing ')'; expected spring(duration,bounce)"),
            ("spring", "timing curve 'spring': needs its numbers, as spring(duration,bounce)"),
            ("interpolatingSpring(0,10)", "timing curve 'interpolatingSpring(0,10)': stiffness = 0 must be > 0 and at most 1e9 (1/s²)"),
            ("interpolatingSpring(100,-1)",
             "timing curve 'interpolatingSpring(100,-1)': damping = -1 must be from 0 to 1e6 (1/s)"),
        ]
        var seen = Set<String>()
        for (text, message) in cases {
            #expect(throws: TimingCurveError(message), "\(text)") { try TimingCurve(parsing: text) }
            seen.insert(message)
        }
        #expect(seen.count == cases.count)  // every message is distinct
        // The bounds themselves are allowed.
        for text in ["spring(0.001,0.5)", "interpolatingSpring(1e9,1e6)", "bezier(0,-100,1,100)"] {
            #expect(throws: Never.self, "\(text)") { try TimingCurve(parsing: text) }
        }
    }
}

@Suite("UnitBezierBounds: table bounds on the solver's value")
struct UnitBezierBoundsTests {
    static let curves: [UnitBezier] = [
        .easeIn, .easeOut, .easeInOut, .ease, UnitBezier(x1: 0.05, y1: 0.9, x2: 0.1, y2: 1),
        UnitBezier(x1: 0.9, y1: 0, x2: 0.95, y2: 0.1), UnitBezier(x1: 0, y1: 1, x2: 1, y2: 0), .linear,
    ]

    @Test("value(at:) of every time within reach − 2e-7 lies inside the bounds, and the bounds are narrow")
    func boundsHold() throws {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func uniform() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / 9_007_199_254_740_992
        }
        let reach = UnitBezierBounds.reach + 1e-7
        let slack = reach - 2e-7
        for curve in Self.curves {
            let bounds = try #require(UnitBezierBounds(curve))
            var widest = 0.0
            for trial in 0..<60_000 {
                // Uniform times, times on and next to the table's grid, and times just outside [0, 1].
                var x = uniform()
                if trial % 3 == 1 { x = Double(Int(x * Double(UnitBezierBounds.cells))) / Double(UnitBezierBounds.cells) }
                if trial % 3 == 2 { x = x.nextUp.nextUp }
                if trial % 1000 == 0 { x = -1e-7 * uniform() }
                if trial % 1000 == 1 { x = 1 + 1e-7 * uniform() }
                let (lower, upper) = bounds.bounds(at: x, reach: reach)
                widest = max(widest, upper - lower)
                for offset in [-slack, -slack / 2, 0, slack / 2, slack] {
                    let value = curve.value(at: x + offset)
                    #expect(lower <= value && value <= upper, "\(curve) at \(x + offset): \(value) outside [\(lower), \(upper)] of \(x)")
                }
            }
            // About reach + 1/cells in time times the steepest slope (below 30 for these curves, except where a
            // vertical end tangent makes the curve a square root there), plus the margins.
            if curve.slope(at: 0).isFinite && curve.slope(at: 1).isFinite {
                #expect(widest < 30 * (2 * reach + 2.0 / Double(UnitBezierBounds.cells)) + 4e-6, "\(curve): \(widest)")
            }
        }
    }

    @Test("the table is the exact curve: Bernstein-form bisection agrees within 1e-11")
    func tableIsExact() {
        for curve in Self.curves {
            let cells = 2048
            let table = curve.exactValues(cells: cells)
            #expect(table.count == cells + 1)
            for index in stride(from: 0, through: cells, by: 7) {
                let x = Double(index) / Double(cells)
                // The curve in Bernstein form, solved by plain bisection to the last bit of t.
                func bernstein(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
                    let s = 1 - t
                    return 3 * s * s * t * p1 + 3 * s * t * t * p2 + t * t * t
                }
                var low = 0.0, high = 1.0
                for _ in 0..<200 {
                    let mid = 0.5 * (low + high)
                    if bernstein(mid, curve.x1, curve.x2) < x { low = mid } else { high = mid }
                }
                let expected = bernstein(0.5 * (low + high), curve.y1, curve.y2)
                #expect(abs(table[index] - expected) < 1e-11, "\(curve) at \(x): \(table[index]) vs \(expected)")
            }
        }
    }

    @Test("curves that can decrease get no table")
    func decreasingCurves() {
        #expect(UnitBezierBounds(UnitBezier(x1: 0.3, y1: -0.4, x2: 0.7, y2: 1)) == nil)
        #expect(UnitBezierBounds(UnitBezier(x1: 0.3, y1: 0.2, x2: 0.7, y2: 1.5)) == nil)
    }
}
