import Foundation
import HoldLabIO
import HoldModel


/// A preview that could not be made: one message and what kind of failure it is (which decides the exit status).
public struct PreviewError: Error, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A program the preview needs (gnuplot, or ffmpeg for a requested MP4) is not installed (69).
        case unavailable
        /// gnuplot or ffmpeg ran and failed, or wrote nothing (70: the script is ours).
        case toolFailed
        /// The output cannot be created or moved into place (73).
        case cannotCreate
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

/// Draws previews with gnuplot (GIF) and encodes them with ffmpeg (MP4). Outputs are written to a temporary beside
/// the destination and renamed into place, so a failed or interrupted run leaves no partial file and an earlier
/// file stays as it was.
public enum PreviewRenderer {
    /// Whether `program` (gnuplot, ffmpeg) is on `$PATH`.
    public static func isInstalled(_ program: String) -> Bool { ExternalTool.find(program) != nil }

    /// Renders the animated GIF of `request` to `path`: the entry point `holdlab preview` and `holdlab report` use.
    ///
    /// - Returns: the designs as traced (the same rows `holdlab trace` writes).
    @discardableResult
    public static func renderGIF(_ request: PreviewRequest, to path: String) throws -> PreviewTimelines {
        let timelines = try PreviewTimelines(request)
        try renderGIF(timelines, to: path)
        return timelines
    }

    /// Renders an already traced preview as an animated GIF at 50 frames per second.
    public static func renderGIF(_ timelines: PreviewTimelines, to path: String) throws(PreviewError) {
        guard let gnuplot = ExternalTool.find("gnuplot") else {
            throw PreviewError(.unavailable, "gnuplot is not installed (or not on PATH); install it with: sudo apt-get install gnuplot-nox")
        }
        let temporary = TemporaryPath(beside: path)
        defer { temporary.remove() }
        let script = PreviewScript.text(timelines, schedule: .gif(through: timelines.end), target: .gif(path: temporary.path))
        try ExternalTool.run(gnuplot, arguments: ["/dev/stdin"], input: script, showing: temporary.path, as: path)
        try temporary.commit(to: path)
    }

    /// Renders the preview as an H.264 MP4 at the fastest design's display rate, one video frame per display
    /// frame (each design shows its own display's last frame): gnuplot draws PNG frames into a temporary folder,
    /// ffmpeg encodes them (bit-exact flags, one thread, no metadata but the command, so the same command gives
    /// the same bytes).
    public static func renderMP4(_ timelines: PreviewTimelines, to path: String) throws(PreviewError) {
        guard let gnuplot = ExternalTool.find("gnuplot") else {
            throw PreviewError(.unavailable, "gnuplot is not installed (or not on PATH); install it with: sudo apt-get install gnuplot-nox")
        }
        guard let ffmpeg = ExternalTool.find("ffmpeg") else {
            throw PreviewError(.unavailable, "ffmpeg is not installed (or not on PATH); install it with: sudo apt-get install ffmpeg")
        }
        let rate = timelines.fastestRefreshRate
        let schedule = FrameSchedule.display(refreshRateHz: rate, phase: timelines.request.framePhase, through: timelines.end)
        let frames = TemporaryFrames(beside: path, count: schedule.times.count)
        defer { frames.remove() }
        let script = PreviewScript.text(timelines, schedule: schedule, target: .pngFrames(pattern: frames.pattern))
        try ExternalTool.run(gnuplot, arguments: ["/dev/stdin"], input: script, showing: frames.prefix, as: "(frame)")
        let temporary = TemporaryPath(beside: path, suffix: ".mp4")
        defer { temporary.remove() }
        let rateText = rate == rate.rounded() ? String(Int(rate)) : String(rate)
        try ExternalTool.run(ffmpeg, arguments: [
            "-nostdin", "-hide_banner", "-loglevel", "error", "-y",
            "-framerate", rateText, "-i", frames.pattern,
            "-c:v", "libx264", "-preset", "medium", "-crf", "18", "-pix_fmt", "yuv420p", "-r", rateText,
            "-threads", "1", "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1",
            "-metadata", "comment=" + timelines.request.commandLine, "-movflags", "+faststart",
            "-f", "mp4", temporary.path,
        ], input: nil, showing: temporary.path, as: path)
        try temporary.commit(to: path)
    }
}

