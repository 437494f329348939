import GSL
import HoldLabIO
import HoldProfiles

/// A problem with a sweep's parameters or design, phrased for the command line.
public struct SweepError: Error, Equatable, CustomStringConvertible {
    /// Whether the command line is at fault (a `--vary`, `--points` or a point's values: exit 64) or a file's
    /// content (the file `--resume` reads: exit 65).
    public enum Kind: Sendable, Equatable { case usage, data }

    public let message: String
    public let kind: Kind
    /// The point (0-based) whose values the error is about (`Sweep.pointError`); nil for any other.
    public var point: Int?
    public init(_ message: String, kind: Kind = .usage, point: Int? = nil) {
        self.message = message
        self.kind = kind
        self.point = point
    }
    public var description: String { message }
}

/// One `--vary` parameter: a profile key path, or a population's (`population.CLASS.key`, `population.NAME.CLASS.key`),
/// and the values it takes.
public struct SweepParameter: Sendable, Equatable {
    public enum Values: Sendable, Equatable {
        /// `start:stop:step` (grid) or `start:stop` (designs that pick values in the range).
        case range(start: Double, stop: Double, step: Double?)
        /// `v1,v2,…`: values passed to the profile as written (numbers, names, curves…).
        case list([String])
    }

    public let keyPath: String
    public let values: Values
    /// The `--vary` text, for provenance and messages.
    public let text: String

    /// The CSV column: `param_` and the key path with dots (and the dashes of population names) as underscores.
    public var column: String {
        "param_" + keyPath.replacingOccurrences(of: ".", with: "_").replacingOccurrences(of: "-", with: "_")
    }

    /// Whether the key reaches a population (`population.…`) rather than the profile.
    public var reachesPopulation: Bool { Override.reachesPopulation(keyPath) }

    /// Profile keys that identify a run rather than the control: one value for every point.
    static let fixedKeys: Set<String> = ["version", "name", "description", "source", "population"]

    /// Parses `key=start:stop:step`, `key=start:stop` or `key=v1,v2,…`.
    public init(parsing text: String) throws(SweepError) {
        guard let equals = text.firstIndex(of: "=") else {
            throw SweepError("--vary \(text): expected key.path=start:stop:step or key.path=v1,v2,…")
        }
        let key = String(text[..<equals])
        let body = String(text[text.index(after: equals)...])
        try Self.checkKey(key, of: "--vary \(text)")
        keyPath = key
        self.text = text
        // A range has colons outside brackets (curve values like bezier(…) never contain colons).
        if body.contains(":") && !body.contains(",") {
            let parts = body.split(separator: ":", omittingEmptySubsequences: false)
                .map { Double(Self.withoutDigitSeparators(String($0).trimmingCharacters())) }
            guard parts.count == 2 || parts.count == 3, parts.allSatisfy({ $0?.isFinite == true }) else {
                throw SweepError("--vary \(text): a range is start:stop:step (or start:stop for lhs and sobol) with finite numbers")
            }
            let numbers = parts.compactMap { $0 }
            let step = numbers.count == 3 ? numbers[2] : nil
            guard numbers[1] >= numbers[0] else {
                throw SweepError("--vary \(text): stop (\(numbers[1])) must not be below start (\(numbers[0]))")
            }
            if let step, !(step > 0) { throw SweepError("--vary \(text): step must be > 0 (got \(step))") }
            values = .range(start: numbers[0], stop: numbers[1], step: step)
        } else {
            var items: [String] = []
            var depth = 0
            var current = ""
            for character in body {
                if character == "(" || character == "[" || character == "{" { depth += 1 }
                if character == ")" || character == "]" || character == "}" { depth -= 1 }
                if character == "," && depth == 0 {
                    items.append(current.trimmingCharacters())
                    current = ""
                } else {
                    current.append(character)
                }
            }
            items.append(current.trimmingCharacters())
            guard items.allSatisfy({ !$0.isEmpty }) else { throw SweepError("--vary \(text): a list has an empty value") }
            // A number written with YAML's digit separators (`1_000`) is the number a profile reads: written so, as
            // its column's cell is read by gnuplot and every CSV reader (`1_000` was not a number there).
            items = items.map(Self.withoutDigitSeparators)
            // A value twice (as text, or as the same number) would give two points no row tells apart.
            for (index, item) in items.enumerated() {
                guard let earlier = items[..<index].first(where: { $0 == item || Double($0).map { $0 == Double(item) } ?? false })
                else { continue }
                throw SweepError("--vary \(text): the list has \(item) twice" + (earlier == item ? "" : " (as \(earlier))")
                    + "; each value would be simulated twice, in rows no column tells apart")
            }
            values = .list(items)
        }
    }

