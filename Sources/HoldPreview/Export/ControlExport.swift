import Foundation
import HoldLabIO
import HoldModel
import HoldProfiles

/// `holdlab export`: a profile's tuned control as source code an app can ship. Swift: a Foundation-only timing type
/// (the profile's numbers and HoldModel's formulas, ported), a SwiftUI view and a Core Haptics player; Kotlin: the
/// same numbers and held progress for Jetpack Compose with a `VibrationEffect`.
public enum ControlExport {
    public enum Language: String, Sendable, CaseIterable {
        case swift
        case kotlin
    }

    /// What to export.
    public struct Request: Sendable {
        public var profile: Profile
        public var language: Language
        /// The base of the generated names (`<name>Timing`, `<name>HoldButton`); a valid identifier.
        public var typeName: String
        public var commandLine: String

        public init(profile: Profile, language: Language, typeName: String, commandLine: String) {
            self.profile = profile
            self.language = language
            self.typeName = typeName
            self.commandLine = commandLine
        }
    }

    /// The exported text and the notes for standard error.
    public struct Result: Sendable {
        public var text: String
        public var notes: [String]
    }

    /// What an exported fill duration is: `match` resolved to the gesture's minimum duration, or the profile's own
    /// number (a comment saying "match" beside `fill.duration: 0.8` would send a reader looking for a match).
    static func fillDurationNote(_ profile: Profile) -> String {
        profile.fillDurationMatchesGesture ? "fill.duration (match: gesture.minimumDuration)" : "fill.duration"
    }

    /// Writes the source. Throws for a profile the model refuses (`ControlError`).
    public static func export(_ request: Request) throws(ControlError) -> Result {
        let parts = try Parts(request)
        switch request.language {
        case .swift: return Result(text: SwiftExport.text(parts), notes: parts.notes)
        case .kotlin: return Result(text: KotlinExport.text(parts), notes: parts.notes)
        }
    }

    // MARK: Names

    /// Words no generated name may be: Swift's and Kotlin's keywords (and names that would shadow what the file uses).
    static let reserved: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
        "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do",
        "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while",
        "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "Type",
        "Protocol", "some", "any", "actor", "async", "consume", "copy", "borrowing", "consuming", "sending",
        "fun", "object", "typeof", "val", "interface", "package", "null", "when", "Double", "Int", "Long", "String",
        "Bool", "Boolean", "Float", "View", "Array", "Unit", "Nothing", "Foundation", "SwiftUI", "CoreHaptics",
    ]

    /// Whether `name` can be the base of the generated names in both languages: ASCII letters, digits and `_`, not
    /// starting with a digit, not a keyword; at most 100 characters.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 100 else { return false }
        guard !("0"..."9").contains(first) else { return false }
        guard name.unicodeScalars.allSatisfy({ $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)) })
        else { return false }
        return !reserved.contains(name)
    }

    /// The default name from a profile name: its ASCII letter and digit runs (accents folded: `höld` is `Hold`), each
    /// capitalised (`hig-linear-bar` → `HigLinearBar`); a name starting with a digit gets `Hold` before it, a keyword `Control` after it, and a name
    /// with no ASCII letter or digit becomes `Hold`.
    public static func typeName(forProfile name: String) -> String {
        var words: [String] = []
        var word = ""
        // Accents folded first: `höld-ñ` is `HoldN`, not `HLdN` (0.3.17 dropped the letters outside ASCII).
        for scalar in name.folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil).unicodeScalars {
            if scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) {
                word.unicodeScalars.append(scalar)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        var result = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        if result.isEmpty { return "Hold" }
        if let first = result.unicodeScalars.first, ("0"..."9").contains(first) { result = "Hold" + result }
        if reserved.contains(result) { result += "Control" }
        return String(result.prefix(100))
    }

    // MARK: Literals

    /// Whether a character would be invisible in the generated source or change how it reads: C0 and C1 controls,
    /// line and paragraph separators, format characters (the bidirectional overrides and isolates of "Trojan
    /// Source", zero-width characters, the byte-order mark) and every other default-ignorable code point. A
    /// profile's description could carry them into a literal or a comment, where an editor would show code in
    /// another order than the compiler reads it.
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isDefaultIgnorableCodePoint { return true }  // variation selectors, CGJ, fillers
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// A Swift string literal: quotes, backslashes, every control character and every hidden one (`isHidden`)
    /// escaped.
    public static func swiftString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if isHidden(scalar) {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// A Kotlin string literal: quotes, backslashes, `$` and control characters escaped.
    public static func kotlinString(_ text: String) -> String {
        var out = "\""
        for scalar in text.utf16 {
            switch scalar {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x24: out += "\\$"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            default:
                if scalar < 0x20 || scalar == 0x7F || scalar >= 0x80 {
                    let hex = String(scalar, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(Unicode.Scalar(UInt8(scalar)))
                }
            }
        }
        return out + "\""
    }

    /// Text for a `//` comment: one line, every hidden character (`isHidden`: controls, separators, bidirectional
    /// and zero-width format characters) as a space.
    static func comment(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { isHidden($0) ? " " : $0 }))
    }

    /// A double as the shortest text that reads back to it (valid in Swift and Kotlin: `1.0`, `7e-05`).
    static func number(_ value: Double) -> String { "\(value)" }
}

