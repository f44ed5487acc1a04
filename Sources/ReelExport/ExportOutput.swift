import Foundation
import ReelRuntime
import Synchronization

/// Where an export or a vlog goes, checked before any work, and the hidden files beside it
/// until it is complete (shared by ``PrivacyExporter`` and ``WeeklyVlog``).
///
/// - The output is never one of the files the work reads (the video, the music, a session's
///   face positions…), also not through a symbolic or hard link (same device and inode) or a
///   path that does not exist yet but resolves to one: `--overwrite` would replace the
///   original with its own export.
/// - Hidden files are named `.NAME.mp4.ROLE-PID-TAG.mp4` and registered while they exist, so
///   a second Ctrl-C (which ends the process at once) removes them first
///   (``removeAllInProgress()``), and a later run for the same output removes those whose
///   process is gone (killed, crashed) — never those of a running one.
final class ExportOutput {
    /// An output that cannot be written, with what to do.
    struct Error: Swift.Error, CustomStringConvertible {
        var description: String
    }

    /// A file the work reads, described for a message ("the video being exported").
    struct Input {
        var role: String
        var path: String
    }

    /// The output and its folder.
    let path: String, folder: String
    /// Whether an existing file at ``path`` may be replaced (`--overwrite`).
    private let overwrite: Bool
    private let base: String
    private let tag = String(UInt32.random(in: .min ... .max), radix: 16)
    private var hidden: [String] = []
    /// Stale hidden files (of processes gone) removed when this output was checked.
    private(set) var staleRemoved = 0

    /// Every hidden file of this process that exists now, and whether new ones are refused
    /// (after ``removeAllInProgress()``).
    private static let inProgress = Locked<(paths: Set<String>, closed: Bool)>(([], false))

    /// Checks `path` (an .mp4, not one of `inputs`, not existing unless `overwrite`, in a
    /// folder that exists and can be written) and removes stale hidden files beside it.
    init(path: String, overwrite: Bool, inputs: [Input]) throws {
        self.path = path
        self.overwrite = overwrite
        let parent = (path as NSString).deletingLastPathComponent
        folder = parent.isEmpty ? "." : parent
        base = (path as NSString).lastPathComponent
        guard path.lowercased().hasSuffix(".mp4") else { throw Error(description: "-o must name an .mp4 file, got '\(path)'") }
        for input in inputs where SameFile.refers(path, to: input.path) {
            throw Error(description: "-o \(path) is \(input.role) (\(input.path)): writing there would replace it; choose another -o")
        }
        if FileManager.default.fileExists(atPath: path), !overwrite {
            throw Error(description: "\(path) already exists; choose another -o, or add --overwrite to replace it")
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw Error(description: "the folder for \(path) does not exist; create it first")
        }
        guard access(folder, W_OK) == 0 else { throw Error(description: "cannot write in \(folder) (permission denied); choose another -o") }
        staleRemoved = removeStale()
    }

    /// A new hidden file's path beside the output (`role`: "video", "vlog", "finishing"),
    /// registered until ``removeHiddenFiles()``; the caller creates it.
    func hiddenFile(_ role: String) throws -> String {
        let file = folder + "/.\(base).\(role)-\(getpid())-\(tag).mp4"
        let accepted = Self.inProgress.withLock { state in
            guard !state.closed else { return false }
            state.paths.insert(file)
            return true
        }
        guard accepted else { throw Error(description: "stopping: no new file is made") }
        hidden.append(file)
        return file
    }

    /// Removes this output's hidden files (after success, a failure or a stop).
    func removeHiddenFiles() {
        for file in hidden { unlink(file) }
        Self.inProgress.withLock { state in for file in hidden { state.paths.remove(file) } }
        hidden.removeAll()
    }

    /// Places `finished` (a hidden file) at the output durably (``DurableFile``: synced, renamed,
    /// the folder synced), replacing a file there only with `--overwrite` (one that appeared
    /// during the work is never replaced otherwise). On failure `finished` is removed.
    func place(_ finished: String) throws {
        do {
            try DurableFile.place(finished, at: path, ifExists: overwrite ? .replace : .fail)
        } catch where error.step == .place && error.code == EEXIST {
            throw Error(description: "\(path) appeared while the result was made and is left as it is; choose another -o, or add --overwrite to replace it")
        } catch {
            throw Error(description: "cannot place the result: \(error)")
        }
    }

    /// Removes every hidden file of this process and refuses new ones: for a signal that ends
    /// the process at once (a second Ctrl-C). Safe to call from any thread.
    static func removeAllInProgress() {
        let paths = inProgress.withLock { state in
            state.closed = true
            return state.paths
        }
        for file in paths { unlink(file) }
    }

    /// Removes hidden files of this output left by processes that are gone; returns how many.
    private func removeStale() -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return 0 }
        var removed = 0
        for name in names {
            guard let pid = Self.owner(ofHidden: name, base: base), pid != getpid() else { continue }
            // kill(pid, 0) fails with ESRCH only when no such process exists (EPERM: it exists).
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            if unlink(folder + "/" + name) == 0 { removed += 1 }
        }
        return removed
    }

    /// The process id in a hidden file's name of the output named `base`, nil for any other name.
    static func owner(ofHidden name: String, base: String) -> pid_t? {
        let prefix = ".\(base)."
        guard name.hasPrefix(prefix), name.hasSuffix(".mp4") else { return nil }
        let middle = name.dropFirst(prefix.count).dropLast(4)  // ROLE-PID-TAG
        let parts = middle.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, ["video", "vlog", "finishing"].contains(parts[0]),
              let pid = pid_t(parts[1]), pid > 0, !parts[2].isEmpty, parts[2].allSatisfy(\.isHexDigit) else { return nil }
        return pid
    }
}
