import CFFmpeg

/// A failure reported by an FFmpeg call, with the operation that failed and FFmpeg's message.
public struct FFmpegError: Error, CustomStringConvertible, Sendable {
    /// What Reel was doing, e.g. "opening encoder libx264".
    public var operation: String
    /// FFmpeg's error code (a negative AVERROR).
    public var code: Int32
    /// FFmpeg's text for `code`.
    public var message: String

    /// Describes `code` for `operation`.
    public init(_ operation: String, code: Int32) {
        self.operation = operation
        self.code = code
        self.message = FFmpegError.text(for: code)
    }

    /// FFmpeg's text for an error code (`av_strerror`).
    public static func text(for code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        if av_strerror(code, &buffer, buffer.count) < 0 { return "error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public var description: String { "\(operation) failed: \(message)" }
}

/// Throws an ``FFmpegError`` when `code` is negative; returns it otherwise.
@discardableResult
func check(_ code: Int32, _ operation: @autoclosure () -> String) throws -> Int32 {
    if code < 0 { throw FFmpegError(operation(), code: code) }
    return code
}

/// FFmpeg constants that are macros in C.
enum AV {
    static let noPTS = reel_av_nopts_value()
    static let eof = reel_averror_eof()
    static let eagain = reel_averror_eagain()
    static func error(_ posix: Int32) -> Int32 { reel_averror(posix) }
}