/// What both languages write, computed once from the profile and its model.
struct ControlExportParts {
    let request: ControlExport.Request
    var profile: Profile { request.profile }
    var control: Control { request.profile.control }
    let prepared: PreparedControl
    /// The played pulses of the hold `holdlab haptics` exports for the profile (held through, phase 0, seed 1).
    let pulses: [HapticPulse]
    let patternRequest: TraceRequest
    let trace: HoldTrace
    /// The Timer latency the timing type uses (the profile's constant, or 0 for a drawn latency).
    let timerLatency: Double
    var notes: [String] = []
    /// The system haptic the profile's description names (`heavy` in "heavy impact"), if any.
    let systemImpact: String?

    var name: String { request.typeName }
}

extension ControlExport {
    typealias Parts = ControlExportParts
}

extension ControlExportParts {
    init(_ request: ControlExport.Request) throws(ControlError) {
        self.request = request
        let profile = request.profile
        prepared = try profile.prepared()
        if case .timer = profile.control.fill.model, profile.constantTimerLatencySeconds == nil {
            // The timing type fires every tick on time, so the trigger, the pulses and the embedded pattern are of the
            // same latency-free hold (0.3.17 embedded seed 1's traced hold with latency: its pattern and trigger came
            // after the bar the timing type draws full).
            var ideal = profile
            ideal.timerLatency = .constant(value: 0)
            patternRequest = TraceRequest(profile: ideal)
            timerLatency = 0
            notes.append("\(profile.name): fill.timer.latency is drawn at random (\(profile.timerLatencyText)); the "
                + "exported timing type fires every tick on time (the latency-free ideal), so its trigger and pulses "
                + "come earlier than a traced hold with latency")
        } else {
            patternRequest = TraceRequest(profile: profile)
            timerLatency = profile.constantTimerLatencySeconds ?? 0
        }
        (trace, pulses) = try HapticPattern.pulses(patternRequest)
        systemImpact = Self.impactStyle(in: profile.description + " " + profile.source)
    }

    /// A UIKit impact style named in the text: `heavy` for "heavy impact" or ".impact(.heavy)".
    static func impactStyle(in text: String) -> String? {
        let words = text.lowercased().split(whereSeparator: { !$0.isLetter })
        for style in ["light", "medium", "heavy", "soft", "rigid"] {
            for (index, word) in words.enumerated() where word == style {
                if index + 1 < words.count && words[index + 1] == "impact" { return style }
                if index > 0 && words[index - 1] == "impact" { return style }
            }
        }
        return nil
    }

    /// The profile's curve as profile text.
    static func curveText(_ curve: TimingCurve) -> String { curve.description }

    var fillCurve: TimingCurve? {
        if case .animation(let curve, _) = control.fill.model { return curve }
        return nil
    }

    /// The note on the system haptic against the exported transient, or nil when the profile plays no completion
    /// pulse.
    var hapticNote: String {
        let style = HapticStyle.standard
        let transient = "a HapticTransient of intensity \(ControlExport.number(style.completionIntensity)) and "
            + "sharpness \(ControlExport.number(style.completionSharpness)) at the action"
            + (control.haptics.threshold > 0
                ? ", and intensity \(ControlExport.number(style.intensity)), sharpness "
                    + "\(ControlExport.number(style.sharpness)) for each progress pulse" : "")
        guard let impact = systemImpact else {
            return "The profile names no system haptic style; the exported pattern plays \(transient)."
        }
        return "The profile's design plays the system haptic .impact(.\(impact)) (UIImpactFeedbackGenerator(style: "
            + ".\(impact))), whose intensity and sharpness Apple does not publish; the exported AHAP plays \(transient) "
            + "instead, which differs from it. To keep the system feel, call UIImpactFeedbackGenerator(style: "
            + ".\(impact)).impactOccurred() at the action and drop the completion event from the pattern."
    }
}
