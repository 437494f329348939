import Foundation
import HoldLabIO

/// `holdlab fit`: read a column of durations from a CSV file and fit duration families to it by maximum
/// likelihood, with the provenance of the result.
public struct FitRequest: Sendable {
    /// The file and what to read from it.
    public var data: FitDataRequest
    /// The families to fit, in order (duplicates count once).
    public var families: [FitFamily]
    /// Parametric-bootstrap replicates per family for the KS p-value (0: none).
    public var bootstrapReplicates: Int
    /// Rows per bootstrap draw (``GoodnessOfFit``).
    public var bootstrapDrawSize: Int
    /// The master seed of the bootstrap.
    public var seed: UInt64
    /// Worker threads; results do not depend on them.
    public var threads: Int
    /// The command line the result records (`CommandRecord.line`).
    public var commandLine: String

    public init(data: FitDataRequest, families: [FitFamily] = FitFamily.allCases,
                bootstrapReplicates: Int = DistributionFitting.defaultBootstrapReplicates,
                bootstrapDrawSize: Int = DistributionFitting.defaultBootstrapDrawSize, seed: UInt64 = 1,
                threads: Int = ProcessInfo.processInfo.activeProcessorCount, commandLine: String) {
        self.data = data
        self.families = families
        self.bootstrapReplicates = bootstrapReplicates
        self.bootstrapDrawSize = bootstrapDrawSize
        self.seed = seed
        self.threads = threads
        self.commandLine = commandLine
    }

    /// The units of work `run` reports to its progress callback: one per family fitted and one per bootstrap
    /// replicate.
    public var progressSteps: Int { Set(families).count * (1 + max(0, bootstrapReplicates)) }

    /// Reads the data, fits every family and returns the fits with the typed result.
    ///
    /// - Parameter progress: called as work finishes (from worker threads, possibly concurrently) with the steps
    ///   done and ``progressSteps``.
    /// - Throws: `FitError` for data that cannot be read or fitted (it names the file and line).
    public func run(progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil) throws(FitError) -> FitResult {
        let dataSet = try FitDataFile.read(data)
        let report = try DistributionFitting.fit(
            families, to: dataSet.sample, bootstrapReplicates: bootstrapReplicates, bootstrapDrawSize: bootstrapDrawSize,
            seed: seed, threads: threads, progress: progress)
        return FitResult(report: report, data: dataSet, commandLine: commandLine,
                         document: ResultDocument(FitTable.table(report, data: dataSet, commandLine: commandLine)))
    }
}

/// What `holdlab fit` found: the fits, the data they came from, and the result every format is rendered from.
public struct FitResult: Sendable {
    public let report: FitReport
    public let data: FitDataSet
    /// The command line the result records.
    public let commandLine: String
    /// One row per family (``FitTable``).
    public let document: ResultDocument

    /// The population file `--emit-population` writes to `path` (`-`: standard output): the best fit as a hold
    /// class (``FittedPopulation``).
    public func population(path: String) -> String {
        FittedPopulation.yaml(for: report, data: data, populationPath: path, commandLine: commandLine)
    }
}
