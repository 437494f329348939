import HoldLabIO

extension ProfileLibrary {
    /// Every problem of a review file (`holdlab profiles check`), in line order: first what `ReviewFile.parse`
    /// refuses (every problem, as for a profile); then, against this library, what `holdlab report --review` would
    /// refuse: a profile or population that does not load, a `set` value or a variant that a profile or population
    /// refuses, a baseline that is none of the designs, a sweep `sweepPoints` refuses or one of whose values the
    /// baseline design (or, for a `population.…` key, the populations) refuses. Each is reported where the review
    /// writes it, with the underlying error (which may name another file) as its message.
    ///
    /// - Parameters:
    ///   - sweepPoints: a sweep's `key=value` texts, one per point (throws what is wrong with its text).
    ///   - commandLineSets: the command line's `--set` texts (`report --review FILE --set …`; none when the file
    ///     writes `set`, beside which report refuses them), applied with the file's as the run applies them, so the
    ///     file is checked as it will run: a problem they mend is none, and one they leave quotes the values the run
    ///     uses. A problem they are part of is the command line's (`ProfileError.commandLineAtFault`, said at the file's entry with the `--set`s named; 64)
    ///     unless the file alone has a problem at the same key of that design or sweep: then it is the file's.
    ///   - commandLinePopulations: the command line's `--population` names (`report --review FILE --population …`),
    ///     what the run simulates when the file writes no `populations`: its sweeps are checked against them. One
    ///     that does not load is the run's to say.
    public func reviewProblems(
        yaml text: String, path: String, checks: ReviewValueChecks? = nil, commandLineSets: [String] = [],
        commandLinePopulations: [String] = []
    ) -> [ProfileError] {
        let sweepPoints = checks?.sweepPoints
        // A key given twice is one problem each, its later value standing for the rest of the check.
        let (parsed, duplicates) = ConfigNode.parseListingDuplicates(text, path: path)
        guard let root = parsed else { return duplicates }
        // What the file's own schema refuses, with those keys set aside: the rest is still checked against the
        // library, so `users: many` does not hide an unknown profile.
        let (structural, rest) = ConfigNode.problemsAndRest(root) { root throws(ProfileError) in _ = try ReviewFile.decode(root) }
        let review: ReviewFile
        do {
            review = try ReviewFile.decode(rest)
        } catch {
            return duplicates + (structural.isEmpty ? [error] : structural)
        }
        var problems: [ProfileError] = duplicates + structural
        // Every `key=value` the file writes, by its text: an error a profile or population gives for one of them
        // (its origin is that `--set` text) is reported at the entry and key path the file writes, not as a
        // `--set` the user never typed.
        // Two variants may write the same text: the entry meant is the one of the design being loaded (`keyPath`,
        // `variants.LABEL`), else a `set` entry.
        let written = review.setsLocated + review.variants.flatMap(\.located)
        func located(_ text: String, near keyPath: String) -> ReviewFile.Located? {
            written.first { $0.text == text && $0.keyPath.hasPrefix(keyPath + ".") }
                ?? review.setsLocated.first { $0.text == text } ?? written.first { $0.text == text }
        }
        // Where an entry is written: `set` or `variants.LABEL` (its key path less its key).
        func place(_ written: ReviewFile.Located) -> Substring? {
            let key = "." + written.text.prefix { $0 != "=" }
            return written.keyPath.hasSuffix(key) ? written.keyPath.dropLast(key.count) : nil
        }
        // A value at fault with another, as a message names it: with where it is written, unless that is `same`.
        func named(_ text: String, near keyPath: String, unless same: Substring? = nil) -> String {
            if givenTexts.contains(text) { return "--set \(text)" }
            guard let other = located(text, near: keyPath), let at = place(other), at != same else { return text }
            return "\(at) \(text)"
        }
        // The earlier in the file of two entries.
        func precedes(_ a: ReviewFile.Located, _ b: ReviewFile.Located) -> Bool {
            guard case let .file(_, lineA, columnA) = a.origin, case let .file(_, lineB, columnB) = b.origin else { return false }
            return (lineA, columnA) < (lineB, columnB)
        }
        // The command line's `--set` texts, as its errors name them.
        var givenTexts: [String] = []
        // Whose a problem the command line's `--set`s are part of is: theirs (`commandLine`, 64), unless the file
        // alone (`alone` loads the design or sweep point without them) has a problem at the same key; then the file's,
        // blamed on its values alone, with the values the run uses: a trigger offset no gesture duration admits is the
        // file's whatever the `--set` makes the duration.
        func whose(_ error: ProfileError, alone: (() throws -> Void)?) -> (error: ProfileError, commandLine: Bool) {
            let given = error.origin.overrideTexts.filter(givenTexts.contains)
            guard !given.isEmpty else { return (error, false) }
            // A `--set` of the very key at fault replaces the file's value there: its problem is the command line's.
            if given.contains(where: { Override.keyPath(of: $0) == error.keyPath }) { return (error, true) }
            do {
                try alone?()
            } catch let own as ProfileError where own.keyPath == error.keyPath {
                let texts = error.origin.overrideTexts.filter { !givenTexts.contains($0) }
                return (texts.isEmpty ? own : error.blamed(on: texts), false)
            } catch {}
            return (error, true)
        }
        func append(_ found: ProfileError, commandLine: Bool) {
            var found = found
            found.commandLineAtFault = commandLine
            problems.append(found)
        }
        func problem(_ keyPath: String, _ error: Error, alone: (() throws -> Void)? = nil) {
            var error = error
            var commandLine = false
            if let given = error as? ProfileError {
                (error, commandLine) = whose(given, alone: alone)
                // The command line's `--set`s alone: said as they are, as the run says them.
                if commandLine, given.origin.overrideTexts.allSatisfy(givenTexts.contains) {
                    problems.append(given)
                    return
                }
            }
            // Reported at the entry of the key the problem is about when it is one of those at fault, else at the one
            // written first; a check across keys names its key and the other entries, each with where it is written
            // (`set`, `variants.LABEL`).
            if let error = error as? ProfileError, case let entries = error.origin.overrideTexts.compactMap({ located($0, near: keyPath) }),
               let entry = entries.first(where: { $0.keyPath.hasSuffix("." + error.keyPath) }) ?? entries.min(by: precedes) {
                let others = error.overrides(besides: [entry.text]).map { named($0, near: keyPath, unless: place(entry)) }
                let with = others.isEmpty ? "" : "with \(others.joined(separator: ", ")): "
                let direct = entry.keyPath.hasSuffix("." + error.keyPath)
                let message = with + (direct ? error.message : error.keyedMessage)
                append(ProfileError(origin: entry.origin, keyPath: entry.keyPath, message: message), commandLine: commandLine)
                return
            }
            append(ProfileError(origin: root.origin(ofReviewKey: keyPath), keyPath: keyPath, message: "\(error)"), commandLine: commandLine)
        }
        func overrides(_ sets: [String], at keyPath: String) -> [Override]? {
            do {
                return try sets.map { text throws(ProfileError) in try Override(userParsing: text) }
            } catch {
                problem(keyPath, error)
                return nil
            }
        }
        // A file that writes `set` takes no `--set` (report refuses them beside it): the file is checked as written.
        let commandLineSets = root.keys.contains("set") ? [] : commandLineSets
        guard let fileSets = overrides(review.sets, at: "set"),
              let given = try? commandLineSets.map({ text throws(ProfileError) in try Override(userParsing: text) })
        else { return problems }
        givenTexts = given.map(\.text)
        let common = fileSets + given
        let profileSets = common.filter { !$0.reachesPopulation }
        let fileProfileSets = fileSets.filter { !$0.reachesPopulation }
        var labels: [String] = []
        // Where each label is written, in the same order: a profile's entry, or the variant's key.
        var labelPaths: [String] = []
        // Each design's profile and the variant values on it: the baseline is what the sweeps vary.
        var designs: [String: (profile: String, sets: [Override])] = [:]
        var firstProfile: Profile?
        let names = review.profiles.isEmpty ? ["hig-linear-bar"] : review.profiles
        // The designs that load, by label: a baseline and the sweeps are checked against them alone.
        var loaded: Set<String> = []
        var profilesLoaded = true
        var unloadedNames: [String] = []
        var refusals: [(keyPath: String, name: String, error: ProfileError)] = []
        for (index, name) in names.enumerated() {
            let keyPath = review.profiles.isEmpty ? "profiles" : (root.isListAt("profiles") ? "profiles[\(index)]" : "profiles")
            do {
                let profile = try loadProfile(name, overrides: profileSets)
                labels.append(profile.name)
                labelPaths.append(keyPath)
                if designs[profile.name] == nil { designs[profile.name] = (name, []) }
                loaded.insert(profile.name)
                if index == 0 { firstProfile = profile }
            } catch {
                refusals.append((keyPath, name, error))
                profilesLoaded = false
                // Its label is its name, which it did not give: the name it is referred by stands for it (a library
                // profile's file is NAME.yaml), so a baseline that is neither is still reported.
                unloadedNames.append(LibraryName.stem(ofFile: name))
            }
        }
        // The `set` applies to each profile: when some take it (or refuse it otherwise), which one refuses it is part
        // of the problem; one that every profile refuses alike is said once, as is.
        let alike = refusals.count == names.count && ProfileError.refusedAlike(refusals.map { [$0.error.description] })
        for (keyPath, name, error) in refusals {
            let alone = { _ = try self.loadProfile(name, overrides: fileProfileSets) }
            if names.count > 1, error.origin.isOverride, !alike {
                let set = error.origin.overrideTexts.contains(where: givenTexts.contains) ? "--set" : "set"
                problem(keyPath, error.said(in: "profile \(name)", note: "the \(set) applies to each of the \(names.count) profiles"), alone: alone)
            } else {
                problem(keyPath, error, alone: alone)
            }
        }
        var populations: [Population] = []
        let fromCommandLine = review.populations.isEmpty && !commandLinePopulations.isEmpty
        let populationNames = !review.populations.isEmpty ? review.populations
            : fromCommandLine ? commandLinePopulations : firstProfile.map { [$0.population] } ?? []
        for (index, name) in populationNames.enumerated() {
            let keyPath = review.populations.isEmpty ? "populations" : (root.isListAt("populations") ? "populations[\(index)]" : "populations")
            // The command line's populations are the run's to load and say (66, 64).
            if fromCommandLine {
                if let population = try? loadPopulation(name), !populations.contains(where: { $0.name == population.name }) {
                    populations.append(population)
                }
                continue
            }
            do {
                // The first profile's own population: an unknown name is that profile's problem, at its line.
                if review.populations.isEmpty, let firstProfile { try checkPopulation(of: firstProfile) }
                let population = try loadPopulation(name)
                // The same population twice, by name or by path: report takes each once.
                if populations.contains(where: { $0.name == population.name }) {
                    problem(keyPath, ReviewProblem("\(population.name) is given twice; give each population once"))
                    continue
                }
                populations.append(population)
            } catch {
                problem(keyPath, error)
            }
        }
        var populationsLoaded = !populationNames.isEmpty && populations.count == populationNames.count
        if populationsLoaded {
            do { _ = try Population.applying(common, to: populations) } catch {
                problem("set", error, alone: { [populations] in _ = try Population.applying(fileSets, to: populations) })
                populationsLoaded = false
            }
        }
        for variant in review.variants {
            let keyPath = "variants.\(variant.label)"
            labels.append(variant.label)
            labelPaths.append(keyPath)
            guard let sets = overrides(variant.sets, at: keyPath) else { continue }
            designs[variant.label] = (names[0], sets)
            if let key = sets.first(where: \.reachesPopulation) {
                problem(keyPath, ReviewProblem("sets \(key.keyPath): a variant changes the control, and every design meets the same people; set a population value for all designs in set"))
                continue
            }
            // A key both `set` and the variant give: which would win is not the file's to leave unsaid (report
            // refuses the same as `--set` beside `--variant`). Reported at the variant's entry; the command line's
            // when its `--set` gives it.
            if let (index, key) = sets.enumerated().first(where: { _, key in common.contains { KeyPaths.overlap($0.keyPath, key.keyPath) } }) {
                let entry = variant.located[index]
                let given = !fileSets.contains { KeyPaths.overlap($0.keyPath, key.keyPath) }
                append(ProfileError(origin: entry.origin, keyPath: entry.keyPath,
                                    message: "\(key.keyPath) is also given by \(given ? "--set" : "set"); give it in one place"),
                       commandLine: given)
                continue
            }
            if firstProfile != nil {
                do {
                    _ = try loadProfile(names[0], overrides: profileSets + sets.filter { !$0.reachesPopulation })
                    loaded.insert(variant.label)
                } catch {
                    problem(keyPath, error, alone: { _ = try self.loadProfile(names[0], overrides: fileProfileSets + sets) })
                }
            }
        }
        // A review compares designs: a file that gives both its profiles and its variants leaves none to the command
        // line (`report --variant` beside it is refused), so one design is the file's fault. (Without `variants`,
        // `report --variant` adds them: `report` checks the designs it ends with, `oneDesignProblem`.)
        if root.keys.contains("profiles"), root.keys.contains("variants"), let problem = Self.oneDesignProblem(root, designs: names.count + review.variants.count) {
            problems.append(problem)
        }
        // What report refuses of the designs as a whole, at the entry that makes it so.
        for variant in review.variants where variant.sets.isEmpty {
            problem("variants.\(variant.label)", ReviewProblem("gives no key: value; a variant changes at least one key of the first profile"))
        }
        var labelled: Set<String> = []
        for (label, keyPath) in zip(labels, labelPaths) where !labelled.insert(label).inserted {
            problem(keyPath, ReviewProblem("two designs are labelled '\(label)'; give each profile once, and each variant another label"))
        }
        var sweptKeys: Set<String> = []
        for sweep in review.sweeps {
            let key = sweep.text.split(separator: "=", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if !sweptKeys.insert(key).inserted {
                problems.append(ProfileError(origin: sweep.origin, keyPath: sweep.keyPath,
                                             message: "\(key) is swept twice; give each key one sweep"))
            }
        }
        // The decision rule: what to prefer, and each guardrail with it.
        if let rule = checks?.rule {
            // A guardrail is checked against the file's `prefer` when that one is good, else the default's: a bad
            // `prefer` is one problem, at its own line.
            var prefer = review.prefer?.text
            if let located = review.prefer {
                do { try rule(located.text, nil) } catch {
                    problems.append(ProfileError(origin: located.origin, keyPath: located.keyPath, message: "\(error)"))
                    prefer = nil
                }
            }
            for located in review.guards ?? [] {
                do { try rule(prefer, located.text) } catch {
                    problems.append(ProfileError(origin: located.origin, keyPath: located.keyPath, message: "\(error)"))
                }
            }
        }
        // Every design's label is known once every profile loaded (a profile's label is its name, read from it).
        if let baseline = review.baseline, !labels.contains(baseline), profilesLoaded || !unloadedNames.contains(baseline) {
            problem("baseline", ReviewProblem("\(baseline) is none of the designs: \((labels + unloadedNames).joined(separator: ", "))"))
        }
        // A baseline that is none of the designs (reported above) leaves the sweeps to the first profile's values.
        let baselineLabel = review.baseline.flatMap { labels.contains($0) ? $0 : nil } ?? firstProfile?.name
        let baseline = baselineLabel.flatMap { designs[$0] }
        // Values are tried only on a baseline that loaded (and populations that did): otherwise each would repeat
        // the design's problem.
        let designsLoaded = baselineLabel.map(loaded.contains) ?? false
        for sweep in review.sweeps {
            guard let sweepPoints else { continue }
            func refuse(_ message: String, commandLine: Bool = false) {
                append(ProfileError(origin: sweep.origin, keyPath: sweep.keyPath, message: message), commandLine: commandLine)
            }
            let points: [String]
            do { points = try sweepPoints(sweep.text) } catch {
                // The message without the `--vary TEXT: ` a command line's sweep gets: the file says where.
                let message = "\(error)"
                let prefix = "--vary \(sweep.text): "
                refuse(message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message)
                continue
            }
            // A report sweeps against its first population alone.
            if populationsLoaded, let key = points.first.map(Override.keyPath(of:)),
               let problem = Population.sweepProblem(key, among: populations) {
                refuse(problem, commandLine: fromCommandLine)
                continue
            }
            guard designsLoaded, let baseline else { continue }
            // The first value that does not load, unless a later one is a value its key never takes (said wherever
            // it stands, so what is said does not depend on the values' order).
            var first: (message: String, commandLine: Bool)?
            for point in points {
                // The point's value on the baseline, with the command line's `--set`s or (`fileAlone`) without.
                func load(fileAlone: Bool) throws(ProfileError) {
                    let value = try Override(parsing: point)
                    if value.reachesPopulation {
                        // Against the first population, with the values every population has (as report runs it).
                        if populationsLoaded {
                            let first = try Population.applying(fileAlone ? fileSets : common, to: populations)[0]
                            _ = try Population.applying([value], to: [first])
                        }
                    } else {
                        _ = try loadProfile(baseline.profile, overrides: (fileAlone ? fileProfileSets : profileSets) + baseline.sets + [value])
                    }
                }
                do {
                    try load(fileAlone: false)
                } catch {
                    let (error, commandLine) = whose(error, alone: { try load(fileAlone: true) })
                    // The value as the sweep writes it, then what is wrong with it by key path, the other values at
                    // fault named where they are written (a variant baseline's, the command line's).
                    let message: String
                    if error.origin.isOverride {
                        let others = error.overrides(besides: [point]).map { named($0, near: "variants.\(baselineLabel ?? "")") }
                        let with = others.isEmpty ? "" : " with \(others.joined(separator: ", "))"
                        message = "\(point)\(with): " + error.keyedMessage
                    } else {
                        message = "\(point): \(error)"
                    }
                    if error.isOwnValue(among: [point]) {
                        first = nil
                        refuse(message, commandLine: commandLine)
                        break
                    }
                    first = first ?? (message, commandLine)
                }
            }
            if let first { refuse(first.message, commandLine: first.commandLine) }
        }
        // A `set:` every profile refuses alike is one problem, not one per profile.
        var seen: [ProfileError] = []
        for problem in problems where !seen.contains(problem) { seen.append(problem) }
        return ProfileError.inLineOrder(seen)
    }
}

/// What a review's values are checked with beyond the library (the studies' own rules, which this module does not
/// know): a sweep's points (its `key=value` texts, or it throws what is wrong with its text), and the decision rule
/// (`prefer`, nil for the default, with one guardrail or none; it throws what is wrong). `holdlab profiles check`
/// and `holdlab report --review` check with the same.
public struct ReviewValueChecks: Sendable {
    public var sweepPoints: @Sendable (String) throws -> [String]
    public var rule: @Sendable (_ prefer: String?, _ guardrail: String?) throws -> Void

