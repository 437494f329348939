import Foundation
import HoldLabIO
import HoldModel
import HoldProfiles


/// Where a preview draws things, in pixels. Designs sit side by side in panels `panelWidth` wide under a header
/// with the time readout; the provenance footer runs under them. gnuplot's coordinates are these pixels with y
/// up; `...FromTop` values are image rows from the top, as a decoder reads them.
public enum PreviewLayout {
    public static let panelWidth = 400
    public static let headerHeight = 40
    public static let panelHeight = 220
    public static let footerLineHeight = 14
    /// Characters of footer text per line of a panel's width (DejaVu Sans 8 pt averages about 5.5 px a character).
    static let footerCharactersPerPanel = 70

    /// The bar's track: from `barInset` to `panelWidth − barInset` across the panel.
    public static let barInset = 50
    public static var barLength: Int { panelWidth - 2 * barInset }
    public static let barHeight = 32
    /// The row of the bar's middle, and of the ring's centre, from the top of the image.
    public static let controlCentreFromTop = headerHeight + 92
    public static let ringRadius = 40
    public static let ringThickness = 11

    /// The timeline strip under each control: a time axis with the pulses, the action, the release and a playhead.
    static let timelineFromTop = headerHeight + 186
    static let timelineTickHeight = 12

    public static func width(designs: Int) -> Int { panelWidth * max(1, designs) }

    public static func height(footerLines: Int) -> Int {
        let height = headerHeight + panelHeight + footerLineHeight * footerLines + 8
        return height + height % 2  // even, as yuv420p video needs
    }

    /// The left edge of panel `index`.
    public static func panelLeft(_ index: Int) -> Int { index * panelWidth }
}

/// The colours of a preview (iOS system colours, so a review sees what a phone would draw).
public enum PreviewColor {
    public static let background = 0xFFFFFF
    public static let text = 0x1C1C1E
    public static let secondaryText = 0x8E8E93
    public static let track = 0xE5E5EA
    /// The fill while the action has not fired.
    public static let fill = 0x007AFF
    /// The fill once the action fired.
    public static let fired = 0x34C759
    public static let pulse = 0xFF9500
    public static let completionPulse = 0xFF2D55
    public static let release = 0x8E8E93
    public static let playhead = 0x1C1C1E
}

/// The gnuplot program that draws a preview's frames. Pure text: the same request gives the same script, byte for
/// byte, and gnuplot's gd terminals draw the same bytes from it.
public enum PreviewScript {
    /// The output the script draws.
    public enum Target: Sendable, Equatable {
        /// One animated GIF, a frame every `FrameSchedule.gifDelayCentiseconds`, looping, written to the path gnuplot
        /// is given as the script's first argument (`gnuplot -c SCRIPT PATH`: `ARG1`).
        case gif
        /// One PNG per frame, numbered from 1 after the prefix given as `ARG1` (`PREFIX00001.png` …), for a video
        /// encoder.
        case pngFrames
    }

