import ReelRuntime
import CMicroHTTPD
import Foundation
import ReelCore
import Synchronization

/// The memory of prepared response bodies, counted from allocation until libmicrohttpd frees
/// the body (after the cache dropped the response *and* the last connection sending it is
/// done). Nothing is allocated beyond `limit`: a response that would pass it is not
/// prepared, and the file is sent from its descriptor instead. So a client that keeps many
/// slow downloads of dropped versions open cannot make the server hold more than `limit`.
final class ResponseMemory: Sendable {
    let limit: Int
    private let used = Atomic<Int>(0)

    init(limit: Int) { self.limit = max(0, limit) }

    /// Bytes held right now.
    var inUse: Int { used.load(ordering: .relaxed) }

    /// Takes `count` bytes of the allowance; false when that would pass the limit.
    func reserve(_ count: Int) -> Bool {
        var current = used.load(ordering: .relaxed)
        while true {
            guard current + count <= limit else { return false }
            let (exchanged, original) = used.compareExchange(expected: current, desired: current + count, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    func release(_ count: Int) { used.subtract(count, ordering: .relaxed) }
}

/// A body buffer counted against a ``ResponseMemory``: freed, and given back, on deinit.
final class ResponseBody: @unchecked Sendable {
    // Written once (filled) before it is handed to libmicrohttpd, then only read.
    let bytes: UnsafeMutableRawBufferPointer
    private let memory: ResponseMemory

    /// `count` bytes reserved from `memory`, or nil when the allowance is used up.
    init?(count: Int, memory: ResponseMemory) {
        guard memory.reserve(count) else { return nil }
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 16)
        self.memory = memory
        bodyCount = count
    }

    let bodyCount: Int

    deinit {
        bytes.deallocate()
        memory.release(bodyCount)
    }
}

/// A libmicrohttpd response (status, headers, a ``ResponseBody``) made once and queued on any
/// number of connections: libmicrohttpd counts the connections using it, and frees it — and
/// releases the body — when the last one is done and this object is gone.
final class PreparedResponse: @unchecked Sendable {
    // Immutable after init; libmicrohttpd's reference count is behind its own lock.
    let pointer: OpaquePointer
    let status: Int
    let bodyCount: Int64

    init?(status: Int, headers: [(String, String)], body: ResponseBody) {
        let owner = Unmanaged.passRetained(body).toOpaque()  // released by libmicrohttpd's free callback
        guard let made = MHD_create_response_from_buffer_with_free_callback_cls(
            body.bodyCount, body.bytes.baseAddress, releaseResponseBody, owner) else {
            Unmanaged<ResponseBody>.fromOpaque(owner).release()
            return nil
        }
        for (name, value) in headers {
            MHD_add_response_header(made, name, value)
        }
        pointer = made
        self.status = status
        bodyCount = Int64(body.bodyCount)
    }

    deinit { MHD_destroy_response(pointer) }
}

private let releaseResponseBody: MHD_ContentReaderFreeCallback = { owner in
    guard let owner else { return }
    Unmanaged<ResponseBody>.fromOpaque(owner).release()
}

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
        var streamID: String
        var file: OriginFile
        var gzip: Bool
    }

    /// Files larger than this are never cached (they are sent from the file with sendfile).
    let maxFileBytes: Int64
    /// Every prepared body, kept or still being sent.
    let memory: ResponseMemory
    private let state: Locked<AnswerCache<Key, PreparedResponse>>

    init(maxBytes: Int, maxEntries: Int, maxFileBytes: Int) {
        self.maxFileBytes = Int64(max(0, min(maxFileBytes, maxBytes)))
        memory = ResponseMemory(limit: 2 * max(0, maxBytes))
        state = Locked(AnswerCache(maxBytes: maxBytes, maxEntries: maxEntries))
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
