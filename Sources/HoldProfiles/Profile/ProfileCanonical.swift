import HoldLabIO
import HoldModel

extension Profile {
    /// The resolved profile as YAML with every key and default written out, in schema order.
    ///
    /// It loads back to the same profile, and its hash identifies the resolved content in CSV provenance.
    public var canonicalYAML: String {
        let c = control
        var lines: [String] = [
            "version: \(Self.schemaVersion)",
            "name: \(nameScalar(name))",
            "description: \(Self.quoted(description))",
            "source: \(Self.quoted(source))",
            "gesture: {minimumDuration: \(c.gesture.minimumDurationSeconds.shortText), maximumDistance: \(c.gesture.maximumDistancePoints.shortText), movementCancels: \(c.gesture.movementCancels.rawValue)}",
            "trigger: {source: \(c.trigger.source.rawValue), offset: \(c.trigger.offsetSeconds.shortText)}",
            "fill:",
            "  start: \(c.fill.start.rawValue)",
            "  delay: \(c.fill.delaySeconds.shortText)",
        ]
        lines += FillSchema.canonicalLines(c.fill.model, durationMatches: fillDurationMatchesGesture,
                                           timerLatency: timerLatency)
        let r = c.retract
        let retractDuration = r.durationSeconds.map(\.shortText) ?? "match"
        lines.append("retract: {mode: \(r.mode.rawValue), curve: \(flowScalar("\(r.curve)")), duration: \(retractDuration), interruption: \(r.interruption.rawValue), afterTrigger: \(r.afterTrigger.rawValue)}")
        let h = c.haptics
        // `actuatorMinInterval` is written only when it is not the default, so adding the key left every profile's
        // hash as it was.
        let actuator = h.actuatorMinIntervalSeconds == Haptics.defaultActuatorMinIntervalSeconds
            ? "" : ", actuatorMinInterval: \(h.actuatorMinIntervalSeconds.shortText)"
        lines.append("haptics: {threshold: \(h.threshold.shortText), minInterval: \(h.minIntervalSeconds.shortText), onComplete: \(h.onComplete)\(actuator)}")
        // `indicator` is written only when it is not the default bar, so adding the key left the hash of every bar
        // profile as it was.
        let shape = indicator == .bar ? "" : ", indicator: \(indicator.rawValue)"
        lines.append("display: {refreshRate: \(c.display.refreshRateHz.shortText), resolution: \(c.display.resolution.shortText)\(shape)}")
        lines.append("population: \(nameScalar(population))")
        return lines.joined(separator: "\n") + "\n"
    }

    /// FNV-1a 64-bit hash of `canonicalYAML`, as 16 hex digits.
    public var contentHash: String { fnv1a64Hex(canonicalYAML) }

    /// `text` as a value inside a flow mapping: as is, unless a comma or another flow indicator would end or nest it
    /// (`interpolatingSpring(500,30)`, `bezier(0.2,0,0.4,1)`), then double-quoted, so the YAML loads back. Texts
    /// without one are written as before, which keeps those profiles' hashes.
    private func flowScalar(_ text: String) -> String {
        text.contains(where: { ",[]{}#\"'".contains($0) }) || text.contains(": ") ? Self.quoted(text) : text
    }

    /// `text` double-quoted, so that it loads back as the same text: `"` and `\\` escaped, a line break `\\n`, and
    /// every other character YAML folds or refuses raw (C0, DEL, C1, U+2028, U+2029, U+FEFF, U+FFFE, U+FFFF) as
    /// `\\x..` or `\\u....` (a tab stays: it loads back as itself). Texts without such characters are written as
    /// before, which keeps their hashes.
    static func quoted(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case _ where (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\x" + (hex.count < 2 ? "0" + hex : hex)
            // Line and paragraph separators, the byte-order mark and the two non-characters YAML does not print.
            case "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FFFE}", "\u{FFFF}":
                escaped += "\\u" + String(scalar.value, radix: 16, uppercase: true)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "\"\(escaped)\""
    }

    /// A name (`name`, `population`: letters, digits, `-`, `_`) as a YAML scalar: as is, which keeps every hash,
    /// unless YAML would not read it back as that text (`-` alone is a sequence entry; `~` and `null` are null),
    /// then double-quoted.
    private func nameScalar(_ text: String) -> String {
        LibraryName.needsQuotes(text) ? Self.quoted(text) : text
    }
}
