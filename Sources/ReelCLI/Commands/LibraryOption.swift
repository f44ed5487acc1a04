import Foundation
import ReelCore
import ReelStore

/// `--library PATH`, shared by every command that touches the study library.
enum LibraryOption {
    static let option = Option.value("library", placeholder: "PATH",
                                     help: "The study library (SQLite; default: reel/library.sqlite in the XDG data folder, ~/.local/share/reel/library.sqlite).")

    /// The user's XDG folders.
    static var folders: XDGDirectories {
        XDGDirectories(environment: ProcessInfo.processInfo.environment, home: FileManager.default.homeDirectoryForCurrentUser.path)
    }

    /// The library path: `--library` (absolute, `~` expanded) or the default.
    static func path(_ arguments: ParsedArguments) -> String {
        arguments.string(option).map { ($0 as NSString).expandingTildeInPath }
            .map { $0.hasPrefix("/") ? $0 : FileManager.default.currentDirectoryPath + "/" + $0 }
            ?? StudyLibrary.defaultPath(folders)
    }
}
