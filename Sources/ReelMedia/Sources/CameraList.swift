import CLinux
import Foundation

/// A V4L2 video capture node (`/dev/videoN`): what the camera calls itself and the pixel
/// formats, sizes and rates it offers, as `reel sources` lists them.
public struct CameraDevice: Sendable, Codable, Equatable {
    /// One pixel format the camera delivers.
    public struct Format: Sendable, Codable, Equatable {
        /// The FourCC as text: "MJPG", "YUYV", "H264" (trailing spaces dropped, "-BE" added
        /// for big-endian variants).
        public var fourcc: String
        /// The driver's description: "Motion-JPEG", "YUYV 4:2:2".
        public var description: String
        /// The frame sizes, "1280x720", in the driver's order; a stepwise or continuous range
        /// is one text, "from 160x120 to 1920x1080".
        public var sizes: [String]
        /// The highest frame rate at the largest size; nil when the driver does not say.
        public var maxFramesPerSecond: Double?

        /// A format as the driver reports it.
        public init(fourcc: String, description: String, sizes: [String], maxFramesPerSecond: Double?) {
            self.fourcc = fourcc
            self.description = description
            self.sizes = sizes
            self.maxFramesPerSecond = maxFramesPerSecond
        }
    }

    /// The device node: "/dev/video0".
    public var path: String
    /// The camera's name (the driver's `card`): "HD Webcam C270".
    public var name: String
    /// The kernel driver: "uvcvideo".
    public var driver: String
    /// Where it is attached: "usb-0000:00:14.0-1".
    public var bus: String
    /// The capture formats, in the driver's order.
    public var formats: [Format]

    /// A camera as its node describes it.
    public init(path: String, name: String, driver: String, bus: String, formats: [Format]) {
        self.path = path
        self.name = name
        self.driver = driver
        self.bus = bus
        self.formats = formats
    }

    /// The `--source` argument that records from this camera: "v4l2:/dev/video0".
    public var sourceText: String { "v4l2:" + path }
}

/// The machine's V4L2 cameras, read with the V4L2 ioctls (QUERYCAP, ENUM_FMT,
/// ENUM_FRAMESIZES, ENUM_FRAMEINTERVALS); nothing is captured and no stream is started.
public enum CameraList {
    /// Why a path is not a camera Reel can list.
    public struct Error: Swift.Error, CustomStringConvertible, Equatable {
        /// What is wrong.
        public enum Reason: Sendable, Equatable {
            /// Nothing at the path (or the camera was unplugged).
            case noSuchDevice
            /// The node exists but this user may not open it.
            case permissionDenied
            /// A file or device that is not a V4L2 video capture node (a UVC camera's
            /// metadata node, /dev/null, a regular file).
            case notCapture
            /// Another failure of open or ioctl, with its errno.
            case failed(errno: Int32)
        }

        /// The path asked for.
        public var path: String
        /// What is wrong with it.
        public var reason: Reason

        /// A camera error for `path`.
        public init(path: String, reason: Reason) {
            self.path = path
            self.reason = reason
        }

        public var description: String {
            switch reason {
            case .noSuchDevice: "\(path): no such device"
            case .permissionDenied: "\(path): permission denied: add yourself to the video group (sudo usermod -aG video $USER, then log in again)"
            case .notCapture: "\(path): not a video capture device"
            case .failed(let code): "\(path): \(String(cString: strerror(code)))"
            }
        }
    }

    /// The capture cameras among `folder`'s `video*` nodes, by node number; nodes that cannot
    /// be opened or are not capture devices (metadata nodes) are left out.
    public static func devices(in folder: String = "/dev") -> [CameraDevice] {
        nodes(in: folder).compactMap { try? device(at: $0) }
    }

