import Foundation

/// What stands where a folder was expected: the one wording for a mistyped `--profiles-dir`, `HOLDLAB_PROFILES` or
/// `HOLDLAB_NOTEBOOKS`, where a list of what the folder holds would be empty.
public enum Folder {
    /// Nil when `path` is a folder; else `that folder does not exist` or `that is a file, not a folder`.
    public static func problem(_ path: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return "that folder does not exist"
        }
        return isDirectory.boolValue ? nil : "that is a file, not a folder"
    }
}
