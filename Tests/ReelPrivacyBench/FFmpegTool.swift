import Foundation

/// Runs the `ffmpeg` and `ffprobe` command-line tools (found on `PATH`, else /usr/bin).
public enum FFmpegTool {
    /// The path of `name` on `PATH`, else `/usr/bin/name`.
    public static func path(of name: String) -> String {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        for directory in directories {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return "/usr/bin/\(name)"
    }

    /// Runs `tool` with `arguments` to completion; returns its standard output. Standard error
    /// goes to a temporary file (a chatty tool cannot block) and into the error when it fails.
    @discardableResult
    public static func run(_ tool: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path(of: tool))
        process.arguments = arguments
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("reel-privacy-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let errorHandle = try FileHandle(forWritingTo: errorFile)
        defer { try? errorHandle.close() }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errorHandle
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw Error.notStarted(tool: tool, reason: error.localizedDescription)
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            throw Error.failed(tool: tool, status: process.terminationStatus, arguments: arguments,
                               stderr: String(message.suffix(2000)))
        }
        return data
    }

    /// Width, height and the number of video frames of `file` (frames counted by decoding).
    public static func probe(_ file: String) throws -> (width: Int, height: Int, frames: Int) {
        let data = try run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_frames",
                                       "-show_entries", "stream=width,height,nb_read_frames", "-of", "csv=p=0", file])
        let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: { $0 == "," || $0.isNewline }).compactMap { Int($0) }
        guard fields.count >= 3 else { throw Error.unreadableVideo(file: file) }
        return (fields[0], fields[1], fields[2])
    }

    /// The tools failed.
    public enum Error: Swift.Error, CustomStringConvertible {
        /// The tool could not be started.
        case notStarted(tool: String, reason: String)
        /// The tool exited with an error.
        case failed(tool: String, status: Int32, arguments: [String], stderr: String)
        /// ffprobe found no video stream.
        case unreadableVideo(file: String)

        /// What went wrong and what to do.
        public var description: String {
            switch self {
            case .notStarted(let tool, let reason):
                return "cannot start \(tool) (\(reason)): install the Debian package 'ffmpeg' (make setup)"
            case .failed(let tool, let status, let arguments, let stderr):
                return "\(tool) exited with status \(status): \(stderr.trimmingCharacters(in: .whitespacesAndNewlines))\n  arguments: \(arguments.joined(separator: " "))"
            case .unreadableVideo(let file):
                return "ffprobe finds no video stream in \(file): is it a video file?"
            }
        }
    }
}