    public init(sweepPoints: @escaping @Sendable (String) throws -> [String],
                rule: @escaping @Sendable (_ prefer: String?, _ guardrail: String?) throws -> Void) {
        self.sweepPoints = sweepPoints
        self.rule = rule
    }
}

/// A problem of a review found against the library, as a message.
private struct ReviewProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension ConfigNode {
    /// Whether the top-level key holds a list.
    fileprivate func isListAt(_ key: String) -> Bool {
        guard case .mapping(let pairs, _) = self, case .sequence? = pairs.first(where: { $0.key == key })?.value else {
            return false
        }
        return true
    }

    /// Where a review writes `key`, `key[i]` or `variants.LABEL` (the document when it is absent).
    fileprivate func origin(ofReviewKey keyPath: String) -> Origin {
        guard case .mapping(let pairs, let origin) = self else { return self.origin }
        var key = keyPath
        var index: Int?
        if key.hasSuffix("]"), let open = key.lastIndex(of: "[") {
            index = Int(key[key.index(after: open)..<key.index(before: key.endIndex)])
            key = String(key[..<open])
        }
        var label: String?
        if key.hasPrefix("variants.") {
            label = String(key.dropFirst("variants.".count))
            key = "variants"
        }
        guard let node = pairs.first(where: { $0.key == key })?.value else { return origin }
        if let index, case .sequence(let items, _) = node, items.indices.contains(index) { return items[index].origin }
        if let label, case .mapping(let entries, _) = node, let entry = entries.first(where: { $0.key == label }) {
            return entry.value.origin
        }
        return node.origin
    }
}

extension ProfileLibrary {
    /// The problem of a review that ends with fewer than two designs (`designs`, its own and the command line's):
    /// reported where the file gives them (`variants`, else `profiles`, else its first line), as `report` would
    /// otherwise refuse it as `compare` does, without a place. Nil with two or more.
    public static func oneDesignProblem(yaml text: String, path: String, designs: Int) -> ProfileError? {
        guard designs < 2, let root = try? ConfigNode.parse(text, path: path) else { return nil }
        return oneDesignProblem(root, designs: designs)
    }

    static func oneDesignProblem(_ root: ConfigNode, designs: Int) -> ProfileError? {
        guard designs < 2 else { return nil }
        let keyPath = root.keys.contains("variants") ? "variants" : "profiles"
        return ProfileError(origin: root.origin(ofReviewKey: keyPath), keyPath: keyPath,
                            message: "a review compares at least two designs, and this one has \(designs == 1 ? "one" : "none"); "
                                + "give a second profile in profiles, or a variant of the first in variants (or --variant beside a file without variants)")
    }
}
