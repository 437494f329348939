import Foundation

/// Files the tests write, each in a fresh temporary directory.
public enum TemporaryFiles {
    /// A fresh temporary directory.
    public static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("holdlab-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// `text` written to `name` in a fresh temporary directory; its path.
    public static func write(_ text: String, name: String = "data.csv") throws -> String {
        let url = try directory().appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}