    /// A number written with YAML's digit separators (`1_000`, as a profile reads it) without them, and without the
    /// zeros they left before its first digit (`0_0.8` is `0.8`, not `00.8`); any other text as it is.
    static func withoutDigitSeparators(_ text: String) -> String {
        var plain = Substring(text.filter { $0 != "_" })
        guard text.contains("_"), !plain.isEmpty, plain.allSatisfy({ "0123456789+-.eE".contains($0) }), Double(plain) != nil
        else { return text }
        let sign = plain.first == "+" || plain.first == "-" ? String(plain.removeFirst()) : ""
        while plain.first == "0", let next = plain.dropFirst().first, next.isNumber { plain.removeFirst() }
        return sign + plain
    }

    /// Refuses a key that cannot vary from point to point: not a key path, a key that names the run rather than
    /// the control (`fixedKeys`), or a population key without a class and a value. Sweep's `--vary` and tune's
    /// `--param` both vary keys.
    ///
    /// - Parameter argument: the option and its text, as messages name it (`--vary fill.duration=0.5:1.5:0.5`).
    public static func checkKey(_ key: String, of argument: String) throws(SweepError) {
        guard !key.isEmpty, key.split(separator: ".", omittingEmptySubsequences: false).allSatisfy({ part in
            !part.isEmpty && part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
        }) else {
            throw SweepError("\(argument): '\(key)' is not a key path; write names separated by dots, e.g. gesture.minimumDuration")
        }
        if let root = key.split(separator: ".").first, fixedKeys.contains(String(root)), !Override.reachesPopulation(key) {
            throw SweepError("\(argument): \(root) cannot vary from point to point; varied keys are control parameters such as gesture.minimumDuration, or a population's, such as population.deliberate.reaction.mu (choose the population with --population)")
        }
        if Override.reachesPopulation(key), key.split(separator: ".").count < 3 {
            throw SweepError("\(argument): a population key names a class and a value, e.g. population.deliberate.reaction.mu")
        }
    }

    /// The grid values: every listed value, or start, start + step, … up to stop (inclusive to rounding).
    func gridValues() throws(SweepError) -> [String] {
        switch values {
        case .list(let items):
            return items
        case .range(let start, let stop, let step):
            guard let step else { throw SweepError("--vary \(text): a grid needs a step: start:stop:step") }
            let steps = ((stop - start) / step + 1e-9).rounded(.down)
            guard steps < Double(SweepPlan.maximumPoints) else {
                throw SweepError("--vary \(text): \(SweepParameter.format(steps + 1)) values; at most \(SweepPlan.maximumPoints) points per sweep")
            }
            let count = Int(steps) + 1
            return (0..<count).map { Self.format(start + Double($0) * step) }
        }
    }

    /// The value at a position u ∈ [0, 1) of the parameter's range (or list), for sampled designs.
    func value(at u: Double) -> String {
        switch values {
        case .list(let items):
            return items[min(items.count - 1, Int(u * Double(items.count)))]
        case .range(let start, let stop, let step):
            var value = start + u * (stop - start)
            if let step { value = min(stop, start + (((value - start) / step).rounded()) * step) }
            return Self.format(value)
        }
    }

    /// Twelve significant digits: 0.3 + 7 × 0.1 prints as 1, not 1.0000000000000002.
    public static func format(_ value: Double) -> String {
        let rounded = Double(String(format: "%.12g", value)) ?? value
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return "\(rounded)"
    }
}

/// How the points of a sweep are chosen.
public enum SweepDesign: String, Sendable, CaseIterable {
    /// The Cartesian product of every parameter's values, the first `--vary` outermost.
    case grid
    /// A Latin hypercube: each parameter's range cut into N strata, one point in each, strata paired at random
    /// by GSL shuffles (seeded from the sweep's seed).
    case lhs
    /// GSL's Sobol sequence mapped onto the ranges.
    case sobol
    /// Saltelli's scheme for Sobol' indices (`holdlab sensitivity --method sobol`; not a `sweep --design`).
    case saltelli
    /// Morris trajectories (`holdlab sensitivity --method morris`; not a `sweep --design`).
    case morris
    /// The rows of a CSV file whose columns are keys (`sweep --design FILE`: a SALib or `scipy.stats.qmc` sample).
    case file

