import Foundation
import HoldLabIO
import HoldSimulation

/// A one-line progress bar with throughput and ETA on standard error, drawn only when standard error is a
/// terminal (never into a redirected log or a pipe).
final class ProgressBar {
    private let label: String
    private let total: Int
    private let unit: String
    private let start = Date()
    private let enabled: Bool
    private var lastDraw = Date.distantPast
    /// Nothing is drawn until this many seconds have passed (work that ends sooner shows no bar).
    private let delaySeconds: TimeInterval
    private var drawn = false

    /// Whether the total is unknown (`total` 0): the bar then shows the count, rate and elapsed time, no ETA.
    private let open: Bool

    init(label: String, total: Int, unit: String, delaySeconds: TimeInterval = 0) {
        self.label = label
        open = total <= 0
        self.total = max(1, total)
        self.unit = unit
        self.delaySeconds = delaySeconds
        enabled = isatty(STDERR_FILENO) == 1
    }

    func update(_ done: Int) {
        guard enabled else { return }
        let now = Date()
        guard now.timeIntervalSince(start) >= delaySeconds else { return }
        guard (!open && done >= total) || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        drawn = true
        lastDraw = now
        let elapsed = now.timeIntervalSince(start)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        if open {
            StandardError.write(String(format: "\r%@: %d %@  %@ %@/s  %.1fs ", label, done, unit,
                                       Self.compact(rate), unit, elapsed))
            return
        }
        let fraction = Double(done) / Double(total)
        let eta = rate > 0 ? Double(total - done) / rate : 0
        let width = 24
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let line = String(format: "\r%@ [%@] %3.0f%%  %@ %@/s  ETA %.1fs ", label, bar, fraction * 100,
                          Self.compact(rate), unit, eta)
        StandardError.write(line)
    }

    func finish() {
        guard enabled, drawn else { return }
        StandardError.write("\r\u{1B}[K")
    }

    static func compact(_ value: Double) -> String {
        if value >= 1e6 { return String(format: "%.2fM", value / 1e6) }
        if value >= 1e3 { return String(format: "%.1fk", value / 1e3) }
        return String(format: "%.0f", value)
    }
}
