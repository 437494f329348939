import Foundation
import HoldLabIO
import HoldModel
import HoldProfiles
import HoldSimulation

/// `report.html`: the review as one self-contained interactive page (no network, no server, nothing outside the
/// file): the recommendation, findings, rates, scorecard and guideline results, each design's hold animated from the
/// trace model's frames on a grid of release times, and the sweeps as charts one can move along.
///
/// The data is one JSON blob made from the typed results the CSVs are rendered from (each table's cells as their
/// CSV text), so the page and the CSVs cannot disagree. Text from profiles, review files or the command line reaches
/// the page only as escaped HTML text or as JSON the script puts into the DOM with `textContent`. A
/// Content-Security-Policy allows the page's own inline script and style (by their SHA-256) and `data:` images, and
/// nothing else: no network access of any kind.
public enum ReviewPage {
    /// One traced hold of a design, released at `releaseSeconds` (nil: held until the action fired and the fill
    /// completed, plus 0.25 s, as `trace` holds it).
    public struct Hold: Sendable {
        public var releaseSeconds: Double?
        public var trace: HoldTrace

        public init(releaseSeconds: Double?, trace: HoldTrace) {
            self.releaseSeconds = releaseSeconds
            self.trace = trace
        }
    }

    /// A design's holds on the release grid, the last held to the end.
    public struct DesignHolds: Sendable {
        public var refreshRateHz: Double
        public var holds: [Hold]
    }

    /// A sweep the review ran: its CSV's name and table, the swept key and column, and the baseline design's value.
    public struct SweepData: Sendable {
        public var file: String
        public var keyPath: String
        public var column: String
        public var baselineValue: String?
        public var table: ResultTable

        public init(file: String, keyPath: String, column: String, baselineValue: String?, table: ResultTable) {
            self.file = file
            self.keyPath = keyPath
            self.column = column
            self.baselineValue = baselineValue
            self.table = table
        }
    }

    /// The release times a design is traced at: `count` instants from 0.2 s to 1.5 × the trigger time (or the end of
    /// the full hold when the action never fires), each rounded to 10 ms, without repeats.
    public static func releaseGrid(triggerSeconds: Double?, endSeconds: Double, count: Int = 12) -> [Double] {
        let top = max(0.3, 1.5 * (triggerSeconds ?? endSeconds))
        var grid: [Double] = []
        for index in 0..<count {
            let value = ((0.2 + (top - 0.2) * Double(index) / Double(count - 1)) * 100).rounded() / 100
            if !grid.contains(value) { grid.append(value) }
        }
        return grid
    }

    /// Traces a design at every release time of `grid` and held to the end, with the review's seed at frame phase 0
    /// (what `holdlab trace --release-at R --seed S` traces).
    public static func holds(_ profile: Profile, seed: UInt64, grid: [Double]) throws(ControlError) -> DesignHolds {
        var holds: [Hold] = []
        for release in grid + [nil] as [Double?] {
            holds.append(Hold(releaseSeconds: release, trace: try TraceRequest(profile: profile, releaseAtSeconds: release, seed: seed).run()))
        }
        return DesignHolds(refreshRateHz: profile.control.display.refreshRateHz, holds: holds)
    }

    /// The page for a review.
    ///
    /// - Parameters:
    ///   - tables: the CSVs the page shows, by file name, as the typed tables they were rendered from.
    public static func html(_ input: ReviewInput, version: String, command: String, holds: [DesignHolds],
                            tables: [(name: String, table: ResultTable)], sweeps: [SweepData]) -> String {
        let labels = input.designs.map(\.design.label)
        let title = "Design review: " + labels.joined(separator: " vs ")
        let data = pageData(input, version: version, command: command, holds: holds, tables: tables, sweeps: sweeps)
        let json = JSONValue.text(data)
        let script = ReviewPageAssets.script
        let style = ReviewPageAssets.style
        let policy = "default-src 'none'; script-src 'sha256-\(SHA256.base64(script))'; "
            + "style-src 'sha256-\(SHA256.base64(style))'; img-src data:; base-uri 'none'; form-action 'none'"
        return """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="\(escape(policy))">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <meta name="generator" content="holdlab \(escape(version))">
        <title>\(escape(title))</title>
        <style>\(style)</style>
        </head>
        <body>
        <header class="top">
        <h1 id="title">\(escape(title))</h1>
        <p id="question"><strong>Question.</strong> \(escape(input.question))</p>
        <noscript><p>This page draws its holds and charts with its own inline script; report.md beside it has the same findings as text.</p></noscript>
        </header>
        <main id="main"></main>
        <footer id="footer"><p>Made by holdlab \(escape(version)): <code>\(escape(command))</code>. Every number on this page is read from the same results as the CSVs beside it; the holds are <code>holdlab trace</code>'s frames.</p></footer>
        <script type="application/json" id="holdlab-data">\(json)</script>
        <script>\(script)</script>
        </body>
        </html>

        """
    }

