import Foundation
import GSL
import HoldLabIO
import HoldProfiles

/// Several families fitted to one sample, with the best by AIC.
public struct FitReport: Sendable {
    /// One fit per family, in the order asked for.
    public let fits: [FamilyFit]
    /// The index in ``fits`` of the lowest AIC (the first of equals).
    public let bestIndex: Int
    /// Bootstrap replicates per family (0: no p-values).
    public let bootstrapReplicates: Int
    /// The master seed of the bootstrap.
    public let seed: UInt64
    /// Rows per bootstrap draw: min(n, the requested draw size); see ``GoodnessOfFit``.
    public let bootstrapDrawSize: Int

    /// The fit with the lowest AIC.
    public var best: FamilyFit { fits[bestIndex] }
}

extension DistributionFitting {
    /// The default number of bootstrap replicates B: p-values to ±0.03 at p = 0.2 (binomial sd √(p(1 − p)/B)), and a
    /// smallest p of 1/201.
    public static let defaultBootstrapReplicates = 200

    /// The default number of rows per bootstrap draw, m: samples up to this size are redrawn whole (the classical
    /// parametric bootstrap); larger ones are redrawn at this size and compared on the √n scale (``GoodnessOfFit``),
    /// so the p-value costs O(B·m), not O(B·n). At m = 2,000 the finite-sample part of √m·D's law is a few per cent
    /// of the statistic (Stephens 1974's corrections are O(1/√m)), smaller than the Monte Carlo error of B = 200.
    public static let defaultBootstrapDrawSize = 2_000

    /// Fits every family in `families` (in that order, duplicates removed) to `sample`, picks the lowest AIC, and,
    /// when `bootstrapReplicates` > 0, adds a parametric-bootstrap KS p-value to each fit (see
    /// ``GoodnessOfFit``) drawn at min(n, `bootstrapDrawSize`) rows. Deterministic for a given `seed`, whatever
    /// `threads` (families are fitted, and bootstrap replicates run, on up to `threads` threads).
    ///
    /// `progress(done, total)` is called as work finishes (from worker threads, possibly concurrently): one unit per
    /// family fitted and one per bootstrap replicate.
    ///
    /// Throws ``FitError`` when `families` is empty or a family cannot be fitted at all (see
    /// ``fit(_:to:)``).
    public static func fit(
        _ families: [FitFamily], to sample: FitSample, bootstrapReplicates: Int = defaultBootstrapReplicates,
        bootstrapDrawSize: Int = defaultBootstrapDrawSize, seed: UInt64 = 1,
        threads: Int = ProcessInfo.processInfo.activeProcessorCount,
        progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil
    ) throws(FitError) -> FitReport {
        var distinct: [FitFamily] = []
        for family in families where !distinct.contains(family) { distinct.append(family) }
        let unique = distinct
        guard !unique.isEmpty else { throw FitError(.invalidData, "no family to fit") }
        let replicates = max(0, bootstrapReplicates)
        let counter = ProgressCounter(total: unique.count * (1 + replicates), report: progress)
        let prepared = PreparedSample(sample)
        let results = FitResults(count: unique.count)
        DispatchQueue.concurrentPerform(iterations: max(1, min(threads, unique.count))) { worker in
            var index = worker
            while index < unique.count {
                let family = unique[index]
                results.store(Result { () throws(FitError) -> FamilyFit in try fit(family, to: prepared) }, at: index)
                counter.advance()
                index += max(1, min(threads, unique.count))
            }
        }
        var fits: [FamilyFit] = []
        for result in results.values {
            switch result {
            case .success(let fit): fits.append(fit)
            case .failure(let error): throw error
            case nil: throw FitError(.fitFailed, "a family was not fitted")
            }
        }
        let drawSize = max(1, min(sample.count, bootstrapDrawSize))
        if replicates > 0 {
            fits = fits.map { fit in
                fit.with(pValue: GoodnessOfFit.bootstrapPValue(
                    fit, censoring: prepared.censoring, count: sample.count, replicates: replicates, seed: seed,
                    threads: threads, drawSize: drawSize, step: { counter.advance() }), replicates: replicates)
            }
        }
        var bestIndex = 0
        for index in fits.indices where fits[index].aic < fits[bestIndex].aic { bestIndex = index }
        return FitReport(fits: fits, bestIndex: bestIndex, bootstrapReplicates: replicates, seed: seed,
                         bootstrapDrawSize: drawSize)
    }
}

