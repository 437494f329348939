import HoldLabIO
import HoldModel
import HoldProfiles


/// How the pulses of a hold feel when exported: Core Haptics parameters for AHAP, amplitudes and on-times for
/// Android. Profiles say when a pulse plays, not how it feels, so these are choices with documented defaults.
public struct HapticStyle: Sendable, Equatable {
    /// `HapticIntensity` of a progress pulse, 0–1 (Android amplitude = round(255 × intensity), at least 1).
    public var intensity: Double
    /// `HapticSharpness` of a progress pulse, 0 (dull) – 1 (sharp).
    public var sharpness: Double
    /// The completion pulse's intensity, 0–1.
    public var completionIntensity: Double
    /// The completion pulse's sharpness, 0–1.
    public var completionSharpness: Double
    /// Milliseconds an Android progress pulse vibrates (shortened to half the gap to the next pulse).
    public var pulseMilliseconds: Int
    /// Milliseconds the Android completion pulse vibrates (shortened the same way).
    public var completionPulseMilliseconds: Int

    /// Defaults: a soft, light tick for progress (intensity 0.5, sharpness 0.3: the seed-000 author's soft impact,
    /// kept light because dense pulses numb the hand, DOMAIN §6) and a full, crisp completion (1.0, 0.8), so the
    /// action feels different from the fill; 8 ms and 30 ms on Android.
    public static let standard = HapticStyle(
        intensity: 0.5, sharpness: 0.3, completionIntensity: 1.0, completionSharpness: 0.8,
        pulseMilliseconds: 8, completionPulseMilliseconds: 30)

    public init(intensity: Double, sharpness: Double, completionIntensity: Double, completionSharpness: Double,
                pulseMilliseconds: Int, completionPulseMilliseconds: Int) {
        self.intensity = intensity
        self.sharpness = sharpness
        self.completionIntensity = completionIntensity
        self.completionSharpness = completionSharpness
        self.pulseMilliseconds = pulseMilliseconds
        self.completionPulseMilliseconds = completionPulseMilliseconds
    }
}

/// An Android waveform: `VibrationEffect.createWaveform(timings, amplitudes, -1)`: alternating off and on
/// segments in milliseconds, amplitudes 0 (off) or 1–255.
public struct AndroidWaveform: Sendable, Equatable {
    public var timings: [Int64]
    public var amplitudes: [Int]

    /// The waveform of `pulses`: segment boundaries at each pulse's time (in microseconds) rounded to the millisecond (from
    /// touch-down, never accumulated, so no rounding drifts), an off segment before each pulse and an on segment of
    /// the style's length, cut to half the gap to the next pulse (at least 1 ms) so dense pulses stay distinct.
    /// Pulses within the same millisecond (only with minInterval 0 and sub-millisecond gaps) become one, at the
    /// larger amplitude.
    public init(_ pulses: [HapticPulse], style: HapticStyle) {
        var starts: [(ms: Int64, amplitude: Int, on: Int64)] = []
        for pulse in pulses {
            let ms = Instant.nearestMillisecond(pulse.time)
            let amplitude = Self.amplitude(pulse.isCompletion ? style.completionIntensity : style.intensity)
            let on = Int64(pulse.isCompletion ? style.completionPulseMilliseconds : style.pulseMilliseconds)
            if let last = starts.last, last.ms == ms {
                starts[starts.count - 1] = (ms, max(last.amplitude, amplitude), max(last.on, on))
            } else {
                starts.append((ms, amplitude, on))
            }
        }
        var timings: [Int64] = []
        var amplitudes: [Int] = []
        var cursor: Int64 = 0
        for (index, start) in starts.enumerated() {
            var on = max(1, start.on)
            if index + 1 < starts.count { on = max(1, min(on, (starts[index + 1].ms - start.ms) / 2)) }
            timings.append(start.ms - cursor)
            amplitudes.append(0)
            timings.append(on)
            amplitudes.append(start.amplitude)
            cursor = start.ms + on
        }
        self.timings = timings
        self.amplitudes = amplitudes
    }

    /// round(255 × intensity), from 1 to 255 (0 would be silence).
    static func amplitude(_ intensity: Double) -> Int {
        max(1, min(255, Int((255 * intensity).rounded())))
    }
}

extension Instant {
    /// Nanoseconds to the nearest microsecond (halves up: times are never negative).
    static func nearestMicrosecond(_ nanoseconds: Int64) -> Int64 { (nanoseconds + 500) / 1_000 }
    /// The microsecond (`nearestMicrosecond`) rounded to the nearest millisecond, halves up: rounding the
    /// microseconds the AHAP and JSON carry, so the millisecond agrees with them.
    static func nearestMillisecond(_ nanoseconds: Int64) -> Int64 { (nearestMicrosecond(nanoseconds) + 500) / 1_000 }
}

/// `holdlab haptics`: the pulses of one hold as Core Haptics (AHAP) and Android patterns.
public enum HapticPattern {
    /// The export formats.
    public enum Format: String, Sendable, CaseIterable {
        /// Apple Haptic and Audio Pattern: JSON for `CHHapticPattern(contentsOf:)`.
        case ahap
        /// JSON with Android's `createWaveform` timings and amplitudes, and the pulse times.
        case android
        /// One line of Kotlin that builds the `VibrationEffect`.
        case kotlin
    }

