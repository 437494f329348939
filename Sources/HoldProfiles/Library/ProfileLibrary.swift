import Foundation

/// Finds profiles and populations by name or path.
///
/// A name is looked up as `<directory>/<name>.yaml` (populations in `<directory>/populations/`); an argument that
/// contains `/` or ends in `.yaml`/`.yml` is a file path.
public struct ProfileLibrary: Sendable {
    /// The directory holding control profiles.
    public let directory: String

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

    /// Whether the argument names a file rather than a library entry.
    static func isPath(_ argument: String) -> Bool {
        argument.contains("/") || argument.hasSuffix(".yaml") || argument.hasSuffix(".yml")
    }

    /// The file for a profile name or path.
    public func profilePath(_ nameOrPath: String) -> String {
        Self.isPath(nameOrPath) ? nameOrPath : "\(directory)/\(nameOrPath).yaml"
    }

    /// The file for a population name or path.
    public func populationPath(_ nameOrPath: String) -> String {
        Self.isPath(nameOrPath) ? nameOrPath : "\(directory)/populations/\(nameOrPath).yaml"
    }

    /// Names of the profiles in the library, sorted.
    public func profileNames() -> [String] { yamlStems(in: directory) }

    /// Names of the populations in the library, sorted.
    public func populationNames() -> [String] { yamlStems(in: "\(directory)/populations") }

    private func yamlStems(in directory: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return entries.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
    }

    func fileExists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// Reads a file as UTF-8 text, with an error that names it.
    public static func read(_ path: String, what: String) throws(ProfileError) -> String {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ProfileError(origin: .unknown(path: path), keyPath: "", message: "no such \(what) file")
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw ProfileError(origin: .unknown(path: path), keyPath: "", message: "cannot read the \(what) file as UTF-8 text")
        }
        return text
    }

    /// Loads a profile by name or path, applying overrides.
    public func loadProfile(_ nameOrPath: String, overrides: [Override] = []) throws(ProfileError) -> Profile {
        let path = profilePath(nameOrPath)
        if !Self.isPath(nameOrPath), !FileManager.default.fileExists(atPath: path) {
            let known = profileNames().joined(separator: ", ")
            throw ProfileError(
                origin: .unknown(path: nameOrPath), keyPath: "",
                message: "no profile of that name in \(directory); known: \(known)")
        }
        return try Profile.load(yaml: try Self.read(path, what: "profile"), path: path, overrides: overrides)
    }
}
