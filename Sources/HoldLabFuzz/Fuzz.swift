// The fuzzing target for HoldLab's readers of untrusted input: profiles, populations and telemetry CSV.
//
// Built with libFuzzer (see .ci/run):
//   swift build --scratch-path .build-fuzz --product holdlab-fuzz \
//     -Xswiftc -sanitize=fuzzer -Xswiftc -DFUZZING -Xswiftc -parse-as-library
//   .build-fuzz/debug/holdlab-fuzz -max_total_time=60 CORPUS
// Without FUZZING (the normal build) it replays files given as arguments, so a crash the fuzzer found can be
// rerun under the debugger: swift run holdlab-fuzz crash-…
//
// The first byte of an input chooses the reader (0 profile, 1 population, 2 CSV); the rest is the file. Every
// reader must return a value or throw its typed error: a trap (overflow, out of range, a crash) is a finding.
import Foundation
import HoldFitting
import HoldLabIO
import HoldProfiles
import HoldSimulation

enum FuzzTarget {
    /// Where CSV inputs are written for `FitDataFile`, which reads from a path.
    static let csvPath = NSTemporaryDirectory() + "holdlab-fuzz-\(ProcessInfo.processInfo.processIdentifier).csv"

    static func run(_ bytes: [UInt8]) {
        guard let selector = bytes.first else { return }
        let body = Array(bytes.dropFirst())
        let text = String(decoding: body, as: UTF8.self)
        switch selector % 3 {
        case 0:
            if let profile = try? Profile.load(yaml: text, path: "fuzz.yaml") {
                _ = profile.canonicalYAML
                _ = try? Profile.load(yaml: text, path: "fuzz.yaml", overrides: [try? Override(parsing: "fill.delay=0.1")].compactMap { $0 })
            }
        case 1:
            if let population = try? Population.load(yaml: text, path: "fuzz.yaml") {
                _ = population.canonicalYAML
            }
        default:
            _ = try? CSVTable(text: text, path: "fuzz.csv")
            let reader = CSVReader(bytes: body, path: "fuzz.csv")
            if (try? reader.readHeader()) != nil {
                // As the commands do: a record's fields are read only after its count is checked against the header.
                while (try? reader.next()) == true {
                    guard (try? reader.checkFieldCount()) != nil else { continue }
                    for index in 0..<reader.fieldCount { _ = reader.double(index); _ = reader.field(index) }
                }
            }
            guard FileManager.default.createFile(atPath: csvPath, contents: Data(body)) else { return }
            let columns = ["hold_ms", "t", "release_ms"]
            for column in columns {
                _ = try? FitDataFile.read(FitDataRequest(path: csvPath, column: column, censoredColumn: "fired"))
            }
            _ = try? FitDataFile.read(FitDataRequest(
                path: csvPath, column: "press_end_ms", censoredColumn: "outcome", censoredValues: ["completed"],
                censorTimeColumn: "trigger_ms", filters: [.init(column: "class", value: "intentional")]))
        }
    }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    FuzzTarget.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// libFuzzer's entry point for programs that have their own `main` (SwiftPM names an executable's main
/// `holdlab_fuzz_main`, so libFuzzer's `main` cannot be used).
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_cdecl("holdlab_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments, fuzzOneInput)
}
#else
@main
enum Replay {
    static func main() {
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("holdlab-fuzz: cannot read \(path)\n".utf8))
                continue
            }
            FuzzTarget.run(Array(data))
            print("ok: \(path)")
        }
    }
}
#endif
