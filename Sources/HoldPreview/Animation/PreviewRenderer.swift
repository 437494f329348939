import Foundation
import HoldLabIO
import HoldModel


/// A preview that could not be made: one message and what kind of failure it is (which decides the exit status).
public struct PreviewError: Error, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A program the preview needs (gnuplot, or ffmpeg for a requested MP4) is not installed (69).
        case unavailable
        /// gnuplot or ffmpeg could not start, was killed, failed or wrote nothing (71: a child process failed).
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

/// Draws previews with gnuplot (GIF) and encodes them with ffmpeg (MP4). Outputs are written to temporaries beside
/// their destinations and renamed into place together (`OutputFile.renameTogether`), so a failed or interrupted run
/// leaves no partial file, and the GIF and the MP4 are both the new ones or both as they were.
///
/// No path reaches gnuplot or ffmpeg as text they parse: gnuplot is given the output as an argument (`ARG1`), and
/// every path is absolute, so neither a quote, a newline, a leading `|` (a gnuplot pipe) nor a `proto:` prefix (an
/// ffmpeg protocol) changes what is written where.
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
        try render(timelines, gif: path, mp4: nil)
    }

    /// Renders the preview as an H.264 MP4 (see `render(_:gif:mp4:)`).
    public static func renderMP4(_ timelines: PreviewTimelines, to path: String) throws(PreviewError) {
        try render(timelines, gif: nil, mp4: path)
    }

    /// Renders the GIF and the MP4 (either may be nil) to temporaries, then renames both into place in one step:
    /// should either fail (or a signal arrive) neither destination changes.
    ///
    /// The GIF runs at 50 frames per second. The MP4 is H.264 at the fastest design's display rate, one video frame
    /// per display frame (each design shows its own display's last frame): gnuplot draws PNG frames into
    /// temporaries, ffmpeg encodes them (bit-exact flags, one thread, no metadata but the command, so the same
    /// command gives the same bytes).
    public static func render(_ timelines: PreviewTimelines, gif: String?, mp4: String?) throws(PreviewError) {
        guard let gnuplot = ExternalTool.find("gnuplot") else {
            throw PreviewError(.unavailable, "gnuplot is not installed (or not on PATH); install it with: sudo apt-get install gnuplot-nox")
        }
        var ffmpeg: String?
        if mp4 != nil {
            ffmpeg = ExternalTool.find("ffmpeg")
            guard ffmpeg != nil else {
                throw PreviewError(.unavailable, "ffmpeg is not installed (or not on PATH); install it with: sudo apt-get install ffmpeg")
            }
        }
        var temporaries: [TemporaryPath] = []
        defer { for temporary in temporaries { temporary.remove() } }
        if let gif {
            let temporary = TemporaryPath(beside: gif)
            temporaries.append(temporary)
            let script = PreviewScript.text(timelines, schedule: .gif(through: timelines.end), target: .gif)
            try ExternalTool.run(gnuplot, arguments: ["-c", "/dev/stdin", temporary.path], input: script,
                                 showing: temporary.path, as: gif)
            try temporary.checkDrawn(gif)
        }
        if let mp4, let ffmpeg {
            let rate = timelines.fastestRefreshRate
            let schedule = FrameSchedule.display(refreshRateHz: rate, phase: timelines.request.framePhase, through: timelines.end)
            let frames = TemporaryFrames(beside: mp4, count: schedule.times.count)
            defer { frames.remove() }
            let script = PreviewScript.text(timelines, schedule: schedule, target: .pngFrames)
            try ExternalTool.run(gnuplot, arguments: ["-c", "/dev/stdin", frames.prefix], input: script,
                                 showing: frames.prefix, as: "(frame)")
            let temporary = TemporaryPath(beside: mp4, suffix: ".mp4")
            temporaries.append(temporary)
            let rateText = rate == rate.rounded() ? String(Int(rate)) : String(rate)
            try ExternalTool.run(ffmpeg, arguments: [
                "-nostdin", "-hide_banner", "-loglevel", "error", "-y",
                "-framerate", rateText, "-i", frames.pattern,
                "-c:v", "libx264", "-preset", "medium", "-crf", "18", "-pix_fmt", "yuv420p", "-r", rateText,
                "-threads", "1", "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1",
                "-metadata", "comment=" + timelines.request.commandLine, "-movflags", "+faststart",
                "-f", "mp4", temporary.path,
            ], input: nil, showing: temporary.path, as: mp4)
            try temporary.checkDrawn(mp4)
        }
        let moves = zip(temporaries, [gif, mp4].compactMap { $0 }).map { (temporary: $0.path, destination: $1) }
        do {
            try OutputFile.renameTogether(moves)
        } catch {
            throw PreviewError(.cannotCreate, error.description)
        }
    }
}

/// The absolute name of a temporary beside a destination: `.NAME.PID.KIND` in the same folder.
func temporaryName(beside destination: String, kind: String) -> String {
    let absolute = destination.hasPrefix("/") ? destination : FileManager.default.currentDirectoryPath + "/" + destination
    let folder = (absolute as NSString).deletingLastPathComponent
    let name = (absolute as NSString).lastPathComponent
    return (folder.hasSuffix("/") ? folder : folder + "/") + ".\(name).\(ProcessInfo.processInfo.processIdentifier).\(kind)"
}

/// A temporary file beside a destination (`.NAME.PID.preview[.mp4]`), registered so an interrupted run removes it.
struct TemporaryPath {
    let path: String
    private let token: Int

    init(beside destination: String, suffix: String = "") {
        path = temporaryName(beside: destination, kind: "preview" + suffix)
        token = Temporaries.shared.register(path)
    }

    /// Checks that the tool wrote something.
    func checkDrawn(_ destination: String) throws(PreviewError) {
        var status = stat()
        guard stat(path, &status) == 0, status.st_size > 0 else {
            throw PreviewError(.toolFailed, "\(destination): nothing was drawn; nothing written")
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

    /// The frames as ffmpeg's image2 printf pattern (a % in the name is doubled).
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
            throw PreviewError(.toolFailed, "cannot run \(tool): \(error.description)")
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
