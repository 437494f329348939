import Foundation

/// The three kinds of YAML file a profile library holds.
public enum LibraryFileKind: String, Sendable, Equatable, CaseIterable {
    /// A control profile (`Profiles/*.yaml`).
    case profile
    /// A population of synthetic people (`Profiles/populations/*.yaml`): it has `classes`.
    case population
    /// A design review for `holdlab report --review` (`Profiles/reviews/*.yaml`): no `version`, review keys.
    case review
}

/// What `holdlab profiles check` found in one file: valid (with its kind and name), or every problem in it.
public enum ProfileFileCheck: Sendable, Equatable {
    /// A valid file: a profile's or population's `name`, a review's file name without `.yaml`.
    case valid(path: String, name: String, kind: LibraryFileKind)
    /// Every problem of the file: after a problem the key is taken as absent (its default) and the file checked
    /// again (``Profile/problems(yaml:path:overrides:)``).
    case invalid(path: String, problems: [ProfileError])
}

extension ProfileLibrary {
    /// The kind of a library file, from its content, else from its folder: a mapping with `classes` is a
    /// population; one without `version` that has a review key (`question`, `profiles`, `variants`, …) is a review;
    /// otherwise a file in a `populations` or `reviews` folder is of that kind, and anything else (standard input
    /// included) a profile.
    public static func kind(of text: String, path: String) -> LibraryFileKind {
        // Keys given twice do not hide what kind of file it is.
        let keys = ConfigNode.parseListingDuplicates(text, path: path).root?.keys ?? []
        if let kind = contentKind(keys), kind != .profile { return kind }
        // Standard input has no folder (the working directory's name says nothing about it).
        guard path != standardInput else { return .profile }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().lastPathComponent
        if folder == "populations" { return .population }
        if folder == "reviews" { return .review }
        return .profile
    }

    /// The kind a mapping's top-level keys say a file is, or nil when they do not say: `classes` makes a population;
    /// a review key (`question`, `profiles`, `variants`, …) without `version` a review; a key only a profile has
    /// (`profileOnlyKeys`) a profile.
    static func contentKind(_ keys: [String]) -> LibraryFileKind? {
        if keys.contains("classes") { return .population }
        if !keys.contains("version"), keys.contains(where: ReviewFile.keys.contains) { return .review }
        if keys.contains(where: profileOnlyKeys.contains) { return .profile }
        return nil
    }

    /// Keys only a profile has.
    static let profileOnlyKeys = ["gesture", "trigger", "fill", "retract", "haptics", "display"]

    /// The problem of a file read as `expected` that is a CSV (holdlab's output, a telemetry export), no YAML mapping
    /// at all ("must be a mapping (got a scalar)" said nothing of what it is); nil for anything else.
    static func csvProblem(_ text: String, path: String, expected: LibraryFileKind) -> ProfileError? {
        if case .mapping? = ConfigNode.parseListingDuplicates(text, path: path).root { return nil }
        let lines = text.split(separator: "\n").lazy.map { $0.trimmingCharacters(in: .whitespaces) }
        guard let header = lines.first(where: { !$0.isEmpty && !$0.hasPrefix("#") }), header.contains(","),
              !header.contains(":") || text.hasPrefix("# holdlab:") else { return nil }
        let made = text.hasPrefix("# holdlab:") ? "holdlab's output" : "rows of values"
        let page = expected == .population ? "POPULATIONS" : expected == .review ? "REPORT" : "PROFILES"
        return ProfileError(origin: .file(path: path, line: 1, column: 1), keyPath: "",
                            message: "this is a CSV file (\(made)), not a \(expected.rawValue): a \(expected.rawValue) is a YAML mapping (docs/\(page).md)")
    }

    /// The problem of a file read as `expected` that its content shows to be another kind (a population given as a
    /// profile: its `version: 2` was refused as a profile's unsupported schema; a CSV, `csvProblem`), said at the
    /// file's first line with where that kind goes; nil when it is of the kind, or does not say what it is. Asked only
    /// of a file that failed to load, so a valid file never meets it.
    public static func wrongKindProblem(_ text: String, path: String, expected: LibraryFileKind) -> ProfileError? {
        if let csv = csvProblem(text, path: path, expected: expected) { return csv }
        let keys = ConfigNode.parseListingDuplicates(text, path: path).root?.keys ?? []
        guard let found = contentKind(keys), found != expected else { return nil }
        let what: String
        switch found {
        case .population: what = "a population file (it has classes:), not a \(expected.rawValue); give it with --population \(path) "
            + "to a command that simulates, or check it with holdlab profiles check \(path)"
        case .review: what = "a review file (\(keys.filter(ReviewFile.keys.contains).prefix(3).map { "\($0):" }.joined(separator: ", "))), "
            + "not a \(expected.rawValue); run it with holdlab report --review \(path), or check it with holdlab profiles check"
        case .profile: what = "a profile (\(keys.filter(Self.profileOnlyKeys.contains).prefix(3).map { "\($0):" }.joined(separator: ", "))), "
            + "not a \(expected.rawValue); give it with --profile \(path) to a command that simulates, or check it with holdlab profiles check \(path)"
        }
        return ProfileError(origin: .file(path: path, line: 1, column: 1), keyPath: "", message: "this is \(what)")
    }

