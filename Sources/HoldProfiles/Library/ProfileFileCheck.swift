import Foundation

/// What `holdlab profiles check` found in one file: valid (with the profile's name), or every problem in it.
public enum ProfileFileCheck: Sendable, Equatable {
    case valid(path: String, name: String)
    /// Every problem of the file: after a problem the key is taken as absent (its default) and the file checked
    /// again (``Profile/problems(yaml:path:overrides:)``).
    case invalid(path: String, problems: [ProfileError])
}

extension ProfileLibrary {
    /// Checks a profile file, or a profile of the library by name (`-`: standard input).
    ///
    /// - Throws: `ProfileError` for a name the library does not have (with suggestions) or a file that cannot be
    ///   read (`cannotOpen`), and for a profile that has no problem to list yet does not load.
    public func check(_ fileOrName: String, overrides: [Override] = []) throws(ProfileError) -> ProfileFileCheck {
        let path = profilePath(fileOrName)
        // A name that is not in the library gets the library's error (with suggestions); a file is read.
        if !Self.isFilePath(fileOrName), !FileManager.default.fileExists(atPath: path) {
            _ = try loadProfile(fileOrName, overrides: overrides)
        }
        let display = Self.displayPath(path)
        let text = try Self.read(path, what: "profile")
        let problems = Profile.problems(yaml: text, path: display, overrides: overrides)
        guard problems.isEmpty else { return .invalid(path: display, problems: problems) }
        return .valid(path: display, name: try Profile.load(yaml: text, path: display, overrides: overrides).name)
    }
}
