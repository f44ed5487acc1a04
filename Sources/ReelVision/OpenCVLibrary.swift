import CVision

/// The OpenCV library Reel's detectors run on, as loaded at run time (for `reel --version`).
public enum OpenCVLibrary {
    /// OpenCV's own version string, asked of the library: `4.6.0`.
    public static var version: String { String(cString: cvision_opencv_version()) }
}
