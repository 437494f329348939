import ArgumentParser
import HoldSimulation

/// `--precision METRIC=HALFWIDTH`: stop a run at the first chunk of 4,096 users where the named metrics' 95 %
/// intervals are narrow enough, `--users` staying the cap (simulate, compare, report, sweep, tune, sensitivity).
struct PrecisionOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Stop at the first chunk of 4,096 users where METRIC's 95 % interval has a half-width of at most WIDTH (in the column's unit, or a percentage of the estimate: 1%); repeatable or comma-separated, all must be met; --users is the cap.",
        valueName: "metric=width"))
    var precision: [String] = []

    /// The targets, checked against the metrics that have an interval where the command prints one; nil without
    /// `--precision`.
    func parsed(allowed: [String]) throws -> Precision? {
        guard !precision.isEmpty else { return nil }
        do {
            return try Precision(parsing: precision, allowed: allowed)
        } catch {
            throw ValidationError(error.message)
        }
    }
}
