import HoldLabIO
import HoldProfiles

/// A problem with a shard or a set of shards, phrased for the command line.
public struct ShardError: Error, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A bad `--shard`, `--shards` or a shard count the work cannot be cut into (64).
        case usage
        /// A shard file that is truncated, corrupted, foreign, from another plan, missing or duplicated (65).
        case data
    }

    public let message: String
    public let kind: Kind
    public init(_ message: String, kind: Kind = .data) {
        self.message = message
        self.kind = kind
    }
    public var description: String { message }
}

/// `--shard K/N`: the K-th of N parts of a run (1-based).
public struct ShardSpec: Sendable, Equatable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    /// At most this many shards.
    public static let maximumCount = 100_000

    public init(index: Int, count: Int) throws(ShardError) {
        guard count >= 1 && count <= Self.maximumCount else {
            throw ShardError("--shard \(index)/\(count): N must be from 1 to \(Self.maximumCount)", kind: .usage)
        }
        guard index >= 1 && index <= count else {
            throw ShardError("--shard \(index)/\(count): K must be from 1 to N (\(count))", kind: .usage)
        }
        self.index = index
        self.count = count
    }

    /// Parses `K/N`.
    public init(parsing text: String) throws(ShardError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw ShardError("--shard \(text): expected K/N, e.g. --shard 3/8 (the third of eight shards)", kind: .usage)
        }
        try self.init(index: index, count: count)
    }

    public var description: String { "\(index)/\(count)" }

    /// The units (sweep points, user chunks) of this shard out of `total`: a contiguous block, the blocks of
    /// shards 1…N in order covering 0..<total once, sizes differing by at most one.
    public func range(of total: Int) -> Range<Int> {
        Self.range(index: index, count: count, total: total)
    }

    static func range(index: Int, count: Int, total: Int) -> Range<Int> {
        let lower = Int((Int128(index - 1) * Int128(total)) / Int128(count))
        let upper = Int((Int128(index) * Int128(total)) / Int128(count))
        return lower..<upper
    }

    /// Refuses more shards than units: every shard must have work.
    public func check(units total: Int, what: String) throws(ShardError) {
        try Self.check(count: count, option: "--shard \(self)", units: total, what: what)
    }

    /// The same for `--shards N` (the scripts `--emit` prints), named as the command line gives it.
    public static func check(shards count: Int, units total: Int, what: String) throws(ShardError) {
        try check(count: count, option: "--shards \(count)", units: total, what: what)
    }

    private static func check(count: Int, option: String, units total: Int, what: String) throws(ShardError) {
        guard count <= total else {
            throw ShardError("\(option): the run has \(total) \(what); use at most \(total) shards", kind: .usage)
        }
    }
}

/// The shard file format (version 2), one for sweeps and simulations: a CSV that holdlab's readers (and gnuplot)
/// read as usual, whose `#` provenance carries what `holdlab merge` checks.
///
/// ```
/// # holdlab: 0.2.0 simulate                       the provenance the unsharded run writes, then:
/// # plan_command: holdlab simulate --users …      the command without --shard, --out, --per-user, --threads
/// # shard_format: holdlab-shard 2 simulate        format name, version, and kind (simulate | sweep)
/// # shard: 3/8                                    K/N
/// # shard_plan: fnv1a64:…                         the hash of the whole plan (below)
/// # shard_part: chunks 916-1373 of 2442           the units this shard holds (1-based, inclusive)
/// header and rows                                 sweep: the sweep's own rows; simulate: tally rows
/// # shard_end: 2 rows fnv1a64:…                   the FNV-1a 64 hash of every byte before this line
/// ```
///
/// The plan hash covers the tool version, the command kind, the resolved profiles (with `--set`), the
/// population, the seed, the users, and for a sweep the design, every `--vary` and every point; N is checked
/// separately. A file without its `shard_end` line was cut off; one whose hash differs was changed.
public enum ShardFormat {
    public static let name = "holdlab-shard"
    /// 2: the simulate tally rows carry Σy² beside each mean's Σy, and the sweep rows the means' `_lo`/`_hi` columns.
    /// A shard of another version is refused (run it again with this holdlab).
    public static let version = 2