    /// HTML text or attribute value: `& < > " '` as character references.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    // MARK: - The data

    static func pageData(_ input: ReviewInput, version: String, command: String, holds: [DesignHolds],
                         tables: [(name: String, table: ResultTable)], sweeps: [SweepData]) -> JSONValue {
        let labels = input.designs.map(\.design.label)
        var designs: [JSONValue] = []
        for (index, design) in input.designs.enumerated() {
            let profile = design.design.profile
            var members: [(String, JSONValue)] = [
                ("label", .string(design.design.label)),
                ("profile", .string(profile.name)),
                ("description", .string(profile.description)),
                ("hash", .string("fnv1a64:\(profile.contentHash)")),
                ("sets", .array(design.sets.map(JSONValue.string))),
                ("baseline", .bool(index == input.baseline)),
                ("actionMs", design.actionMs.map { .number(CSV.number($0, decimals: 3)) } ?? .null),
                ("fullMs", design.fullMs.map { .number(CSV.number($0, decimals: 3)) } ?? .null),
            ]
            if index < holds.count {
                members.append(("refreshHz", .number(CSV.number(holds[index].refreshRateHz, significant: 10))))
                members.append(("holds", .array(holds[index].holds.map(holdData))))
            }
            designs.append(.object(members))
        }
        var findings: [JSONValue] = []
        for result in input.results {
            let population = result.rows.first?.population ?? result.summaries.first?.population ?? ""
            var sentences: [JSONValue] = []
            for row in result.rows {
                guard let phrase = ReviewReport.phrases.first(where: { $0.metric == row.metric.name }),
                      let sentence = ReviewReport.finding(row, phrase) else { continue }
                let stands = input.argument == nil ? ""
                    : ReviewArgumentText.standsOn(row, result: result, labels: labels, baselineIndex: input.baseline)
                sentences.append(inline(sentence + stands))
            }
            findings.append(.object([("population", .string(population)), ("sentences", .array(sentences))]))
        }
        var recommendation: [JSONValue] = []
        if let argument = input.argument {
            for paragraph in ReviewArgumentText.recommendation(input, argument).components(separatedBy: "\n\n")
            where !paragraph.isEmpty && !paragraph.hasPrefix("#") {
                recommendation.append(inline(paragraph))
            }
        }
        let rules = Guidelines.rules(input.thresholds.ruleSet)
        return .object([
            ("version", .string(version)),
            ("command", .string(command)),
            ("question", .string(input.question)),
            ("baseline", .number(String(input.baseline))),
            ("users", .number(String(input.users))),
            ("usersPhrase", .string(input.usersPhrase.replacingOccurrences(of: "`", with: ""))),
            ("seed", .number(String(input.seed))),
            ("populations", .array(input.populations.map { .string($0.name) })),
            ("checkPopulation", .string(input.checkPopulation)),
            ("recommendation", .array(recommendation)),
            ("designs", .array(designs)),
            ("findings", .array(findings)),
            ("rules", .array(rules.map { rule in
                .object([("id", .string(rule.id)), ("source", .string(rule.source))])
            })),
            ("tables", .object(tables.map { ($0.name, tableData($0.table)) })),
            ("sweeps", .array(sweeps.map { sweep in
                .object([
                    ("file", .string(sweep.file)), ("key", .string(sweep.keyPath)), ("column", .string(sweep.column)),
                    ("baselineValue", sweep.baselineValue.map(JSONValue.string) ?? .null),
                    ("baselineLabel", .string(labels[input.baseline])),
                ])
            })),
        ])
    }

