import Foundation
import ReelCore
import ReelTestSupport

/// Reads exports back with the ffmpeg CLI, as a player would.
enum ExportInspection {
    struct Failed: Error, CustomStringConvertible { var description: String }

    /// Every picture of `path` as grey levels (`width` x `height` bytes each).
    static func grayFrames(of path: String, width: Int, height: Int) throws -> [[UInt8]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "gray", "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failed(description: "ffmpeg could not decode \(path)") }
        let size = width * height
        return stride(from: 0, to: data.count - size + 1, by: size).map { Array(data[$0..<($0 + size)]) }
    }

    /// Mean absolute difference of two grey pictures inside `rect` (normalized).
    static func meanDifference(_ a: [UInt8], _ b: [UInt8], width: Int, height: Int, in rect: NormalizedRect) -> Double {
        let x0 = Int(rect.x * Double(width)), y0 = Int(rect.y * Double(height))
        let x1 = Int((rect.x + rect.width) * Double(width)), y1 = Int((rect.y + rect.height) * Double(height))
        var sum = 0, count = 0
        for y in max(0, y0)..<min(height, y1) {
            for x in max(0, x0)..<min(width, x1) {
                sum += abs(Int(a[y * width + x]) - Int(b[y * width + x]))
                count += 1
            }
        }
        return count > 0 ? Double(sum) / Double(count) : 0
    }

    /// The MD5 of `path`'s audio packets copied as they are (equal for a copy, different
    /// for anything re-encoded).
    static func audioPacketsMD5(_ path: String) throws -> String {
        let run = try Subprocess.run("ffmpeg", ["-v", "error", "-i", path, "-map", "0:a", "-c", "copy", "-f", "md5", "-"])
        guard run.status == 0 else { throw Failed(description: "ffmpeg could not read the audio of \(path): \(run.stderr)") }
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// ffprobe's value of `entry` (e.g. "stream=codec_name") for every stream, in order.
    static func probe(_ path: String, _ entry: String) throws -> [String] {
        let run = try Subprocess.run("ffprobe", ["-v", "error", "-show_entries", entry, "-of", "csv=p=0", path])
        guard run.status == 0 else { throw Failed(description: "ffprobe: \(run.stderr)") }
        return run.stdout.split(separator: "\n").map(String.init)
    }

    /// Whether the file's moov box comes before its mdat (a player can start before the end).
    static func moovFirst(_ path: String) throws -> Bool {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var offset = 0
        while offset + 8 <= data.count {
            let size = data[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: data[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if type == "moov" { return true }
            if type == "mdat" { return false }
            guard size >= 8 else { return false }
            offset += size
        }
        return false
    }
}