/// Results of concurrent family fits, each worker writing its own indices under a lock.
private final class FitResults: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Result<FamilyFit, FitError>?]

    init(count: Int) { storage = Array(repeating: nil, count: count) }

    func store(_ result: Result<FamilyFit, FitError>, at index: Int) {
        lock.lock()
        storage[index] = result
        lock.unlock()
    }

    var values: [Result<FamilyFit, FitError>?] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

/// Counts finished units of work for a progress callback.
private final class ProgressCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0
    private let total: Int
    private let report: (@Sendable (Int, Int) -> Void)?

    init(total: Int, report: (@Sendable (Int, Int) -> Void)?) {
        self.total = total
        self.report = report
    }

    func advance() {
        guard let report else { return }
        lock.lock()
        done += 1
        let now = done
        lock.unlock()
        report(now, total)
    }
}

/// A population file (schema version 1) built from a fit.
public enum FittedPopulation {
    /// YAML with one class, `fitted`: weight 1, `intent: confirm`, `behavior: hold`, and `hold:` the fitted
    /// distribution in the profile syntax (a lognormal prints `mu`, which is GSL's `zeta`). Numbers print in Swift's
    /// shortest round-trip form, so loading the file gives back exactly the fitted distribution.
    ///
    /// `name` is reduced to what a library name may hold (`LibraryName.isValid`: letters, `café` too, digits, `-` and
    /// `_`; empty: `fitted`), so a file named after a valid name loads back under it. `description` and `source` are written
    /// as double-quoted YAML strings. The times must be in seconds: populations are.
    public static func yaml(_ fit: FamilyFit, name: String, description: String, source: String) -> String {
        var cleanName = name.filter { LibraryName.isValid(String($0)) }
        if cleanName.isEmpty { cleanName = "fitted" }
        return """
            version: 1
            name: \(LibraryName.yamlScalar(cleanName))
            description: \(quoted(description))
            source: \(quoted(source))
            classes:
              - name: fitted
                weight: 1
                intent: confirm
                behavior: hold
                hold: \(fit.distribution)

            """
    }

    /// The name of a population written to `path`: its file name without the extension, which is how the library
    /// finds it (and it refuses a file named otherwise); nil for standard output (`-`), which the caller names.
    public static func name(forPath path: String) -> String? {
        path == "-" ? nil : LibraryName.stem(ofFile: path)
    }

    /// The population file `holdlab fit --emit-population FILE` writes: the best fit of `report`, named after the
    /// file, with a description and source that say which data it came from.
    public static func yaml(for report: FitReport, data: FitDataSet, populationPath: String, commandLine: String) -> String {
        let best = report.best
        let base = Self.name(forPath: populationPath) ?? "fitted"
        let families = report.fits.count == 1 ? "the only family fitted" : "lowest AIC of \(report.fits.count) families"
        let description = "\(best.family.rawValue) hold times (\(families)) fitted by maximum likelihood to "
            + "\(data.sample.count) rows of \(data.request.path == "-" ? "standard input" : data.request.path) column \(data.request.column)"
            + " (\(data.sample.censoredCount) censored)"
        let source = "holdlab \(HoldLabVersion.current): \(commandLine); data fnv1a64:\(data.contentHash); "
            + "\(FitTable.unitText(data)); censoring: \(FitTable.censoringText(data))"
        return yaml(best, name: base, description: description, source: source)
    }

    /// A YAML double-quoted scalar.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    result += String(format: "\\x%02X", scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
