// swift-tools-version: 6.0
// HoldLab: a command-line workbench that simulates and tunes hold-to-confirm controls.
//
// The targets, from the bottom up:
//   HoldLabIO       files and streams: CSV read and write, provenance, atomic outputs, signal clean-up, the version
//   CGSL            system library: the GNU Scientific Library's headers plus `shim.h`
//   GSL             the one Swift wrapper over CGSL (random streams, distributions, CDFs)
//   HoldModel       pure, deterministic physics of one hold: curves, springs, fill, retract, trigger, haptics, display
//   HoldProfiles    versioned YAML profiles: schema, validation with file/line/key-path errors, `--set` overrides
//   HoldSimulation  synthetic users, the engine, the metric registry and tally, paired comparisons, shards
//   HoldStudies     studies built on the engine: sweeps, sensitivity, tuning, guideline checks, the review report
//   HoldFitting     fitting data: duration distributions by maximum likelihood, least-squares curves
//   HoldPreview     see it and feel it: animated previews (gnuplot GIF, ffmpeg MP4) and haptic patterns (AHAP, Android)
//   holdlab         the thin executable (swift-argument-parser)
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]
let package = Package(
    name: "HoldLab",
    // HoldModel imports nothing (no GSL, no Foundation): an iOS or macOS app can run the timing model it was tuned
    // with. The other libraries need GSL (Linux: libgsl-dev; macOS: Homebrew's gsl).
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .executable(name: "holdlab", targets: ["holdlab"]),
        // The timing model of one hold: curves, springs, fill, retract, trigger, haptics, display frames.
        .library(name: "HoldModel", targets: ["HoldModel"]),
        // Profiles and populations as YAML, validated, with `--set` overrides.
        .library(name: "HoldProfiles", targets: ["HoldProfiles", "HoldLabIO"]),
        // The engine: synthetic users against profiles, summaries with intervals, paired comparisons, shards.
        .library(name: "HoldSimulation", targets: ["HoldSimulation", "HoldProfiles", "HoldLabIO"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CGSL",
            pkgConfig: "gsl",
            providers: [.apt(["libgsl-dev"]), .brew(["gsl"])]
        ),
        // Test seams (HOLDLAB_TEST_SIGNAL, HOLDLAB_TEST_KILL_AFTER_POINTS) exist in debug builds only.
        .target(name: "HoldLabIO", swiftSettings: strict + [.define("HOLDLAB_TEST_HOOKS", .when(configuration: .debug))]),
        .target(name: "GSL", dependencies: ["CGSL"], swiftSettings: strict),
        .target(name: "HoldModel", swiftSettings: strict),
        .target(
            name: "HoldProfiles",
            dependencies: ["GSL", "HoldLabIO", "HoldModel", .product(name: "Yams", package: "Yams")],
            swiftSettings: strict
        ),
        .target(
            name: "HoldSimulation",
            dependencies: [
                "GSL", "HoldLabIO", "HoldModel", "HoldProfiles",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "HoldPreview",
            dependencies: ["HoldLabIO", "HoldModel", "HoldProfiles"],
            swiftSettings: strict
        ),
        .target(
            name: "HoldStudies",
            dependencies: ["GSL", "HoldLabIO", "HoldModel", "HoldPreview", "HoldProfiles", "HoldSimulation"],
            swiftSettings: strict
        ),
        .target(
            name: "HoldFitting",
            dependencies: ["GSL", "HoldLabIO", "HoldModel", "HoldProfiles"],
            swiftSettings: strict
        ),
        // The NumPy yardstick of `holdlab benchmark` (issue 32) is compiled in as bytes
        // (`PackageResources.numpy_yardstick_py`): the binary runs it from a temporary file, with no bundle to find.
        .executableTarget(
            name: "holdlab",
            dependencies: [
                "GSL", "HoldLabIO", "HoldProfiles", "HoldSimulation", "HoldStudies", "HoldFitting", "HoldPreview",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            resources: [.embedInCode("Yardstick/numpy_yardstick.py")],
            swiftSettings: strict
        ),
        // The fuzzing target for the profile, population and CSV readers (libFuzzer; see .ci/run). The normal
        // build makes a replayer of saved inputs.
        .executableTarget(
            name: "holdlab-fuzz",
            dependencies: ["HoldFitting", "HoldLabIO", "HoldProfiles", "HoldSimulation"],
            path: "Sources/HoldLabFuzz",
            swiftSettings: strict
        ),
        // Shared by the test targets: builders of profiles and populations, golden files, the JSON types of a result.
        .target(name: "HoldLabTestSupport", dependencies: ["HoldLabIO", "HoldProfiles", "HoldSimulation"], path: "Tests/HoldLabTestSupport",
                swiftSettings: strict),
        .testTarget(name: "HoldLabIOTests", dependencies: ["HoldLabIO"], swiftSettings: strict),
        .testTarget(name: "GSLTests", dependencies: ["GSL"], swiftSettings: strict),
        .testTarget(name: "HoldModelTests", dependencies: ["HoldModel"], swiftSettings: strict),
        .testTarget(name: "HoldProfilesTests", dependencies: ["HoldLabIO", "HoldLabTestSupport", "HoldProfiles"], exclude: ["Golden"],
                    swiftSettings: strict),
        .testTarget(name: "HoldSimulationTests", dependencies: [
            "HoldLabIO", "HoldLabTestSupport", "HoldSimulation", .product(name: "Histogram", package: "hdrhistogram-swift"),
        ], swiftSettings: strict),
        .testTarget(name: "HoldStudiesTests", dependencies: ["HoldLabIO", "HoldLabTestSupport", "HoldSimulation", "HoldStudies"],
                    exclude: ["Golden"], swiftSettings: strict),
        .testTarget(name: "HoldFittingTests", dependencies: ["HoldFitting", "HoldLabIO", "HoldLabTestSupport", "HoldSimulation"],
                    exclude: ["Golden"], swiftSettings: strict),
        .testTarget(name: "HoldPreviewTests", dependencies: ["HoldPreview", "HoldLabIO", "HoldLabTestSupport", "HoldSimulation"], swiftSettings: strict),
        .testTarget(name: "HoldLabCLITests", dependencies: ["holdlab", "HoldLabIO", "HoldLabTestSupport"], exclude: ["Golden"], swiftSettings: strict),
    ]
)
