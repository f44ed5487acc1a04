import Foundation
import ReelCore

/// This process's folders: the XDG folders under `$HOME` (the account's home only when
/// `$HOME` is unset), and paths from the command line made absolute the same way.
enum UserFolders {
    /// The XDG folders in force.
    static var current: XDGDirectories {
        XDGDirectories(environment: ProcessInfo.processInfo.environment, accountHome: NSHomeDirectory())
    }

    /// `path` with `~` expanded from `$HOME` and a relative path taken from the working folder.
    static func absolute(_ path: String) -> String {
        current.absolute(path, workingFolder: FileManager.default.currentDirectoryPath)
    }
}