    /// The script for `timelines` sampled at `schedule`.
    ///
    /// No path is pasted into it: gnuplot takes the output's path as an argument (`ARG1`), as it is, whatever its
    /// characters (quotes, newlines, a leading `|` that `set output` would run as a command).
    public static func text(_ timelines: PreviewTimelines, schedule: FrameSchedule, target: Target) -> String {
        let designs = timelines.designs
        let footer = footerLines(timelines)
        let width = PreviewLayout.width(designs: designs.count)
        let height = PreviewLayout.height(footerLines: footer.count)
        let axisEnd = max(schedule.times.last ?? 0, 1)
        var s = "# holdlab preview: \(commentText(designs.map(\.design.label).joined(separator: ", ")))\n"
        s += "set encoding utf8\n"
        switch target {
        case .gif:
            s += "set terminal gif animate delay \(FrameSchedule.gifDelayCentiseconds) loop 0 size \(width),\(height) "
            s += "font \"DejaVu Sans,10\" noenhanced background rgb \(hex(PreviewColor.background))\n"
            s += "set output ARG1\n"
        case .pngFrames:
            s += "set terminal png size \(width),\(height) font \"DejaVu Sans,10\" noenhanced "
            s += "background rgb \(hex(PreviewColor.background))\n"
        }
        s += """
            unset key; unset tics; unset border
            set lmargin at screen 0; set rmargin at screen 1; set bmargin at screen 0; set tmargin at screen 1
            set xrange [0:\(width - 1)]; set yrange [0:\(height - 1)]
            set clip two

            """
        // The header's fixed part (what the marks on the timelines mean) and the footer.
        s += "set label 1 \(quoted("HoldLab preview · 50 frames per second")) at \(width - 12),\(y(fromTop: 15, height: height)) right "
        s += "font \"DejaVu Sans,8\" tc rgb \(hex(PreviewColor.secondaryText))\n"
        let legend: [(String, Int)] = [("┃ pulse", PreviewColor.pulse), ("┃ completion pulse", PreviewColor.completionPulse),
                                       ("┃ action", PreviewColor.fired), ("┃ release", PreviewColor.release), ("┃ now", PreviewColor.playhead)]
        var legendX = width - 12 - legend.reduce(0) { $0 + ($1.0.count + 2) * legendCharacterWidth }
        for (offset, item) in legend.enumerated() {
            s += "set label \(60 + offset) \(quoted(item.0)) at \(legendX),\(y(fromTop: 32, height: height)) "
            s += "font \"DejaVu Sans,8\" tc rgb \(hex(item.1))\n"
            legendX += (item.0.count + 2) * legendCharacterWidth
        }
        for (index, line) in footer.enumerated() {
            let top = PreviewLayout.headerHeight + PreviewLayout.panelHeight + 10 + index * PreviewLayout.footerLineHeight
            s += "set label \(2 + index) \(quoted(line)) at 10,\(y(fromTop: top, height: height)) "
            s += "font \"DejaVu Sans,8\" tc rgb \(hex(PreviewColor.secondaryText))\n"
        }
        s += "array tms[\(schedule.times.count)] = [\(schedule.times.map { fixed(Double($0) / 1e6, 6) }.joined(separator: ","))]\n"
        for (index, design) in designs.enumerated() {
            s += staticPart(design, index: index, height: height, axisEnd: axisEnd)
            s += arrays(design, index: index, schedule: schedule)
        }
        s += "do for [k=1:\(schedule.times.count)] {\n"
        if case .pngFrames = target {
            s += "  set output sprintf('%s%05d.png', ARG1, k)\n"
        }
        s += "  T = tms[k]\n"
        s += "  set label 100 sprintf(\"t = %.3f s\", T/1000.0) at 14,\(y(fromTop: 27, height: height)) "
        s += "font \"DejaVu Sans:Bold,16\" tc rgb \(hex(PreviewColor.text))\n"
        var plots: [String] = []
        for (index, design) in designs.enumerated() {
            s += framePart(design, index: index, height: height, axisEnd: axisEnd)
            plots += plotElements(design, index: index)
        }
        plots.append("NaN notitle")
        s += "  plot " + plots.joined(separator: ", \\\n    ") + "\n"
        s += "}\n"
        s += "unset output\n"
        return s
    }

    // MARK: - Parts

    /// The provenance footer: version, what was drawn, the command, and each profile with its hash.
    static func footerLines(_ timelines: PreviewTimelines) -> [String] {
        let request = timelines.request
        let release = request.releaseAtSeconds.map { "released at \(fixed($0, 3)) s" } ?? "held to the end"
        var lines = ["holdlab \(HoldLabVersion.current) preview · \(release) · seed \(request.seed) · frame phase "
                     + "\(request.framePhase) · GIF: a frame every 20 ms, each showing the display's last frame"]
        let perLine = PreviewLayout.footerCharactersPerPanel * max(1, timelines.designs.count)
        lines += wrap("command: " + request.commandLine, width: perLine)
        let profiles = timelines.designs.map { design -> String in
            let profile = design.design.profile
            let label = design.design.label == profile.name ? "" : "\(design.design.label) = "
            return "\(label)\(profile.name) fnv1a64:\(profile.contentHash)"
        }
        lines += wrap("profiles: " + profiles.joined(separator: " · "), width: perLine)
        return lines
    }

