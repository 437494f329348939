import ArgumentParser
import Foundation

/// `--quiet` (or `HOLDLAB_QUIET=1`): no progress bar and no notes on standard error; errors and warnings still
/// print, and the exit status is the same.
enum Quiet {
    /// Set once, while the command line is parsed (`QuietOption.validate`), before anything runs.
    nonisolated(unsafe) static var requested = ProcessInfo.processInfo.environment["HOLDLAB_QUIET"] == "1"
}

/// The `--quiet` flag of every command that draws a progress bar or prints notes.
struct QuietOption: ParsableArguments {
    @Flag(name: [.customShort("q"), .long], help: ArgumentHelp(
        "No progress bar and no notes on standard error; errors and warnings still print (also HOLDLAB_QUIET=1)."))
    var quiet = false

    func validate() throws {
        if quiet { Quiet.requested = true }
    }
}
