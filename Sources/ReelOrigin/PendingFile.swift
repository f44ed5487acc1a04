import Foundation
import ReelCore
import ReelHTTP
import ReelRuntime

/// A new version of a stream file being written: a ``DurableFile`` started in the stream's
/// folder descriptor (temporary file beside its destination, created with `O_NOFOLLOW`, every
/// step relative to the folder the store reached without following a symlink). Either
/// ``commit()`` (fsync, atomic rename, folder fsync) or ``discard()``; a pending file that is
/// neither is discarded when released.
/// `@unchecked Sendable`: used by one request at a time (libmicrohttpd calls a request's handler serially).
public final class PendingFile: HTTPUpload, @unchecked Sendable {
    private let durable: DurableFile
    private let store: OriginStore
    /// `streams/{id}/…`, for messages.
    public let displayPath: String
    /// The stream it belongs to.
    let layout: StreamLayout
    /// Which of the stream's files it is.
    let file: OriginFile
    /// The stream folder it is written in.
    let folder: OriginStore.FolderIdentity?
    /// A playlist's segments and end, counted as its bytes arrive (nil for other files).
    private(set) var tally: PlaylistTally?
    /// Bytes written so far.
    public private(set) var written = 0
    /// Bytes of the body received so far, written or not (after a failure the rest of the body
    /// is still read, so the client gets its answer): what the upload-rate deadline measures.
    public private(set) var received = 0
    /// The first write error; later writes are skipped, ``commit()`` throws it.
    public private(set) var failure: OriginStore.Error?

    init(file durable: DurableFile, displayPath: String, store: OriginStore, layout: StreamLayout, file: OriginFile,
         folder: OriginStore.FolderIdentity?) {
        self.durable = durable
        self.displayPath = displayPath
        self.store = store
        self.layout = layout
        self.file = file
        self.folder = folder
        tally = file == .playlist ? PlaylistTally() : nil
    }

    /// Appends `count` bytes; remembers the first failure instead of throwing (the temporary
    /// file is removed at once), so the request can still read the rest of its body and answer.
    public func write(_ bytes: UnsafeRawPointer, count: Int) {
        received += count
        guard failure == nil else { return }
        do {
            let chunk = UnsafeRawBufferPointer(start: bytes, count: count)
            try durable.write(chunk)
            tally?.consume(chunk)
            written += count
        } catch {
            failure = OriginStore.fileError(error.code, displayPath)
        }
    }

    /// Makes the written bytes the file's new version; returns whether a version existed.
    /// Throws ``OriginStore/Error/streamDeleted(_:)`` when its stream was deleted meanwhile.
    public func commit() throws(OriginStore.Error) -> Bool {
        if let failure { throw failure }
        return try store.commit(self, durable)
    }

    /// Removes the temp file. Idempotent.
    public func discard() {
        durable.discard()
    }
}
