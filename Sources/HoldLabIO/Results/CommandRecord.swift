/// The command line an output records (its `# command:` provenance line, a shard plan, `reproduce.sh`): the
/// arguments as typed, less the options that do not change the results. The one place that decides which those
/// are for each use.
public enum CommandRecord {
    /// Options whose value never changes results: where the output goes and how many threads make it. Leaving them
    /// out keeps a CSV byte-identical across thread counts and output names.
    public static let threads: Set<String> = ["--threads"]
    /// `--resume` completes an interrupted run to the file an uninterrupted run writes.
    public static let resume: Set<String> = ["--resume"]
    /// `--quiet` (`-q`) changes what standard error shows, never a result: every record leaves it out.
    public static let quiet: Set<String> = ["--quiet", "-q"]

    /// `arguments` (after the executable's name) without the options in `valued` (with their values, as
    /// `--name value` or `--name=value`) and the flags in `flags`.
    public static func arguments(_ arguments: [String], dropping valued: Set<String> = [], flags: Set<String> = [])
        -> [String]
    {
        var result: [String] = []
        var skipNext = false
        for argument in arguments {
            if skipNext { skipNext = false; continue }
            if flags.contains(argument) || quiet.contains(argument) { continue }
            if valued.contains(argument) { skipNext = true; continue }
            if let equals = argument.firstIndex(of: "="), valued.contains(String(argument[..<equals])) { continue }
            result.append(argument)
        }
        return result
    }

    /// `holdlab` and this process's arguments less those dropped, each quoted for a POSIX shell when it needs it.
    public static func line(dropping valued: Set<String> = [], flags: Set<String> = [],
                            arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> String {
        CSV.commandLine(["holdlab"] + Self.arguments(arguments, dropping: valued, flags: flags))
    }

    /// The arguments of a recorded command line (`line`'s output, or a `# command:` provenance value): words
    /// separated by spaces, each bare or in single quotes with `'\''` for a quote inside, as `CSV.commandLine`
    /// writes them; nil for text it does not write (an unclosed quote).
    public static func words(_ line: String) -> [String]? {
        var words: [String] = []
        var word = String.UnicodeScalarView()
        var inWord = false
        var quoted = false
        var escaped = false
        // Scalar by scalar: a quote followed by a combining mark is one Character, and must still close the quote.
        for character in line.unicodeScalars {
            if quoted {
                if character == "'" { quoted = false } else { word.append(character) }
            } else if escaped {
                word.append(character)
                escaped = false
            } else if character == "'" {
                quoted = true
                inWord = true
            } else if character == "\\" {
                escaped = true
                inWord = true
            } else if character == " " {
                if inWord { words.append(String(word)) }
                word = String.UnicodeScalarView()
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        if quoted || escaped { return nil }
        if inWord { words.append(String(word)) }
        return words
    }
}
