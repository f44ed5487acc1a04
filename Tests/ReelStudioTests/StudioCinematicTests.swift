import Foundation
import ReelCinematic
import ReelCore
import ReelTestSupport
import Testing
@testable import ReelStudio

/// The cinematic camera's API over curl on loopback, with the real models on a scene with a face:
/// commands and their refusals, an editable clip with a still taken while it records (the still
/// carries the blur, the clip does not), the clips list, the refocus editor's timeline and job,
/// names that cannot leave the folder, and a source that ends under a recording.
@Suite("Studio cinematic camera API", .serialized)
struct StudioCinematicTests {
    static let width = 640, height = 360

    /// `seconds` at 10 fps: the astronaut over a noise texture (the same noise in every picture).
    static func scene(in folder: TemporaryDirectory, seconds: Int = 6) throws -> String {
        let path = folder.path("scene.mp4")
        let filter = "color=c=gray:s=\(width)x\(height):r=10:d=\(seconds),noise=alls=40:all_seed=7[bg];"
            + "[0:v]scale=300:300[person];[bg][person]overlay=170:30:shortest=1,format=yuv420p"
        let run = try Subprocess.run("ffmpeg", ["-loglevel", "error", "-y", "-loop", "1", "-i", TestPhotos.astronautPath, "-filter_complex", filter,
                                                "-frames:v", "\(seconds * 10)", "-c:v", "libx264", "-qp", "0", "-preset", "ultrafast", path])
        try #require(run.status == 0, "ffmpeg could not make the scene: \(run.stderr)")
        return path
    }

    static func configure(_ settings: inout StudioSettings, scene: String) {
        settings.source = "file:" + scene
        settings.statusInterval = 0.3
        settings.shutterTimeout = 8
    }

