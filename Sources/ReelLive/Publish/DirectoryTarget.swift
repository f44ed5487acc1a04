import Foundation
import ReelCore
import ReelRuntime
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Publishes into a local folder with the origin's layout (`streams/{id}/…`), so the folder
/// can be served by any static web server or synced elsewhere.
///
/// Every file is written copy-then-commit (``DurableFile``): a temporary file in the same folder,
/// written, fsync'ed, then renamed over the final name (and the folder fsync'ed). Readers see the old
/// complete file or the new one, never a partial one. Missing folders are created.
public struct DirectoryTarget: PublishTarget {
    /// The folder that stream paths are resolved against.
    public let root: URL
    /// `folder` and the path.
    public var name: String { "folder \(root.path)" }

    /// A target writing under `root` (created on the first write if missing).
    public init(root: URL) {
        self.root = root.standardizedFileURL
    }

    /// Writes `body` to `root/path` atomically. `contentType` is not stored: a web server serving
    /// the folder derives it from the extension.
    public func put(path: String, body: Data, contentType: String) async throws {
        try store(body, at: path)
    }

    /// Removes `root/path`; a missing file is no error.
    public func delete(path: String) async throws {
        try Self.checkPath(path)
        let file = root.appendingPathComponent(path).path
        guard unlink(file) == 0 || errno == ENOENT else { throw Error.io(operation: "remove", path: file, errno: errno) }
    }

    /// Whether `root/path` is a file.
    public func fileExists(path: String) async throws -> Bool {
        try Self.checkPath(path)
        var info = stat()
        return stat(root.appendingPathComponent(path).path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Removes the folder `root/streams/{id}` with everything in it; a missing folder is no error.
    public func deleteStream(_ layout: StreamLayout) async throws {
        let folder = root.appendingPathComponent(layout.streamDirectory).path
        var info = stat()
        guard lstat(folder, &info) == 0 else { return }
        do {
            try FileManager.default.removeItem(atPath: folder)
        } catch {
            throw Error.streamNotDeleted(path: folder, reason: ErrorSentence.reason(error))
        }
    }

    /// The synchronous write behind ``put(path:body:contentType:)``.
    public func store(_ body: Data, at path: String) throws(Error) {
        try Self.checkPath(path)

        let destination = root.appendingPathComponent(path)
        let folder = destination.deletingLastPathComponent()
        try Self.makeFolders(folder.path)

        do {
            try DurableFile.write(body, to: destination.path, ifExists: .replace)
        } catch {
            throw .io(operation: error.step.operation, path: error.step == .create ? folder.path : destination.path, errno: error.code)
        }
    }

    /// Refuses an absolute or empty path and one with an empty, `.`, `..` or hidden component.
    private static func checkPath(_ path: String) throws(Error) {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.isEmpty, !path.hasPrefix("/"),
              components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.hasPrefix(".") })
        else { throw .invalidPath(path) }
    }

    /// `mkdir -p` with the failing call's errno.
    private static func makeFolders(_ path: String) throws(Error) {
        var existing = stat()
        if stat(path, &existing) == 0, existing.st_mode & S_IFMT == S_IFDIR { return }
        var current = ""
        for component in path.split(separator: "/") {
            current += "/\(component)"
            if mkdir(current, 0o755) == 0 { continue }
            let code = errno
            guard code == EEXIST else { throw .io(operation: "create the folder", path: current, errno: code) }
            var info = stat()
            guard stat(current, &info) == 0 else { throw .io(operation: "inspect the folder", path: current, errno: errno) }
            guard info.st_mode & S_IFMT == S_IFDIR else { throw .io(operation: "create the folder", path: current, errno: ENOTDIR) }
        }
    }

    /// Why a write into the folder failed.
    public enum Error: PublishTargetError, Hashable {
        /// The path is absolute, empty, or has an empty, `.`, `..` or hidden component.
        case invalidPath(String)
        /// A file system call failed; `errno` says why.
        case io(operation: String, path: String, errno: Int32)
        /// `--replace`: the old stream's folder could not be removed.
        case streamNotDeleted(path: String, reason: String)

        /// `false` for bad paths, missing permission and read-only file systems; `true` for
        /// anything that may pass later (disk full, I/O errors).
        public var isRetryable: Bool {
            switch self {
            case .invalidPath, .streamNotDeleted: false
            case .io(_, _, let code): ![EACCES, EPERM, EROFS, ENOTDIR, EISDIR].contains(code)
            }
        }

        /// A message for the user: what happened and what to do.
        public var description: String {
            switch self {
            case .invalidPath(let path):
                return "\"\(path)\" is not a publishable relative path (no leading '/', no empty, '.', '..' or hidden components)."
            case .streamNotDeleted(let path, let reason):
                return "Could not remove the old stream's folder \(path): \(reason). Remove it by hand or pick another --stream-id."
            case .io(let operation, let path, let code):
                let reason = ErrorSentence.posix(code)
                let advice: String
                switch code {
                case EACCES, EPERM: advice = "Give this user write permission on the folder or choose another output folder."
                case EROFS: advice = "The file system is read-only; choose another output folder."
                case ENOSPC, EDQUOT: advice = "Free some space on that disk; Reel retries."
                case ENOTDIR, EISDIR: advice = "A file and a folder are in each other's way; clear the output folder or choose another."
                default: advice = "Reel retries."
                }
                return "Could not \(operation) \(path): \(reason). \(advice)"
            }
        }
    }
}

extension DurableFile.Error.Step {
    /// The words for ``DirectoryTarget/Error/io(operation:path:errno:)`` ("Could not write …").
    var operation: String {
        switch self {
        case .openFolder: "open the folder of"
        case .create: "create a temporary file in"
        case .write: "write"
        case .sync: "flush (fsync)"
        case .place: "rename into place"
        case .syncFolder: "flush (fsync) the folder of"
        }
    }
}
