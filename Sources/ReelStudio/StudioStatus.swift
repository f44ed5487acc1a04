import Foundation
import ReelStore

/// What the studio's status panel shows: `GET /api/status`, and the `status` event.
public struct StudioStatus: Codable, Sendable, Equatable {
    public var version: String
    public var uptimeSeconds: Int
    /// Event streams open (browser tabs with the page).
    public var eventStreams: Int
    public var library: Library
    public var disk: Disk
    /// The source chosen now (first the one given to `--source`), as given.
    public var source: String?

    public struct Library: Codable, Sendable, Equatable {
        public var path: String
        /// Sessions in it (0 before the first recording made it); nil when it cannot be read.
        public var sessions: Int?
        /// Why it cannot be read, in words.
        public var problem: String?
    }

    public struct Disk: Codable, Sendable, Equatable {
        /// The folder measured: the library's, or the nearest one that exists.
        public var path: String
        public var freeBytes: Int64?
    }

    /// One line of JSON (an event's `data` must not break lines).
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// Free bytes for an unprivileged writer in the folder of `path` (or its nearest existing
    /// parent).
    static func disk(for path: String) -> Disk {
        var folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.path) && folder.path != "/" {
            folder.deleteLastPathComponent()
        }
        var info = statvfs()
        guard statvfs(folder.path, &info) == 0 else { return Disk(path: folder.path, freeBytes: nil) }
        return Disk(path: folder.path, freeBytes: Int64(info.f_bavail) * Int64(info.f_frsize))
    }
}
