import ArgumentParser
import Foundation
import HoldProfiles
import HoldSimulation

struct Benchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure simulation and fitting throughput: units per second, ns per unit and peak memory, as CSV.",
        discussion: """
            Runs the default job (hig-linear-bar against default) and kikocard-accelerating with Timer latency on \
            (exponential, mean 3.7 ms: 160 latency draws per user), at each thread count; --set applies to both. Build with -c release \
            for meaningful figures: swift run -c release holdlab benchmark

            The fit cases write --fit-rows lognormal hold times (seeded GSL draws) to a temporary CSV and time reading \
            it and fitting all five families with the default bootstrap, as holdlab fit does; for them the users \
            column counts rows.
            """)

    @OptionGroup var source: ProfileSourceOptions

    @Option(help: "Users per measured run.")
    var users: Int = 2_000_000

    @Option(help: ArgumentHelp("Thread counts to measure (repeatable). Default: 1 and the number of cores."))
    var threads: [Int] = []

    @Option(name: .customLong("fit-rows"), help: ArgumentHelp(
        "Rows for a fit case (repeatable; 0 for none). Default: 10,000, 100,000 and 1,000,000.", valueName: "n"))
    var fitRows: [Int] = [10_000, 100_000, 1_000_000]

    func validate() throws {
        guard users >= 1 else { throw ValidationError("--users must be at least 1 (got \(users)).") }
        if fitRows.contains(where: { !(0...100_000_000).contains($0) || (1..<10).contains($0) }) {
            throw ValidationError("--fit-rows must be 0 (no fit case) or from 10 to 100,000,000.")
        }
        if threads.contains(where: { !(1...256).contains($0) }) {
            throw ValidationError("--threads must be from 1 to 256.")
        }
    }

    func run() throws {
        try reportingErrors {
            let library = source.library
            let cores = ProcessInfo.processInfo.activeProcessorCount
            let counts = threads.isEmpty ? Array(Set([1, cores])).sorted() : threads
            let overrides = try source.parsedOverrides()
            let latency = try Override(parsing: "fill.timer.latency={dist: exponential, mean: 0.0037}")
            let cases: [(String, Profile)] = [
                ("default", try library.loadProfile("hig-linear-bar", overrides: overrides)),
                ("kikocard-timer-latency", try library.loadProfile("kikocard-accelerating", overrides: [latency] + overrides)),
            ]
            let population = try library.loadPopulation("default")
            print("case,profile,users,threads,seconds,users_per_second,max_rss_mib,ns_per_user")
            for (name, profile) in cases {
                // KikoCard with latency draws is about 20 times slower per user: measure a proportionate run.
                let count = name == "default" ? users : max(1, users / 10)
                for threadCount in counts {
                    let request = SimulationRequest(
                        profiles: [profile], population: population, users: count, seed: 1, threads: threadCount)
                    let start = DispatchTime.now().uptimeNanoseconds
                    _ = try Simulator.run(request)
                    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                    var usage = rusage()
                    getrusage(RUSAGE_SELF.rawValue, &usage)
                    print(String(format: "%@,%@,%d,%d,%.3f,%.0f,%.1f,%.1f", name, profile.name, count, threadCount,
                                 seconds, Double(count) / seconds, Double(usage.ru_maxrss) / 1024,
                                 seconds * 1e9 / Double(count)))
                }
            }
            for rows in fitRows where rows > 0 {
                for threadCount in counts { print(try FitBenchmark.run(rows: rows, threads: threadCount)) }
            }
        }
    }
}