    public enum Kind: String, Sendable { case simulate, sweep }

    /// The plan hash of provenance lines that identify the results.
    ///
    /// - Parameter holdlab: the version that made the plan (a merge recomputes a plan of the shards' own version).
    public static func planHash(kind: Kind, identity: [(String, String)], extra: [String] = [],
                                holdlab: String = HoldLabVersion.current) -> String {
        var text = "\(name) \(version) \(kind.rawValue)\nholdlab \(holdlab)\n"
        for (key, value) in identity { text += "\(key): \(value)\n" }
        for line in extra { text += line + "\n" }
        return "fnv1a64:" + fnv1a64Hex(text)
    }

    /// The plan hash of a sweep: its identity lines, its header and every point's values as its row writes them.
    /// What `sweep --shard` writes and what `merge` recomputes from the rows, in one place.
    public static func sweepPlanHash(identity: [(String, String)], header: String, points: [[String]],
                                     holdlab: String = HoldLabVersion.current) -> String {
        planHash(kind: .sweep, identity: identity,
                 extra: [header] + points.map { $0.map(CSV.field).joined(separator: ",") }, holdlab: holdlab)
    }

    /// The provenance lines a shard adds after the run's own.
    public static func provenance(
        kind: Kind, shard: ShardSpec, plan: String, planCommand: String, part: String
    ) -> [(String, String)] {
        [
            ("plan_command", planCommand),
            ("shard_format", "\(name) \(version) \(kind.rawValue)"),
            ("shard", shard.description),
            ("shard_plan", plan),
            ("shard_part", part),
        ]
    }

    /// `text` (provenance, header and rows, ending in a newline) with its `shard_end` line.
    public static func sealed(_ text: String, rows: Int) -> String {
        text + "# shard_end: \(rows) rows fnv1a64:\(fnv1a64Hex(text))\n"
    }

    /// "chunks 1-458 of 2442" for a range of 0-based units.
    public static func part(_ what: String, _ range: Range<Int>, of total: Int) -> String {
        "\(what) \(range.lowerBound + 1)-\(range.upperBound) of \(total)"
    }
}

/// One shard file read back and checked on its own: complete, unchanged, this format version.
struct ShardFile {
    let path: String
    let kind: ShardFormat.Kind
    let shard: ShardSpec
    let plan: String
    let planCommand: String
    /// The units (0-based) the shard says it holds, and how many the plan has.
    let part: Range<Int>
    let total: Int
    /// The `# key: value` lines before the shard's own, in order.
    let provenance: [(String, String)]
    let header: String
    let rows: [String]

