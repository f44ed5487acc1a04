import CMicroHTTPD
import Foundation
import Synchronization

/// The memory of prepared response bodies, counted from allocation until libmicrohttpd frees
/// the body (after the cache dropped the response *and* the last connection sending it is
/// done). Nothing is allocated beyond `limit`: a response that would pass it is not
/// prepared, and the file is sent from its descriptor instead. So a client that keeps many
/// slow downloads of dropped versions open cannot make the server hold more than `limit`.
public final class ResponseMemory: Sendable {
    public let limit: Int
    private let used = Atomic<Int>(0)

    public init(limit: Int) { self.limit = max(0, limit) }

    /// Bytes held right now.
    public var inUse: Int { used.load(ordering: .relaxed) }

    /// Takes `count` bytes of the allowance; false when that would pass the limit.
    public func reserve(_ count: Int) -> Bool {
        var current = used.load(ordering: .relaxed)
        while true {
            guard current + count <= limit else { return false }
            let (exchanged, original) = used.compareExchange(expected: current, desired: current + count, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    public func release(_ count: Int) { used.subtract(count, ordering: .relaxed) }
}

/// A body buffer counted against a ``ResponseMemory``: freed, and given back, on deinit.
public final class ResponseBody: @unchecked Sendable {
    // Written once (filled) before it is handed to libmicrohttpd, then only read.
    public let bytes: UnsafeMutableRawBufferPointer
    private let memory: ResponseMemory

    /// `count` bytes reserved from `memory`, or nil when the allowance is used up.
    public init?(count: Int, memory: ResponseMemory) {
        guard memory.reserve(count) else { return nil }
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 16)
        self.memory = memory
        bodyCount = count
    }

    public let bodyCount: Int

    deinit {
        bytes.deallocate()
        memory.release(bodyCount)
    }
}

/// A libmicrohttpd response (status, headers, a ``ResponseBody``) made once and queued on any
/// number of connections: libmicrohttpd counts the connections using it, and frees it — and
/// releases the body — when the last one is done and this object is gone.
public final class PreparedResponse: @unchecked Sendable {
    // Immutable after init; libmicrohttpd's reference count is behind its own lock.
    let pointer: OpaquePointer
    public let status: Int
    public let bodyCount: Int64

    public init?(status: Int, headers: [(String, String)], body: ResponseBody) {
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

