import CFFmpeg
import Foundation

extension MP4Remuxer {
    /// The global metadata tags of the media file at `path` (title, comment, description…),
    /// read from its header without reading the packets: what the recorder uses to tell its
    /// own finished MP4 from another file at the same path.
    public static func tags(of path: String) throws -> [String: String] {
        FFmpegLog.quietByDefault
        var context: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_open_input(&context, path, nil, nil), "opening \(path)")
        defer { avformat_close_input(&context) }
        guard let context else { throw FFmpegError("opening \(path)", code: AV.error(ENOMEM)) }
        var tags: [String: String] = [:]
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while let next = av_dict_get(context.pointee.metadata, "", entry, AV_DICT_IGNORE_SUFFIX) {
            tags[String(cString: next.pointee.key)] = String(cString: next.pointee.value)
            entry = next
        }
        return tags
    }
}