    /// A traced hold: its release, outcome and rows (`t_ms`, `displayed_progress`, `pulses`, event index into
    /// `TraceEvent.allCases`), every number as `trace` writes it.
    static func holdData(_ hold: Hold) -> JSONValue {
        let events = TraceEvent.allCases
        let trace = hold.trace
        func ms(_ time: Int64) -> JSONValue { .number(CSV.number(Instant.seconds(time) * 1000, decimals: 3)) }
        let rows = trace.rows.map { row -> JSONValue in
            // A row after a long trace's last frame has no displayed progress (NaN): null, which JSON can hold.
            .array([ms(row.time), row.displayedProgress.isFinite ? .number(CSV.number(row.displayedProgress, decimals: 6)) : .null,
                    .number(String(row.pulses)),
                    .number(String(events.firstIndex(of: row.event) ?? 0))])
        }
        return .object([
            ("releaseMs", hold.releaseSeconds.map { .number(CSV.number($0 * 1000, decimals: 3)) } ?? .null),
            ("pressEndMs", ms(trace.outcome.pressEnd)),
            ("completed", .bool(trace.outcome.completed)),
            ("triggerMs", trace.outcome.completed ? ms(trace.timeline.trigger ?? 0) : .null),
            ("fullMs", trace.rows.first { $0.event == .displayedFull }.map { ms($0.time) } ?? .null),
            ("endMs", ms(trace.rows.last?.time ?? 0)),
            ("events", .array(events.map { .string($0.rawValue) })),
            ("rows", .array(rows)),
        ])
    }

    /// A table as its column names and kinds and each cell as the CSV writes it: numbers as JSON numbers with the
    /// CSV's digits (a missing one null), text as strings.
    static func tableData(_ table: ResultTable) -> JSONValue {
        let columns = table.columns
        return .object([
            ("columns", .array(columns.map { .string($0.name) })),
            ("rows", .array(table.rows.map { row in
                .array(columns.indices.map { index -> JSONValue in
                    let cell = index < row.count ? row[index] : .text("")
                    switch columns[index].kind {
                    case .text: return .string(cell.plainText)
                    case .boolean:
                        if case .boolean(let value) = cell { return .bool(value) }
                        return .string(cell.plainText)
                    case .integer, .number:
                        if case .text(let text) = cell { return .string(text) }
                        return cell.isMissing ? .null : (NumberText.jsonNumber(cell.csvText).map(JSONValue.number) ?? .null)
                    }
                })
            })),
        ])
    }

    /// Markdown's inline emphasis (`**bold**`, `*italic*`, `` `code` ``) as runs: `[["b", text], ["i", text],
    /// ["c", text], ["", text]]`,
    /// which the script turns into elements with `textContent`; nothing in the text is markup.
    static func inline(_ markdown: String) -> JSONValue {
        var runs: [JSONValue] = []
        var rest = Substring(markdown.replacingOccurrences(of: "\n", with: " "))
        var plain = ""
        func flush() {
            if !plain.isEmpty { runs.append(.array([.string(""), .string(plain)])) }
            plain = ""
        }
        while let first = rest.first {
            if rest.hasPrefix("**"), let end = rest.dropFirst(2).range(of: "**") {
                flush()
                runs.append(.array([.string("b"), .string(String(rest[rest.index(rest.startIndex, offsetBy: 2)..<end.lowerBound]))]))
                rest = rest[end.upperBound...]
            } else if first == "*", rest.dropFirst().first.map({ $0 != " " && $0 != "*" }) == true,
                      let end = rest.dropFirst().firstIndex(of: "*") {
                flush()
                runs.append(.array([.string("i"), .string(String(rest[rest.index(after: rest.startIndex)..<end]))]))
                rest = rest[rest.index(after: end)...]
            } else if first == "`", let end = rest.dropFirst().firstIndex(of: "`") {
                flush()
                runs.append(.array([.string("c"), .string(String(rest[rest.index(after: rest.startIndex)..<end]))]))
                rest = rest[rest.index(after: end)...]
            } else {
                plain.append(first)
                rest = rest.dropFirst()
            }
        }
        flush()
        return .array(runs)
    }

