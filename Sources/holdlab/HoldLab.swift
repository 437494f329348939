import ArgumentParser
import HoldSimulation

@main
struct HoldLab: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "holdlab",
        abstract: "Simulate and tune hold-to-confirm controls.",
        discussion: """
            Profiles (YAML) describe a control: gesture, fill, trigger, retract, haptics, display. Commands write CSV \
            with '#' provenance lines that gnuplot skips. Exit status: 0 success, 64 bad command line, 65 invalid \
            profile or data, 66 missing input file, 69 gnuplot not installed, 73 cannot write output, 1 any other failure.
            """,
        version: HoldLabVersion.current,
        subcommands: [Simulate.self, SweepCommand.self, Trace.self, Plot.self, Profiles.self, Fit.self, FitCurve.self, Tune.self, Benchmark.self]
    )
}
