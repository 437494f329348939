import Foundation
import HoldLabIO
import HoldSimulation

/// A one-line progress bar with throughput and ETA on standard error, drawn only when standard error is a
/// terminal (never into a redirected log or a pipe) and `--quiet` is not given. Under `TERM=dumb` it uses no escape
/// codes (a carriage return and spaces only).
final class ProgressBar {
    private let label: String
    private let total: Int
    private let unit: String
    /// How many counted things (users) make one shown unit (a sweep point): the bar counts in the command's unit.
    private let per: Int
    /// Whether the terminal takes ANSI escape codes (not `TERM=dumb`).
    private let escapes: Bool
    private let start = Date()
    private let enabled: Bool
    private var lastDraw = Date.distantPast
    /// Nothing is drawn until this many seconds have passed (work that ends sooner shows no bar).
    private let delaySeconds: TimeInterval
    private var drawn = false
    private var started = false

    /// Whether the total is unknown (`total` 0): the bar then shows the count, rate and elapsed time, no ETA.
    private let open: Bool

    /// - Parameters:
    ///   - total: things to count (users), 0 when unknown; `update` takes the count done.
    ///   - unit: the shown unit (`points`, `evaluations`); `per` counted things make one of them.
    init(label: String, total: Int, unit: String, per: Int = 1, delaySeconds: TimeInterval = 0) {
        self.label = label
        open = total <= 0
        self.total = max(1, total)
        self.unit = unit
        self.per = max(1, per)
        self.delaySeconds = delaySeconds
        enabled = isatty(STDERR_FILENO) == 1 && !Quiet.requested
        escapes = ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    func update(_ done: Int) {
        // The work has started: what its inputs warned of is said first (`PendingWarnings`), once.
        if !started {
            started = true
            PendingWarnings.say()
        }
        guard enabled else { return }
        let now = Date()
        guard now.timeIntervalSince(start) >= delaySeconds else { return }
        guard (!open && done >= total) || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        drawn = true
        lastDraw = now
        let elapsed = now.timeIntervalSince(start)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let shownRate = rate / Double(per)
        if open {
            let line = String(format: "\r%@: %d %@  %@ %@/s  %.1fs ", label, done / per, unit,
                              Self.compact(shownRate), unit, elapsed)
            width = max(width, line.count)
            StandardError.write(line)
            return
        }
        let fraction = Double(done) / Double(total)
        let eta = rate > 0 ? Double(total - done) / rate : 0
        let barWidth = 24
        let filled = Int((fraction * Double(barWidth)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled)
        let line = String(format: "\r%@ [%@] %3.0f%%  %@ of %@ %@  %@ %@/s  ETA %.1fs ", label, bar, fraction * 100,
                          Self.count(Double(done) / Double(per)), Self.count(Double(total) / Double(per)), unit,
                          Self.compact(shownRate), unit, eta)
        width = max(width, line.count)
        StandardError.write(line)
    }

    /// The widest line drawn, which a dumb terminal's clearing overwrites with spaces.
    private var width = 0

    func finish() {
        guard enabled, drawn else { return }
        StandardError.write(escapes ? "\r\u{1B}[K" : "\r" + String(repeating: " ", count: width) + "\r")
    }

    /// A count of shown units: whole when it is, else one decimal (a sweep point half done).
    static func count(_ value: Double) -> String {
        value == value.rounded() ? compact(value) : String(format: "%.1f", value)
    }

    static func compact(_ value: Double) -> String {
        if value >= 1e6 { return String(format: "%.2fM", value / 1e6) }
        if value >= 1e3 { return String(format: "%.1fk", value / 1e3) }
        return String(format: "%.0f", value)
    }
}
