import Foundation
import GSL
import HoldFitting
import HoldSimulation

/// The `fit` cases of `holdlab benchmark`: read and fit a CSV of lognormal hold times, as `holdlab fit` does.
enum FitBenchmark {
    /// The generating distribution: lognormal ζ = −0.3, σ = 0.5 (median 0.74 s), like a population's hold times.
    static let truth = Distribution.lognormal(mu: -0.3, sigma: 0.5)

    /// Writes `rows` draws (seed 1, stream `rows`, so each size is reproducible on its own) to a temporary CSV with
    /// column `hold_s`, then times reading it and fitting all five families with the default bootstrap, on
    /// `threads` threads. Peak memory is the process's peak resident set during the case: on Linux the peak is reset
    /// before the case (`/proc/self/clear_refs`), elsewhere it is the process's peak so far. Returns the case's label, its seconds and its peak memory.
    static func run(rows: Int, threads: Int) throws -> (label: String, seconds: Double, peakMiB: Double) {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("holdlab-benchmark-fit-\(getpid())-\(rows).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try writeSample(rows: rows, to: path)
        resetPeakMemory()
        let start = DispatchTime.now().uptimeNanoseconds
        let data = try FitDataFile.read(FitDataRequest(path: path, column: "hold_s"))
        _ = try DistributionFitting.fit(FitFamily.allCases, to: data.sample, threads: threads)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let label = "all-families-B\(DistributionFitting.defaultBootstrapReplicates)"
        return (label, seconds, Benchmark.peakMemoryMiB())
    }

    /// The CSV, written in blocks so that a 10⁶-row case never holds the text whole.
    static func writeSample(rows: Int, to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        defer { try? handle.close() }
        let generator = Generator(seed: 1, stream: UInt64(rows), kind: .mt19937)
        var text = "hold_s\n"
        for index in 0..<rows {
            text += "\(truth.sample(generator))\n"
            if text.utf8.count > 1 << 20 || index == rows - 1 {
                try handle.write(contentsOf: Data(text.utf8))
                text = ""
            }
        }
    }

    /// Resets the kernel's peak-RSS mark for this process (Linux ≥ 4.0: writing 5 to /proc/self/clear_refs), so
    /// the peak `Benchmark.peakMemoryMiB()` reads (VmHWM) is the peak of what follows. Best effort: elsewhere nothing happens.
    static func resetPeakMemory() {
        let descriptor = open("/proc/self/clear_refs", O_WRONLY)
        guard descriptor >= 0 else { return }
        _ = write(descriptor, "5", 1)
        close(descriptor)
    }
}
