import Foundation
import ReelHTTP
import ReelRuntime

/// A new version of a stream file being written: a ``DurableFile`` started in the stream's
/// folder descriptor (temporary file beside its destination, created with `O_NOFOLLOW`, every
/// step relative to the folder the store reached without following a symlink). Either
/// ``commit()`` (fsync, atomic rename, folder fsync) or ``discard()``; a pending file that is
/// neither is discarded when released.
/// `@unchecked Sendable`: used by one request at a time (libmicrohttpd calls a request's handler serially).
public final class PendingFile: HTTPUpload, @unchecked Sendable {
    private let file: DurableFile
    /// `streams/{id}/…`, for messages.
    public let displayPath: String
    /// Bytes written so far.
    public private(set) var written = 0
    /// Bytes of the body received so far, written or not (after a failure the rest of the body
    /// is still read, so the client gets its answer): what the upload-rate deadline measures.
    public private(set) var received = 0
    /// The first write error; later writes are skipped, ``commit()`` throws it.
    public private(set) var failure: OriginStore.Error?

    init(file: DurableFile, displayPath: String) {
        self.file = file
        self.displayPath = displayPath
    }

    /// Appends `count` bytes; remembers the first failure instead of throwing (the temporary
    /// file is removed at once), so the request can still read the rest of its body and answer.
    public func write(_ bytes: UnsafeRawPointer, count: Int) {
        received += count
        guard failure == nil else { return }
        do {
            try file.write(UnsafeRawBufferPointer(start: bytes, count: count))
            written += count
        } catch {
            failure = OriginStore.fileError(error.code, displayPath)
        }
    }

    /// Makes the written bytes the file's new version; returns whether a version existed.
    public func commit() throws(OriginStore.Error) -> Bool {
        if let failure { throw failure }
        do {
            return try file.commit()
        } catch {
            throw OriginStore.fileError(error.code, displayPath)
        }
    }

    /// Removes the temp file. Idempotent.
    public func discard() {
        file.discard()
    }
}
