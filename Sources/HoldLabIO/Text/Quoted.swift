/// A value quoted in a message: whole when short, else its start and its length, so that an error stays one short
/// line whatever a cell or an argument holds (a 3 MB cell was copied into its message whole).
public enum Quoted {
    /// The most characters quoted whole.
    public static let longest = 80

    /// `'text'`, or `'the first 60 characters…' (3000000 characters)` for text longer than `longest`.
    public static func value(_ text: some StringProtocol) -> String {
        var kept = 0
        var end = text.startIndex
        while end < text.endIndex, kept < longest {
            end = text.index(after: end)
            kept += 1
        }
        guard end < text.endIndex else { return "'\(text)'" }
        return "'\(text[..<text.index(text.startIndex, offsetBy: 60)])…' (\(text.count) characters)"
    }

    /// The most characters a message keeps: its first 3,000 and its last 1,000 beyond that.
    public static let longestMessage = 4_000

    /// The longest run of characters without a space a message keeps whole: longer than any path a user types.
    public static let longestWord = 256

    /// A message for standard error with every run of more than `longestWord` characters without a space cut to its
    /// first 60 and last 10 characters and its length (`'xxxx…xx' (3000000 characters)`), then, if still longer
    /// than `longestMessage`, its middle left out with a count: whatever value a message quotes (a YAML value, an
    /// option's argument, a provenance line), it stays a line a terminal or a log can hold.
    public static func message(_ text: String) -> String {
        guard text.utf8.count > longestWord else { return text }
        var shortened = text.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            let count = word.count
            guard count > longestWord else { return String(word) }
            return "\(word.prefix(60))…\(word.suffix(10)) (\(count) characters)"
        }.joined(separator: " ")
        let count = shortened.count
        if count > longestMessage {
            shortened = "\(shortened.prefix(3_000)) … (\(count - 4_000) characters left out) … \(shortened.suffix(1_000))"
        }
        return shortened
    }
}
