import Foundation

/// Standard input (`-` wherever a profile or population file is expected), read once: a command that reads its
/// profile twice (to check it, then to vary it) gets the same text both times.
enum StandardInput {
    nonisolated(unsafe) private static var cached: [Int: String] = [:]
    private static let lock = NSLock()

    /// Everything on standard input as UTF-8 text, at most `limit` bytes (the first caller's limit reads it).
    static func text(what: String, limit: Int) throws(ProfileError) -> String {
        lock.lock()
        defer { lock.unlock() }
        if let text = cached[0] { return text }
        let text = try ProfileLibrary.readAll(STDIN_FILENO, path: "standard input", what: what, limit: limit)
        cached[0] = text
        return text
    }
}
