import Foundation

/// Media files made by ffmpeg for tests: a picture from lavfi's testsrc2 and, optionally, a
/// 440 Hz tone, encoded with libx264 (+ AAC).
public enum TestMedia {
    /// Writes `seconds` of `width`x`height` at 30 fps to `path`; `extraArguments` go before
    /// the output (e.g. `["-bf", "3"]` or `["-movflags", "+faststart"]`). Throws when ffmpeg fails.
    public static func makeClip(at path: String, seconds: Int, width: Int, height: Int, audio: Bool = true,
                                extraArguments: [String] = []) throws {
        var arguments = ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=30"]
        if audio { arguments += ["-f", "lavfi", "-i", "sine=f=440:sample_rate=48000"] }
        arguments += ["-t", String(seconds), "-c:v", "libx264"] + (audio ? ["-c:a", "aac"] : []) + extraArguments + [path]
        let run = try Subprocess.run("ffmpeg", arguments)
        guard run.status == 0 else { throw Failed(stderr: run.stderr) }
    }

    /// ffmpeg could not make the clip.
    public struct Failed: Error, CustomStringConvertible {
        public var stderr: String
        public var description: String { "ffmpeg could not make the test clip: \(stderr)" }
    }
}
