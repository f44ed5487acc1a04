import Foundation

/// Decodes a video's frames as 8-bit gray pictures (ffmpeg → raw `gray` on a pipe), one at a
/// time, in decode order. Frames are paired by index, never by timestamp: an exporter's edit
/// list or start offset must not shift the pairing.
public final class GrayVideoReader {
    /// Picture width (after the optional scaling).
    public let width: Int
    /// Picture height (after the optional scaling).
    public let height: Int
    /// The file read.
    public let path: String
    private let process: Process
    private let handle: FileHandle
    private let errorFile: URL
    private var finished = false

    /// Starts decoding `path`; `width`/`height` scale the pictures (bicubic) when they differ
    /// from the file's, so an export at another size can still be compared.
    public init(path: String, width: Int, height: Int) throws {
        self.path = path
        self.width = width
        self.height = height
        process = Process()
        process.executableURL = URL(fileURLWithPath: FFmpegTool.path(of: "ffmpeg"))
        process.arguments = ["-nostdin", "-v", "error", "-i", path, "-map", "0:v:0", "-fps_mode", "passthrough",
                             "-vf", "scale=\(width):\(height):flags=bicubic", "-f", "rawvideo", "-pix_fmt", "gray", "-"]
        errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("reel-privacy-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let errorHandle = try FileHandle(forWritingTo: errorFile)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = errorHandle
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw FFmpegTool.Error.notStarted(tool: "ffmpeg", reason: error.localizedDescription)
        }
        try? errorHandle.close()
        handle = pipe.fileHandleForReading
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? handle.close()
        try? FileManager.default.removeItem(at: errorFile)
    }

    /// The next frame (`width × height` bytes, row after row), or nil at the end. Throws when
    /// ffmpeg fails or the stream ends in the middle of a frame.
    public func next() throws -> [UInt8]? {
        if finished { return nil }
        let size = width * height
        var frame = [UInt8]()
        frame.reserveCapacity(size)
        while frame.count < size {
            let chunk = handle.readData(ofLength: size - frame.count)
            if chunk.isEmpty { break }
            frame.append(contentsOf: chunk)
        }
        if frame.count == size { return frame }
        finished = true
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            let message = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            throw FFmpegTool.Error.failed(tool: "ffmpeg", status: process.terminationStatus, arguments: process.arguments ?? [],
                                          stderr: String(message.suffix(2000)))
        }
        if !frame.isEmpty { throw Error.truncatedFrame(path: path, bytes: frame.count, expected: size) }
        return nil
    }

    /// A stream that cannot be read.
    public enum Error: Swift.Error, CustomStringConvertible {
        /// The last frame was cut short.
        case truncatedFrame(path: String, bytes: Int, expected: Int)

        /// What went wrong.
        public var description: String {
            switch self {
            case .truncatedFrame(let path, let bytes, let expected):
                return "the decoded video of \(path) ends inside a frame (\(bytes) of \(expected) bytes): is the file complete?"
            }
        }
    }
}