    /// The played pulses of the hold the request describes, traced as `holdlab trace` traces it.
    public static func pulses(_ request: TraceRequest) throws(ControlError) -> (trace: HoldTrace, pulses: [HapticPulse]) {
        let trace = try request.run()
        return (trace, HapticPulse.played(in: trace))
    }

    /// The text of `format` for a traced hold.
    public static func text(_ format: Format, pulses: [HapticPulse], style: HapticStyle, request: TraceRequest,
                            trace: HoldTrace, commandLine: String) -> String {
        let about = provenance(request: request, trace: trace, commandLine: commandLine)
        switch format {
        case .ahap: return ahap(pulses, style: style, description: about)
        case .android: return androidJSON(pulses, style: style, provenance: about)
        case .kotlin: return kotlin(pulses, style: style, provenance: about)
        }
    }

    /// What made the pattern: version, profile and hash, command, seed, phase, release.
    static func provenance(request: TraceRequest, trace: HoldTrace, commandLine: String) -> String {
        "holdlab \(HoldLabVersion.current) haptics; profile \(request.profile.name) fnv1a64:\(request.profile.contentHash); "
            + "command: \(commandLine); seed \(request.seed); frame phase \(request.framePhase); "
            + "released at \(CSV.number(trace.outcome.pressEndTime * 1000, decimals: 3)) ms; completed \(trace.outcome.completed)"
    }

    /// An AHAP pattern: `Version` 1.0, `Metadata` (Project, Description: the provenance) as Apple's sample files
    /// carry it, and one `HapticTransient` event per played pulse, `Time` in seconds after touch-down to the
    /// microsecond, with `HapticIntensity` and `HapticSharpness` (0–1).
    public static func ahap(_ pulses: [HapticPulse], style: HapticStyle, description: String) -> String {
        var s = "{\n  \"Version\": 1.0,\n"
        s += "  \"Metadata\": {\n    \"Project\": \"HoldLab\",\n    \"Description\": \(json(description))\n  },\n"
        s += "  \"Pattern\": ["
        for (index, pulse) in pulses.enumerated() {
            let intensity = pulse.isCompletion ? style.completionIntensity : style.intensity
            let sharpness = pulse.isCompletion ? style.completionSharpness : style.sharpness
            s += index == 0 ? "\n" : ",\n"
            s += "    {\"Event\": {\"Time\": \(seconds(pulse.time)), \"EventType\": \"HapticTransient\", \"EventParameters\": ["
            s += "{\"ParameterID\": \"HapticIntensity\", \"ParameterValue\": \(CSV.number(intensity, decimals: 3))}, "
            s += "{\"ParameterID\": \"HapticSharpness\", \"ParameterValue\": \(CSV.number(sharpness, decimals: 3))}]}}"
        }
        s += pulses.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        return s
    }

    /// JSON for Android: the waveform's `timings_ms` and `amplitudes` (for `createWaveform(timings, amplitudes,
    /// -1)`), each pulse's exact time in microseconds and whether it is the completion pulse, and the provenance.
    public static func androidJSON(_ pulses: [HapticPulse], style: HapticStyle, provenance: String) -> String {
        let waveform = AndroidWaveform(pulses, style: style)
        var s = "{\n  \"api\": \"android.os.VibrationEffect.createWaveform(long[] timings, int[] amplitudes, int repeat)\",\n"
        s += "  \"provenance\": \(json(provenance)),\n"
        s += "  \"pulse_times_us\": [\(pulses.map { String(Instant.nearestMicrosecond($0.time)) }.joined(separator: ", "))],\n"
        s += "  \"completion_pulse\": [\(pulses.map { $0.isCompletion ? "true" : "false" }.joined(separator: ", "))],\n"
        s += "  \"timings_ms\": [\(waveform.timings.map(String.init).joined(separator: ", "))],\n"
        s += "  \"amplitudes\": [\(waveform.amplitudes.map(String.init).joined(separator: ", "))],\n"
        s += "  \"repeat\": -1\n}\n"
        return s
    }

    /// A provenance comment and one line of Kotlin building the effect (API 26+, amplitude control).
    public static func kotlin(_ pulses: [HapticPulse], style: HapticStyle, provenance: String) -> String {
        let waveform = AndroidWaveform(pulses, style: style)
        // One comment line, whatever the command line held (a --set value with a line break), as `export` writes it.
        return "// \(ControlExport.comment(provenance))\n"
            + "val holdEffect = VibrationEffect.createWaveform(longArrayOf(\(waveform.timings.map { "\($0)L" }.joined(separator: ", "))), "
            + "intArrayOf(\(waveform.amplitudes.map(String.init).joined(separator: ", "))), -1)\n"
    }

    /// Seconds with six decimals: the microsecond.
    static func seconds(_ nanoseconds: Int64) -> String {
        let micro = Instant.nearestMicrosecond(nanoseconds)
        let fraction = String(micro % 1_000_000)
        return "\(micro / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// A JSON string literal.
    static func json(_ text: String) -> String { JSONRendering.jsonString(text) }
}
