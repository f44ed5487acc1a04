import CBuildInfo
import ReelMedia
import ReelHTTP
import ReelOrigin
import ReelStore
import ReelVision

/// What `reel --version` and `reel version` print: Reel's version, the commit it was built
/// from, and the versions of the C libraries it runs with, asked of each library at run time
/// (the Debian package that is installed, not the headers it was built against).
public enum ReelVersion {
    /// Reel's release number; raised by hand when a release is cut.
    public static let number = "0.13.0"

    /// The git commit of the build, embedded by `make` (`Sources/CBuildInfo`); `unknown` for
    /// a plain `swift build`.
    public static var commit: String { String(cString: reel_build_commit()) }

    /// The libraries, in the order a bug report needs them: name and version.
    public static var libraries: [(name: String, version: String)] {
        [("FFmpeg", FFmpegLibrary.version), ("OpenCV", OpenCVLibrary.version),
         ("SQLite", SQLiteLibrary.version), ("libmicrohttpd", MicroHTTPDLibrary.version)]
    }

    /// `reel 0.13.0 (commit 3f2c1a9b0d4e)` and one line per library. Ends with a newline.
    public static var text: String {
        let lines = ["reel \(number) (commit \(commit))"] + libraries.map { "\($0.name) \($0.version)" }
        return lines.joined(separator: "\n") + "\n"
    }
}
