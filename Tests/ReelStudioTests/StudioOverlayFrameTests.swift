import Foundation
import ReelCore
import ReelMedia
import ReelTestSupport
import Synchronization
import Testing
@testable import ReelStudio

extension StudioOverlayTests {
    /// The size of the last JPEG the preview `view` streams in about 2 s, from its SOF0 marker.
    static func previewSize(_ studio: TestStudio, view: String) throws -> [Int] {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        _ = try Subprocess.run("/usr/bin/curl", ["-s", "-o", folder.path("stream"), "--max-time", "2", "-H", "Authorization: Bearer \(studio.token)",
                                                 studio.base + "/api/overlay/preview?view=" + view])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.path("stream"))))
        guard bytes.count > 9, let sof = (0..<(bytes.count - 9)).last(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }) else { return [] }
        return [Int(bytes[sof + 7]) << 8 | Int(bytes[sof + 8]), Int(bytes[sof + 5]) << 8 | Int(bytes[sof + 6])]
    }

    @Test("the frame: the source's own shape by default; a lens switch to a source of the other shape, or another frame, builds the capture anew")
    func frameShapes() async throws {
        let opens = Mutex<[String]>([])
        try await withStudio(configure: { settings in
            Self.configure(&settings)
            settings.openSource = { spec in
                opens.withLock { $0.append(spec.description) }
                return try CaptureSources.open(spec)
            }
        }) { studio in
            let cookie = try studio.signIn()
            let preview = try BackgroundProcess("/usr/bin/curl", ["-s", "-o", "/dev/null", "--max-time", "60", "-H", "Cookie: \(cookie)",
                                                                studio.base + "/api/overlay/preview"])
            defer { preview.send(SIGTERM) }
            func overlay() -> [String: Any]? { try? Self.json(try studio.api([studio.base + "/api/overlay"])) }
            func shotSize() throws -> [Int] {
                let answer = try Self.json(try studio.post("/api/overlay/shoot", cookie: cookie))
                return [answer["width"] as? Int ?? 0, answer["height"] as? Int ?? 0]
            }
            _ = try await eventually("the first picture, landscape") { overlay()?["pictureSize"] as? [Int] == [640, 360] ? true : nil }
            #expect(try shotSize() == [480, 360])
            #expect(overlay()?["unfilteredAspect"] as? [Int] == [4, 3])
            #expect(try Self.previewSize(studio, view: "unfiltered") == [640, 480])
            #expect(opens.withLock { $0 }.count == 1, "the source opened once: the previews are sized for it from the start")

            let switched = try studio.post("/api/overlay/source", json: #"{"source":"test:240x320@15"}"#, cookie: cookie)
            #expect(switched.status == 200, "\(switched.text)")
            _ = try await eventually("the portrait source's pictures, not turned") {
                overlay()?["pictureSize"] as? [Int] == [240, 320] && overlay()?["unfilteredAspect"] as? [Int] == [3, 4] ? true : nil
            }
            _ = try await eventually("the unfiltered preview, portrait") { (try? Self.previewSize(studio, view: "unfiltered")) == [480, 640] ? true : nil }
            #expect(try shotSize() == [240, 320])

            let landscape = try studio.post("/api/overlay", json: #"{"frame":"landscape"}"#, cookie: cookie)
            #expect(landscape.status == 200, "\(landscape.text)")
            _ = try await eventually("the pictures turned landscape") { overlay()?["pictureSize"] as? [Int] == [320, 240] ? true : nil }
            #expect(try shotSize() == [320, 240])
            #expect(try Self.previewSize(studio, view: "unfiltered") == [640, 480])
            #expect(try studio.api([studio.base + "/api/camera"]).text.contains(#""source":"test:240x320@15""#), "the chosen source kept")
        }
    }
}