    /// Checks a profile, population or review file, or a profile or population of the library by name (`-`:
    /// standard input). The kind comes from the content (``kind(of:path:)``).
    ///
    /// A profile gets the overrides that are not population keys; a population the population keys
    /// (`population.CLASS.key…`). A review is checked as `holdlab report --review` reads it, then against the
    /// library: the profiles and populations it names load, its `set` values and variants apply to them, its
    /// baseline is one of its designs and each sweep's values apply (`reviewChecks`: each sweep's values and the decision rule),
    /// with the overrides as `report --review FILE --set …` applies them (a problem they are part of is theirs).
    ///
    /// - Throws: `ProfileError` for a name the library does not have (with suggestions) or a file that cannot be
    ///   read (`cannotOpen`), and for a file that has no problem to list yet does not load.
    public func check(
        _ fileOrName: String, overrides: [Override] = [], reviewChecks: ReviewValueChecks? = nil
    ) throws(ProfileError) -> ProfileFileCheck {
        var path = profilePath(fileOrName)
        // A name that is not in the library gets the library's error (with suggestions); a file is read.
        if !Self.isFilePath(fileOrName), !fileExists(path) {
            if fileExists(populationPath(fileOrName)) {
                path = populationPath(fileOrName)
            } else {
                _ = try loadProfile(fileOrName)
            }
        }
        let display = Self.displayPath(path)
        let folder = path == Self.standardInput ? "" : URL(fileURLWithPath: path).deletingLastPathComponent().lastPathComponent
        let text = try Self.read(path, what: folder == "populations" ? "population" : folder == "reviews" ? "review" : "profile")
        let profileOverrides = overrides.filter { !$0.reachesPopulation }
        switch Self.kind(of: text, path: path) {
        case .profile:
            var problems = Profile.problems(yaml: text, path: display, overrides: profileOverrides)
            // A CSV is no YAML mapping at all: say so, not "must be a mapping (got a scalar)".
            if !problems.isEmpty, let csv = Self.csvProblem(text, path: display, expected: .profile) {
                return .invalid(path: display, problems: [csv])
            }
            guard problems.isEmpty else {
                // The population it names is the library's question, which the other problems leave open: asked of
                // the file's own `population:` (a text), unless an override or a problem of its own stands there.
                if !problems.contains(where: { $0.keyPath == "population" }),
                   !profileOverrides.contains(where: { $0.keyPath == "population" }),
                   case .mapping(let pairs, _)? = try? ConfigNode.parse(text, path: display),
                   case .scalar(let name, _, let origin)? = pairs.first(where: { $0.key == "population" })?.value,
                   let problem = populationProblem(named: name, at: origin) {
                    problems = ProfileError.inLineOrder(problems + [problem])
                }
                return .invalid(path: display, problems: problems)
            }
            let profile = try Profile.load(yaml: text, path: display, overrides: profileOverrides)
            if let problem = populationProblem(of: profile) { return .invalid(path: display, problems: [problem]) }
            if let problem = libraryNameProblem(profile.name, file: path, text: text, in: directory) {
                return .invalid(path: display, problems: [problem])
            }
            return .valid(path: display, name: profile.name, kind: .profile)
        case .population:
            let problems = Population.problems(yaml: text, path: display, overrides: overrides)
            guard problems.isEmpty else { return .invalid(path: display, problems: problems) }
            let population = try Population.load(yaml: text, path: display)
            if let problem = libraryNameProblem(population.name, file: path, text: text, in: directory + "/populations") {
                return .invalid(path: display, problems: [problem])
            }
            return .valid(path: display, name: population.name, kind: .population)
        case .review:
            // The `--set`s as `report --review FILE --set …` applies them, to a review that writes no `set` (report
            // refuses them beside one).
            if let given = overrides.first, ConfigNode.parseListingDuplicates(text, path: display).root?.keys.contains("set") == true {
                return .invalid(path: display, problems: [ProfileError(
                    origin: .override(given.text), keyPath: given.keyPath,
                    message: "the review writes set, and report refuses --set beside it; give the values in one place")])
            }
            let problems = reviewProblems(yaml: text, path: display, checks: reviewChecks, commandLineSets: overrides.map(\.text))
            guard problems.isEmpty else { return .invalid(path: display, problems: problems) }
            let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            return .valid(path: display, name: path == Self.standardInput ? "review" : stem, kind: .review)
        }
    }
}