    /// The designs `holdlab sweep --design` takes.
}

/// The points of a sweep: for each point, one value per parameter, as text for `--set`.
public struct SweepPlan: Sendable, Equatable {
    public let parameters: [SweepParameter]
    public let design: SweepDesign
    public let points: [[String]]
    /// A design file's line of each point (`init(designFile:text:)`), where its errors are said; empty for a
    /// generated design.
    public private(set) var pointLines: [Int] = []
    /// A design file's points that repeat an earlier one, each said as a sentence (`init(designFile:text:)`).
    public private(set) var repeats: [String] = []

    /// Whether a parameter is a population's (`population.…`): each point then has its own population.
    public var variesPopulation: Bool { parameters.contains(where: \.reachesPopulation) }

    /// A sweep has at most this many points.
    public static let maximumPoints = 100_000

    /// The stream of the master seed that draws the Latin hypercube (far from the simulation's chunk streams).
    static let hypercubeStream: UInt64 = 0xD1CE_0000_0000_0000

    /// Refuses no parameters, or a key varied twice.
    static func checkParameters(_ parameters: [SweepParameter]) throws(SweepError) {
        guard !parameters.isEmpty else { throw SweepError("name at least one --vary key=values") }
        if let pair = KeyPaths.firstOverlap(parameters.map(\.keyPath)) {
            throw SweepError(KeyPaths.twice(pair, option: "--vary") + (pair.0 == pair.1 ? "" : "; vary each value with one key"))
        }
    }

    public init(parameters: [SweepParameter], design: SweepDesign, points requested: Int?, seed: UInt64) throws(SweepError) {
        try Self.checkParameters(parameters)
        self.parameters = parameters
        self.design = design
        switch design {
        case .grid:
            if requested != nil { throw SweepError("--points goes with --design lhs or sobol; a grid has one point per combination") }
            var points: [[String]] = [[]]
            for parameter in parameters {
                let values = try parameter.gridValues()
                guard points.count * values.count <= Self.maximumPoints else {
                    throw SweepError("the grid has \(points.count * values.count) points or more; at most \(Self.maximumPoints)")
                }
                points = points.flatMap { prefix in values.map { prefix + [$0] } }
            }
            self.points = points
        case .lhs, .sobol:
            guard let count = requested, count >= 1, count <= Self.maximumPoints else {
                throw SweepError("--design \(design.rawValue) needs --points N (1 to \(Self.maximumPoints))")
            }
            let unit = design == .lhs
                ? Self.latinHypercube(points: count, dimensions: parameters.count, seed: seed)
                : try Self.sobol(points: count, dimensions: parameters.count)
            points = unit.map { row in zip(parameters, row).map { $0.value(at: $1) } }
        case .saltelli, .morris:
            throw SweepError("--design \(design.rawValue) is a sensitivity design; run holdlab sensitivity --method \(design == .saltelli ? "sobol" : "morris")")
        case .file:
            throw SweepError("--design FILE: the points come from the file (SweepPlan(designFile:text:))")
        }
    }

    /// N points in [0, 1)^d, one in each of the N strata [k/N, (k+1)/N) of every dimension: dimension j of
    /// point i is (π_j(i) + u_ij) / N with π_j a GSL shuffle of 0…N−1 and u_ij uniform.
    static func latinHypercube(points: Int, dimensions: Int, seed: UInt64) -> [[Double]] {
        let generator = Generator(seed: seed, stream: hypercubeStream, kind: .mt19937)
        var unit = Array(repeating: Array(repeating: 0.0, count: dimensions), count: points)
        for dimension in 0..<dimensions {
            var strata = Array(0..<points)
            generator.shuffle(&strata)
            for point in 0..<points {
                unit[point][dimension] = (Double(strata[point]) + generator.uniform()) / Double(points)
            }
        }
        return unit
    }