    init(path: String, text original: String) throws(ShardError) {
        self.path = path
        // A shard that went through Excel or a Windows checkout (a byte-order mark, CRLF) reads as written.
        let text = CSV.normalizedText(original)
        func refuse(_ reason: String) -> ShardError { ShardError("\(path): \(reason)") }
        guard !text.isEmpty else { throw refuse("is empty; it is not a holdlab shard") }
        guard text.utf8.first == UInt8(ascii: "#") else {
            throw refuse("is not a holdlab shard (it does not start with '#' provenance)")
        }
        guard text.hasSuffix("\n") else { throw refuse("is truncated (it does not end with a newline); run its shard again") }
        let body = text.dropLast()
        let lastBreak = body.lastIndex(of: "\n")
        let last = lastBreak.map { body[body.index(after: $0)...] } ?? body[...]
        let endKey = "# shard_end: "
        guard last.hasPrefix(endKey) else {
            if let end = body.range(of: "\n" + endKey) {
                // A seal, then more: text was added after the shard was written (or two files were joined).
                let line = body[..<end.lowerBound].filter { $0 == "\n" }.count + 2
                throw refuse("has content after its '# shard_end:' line (line \(line)); a shard ends at its seal: remove what "
                             + "follows, or run its shard again")
            }
            if text.contains("\n# shard_format: ") {
                throw refuse("is truncated (no '# shard_end:' line at its end); run its shard again")
            }
            throw refuse("is not a holdlab shard (no '# shard_format:' line); shards are written by --shard K/N")
        }
        let content = lastBreak.map { String(text[...$0]) } ?? ""
        let seal = last.dropFirst(endKey.count).split(separator: " ")
        guard seal.count == 3, seal[1] == "rows", let declaredRows = Int(seal[0]), seal[2].hasPrefix("fnv1a64:") else {
            throw refuse("has a malformed '# shard_end:' line; run its shard again")
        }
        guard seal[2].dropFirst(8) == fnv1a64Hex(content) else {
            throw refuse("is corrupted (its content does not match the hash in '# shard_end:'); run its shard again")
        }
        var provenance: [(String, String)] = []
        var shardLines: [String: String] = [:]
        var data: [String] = []
        for line in content.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("# ") {
                guard let entry = Provenance.Entry(line: line) else { continue }
                if entry.key.hasPrefix("shard") || entry.key == "plan_command" {
                    shardLines[entry.key] = entry.value
                } else {
                    provenance.append((entry.key, entry.value))
                }
            } else {
                data.append(String(line))
            }
        }
        guard let format = shardLines["shard_format"] else { throw refuse("is not a holdlab shard (no '# shard_format:' line)") }
        let formatParts = format.split(separator: " ")
        guard formatParts.count == 3, formatParts[0] == Substring(ShardFormat.name) else {
            throw refuse("is not a holdlab shard (shard_format \(Quoted.value(format)))")
        }
        guard formatParts[1] == "\(ShardFormat.version)" else {
            throw refuse("is shard format version \(formatParts[1]); this holdlab (\(HoldLabVersion.current)) reads version \(ShardFormat.version) only: run that shard again with this holdlab")
        }
        guard let kind = ShardFormat.Kind(rawValue: String(formatParts[2])) else {
            throw refuse("is a shard of unknown kind \(Quoted.value(formatParts[2]))")
        }
        guard let shardText = shardLines["shard"], let shard = try? ShardSpec(parsing: shardText) else {
            throw refuse("has no valid '# shard: K/N' line")
        }
        guard let plan = shardLines["shard_plan"], plan.hasPrefix("fnv1a64:") else { throw refuse("has no '# shard_plan:' line") }
        guard let planCommand = shardLines["plan_command"] else { throw refuse("has no '# plan_command:' line") }
        guard let partText = shardLines["shard_part"], let (part, total) = Self.parsePart(partText),
              part == ShardSpec.range(index: shard.index, count: shard.count, total: total) else {
            throw refuse("has a '# shard_part:' line that is not shard \(shard) of its plan")
        }
        guard let header = data.first else { throw refuse("has no header row") }
        let rows = Array(data.dropFirst())
        guard rows.count == declaredRows else {
            throw refuse("has \(rows.count) rows where '# shard_end:' says \(declaredRows)")
        }
        self.kind = kind
        self.shard = shard
        self.plan = plan
        self.planCommand = planCommand
        self.part = part
        self.total = total
        self.provenance = provenance
        self.header = header
        self.rows = rows
    }

    /// "points 17-24 of 64" → (16..<24, 64).
    private static func parsePart(_ text: String) -> (Range<Int>, Int)? {
        let words = text.split(separator: " ")
        guard words.count == 4, words[2] == "of", let total = Int(words[3]) else { return nil }
        let bounds = words[1].split(separator: "-")
        guard bounds.count == 2, let first = Int(bounds[0]), let last = Int(bounds[1]), first >= 1, last >= first - 1, last <= total else {
            return nil
        }
        return ((first - 1)..<last, total)
    }
}
