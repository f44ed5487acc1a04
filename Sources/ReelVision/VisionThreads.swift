import CVision

/// How many threads OpenCV may use for one detection (process-wide). By default OpenCV uses
/// every core: a detection finishes sooner but costs the same CPU time or a little more.
public enum VisionThreads {
    /// Limits OpenCV to `count` threads (1: run in the calling thread only); nil restores
    /// OpenCV's default.
    public static func limit(_ count: Int?) {
        cvision_set_threads(count.map { Int32(clamping: max(1, $0)) } ?? -1)
    }
}
