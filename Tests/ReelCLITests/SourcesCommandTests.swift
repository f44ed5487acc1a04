import Foundation
import ReelMedia
import ReelTestSupport
import Testing
@testable import ReelCLI

/// `reel sources` through the built binary (this machine has no camera), and its text for a
/// camera made up in the test.
@Suite("reel sources")
struct SourcesCommandTests {
    @Test("text: no camera said plainly, then the test source and files")
    func text() throws {
        let run = try ReelBinary.run(["sources"])
        #expect(run.status == 0, "\(run.stderr)")
        try #require(!FileManager.default.fileExists(atPath: "/dev/video0"), "this test expects a machine without cameras")
        #expect(run.stdout.hasPrefix("no V4L2 camera found in /dev (plug one in, or check you are in the video group)\n"))
        #expect(run.stdout.contains("test[:WxH[@FPS]]"))
        #expect(run.stdout.contains("file:PATH"))
    }

    @Test("--json: {cameras, test, file}")
    func json() throws {
        let run = try ReelBinary.run(["sources", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect((object["cameras"] as? [Any])?.isEmpty == true)
        #expect(object["test"] as? String == "test")
        #expect(object["file"] as? String == "file:PATH")
    }

    @Test("a camera's lines and JSON")
    func camera() throws {
        let camera = CameraDevice(path: "/dev/video0", name: "HD Webcam C270", driver: "uvcvideo", bus: "usb-0000:00:14.0-1", formats: [
            .init(fourcc: "MJPG", description: "Motion-JPEG", sizes: ["1280x720", "640x480"], maxFramesPerSecond: 30),
            .init(fourcc: "YUYV", description: "YUYV 4:2:2", sizes: ["from 160x120 to 1280x720"], maxFramesPerSecond: 7.5),
            .init(fourcc: "H264", description: "H.264", sizes: [], maxFramesPerSecond: nil),
        ])
        let lines = SourcesCommand.text([camera]).split(separator: "\n").prefix(5)
        #expect(Array(lines) == [
            "Cameras:",
            "  v4l2:/dev/video0   HD Webcam C270 (uvcvideo, usb-0000:00:14.0-1)",
            "    MJPG  Motion-JPEG: 1280x720, 640x480 (up to 30 fps)",
            "    YUYV  YUYV 4:2:2: from 160x120 to 1280x720 (up to 7.5 fps)",
            "    H264  H.264: sizes not reported",
        ])
        let json = try LibraryCommandText.json(SourcesCommand.jsonObject([camera]))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let cameras = try #require(object["cameras"] as? [[String: Any]])
        #expect(cameras.first?["source"] as? String == "v4l2:/dev/video0")
        let formats = try #require(cameras.first?["formats"] as? [[String: Any]])
        #expect(formats.map { $0["fourcc"] as? String } == ["MJPG", "YUYV", "H264"])
        #expect(formats[1]["maxFramesPerSecond"] as? Double == 7.5)
        #expect(formats[2]["maxFramesPerSecond"] is NSNull)
    }
}
