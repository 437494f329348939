// Timing curves as profiles name them (DOMAIN §3 and §4).

/// A timing curve as a profile names it: linear, a cubic Bézier (DOMAIN §3, **D**) or a spring (DOMAIN §4, **RE**/**D**).
///
/// Profile syntax (`init(parsing:)`, printed back by `description`):
/// `linear | easeIn | easeOut | easeInOut | ease | bezier(x1,y1,x2,y2) | spring(duration,bounce) |
/// interpolatingSpring(stiffness,damping) | smooth | snappy | bouncy`.
///
/// Equality is equality of the curve: `bezier(0.42,0,1,1)` equals `easeIn`, `spring(0.5,0)` equals `smooth`
/// (and both print as the preset name). `linear` is its own case and is not equal to `bezier(0,0,1,1)`, although
/// both map x to x exactly.
public enum TimingCurve: Sendable, Hashable, CustomStringConvertible {
    /// Progress equals normalised time: y = x (DOMAIN §3, D).
    case linear
    /// A cubic Bézier with P0 = (0,0), P3 = (1,1), solved as WebKit/Chromium do (DOMAIN §3, D).
    case bezier(UnitBezier)
    /// A damped spring driven by `Spring.state(at:x0:v0:)` in seconds rather than by normalised time (DOMAIN §4).
    case spring(Spring)

    /// `easeIn`, bezier(0.42, 0, 1, 1) (DOMAIN §3, D).
    public static let easeIn = TimingCurve.bezier(.easeIn)
    /// `easeOut`, bezier(0, 0, 0.58, 1) (DOMAIN §3, D).
    public static let easeOut = TimingCurve.bezier(.easeOut)
    /// `easeInOut`, bezier(0.42, 0, 0.58, 1) (DOMAIN §3, D).
    public static let easeInOut = TimingCurve.bezier(.easeInOut)
    /// CSS `ease` / Core Animation default, bezier(0.25, 0.1, 0.25, 1) (DOMAIN §3, D).
    public static let ease = TimingCurve.bezier(.ease)
    /// SwiftUI `.smooth`, spring(duration 0.5, bounce 0) (DOMAIN §4, RE).
    public static let smooth = TimingCurve.spring(.smooth)
    /// SwiftUI `.snappy`, spring(duration 0.5, bounce 0.15) (DOMAIN §4, RE).
    public static let snappy = TimingCurve.spring(.snappy)
    /// SwiftUI `.bouncy`, spring(duration 0.5, bounce 0.3) (DOMAIN §4, RE).
    public static let bouncy = TimingCurve.spring(.bouncy)

    /// Progress (unitless) at normalised time u ∈ [0, 1] for `linear` and `bezier` curves; u is clamped to
    /// [0, 1], so the ends are exactly 0 and 1. Returns `nil` for a spring: a spring has no normalised time and is
    /// driven in seconds by `Spring.state(at:x0:v0:)` instead.
    public func value(at u: Double) -> Double? {
        switch self {
        case .linear: return u.isNaN ? u : Swift.min(Swift.max(u, 0), 1)
        case .bezier(let curve): return curve.value(at: u)
        case .spring: return nil
        }
    }

    // MARK: Printing

    /// Canonical profile text that parses back to an equal value: presets print their names (`easeOut`, `smooth` …),
    /// other Béziers `bezier(x1,y1,x2,y2)`, springs written with duration/bounce `spring(d,b)`, springs written with
    /// stiffness/damping `interpolatingSpring(k,c)`. Numbers use the shortest text that reads back to the same
    /// Double, without a trailing `.0` for whole numbers.
    ///
    /// A spring made in code with `Spring(response:dampingFraction:)` prints in whichever of the two forms it is
    /// stored as (see that initializer). A spring outside the parser's ranges (negative damping, bounce ≤ −1 …)
    /// still prints in its form, and the parser then rejects that text.
    public var description: String {
        switch self {
        case .linear:
            return "linear"
        case .bezier(let curve):
            for (name, preset) in Self.bezierPresets where preset == curve { return name }
            return "bezier(\(Self.format(curve.x1)),\(Self.format(curve.y1)),\(Self.format(curve.x2)),\(Self.format(curve.y2)))"
        case .spring(let spring):
            for (name, preset) in Self.springPresets where preset == spring { return name }
            switch spring.notation {
            case .durationBounce(let duration, let bounce):
                return "spring(\(Self.format(duration)),\(Self.format(bounce)))"
            case .stiffnessDamping(let stiffness, let damping):
                return "interpolatingSpring(\(Self.format(stiffness)),\(Self.format(damping)))"
            }
        }
    }

    private static let bezierPresets: [(String, UnitBezier)] = [
        ("easeIn", .easeIn), ("easeOut", .easeOut), ("easeInOut", .easeInOut), ("ease", .ease),
    ]
    private static let springPresets: [(String, Spring)] = [
        ("smooth", .smooth), ("snappy", .snappy), ("bouncy", .bouncy),
    ]

    /// Shortest round-tripping text for a finite Double, whole numbers without ".0" (1 → "1", 0.25 → "0.25").
    private static func format(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e15 {
            return String(Int64(value))
        }
        return String(value)
    }

    // MARK: Parsing

    /// The allowed forms, as listed in error messages.
    static let allowedForms =
        "linear, easeIn, easeOut, easeInOut, ease, bezier(x1,y1,x2,y2), spring(duration,bounce), "
        + "interpolatingSpring(stiffness,damping), smooth, snappy, bouncy"

