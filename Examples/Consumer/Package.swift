// swift-tools-version: 6.0
// A package that uses HoldLab as a library, as another project would: it depends on HoldLab by path and imports
// its library products. `.ci/run` builds and runs it; its output is checked against `holdlab trace` and
// `holdlab simulate` for the same hold and users.
import PackageDescription

let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "HoldLab", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "Consumer",
            dependencies: [
                .product(name: "HoldModel", package: "HoldLab"),
                .product(name: "HoldProfiles", package: "HoldLab"),
                .product(name: "HoldSimulation", package: "HoldLab"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
