import ArgumentParser
import Foundation
import HoldProfiles

/// What the shells' completion scripts offer beyond options and choices: the library's profile and population
/// names, and file paths (`--generate-completion-script bash|zsh|fish`; tested in all three).
extension CompletionKind {
    /// A profile: the names in the library the command would read, then YAML files and folders.
    static var profileNames: CompletionKind {
        .custom { words, _, prefix in Completions.names(words: words, prefix: prefix) { $0.profileNames() } }
    }

    /// A population: the names in the library's populations/ folder, then YAML files and folders.
    static var populationNames: CompletionKind {
        .custom { words, _, prefix in Completions.names(words: words, prefix: prefix) { $0.populationNames() } }
    }
}

enum Completions {
    /// Names from the library the command line would read (its `--profiles-dir`, else as the command finds one)
    /// that start with `prefix`, then the YAML files and folders that do.
    static func names(words: [String], prefix: String, from list: (ProfileLibrary) -> [String]) -> [String] {
        let library: ProfileLibrary
        if let directory = profilesDirectory(words) {
            library = ProfileLibrary(directory: directory)
        } else {
            library = ProfileLibrary.discover(executablePath: ProfileSourceOptions.executablePath())
        }
        // A population list is comma-separated (`--population default,hur<TAB>`): complete its last item.
        let head = prefix.contains(",") ? String(prefix[...prefix.lastIndex(of: ",")!]) : ""
        let last = String(prefix.dropFirst(head.count))
        let named = list(library).filter { $0.hasPrefix(last) }.map { head + $0 }
        return named + (head.isEmpty ? paths(prefix, extensions: ["yaml", "yml"]) : [])
    }

    /// The `--profiles-dir` value on the command line, if any.
    static func profilesDirectory(_ words: [String]) -> String? {
        for (index, word) in words.enumerated() {
            if word == "--profiles-dir", index + 1 < words.count { return words[index + 1] }
            if word.hasPrefix("--profiles-dir=") { return String(word.dropFirst("--profiles-dir=".count)) }
        }
        return nil
    }

    /// Folders (with a trailing `/`) and files with one of `extensions` whose path starts with `prefix`.
    static func paths(_ prefix: String, extensions: [String]) -> [String] {
        let folder = prefix.contains("/") ? String(prefix[...prefix.lastIndex(of: "/")!]) : ""
        let start = String(prefix.dropFirst(folder.count))
        let manager = FileManager.default
        guard let entries = try? manager.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else { return [] }
        return entries.sorted().compactMap { entry in
            guard entry.hasPrefix(start), !(entry.hasPrefix(".") && !start.hasPrefix(".")) else { return nil }
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: folder + entry, isDirectory: &isDirectory) else { return nil }
            if isDirectory.boolValue { return folder + entry + "/" }
            return extensions.contains((entry as NSString).pathExtension.lowercased()) ? folder + entry : nil
        }
    }
}
