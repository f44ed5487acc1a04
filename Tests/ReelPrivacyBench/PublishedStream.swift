import Foundation

/// A published HLS rendition as a player reads it: the init segment and the media segments
/// (`FOLDER/init.mp4`, `FOLDER/seg/*.m4s`, in name order) joined into one file, for the leak meter.
public enum PublishedStream {
    /// Joins the rendition in `folder` into `path`; returns `path`.
    public static func joined(_ folder: String, into path: String) throws -> String {
        let segments = try FileManager.default.contentsOfDirectory(atPath: folder + "/seg").filter { $0.hasSuffix(".m4s") }.sorted()
        var joined = try Data(contentsOf: URL(fileURLWithPath: folder + "/init.mp4"))
        for name in segments { joined += try Data(contentsOf: URL(fileURLWithPath: folder + "/seg/" + name)) }
        try joined.write(to: URL(fileURLWithPath: path))
        return path
    }
}
