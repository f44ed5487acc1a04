import Foundation
import ReelTestSupport
import Testing
@testable import ReelMedia

/// The camera list on a machine without cameras: folders without video nodes, files that are
/// not V4L2 devices, paths that do not exist. (With a camera, `reel sources` shows the rest.)
@Suite("Camera list (V4L2 ioctls)")
struct CameraListTests {
    @Test("an empty folder has no cameras")
    func emptyFolder() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        #expect(CameraList.nodes(in: dir.url.path).isEmpty)
        #expect(CameraList.devices(in: dir.url.path) == [])
    }

    @Test("a regular file named video0 is a node but not a camera")
    func regularFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        try Data("not a camera".utf8).write(to: dir.url.appendingPathComponent("video0"))
        #expect(CameraList.nodes(in: dir.url.path) == [dir.path("video0")])
        #expect(CameraList.devices(in: dir.url.path) == [])
        #expect(throws: CameraList.Error(path: dir.path("video0"), reason: .notCapture)) { try CameraList.device(at: dir.path("video0")) }
    }

    @Test("nodes are videoN only, sorted by number")
    func nodeOrder() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        for name in ["video10", "video2", "video0", "videox", "video", "media0", "vbi0"] {
            _ = FileManager.default.createFile(atPath: dir.path(name), contents: nil)
        }
        #expect(CameraList.nodes(in: dir.url.path) == ["video0", "video2", "video10"].map(dir.path))
    }

    @Test("a character device that is not V4L2 (/dev/null) is not a video capture device")
    func devNull() {
        #expect { try CameraList.device(at: "/dev/null") } throws: { error in
            (error as? CameraList.Error)?.reason == .notCapture && "\(error)" == "/dev/null: not a video capture device"
        }
    }

    @Test("a path that does not exist is no such device")
    func missing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let path = dir.path("video7")
        #expect { try CameraList.device(at: path) } throws: { error in
            (error as? CameraList.Error)?.reason == .noSuchDevice && "\(error)" == "\(path): no such device"
        }
    }

    @Test("errno maps to what the user can do")
    func reasons() {
        #expect(CameraList.reason(EACCES) == .permissionDenied)
        #expect(CameraList.reason(ENODEV) == .noSuchDevice)
        #expect(CameraList.reason(ENOTTY) == .notCapture)
        #expect(CameraList.reason(EIO) == .failed(errno: EIO))
        #expect("\(CameraList.Error(path: "/dev/video0", reason: .permissionDenied))".contains("permission denied: add yourself to the video group"))
    }

    @Test("FourCC codes as text")
    func fourcc() {
        func code(_ text: String) -> UInt32 { text.utf8.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) } }
        #expect(CameraList.fourccText(code("MJPG")) == "MJPG")
        #expect(CameraList.fourccText(code("YUYV")) == "YUYV")
        #expect(CameraList.fourccText(code("Y16 ")) == "Y16")
        #expect(CameraList.fourccText(code("Y16 ") | 0x8000_0000) == "Y16-BE")
        #expect(CameraList.fourccText(1) == "0x00000001")
    }

    @Test("a device's source argument and JSON round trip")
    func codable() throws {
        let camera = CameraDevice(path: "/dev/video0", name: "HD Webcam", driver: "uvcvideo", bus: "usb-1",
                                  formats: [.init(fourcc: "MJPG", description: "Motion-JPEG", sizes: ["1280x720"], maxFramesPerSecond: 30)])
        #expect(camera.sourceText == "v4l2:/dev/video0")
        #expect(try JSONDecoder().decode(CameraDevice.self, from: JSONEncoder().encode(camera)) == camera)
    }
}
