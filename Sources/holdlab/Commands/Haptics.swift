import ArgumentParser
import Foundation
import HoldLabIO
import HoldModel
import HoldPreview
import HoldProfiles
import HoldSimulation

extension HapticPattern.Format: ExpressibleByArgument {}

struct Haptics: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export the haptic pulses of one hold as Core Haptics (AHAP) or Android VibrationEffect patterns.",
        discussion: """
            The hold is traced exactly as 'holdlab trace' traces it (same release, phase and seed); every played \
            pulse becomes an event at its time after touch-down (to the microsecond), dropped pulses \
            (haptics.minInterval) are left out, and the completion pulse gets its own intensity and sharpness.

            Formats (--format, or from --out's extension: .ahap, .json, .kt):
              ahap     Apple Haptic and Audio Pattern for CHHapticPattern(contentsOf:): Version 1.0, Metadata \
            (Project, Description = provenance), Pattern of HapticTransient events with HapticIntensity and \
            HapticSharpness (0–1).
              android  JSON: timings_ms and amplitudes for VibrationEffect.createWaveform(timings, amplitudes, -1), \
            pulse_times_us, completion_pulse flags, provenance. Each pulse starts at its time rounded to the \
            millisecond (Android's unit) and vibrates --pulse-ms (completion: --completion-pulse-ms), cut to half \
            the gap to the next pulse; amplitude = round(255 × intensity).
              kotlin   a provenance comment and one line: val holdEffect = VibrationEffect.createWaveform(…).

            Defaults (our choice; profiles say when pulses play, not how they feel): progress pulses intensity 0.5, \
            sharpness 0.3 (a light soft tick: dense pulses numb the hand); the completion pulse 1.0 and 0.8; 8 ms \
            and 30 ms on Android. A hold that plays no pulse is refused (65).

            Examples:
              holdlab haptics --profile kikocard-accelerating --out kiko.ahap
              holdlab haptics --profile kikocard-accelerating \\
                --set haptics.threshold=0.05 --format android
              holdlab haptics --profile hig-linear-bar --format kotlin \\
                --completion-intensity 0.9
            """)

    @OptionGroup var source: ProfileSourceOptions

    @Option(help: ArgumentHelp("Profile name or YAML file.", valueName: "name|file"), completion: .profileNames)
    var profile: String = "hig-linear-bar"

    @OptionGroup var hold: OneHoldOptions

    @OptionGroup var quietOption: QuietOption

    @Option(help: ArgumentHelp("ahap, android or kotlin. Default: from --out's extension (.ahap, .json, .kt), else ahap."))
    var format: HapticPattern.Format?

    @Option(parsing: .unconditional, help: ArgumentHelp("Intensity of a progress pulse, 0–1.", valueName: "0..1"))
    var intensity: Double = HapticStyle.standard.intensity

    @Option(parsing: .unconditional, help: ArgumentHelp("Sharpness of a progress pulse, 0 (dull) to 1 (sharp).", valueName: "0..1"))
    var sharpness: Double = HapticStyle.standard.sharpness

    @Option(name: .customLong("completion-intensity"), parsing: .unconditional, help: ArgumentHelp("Intensity of the completion pulse, 0–1.", valueName: "0..1"))
    var completionIntensity: Double = HapticStyle.standard.completionIntensity

    @Option(name: .customLong("completion-sharpness"), parsing: .unconditional, help: ArgumentHelp("Sharpness of the completion pulse, 0–1.", valueName: "0..1"))
    var completionSharpness: Double = HapticStyle.standard.completionSharpness

    @Option(name: .customLong("pulse-ms"), parsing: .unconditional, help: ArgumentHelp("Android: milliseconds a progress pulse vibrates, 1–1000.", valueName: "ms"))
    var pulseMilliseconds: Int = HapticStyle.standard.pulseMilliseconds

    @Option(name: .customLong("completion-pulse-ms"), parsing: .unconditional, help: ArgumentHelp("Android: milliseconds the completion pulse vibrates, 1–1000.", valueName: "ms"))
    var completionPulseMilliseconds: Int = HapticStyle.standard.completionPulseMilliseconds

    @Option(name: .customLong("out"), help: ArgumentHelp("Write the pattern here ('-' for standard output). Files are replaced atomically.", valueName: "file|-"), completion: .file())
    var out: String = "-"

    /// `--format`, else from the extension of `--out`.
    var chosenFormat: HapticPattern.Format {
        if let format { return format }
        switch (out as NSString).pathExtension.lowercased() {
        case "json": return .android
        case "kt", "kts": return .kotlin
        default: return .ahap
        }
    }

    func validate() throws {
        for (name, value) in [("--intensity", intensity), ("--sharpness", sharpness),
                              ("--completion-intensity", completionIntensity), ("--completion-sharpness", completionSharpness)]
        where !(value.isFinite && value >= 0 && value <= 1) {
            throw ValidationError("\(name) must be from 0 to 1 (got \(value)); Core Haptics' parameters run from 0 to 1.")
        }
        for (name, value) in [("--pulse-ms", pulseMilliseconds), ("--completion-pulse-ms", completionPulseMilliseconds)]
        where !(1...1000).contains(value) {
            throw ValidationError("\(name) must be a whole number of milliseconds from 1 to 1000 (got \(value)).")
        }
        if out.isEmpty { throw ValidationError("--out needs a file name, or - for standard output") }
        try source.refuseRepeatedKeys()
        try refuseOutputsOverInputs([("--out", out == "-" ? nil : out)], inputs: [("--profile", source.library.profilePath(profile))])
    }

    func run() throws {
        try reportingErrors {
            let loaded = try source.library.loadProfile(profile, overrides: try source.parsedOverrides(command: "haptics"))
            let output = OutputFile(argument: out)
            try output.checkWritable()
            let request = TraceRequest(profile: loaded, releaseAtSeconds: hold.releaseAt, framePhase: hold.phase, seed: hold.seed)
            let (trace, pulses) = try HapticPattern.pulses(request)
            guard !pulses.isEmpty else {
                throw ExportRefusal(message: "\(loaded.name): this hold plays no haptic pulse: "
                    + Self.noPulseReason(loaded, trace, request: request) + "; nothing to export")
            }
            let style = HapticStyle(
                intensity: intensity, sharpness: sharpness, completionIntensity: completionIntensity,
                completionSharpness: completionSharpness, pulseMilliseconds: pulseMilliseconds,
                completionPulseMilliseconds: completionPulseMilliseconds)
            try output.writeLast(HapticPattern.text(
                chosenFormat, pulses: pulses, style: style, request: request, trace: trace, commandLine: CommandRecord.line()))
        }
    }
}

