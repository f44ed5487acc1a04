import Foundation

/// A new version of a stream file being written: a temp file beside its destination. Either
/// ``commit()`` (fsync, atomic rename, folder fsync) or ``discard()``; a pending file that is
/// neither is discarded when released.
public final class PendingFile: @unchecked Sendable {
    // Used by one request at a time (libmicrohttpd calls a request's handler serially).
    private let folder: Int32
    private var fd: Int32
    private let temporaryName: String
    private let name: String
    /// `streams/{id}/…`, for messages.
    public let displayPath: String
    /// Bytes written so far.
    public private(set) var written = 0
    /// Bytes of the body received so far, written or not (after a failure the rest of the body
    /// is still read, so the client gets its answer): what the upload-rate deadline measures.
    public private(set) var received = 0
    /// The first write error; later writes are skipped, ``commit()`` throws it.
    public private(set) var failure: OriginStore.Error?
    private var finished = false

    init(folder: Int32, fd: Int32, temporaryName: String, name: String, displayPath: String) {
        self.folder = folder
        self.fd = fd
        self.temporaryName = temporaryName
        self.name = name
        self.displayPath = displayPath
    }

    /// Appends `count` bytes; remembers the first failure instead of throwing, so the
    /// request can still read the rest of its body and answer.
    public func write(_ bytes: UnsafeRawPointer, count: Int) {
        received += count
        guard failure == nil, !finished else { return }
        var done = 0
        while done < count {
            let result = Foundation.write(fd, bytes + done, count - done)
            if result < 0 {
                if errno == EINTR { continue }
                failure = OriginStore.fileError(errno, displayPath)
                return
            }
            done += result
        }
        written += count
    }

    /// Makes the written bytes the file's new version; returns whether a version existed.
    public func commit() throws(OriginStore.Error) -> Bool {
        precondition(!finished, "a pending file is committed once")
        if let failure { discard(); throw failure }
        guard fsync(fd) == 0 else { let error = OriginStore.fileError(errno, displayPath); discard(); throw error }
        close(fd)
        fd = -1
        var info = stat()
        let existed = fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0
        guard renameat(folder, temporaryName, folder, name) == 0 else {
            let error = OriginStore.fileError(errno, displayPath)
            discard()
            throw error
        }
        fsync(folder)
        finished = true
        close(folder)
        return existed
    }

    /// Removes the temp file. Idempotent.
    public func discard() {
        guard !finished else { return }
        finished = true
        if fd >= 0 { close(fd); fd = -1 }
        unlinkat(folder, temporaryName, 0)
        close(folder)
    }

    deinit { discard() }
}
