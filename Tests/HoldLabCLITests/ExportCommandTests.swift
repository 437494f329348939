import Foundation
import HoldLabTestSupport
import HoldModel
import HoldPreview
import HoldProfiles
import Testing

/// `holdlab export`: the exported Swift's timing type is compiled with `swiftc` and run against `trace` for the same
/// hold; the whole file is parsed with `swiftc -parse`. The SwiftUI and Core Haptics parts are NOT type-checked:
/// those frameworks do not exist on Linux, so they sit inside `#if canImport(…)` and only their syntax is checked.
/// The Kotlin is not compiled (no Kotlin compiler here): its numbers are read back and compared with the profile's.
@Suite("holdlab export")
struct ExportCommandTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var profile: String
        var sets: [String]
        /// The early release traced besides the hold held through.
        var release: Double
        var typeName: String
        var testDescription: String { ([profile] + sets).joined(separator: " ") }
    }

    /// A linear fill with its completion pulse; easeInOut with frame pulses; a spring fill (bouncy) with pulses and
    /// an easeOut retract over it; the Timer fill of seed 000 (77 pulses on its ticks); a reverse retract.
    static let cases = [
        Case(profile: "hig-linear-bar", sets: [], release: 0.6, typeName: "HigLinearBar"),
        Case(profile: "android-filling-button", sets: ["haptics.threshold=0.1", "haptics.onComplete=true"],
             release: 1.0, typeName: "AndroidFillingButton"),
        Case(profile: "hig-linear-bar", sets: ["fill.curve=bouncy", "haptics.threshold=0.2"], release: 0.3,
             typeName: "HigLinearBar"),
        Case(profile: "kikocard-accelerating", sets: [], release: 1.5, typeName: "KikocardAccelerating"),
        Case(profile: "flutter-monster555", sets: ["haptics.threshold=0.25"], release: 0.9, typeName: "FlutterMonster555"),
        // A fill duration of its own (0.8 s), not match.
        Case(profile: "mismatched-fill", sets: [], release: 0.5, typeName: "MismatchedFill"),
    ]

    /// Instants agree within 1e-9 s and progress within 1e-9 with the in-process trace (the code `holdlab trace`
    /// runs); with the printed trace, within its six decimals.
    static let tolerance = 1e-9

    static func profile(_ c: Case) throws -> Profile {
        try ProfileLibrary(directory: CLI.root.appendingPathComponent("Profiles").path)
            .loadProfile(c.profile, overrides: c.sets.map { text throws(ProfileError) in try Override(parsing: text) })
    }

    static func swiftc() -> String {
        for path in ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"] where FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        return "swiftc"
    }

    @Test("the timing type compiles and agrees with trace; the file parses", arguments: cases)
    func timingAgreesWithTrace(_ c: Case) throws {
        let directory = try CLI.temporaryDirectory()
        let file = directory.appendingPathComponent("Export.swift")
        let exported = try CLI.run(["export", "--swift", "--profile", c.profile, "--out", file.path]
            + c.sets.flatMap { ["--set", $0] })
        #expect(exported.status == 0, "\(exported.stderr)")
        // The whole file parses (SwiftUI and Core Haptics included, not type-checked: see the suite's comment).
        let parse = try runProcess(Self.swiftc(), ["-parse", file.path])
        #expect(parse.status == 0, "\(parse.stderr)")
        // The view follows the finger to its lift (a zero-distance drag), so a release between recognition and a
        // later action cancels it: a long press stops reporting the finger at recognition, and a tap fired
        // android-filling-button (a 0 s gesture, the action at 1.5 s).
        let source = try String(contentsOf: file, encoding: .utf8)
        #expect(source.contains("DragGesture(minimumDistance: 0)") && source.contains(".onEnded { _ in")
                && !source.contains("onLongPressGesture"))

        let profile = try Self.profile(c)
        // Held through: trace's default release (the action fired and the fill completed, plus 0.25 s).
        let held = try TraceRequest(profile: profile).run()
        let released = try TraceRequest(profile: profile, releaseAtSeconds: c.release).run()
        let timing = c.typeName + "Timing"
        var main = "let held: [Int64] = [\(held.rows.map { String($0.time) }.joined(separator: ", "))]\n"
        main += "let released: [Int64] = [\(released.rows.map { String($0.time) }.joined(separator: ", "))]\n"
        main += """
            print("trigger", \(timing).triggerTime().map { "\\($0)" } ?? "nil")
            for t in held { print("held", \(timing).progress(at: Double(t) / 1e9, releasedAt: \(held.outcome.pressEndTime))) }
            for t in released { print("released", \(timing).progress(at: Double(t) / 1e9, releasedAt: \(c.release))) }
            print("pulses", \(timing).pulseTimes().map { "\\($0)" }.joined(separator: " "))
            print("pulsesReleased", \(timing).pulseTimes(releasedAt: \(c.release)).map { "\\($0)" }.joined(separator: " "))

            """
        let mainFile = directory.appendingPathComponent("main.swift")
        try main.write(to: mainFile, atomically: true, encoding: .utf8)
        let binary = directory.appendingPathComponent("timing").path
        let compile = try runProcess(Self.swiftc(), [file.path, mainFile.path, "-o", binary])
        #expect(compile.status == 0, "\(compile.stderr)")
        let run = try runProcess(binary, [])
        #expect(run.status == 0)
        var values: [String: [Double?]] = [:]
        for line in run.stdout.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            values[words[0], default: []] += words.dropFirst().map { Double($0) }
        }

        var largest = 0.0
        func agree(_ mine: Double?, _ theirs: Double?, _ what: String) {
            guard let mine, let theirs else {
                #expect(mine == nil && theirs == nil, "\(what): \(String(describing: mine)) vs \(String(describing: theirs))")
                return
            }
            largest = max(largest, abs(mine - theirs))
            #expect(abs(mine - theirs) <= Self.tolerance, "\(what): \(mine) vs trace \(theirs)")
        }
        agree(values["trigger"]?.first ?? nil, held.timeline.triggerTime, "trigger time")
        let heldValues = values["held"] ?? []
        let releasedValues = values["released"] ?? []
        #expect(heldValues.count == held.rows.count && releasedValues.count == released.rows.count)
        for (row, mine) in zip(held.rows, heldValues) { agree(mine, row.modelProgress, "held progress at \(row.time) ns") }
        for (row, mine) in zip(released.rows, releasedValues) {
            agree(mine, row.modelProgress, "progress at \(row.time) ns, released at \(c.release)")
        }
        for (name, trace) in [("pulses", held), ("pulsesReleased", released)] {
            let expected = trace.rows.filter { $0.event == .pulse || $0.event == .completionPulse }.map(\.timeSeconds)
            let mine = values[name] ?? []
            #expect(mine.count == expected.count, "\(name): \(mine.count) pulses, trace \(expected.count)")
            for (a, b) in zip(mine, expected) { agree(a, b, "\(name) time") }
        }
        #expect(largest <= Self.tolerance)
        print("export \(c.testDescription): largest difference against trace \(largest)")

        // The printed trace of the binary, row for row, within its six decimals.
        let printed = try CLI.run(["trace", "--profile", c.profile, "--release-at", "\(c.release)"]
            + c.sets.flatMap { ["--set", $0] })
        let rows = CLI.dataLines(printed.stdout).dropFirst()
        #expect(rows.count == releasedValues.count)
        for (row, mine) in zip(rows, releasedValues) {
            let progress = Double(row.split(separator: ",")[1]) ?? .nan
            #expect(abs((mine ?? .nan) - progress) <= 5e-7 + 1e-12, "printed trace row \(row)")
        }
    }

    /// The numeric literals of `text` between two markers, comments and string literals left out.
    static func numbers(in text: String, from start: String, to end: String) -> [Double] {
        guard let lower = text.range(of: start), let upper = text.range(of: end, range: lower.upperBound..<text.endIndex)
        else { return [] }
        var section = String(text[lower.upperBound..<upper.lowerBound])
        section = section.replacingOccurrences(of: #""(\\.|[^"\\])*""#, with: "\"\"", options: .regularExpression)
        section = section.replacingOccurrences(of: #"//[^\n]*"#, with: "", options: .regularExpression)
        let pattern = try! NSRegularExpression(pattern: #"(?<![A-Za-z0-9_.])-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?"#)
        let ns = section as NSString
        return pattern.matches(in: section, range: NSRange(location: 0, length: ns.length)).compactMap {
            Double(ns.substring(with: $0.range))
        }
    }

    /// The profile's numbers in the order the export writes them.
    static func expectedNumbers(_ profile: Profile) throws -> [Double] {
        let c = profile.control
        func curve(_ curve: TimingCurve) -> [Double] {
            switch curve {
            case .linear: return []
            case .bezier(let b): return [b.x1, b.y1, b.x2, b.y2]
            case .spring(let s): return [s.stiffness, s.dampingRatio]
            }
        }
        var numbers = [c.gesture.minimumDurationSeconds, c.gesture.maximumDistancePoints, c.trigger.offsetSeconds,
                       c.fill.delaySeconds]
        switch c.fill.model {
        case .animation(let fillCurve, let duration): numbers += curve(fillCurve) + [duration]
        case .timer(let timer):
            numbers += [timer.tickSeconds, timer.initialIncrement, timer.acceleration] + (timer.durationSeconds.map { [$0] } ?? [])
                + [profile.constantTimerLatencySeconds ?? 0]
        case .none: break
        }
        numbers += curve(c.retract.curve) + (c.retract.durationSeconds.map { [$0] } ?? [])
        numbers += [c.haptics.threshold, c.haptics.minIntervalSeconds, c.haptics.actuatorMinIntervalSeconds,
                    c.display.refreshRateHz, c.display.resolution]
        if let nominal = try profile.prepared().nominalFillSeconds { numbers.append(nominal) }
        return numbers
    }

    @Test("every number in the Swift and the Kotlin equals the profile's", arguments: cases)
    func numbersEqualTheProfile(_ c: Case) throws {
        let profile = try Self.profile(c)
        let swift = try CLI.run(["export", "--swift", "--profile", c.profile] + c.sets.flatMap { ["--set", $0] })
        #expect(swift.status == 0)
        #expect(Self.numbers(in: swift.stdout, from: "// MARK: - The profile's numbers", to: "// MARK: - The model")
            == (try Self.expectedNumbers(profile)))
        let kotlin = try CLI.run(["export", "--kotlin", "--profile", c.profile] + c.sets.flatMap { ["--set", $0] })
        #expect(kotlin.status == 0)
        // Kotlin writes the Bézier's control points after the fill's duration: compare as multisets of the same values.
        let kotlinNumbers = Self.numbers(in: kotlin.stdout, from: "// The profile's numbers", to: "// Derived by holdlab")
            + Self.numbers(in: kotlin.stdout, from: "val FILL_NOMINAL_SECONDS", to: "\n")
        #expect(kotlinNumbers.sorted() == (try Self.expectedNumbers(profile)).sorted())
        // The fill's duration is said to be match only where the profile's is (mismatched-fill's 0.8 s is its own).
        if case .animation = profile.control.fill.model {
            let said = profile.fillDurationMatchesGesture ? "fill.duration (match: gesture.minimumDuration)" : "fill.duration"
            let line = kotlin.stdout.split(separator: "\n").first { $0.contains("val FILL_DURATION") } ?? ""
            #expect(line.hasSuffix("// \(said), s"), "\(line)")
            #expect(swift.stdout.contains(", \(said), seconds.\n"))
        }
        // The Kotlin's pulse times are the ones holdlab haptics exports (microseconds).
        let held = try TraceRequest(profile: profile).run()
        let pulses = held.rows.filter { $0.event == .pulse || $0.event == .completionPulse }.map { ($0.time + 500) / 1000 }
        let line = kotlin.stdout.split(separator: "\n").first { $0.contains("val PULSE_TIMES_US") } ?? ""
        #expect(Self.numbers(in: String(line), from: "longArrayOf(", to: ")").map { Int64($0) } == pulses)
    }

    @Test("a drawn Timer latency: the trigger, the pulses and the embedded pattern are all of the latency-free hold")
    func drawnLatencyIsOneHold() throws {
        // The outside probe of 0.3.17: the timing type fired every tick on time (full at 2.100 s) while TRIGGER_TIME,
        // the pulses and the AHAP were seed 1's traced hold with latency (2.2205 s): the bar full before the action.
        let profile = try ProfileLibrary(directory: CLI.root.appendingPathComponent("Profiles").path)
            .loadProfile("kikocard-article-latency")
        #expect(profile.constantTimerLatencySeconds == nil)
        var ideal = profile
        ideal.timerLatency = .constant(value: 0)
        let held = try TraceRequest(profile: ideal).run()
        let trigger = try #require(held.timeline.triggerTime)
        let pulses = held.rows.filter { $0.event == .pulse || $0.event == .completionPulse }.map { ($0.time + 500) / 1000 }
        #expect(abs(trigger - 2.1) < 1e-9 && pulses.count == 77 && pulses.last! <= Int64((trigger * 1e6).rounded()))
        let kotlin = try CLI.run(["export", "--kotlin", "--profile", "kikocard-article-latency"])
        #expect(kotlin.status == 0, "\(kotlin.stderr)")
        let triggerLine = kotlin.stdout.split(separator: "\n").first { $0.contains("val TRIGGER_TIME") } ?? ""
        #expect(triggerLine.hasSuffix("= \(trigger)"), "\(triggerLine)")
        let line = kotlin.stdout.split(separator: "\n").first { $0.contains("val PULSE_TIMES_US") } ?? ""
        #expect(Self.numbers(in: String(line), from: "longArrayOf(", to: ")").map { Int64($0) } == pulses)
        let swift = try CLI.run(["export", "--swift", "--profile", "kikocard-article-latency"])
        #expect(swift.status == 0, "\(swift.stderr)")
        // The embedded AHAP's last pulse is at the action, and says whose hold it is.
        let times = try NSRegularExpression(pattern: #"\\"Time\\": ([0-9.]+)"#)
        let text = swift.stdout as NSString
        let last = times.matches(in: swift.stdout, range: NSRange(location: 0, length: text.length)).last
            .map { Double(text.substring(with: $0.range(at: 1)))! }
        #expect(last == trigger, "\(String(describing: last))")
        #expect(swift.stdout.contains("every Timer tick on time (latency 0, the exported timing type's)"))
        #expect(swift.stdout.contains("profile kikocard-article-latency fnv1a64:\(profile.contentHash)"))
    }

    @Test("names become identifiers; strings are escaped in Swift and Kotlin")
    func namesAndEscapes() throws {
        let directory = try CLI.temporaryDirectory()
        let yaml = "version: 1\nname: 3d-bar\ndescription: \"quote \\\" backslash \\\\ dollar $x \\\\(x) newline \\n */ end\"\n"
        try yaml.write(to: directory.appendingPathComponent("3d-bar.yaml"), atomically: true, encoding: .utf8)
        let swift = try CLI.run(["export", "--swift", "--profile", "3d-bar.yaml"], in: directory)
        #expect(swift.status == 0, "\(swift.stderr)")
        #expect(swift.stdout.contains("public struct Hold3dBarTiming"))
        let file = directory.appendingPathComponent("x.swift")
        try swift.stdout.write(to: file, atomically: true, encoding: .utf8)
        let main = directory.appendingPathComponent("main.swift")
        try "print(Hold3dBarTiming.profileDescription)\n".write(to: main, atomically: true, encoding: .utf8)
        let compile = try runProcess(Self.swiftc(), [file.path, main.path, "-o", directory.appendingPathComponent("m").path])
        #expect(compile.status == 0, "\(compile.stderr)")
        let run = try runProcess(directory.appendingPathComponent("m").path, [])
        #expect(run.stdout == "quote \" backslash \\ dollar $x \\(x) newline \n */ end\n")
        let kotlin = try CLI.run(["export", "--kotlin", "--profile", "3d-bar.yaml", "--name", "Bar_2"], in: directory)
        #expect(kotlin.status == 0)
        #expect(kotlin.stdout.contains("object Bar_2Timing {"))
        #expect(kotlin.stdout.contains(#""quote \" backslash \\ dollar \$x \\(x) newline \n */ end""#))
        // Accented letters are folded, not dropped (the outside probe of 0.3.17: höld-ñ became HLdTiming).
        #expect(ControlExport.typeName(forProfile: "höld-ñ") == "HoldN")
        #expect(ControlExport.typeName(forProfile: "Ｂａｒ-ça") == "BarCa")
        #expect(ControlExport.typeName(forProfile: "日本") == "Hold")
    }

    /// "Trojan Source": a description with bidirectional overrides and isolates, zero-width characters, a
    /// byte-order mark, a C1 control (NEL), a line separator, a variation selector, a combining grapheme joiner and
    /// a Hangul filler reaches no literal or comment as itself. Every
    /// such character in the Swift and the Kotlin is escaped (in literals) or a space (in comments), and the Swift
    /// literal still reads back to the description.
    @Test("hidden and reordering characters from a profile never reach the code as themselves")
    func hiddenCharactersAreEscaped() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let description = "ok\u{202E}evil\u{202C} \u{2066}iso\u{2069} zero\u{200B}width \u{FEFF}bom \u{85}nel \u{2028}sep \u{061C}alm"
            + " vs\u{FE0F} cgj\u{34F} filler\u{3164}"
        let escaped = "ok\\u202Eevil\\u202C \\u2066iso\\u2069 zero\\u200Bwidth \\uFEFFbom \\x85nel \\u2028sep \\u061Calm"
            + " vs\\uFE0F cgj\\u034F filler\\u3164"
        // (A name is letters, digits, - and _: the profile refuses one with such characters.)
        let yaml = "version: 1\nname: bidi\ndescription: \"\(escaped)\"\n"
        try yaml.write(to: directory.appendingPathComponent("bidi.yaml"), atomically: true, encoding: .utf8)
        func hidden(_ text: String) -> [String] {
            // Listed here, not by the exporter's own predicate: the characters this test puts in.
            let listed: Set<UInt32> = [0x202E, 0x202C, 0x2066, 0x2069, 0x200B, 0xFEFF, 0x85, 0x2028, 0x061C, 0xFE0F, 0x34F, 0x3164]
            return text.unicodeScalars.filter { listed.contains($0.value) || ($0 != "\n" && $0.properties.generalCategory == .control) }
                .map { String($0.value, radix: 16) }
        }
        #expect(hidden(description).count == 12, "the description as the test means it")
        for language in ["--swift", "--kotlin"] {
            let exported = try CLI.run(["export", language, "--profile", "bidi.yaml", "--name", "Bidi"], in: directory)
            try #require(exported.status == 0, "\(exported.stderr)")
            #expect(hidden(exported.stdout).isEmpty, "\(language): hidden characters written as themselves: \(hidden(exported.stdout))")
        }
        let swift = try CLI.run(["export", "--swift", "--profile", "bidi.yaml", "--name", "Bidi"], in: directory)
        let file = directory.appendingPathComponent("x.swift")
        try swift.stdout.write(to: file, atomically: true, encoding: .utf8)
        let main = directory.appendingPathComponent("main.swift")
        // The description as Swift source, escapes written by hand.
        let literal = #""ok\u{202E}evil\u{202C} \u{2066}iso\u{2069} zero\u{200B}width \u{FEFF}bom \u{85}nel \u{2028}sep \u{61C}alm vs\u{FE0F} cgj\u{34F} filler\u{3164}""#
        try "print(BidiTiming.profileDescription == \(literal) ? \"same\" : \"differs\")\n"
            .write(to: main, atomically: true, encoding: .utf8)
        let compile = try runProcess(Self.swiftc(), [file.path, main.path, "-o", directory.appendingPathComponent("m").path])
        #expect(compile.status == 0, "\(compile.stderr)")
        #expect(try runProcess(directory.appendingPathComponent("m").path, []).stdout == "same\n")
    }

    /// The exported text less what names the command that wrote it (the header's and the AHAP description's
    /// `command: …;`), which differs between a review folder's export and a profile's by construction.
    static func withoutCommand(_ text: String) -> String {
        text.replacingOccurrences(of: #"command: holdlab export[^;\n]*"#, with: "command: …", options: .regularExpression)
    }

    @Test("a review folder's design exports as its profile and the values the review set do; by default the one report.md recommends")
    func fromReviewFolder() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent("review")
        let long = ["gesture.minimumDuration=1.5", "fill.duration=1.5"]
        let fast = ["fill.duration=0.6", "gesture.minimumDuration=0.8"]
        // Fewer false activations wins, with no guardrail: the longer hold is the design to ship (1.1 points fewer,
        // 95 % CI 0.7 to 1.5 at 20,000 users, seed 1).
        let made = try CLI.run(["report", "--variant", "long=" + long.joined(separator: " "), "--variant",
                                "fast=" + fast.joined(separator: " "), "--prefer", "false_activation_rate", "--guard", "none",
                                "--users", "20000", "--robustness-users", "0", "--out", folder.path])
        try #require(made.status == 0, "\(made.stderr)")
        let report = try String(contentsOf: folder.appendingPathComponent("report.md"), encoding: .utf8)
        try #require(report.contains("\n**Ship long.** "), "the review this test reads recommends shipping long")
        for language in ["--swift", "--kotlin"] {
            for (design, sets) in [(nil, long), ("long", long), ("fast", fast), ("hig-linear-bar", [])] as [(String?, [String])] {
                let label = design ?? "long"
                let exported = try CLI.run(["export", language, "--review-folder", folder.path]
                    + (design.map { ["--design", $0] } ?? []))
                #expect(exported.status == 0, "\(exported.stderr)")
                let direct = try CLI.run(["export", language, "--profile", "hig-linear-bar",
                                          "--name", ControlExport.typeName(forProfile: label)] + sets.flatMap { ["--set", $0] })
                #expect(direct.status == 0, "\(direct.stderr)")
                #expect(exported.stdout.contains("--review-folder \(folder.path)"), "the header names the review folder")
                #expect(Self.withoutCommand(exported.stdout) == Self.withoutCommand(direct.stdout),
                        "\(language) \(label): the review's design differs from its profile with \(sets)")
            }
        }
        // The design's hash in the code is the one designs.csv records for it.
        let designs = try String(contentsOf: folder.appendingPathComponent("designs.csv"), encoding: .utf8)
        let recorded = try #require(designs.split(separator: "\n").first { $0.hasPrefix("# design: long = ") })
        let hash = try #require(recorded.split(separator: " ").first { $0.hasPrefix("fnv1a64:") })
        let swift = try CLI.run(["export", "--swift", "--review-folder", folder.path])
        #expect(swift.stdout.contains("public static let profileHash = \"\(hash)\""))
    }
}