/// The name of a temporary beside a destination: `.NAME.PID.KIND` in the same folder.
func temporaryName(beside destination: String, kind: String) -> String {
    let folder = (destination as NSString).deletingLastPathComponent
    let name = (destination as NSString).lastPathComponent
    return (folder.isEmpty ? "" : folder + "/") + ".\(name).\(ProcessInfo.processInfo.processIdentifier).\(kind)"
}

/// A temporary file beside a destination (`.NAME.PID.preview[.mp4]`), registered so an interrupted run removes it.
struct TemporaryPath {
    let path: String
    private let token: Int

    init(beside destination: String, suffix: String = "") {
        path = temporaryName(beside: destination, kind: "preview" + suffix)
        token = Temporaries.shared.register(path)
    }

    /// Renames the finished file over the destination.
    func commit(to destination: String) throws(PreviewError) {
        var status = stat()
        guard stat(path, &status) == 0, status.st_size > 0 else {
            throw PreviewError(.toolFailed, "\(destination): nothing was drawn (internal error; please report it with the command line)")
        }
        if rename(path, destination) != 0 {
            throw PreviewError(.cannotCreate, "\(destination): cannot replace the file: \(String(cString: strerror(errno)))")
        }
    }

    func remove() {
        unlink(path)
        Temporaries.shared.unregister(token)
    }
}

/// The PNG frames of a video, temporaries beside its destination (`.NAME.PID.frame-00001.png` …), each registered
/// before gnuplot draws it so an interrupted run removes them all.
struct TemporaryFrames {
    /// The names up to the frame number.
    let prefix: String
    private let paths: [String]
    private let tokens: [Int]

    init(beside destination: String, count: Int) {
        prefix = temporaryName(beside: destination, kind: "frame-")
        paths = (1...max(1, count)).map { [prefix] number in
            let digits = String(number)
            return prefix + String(repeating: "0", count: max(0, 5 - digits.count)) + digits + ".png"
        }
        tokens = paths.map { Temporaries.shared.register($0) }
    }

    /// The frames as a printf pattern (gnuplot's sprintf and ffmpeg's image2 input read it; a % in the name is doubled).
    var pattern: String { prefix.replacingOccurrences(of: "%", with: "%%") + "%05d.png" }

    func remove() {
        for path in paths { unlink(path) }
        for token in tokens { Temporaries.shared.unregister(token) }
    }
}

/// Runs gnuplot or ffmpeg as a child (`ChildProcess`), its messages passed on to standard error.
enum ExternalTool {
    /// `name` on `$PATH`, or nil.
    static func find(_ name: String) -> String? { ChildProcess.find(name) }

    /// Runs the tool to the end.
    ///
    /// - Throws: `PreviewError.toolFailed` when it cannot start, is killed or exits non-zero (its messages, with
    ///   `shown` replaced by `name`, are on standard error above).
    static func run(_ tool: String, arguments: [String], input: String?, showing shown: String, as name: String) throws(PreviewError) {
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(tool, arguments: arguments, input: input)
        } catch {
            throw PreviewError(.toolFailed, "cannot run \(tool): \(error.localizedDescription)")
        }
        // gnuplot's gif terminal reports "N frames in animation sequence" when it closes: news, not a problem.
        let text = outcome.messages.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasSuffix(" frames in animation sequence") }.joined(separator: "\n")
        if !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            StandardError.write(text.replacingOccurrences(of: shown, with: name))
        }
        let program = (tool as NSString).lastPathComponent
        guard outcome.exited else {
            throw PreviewError(.toolFailed, "\(program) was killed by signal \(outcome.status); nothing written")
        }
        guard outcome.status == 0 else {
            throw PreviewError(.toolFailed, "\(program) failed (exit status \(outcome.status)); its message is above; nothing written")
        }
    }
}
