// Uses HoldLab's library products as another package would.
//
//   swift run --package-path Examples/Consumer Consumer [PROFILES_DIR [USERS]]
//
// 1. HoldModel alone (no GSL, no Foundation: what an iOS app could ship): one hold of a control with a 1.0 s
//    long press and a 1.0 s linear fill, checked against its closed form (exit 1 if any differs).
// 2. HoldProfiles and HoldSimulation: the `hig-linear-bar` profile from PROFILES_DIR (default: Profiles) against
//    its population, USERS users (default 20000), seed 1, printed as `holdlab simulate` prints it. `.ci/run`
//    compares its rows with `holdlab simulate --users USERS`.
import Foundation
import HoldLabIO
import HoldModel
import HoldProfiles
import HoldSimulation

var failures: [String] = []
@MainActor func check(_ what: String, _ value: Double?, _ expected: Double, within tolerance: Double = 1e-9) {
    guard let value, abs(value - expected) <= tolerance else {
        failures.append("\(what): \(value.map { "\($0)" } ?? "none"), expected \(expected)")
        return
    }
}

// 1. One hold with the timing model.
let control = Control(
    gesture: Gesture(minimumDurationSeconds: 1.0),
    trigger: Trigger(source: .gesture, offsetSeconds: 0),
    fill: Fill(start: .touchDown, delaySeconds: 0, model: .animation(curve: .linear, durationSeconds: 1.0)),
    display: Display(refreshRateHz: 60, resolution: 0.001))
let evaluator = HoldEvaluator(try PreparedControl(control))
var ticks = OnTimeTicks()
let held = evaluator.hold(framePhase: 0, latencies: &ticks)
check("trigger time (s)", held.triggerTime, 1.0)
check("fill progress at 0.25 s", evaluator.heldProgress(atSeconds: 0.25), 0.25)
check("fill progress at 0.5 s", evaluator.heldProgress(atSeconds: 0.5), 0.5)
// After a release at 0.8 s (before the action) the fill retracts: 0.2 s easeOut by default, empty by 1.0 s.
let early = evaluator.resolve(pressEndTime: 0.8)
check("fill progress 0.3 s after an early release", evaluator.progress(atSeconds: 1.1), 0)
let late = evaluator.resolve(pressEndTime: 1.2)
if early.completed { failures.append("a release at 0.8 s completed") }
if !late.completed { failures.append("a release at 1.2 s did not complete") }
print("HoldModel: trigger at \(held.triggerTime ?? .nan) s; release at 0.8 s completes: \(early.completed); at 1.2 s: \(late.completed)")

// 2. A profile from the library, simulated.
let arguments = CommandLine.arguments.dropFirst()
let library = ProfileLibrary(directory: arguments.first ?? "Profiles")
let users = arguments.dropFirst().first.flatMap { Int($0) } ?? 20_000
let profile = try library.loadProfile("hig-linear-bar")
let population = try library.loadPopulation(profile.population)
let job = SimulationJob(profiles: [profile], populations: [population], users: users, seed: 1, threads: 2,
                        commandLine: "holdlab simulate --users \(users)")
print(try ResultDocument(job.run()).rendered(as: .csv), terminator: "")

if !failures.isEmpty {
    for failure in failures { print("Consumer: \(failure)") }
    exit(1)
}
