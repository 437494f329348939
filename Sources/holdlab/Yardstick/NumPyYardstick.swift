import Foundation
import HoldLabIO

/// The NumPy yardstick of issue 32 (`numpy_yardstick.py` beside this file, compiled into the binary as bytes):
/// `holdlab simulate --population hold-only --profile hig-linear-bar` written as a vectorised NumPy program, which
/// `holdlab benchmark` times for its `ratio_to_numpy` column. `.ci/yardstick-check` checks that it computes the same
/// columns.
enum NumPyYardstick {
    /// What one run gave: the seconds of NumPy's computation (its own `compute_seconds`, after Python's start-up and
    /// `import numpy`), or why there are none.
    enum Outcome: Equatable {
        case seconds(Double)
        case unavailable(String)
    }

    /// Runs the yardstick on `users` users with `seed` as a child process: the embedded script written to a
    /// temporary file (registered with `Temporaries`, so an interruption removes it too, and removed after the run),
    /// `python3` from `$PATH` run on it. Its CSV is not read (`.ci/yardstick-check` compares it with holdlab's); its
    /// last standard-error line `compute_seconds=X` is. Never throws: no python3, no NumPy, a failed or killed run
    /// are an `unavailable` outcome with the reason.
    static func run(users: Int, seed: Int = 1) -> Outcome {
        guard let python = ChildProcess.find("python3") else { return .unavailable("python3 is not on PATH") }
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("holdlab-numpy-yardstick-\(getpid()).py").path
        let token = Temporaries.shared.register(path)
        defer {
            unlink(path)
            Temporaries.shared.unregister(token)
        }
        guard FileManager.default.createFile(atPath: path, contents: Data(PackageResources.numpy_yardstick_py)) else {
            return .unavailable("cannot write the yardstick to \(path): \(String(cString: strerror(errno)))")
        }
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(python, arguments: [path, "--users", String(users), "--seed", String(seed)])
        } catch {
            return .unavailable(error.description)
        }
        return Self.seconds(from: outcome, python: python)
    }

    /// The `compute_seconds` a finished run printed, or why there is none.
    static func seconds(from outcome: ChildProcess.Outcome, python: String) -> Outcome {
        let lines = outcome.messages.split(whereSeparator: \.isNewline).map(String.init)
        if outcome.messages.contains("No module named 'numpy'") {
            return .unavailable("NumPy is not installed for \(python)")
        }
        guard outcome.succeeded else {
            let how = outcome.exited ? "exited with status \(outcome.status)" : "was killed by signal \(outcome.status)"
            return .unavailable("\(python) on the yardstick \(how)\(lines.last.map { ": \($0)" } ?? "")")
        }
        let prefix = "compute_seconds="
        guard let line = lines.last(where: { $0.hasPrefix(prefix) }),
              let seconds = Double(line.dropFirst(prefix.count)), seconds.isFinite, seconds > 0 else {
            return .unavailable("the yardstick printed no compute_seconds")
        }
        return .seconds(seconds)
    }
}