    /// The panel's title, subtitle, track and time axis: drawn once, the same in every frame.
    static func staticPart(_ design: DesignTimeline, index: Int, height: Int, axisEnd: Int64) -> String {
        let left = PreviewLayout.panelLeft(index)
        let tag = 1000 * (index + 1)
        let profile = design.design.profile
        let control = profile.control
        var s = "# design \(index + 1): \(commentText(design.design.label))\n"
        s += "set label \(tag + 1) \(quoted(design.design.label)) at \(left + 20),\(y(fromTop: PreviewLayout.headerHeight + 24, height: height)) "
        s += "font \"DejaVu Sans:Bold,13\" tc rgb \(hex(PreviewColor.text))\n"
        var subtitle = describe(control)
        if design.design.label != profile.name { subtitle = profile.name + " · " + subtitle }
        s += "set label \(tag + 2) \(quoted(subtitle)) at \(left + 20),\(y(fromTop: PreviewLayout.headerHeight + 42, height: height)) "
        s += "font \"DejaVu Sans,8\" tc rgb \(hex(PreviewColor.secondaryText))\n"
        if index > 0 {
            s += "set arrow \(tag + 3) from \(left),\(y(fromTop: PreviewLayout.headerHeight + 8, height: height)) "
            s += "to \(left),\(y(fromTop: PreviewLayout.headerHeight + PreviewLayout.panelHeight - 4, height: height)) "
            s += "nohead lc rgb \(hex(PreviewColor.track)) lw 1\n"
        }
        let centre = y(fromTop: PreviewLayout.controlCentreFromTop, height: height)
        switch profile.indicator {
        case .bar:
            let (x0, x1) = barExtent(left)
            s += "set object \(tag + 10) rect from \(x0),\(centre - PreviewLayout.barHeight / 2) to \(x1),\(centre + PreviewLayout.barHeight / 2) "
            s += "fc rgb \(hex(PreviewColor.track)) fs solid 1.0 noborder back\n"
        case .ring:
            s += "set object \(tag + 10) circle at \(left + PreviewLayout.panelWidth / 2),\(centre) size \(PreviewLayout.ringRadius) "
            s += "fc rgb \(hex(PreviewColor.track)) fs solid 1.0 noborder back\n"
            s += "set object \(tag + 12) circle at \(left + PreviewLayout.panelWidth / 2),\(centre) "
            s += "size \(PreviewLayout.ringRadius - PreviewLayout.ringThickness) fc rgb \(hex(PreviewColor.background)) fs solid 1.0 noborder back\n"
        }
        if !design.pulses.isEmpty {
            let flashX = flashCentreX(design, left: left)
            s += "set label \(tag + 9) \"haptic\" at \(flashX),\(centre - 22) center font \"DejaVu Sans,7\" tc rgb \(hex(PreviewColor.secondaryText))\n"
        }
        if case .none = control.fill.model {
            s += "set label \(tag + 4) \"no fill: nothing moves until the action\" at \(left + PreviewLayout.panelWidth / 2),\(centre) "
            s += "center font \"DejaVu Sans,9\" tc rgb \(hex(PreviewColor.secondaryText)) front\n"
        }
        // The time axis: a line, a tick every 0.5 s, labels at whole seconds.
        let (x0, x1) = barExtent(left)
        let axisY = y(fromTop: PreviewLayout.timelineFromTop, height: height)
        s += "set arrow \(tag + 5) from \(x0),\(axisY) to \(x1),\(axisY) nohead lc rgb \(hex(PreviewColor.secondaryText)) lw 1\n"
        var tick = 0
        while Int64(tick) * 500_000_000 <= axisEnd {
            let x = timelineX(Int64(tick) * 500_000_000, left: left, axisEnd: axisEnd)
            let length = tick % 2 == 0 ? 5 : 3
            s += "set arrow \(tag + 20 + tick) from \(x),\(axisY) to \(x),\(axisY - length) nohead lc rgb \(hex(PreviewColor.secondaryText)) lw 1\n"
            if tick % 2 == 0 {
                s += "set label \(tag + 20 + tick) \(quoted("\(tick / 2) s")) at \(x),\(axisY - 15) center "
                s += "font \"DejaVu Sans,8\" tc rgb \(hex(PreviewColor.secondaryText))\n"
            }
            tick += 1
            if tick >= 400 { break }
        }
        // The timeline's marks as datablocks: x, y, length, the instant (ms) from which each shows.
        var pulses = ""
        var completions = ""
        for pulse in design.pulses {
            let x = timelineX(pulse.time, left: left, axisEnd: axisEnd)
            let length = pulse.isCompletion ? PreviewLayout.timelineTickHeight + 8 : PreviewLayout.timelineTickHeight
            let row = "\(x) \(axisY) \(length) \(fixed(Double(pulse.time) / 1e6, 6))\n"
            if pulse.isCompletion { completions += row } else { pulses += row }
        }
        s += "$pulses\(index + 1) << EOD\n\(pulses)EOD\n"
        s += "$completions\(index + 1) << EOD\n\(completions)EOD\n"
        var events = ""
        if let trigger = design.trigger {
            events += "\(timelineX(trigger, left: left, axisEnd: axisEnd)) \(axisY) 26 \(fixed(Double(trigger) / 1e6, 6)) \(hex(PreviewColor.fired))\n"
        }
        events += "\(timelineX(design.release, left: left, axisEnd: axisEnd)) \(axisY) 26 \(fixed(Double(design.release) / 1e6, 6)) \(hex(PreviewColor.release))\n"
        s += "$events\(index + 1) << EOD\n\(events)EOD\n"
        return s
    }

