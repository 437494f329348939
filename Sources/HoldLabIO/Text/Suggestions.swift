/// "Did you mean …?" for a name that is not known: the known names closest by edit distance.
public enum Suggestions {
    /// The Damerau–Levenshtein distance (optimal string alignment: insertions, deletions, substitutions and
    /// transpositions of neighbours each cost 1), case-insensitive, over Unicode scalars.
    public static func distance(_ a: String, _ b: String) -> Int {
        let s = Array(a.lowercased().unicodeScalars), t = Array(b.lowercased().unicodeScalars)
        if s.isEmpty { return t.count }
        if t.isEmpty { return s.count }
        var previous2 = [Int](repeating: 0, count: t.count + 1)
        var previous = Array(0...t.count)
        var current = [Int](repeating: 0, count: t.count + 1)
        for i in 1...s.count {
            current[0] = i
            for j in 1...t.count {
                let cost = s[i - 1] == t[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, s[i - 1] == t[j - 2], s[i - 2] == t[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[t.count]
    }

    /// The known names close enough to `name` to be what was meant, closest first (ties in the given order): within
    /// a third of the name's length (at least 1, at most 4 edits, fewer than the name's length: `t` suggests no `a`), or names that contain it or that it contains
    /// (`kikocard` → `kikocard-accelerating`). At most `limit`.
    public static func closest(to name: String, among known: [String], limit: Int = 3) -> [String] {
        guard !name.isEmpty else { return [] }
        let budget = min(4, max(1, name.count / 3))
        let lowered = name.lowercased()
        var scored: [(name: String, score: Int, order: Int)] = []
        for (order, candidate) in known.enumerated() where candidate != name {
            let d = distance(name, candidate)
            let lowerCandidate = candidate.lowercased()
            if d <= budget && d < name.count {
                scored.append((candidate, d, order))
            } else if lowered.count >= 3, lowerCandidate.contains(lowered) || lowered.contains(lowerCandidate)
                        || distance(name, String(candidate.prefix(name.count))) <= budget {
                // A part of the name (`kikocard`), or its start mistyped (`hury` for `hurried`).
                scored.append((candidate, budget + 1, order))
            } else if sharesEveryWord(lowered, lowerCandidate) {
                // The same words with one more or fewer (`first_feedback_mean_ms` for `first_feedback_ms`).
                scored.append((candidate, budget + 2, order))
            }
        }
        var seen: Set<String> = []
        return scored.sorted { ($0.score, $0.order) < ($1.score, $1.order) }
            .map(\.name).filter { seen.insert($0).inserted }.prefix(limit).map { $0 }
    }

    /// Whether the words of one name (split at `_`, `-` and `.`) are all among the other's, the shorter having at
    /// least three.
    static func sharesEveryWord(_ a: String, _ b: String) -> Bool {
        func words(_ text: String) -> Set<Substring> { Set(text.split(whereSeparator: { $0 == "_" || $0 == "-" || $0 == "." })) }
        let (x, y) = (words(a), words(b))
        let (shorter, longer) = x.count <= y.count ? (x, y) : (y, x)
        return shorter.count >= 3 && shorter.isSubset(of: longer)
    }

    /// ` (did you mean 'x'?)` (or `'x' or 'y'`), or nothing when no known name is close.
    public static func didYouMean(_ name: String, among known: [String]) -> String {
        let names = closest(to: name, among: known)
        guard !names.isEmpty else { return "" }
        let quoted = names.map { "'\($0)'" }
        let list = quoted.count == 1 ? quoted[0] : quoted.dropLast().joined(separator: ", ") + " or " + quoted[quoted.count - 1]
        return " (did you mean \(list)?)"
    }
}