    /// Parses the profile syntax: `linear | easeIn | easeOut | easeInOut | ease | bezier(x1,y1,x2,y2) |
    /// spring(duration,bounce) | interpolatingSpring(stiffness,damping) | smooth | snappy | bouncy`.
    ///
    /// Names are case-sensitive. Spaces and tabs are allowed around the whole text and around each number
    /// (so after commas). Numbers are Swift `Double` literals (`0.5`, `1e-3`); NaN and infinity are rejected.
    /// Ranges (checked, never clamped): Bézier x1, x2 ∈ [0, 1] and y1, y2 ∈ [−100, 100] (an overshoot of a hundred
    /// times the fill is far past any design; beyond, the curve's values overflow); spring duration from 0.001 s
    /// (a millisecond: a spring's motion within one frame) and bounce ∈ (−1, 1); interpolatingSpring stiffness
    /// from above 0 to 10⁹ (1/s²) and damping from 0 to 10⁶ (1/s). Beyond the springs' bounds the motion's formulas
    /// overflow (a duration of 10⁻¹⁶⁰ s, a stiffness of 10⁵⁰). Every failure throws a `TimingCurveError`
    /// whose text quotes the input; unrecognised text also lists the allowed forms.
    public init(parsing text: String) throws(TimingCurveError) {
        let trimmed = Self.trim(Substring(text))
        func fail(_ detail: String) -> TimingCurveError {
            TimingCurveError("timing curve '\(trimmed)': \(detail)")
        }
        guard let open = trimmed.firstIndex(of: "(") else {
            switch trimmed {
            case "linear": self = .linear
            case "easeIn": self = .easeIn
            case "easeOut": self = .easeOut
            case "easeInOut": self = .easeInOut
            case "ease": self = .ease
            case "smooth": self = .smooth
            case "snappy": self = .snappy
            case "bouncy": self = .bouncy
            case "bezier": throw fail("needs its numbers, as bezier(x1,y1,x2,y2)")
            case "spring": throw fail("needs its numbers, as spring(duration,bounce)")
            case "interpolatingSpring": throw fail("needs its numbers, as interpolatingSpring(stiffness,damping)")
            default: throw fail("not recognised; allowed: \(Self.allowedForms)")
            }
            return
        }
        let name = Self.trim(trimmed[..<open])
        let names: [String]
        switch name {
        case "bezier": names = ["x1", "y1", "x2", "y2"]
        case "spring": names = ["duration", "bounce"]
        case "interpolatingSpring": names = ["stiffness", "damping"]
        default: throw fail("not recognised; allowed: \(Self.allowedForms)")
        }
        let form = "\(name)(\(names.joined(separator: ",")))"
        guard trimmed.last == ")" else { throw fail("missing ')'; expected \(form)") }
        let inner = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
        let parts = inner.split(separator: ",", omittingEmptySubsequences: false).map { Self.trim($0) }
        guard parts.count == names.count else {
            throw fail("\(name) takes \(names.count) numbers (\(form)), found \(parts.count)")
        }
        var numbers: [Double] = []
        for (part, label) in zip(parts, names) {
            guard let number = Double(part) else { throw fail("\(label) '\(part)' is not a number") }
            guard number.isFinite else { throw fail("\(label) '\(part)' is not a finite number") }
            numbers.append(number)
        }
        switch name {
        case "bezier":
            for index in [0, 2] where !(numbers[index] >= 0 && numbers[index] <= 1) {
                throw fail("\(names[index]) = \(parts[index]) is outside [0, 1]")
            }
            for index in [1, 3] where !(abs(numbers[index]) <= Self.bezierYLimit) {
                throw fail("\(names[index]) = \(parts[index]) is outside [-100, 100]")
            }
            self = .bezier(UnitBezier(x1: numbers[0], y1: numbers[1], x2: numbers[2], y2: numbers[3]))
        case "spring":
            guard numbers[0] >= Self.springShortestDuration else {
                throw fail("duration = \(parts[0]) must be at least 0.001 (seconds)")
            }
            guard numbers[1] > -1 && numbers[1] < 1 else { throw fail("bounce = \(parts[1]) must be in (-1, 1)") }
            self = .spring(Spring(duration: numbers[0], bounce: numbers[1]))
        default:
            guard numbers[0] > 0 && numbers[0] <= Self.springLargestStiffness else {
                throw fail("stiffness = \(parts[0]) must be > 0 and at most 1e9 (1/s²)")
            }
            guard numbers[1] >= 0 && numbers[1] <= Self.springLargestDamping else {
                throw fail("damping = \(parts[1]) must be from 0 to 1e6 (1/s)")
            }
            self = .spring(Spring(stiffness: numbers[0], damping: numbers[1]))
        }
    }

    /// The parser's bounds (see `init(parsing:)`).
    static let bezierYLimit = 100.0
    static let springShortestDuration = 0.001
    static let springLargestStiffness = 1e9
    static let springLargestDamping = 1e6

    /// Drops leading and trailing spaces and tabs.
    private static func trim(_ text: Substring) -> Substring {
        var result = text
        while let first = result.first, first == " " || first == "\t" { result.removeFirst() }
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return result
    }
}

/// Why a timing-curve text did not parse; `description` is a one-line message that quotes the text.
public struct TimingCurveError: Error, Equatable, CustomStringConvertible {
    /// The message, e.g. `timing curve 'spring(0.5,1)': bounce = 1 must be in (-1, 1)`.
    public let description: String

    /// Creates an error with the given message.
    public init(_ description: String) {
        self.description = description
    }
}
