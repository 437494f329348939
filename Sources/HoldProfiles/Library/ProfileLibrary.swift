import Foundation
import HoldLabIO

/// Finds profiles and populations by name or path.
///
/// A name is looked up as `<directory>/<name>.yaml` (populations in `<directory>/populations/`); an argument that
/// contains `/` or ends in `.yaml`/`.yml` is a file path, except `vN/NAME`: a population as schema version N shipped it.
public struct ProfileLibrary: Sendable {
    /// The directory holding control profiles.
    public let directory: String
    /// Files that stand for profile arguments, by the argument as written (a report folder's carried inputs,
    /// `report --inputs`): a name or path found here is read from its file instead of the library or the path.
    public var profileFiles: [String: String] = [:]
    /// The same for population arguments.
    public var populationFiles: [String: String] = [:]

    public init(directory: String) {
        self.directory = directory
    }

    /// The library to use: `HOLDLAB_PROFILES` if set, else `./Profiles` if it exists, else the `Profiles`
    /// directory next to the executable's package (found by walking up from the executable and from the
    /// source tree it was built from).
    public static func discover(executablePath: String? = nil, sourceFile: String = #filePath) -> ProfileLibrary {
        ProfileLibrary(directory: packageFolder(
            "Profiles", environment: "HOLDLAB_PROFILES", executablePath: executablePath, sourceFile: sourceFile))
    }

