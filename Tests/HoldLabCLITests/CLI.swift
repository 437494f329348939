import Foundation
import HoldLabTestSupport
import Testing

/// Runs the built `holdlab` executable.
enum CLI {
    /// The package root (three levels above this file).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The executable next to the test bundle (SwiftPM builds it because this test target depends on it).
    static var executable: URL {
        get throws {
            var candidates: [URL] = []
            if let path = ProcessInfo.processInfo.environment["HOLDLAB_BIN"] { candidates.append(URL(fileURLWithPath: path)) }
            if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("holdlab"))
            }
            candidates.append(Bundle.main.bundleURL.appendingPathComponent("holdlab"))
            candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("holdlab"))
            guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
                throw CLIError.notFound(candidates.map(\.path))
            }
            return found
        }
    }

    enum CLIError: Error { case notFound([String]) }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `holdlab` with `arguments` in `directory` (default: the package root, so ./Profiles is found).
    static func run(_ arguments: [String], in directory: URL? = nil, environment extra: [String: String] = [:],
                    input: String? = nil) throws -> Result {
        let result = try runProcess(try executable.path, arguments, in: directory ?? root, environment: extra,
                                    removing: ["HOLDLAB_PROFILES"], input: input)
        return Result(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    /// Runs another program (in the package root) and returns its standard output.
    static func runTool(_ path: String, _ arguments: [String]) throws -> String {
        try runProcess(path, arguments, in: root, keepStandardError: false).stdout
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("holdlab-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Data rows of a CSV (no `#` lines).
    static func dataLines(_ csv: String) -> [Substring] {
        csv.split(separator: "\n").filter { !$0.hasPrefix("#") }
    }
}