    /// The per-frame values of a design, one array element per frame: displayed progress, pulses flashed this
    /// frame (0 none, 1 progress, 2 completion), status, pulses so far.
    static func arrays(_ design: DesignTimeline, index: Int, schedule: FrameSchedule) -> String {
        var progress: [String] = []
        var flash: [String] = []
        var status: [String] = []
        var count: [String] = []
        var previous = Int64.min
        var played = 0
        for time in schedule.times {
            progress.append(fixed(design.displayedProgress(at: time), 6))
            let now = design.pulses(after: previous, upTo: time)
            played += now.count
            flash.append(now.isEmpty ? "0" : now.contains(where: \.isCompletion) ? "2" : "1")
            status.append("\(design.status(at: time).rawValue)")
            count.append("\(played)")
            previous = time
        }
        let n = index + 1
        var s = "array p\(n)[\(progress.count)] = [\(progress.joined(separator: ","))]\n"
        s += "array f\(n)[\(flash.count)] = [\(flash.joined(separator: ","))]\n"
        s += "array s\(n)[\(status.count)] = [\(status.joined(separator: ","))]\n"
        s += "array c\(n)[\(count.count)] = [\(count.joined(separator: ","))]\n"
        let texts = DesignStatus.allCases.map { statusText($0, design) }
        s += "array st\(n)[\(texts.count)] = [\(texts.map(quoted).joined(separator: ","))]\n"
        return s
    }

    static func statusText(_ status: DesignStatus, _ design: DesignTimeline) -> String {
        switch status {
        case .fired:
            "✓ action fired at \(fixed(Double(design.trigger ?? 0) / 1e9, 3)) s"
        case .released:
            "released at \(fixed(Double(design.release) / 1e9, 3)) s: no action"
        default:
            status.text
        }
    }

    /// The commands that redraw a design's dynamic objects for frame k.
    static func framePart(_ design: DesignTimeline, index: Int, height: Int, axisEnd: Int64) -> String {
        let n = index + 1
        let tag = 1000 * n
        let left = PreviewLayout.panelLeft(index)
        let centre = y(fromTop: PreviewLayout.controlCentreFromTop, height: height)
        let colour = "(s\(n)[k] == 3 ? \(hex(PreviewColor.fired)) : \(hex(PreviewColor.fill)))"
        var s = ""
        switch design.design.profile.indicator {
        case .bar:
            let (x0, _) = barExtent(left)
            s += "  if (p\(n)[k] > 0) { set object \(tag + 11) rect from \(x0),\(centre - PreviewLayout.barHeight / 2) "
            s += "to \(x0)+\(PreviewLayout.barLength)*p\(n)[k],\(centre + PreviewLayout.barHeight / 2) "
            s += "fc rgb \(colour) fs solid 1.0 noborder back } else { unset object \(tag + 11) }\n"
        case .ring:
            s += "  if (p\(n)[k] > 0) { set object \(tag + 11) circle at \(left + PreviewLayout.panelWidth / 2),\(centre) "
            s += "size \(PreviewLayout.ringRadius) arc [90-360*p\(n)[k]:90] fc rgb \(colour) fs solid 1.0 noborder back } "
            s += "else { unset object \(tag + 11) }\n"
        }
        // The haptic flash: a dot right of the control for the frame in which a pulse played.
        let flashX = flashCentreX(design, left: left)
        s += "  if (f\(n)[k] > 0) { set object \(tag + 13) circle at \(flashX),\(centre) size (f\(n)[k] == 2 ? 11 : 7) "
        s += "fc rgb (f\(n)[k] == 2 ? \(hex(PreviewColor.completionPulse)) : \(hex(PreviewColor.pulse))) fs solid 1.0 noborder front } "
        s += "else { unset object \(tag + 13) }\n"
        let statusY = y(fromTop: PreviewLayout.controlCentreFromTop + 56, height: height)
        s += "  set label \(tag + 6) st\(n)[s\(n)[k]] at \(left + 20),\(statusY) font \"DejaVu Sans:Bold,11\" "
        s += "tc rgb (s\(n)[k] == 3 ? \(hex(PreviewColor.fired)) : s\(n)[k] == 4 ? \(hex(PreviewColor.release)) : \(hex(PreviewColor.text)))\n"
        if !design.pulses.isEmpty {
            s += "  set label \(tag + 7) sprintf(\"%d pulse%s\", c\(n)[k], c\(n)[k] == 1 ? \"\" : \"s\") at \(left + PreviewLayout.panelWidth - 20),\(statusY) "
            s += "right font \"DejaVu Sans,10\" tc rgb \(hex(PreviewColor.pulse))\n"
        }
        let axisY = y(fromTop: PreviewLayout.timelineFromTop, height: height)
        let (x0, _) = barExtent(left)
        s += "  set arrow \(tag + 8) from \(x0)+\(PreviewLayout.barLength)*(T*1e6 < \(axisEnd) ? T*1e6/\(axisEnd) : 1),\(axisY - 30) "
        s += "rto 0,34 nohead lc rgb \(hex(PreviewColor.playhead)) lw 1 front\n"
        return s
    }

