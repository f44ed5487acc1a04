import Foundation
import ReelCore
import ReelRuntime

/// The user's Trash after the freedesktop.org Trash specification 1.0, so what Reel removes can
/// be put back from any file manager (`reel sessions rm`). Only files, never folders.
///
/// A file on the filesystem of the home Trash (`$XDG_DATA_HOME/Trash`) goes there; a file on
/// another filesystem goes to that filesystem's `$topdir/.Trash-$UID` (made with mode 0700),
/// so a trashed file is always renamed, never copied. The `info/NAME.trashinfo` is created
/// first (exclusively: that claims NAME), then the file is renamed to `files/NAME`; a failed
/// rename removes the info again.
public struct FreedesktopTrash: Sendable {
    /// `$XDG_DATA_HOME/Trash`.
    public let homeTrash: String
    /// The zone of the info files' dates.
    public let timeZone: TimeZone

    /// The Trash for the XDG data folder `dataFolder`.
    public init(dataFolder: String, timeZone: TimeZone = .current) {
        homeTrash = dataFolder + "/Trash"
        self.timeZone = timeZone
    }

    /// A file that could not be trashed or put back; the text says which and why.
    public struct Error: Swift.Error, CustomStringConvertible {
        public var description: String
    }

    /// Moves the file at `path` (absolute) into the Trash of its filesystem.
    public func trash(_ path: String, at date: Date) throws(Error) -> TrashedSession.File {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw Error(description: "\(path): \(Self.reason())") }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw Error(description: "\(path) is not a regular file; not trashed") }
        let trash = try folder(forDevice: info.st_dev, of: path)
        let name = try claimName(for: path, in: trash, at: date)
        guard rename(path, trash + "/files/" + name) == 0 else {
            let why = Self.reason()
            unlink(trash + "/info/" + name + ".trashinfo")
            throw Error(description: "\(path): cannot move it to \(trash)/files (\(why))")
        }
        return TrashedSession.File(originalPath: path, trash: trash, name: name)
    }

    /// Writes `data` into the home Trash as a trashed file whose original place is `originalPath`.
    public func add(_ data: Data, originalPath: String, at date: Date) throws(Error) -> TrashedSession.File {
        try makeTrash(homeTrash)
        let name = try claimName(for: originalPath, in: homeTrash, at: date)
        let file = homeTrash + "/files/" + name
        let created: Bool
        do { created = try Self.createExclusively(file, data) } catch {
            unlink(homeTrash + "/info/" + name + ".trashinfo")
            throw error
        }
        guard created else {
            unlink(homeTrash + "/info/" + name + ".trashinfo")
            throw Error(description: "\(file): exists already (the Trash's files and info disagree)")
        }
        return TrashedSession.File(originalPath: originalPath, trash: homeTrash, name: name)
    }

    /// Puts a trashed file back where it was (its folder made when missing), never over a file
    /// that is there now, and removes its info.
    public func restore(_ file: TrashedSession.File) throws(Error) {
        let trashed = file.trash + "/files/" + file.name
        let folder = (file.originalPath as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw Error(description: "\(folder): cannot create it to put \(file.name) back")
        }
        // link + unlink: a rename that never replaces (both are on the same filesystem).
        guard link(trashed, file.originalPath) == 0 else {
            if errno == EEXIST { throw Error(description: "\(file.originalPath) exists now; move it away, then run this again") }
            throw Error(description: "\(trashed): cannot put it back at \(file.originalPath) (\(Self.reason()))")
        }
        unlink(trashed)
        unlink(file.trash + "/info/" + file.name + ".trashinfo")
    }

    /// Undoes ``restore(_:)``: the file goes back into the Trash under the same name, with its info.
    public func undoRestore(_ file: TrashedSession.File, at date: Date) throws(Error) {
        let info = file.trash + "/info/" + file.name + ".trashinfo"
        let text = Data(TrashInfo(originalPath: file.originalPath, deletedAt: date).text(in: timeZone).utf8)
        guard FileManager.default.createFile(atPath: info, contents: text, attributes: [.posixPermissions: 0o600]),
              link(file.originalPath, file.trash + "/files/" + file.name) == 0 else {
            throw Error(description: "\(file.originalPath): cannot move it back to \(file.trash)/files (\(Self.reason()))")
        }
        unlink(file.originalPath)
    }

    /// Removes a trashed file for good (and its info).
    public func erase(_ file: TrashedSession.File) {
        unlink(file.trash + "/files/" + file.name)
        unlink(file.trash + "/info/" + file.name + ".trashinfo")
    }

    /// The names in the home Trash's `files/` starting with `prefix`.
    public func homeFiles(startingWith prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: homeTrash + "/files")) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
    }

    // MARK: Where

    /// The home Trash when `device` is its filesystem's, else `$topdir/.Trash-$UID` of the
    /// file's filesystem (made when missing).
    func folder(forDevice device: dev_t, of path: String) throws(Error) -> String {
        if let home = Self.device(ofNearestExisting: homeTrash), home == device {
            try makeTrash(homeTrash)
            return homeTrash
        }
        let top = Self.topFolder(of: (path as NSString).deletingLastPathComponent, device: device)
        let trash = (top == "/" ? "" : top) + "/.Trash-\(getuid())"
        try makeTrash(trash)
        return trash
    }

    /// The mount point holding `folder`: the highest ancestor on `device`.
    static func topFolder(of folder: String, device: dev_t) -> String {
        var current = folder
        while current != "/" {
            let parent = (current as NSString).deletingLastPathComponent
            var info = stat()
            guard stat(parent.isEmpty ? "/" : parent, &info) == 0, info.st_dev == device else { return current }
            current = parent.isEmpty ? "/" : parent
        }
        return "/"
    }

    static func device(ofNearestExisting path: String) -> dev_t? {
        var current = path
        while true {
            var info = stat()
            if stat(current, &info) == 0 { return info.st_dev }
            guard current != "/", !current.isEmpty else { return nil }
            current = (current as NSString).deletingLastPathComponent
        }
    }

    private func makeTrash(_ trash: String) throws(Error) {
        for folder in [trash, trash + "/files", trash + "/info"] {
            if mkdir(folder, 0o700) != 0, errno != EEXIST {
                // The home Trash's parents (~/.local/share) may be missing too.
                if errno == ENOENT, (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                                              attributes: [.posixPermissions: 0o700])) != nil { continue }
                throw Error(description: "\(folder): cannot create the Trash folder (\(Self.reason()))")
            }
        }
    }

    /// Claims a name in `trash` for a file from `originalPath` by creating its info file
    /// exclusively: `NAME`, else `STEM.2.EXT`, `STEM.3.EXT`, …
    private func claimName(for originalPath: String, in trash: String, at date: Date) throws(Error) -> String {
        let base = (originalPath as NSString).lastPathComponent
        let stem = (base as NSString).deletingPathExtension, ext = (base as NSString).pathExtension
        let text = Data(TrashInfo(originalPath: originalPath, deletedAt: date).text(in: timeZone).utf8)
        for n in 1...10_000 {
            let name = n == 1 ? base : stem + ".\(n)" + (ext.isEmpty ? "" : "." + ext)
            if FileManager.default.fileExists(atPath: trash + "/files/" + name) { continue }
            if try Self.createExclusively(trash + "/info/" + name + ".trashinfo", text) { return name }
        }
        throw Error(description: "\(trash): no free name for \(base)")
    }

    /// Creates `path` with `data` durably (``DurableFile``: whole or not at all, never over an
    /// existing name); false (nothing written) when it exists already.
    private static func createExclusively(_ path: String, _ data: Data) throws(Error) -> Bool {
        do {
            try DurableFile.write(data, to: path, ifExists: .fail, permissions: 0o600)
            return true
        } catch where error.step == .place && error.code == EEXIST {
            return false
        } catch {
            throw Error(description: "\(error)")
        }
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}
