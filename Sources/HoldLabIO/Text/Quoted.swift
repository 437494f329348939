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
}
