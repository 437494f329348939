import Foundation
import HoldLabIO
import HoldProfiles

/// A file a review was made from, carried in its folder under `inputs/` so that the folder reproduces anywhere:
/// the profiles and populations its command line names, the review file, and the domain reference their sources
/// cite (`DOMAIN §N`).
public struct ReviewInputFile: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case profile, population, review, reference
    }

    public var kind: Kind
    /// The argument as the command line wrote it (a name or a path), or the reference's name.
    public var argument: String
    /// Its path in the folder (`inputs/profiles/hig-linear-bar.yaml`).
    public var name: String
    public var text: String

    public init(kind: Kind, argument: String, name: String, text: String) {
        self.kind = kind
        self.argument = argument
        self.name = name
        self.text = text
    }
}

/// A folder's carried inputs that cannot be read back.
public struct ReviewInputsError: Error, CustomStringConvertible, Sendable {
    /// What went wrong: the manifest could not be read, a file it lists (or a line of it) is wrong, or an argument
    /// the command line names is not among the carried inputs.
    public enum Reason: Sendable { case manifest, content, notCarried }

    public let message: String
    public var reason: Reason = .content
    public var description: String { message }
}

/// The `inputs/` folder of a review: what it carries, its manifest, and reading it back (`report --inputs`).
public enum ReviewInputs {
    /// The subfolder of a review folder that holds its inputs.
    public static let folder = "inputs"
    /// The manifest in it: one line per file, `kind<TAB>argument<TAB>path in the review folder`.
    public static let manifestName = "manifest.tsv"

    /// The subfolder of each kind under `inputs/` ("" for files directly in it).
    static func subfolder(_ kind: ReviewInputFile.Kind) -> String {
        switch kind {
        case .profile: "profiles"
        case .population: "populations"
        case .review, .reference: ""
        }
    }

    /// Names in the folder for files given by argument: a stem of letters, digits, `.`, `-` and `_` taken from the
    /// argument's last path component (numbered when two arguments would share one).
    public static func carry(_ entries: [(kind: ReviewInputFile.Kind, argument: String, text: String)]) throws
        -> [ReviewInputFile]
    {
        var files: [ReviewInputFile] = []
        var seen: Set<String> = []
        for entry in entries {
            if files.contains(where: { $0.kind == entry.kind && $0.argument == entry.argument }) { continue }
            if entry.argument.contains(where: { $0 == "\t" || $0.isNewline }) {
                throw ReviewInputsError(message: "the \(entry.kind.rawValue) argument '\(entry.argument)' contains a tab or a line break; a review folder cannot carry it (rename the file)")
            }
            var stem = (entry.argument as NSString).lastPathComponent
            for suffix in [".yaml", ".yml", ".md"] where stem.hasSuffix(suffix) { stem = String(stem.dropLast(suffix.count)) }
            stem = String(stem.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" })
            if stem.isEmpty || stem.hasPrefix(".") { stem = entry.kind.rawValue + stem }
            let fileExtension = entry.kind == .reference ? ".md" : ".yaml"
            let directory = folder + (subfolder(entry.kind).isEmpty ? "" : "/" + subfolder(entry.kind))
            var name = "\(directory)/\(stem)\(fileExtension)"
            var number = 2
            while seen.contains(name) || name == "\(folder)/\(manifestName)" {
                name = "\(directory)/\(stem)-\(number)\(fileExtension)"
                number += 1
            }
            seen.insert(name)
            files.append(ReviewInputFile(kind: entry.kind, argument: entry.argument, name: name, text: entry.text))
        }
        return files
    }

    /// The manifest's text.
    public static func manifest(_ files: [ReviewInputFile]) -> String {
        "# The files this review was made from: kind, the argument as written, the file in this folder.\n"
            + files.map { "\($0.kind.rawValue)\t\($0.argument)\t\($0.name)\n" }.joined()
    }

    /// The subfolders `files` need, parents first.
    public static func folders(_ files: [ReviewInputFile]) -> [String] {
        var folders: [String] = files.isEmpty ? [] : [folder]
        for file in files {
            let parent = (file.name as NSString).deletingLastPathComponent
            if !folders.contains(parent) { folders.append(parent) }
        }
        return folders
    }

    /// Reads a review folder's inputs back: `inputs` is the `inputs/` folder (the review folder itself is taken as
    /// its parent's).
    public static func read(_ inputs: String) throws -> [ReviewInputFile] {
        var directory = inputs
        while directory.count > 1 && directory.hasSuffix("/") { directory.removeLast() }
        if FileManager.default.fileExists(atPath: directory + "/" + folder + "/" + manifestName) { directory += "/" + folder }
        let manifestPath = directory + "/" + manifestName
        let manifest: String
        do {
            manifest = try BoundedFile.read(manifestPath, what: "manifest", limit: 1 << 20)
        } catch {
            throw ReviewInputsError(message: "\(manifestPath): \(error.message)", reason: .manifest)
        }
        let root = (directory as NSString).deletingLastPathComponent
        var files: [ReviewInputFile] = []
        for (index, line) in manifest.split(separator: "\n", omittingEmptySubsequences: true).enumerated()
        where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3, let kind = ReviewInputFile.Kind(rawValue: fields[0]),
                  fields[2].hasPrefix(folder + "/"), !fields[2].split(separator: "/").contains("..") else {
                throw ReviewInputsError(message: "\(manifestPath):\(index + 1): not a manifest line (kind, argument and a file under inputs/, separated by tabs)")
            }
            let path = (root.isEmpty ? "" : root + "/") + fields[2]
            let text: String
            do {
                text = try BoundedFile.read(path, what: kind.rawValue, limit: ProfileLibrary.maximumYAMLBytes)
            } catch {
                throw ReviewInputsError(message: "\(path): \(error.message) (listed in \(manifestPath))")
            }
            files.append(ReviewInputFile(kind: kind, argument: fields[1], name: fields[2], text: text))
        }
        return files
    }

    /// `library` reading the carried profiles and populations for their arguments.
    /// Reads the inputs a folder carries (`inputs`, as `read`) and the library that reads them, refusing (reason
    /// `.notCarried`) when an argument in `named` (kind and argument as the command line writes it) is not among them.
    public static func library(_ library: ProfileLibrary, readingCarried inputs: String,
                               named: [(kind: ReviewInputFile.Kind, argument: String)]) throws
        -> (library: ProfileLibrary, inputs: [ReviewInputFile])
    {
        let carried = try read(inputs)
        for (kind, argument) in named where !carried.contains(where: { $0.kind == kind && $0.argument == argument }) {
            throw ReviewInputsError(message: "the \(kind.rawValue) '\(argument)' is not among its inputs", reason: .notCarried)
        }
        return (Self.library(library, reading: carried, from: inputs), carried)
    }

    public static func library(_ library: ProfileLibrary, reading files: [ReviewInputFile], from inputs: String)
        -> ProfileLibrary
    {
        var directory = inputs
        while directory.count > 1 && directory.hasSuffix("/") { directory.removeLast() }
        if FileManager.default.fileExists(atPath: directory + "/" + folder + "/" + manifestName) { directory += "/" + folder }
        let root = (directory as NSString).deletingLastPathComponent
        var library = library
        for file in files {
            let path = (root.isEmpty ? "" : root + "/") + file.name
            switch file.kind {
            case .profile: library.profileFiles[file.argument] = path
            case .population: library.populationFiles[file.argument] = path
            case .review, .reference: break
            }
        }
        return library
    }
}
