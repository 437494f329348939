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
            "name: \(name)",
            "description: \(quoted(description))",
            "source: \(quoted(source))",
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
        lines.append("population: \(population)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// FNV-1a 64-bit hash of `canonicalYAML`, as 16 hex digits.
    public var contentHash: String { fnv1a64Hex(canonicalYAML) }

    /// `text` as a value inside a flow mapping: as is, unless a comma or another flow indicator would end or nest it
    /// (`interpolatingSpring(500,30)`, `bezier(0.2,0,0.4,1)`), then double-quoted, so the YAML loads back. Texts
    /// without one are written as before, which keeps those profiles' hashes.
    private func flowScalar(_ text: String) -> String {
        text.contains(where: { ",[]{}#\"'".contains($0) }) || text.contains(": ") ? quoted(text) : text
    }

    private func quoted(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return "\"\(escaped)\""
    }
}
