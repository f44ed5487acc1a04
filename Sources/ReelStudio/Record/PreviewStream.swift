import Foundation
import ReelHTTP
import ReelMedia

/// The body of `GET /api/preview`: the live preview as `multipart/x-mixed-replace` JPEGs (an
/// `<img>` shows it; so do ffplay and curl). Each read waits for a picture newer than the last
/// one sent, so a slow browser skips pictures instead of queueing them; with no new picture
/// for ``resend`` seconds it sends the newest again, which also tells the server when the
/// browser has gone, or ends when it has sent none yet (the source delivers nothing).
final class PreviewStream: HTTPStream, @unchecked Sendable {
    static let boundary = "reel-preview-frame"
    static var contentType: String { "multipart/x-mixed-replace; boundary=\(boundary)" }
    /// A part's boundary and headers.
    static var partHead: String { "--\(boundary)\r\nContent-Type: image/jpeg\r\n\r\n" }

    // One connection's reads are serial; `closed` is also written by close() from another
    // thread, hence the lock.
    private let feed: PreviewFeed
    private let resend: Double
    private let ended: @Sendable () -> Void
    private var sent = 0
    private var unsent: [UInt8] = []
    private var offset = 0
    private let lock = NSLock()
    private var closed = false

    /// A stream of `feed`'s pictures; `ended` is called once when it ends.
    init(feed: PreviewFeed, resend: Double, ended: @escaping @Sendable () -> Void) {
        self.feed = feed
        self.resend = resend
        self.ended = ended
        feed.join()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        if offset >= unsent.count {
            // No picture within `resend` seconds: the newest again, or, when none was ever
            // sent, the end (a stream that never writes could never notice its browser leave;
            // the page asks again).
            guard !isClosed, !feed.isClosed,
                  let picture = feed.next(after: sent, timeout: resend) ?? (sent > 0 ? feed.latest : nil) else { return nil }
            // Each part ends with the next part's boundary and headers: a browser shows a part
            // only once it has read the headers of the one after it, so headers sent with the
            // next picture would hold every picture back by a frame's time. (So the parts carry
            // no Content-Length: the next picture's size is not known yet.)
            var part: [UInt8] = sent == 0 ? Array(Self.partHead.utf8) : []
            part += picture.jpeg
            part += Array(("\r\n" + Self.partHead).utf8)
            sent = picture.sequence
            unsent = part
            offset = 0
        }
        let count = min(buffer.count, unsent.count - offset)
        unsent.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<offset + count])) }
        offset += count
        return count
    }

    private var isClosed: Bool { lock.withLock { closed } }

    func close() {
        let first = lock.withLock { () -> Bool in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        feed.leave()
        ended()
    }
}