    static func sobol(points: Int, dimensions: Int) throws(SweepError) -> [[Double]] {
        do {
            let sequence = try SobolSequence(dimensions: dimensions)
            var unit: [[Double]] = []
            for _ in 0..<points { unit.append(try sequence.next()) }
            return unit
        } catch {
            throw SweepError("--design sobol: \(error) (the Sobol sequence takes 1 to \(SobolSequence.maximumDimensions) parameters)")
        }
    }
}

extension SweepPlan {
    /// The points of a design file: a CSV (`#` lines, a byte-order mark and CRLF allowed) whose header names a key
    /// path per column (`gesture.minimumDuration`, `population.deliberate.reaction.mu`, as `--vary` takes them) and
    /// whose rows are the points, in file order. Values are passed as written (numbers, names, curves).
    ///
    /// - Throws: `SweepError` (kind `data`: the file is at fault) naming the file, line and column.
    public init(designFile path: String, text: String) throws(SweepError) {
        let table: CSVTable
        do {
            table = try CSVTable(text: text, path: path)
        } catch {
            throw SweepError("--design \(error)", kind: .data)
        }
        var parameters: [SweepParameter] = []
        for (index, key) in table.columns.enumerated() {
            let name = key.trimmingCharacters()
            do {
                parameters.append(try SweepParameter(key: name, values: table.rows.map { $0.fields[index].trimmingCharacters() }))
            } catch {
                throw SweepError("--design \(path): column \(index + 1) '\(name)': " + error.message
                    .replacingOccurrences(of: "--vary \(name)=0: ", with: ""), kind: .data)
            }
        }
        do {
            try Self.checkParameters(parameters)
        } catch {
            throw SweepError("--design \(path): \(error.message.replacingOccurrences(of: "--vary ", with: "the column "))", kind: .data)
        }
        guard !table.rows.isEmpty else { throw SweepError("--design \(path): no rows (one row per point)", kind: .data) }
        guard table.rows.count <= Self.maximumPoints else {
            throw SweepError("--design \(path): \(table.rows.count) rows; at most \(Self.maximumPoints) points", kind: .data)
        }
        for row in table.rows {
            if let empty = row.fields.firstIndex(where: { $0.trimmingCharacters().isEmpty }) {
                throw SweepError("--design \(path):\(row.line): column '\(table.columns[empty])' is empty; every point needs a value for every key",
                                 kind: .data)
            }
        }
        // A point twice (as text, or as the same numbers) is simulated twice on the same people, in rows no column
        // tells apart: said (`repeats`), not refused as `--vary` refuses a value twice, so that a sweep cited from
        // such a file still runs to the same rows.
        var seen: [[String]: Int] = [:]
        var repeats: [String] = []
        for row in table.rows {
            let values = row.fields.map { $0.trimmingCharacters() }
            let point = values.map { text in Double(text).map { "\($0)" } ?? text }
            if let earlier = seen[point] {
                repeats.append("--design \(path):\(row.line): the point \(values.joined(separator: ",")) is line \(earlier)'s again; "
                               + "it is simulated on the same people, a row no column tells apart from that one")
            } else {
                seen[point] = row.line
            }
        }
        self.repeats = repeats
        self.parameters = parameters
        self.design = .file
        self.points = table.rows.map { row in row.fields.map { $0.trimmingCharacters() } }
        self.pointLines = table.rows.map(\.line)
    }

    /// What identifies a design file's points: FNV-1a 64 of every value in order (what `--resume` and shards check).
    public var pointsHash: String {
        fnv1a64Hex(points.map { $0.joined(separator: "\u{1F}") }.joined(separator: "\u{1E}"))
    }
}

extension SweepParameter {
    /// A key whose values come from a design file's column, checked as `--vary` checks its key.
    init(key: String, values: [String]) throws(SweepError) {
        // A header is key paths; a first row of numbers (a sample saved without its header) is not.
        guard key.split(separator: ".").allSatisfy({ $0.first?.isLetter == true }) else {
            throw SweepError("--vary \(key)=0: '\(key)' is not a key path (each part starts with a letter); the first row names the keys, e.g. gesture.minimumDuration,fill.duration")
        }
        let probe = try SweepParameter(parsing: key + "=0")
        self.keyPath = probe.keyPath
        self.values = .list(values)
        self.text = key
    }
}

extension String {
    fileprivate func trimmingCharacters() -> String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
        while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
        return String(slice)
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> String { String(self).trimmingCharacters() }
}