    static func json(_ response: CurlResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any], "\(response.status) \(response.text)")
    }

    /// The luma of picture `index` (the first by default) of a video or picture file, decoded by ffmpeg.
    static func luma(_ path: String, picture index: Int = 0) throws -> [UInt8] {
        let raw = path + ".gray"
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let run = try Subprocess.run("ffmpeg", ["-loglevel", "error", "-y", "-i", path, "-vf", "select=eq(n\\,\(index))", "-frames:v", "1",
                                                "-f", "rawvideo", "-pix_fmt", "gray", raw])
        try #require(run.status == 0, "ffmpeg could not decode \(path): \(run.stderr)")
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
    }

    /// The spread of the luma in the background left of the person.
    static func backgroundSpread(_ luma: [UInt8]) -> Double {
        var sum = 0.0, squares = 0.0, count = 0.0
        for y in 20..<340 { for x in 10..<140 { let v = Double(luma[y * width + x]); sum += v; squares += v * v; count += 1 } }
        let mean = sum / count
        return (squares / count - mean * mean).squareRoot()
    }

    static func frames(_ path: String) throws -> Int {
        let probe = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", "v", "-count_frames", "-show_entries", "stream=nb_read_frames",
                                                   "-of", "csv=p=0", path])
        return Int(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    @Test("commands: a bad one is 400, one the camera cannot follow 409 with the reason; an aperture is kept before the camera runs")
    func commands() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let scene = try Self.scene(in: folder)
        try await withStudio(configure: { Self.configure(&$0, scene: scene) }) { studio in
            let cookie = try studio.signIn()
            let bad = try studio.post("/api/cinematic", json: #"{"command":"tap 2 2"}"#, cookie: cookie)
            #expect(bad.status == 400 && bad.text.contains("X and Y are shares of the picture"), "\(bad.text)")
            let range = try studio.post("/api/cinematic", json: #"{"command":"aperture 1.2"}"#, cookie: cookie)
            #expect(range.status == 400 && range.text.contains("outside the aperture's range"), "\(range.text)")
            let idle = try studio.post("/api/cinematic", json: #"{"command":"lock"}"#, cookie: cookie)
            #expect(idle.status == 409 && idle.text.contains("not running"), "\(idle.text)")
            let aperture = try studio.post("/api/cinematic", json: #"{"command":"aperture 2.8"}"#, cookie: cookie)
            let fNumber = try Self.json(aperture)["fNumber"] as? Double
            #expect(aperture.status == 200 && fNumber == 2.8, "\(aperture.text)")
            #expect(try studio.post("/api/cinematic", json: #"{"verb":"lock"}"#, cookie: cookie).status == 400)
            for path in ["clips/..%2flibrary.sqlite.mp4", "clips/a.mp4/..", "clips/UPPER.mp4", "stills/x.png", "clips/none.mp4", "stills/none.jpg",
                         "clips/none.mp4/timeline"] {
                #expect(try studio.api([studio.base + "/api/cinematic/" + path]).status == 404, "\(path)")
            }
            let refocus = try studio.post("/api/cinematic/refocus", json: #"{"clip":"none.mp4","keyframes":[]}"#, cookie: cookie)
            #expect(refocus.status == 404, "\(refocus.text)")
            #expect(try studio.post("/api/cinematic/record/stop", cookie: cookie).status == 409)
        }
    }

    @Test("an editable clip with a still taken while it records: the still carries the blur, the clip is unblurred with its sidecar; the clip refocused by keyframes")
    func clipStillAndRefocus() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let scene = try Self.scene(in: folder)
        try await withStudio(configure: { Self.configure(&$0, scene: scene) }) { studio in
            let cookie = try studio.signIn()
            #expect(try studio.post("/api/cinematic", json: #"{"command":"aperture 2"}"#, cookie: cookie).status == 200)
            let started = try studio.post("/api/cinematic/record", json: #"{"editable":true}"#, cookie: cookie)
            #expect(started.status == 201, "\(started.text)")
            let subject = try await eventually("the face found", within: 20) { () -> Int? in
                let state = try? Self.json(try studio.api([studio.base + "/api/cinematic"]))
                return ((state?["subjects"] as? [[String: Any]])?.first { $0["kind"] as? String == "face" })?["id"] as? Int
            }
            let unknown = try studio.post("/api/cinematic", json: #"{"command":"subject 999 strong"}"#, cookie: cookie)
            #expect(unknown.status == 409 && unknown.text.contains("no subject 999"), "\(unknown.text)")
            let strong = try studio.post("/api/cinematic", json: #"{"command":"subject \#(subject) strong"}"#, cookie: cookie)
            #expect(strong.status == 200, "\(strong.text)")
            // A command applies from the next picture on.
            _ = try await eventually("strong focus on the face") { () -> Bool? in
                let state = try? Self.json(try studio.api([studio.base + "/api/cinematic"]))
                let focused = (state?["subjects"] as? [[String: Any]])?.first { $0["id"] as? Int == subject }
                return state?["mode"] as? String == "strong" && focused?["style"] as? String == "strong" && focused?["focused"] as? Bool == true ? true : nil
            }
            let twice = try studio.post("/api/cinematic/record", cookie: cookie)
            #expect(twice.status == 409, "one clip at a time: \(twice.text)")

            let still = try studio.post("/api/cinematic/still", cookie: cookie)
            #expect(still.status == 201, "\(still.text)")
            let stillName = try #require((try Self.json(still))["name"] as? String)
            #expect(CinematicFileName.isValid(stillName, kind: .still))
            let stillFile = studio.folder.path("still.jpg")
            try (try studio.api([studio.base + "/api/cinematic/stills/" + stillName])).body.write(to: URL(fileURLWithPath: stillFile))
            let original = Self.backgroundSpread(try Self.luma(scene)), blurred = Self.backgroundSpread(try Self.luma(stillFile))
            #expect(blurred < 0.35 * original, "the still's background keeps \(blurred) of \(original)")

            // At least 1.5 s of clip: the refocus below racks for 0.8 s.
            try await eventually("1.5 s recorded") { () -> Bool? in
                let clip = (try? Self.json(try studio.api([studio.base + "/api/cinematic"])))?["clip"] as? [String: Any]
                return (clip?["seconds"] as? Double ?? 0) >= 1.5 ? true : nil
            }
            let stopped = try studio.post("/api/cinematic/record/stop", cookie: cookie)
            #expect(stopped.status == 200, "\(stopped.text)")
            let clip = try #require((try Self.json(stopped))["clip"] as? [String: Any])
            let name = try #require(clip["name"] as? String), pictures = try #require(clip["pictures"] as? Int)
            #expect(clip["recording"] as? Bool == false && clip["editable"] as? Bool == true && clip["problem"] == nil, "\(clip)")
            let path = studio.server.settings.cinematicFolder + "/" + name
            let inFile = try Self.frames(path)
            #expect(pictures >= 10 && inFile == pictures, "every picture recorded is in the file: \(inFile) of \(pictures)")
            #expect(FileManager.default.fileExists(atPath: CinematicSidecarWriter.path(forVideo: path)))
            let unblurred = Self.backgroundSpread(try Self.luma(path))
            #expect(unblurred > 0.8 * original, "the editable clip keeps the background: \(unblurred) of \(original)")

            let list = try Self.json(try studio.api([studio.base + "/api/cinematic/clips"]))
            #expect((list["clips"] as? [[String: Any]])?.map { $0["name"] as? String } == [name])
            #expect((list["clips"] as? [[String: Any]])?.first?["editable"] as? Bool == true)
            #expect((list["stills"] as? [[String: Any]])?.map { $0["name"] as? String } == [stillName])
            let video = try studio.api(["-H", "Range: bytes=0-99", studio.base + "/api/cinematic/clips/" + name])
            #expect(video.status == 206 && video.body.count == 100)

            let timeline = try Self.json(try studio.api([studio.base + "/api/cinematic/clips/\(name)/timeline"]))
            let points = try #require(timeline["points"] as? [[String: Any]])
            #expect(timeline["width"] as? Int == Self.width && points.count >= 5)
            #expect(points.contains { (($0["subjects"] as? [[String: Any]]) ?? []).contains { $0["id"] as? Int == subject } })

            let badCommand = try studio.post("/api/cinematic/refocus", json: #"{"clip":"\#(name)","keyframes":[{"at":0,"command":"aperture 3"}]}"#, cookie: cookie)
            #expect(badCommand.status == 400 && badCommand.text.contains("whole clip"), "\(badCommand.text)")
            let body = #"{"clip":"\#(name)","keyframes":[{"at":0,"command":"press 0.05 0.05"}],"aperture":2}"#
            let job = try studio.post("/api/cinematic/refocus", json: body, cookie: cookie)
            #expect(job.status == 202, "\(job.text)")
            let output = try #require((try Self.json(job))["output"] as? String)
            #expect(output == name.replacingOccurrences(of: ".mp4", with: "-refocused.mp4"))
            let finished = try await eventually("the refocus ended", within: 60) { () -> [String: Any]? in
                let state = try? Self.json(try studio.api([studio.base + "/api/cinematic/refocus"]))
                return state?["state"] as? String == "running" ? nil : state
            }
            #expect(finished["state"] as? String == "finished", "\(finished)")
            let refocused = studio.server.settings.cinematicFolder + "/" + output
            #expect(try Self.frames(refocused) == pictures)
            // Focus fixed on the background from the start: once racked there (0.8 s), the last
            // picture's background keeps its noise, where the recording's focus blurred it.
            let sharp = Self.backgroundSpread(try Self.luma(refocused, picture: pictures - 1))
            #expect(sharp > 0.6 * original, "the refocused background keeps \(sharp) of \(original)")
        }
    }

    /// The default tier holds its rules: `StudioCinematicEmptyClipTests` (the studio's clip on a full disk) and `CinematicFailureTests.fullDisk` (the writer).
    @Test("a disk that fills up under a clip: the clip ends saying so, every fragment written before stays playable, the preview goes on (long tier: make test-long)", .longTier)
    func fullDiskLongTier() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let scene = try Self.scene(in: folder, seconds: 30)
        // 640x360 noise at CRF 16: a 1 MB disk holds a fragment or two.
        let disk = try PrivateDisk(bytes: 1 << 20)
        defer { disk.stop() }
        try await withStudio(configure: { settings in
            Self.configure(&settings, scene: scene)
            settings.folders = XDGDirectories(environment: ["XDG_DATA_HOME": settings.folders.data, "XDG_STATE_HOME": settings.folders.state,
                                                            "XDG_CACHE_HOME": settings.folders.cache, "XDG_VIDEOS_DIR": disk.path],
                                              accountHome: settings.folders.home)
        }) { studio in
            let cookie = try studio.signIn()
            let preview = try BackgroundProcess("/usr/bin/curl", ["-s", "-o", "/dev/null", "--max-time", "60", "-H", "Cookie: \(cookie)",
                                                                studio.base + "/api/cinematic/preview"])
            defer { preview.send(SIGTERM) }
            let started = try studio.post("/api/cinematic/record", json: #"{"editable":true}"#, cookie: cookie)
            #expect(started.status == 201, "\(started.text)")
            let clip = try await eventually("the clip ended by the full disk", within: 30) { () -> [String: Any]? in
                let clip = (try? Self.json(try studio.api([studio.base + "/api/cinematic"])))?["clip"] as? [String: Any]
                return clip?["recording"] as? Bool == false ? clip : nil
            }
            #expect((clip["problem"] as? String)?.contains("the disk is full") == true, "\(clip)")
            let name = try #require(clip["name"] as? String)
            let kept = try Self.frames(studio.server.settings.cinematicFolder + "/" + name)
            #expect(kept >= 10, "the fragments written before stay playable: \(kept) pictures")
            let frames = (try Self.json(try studio.api([studio.base + "/api/cinematic"])))["frames"] as? Int ?? 0
            try await eventually("the preview going on") { () -> Bool? in
                ((try? Self.json(try studio.api([studio.base + "/api/cinematic"])))?["frames"] as? Int ?? 0) > frames + 5 ? true : nil
            }
            #expect(try studio.post("/api/cinematic/record/stop", cookie: cookie).status == 409)
        }
    }

    @Test("a source that ends under a recording: the clip is closed with every picture and says why; the preview's JPEGs are served meanwhile")
    func sourceEnds() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let scene = try Self.scene(in: folder)
        try await withStudio(configure: { Self.configure(&$0, scene: scene) }) { studio in
            let cookie = try studio.signIn()
            let started = try studio.post("/api/cinematic/record", json: #"{"editable":false}"#, cookie: cookie)
            #expect(started.status == 201, "\(started.text)")
            let preview = try curl(["-s", "--max-time", "2", "-H", "Cookie: \(cookie)", studio.base + "/api/cinematic/preview"])
            #expect(preview.headers["content-type"]?.hasPrefix("multipart/x-mixed-replace") == true && preview.body.count > 1000)
            let clip = try await eventually("the clip ended with the source", within: 30) { () -> [String: Any]? in
                let state = try? Self.json(try studio.api([studio.base + "/api/cinematic"]))
                let clip = state?["clip"] as? [String: Any]
                return clip?["recording"] as? Bool == false ? clip : nil
            }
            #expect((clip["problem"] as? String)?.contains("the clip keeps every picture recorded") == true, "\(clip)")
            let name = try #require(clip["name"] as? String), pictures = try #require(clip["pictures"] as? Int)
            let path = studio.server.settings.cinematicFolder + "/" + name
            let inFile = try Self.frames(path)
            #expect(pictures >= 40 && inFile == pictures, "\(inFile) of \(pictures) pictures")
            #expect(!FileManager.default.fileExists(atPath: CinematicSidecarWriter.path(forVideo: path)), "not editable: no sidecar")
        }
    }
}