    /// The value a profile's canonical YAML gives a dotted key path (`fill.duration`), as written there (a flow
    /// mapping's member too); `fill.duration: match` reads as the gesture's `minimumDuration`, which it follows.
    /// nil when the path is not a scalar of the profile.
    public static func value(at keyPath: String, in yaml: String) -> String? {
        let found = writtenValue(at: keyPath, in: yaml)
        if keyPath == "fill.duration", found == "match" { return writtenValue(at: "gesture.minimumDuration", in: yaml) }
        return found
    }

    static func writtenValue(at keyPath: String, in yaml: String) -> String? {
        let keys = keyPath.split(separator: ".").map(String.init)
        guard !keys.isEmpty else { return nil }
        var depth = 0
        var indent = 0
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: true) {
            let spaces = line.prefix { $0 == " " }.count
            let body = line.dropFirst(spaces)
            if body.hasPrefix("#") || body.hasPrefix("- ") { continue }
            if depth > 0 && spaces < indent { return nil }
            guard spaces == indent, let colon = body.firstIndex(of: ":") else { continue }
            guard String(body[..<colon]) == keys[depth] else { continue }
            let value = body[body.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if depth == keys.count - 1 {
                guard !value.isEmpty else { return nil }
                if value.count >= 2, let quote = value.first, quote == "'" || quote == "\"", value.last == quote {
                    return String(value.dropFirst().dropLast())
                }
                return value
            }
            if value.hasPrefix("{"), value.hasSuffix("}"), depth == keys.count - 2 {
                // A flow mapping of scalars: `gesture: {minimumDuration: 1, maximumDistance: 10}`.
                for member in value.dropFirst().dropLast().split(separator: ",") {
                    let parts = member.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    if parts.count == 2, parts[0] == keys[depth + 1] { return parts[1] }
                }
                return nil
            }
            guard value.isEmpty else { return nil }
            depth += 1
            indent = spaces + 2
        }
        return nil
    }
}

/// A JSON value written in a fixed order with numbers as given: the same data gives the same bytes. Strings escape
/// `<`, `>`, `&` and the line separators as `\uXXXX`, so the text can sit inside a `<script>` element.
indirect enum JSONValue: Sendable {
    case string(String)
    /// The number's JSON text.
    case number(String)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func text(_ value: JSONValue) -> String {
        var out = ""
        write(value, to: &out)
        return out
    }

    static func write(_ value: JSONValue, to out: inout String) {
        switch value {
        case .string(let text): out += string(text)
        case .number(let text): out += text
        case .bool(let flag): out += flag ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                write(item, to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, (key, item)) in members.enumerated() {
                if index > 0 { out += "," }
                out += string(key) + ":"
                write(item, to: &out)
            }
            out += "}"
        }
    }

    static func string(_ text: String) -> String {
        var out = ""
        for scalar in JSONRendering.jsonString(text).unicodeScalars {
            switch scalar {
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

/// SHA-256 (FIPS 180-4), for the page's Content-Security-Policy hashes of its inline script and style.
enum SHA256 {
    static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        var message = bytes
        let bits = UInt64(bytes.count) * 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
        var w = [UInt32](repeating: 0, count: 64)
        for chunk in stride(from: 0, to: message.count, by: 64) {
            for i in 0..<16 {
                let j = chunk + 4 * i
                w[i] = UInt32(message[j]) << 24 | UInt32(message[j + 1]) << 16 | UInt32(message[j + 2]) << 8 | UInt32(message[j + 3])
            }
            for i in 16..<64 {
                let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, hh) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
            for i in 0..<64 {
                let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                let choice = (e & f) ^ (~e & g)
                let t1 = hh &+ s1 &+ choice &+ k[i] &+ w[i]
                let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                let t2 = s0 &+ majority
                (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            h[0] = h[0] &+ a; h[1] = h[1] &+ b; h[2] = h[2] &+ c; h[3] = h[3] &+ d
            h[4] = h[4] &+ e; h[5] = h[5] &+ f; h[6] = h[6] &+ g; h[7] = h[7] &+ hh
        }
        return h.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * $0)) } }
    }

    /// The digest of the UTF-8 text, in base64 (what a CSP `'sha256-…'` source names).
    static func base64(_ text: String) -> String { Data(digest(Array(text.utf8))).base64EncodedString() }
}
