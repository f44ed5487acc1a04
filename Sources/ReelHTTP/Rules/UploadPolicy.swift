import ReelCore

/// Whether a PUT's body may be read at all, decided from its headers before any body byte is
/// read: a declared `Content-Length` is required (no chunked uploads), and bounded.
public struct UploadPolicy: Sendable, Hashable {
    /// The largest body accepted: 32 MiB by default.
    public var maxBodyBytes: Int

    /// The policy with a body limit.
    public init(maxBodyBytes: Int = 32 << 20) {
        self.maxBodyBytes = maxBodyBytes
    }

    /// The outcome for one request.
    public enum Decision: Sendable, Hashable {
        /// Read exactly this many bytes.
        case accept(length: Int)
        /// 411: no `Content-Length` (or a chunked body).
        case lengthRequired
        /// 413: more than ``maxBodyBytes``.
        case tooLarge(length: Int)
        /// 400: a `Content-Length` that is not a plain decimal number.
        case invalidLength
    }

    /// The decision for the request's `Content-Length` and `Transfer-Encoding` values.
    public func decide(contentLength: String?, transferEncoding: String?) -> Decision {
        if let transferEncoding, !transferEncoding.trimmingASCIISpaces().isEmpty { return .lengthRequired }
        guard let contentLength else { return .lengthRequired }
        let text = contentLength.trimmingASCIISpaces()
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return .invalidLength
        }
        guard text.utf8.count <= 18, let length = Int(text) else { return .tooLarge(length: Int.max) }
        return length > maxBodyBytes ? .tooLarge(length: length) : .accept(length: length)
    }
}