    /// The paths of `folder`'s `videoN` entries, sorted by N (video2 before video10), whatever
    /// they are; ``device(at:)`` tells which are cameras.
    public static func nodes(in folder: String = "/dev") -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let numbered = names.compactMap { name -> (Int, String)? in
            guard name.hasPrefix("video"), let number = Int(name.dropFirst("video".count)), number >= 0 else { return nil }
            return (number, name)
        }
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        return numbered.sorted { $0.0 < $1.0 }.map { base + $0.1 }
    }

    /// The camera at `path` (opened read-write and non-blocking, as V4L2 asks; always closed
    /// again). Throws ``Error`` when it is missing, not accessible or not a capture node.
    public static func device(at path: String) throws -> CameraDevice {
        let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw Error(path: path, reason: reason(errno)) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFCHR else { throw Error(path: path, reason: .notCapture) }

        var card = [CChar](repeating: 0, count: 64), driver = [CChar](repeating: 0, count: 32), bus = [CChar](repeating: 0, count: 64)
        var caps: UInt32 = 0
        guard reel_v4l2_query(fd, &card, card.count, &driver, driver.count, &bus, bus.count, &caps) == 0 else {
            throw Error(path: path, reason: errno == EINVAL ? .notCapture : reason(errno))
        }
        let bufferType: v4l2_buf_type
        if caps & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0 {
            bufferType = V4L2_BUF_TYPE_VIDEO_CAPTURE
        } else if caps & UInt32(V4L2_CAP_VIDEO_CAPTURE_MPLANE) != 0 {
            bufferType = V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE
        } else {
            throw Error(path: path, reason: .notCapture)
        }
        return CameraDevice(path: path, name: text(card), driver: text(driver), bus: text(bus),
                            formats: formats(fd, bufferType: bufferType))
    }

    /// Every format of `bufferType` with its sizes and top rate.
    static func formats(_ fd: Int32, bufferType: v4l2_buf_type) -> [CameraDevice.Format] {
        var formats: [CameraDevice.Format] = []
        var description = [CChar](repeating: 0, count: 64)
        var fourcc: UInt32 = 0, flags: UInt32 = 0
        // A bound in case a broken driver never answers EINVAL.
        for index in UInt32(0)..<256 {
            guard reel_v4l2_enum_format(fd, bufferType.rawValue, index, &fourcc, &description, description.count, &flags) == 0 else { break }
            let (sizes, largest) = frameSizes(fd, fourcc: fourcc)
            formats.append(CameraDevice.Format(fourcc: fourccText(fourcc), description: text(description), sizes: sizes,
                                               maxFramesPerSecond: largest.flatMap { maxRate(fd, fourcc: fourcc, width: $0.0, height: $0.1) }))
        }
        return formats
    }

    /// The sizes of `fourcc` as texts, and the largest one (by area) to ask rates for.
    static func frameSizes(_ fd: Int32, fourcc: UInt32) -> (texts: [String], largest: (UInt32, UInt32)?) {
        var texts: [String] = []
        var largest: (UInt32, UInt32)?
        var type: UInt32 = 0, width: UInt32 = 0, height: UInt32 = 0, maxWidth: UInt32 = 0, maxHeight: UInt32 = 0
        for index in UInt32(0)..<1024 {
            guard reel_v4l2_frame_size(fd, fourcc, index, &type, &width, &height, &maxWidth, &maxHeight) == 0 else { break }
            if type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
                let text = "\(width)x\(height)"
                if !texts.contains(text) { texts.append(text) }
            } else {
                texts.append("from \(width)x\(height) to \(maxWidth)x\(maxHeight)")
            }
            if largest.map({ UInt64($0.0) * UInt64($0.1) < UInt64(maxWidth) * UInt64(maxHeight) }) ?? true {
                largest = (maxWidth, maxHeight)
            }
            if type != V4L2_FRMSIZE_TYPE_DISCRETE.rawValue { break }
        }
        return (texts, largest)
    }

    /// The highest frame rate `fourcc` offers at `width` x `height`; nil when no interval is given.
    static func maxRate(_ fd: Int32, fourcc: UInt32, width: UInt32, height: UInt32) -> Double? {
        var best: Double?
        var numerator: UInt32 = 0, denominator: UInt32 = 0
        for index in UInt32(0)..<256 {
            guard reel_v4l2_frame_interval(fd, fourcc, width, height, index, &numerator, &denominator) == 0 else { break }
            guard numerator > 0, denominator > 0 else { continue }
            let rate = Double(denominator) / Double(numerator)
            best = max(best ?? rate, rate)
        }
        return best.map { ($0 * 100).rounded() / 100 }
    }

    /// "MJPG" from its little-endian code; trailing spaces dropped, "-BE" for the big-endian flag,
    /// other bytes that are not printable as hex.
    static func fourccText(_ code: UInt32) -> String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: (code & 0x7FFF_FFFF) >> ($0 * 8)) }
        let printable = bytes.allSatisfy { (0x20...0x7E).contains($0) }
        var text = printable ? String(decoding: bytes, as: UTF8.self) : String(format: "0x%08X", code & 0x7FFF_FFFF)
        while text.hasSuffix(" ") { text.removeLast() }
        return code & 0x8000_0000 != 0 ? text + "-BE" : text
    }

    /// The text before the first NUL of a C buffer, invalid UTF-8 repaired.
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The error reason for an errno of open or QUERYCAP.
    static func reason(_ code: Int32) -> Error.Reason {
        switch code {
        case ENOENT, ENODEV, ENXIO: .noSuchDevice
        case EACCES, EPERM: .permissionDenied
        case ENOTTY: .notCapture
        default: .failed(errno: code)
        }
    }
}
