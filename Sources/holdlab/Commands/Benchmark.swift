import ArgumentParser
import Foundation
import HoldProfiles
import HoldSimulation

struct Benchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure simulation throughput: users per second and peak memory, as CSV.",
        discussion: """
            Runs the default job (hig-linear-bar against default) and kikocard-accelerating with Timer latency on \
            (exponential, mean 3.7 ms: 160 latency draws per user), at each thread count; --set applies to both. Build with -c release \
            for meaningful figures: swift run -c release holdlab benchmark
            """)

    @OptionGroup var source: ProfileSourceOptions

    @Option(parsing: .unconditional, help: "Users per measured run.")
    var users: Int = 2_000_000

    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("Thread counts to measure (repeatable). Default: 1 and the number of cores."))
    var threads: [Int] = []

    func validate() throws {
        guard users >= 1 else { throw ValidationError("--users must be at least 1 (got \(users)).") }
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
            try emit("case,profile,users,threads,seconds,users_per_second,max_rss_mib\n")
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
                    try emit(String(format: "%@,%@,%d,%d,%.3f,%.0f,%.1f\n", name, profile.name, count, threadCount, seconds,
                                    Double(count) / seconds, Double(usage.ru_maxrss) / 1024))
                }
            }
        }
    }
}