    /// A folder of this package (`Profiles`, `Notebooks`): the environment variable if set, else `./NAME` if it
    /// exists, else the first `NAME` beside a `Package.swift` found walking up from the executable, then from
    /// `sourceFile`; `./NAME` when none is found (so the error names where it looked).
    public static func packageFolder(
        _ name: String, environment variable: String, executablePath: String?, sourceFile: String
    ) -> String {
        if let explicit = ProcessInfo.processInfo.environment[variable], !explicit.isEmpty { return explicit }
        let manager = FileManager.default
        func isDirectory(_ path: String) -> Bool {
            var flag: ObjCBool = false
            return manager.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
        }
        let current = manager.currentDirectoryPath + "/" + name
        if isDirectory(current) { return current }
        var starts: [URL] = []
        if let executablePath { starts.append(URL(fileURLWithPath: executablePath).deletingLastPathComponent()) }
        starts.append(URL(fileURLWithPath: sourceFile).deletingLastPathComponent())
        for start in starts {
            var directory = start.standardizedFileURL
            while directory.path != "/" {
                let candidate = directory.appendingPathComponent(name).path
                if isDirectory(candidate), manager.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                    return candidate
                }
                directory.deleteLastPathComponent()
            }
        }
        return current
    }

    /// Where a name was looked for and what is there (`in F (did you mean x?); known: a, b`), or that the folder
    /// does not exist or is a file: a mistyped `--profiles-dir` or `HOLDLAB_PROFILES`, where "known:" would be empty.
    static func lookedIn(_ folder: String, for given: String, among names: [String]) -> String {
        if let problem = Folder.problem(folder) {
            return "in \(folder): \(problem) (the library is --profiles-dir, else HOLDLAB_PROFILES, else ./Profiles)"
        }
        return "in \(folder)\(Suggestions.didYouMean(given, among: names)); known: \(names.joined(separator: ", "))"
    }

    /// `-`: a profile or population read from standard input.
    public static let standardInput = "-"

    /// How errors name a path: `standard input` for `-`.
    public static func displayPath(_ path: String) -> String { path == standardInput ? "standard input" : path }

    /// Whether the argument names a file (or standard input) rather than a library entry.
    public static func isFilePath(_ argument: String) -> Bool { isPath(argument) }

    /// Whether the argument names a file rather than a library entry.
    static func isPath(_ argument: String) -> Bool {
        argument == standardInput || argument.contains("/") || argument.hasSuffix(".yaml") || argument.hasSuffix(".yml")
    }

    /// The file for a profile name or path.
    public func profilePath(_ nameOrPath: String) -> String {
        if let file = profileFiles[nameOrPath] { return file }
        return Self.isPath(nameOrPath) ? nameOrPath : "\(directory)/\(nameOrPath).yaml"
    }

    /// The file for a population name or path. `vN/NAME` names the population NAME as schema version N shipped it
    /// (`populations/v1/default.yaml`): what a figure cited from an earlier HoldLab was simulated with.
    public func populationPath(_ nameOrPath: String) -> String {
        if let file = populationFiles[nameOrPath] { return file }
        if Self.isArchivedPopulation(nameOrPath) { return "\(directory)/populations/\(nameOrPath).yaml" }
        return Self.isPath(nameOrPath) ? nameOrPath : "\(directory)/populations/\(nameOrPath).yaml"
    }

    /// Whether the argument is `vN/NAME`: a digit string after `v`, one slash, a name without dots or slashes.
    static func isArchivedPopulation(_ argument: String) -> Bool {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count > 1, parts[0].first == "v", parts[0].dropFirst().allSatisfy(\.isASCII),
              parts[0].dropFirst().allSatisfy(\.isNumber), !parts[1].isEmpty else { return false }
        return parts[1].allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
    }

    /// Names of the profiles in the library, sorted.
    public func profileNames() -> [String] { yamlStems(in: directory) }

    /// Names of the populations in the library, sorted.
    public func populationNames() -> [String] { yamlStems(in: "\(directory)/populations") }

    /// The names of a folder's `NAME.yaml` files that name them: not a stem that reads as a path (`-.yaml` would
    /// be standard input, `x.yaml.yaml` the file `x.yaml` of the working directory), which only its path reaches.
    private func yamlStems(in directory: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return entries.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.filter { !Self.isPath($0) }.sorted()
    }

    func fileExists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// The largest profile or population file read, in bytes (1 MiB: shipped profiles are about 1 KiB). Larger
    /// files are refused before they are parsed, so no input can make the YAML reader's time or memory grow.
    public static let maximumYAMLBytes = 1 << 20

    /// Reads a file as UTF-8 text, with an error that names it (`BoundedFile.read`).
    ///
    /// - Parameter limit: the most bytes read; a longer file (or an endless device) is refused, having read only
    ///   `limit + 1` bytes. Default: `maximumYAMLBytes`.
    ///   - input: false for a file the run reads back to replace it (a sweep's file to `--resume`): it is not
    ///     recorded as an input no output may replace (`InputFiles`).
    /// - Throws: `ProfileError` with `cannotOpen` for a missing, unreadable or directory path (exit 66); without it
    ///   for a file that is too large or not UTF-8 (exit 65).
    public static func read(_ path: String, what: String, limit: Int = maximumYAMLBytes, input: Bool = true) throws(ProfileError) -> String {
        do {
            return try BoundedFile.read(path, what: what, limit: limit, input: input)
        } catch {
            let origin: Origin = error.line.map { .file(path: error.path, line: $0, column: 1) } ?? .unknown(path: error.path)
            throw ProfileError(origin: origin, keyPath: "", message: error.message, cannotOpen: error.cannotOpen)
        }
    }

    /// Loads a profile by name or path, applying overrides.
    public func loadProfile(_ nameOrPath: String, overrides: [Override] = []) throws(ProfileError) -> Profile {
        try loadProfileWithText(nameOrPath, overrides: overrides).profile
    }

    /// Loads a profile by name or path, applying overrides, with the file's text as read: a command that loads the
    /// profile again for each point of a study (`sweep`, `tune`) loads it from this text, so every point, and the
    /// hash its provenance records, is of the one file that was read, whatever happens to the file meanwhile.
    public func loadProfileWithText(_ nameOrPath: String,
                                    overrides: [Override] = []) throws(ProfileError) -> (profile: Profile, text: String) {
        let path = profilePath(nameOrPath)
        let text = try profileText(nameOrPath)
        let profile: Profile
        do {
            profile = try Profile.load(yaml: text, path: Self.displayPath(path), overrides: overrides)
        } catch where !error.origin.isOverride {
            throw Self.wrongKindProblem(text, path: Self.displayPath(path), expected: .profile) ?? error
        }
        if let problem = libraryNameProblem(profile.name, file: path, text: text, in: directory) { throw problem }
        return (profile, text)
    }

    /// Loads several profiles by name or path with the same overrides, with their texts (`loadProfileWithText`).
    /// With more than one, a `--set` that one of them cannot take is said of that profile: the message alone names
    /// the `--set` and the key, which another of the profiles may take as is. One that every profile refuses alike
    /// is said as it is (naming one would suggest the others take it).
    public func loadProfilesWithText(_ namesOrPaths: [String],
                                     overrides: [Override] = []) throws(ProfileError) -> [(profile: Profile, text: String)] {
        var loaded: [(profile: Profile, text: String)] = []
        for nameOrPath in namesOrPaths {
            do {
                loaded.append(try loadProfileWithText(nameOrPath, overrides: overrides))
            } catch where namesOrPaths.count > 1 && error.origin.isOverride {
                let refusal = error
                let alike = namesOrPaths.allSatisfy { other in
                    do throws(ProfileError) {
                        _ = try loadProfileWithText(other, overrides: overrides)
                        return false
                    } catch {
                        return error.description == refusal.description
                    }
                }
                throw alike ? refusal : refusal.said(ofProfile: nameOrPath, among: namesOrPaths.count)
            }
        }
        return loaded
    }

    /// The text of a profile by name or path, as read: a name the library's folder lacks is refused with what the
    /// folder holds (or that the folder is missing), not as a missing file. Everything that reads a profile reads it
    /// here (`loadProfileWithText`, a review's carried inputs).
    public func profileText(_ nameOrPath: String) throws(ProfileError) -> String {
        try text(nameOrPath, what: "profile", path: profilePath(nameOrPath), folder: directory, given: profileFiles,
                 names: profileNames)
    }

    /// The text of a population by name or path, as `profileText` reads a profile's.
    public func populationText(_ nameOrPath: String) throws(ProfileError) -> String {
        try text(nameOrPath, what: "population", path: populationPath(nameOrPath), folder: directory + "/populations",
                 given: populationFiles, names: populationNames)
    }

    /// A library file's text: a name that no file of `folder` (nor of the files given, `given`) has is refused with
    /// the names it could be (exit 66), a path or a found name is read.
    private func text(_ nameOrPath: String, what: String, path: String, folder: String, given: [String: String],
                      names: () -> [String]) throws(ProfileError) -> String {
        if !Self.isPath(nameOrPath), given[nameOrPath] == nil, !fileExists(path) {
            // `--profile rates.csv` beside a file of that name: it was read as a library name (no '/', no .yaml).
            let here = fileExists(nameOrPath)
                ? "; a file \(nameOrPath) is here, but a name without '/' or .yaml is looked up in the library: give ./\(nameOrPath) to read it as a \(what) file"
                : ""
            throw ProfileError(
                origin: .unknown(path: nameOrPath), keyPath: "",
                message: "no \(what) of that name " + Self.lookedIn(folder, for: nameOrPath, among: names()) + here,
                cannotOpen: true)
        }
        return try Self.read(path, what: what)
    }

    /// Whether `path` is a file of the library's folder `folder` (not one given by a path elsewhere, nor a review
    /// folder's input): its name is how the library finds it.
    func libraryFile(_ path: String, in folder: String) -> Bool {
        guard path != Self.standardInput, !profileFiles.values.contains(path), !populationFiles.values.contains(path) else {
            return false
        }
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.resolvingSymlinksInPath()
        return parent == URL(fileURLWithPath: folder).standardizedFileURL.resolvingSymlinksInPath()
    }

    /// `nameProblem` for a file of the library's folder `folder` (`libraryFile`); nil for any other file, whose name
    /// is not how it is found.
    func libraryNameProblem(_ name: String, file path: String, text: String, in folder: String) -> ProfileError? {
        libraryFile(path, in: folder) ? Self.nameProblem(name, file: path, text: text) : nil
    }

    /// The problem of a library file whose `name` is not its file name (docs/PROFILES.md: the file is NAME.yaml):
    /// the library finds a file by its name, so `misnamed.yaml` naming itself `wrongname` would be listed as
    /// `misnamed`, label its rows `wrongname`, and not be found as `wrongname`. Reported at the `name:` line; nil
    /// when they agree.
    static func nameProblem(_ name: String, file path: String, text: String) -> ProfileError? {
        let stem = LibraryName.stem(ofFile: path)
        guard name != stem else { return nil }
        let display = displayPath(path)
        var origin = Origin.unknown(path: display)
        if case .mapping(let pairs, _)? = try? ConfigNode.parse(text, path: display),
           let node = pairs.first(where: { $0.key == "name" })?.value {
            origin = node.origin
        }
        // A file name that is no name (`#x.yaml`) can only be renamed.
        let advice = LibraryName.isValid(stem) ? "rename the file or set name: \(stem)" : "rename the file to \(name).yaml"
        return ProfileError(origin: origin, keyPath: "name", message: "'\(name)' is not the file's name, \(stem): the library finds a file by its name (NAME.yaml); \(advice)")
    }

    /// The population a profile names (`population:`), for a run that gives no `--population`: an unknown one is
    /// reported at the profile's line (`populationProblem`), not as a missing file in the population folder.
    public func loadPopulation(of profile: Profile) throws(ProfileError) -> Population {
        if let problem = populationProblem(of: profile) { throw problem }
        return try loadPopulation(profile.population)
    }

    /// Throws the problem with the population `profile` names, if the run is about to use it.
    public func checkPopulation(of profile: Profile) throws(ProfileError) {
        if let problem = populationProblem(of: profile) { throw problem }
    }

    /// The problem with the population a profile names when the library cannot find it, reported where the profile
    /// names it (its `population:` line, or the `--set` that gave it) rather than as a missing population file: the
    /// file to change is the profile. Nil when the population exists, or the profile leaves the key at its default.
    public func populationProblem(of profile: Profile) -> ProfileError? {
        guard let origin = profile.populationOrigin else { return nil }
        return populationProblem(named: profile.population, at: origin)
    }

    /// The problem with a population named `name` at `origin` (a profile's `population:`), nil when the library
    /// finds it: `profiles check` reports it beside a profile's other problems, which leave no `Profile` to ask.
    func populationProblem(named name: String, at origin: Origin) -> ProfileError? {
        guard name != Self.standardInput, populationFiles[name] == nil, !fileExists(populationPath(name)) else { return nil }
        if Self.isPath(name), !Self.isArchivedPopulation(name) {
            return ProfileError(origin: origin, keyPath: "population", message: "no population file '\(name)'")
        }
        let names = populationNames()
        return ProfileError(
            origin: origin, keyPath: "population",
            message: "no population '\(name)' " + Self.lookedIn(directory + "/populations", for: name, among: names))
    }

    /// `holdlab profiles show`: the profile resolved (every key with its default, overrides applied) as YAML, after
    /// a comment naming its file and the hash of the resolved profile.
    public func resolvedText(_ nameOrPath: String, overrides: [Override] = []) throws(ProfileError) -> String {
        let profile = try loadProfile(nameOrPath, overrides: overrides)
        // What it prints must load back: not with a population the library lacks (`profiles check` refuses it).
        try checkPopulation(of: profile)
        return "# \(profilePath(nameOrPath)) (resolved, fnv1a64:\(profile.contentHash))\n" + profile.canonicalYAML
    }
}
