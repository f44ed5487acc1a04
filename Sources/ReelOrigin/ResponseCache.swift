import CMicroHTTPD
import ReelCore
import Synchronization

/// A libmicrohttpd response (status, headers, body copied in) made once and queued on any
/// number of connections: libmicrohttpd counts the connections using it, and frees it when
/// the last one is done and this object is gone.
final class PreparedResponse: @unchecked Sendable {
    // Immutable after init; libmicrohttpd's reference count is behind its own lock.
    let pointer: OpaquePointer
    let status: Int
    let bodyCount: Int64

    init?(status: Int, headers: [(String, String)], body: [UInt8]) {
        let made = body.withUnsafeBytes { buffer in
            MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let made else { return nil }
        for (name, value) in headers {
            MHD_add_response_header(made, name, value)
        }
        pointer = made
        self.status = status
        bodyCount = Int64(body.count)
    }

    deinit { MHD_destroy_response(pointer) }
}

/// Ready responses for small stream files (playlists, init segments), each valid for one
/// ``FileVersion`` of one file and representation: the rules are ``AnswerCache``'s, this
/// keeps one behind a lock for libmicrohttpd's threads.
///
/// A request still opens the file (`openat2`, no symlink followed) and `fstat`s the fresh
/// descriptor every time; only the reading, compressing and header building are skipped
/// when that version's response is here. Every PUT and DELETE invalidates what it touches.
final class ResponseCache: Sendable {
    struct Key: Hashable {
        var streamID: String
        var file: OriginFile
        var gzip: Bool
    }

    /// Files larger than this are never cached (they are sent from the file with sendfile).
    let maxFileBytes: Int64
    private let state: Mutex<AnswerCache<Key, PreparedResponse>>

    init(maxBytes: Int, maxEntries: Int, maxFileBytes: Int) {
        self.maxFileBytes = Int64(max(0, min(maxFileBytes, maxBytes)))
        state = Mutex(AnswerCache(maxBytes: maxBytes, maxEntries: maxEntries))
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

    /// Drops the responses of one file of a stream (both representations), or of every file of
    /// the stream when `file` is nil.
    func invalidate(streamID: String, file: OriginFile?) {
        let dropped = state.withLock { cache in
            cache.invalidate { $0.streamID == streamID && (file == nil || $0.file == file) }
        }
        _ = dropped
    }
}
