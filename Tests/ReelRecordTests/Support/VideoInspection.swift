import Foundation
import ReelTestSupport
@testable import ReelMedia

/// Reads back what Reel wrote: frame numbers drawn by the test pattern, packet timestamps,
/// top-level MP4 boxes.
enum VideoInspection {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// The test-pattern frame number of every picture in `path`, in presentation order. ffmpeg
    /// decodes it, scales it back to the source's `width`x`height` and pipes only the bottom
    /// 48 rows (the number strip), so long videos stay small in memory.
    static func frameIndices(of path: String, width: Int, height: Int) throws -> [Int] {
        let rows = 48
        let data = try output("ffmpeg", ["-v", "error", "-i", path, "-fps_mode", "passthrough",
                                         "-vf", "scale=\(width):\(height),crop=\(width):\(rows):0:\(height - rows),format=gray",
                                         "-f", "rawvideo", "-"])
        let frameBytes = width * rows
        guard data.count % frameBytes == 0 else { throw Failure(description: "\(data.count) bytes is not a whole number of strips") }
        var picture = [UInt8](repeating: 0, count: width * height)
        var indices: [Int] = []
        for start in stride(from: 0, to: data.count, by: frameBytes) {
            picture.withUnsafeMutableBufferPointer { buffer in
                data.withUnsafeBytes { raw in
                    let source = raw.bindMemory(to: UInt8.self).baseAddress! + start
                    (buffer.baseAddress! + (height - rows) * width).update(from: source, count: frameBytes)
                }
            }
            let index = picture.withUnsafeBufferPointer {
                TestPattern.readFrameIndex(luma: $0.baseAddress!, stride: width, width: width, height: height)
            }
            indices.append(index ?? -1)
        }
        return indices
    }

    /// Video packets' presentation times in seconds, in decoding order (= presentation order:
    /// no B-frames), and whether each is a key frame.
    static func packets(of path: String) throws -> [(pts: Double, key: Bool)] {
        let text = String(decoding: try output("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                           "packet=pts_time,flags", "-of", "csv=p=0", path]), as: UTF8.self)
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: ",")
            guard parts.count >= 2, let pts = Double(parts[0]) else { return nil }
            return (pts, parts[1].hasPrefix("K"))
        }
    }

    /// The container's duration in seconds.
    static func duration(of path: String) throws -> Double {
        let text = String(decoding: try output("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path]),
                          as: UTF8.self)
        guard let value = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Failure(description: "no duration for \(path): '\(text)'")
        }
        return value
    }

    /// Top-level box types in order.
    static func boxes(of path: String) throws -> [String] {
        MP4Boxes.topLevel(try Data(contentsOf: URL(fileURLWithPath: path))).map(\.type)
    }

    /// ffmpeg decodes the whole file; returns what it complained about (empty: nothing).
    static func decodeErrors(of path: String) throws -> String {
        let run = try Subprocess.run("ffmpeg", ["-v", "warning", "-xerror", "-i", path, "-f", "null", "-"])
        return run.status == 0 ? run.stderr : "exit \(run.status): \(run.stderr)"
    }

    /// Runs a command and returns its standard output as bytes (throws when it fails).
    static func output(_ executable: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read standard error beside standard output, so neither pipe can fill up and block.
        let errors = ErrorText()
        let reader = Thread { errors.set(err.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while errors.get() == nil { usleep(1000) }
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(executable) \(arguments.joined(separator: " ")) failed: \(String(decoding: errors.get() ?? Data(), as: UTF8.self))")
        }
        return data
    }
}

/// Bytes set once by a reader thread.
private final class ErrorText: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    func set(_ d: Data) { lock.withLock { data = d } }
    func get() -> Data? { lock.withLock { data } }
}
