import ReelHTTP
import ReelRuntime
import Foundation
import ReelCore

/// Ready responses for stream files up to ``maxFileBytes`` (playlists, init segments, media
/// segments), each valid for one ``FileVersion`` of one file and representation: the rules
/// are ``AnswerCache``'s, this keeps one behind a lock for libmicrohttpd's threads.
///
/// A request still opens the file (`openat2`, no symlink followed) and `fstat`s the fresh
/// descriptor every time; only the reading, compressing and header building are skipped
/// when that version's response is here. Every PUT and DELETE invalidates what it touches.
/// Bodies are counted in ``memory`` (twice the cache's budget: what is kept, plus dropped
/// versions still being sent).
final class ResponseCache: Sendable {
    struct Key: Hashable {
        /// The stream, and the rung for a ladder's rung: `high/playlist.m3u8`, `low/playlist.m3u8`
        /// and the multivariant `playlist.m3u8` of one stream are three keys.
        var layout: StreamLayout
        var file: OriginFile
        var gzip: Bool
        /// The playlist's delta update (`_HLS_skip`) rather than the playlist.
        var delta = false
    }

    /// Files larger than this are never cached (they are sent from the file with sendfile).
    let maxFileBytes: Int64
    /// Every prepared body, kept or still being sent.
    let memory: ResponseMemory
    private let state: Locked<AnswerCache<Key, PreparedResponse>>
    /// The file versions being compressed now, and how many may be at once.
    private let compressions = Locked<Set<Compression>>([])
    private let maxCompressions: Int

    private struct Compression: Hashable {
        var key: Key
        var version: FileVersion
    }

    init(maxBytes: Int, maxEntries: Int, maxFileBytes: Int, maxCompressions: Int = 2) {
        self.maxFileBytes = Int64(max(0, min(maxFileBytes, maxBytes)))
        memory = ResponseMemory(limit: 2 * max(0, maxBytes))
        state = Locked(AnswerCache(maxBytes: maxBytes, maxEntries: maxEntries))
        self.maxCompressions = max(1, maxCompressions)
    }

    /// Claims the compression of `key` at `version`: `false` when another request is already
    /// compressing that version, or as many compressions as allowed run now.
    func beginCompressing(_ key: Key, version: FileVersion) -> Bool {
        compressions.withLock { running in
            guard running.count < maxCompressions else { return false }
            return running.insert(Compression(key: key, version: version)).inserted
        }
    }

    /// Gives up a claim of ``beginCompressing(_:version:)``.
    func endCompressing(_ key: Key, version: FileVersion) {
        _ = compressions.withLock { $0.remove(Compression(key: key, version: version)) }
    }

    /// Read before opening a file whose response may be inserted (see ``AnswerCache``).
    var generation: UInt64 { state.withLock { $0.generation } }

    /// Responses kept (for tests).
    var count: Int { state.withLock { $0.count } }

    func lookup(_ key: Key, version: FileVersion) -> PreparedResponse? {
        state.withLock { $0.lookup(key, version: version) }
    }

    func insert(_ response: PreparedResponse, for key: Key, version: FileVersion, generation: UInt64) {
        let bytes = Int(response.bodyCount) + 512  // the headers and libmicrohttpd's bookkeeping too
        let dropped = state.withLock { $0.insert(response, bytes: bytes, for: key, version: version, generation: generation).dropped }
        _ = dropped  // released here, outside the lock
    }

    /// Drops the responses of one file of a stream or rung (every representation), or of every
    /// file of the stream, every rung's too, when `file` is nil.
    func invalidate(_ layout: StreamLayout, file: OriginFile?) {
        let dropped = state.withLock { cache in
            cache.invalidate { key in
                file == nil ? key.layout.streamID == layout.streamID : key.layout == layout && key.file == file
            }
        }
        _ = dropped
    }
}
