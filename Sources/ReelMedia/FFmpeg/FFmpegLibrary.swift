import CFFmpeg

/// The FFmpeg libraries Reel runs with, as loaded at run time (for `reel --version`): the
/// distribution's version string and the libraries' own numbers, which say what a bug report needs.
public enum FFmpegLibrary {
    /// `5.1.6-0+deb12u1 (libavcodec 59.37.100, libavformat 59.27.100, libavutil 57.28.100)`.
    public static var version: String {
        let libraries = [("libavcodec", avcodec_version()), ("libavformat", avformat_version()), ("libavutil", avutil_version())]
        let numbers = libraries.map { "\($0.0) \($0.1 >> 16).\(($0.1 >> 8) & 0xff).\($0.1 & 0xff)" }
        return String(cString: av_version_info()) + " (" + numbers.joined(separator: ", ") + ")"
    }
}
