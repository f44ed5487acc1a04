import Foundation
import ReelCore
import ReelImage
import ReelMedia
import ReelOverlay
import Synchronization
import ReelTestSupport
import Testing
@testable import ReelStudio

/// The overlay camera's API over curl on loopback: the state and its refusals, the shutter into
/// the gallery, photos served by name only, imports refused with nothing kept, a camera that
/// vanishes between preview and shutter, and a full disk.
@Suite("Studio overlay camera API", .serialized)
struct StudioOverlayTests {
    static func configure(_ settings: inout StudioSettings) {
        settings.source = "test:640x360@15"
        settings.statusInterval = 0.3
        settings.shutterTimeout = 4
    }

    static func json(_ response: CurlResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any], "\(response.text)")
    }

    static func sticker(_ studio: TestStudio) throws -> String {
        let path = studio.folder.path("sticker.png")
        var samples = [UInt16](repeating: 0, count: 64 * 48 * 4)
        for i in stride(from: 0, to: samples.count, by: 4) where (i / 4) % 64 >= 8 { (samples[i], samples[i + 3]) = (65535, 65535) }
        try PNGWriter.encode(width: 64, height: 48, samples: samples, bitDepth: 8, icc: []).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func upload(_ studio: TestStudio, _ path: String, name: String, cookie: String) throws -> CurlResponse {
        try curl(["-X", "POST", "-H", "Cookie: \(cookie)", "-H", "Origin: \(studio.base)", "--data-binary", "@" + path,
                  studio.base + "/api/overlay/assets?name=" + name])
    }

    @Test("the state: a change is checked whole; an unknown asset is 404; the shot keeps the source's landscape shape, 4:3, in the gallery, served by name only")
    func stateShotAndGallery() async throws {
        try await withStudio(configure: Self.configure) { studio in
            let cookie = try studio.signIn()
            let bad = try studio.post("/api/overlay", json: #"{"format":"jpeg","orientation":45}"#, cookie: cookie)
            #expect(bad.status == 400 && bad.text.contains("orientation 45"), "\(bad.text)")
            let unknown = try studio.post("/api/overlay", json: #"{"asset":"3f2c1a9b-0d4e-4a53-9d1c-2f6f9d0c0002"}"#, cookie: cookie)
            #expect(unknown.status == 404, "\(unknown.text)")
            let state = try Self.json(try studio.api([studio.base + "/api/overlay"]))["state"] as? [String: Any]
            #expect(state?["format"] as? String == "heic" && state?["orientation"] as? Int == 0, "nothing of a refused change was kept")
            #expect(try studio.api([studio.base + "/api/overlay/preview?view=sepia"]).status == 400)

            let shot = try studio.post("/api/overlay/shoot", cookie: cookie)
            #expect(shot.status == 201, "\(shot.text)")
            let answer = try Self.json(shot), photo = try #require(answer["photo"] as? [String: Any])
            #expect(answer["width"] as? Int == 480 && answer["height"] as? Int == 360, "640x360 not turned, cropped to 4:3: \(answer)")
            let name = try #require(photo["name"] as? String)
            #expect(OverlayPhotoName.isValid(name) && name.hasSuffix(".heic"))
            let file = studio.server.settings.photosFolder + "/" + name
            let listed = try JSONSerialization.jsonObject(with: try studio.api([studio.base + "/api/overlay/photos"]).body) as? [[String: Any]]
            #expect(listed?.map { $0["name"] as? String } == [name])

            let download = try studio.api([studio.base + "/api/overlay/photos/" + name])
            #expect(download.status == 200 && download.headers["content-type"] == "image/heic")
            #expect(download.body == (try Data(contentsOf: URL(fileURLWithPath: file))))
            let view = try studio.api([studio.base + "/api/overlay/photos/\(name)/view"])
            #expect(view.status == 200 && view.headers["content-type"] == "image/jpeg")
            let viewFile = studio.folder.path("view.jpg")
            try view.body.write(to: URL(fileURLWithPath: viewFile))
            let shown = try DecodedImage(path: viewFile)
            #expect(shown.width == 480 && shown.height == 360)
            for path in ["..%2flibrary.sqlite", "..%2F..%2Fetc%2Fpasswd", "photo-none.jpg", "photo-1.png", name.uppercased()] {
                #expect(try studio.api([studio.base + "/api/overlay/photos/" + path]).status == 404, "\(path)")
            }
        }
    }

    @Test("import: not an image is 422 and leaves no file; over the bound is 413 before a byte is read; a PNG is kept, shown and removed")
    func imports() async throws {
        try await withStudio(configure: { Self.configure(&$0); $0.maxAssetBytes = 1 << 20 }) { studio in
            let cookie = try studio.signIn()
            let folder = (studio.server.settings.libraryPath as NSString).deletingLastPathComponent + "/overlay-assets"
            let text = studio.folder.path("notes.png")
            try Data("not a picture at all".utf8).write(to: URL(fileURLWithPath: text))
            let refused = try Self.upload(studio, text, name: "notes.png", cookie: cookie)
            #expect(refused.status == 422 && refused.text.contains("notes.png"), "\(refused.text)")
            let big = studio.folder.path("big.png")
            try Data(count: (1 << 20) + 1).write(to: URL(fileURLWithPath: big))
            #expect(try Self.upload(studio, big, name: "big.png", cookie: cookie).status == 413)
            let empty = try curl(["-X", "POST", "-H", "Cookie: \(cookie)", "-H", "Origin: \(studio.base)", "-H", "Content-Length: 0",
                                  studio.base + "/api/overlay/assets?name=x.png"])
            #expect(empty.status == 400, "\(empty.text)")
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).isEmpty, "nothing refused was kept")

            let added = try Self.upload(studio, try Self.sticker(studio), name: "my%20sticker.png", cookie: cookie)
            #expect(added.status == 201, "\(added.text)")
            let asset = try Self.json(added)
            let id = try #require(asset["id"] as? String)
            #expect(asset["name"] as? String == "my sticker" && asset["hasAlpha"] as? Bool == true)
            let picture = try studio.api([studio.base + "/api/overlay/assets/" + id])
            #expect(picture.status == 200 && picture.headers["content-type"] == "image/png" && picture.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            let chosen = try studio.post("/api/overlay", json: #"{"asset":"\#(id)"}"#, cookie: cookie)
            let transforms = try Self.json(chosen)["transforms"] as? [String: [Double]]
            #expect(transforms?.keys.sorted() == ["filtered", "unfiltered"], "\(chosen.text)")

            #expect(try studio.post("/api/overlay/assets/\(id)/remove", cookie: cookie).status == 200)
            #expect(try studio.api([studio.base + "/api/overlay/assets/" + id]).status == 404)
            #expect(try Self.json(try studio.api([studio.base + "/api/overlay"]))["asset"] == nil, "the removed asset is no longer chosen")
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).isEmpty, "its file went too")
            #expect(try studio.post("/api/overlay/assets/\(id)/remove", cookie: cookie).status == 404)
        }
    }

    @Test("the two previews are branches of one capture: the source is opened once, both streams get pictures of their own shape")
    func twoPreviewsOneCapture() async throws {
        let opens = Mutex(0)
        try await withStudio(configure: { settings in
            Self.configure(&settings)
            settings.openSource = { spec in
                opens.withLock { $0 += 1 }
                return try CaptureSources.open(spec)
            }
        }) { studio in
            let folder = try TemporaryDirectory()
            defer { folder.cleanup() }
            let streams = try ["unfiltered", "circle"].map { view in
                try BackgroundProcess("/usr/bin/curl", ["-s", "-o", folder.path(view), "--max-time", "3", "-H", "Authorization: Bearer \(studio.token)",
                                                        studio.base + "/api/overlay/preview?view=" + view])
            }
            for stream in streams { _ = await stream.wait(timeout: .seconds(10)) }
            #expect(opens.withLock { $0 } == 1, "one capture for both previews")
            for (view, size) in [("unfiltered", (640, 480)), ("circle", (640, 640))] {
                let data = try Data(contentsOf: URL(fileURLWithPath: folder.path(view)))
                var parts = 0, from = data.startIndex
                while let found = data.range(of: Data("--reel-preview-frame".utf8), in: from..<data.endIndex) {
                    parts += 1
                    from = found.upperBound
                }
                #expect(parts > 3, "\(view): \(parts) pictures in 3 s")
                // The first JPEG's size, from its SOF0 marker.
                let bytes = [UInt8](data)
                let sof = try #require((0..<(bytes.count - 9)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
                let height = Int(bytes[sof + 5]) << 8 | Int(bytes[sof + 6]), width = Int(bytes[sof + 7]) << 8 | Int(bytes[sof + 8])
                #expect(width == size.0 && height == size.1, "\(view): \(width)x\(height)")
            }
        }
    }

    @Test("the lens switch: another source opened inside the running capture, portrait from its first picture; one that cannot open leaves the current")
    func lensSwitch() async throws {
        let opens = Mutex<[String]>([])
        try await withStudio(configure: { settings in
            Self.configure(&settings)
            settings.openSource = { spec in
                opens.withLock { $0.append(spec.description) }
                return try CaptureSources.open(spec)
            }
        }) { studio in
            let cookie = try studio.signIn()
            let portrait = try studio.post("/api/overlay", json: #"{"frame":"portrait"}"#, cookie: cookie)
            #expect(portrait.status == 200, "\(portrait.text)")
            let preview = try BackgroundProcess("/usr/bin/curl", ["-s", "-o", "/dev/null", "--max-time", "30", "-H", "Cookie: \(cookie)",
                                                                studio.base + "/api/overlay/preview"])
            defer { preview.send(SIGTERM) }
            func pictureSize() -> [Int]? {
                (try? Self.json(try studio.api([studio.base + "/api/overlay"])))?["pictureSize"] as? [Int]
            }
            func shotSize() throws -> [Int] {
                let answer = try Self.json(try studio.post("/api/overlay/shoot", cookie: cookie))
                return [answer["width"] as? Int ?? 0, answer["height"] as? Int ?? 0]
            }
            _ = try await eventually("the first picture") { pictureSize() == [360, 640] ? true : nil }
            #expect(try shotSize() == [360, 480])

            let switched = try studio.post("/api/overlay/source", json: #"{"source":"test:320x240@15"}"#, cookie: cookie)
            #expect(switched.status == 200, "\(switched.text)")
            _ = try await eventually("the new source's pictures, portrait") { pictureSize() == [240, 320] ? true : nil }
            #expect(try shotSize() == [240, 320])
            #expect(try studio.api([studio.base + "/api/camera"]).text.contains(#""source":"test:320x240@15""#), "the chosen source follows")

            let missing = try studio.post("/api/overlay/source", json: #"{"source":"v4l2:/dev/video99"}"#, cookie: cookie)
            #expect(missing.status == 409 && missing.text.contains("still showing test:320x240@15"), "\(missing.text)")
            #expect(try shotSize() == [240, 320], "the current source kept running")
            #expect(opens.withLock { $0 }.count == 3, "one capture: the first source, the switch, the failed switch (\(opens.withLock { $0 }))")
        }
    }

    @Test("a camera that vanishes between preview and shutter: 503 saying why, nothing saved; plugged back in, the shutter works")
    func vanishedCamera() async throws {
        let camera = UnpluggableCamera()
        try await withStudio(configure: { Self.configure(&$0); $0.openSource = { try camera.open($0) } }) { studio in
            let cookie = try studio.signIn()
            #expect(try studio.post("/api/overlay/shoot", cookie: cookie).status == 201)
            // While the overlay camera holds the source, the record page says so and cannot record.
            let preview = try BackgroundProcess("/usr/bin/curl", ["-s", "-o", "/dev/null", "--max-time", "30", "-H", "Cookie: \(cookie)",
                                                                studio.base + "/api/overlay/preview"])
            defer { preview.send(SIGTERM) }
            try await eventually("the record page's camera saying the overlay camera has the source") {
                (try? studio.api([studio.base + "/api/camera"]).text.contains("overlay camera is using")) == true ? true : nil
            }
            let record = try studio.post("/api/recording/start", json: #"{"mode":"full"}"#, cookie: cookie)
            #expect(record.status == 409 && record.text.contains("overlay camera"), "\(record.text)")

            camera.plugged.withLock { $0 = false }
            let failed = try studio.post("/api/overlay/shoot", cookie: cookie)
            #expect(failed.status == 503 && failed.text.contains("no photo was taken"), "\(failed.text)")
            #expect(failed.text.contains("unplugged"), "says why: \(failed.text)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: studio.server.settings.photosFolder).count == 1)

            camera.plugged.withLock { $0 = true }
            let again = try studio.post("/api/overlay/shoot", cookie: cookie)
            #expect(again.status == 201, "\(again.text)")
        }
    }

    @Test("a full disk: 507 saying so, nothing kept; a smaller photo that fits is saved")
    func fullDisk() async throws {
        // A 360x480 photo of the test pattern: TIFF (16-bit, deflate) about 30 KB, HEIC about 10 KB.
        let disk = try PrivateDisk(bytes: 20 << 10)
        defer { disk.stop() }
        try await withStudio(configure: { settings in
            Self.configure(&settings)
            settings.folders = XDGDirectories(environment: ["XDG_DATA_HOME": settings.folders.data, "XDG_STATE_HOME": settings.folders.state,
                                                            "XDG_CACHE_HOME": settings.folders.cache, "XDG_PICTURES_DIR": disk.path],
                                              accountHome: settings.folders.home)
        }) { studio in
            let cookie = try studio.signIn()
            #expect(try studio.post("/api/overlay", json: #"{"format":"tiff"}"#, cookie: cookie).status == 200)
            let full = try studio.post("/api/overlay/shoot", cookie: cookie)
            #expect(full.status == 507 && full.text.contains("free some space"), "\(full.text)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path + "/reel").isEmpty, "no part of the photo was left")
            #expect(try studio.post("/api/overlay", json: #"{"format":"heic"}"#, cookie: cookie).status == 200)
            let fits = try studio.post("/api/overlay/shoot", cookie: cookie)
            #expect(fits.status == 201, "\(fits.text)")
        }
    }
}
