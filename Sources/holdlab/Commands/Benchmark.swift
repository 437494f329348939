import ArgumentParser
import Foundation
import GSL
import HoldLabIO
import HoldProfiles
import HoldSimulation

struct Benchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure throughput, memory and the random-number bound of every kind of work, as CSV.",
        discussion: """
            Simulation cases: hold-only (hig-linear-bar against hold-only), default (against default: react, \
            anticipate, movement), bezier-pulses (fill.curve=easeInOut, haptics.threshold=0.05), spring \
            (fill.curve=snappy), timer-latency (kikocard-accelerating with Timer latency exponential, mean 3.7 ms: \
            160 draws per user) and per-user (default with --per-user rows formatted). Each is run at every thread \
            count; rng_ns_per_user is the time the same draws from the same GSL generators take with nothing else \
            done, measured on one thread right before each run, and fraction_of_rng_bound = users_per_second / \
            (threads × 1e9 / rng_ns_per_user). --set applies to every case. max_rss_mib is the case's own peak \
            resident memory (the kernel's mark is reset before each case on Linux; elsewhere it is the process's peak \
            so far).

            The fit cases write --fit-rows lognormal hold times (seeded GSL draws) to a temporary CSV and time reading \
            it and fitting all five families with the default bootstrap, as holdlab fit does; for them the users \
            column counts rows, ns_per_user is ns per row and the random-number columns are NaN. Build with \
            -c release for meaningful figures.

            The NumPy yardstick (issue 32): for hold-only on one thread, the same columns computed by a vectorised \
            NumPy program (compiled into holdlab, run as python3 on a temporary copy with the same --users and seed \
            1, right after holdlab's run). numpy_seconds is its own compute_seconds, which leaves out Python's \
            start-up and import numpy as seconds leaves out holdlab's; numpy_users_per_second = users / \
            numpy_seconds; ratio_to_numpy = users_per_second / numpy_users_per_second (above 1: holdlab is faster). \
            The three are NaN for every other case and thread count, with --no-numpy or --set (the yardstick \
            computes the case as shipped), and when python3 or NumPy is missing or the yardstick fails (one note on \
            standard error says why; the benchmark goes on).

            Examples:
              holdlab benchmark --case hold-only --users 1000000 --threads 1
              holdlab benchmark --case hold-only --users 4000000 --threads 1 --fit-rows 0
              holdlab benchmark --case default --threads 1 --fit-rows 0 --repeat 5
              holdlab benchmark --case spring --threads 1 --threads 2 --no-numpy > bench.csv
            """)

    @OptionGroup var source: ProfileSourceOptions

    @OptionGroup var view: RowFormatOptions

    @OptionGroup var quietOption: QuietOption

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "The GSL generator of the synthetic users, as simulate's --rng (the NumPy ratio is measured for either).",
        valueName: "taus2|mt19937"))
    var rng: Generator.Kind = .users

    @Option(parsing: .unconditional, help: "Users per measured run (the timer-latency case runs a tenth of them).")
    var users: Int = 2_000_000

    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("Thread counts to measure (repeatable). Default: 1 and the number of cores."))
    var threads: [Int] = []

    @Option(name: .customLong("case"), help: ArgumentHelp(
        "Only these simulation cases (repeatable): \(SimulationCase.allCases.map(\.rawValue).joined(separator: ", ")). The fit cases are --fit-rows's (0 for none).",
        valueName: "name"))
    var cases: [SimulationCase] = []

    @Option(name: .customLong("fit-rows"), parsing: .unconditionalSingleValue, help: ArgumentHelp(
        "Rows for a fit case (repeatable; 0 for none). Default: 10,000, 100,000 and 1,000,000.", valueName: "n"))
    var fitRows: [Int] = [10_000, 100_000, 1_000_000]

    @Flag(name: .customLong("no-numpy"), help: "Do not run the NumPy yardstick: its three columns are NaN.")
    var noNumpy = false

    @Option(name: .customLong("repeat"), help: ArgumentHelp(
        "Measure each simulation case and thread count n times, each run right after its own bound; the row gives the medians (seconds and the rates from the median seconds, the median bound, the median of the n paired fractions). For a machine whose speed drifts.",
        valueName: "n"))
    var repeats: Int = 1

    func validate() throws {
        guard users >= 1 else { throw ValidationError("--users must be at least 1 (got \(users)).") }
        guard (1...99).contains(repeats) else { throw ValidationError("--repeat must be from 1 to 99 (got \(repeats)).") }
        if fitRows.contains(where: { !(0...100_000_000).contains($0) || (1..<10).contains($0) }) {
            throw ValidationError("--fit-rows must be 0 (no fit case) or from 10 to 100,000,000.")
        }
        if threads.contains(where: { !(1...256).contains($0) }) {
            throw ValidationError("--threads must be from 1 to 256.")
        }
        // A value given twice would measure the same case twice: rows that look like two measurements of one thing.
        if let twice = firstRepeated(cases.map(\.rawValue)) {
            throw ValidationError("--case \(twice) is given twice; give each case once.")
        }
        if let twice = firstRepeated(threads) {
            throw ValidationError("--threads \(twice) is given twice; give each thread count once.")
        }
        if let twice = firstRepeated(fitRows.filter { $0 > 0 }) {
            throw ValidationError("--fit-rows \(twice) is given twice; give each row count once.")
        }
    }

    enum SimulationCase: String, CaseIterable, ExpressibleByArgument {
        case holdOnly = "hold-only"
        case `default`
        case bezierPulses = "bezier-pulses"
        case spring
        case timerLatency = "timer-latency"
        case perUser = "per-user"

        var profile: String { self == .timerLatency ? "kikocard-accelerating" : "hig-linear-bar" }
        var population: String { self == .holdOnly ? "hold-only" : "default" }
        var overrides: [String] {
            switch self {
            case .holdOnly, .default, .perUser: []
            case .bezierPulses: ["fill.curve=easeInOut", "haptics.threshold=0.05"]
            case .spring: ["fill.curve=snappy"]
            case .timerLatency: ["fill.timer.latency={dist: exponential, mean: 0.0037}"]
            }
        }
        /// Timer latency draws make a user about 20 times as expensive: a proportionate run.
        func users(_ base: Int) -> Int { self == .timerLatency ? max(1, base / 10) : base }
    }

    func run() throws {
        try reportingErrors {
            // CSV (the default, also on a terminal): the header first, then each row as it is measured, so a late
            // failure loses nothing. Another --format or --columns: every row, rendered at the end.
            // Every case's profile and population first: a --set any case refuses stops here, before any output.
            let resolved = try resolvedCases()
            let provenance = self.provenance
            if (view.format ?? .csv) == .csv && view.columns == nil {
                try emit((view.omitsComments ? "" : provenance.lines) + ResultTable(columns: Self.columns).csvHeaderLine)
                _ = try measure(resolved, onRow: { try emit(ResultTable.csvLine($0)) })
            } else {
                var table = ResultTable(provenance: provenance, columns: Self.columns)
                _ = try measure(resolved, onRow: { table.rows.append($0) })
                try emit(view.render(ResultDocument(table), for: .standardOutput))
            }
        }
    }

    /// What every row was measured with, as every output says it: the version and command line, the generator the
    /// cases draw their users from (`--rng`), the seed every case uses, and the machine's cores.
    var provenance: Provenance {
        var lines = Provenance.made(by: "benchmark", commandLine: CommandRecord.line())
        lines.append("rng", "\(rng.rawValue) (the simulation cases' users; a fit case's sample is mt19937's)")
        lines.append("seed", "1 (every case)")
        lines.append("cores", String(ProcessInfo.processInfo.activeProcessorCount))
        if repeats > 1 {
            lines.append("repeat", "\(repeats) runs of each simulation case and thread count, each right after its own bound: medians (the fraction is the median of the paired fractions)")
        }
        return lines
    }

    /// The columns: the case, its profile and population (names), users (rows for a fit case) and threads, then
    /// the measurements: seconds (3 decimals), users per second (0), ns per user on one thread's scale (1), random
    /// draws per user (2), the same draws' own ns per user (1), the fraction of that bound reached (3), peak memory in
    /// MiB (1). A fit case has no random-number bound: its three columns are NaN. Then the NumPy yardstick's seconds
    /// (3), users per second (0) and holdlab's ratio to it (3), for hold-only on one thread (NaN elsewhere).
    static let columns = [
        ResultColumn("case", .text), ResultColumn("profile", .text), ResultColumn("population", .text),
        ResultColumn("users", .integer), ResultColumn("threads", .integer), ResultColumn("seconds", .number),
        ResultColumn("users_per_second", .number), ResultColumn("ns_per_user", .number),
        ResultColumn("draws_per_user", .number), ResultColumn("rng_ns_per_user", .number),
        ResultColumn("fraction_of_rng_bound", .number), ResultColumn("max_rss_mib", .number),
        ResultColumn("numpy_seconds", .number), ResultColumn("numpy_users_per_second", .number),
        ResultColumn("ratio_to_numpy", .number),
    ]

    /// The NumPy yardstick's three cells for a row: measured for hold-only on one thread (unless --no-numpy), NaN
    /// otherwise. The yardstick computes the case as shipped, so with --set (which changes every case) it is not run.
    /// A run that gives no time notes why on standard error, once.
    private func numpyCells(_ simulation: SimulationCase, users: Int, threads: Int, rate: Double,
                            noted: inout Bool) -> [ResultCell] {
        var seconds: Double?
        if simulation == .holdOnly && threads == 1 && !noNumpy && !source.overrides.isEmpty {
            if !noted {
                printNote("note: benchmark: no NumPy yardstick (numpy_ columns NaN): it computes hold-only as shipped, "
                          + "and --set changes it")
            }
            noted = true
        } else if simulation == .holdOnly && threads == 1 && !noNumpy {
            switch NumPyYardstick.run(users: users, seed: 1) {
            case .seconds(let measured):
                seconds = measured
            case .unavailable(let reason):
                if !noted { printNote("note: benchmark: no NumPy yardstick (numpy_ columns NaN): \(reason)") }
                noted = true
            }
        }
        let numpyRate = seconds.map { Double(users) / $0 }
        return [.number(seconds, decimals: 3), .number(numpyRate, decimals: 0),
                .number(numpyRate.map { rate / $0 }, decimals: 3)]
    }

    /// The cases to measure with their profiles (their own values and --set applied) and populations, loaded before
    /// anything is measured or written.
    func resolvedCases() throws -> [(SimulationCase, Profile, Population)] {
        let library = source.library
        let extra = try source.parsedOverrides(command: "benchmark")
        return try (cases.isEmpty ? SimulationCase.allCases : cases).map { simulation in
            let overrides = try simulation.overrides.map { text throws(ProfileError) in try Override(parsing: text) }
            return (simulation, try library.loadProfile(simulation.profile, overrides: overrides + extra),
                    try library.loadPopulation(simulation.population))
        }
    }

    /// Measures every case at every thread count, calling `onRow` with each row as it is measured; returns them all.
    func measure(_ resolved: [(SimulationCase, Profile, Population)],
                 onRow: ([ResultCell]) throws -> Void) throws -> ResultTable {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let counts = threads.isEmpty ? Array(Set([1, cores])).sorted() : threads
        var table = ResultTable(columns: Self.columns)
        var numpyNoted = false
        func add(_ row: [ResultCell]) throws {
            table.rows.append(row)
            try onRow(row)
        }
        for (simulation, profile, population) in resolved {
            let count = simulation.users(users)
            for threadCount in counts {
                // Each run right after its own bound: this machine's speed drifts within seconds, and a fraction
                // of a bound measured earlier would carry the drift. With --repeat, the medians.
                var runs: [(seconds: Double, rngPerUser: Double, fraction: Double)] = []
                var drawsPerUser = 0.0
                FitBenchmark.resetPeakMemory()
                for _ in 0..<repeats {
                    let bound = try DrawBound.measure(
                        SimulationRequest(profiles: [profile], population: population, users: count, seed: 1, rng: rng,
                                          threads: 1))
                    drawsPerUser = bound.drawsPerUser
                    let rngPerUser = bound.seconds / Double(count) * 1e9
                    let request = SimulationRequest(
                        profiles: [profile], population: population, users: count, seed: 1, rng: rng, threads: threadCount)
                    var bytes = 0
                    let start = DispatchTime.now().uptimeNanoseconds
                    if simulation == .perUser {
                        _ = try Simulator.run(request, perUser: { bytes += $0.utf8.count })
                    } else {
                        _ = try Simulator.run(request)
                    }
                    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                    runs.append((seconds, rngPerUser, Double(count) / seconds / (Double(threadCount) * 1e9 / rngPerUser)))
                }
                let seconds = Self.median(runs.map(\.seconds))
                let rngPerUser = Self.median(runs.map(\.rngPerUser))
                let fraction = Self.median(runs.map(\.fraction))
                let rate = Double(count) / seconds
                try add([
                    .text(simulation.rawValue), .text(profile.name), .text(population.name), .integer(count),
                    .integer(threadCount), .number(seconds, decimals: 3), .number(rate, decimals: 0),
                    .number(seconds / Double(count) * 1e9 * Double(threadCount), decimals: 1),
                    .number(drawsPerUser, decimals: 2), .number(rngPerUser, decimals: 1),
                    .number(fraction, decimals: 3), .number(Self.peakMemoryMiB(), decimals: 1),
                ] + numpyCells(simulation, users: count, threads: threadCount, rate: rate, noted: &numpyNoted))
            }
        }
        for rows in fitRows where rows > 0 {
            for threadCount in counts {
                let fit = try FitBenchmark.run(rows: rows, threads: threadCount)
                try add([
                    .text("fit"), .text(fit.label), .text("lognormal-sample"), .integer(rows), .integer(threadCount),
                    .number(fit.seconds, decimals: 3), .number(Double(rows) / fit.seconds, decimals: 0),
                    .number(fit.seconds * 1e9 / Double(rows) * Double(threadCount), decimals: 1),
                    .number(nil, decimals: 2), .number(nil, decimals: 1), .number(nil, decimals: 3),
                    .number(fit.peakMiB, decimals: 1),
                    .number(nil, decimals: 3), .number(nil, decimals: 0), .number(nil, decimals: 3),
                ])
            }
        }
        return table
    }

    /// The median of `values` (not empty): the middle one, or the mean of the two middle ones.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// This process's peak resident memory since the last `FitBenchmark.resetPeakMemory()`, in MiB.
    ///
    /// On Linux it is VmHWM of /proc/self/status: the peak of this process's own address space, which the reset
    /// clears. getrusage's ru_maxrss is not used there: the kernel carries it across exec, so under `swift run`
    /// (or any parent that spawns holdlab while large) it reports the parent's peak, e.g. 613 MiB instead of 39.
    /// Elsewhere getrusage's peak so far (KiB on Linux, bytes on macOS).
    static func peakMemoryMiB() -> Double {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
           let kib = Double(line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "") {
            return kib / 1024
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }
}
