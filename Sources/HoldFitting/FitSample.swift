import HoldLabIO
/// Why data could not be fitted; the description names the file and line where there is one.
///
/// `kind` decides the command's exit status: ``Kind/missingInput`` 66, the others 65.
public struct FitError: Error, Equatable, CustomStringConvertible {
    /// What went wrong, broadly.
    public enum Kind: Sendable, Equatable {
        /// The data file does not exist or cannot be read.
        case missingInput
        /// The data are unusable: a missing column, a bad value, too few rows, all censored, …
        case invalidData
        /// The optimiser could not start (the likelihood is not finite at the starting values).
        case fitFailed
    }

    /// What went wrong, broadly.
    public let kind: Kind
    /// The data file, when the data came from one.
    public let path: String?
    /// The 1-based line in `path` (a CSV record's first line), when one row is at fault.
    public let line: Int?
    /// A short lowercase sentence, e.g. `press_end_ms: 'abc' is not a number`.
    public let message: String

    /// An error; `path` and `line` locate it when known.
    public init(_ kind: Kind, path: String? = nil, line: Int? = nil, _ message: String) {
        self.kind = kind
        self.path = path
        self.line = line
        self.message = message
    }

    /// `path:line: message`, `path: message` or just `message`.
    public var description: String {
        switch (path, line) {
        case (let path?, let line?): "\(path):\(line): \(message)"
        case (let path?, nil): "\(path): \(message)"
        default: message
        }
    }

    /// The same error attributed to `path` (keeping any path it already has).
    func located(in path: String) -> FitError {
        FitError(kind, path: self.path ?? path, line: line, message)
    }
}

/// Positive durations to fit, each observed or right-censored.
///
/// A censored time c means "this hold lasted longer than c": the observation stopped at c (DOMAIN §7: holds that
/// end because the action fired are right-censored at the trigger time). It contributes ln S(c) to the
/// log-likelihood, an observed time x contributes ln f(x).
public struct FitSample: Sendable, Equatable {
    /// The fewest rows a fit accepts: below about 10 the asymptotic standard errors and the KS bootstrap mean little.
    public static let minimumCount = 10

    /// The times, in the data's unit (seconds when the fit feeds a population).
    public let times: [Double]
    /// `censored[i]` is true when `times[i]` is a censoring time (the hold lasted longer).
    public let censored: [Bool]

    /// Validates: as many flags as times (none = all observed); at least ``minimumCount`` rows; every time finite
    /// and > 0; at least one observed time; at least two distinct observed times (a single value has no spread to
    /// fit). Errors name the 1-based row where one row is at fault.
    public init(times: [Double], censored: [Bool]? = nil) throws(FitError) {
        let flags = censored ?? [Bool](repeating: false, count: times.count)
        guard flags.count == times.count else {
            throw FitError(.invalidData, "\(times.count) times but \(flags.count) censoring flags")
        }
        for (index, time) in times.enumerated() where !(time.isFinite && time > 0) {
            throw FitError(.invalidData, "row \(index + 1): \(time) is not a finite time > 0 (fits are to positive durations)")
        }
        try Self.checkShape(times: times, censored: flags)
        self.times = times
        self.censored = flags
    }

    /// The checks on the whole sample (not on single values), shared with the CSV reader.
    static func checkShape(times: [Double], censored: [Bool]) throws(FitError) {
        guard times.count >= minimumCount else {
            throw FitError(.invalidData, "\(times.count) rows to fit; at least \(minimumCount) are needed")
        }
        let observed = zip(times, censored).filter { !$0.1 }.map(\.0)
        guard let first = observed.first else {
            throw FitError(.invalidData, "all \(times.count) rows are censored; at least one observed time is needed")
        }
        guard observed.contains(where: { $0 != first }) else {
            throw FitError(.invalidData,
                           "the observed times are all \(first); a continuous fit needs at least two distinct observed times")
        }
    }

    /// A sample that skips validation (bootstrap draws; exgaussian draws may be ≤ 0 there).
    init(unchecked times: [Double], censored: [Bool]) {
        self.times = times
        self.censored = censored
    }

    /// The number of rows n.
    public var count: Int { times.count }
    /// The number of censored rows.
    public var censoredCount: Int { censored.lazy.filter { $0 }.count }
    /// The observed (uncensored) times.
    public var observedTimes: [Double] { zip(times, censored).compactMap { $1 ? nil : $0 } }
    /// The censoring times.
    public var censoringTimes: [Double] { zip(times, censored).compactMap { $1 ? $0 : nil } }
}

extension FitError {
    /// Runs a read of a CSV file, turning a reading error into invalid data at its file and line: what every reader
    /// of a fit's input (holds, telemetry, per-user rows) does with `CSVReader`.
    static func reading<T>(_ body: () throws(CSVTableError) -> T) throws(FitError) -> T {
        do {
            return try body()
        } catch {
            throw FitError(.invalidData, path: error.path, line: error.line, error.reason)
        }
    }
}