    /// The `plot` elements of a design: its timeline marks up to the frame's instant T (later ones sit below the
    /// canvas, clipped).
    static func plotElements(_ design: DesignTimeline, index: Int) -> [String] {
        let n = index + 1
        var elements: [String] = []
        if design.pulses.contains(where: { !$0.isCompletion }) {
            elements.append("$pulses\(n) using 1:($4 <= T ? $2 : -100):(0):3 with vectors nohead lc rgb \(hex(PreviewColor.pulse)) lw 1 notitle")
        }
        if design.pulses.contains(where: \.isCompletion) {
            elements.append("$completions\(n) using 1:($4 <= T ? $2 : -100):(0):3 with vectors nohead lc rgb \(hex(PreviewColor.completionPulse)) lw 3 notitle")
        }
        elements.append("$events\(n) using 1:($4 <= T ? $2 - 4 : -100):(0):3:5 with vectors nohead lc rgb variable lw 2 notitle")
        return elements
    }

    // MARK: - Helpers

    /// Where the haptic dot flashes: right of the control.
    static func flashCentreX(_ design: DesignTimeline, left: Int) -> Int {
        design.design.profile.indicator == .bar
            ? barExtent(left).1 + 22 : left + PreviewLayout.panelWidth / 2 + PreviewLayout.ringRadius + 24
    }

    /// The bar's left and right edges in a panel.
    static func barExtent(_ left: Int) -> (Int, Int) {
        (left + PreviewLayout.barInset, left + PreviewLayout.barInset + PreviewLayout.barLength)
    }

    static func timelineX(_ time: Int64, left: Int, axisEnd: Int64) -> String {
        let (x0, _) = barExtent(left)
        return fixed(Double(x0) + Double(PreviewLayout.barLength) * Double(time) / Double(axisEnd), 3)
    }

    /// gnuplot's y for a row counted from the top (the ranges run over the pixels' centres, 0 to size − 1, so a
    /// whole number is a pixel: a bar from x to x + n covers n + 1 pixels).
    static func y(fromTop row: Int, height: Int) -> Int { height - 1 - row }

    /// Pixels a character of the 8 pt legend takes, about.
    static let legendCharacterWidth = 6

    /// A short description of the control under its title.
    static func describe(_ control: Control) -> String {
        var parts = [control.fill.model.caption]
        let offset = control.trigger.offsetSeconds
        let late = offset == 0 ? "" : " \(offset > 0 ? "+" : "−") \(fixed(abs(offset), 2)) s"
        parts.append(control.trigger.source == .gesture
            ? "action at \(fixed(control.gesture.minimumDurationSeconds, 2)) s\(late) (gesture)"
            : "action at fill end\(late)")
        parts.append("\(fixed(control.display.refreshRateHz, 0)) Hz")
        return parts.joined(separator: " · ")
    }

    static func hex(_ colour: Int) -> String {
        let digits = String(colour, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// A gnuplot string holding `text` on one line (`GnuplotAssignment.quoted`: any quote or backslash kept).
    static func quoted(_ text: String) -> String {
        GnuplotAssignment.quoted(oneLine(text))
    }

    /// Text for a `#` comment line: one line, and no backslash (one at the end would continue the comment over the
    /// next command).
    static func commentText(_ text: String) -> String {
        oneLine(text).replacingOccurrences(of: "\\", with: "/")
    }

    static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }

    /// `value` with `decimals` digits after the point (no exponent, `-0` written `0`).
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        let text = CSV.number(value, decimals: decimals)
        return text.hasPrefix("-") && Double(text) == 0 ? String(text.dropFirst()) : text
    }

    /// Words into lines of at most `width` characters (a longer word gets a line of its own).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = "    "
            }
            line += (line.isEmpty || line == "    " ? "" : " ") + word
        }
        if !line.trimmingCharacters(in: .whitespaces).isEmpty { lines.append(line) }
        return lines
    }
}
