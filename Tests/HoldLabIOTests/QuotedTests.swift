import Testing

@testable import HoldLabIO

@Suite("Values and messages quoted for standard error stay short")
struct QuotedTests {
    @Test("a value of at most 80 characters is quoted whole; a longer one by its first 60 and its length")
    func value() {
        #expect(Quoted.value("abc") == "'abc'")
        let eighty = String(repeating: "é", count: 80)
        #expect(Quoted.value(eighty) == "'\(eighty)'")
        let long = String(repeating: "x", count: 3_000_000)
        #expect(Quoted.value(long) == "'" + String(repeating: "x", count: 60) + "…' (3000000 characters)")
    }

    @Test("a message is unchanged unless a word is longer than 256 characters or it is longer than 4,000")
    func message() {
        let ordinary = "d.csv:2: t: 'abc' is not a number; allowed: " + (1...200).map { "name\($0)" }.joined(separator: ", ")
        #expect(Quoted.message(ordinary) == ordinary)
        let path = "/" + String(repeating: "p", count: 254)  // 256 characters with its colon
        #expect(Quoted.message("\(path): no such file") == "\(path): no such file")
        // A value of a megabyte inside quotes: its start, its last ten characters (the closing quote among them),
        // its length; the words around it whole.
        let value = "'" + String(repeating: "x", count: 999_998) + "y'"
        let cut = Quoted.message("fill.curve: timing curve \(value) not recognised; allowed: linear")
        #expect(cut == "fill.curve: timing curve '" + String(repeating: "x", count: 59) + "…" + String(repeating: "x", count: 8)
                + "y' (1000001 characters) not recognised; allowed: linear")
        // Many short words: the first 3,000 and last 1,000 characters, the middle counted.
        let words = Array(repeating: "word", count: 10_000).joined(separator: " ")
        let capped = Quoted.message(words + " END")
        #expect(capped.count < 4_100)
        #expect(capped.hasSuffix(" END") && capped.contains("characters left out"))
    }
}
