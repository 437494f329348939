import Testing
@testable import HoldLabIO

@Suite("Recorded command lines read back")
struct CommandRecordTests {
    /// Arguments `CSV.commandLine` must quote (spaces, quotes, a shell's specials, an empty one, newlines, Unicode)
    /// and ones it leaves bare; every list reads back as it was written.
    static let arguments: [[String]] = [
        ["holdlab", "report", "--profile", "hig-linear-bar", "--users", "4000"],
        ["holdlab", "report", "--variant", "fast=fill.duration=0.6 gesture.minimumDuration=0.8", "--question", "Ship it?"],
        ["holdlab", "x", "it's", "'", "''", "a'b'c", "", "$HOME", "`ls`", "a\\b", "\\", "tab\there", "line\nbreak"],
        ["holdlab", "Zoë", "名前", "--set=fill.curve=easeInOut", "a,b", "x:y", "50%", "+1", "@file"],
        // A combining mark or joiner right after a closing quote, a prepend character right before an opening one:
        // each is one Character with the quote, and the quote must still count.
        ["holdlab", "report", "--question", "\u{301}x", "a b\u{301}", "\u{200D}y z", "\u{600}", "\u{600}' '"],
    ]

    @Test("words(line) gives back the arguments CSV.commandLine wrote", arguments: arguments)
    func roundTrip(_ words: [String]) {
        #expect(CommandRecord.words(CSV.commandLine(words)) == words)
    }

    @Test("a quote left open, or a backslash at the end, is not a recorded command line")
    func unreadable() {
        #expect(CommandRecord.words("holdlab report --question 'open") == nil)
        #expect(CommandRecord.words("holdlab report \\") == nil)
        #expect(CommandRecord.words("holdlab  report ") == ["holdlab", "report"])
        #expect(CommandRecord.words("") == [])
    }
}