extension Haptics {
    /// Why a traced hold played no pulse, and what would make it play one: only changes that apply (never a value the
    /// profile already has), the release first when it came before what would have pulsed.
    /// Each fix offered is tried first (the hold traced again with it): one that would still play nothing is left out.
    static func noPulseReason(_ profile: Profile, _ trace: HoldTrace, request: TraceRequest) -> String {
        let h = profile.control.haptics
        let release = trace.outcome.pressEndTime
        let trigger = trace.timeline.triggerTime
        var reasons: [String] = []
        var fixes: [String] = []
        if h.onComplete {
            if let trigger, !trace.outcome.completed {
                reasons.append("the finger lifts at \(ms(release)), before the action fires at \(ms(trigger)), so the completion pulse (haptics.onComplete) never plays")
                fixes.append("hold past the action: --release-at \(Self.seconds(trigger + 0.25)) (or leave --release-at out)")
            } else if trigger == nil {
                reasons.append("the action never fires, so the completion pulse (haptics.onComplete) never plays")
            }
        } else {
            reasons.append("haptics.onComplete is false")
            fixes.append("--set haptics.onComplete=true")
        }
        if h.threshold > 0 {
            if let first = trace.timeline.firstPlayedPulseTime, first >= release {
                reasons.append("the first progress pulse would come at \(ms(first)), after the finger lifts")
            } else if trace.timeline.firstPlayedPulseTime == nil {
                reasons.append("the fill requests no progress pulse")
            }
        } else if case .none = profile.control.fill.model {
            reasons.append("haptics.threshold is 0, and without a fill (fill.model: none) there is no progress to pulse on")
        } else {
            reasons.append("haptics.threshold is 0 (no progress pulses)")
            fixes.append("--set haptics.threshold=0.05")
        }
        // A fix that would still play nothing is no fix.
        fixes = fixes.filter { fix in
            var again = request
            if fix.hasPrefix("--set ") {
                guard let override = try? Override(parsing: String(fix.dropFirst(6))),
                      let changed = try? profile.applying(override) else { return false }
                again = TraceRequest(profile: changed, releaseAtSeconds: request.releaseAtSeconds, framePhase: request.framePhase, seed: request.seed)
            } else if let trigger {
                again = TraceRequest(profile: profile, releaseAtSeconds: trigger + 0.25, framePhase: request.framePhase, seed: request.seed)
            }
            return (try? HapticPattern.pulses(again).1.isEmpty) == false
        }
        return reasons.joined(separator: "; ") + (fixes.isEmpty ? "" : "; try " + fixes.joined(separator: " or "))
    }

    private static func ms(_ seconds: Double) -> String { CSV.number(seconds * 1000, decimals: 0) + " ms" }

    private static func seconds(_ value: Double) -> String {
        var text = CSV.number(value, decimals: 3)
        while text.contains("."), text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}

/// A hold with nothing to export: exit 65 with its message.
struct ExportRefusal: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
