import Foundation
import ReelCore
import ReelStore
import ReelTestSupport
import Testing
@testable import ReelStudio

/// A session to review: a 3 s 640x360 clip of fine noise (a mosaic shows at once against
/// it) with a face track of two segments, a face for 1.4 s then a wider box; and a session
/// with the same clip but no face track.
struct ReviewFixture {
    let reviewed: StudySession
    let bare: StudySession

    init(_ studio: TestStudio, seconds: Int = 3, startedAt: Date = Date(timeIntervalSince1970: 1_796_000_000)) throws {
        let folder = studio.folder.path("recordings")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let video = folder + "/study.mp4"
        try TestMedia.makeClip(at: video, seconds: seconds, width: 640, height: 360, audio: false,
                               extraArguments: ["-vf", "noise=alls=40:allf=u", "-crf", "16"])
        var samples: [FaceTrackSample] = []
        for k in 0..<(5 * seconds) {
            let t = MediaTime(value: Int64(k) * 120, timescale: 600)
            samples.append(k < 8 ? FaceTrackSample(time: t, segment: 0, kind: .face, box: NormalizedRect(x: 0.4, y: 0.2, width: 0.2, height: 0.35))
                                 : FaceTrackSample(time: t, segment: 1, kind: .widenedFace, box: NormalizedRect(x: 0.3, y: 0.2, width: 0.4, height: 0.35)))
        }
        try FaceTrack(samples: samples).jsonData().write(to: URL(fileURLWithPath: folder + "/study.faces.json"))
        reviewed = StudySession(id: UUID(), startedAt: startedAt, endedAt: startedAt + Double(seconds), activeSeconds: Double(seconds),
                                videoSeconds: Double(seconds), mode: .full, intervalSeconds: nil, filePath: video, thumbnailPath: nil,
                                faceTrackPath: folder + "/study.faces.json", title: "Reviewed", tags: [])
        bare = StudySession(id: UUID(), startedAt: startedAt - 60, endedAt: startedAt - 60 + Double(seconds), activeSeconds: Double(seconds),
                            videoSeconds: Double(seconds), mode: .full, intervalSeconds: nil, filePath: video, thumbnailPath: nil,
                            faceTrackPath: nil, title: "No track", tags: [])
        let library = try StudyLibrary(path: studio.server.settings.libraryPath)
        try library.add(reviewed)
        try library.add(bare)
    }

    var id: String { reviewed.id.uuidString.lowercased() }
    var editsPath: String { PrivacyEdits.path(forVideo: reviewed.filePath) }
}

/// Pictures the studio sends, looked at as ffmpeg decodes them.
enum StudioPictures {
    /// The JPEG `bytes` as 8-bit grey, with its size.
    static func gray(_ bytes: Data) throws -> (pixels: [UInt8], width: Int, height: Int) {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        try bytes.write(to: URL(fileURLWithPath: folder.path("in.jpg")))
        let probe = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                                                   "-of", "csv=p=0", folder.path("in.jpg")])
        let size = probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
        let run = try Subprocess.run("ffmpeg", ["-v", "error", "-i", folder.path("in.jpg"), "-f", "rawvideo", "-pix_fmt", "gray", folder.path("out.gray")])
        #expect(run.status == 0 && size.count == 2, "\(run.stderr)")
        return (Array(try Data(contentsOf: URL(fileURLWithPath: folder.path("out.gray")))), size.first ?? 0, size.last ?? 0)
    }

    /// The mean absolute difference of two grey pictures of one size inside `rect`.
    static func difference(_ a: (pixels: [UInt8], width: Int, height: Int), _ b: (pixels: [UInt8], width: Int, height: Int),
                           in rect: NormalizedRect) -> Double {
        let x0 = Int(rect.x * Double(a.width)), x1 = Int((rect.x + rect.width) * Double(a.width))
        let y0 = Int(rect.y * Double(a.height)), y1 = Int((rect.y + rect.height) * Double(a.height))
        var sum = 0, count = 0
        for y in max(0, y0)..<min(a.height, y1) {
            for x in max(0, x0)..<min(a.width, x1) {
                sum += abs(Int(a.pixels[y * a.width + x]) - Int(b.pixels[y * b.width + x]))
                count += 1
            }
        }
        return count == 0 ? 0 : Double(sum) / Double(count)
    }

    /// The mean grey level inside `rect`.
    static func mean(_ a: (pixels: [UInt8], width: Int, height: Int), in rect: NormalizedRect) -> Double {
        let x0 = Int(rect.x * Double(a.width)), x1 = Int((rect.x + rect.width) * Double(a.width))
        let y0 = Int(rect.y * Double(a.height)), y1 = Int((rect.y + rect.height) * Double(a.height))
        var sum = 0, count = 0
        for y in y0..<y1 { for x in x0..<x1 { sum += Int(a.pixels[y * a.width + x]); count += 1 } }
        return Double(sum) / Double(max(count, 1))
    }
}

/// The review's API through curl on loopback: the segments as `reel review --json` lists
/// them, edits stored in the same NAME.privacy.json, pictures rendered by the export's
/// compositor, stamps uploaded and used, and every refusal with nothing changed.
@Suite("Studio review API", .serialized)
struct StudioReviewTests {
    static func object(_ response: CurlResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
    }

    @Test("the segments are reel review --json's rows; an edit is stored as reel review stores it; refusals change nothing")
    func segmentsAndEdits() async throws {
        try await withStudio { studio in
            let fixture = try ReviewFixture(studio)
            let cookie = try studio.signIn()
            let path = "/api/sessions/\(fixture.id)/review"
            let listed = try studio.api([studio.base + path])
            #expect(listed.status == 200, "\(listed.text)")
            let document = Self.object(listed)
            let segments = document["segments"] as? [[String: Any]] ?? []
            #expect(segments.count == 2 && document["width"] as? Int == 640 && document["height"] as? Int == 360)
            #expect(segments.first?["kind"] as? String == "face" && segments.last?["kind"] as? String == "wider box")
            #expect(segments.first?["box"] as? [Double] == [0.4, 0.2, 0.2, 0.35])

            // The same rows as the command line's (which also names its PNGs).
            let cli = try ReelBinary.run(["review", fixture.id, "--json", "--library", studio.server.settings.libraryPath,
                                          "--frames", studio.folder.path("cli-frames")])
            #expect(cli.status == 0, "\(cli.stderr)")
            var rows = (try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? [[String: Any]]) ?? []
            for index in rows.indices { rows[index]["picture"] = NSNull() }
            #expect(NSArray(array: rows).isEqual(to: segments), "API \(segments)\nCLI \(rows)")

            let edited = try studio.post(path, json: #"{"segment":0,"offset":[0.1,-0.05],"scale":1.5}"#, cookie: cookie)
            #expect(edited.status == 200, "\(edited.text)")
            var expected = PrivacyEdits()
            try expected.apply(.offset(dx: 0.1, dy: -0.05), to: FaceSegmentID(segment: 0))
            try expected.apply(.scale(1.5), to: FaceSegmentID(segment: 0))
            let stored = try PrivacyEdits.decode(json: Data(contentsOf: URL(fileURLWithPath: fixture.editsPath)))
            #expect(stored == expected)
            let first = (Self.object(edited)["segments"] as? [[String: Any]])?.first
            #expect(first?["offset"] as? [Double] == [0.1, -0.05] && first?["scale"] as? Double == 1.5)
            let shown = try ReelBinary.run(["review", fixture.id, "--library", studio.server.settings.libraryPath, "--frames", studio.folder.path("cli-frames")])
            #expect(shown.stdout.contains("moved 0.1,-0.05, scaled 1.5"), "the command line reads the page's edit: \(shown.stdout)")
            #expect(try studio.post(path, json: #"{"segment":1,"disabled":true}"#, cookie: cookie).status == 200)

            let before = try Data(contentsOf: URL(fileURLWithPath: fixture.editsPath))
            let refusals: [(String, Int, String)] = [
                (#"{"segment":0,"offset":[2,0]}"#, 400, "offset"), (#"{"segment":0,"scale":0}"#, 400, "scale"),
                (#"{"segment":9,"disabled":true}"#, 400, "segment"), (#"{"segment":0}"#, 400, "no change"),
                (#"{"segment":0,"offset":[0.1]}"#, 400, "two numbers"), (#"{"segment":0,"stamp":"nothing.png"}"#, 404, "no stamp"),
                (#"{"segment":0,"stamp":"../library.sqlite"}"#, 404, "no stamp"), ("not json", 400, "JSON"),
            ]
            for (body, status, words) in refusals {
                let refused = try studio.post(path, json: body, cookie: cookie)
                #expect(refused.status == status && refused.text.contains(words), "\(body): \(refused.status) \(refused.text)")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.editsPath)) == before, "a refused edit changes nothing")
            let bare = try studio.api([studio.base + "/api/sessions/\(fixture.bare.id.uuidString.lowercased())/review"])
            #expect(bare.status == 422 && bare.text.contains("no face track was saved"), "\(bare.text)")
            #expect(try studio.api([studio.base + "/api/sessions/\(UUID().uuidString.lowercased())/review"]).status == 404)

            // Its video gone (moved, deleted): the review and its pictures say so.
            try FileManager.default.moveItem(atPath: fixture.reviewed.filePath, toPath: fixture.reviewed.filePath + ".away")
            let gone = try studio.api([studio.base + path])
            #expect(gone.status == 422 && gone.text.contains("video cannot be read"), "\(gone.text)")
            let noPicture = try studio.api([studio.base + "/api/sessions/\(fixture.id)/frame?t=1&view=mosaic"])
            #expect(noPicture.status == 422 && noPicture.text.contains(fixture.reviewed.filePath), "\(noPicture.text)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.editsPath)) == before, "the edits stay as they were")
        }
    }

    @Test("a rendered frame is the export's mosaic where the edited box is and the recording elsewhere; boxes and plain; bad queries are 400")
    func renderedFrames() async throws {
        try await withStudio { studio in
            let fixture = try ReviewFixture(studio)
            let cookie = try studio.signIn()
            func frame(_ view: String, _ extra: String = "") throws -> CurlResponse {
                try studio.api([studio.base + "/api/sessions/\(fixture.id)/frame?t=0.5&view=\(view)&width=640" + extra])
            }
            let plain = try frame("plain")
            #expect(plain.status == 200 && plain.headers["content-type"] == "image/jpeg")
            let recorded = NormalizedRect(x: 0.4, y: 0.2, width: 0.2, height: 0.35)
            let moved = NormalizedRect(x: 0.1, y: 0.5, width: 0.2, height: 0.35)   // offset (-0.3, +0.3)
            let inner = { (r: NormalizedRect) in NormalizedRect(x: r.x + r.width * 0.3, y: r.y + r.height * 0.3, width: r.width * 0.4, height: r.height * 0.4) }
            let plainGray = try StudioPictures.gray(plain.body)
            let mosaicBefore = try StudioPictures.gray(try frame("mosaic").body)
            #expect(StudioPictures.difference(plainGray, mosaicBefore, in: inner(recorded)) > 8, "the mosaic covers the recorded box")
            #expect(StudioPictures.difference(plainGray, mosaicBefore, in: inner(moved)) < 2, "and nothing else")

            #expect(try studio.post("/api/sessions/\(fixture.id)/review", json: #"{"segment":0,"offset":[-0.3,0.3]}"#, cookie: cookie).status == 200)
            let mosaicAfter = try StudioPictures.gray(try frame("mosaic").body)
            #expect(StudioPictures.difference(plainGray, mosaicAfter, in: inner(moved)) > 8, "the mosaic moved with the box")
            #expect(StudioPictures.difference(plainGray, mosaicAfter, in: inner(recorded)) < 2, "and left the recorded place")
            let boxes = try StudioPictures.gray(try frame("boxes").body)
            #expect(StudioPictures.difference(plainGray, boxes, in: inner(moved)) < 2, "an outline leaves the inside alone")
            #expect(StudioPictures.difference(plainGray, boxes, in: NormalizedRect(x: 0.09, y: 0.49, width: 0.22, height: 0.02)) > 8,
                    "and draws the moved box's top edge")
            #expect(try studio.api([studio.base + "/api/sessions/\(fixture.id)/frame?t=0.5&width=320"]).status == 200)
            let narrow = try StudioPictures.gray(try studio.api([studio.base + "/api/sessions/\(fixture.id)/frame?t=0.5&width=320"]).body)
            #expect(narrow.width == 320 && narrow.height == 180)

            for query in ["t=-1", "t=abc", "t=nan", "view=x", "width=10", "width=5000"] {
                let bad = try studio.api([studio.base + "/api/sessions/\(fixture.id)/frame?" + query])
                #expect(bad.status == 400, "\(query): \(bad.status) \(bad.text)")
            }
        }
    }

    @Test("stamps: an uploaded PNG is kept under a safe name and covers the face; not a PNG 415, too large 413/415, nothing kept")
    func stamps() async throws {
        try await withStudio(configure: { $0.maxStampBytes = 64 * 1024 }) { studio in
            let fixture = try ReviewFixture(studio)
            let cookie = try studio.signIn()
            let png = studio.folder.path("red.png")
            let made = try Subprocess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=red:s=64x64,format=rgba", "-frames:v", "1", png])
            #expect(made.status == 0, "\(made.stderr)")
            func upload(_ file: String, name: String) throws -> CurlResponse {
                try studio.curl(["-X", "POST", "-H", "Cookie: \(cookie)", "-H", "Origin: \(studio.base)", "-H", "Content-Type: image/png",
                                 "--data-binary", "@" + file, studio.base + "/api/stamps?name=" + name])
            }
            let added = try upload(png, name: "..%2F..%2FMy%20Red%20Face.PNG")
            #expect(added.status == 201, "\(added.text)")
            #expect(Self.object(added)["name"] as? String == "my-red-face.png" && Self.object(added)["width"] as? Int == 64)
            let folder = studio.server.settings.stampsFolder
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["my-red-face.png"], "only the named stamp is kept")
            #expect(Self.object(try upload(png, name: "my-red-face.png"))["name"] as? String == "my-red-face-2.png", "a taken name is numbered")
            let listed = Self.object(try studio.api([studio.base + "/api/stamps"]))["stamps"] as? [[String: Any]] ?? []
            #expect(listed.compactMap { $0["name"] as? String } == ["my-red-face-2.png", "my-red-face.png"])
            let served = try studio.api([studio.base + "/api/stamps/my-red-face.png"])
            let original = try Data(contentsOf: URL(fileURLWithPath: png))
            #expect(served.status == 200 && served.body == original)
            for bad in ["..%2Fmy-red-face.png", "My-red-face.png", "my-red-face.PNG", "x.png%00", ".upload.png"] {
                #expect(try studio.api([studio.base + "/api/stamps/" + bad]).status == 404, "\(bad)")
            }

            let text = studio.folder.path("not.png")
            try Data("hello".utf8).write(to: URL(fileURLWithPath: text))
            let notPNG = try upload(text, name: "x.png")
            #expect(notPNG.status == 415 && notPNG.text.contains("not a PNG"), "\(notPNG.text)")
            let huge = studio.folder.path("huge.png")
            #expect(try Subprocess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=blue:s=3000x8", "-frames:v", "1", huge]).status == 0)
            let wide = try upload(huge, name: "wide.png")
            #expect(wide.status == 415 && wide.text.contains("3000x8"), "\(wide.text)")
            let big = studio.folder.path("big.png")
            try Data(count: 64 * 1024 + 1).write(to: URL(fileURLWithPath: big))
            let tooBig = try upload(big, name: "big.png")
            #expect(tooBig.status == 413, "\(tooBig.text)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["my-red-face-2.png", "my-red-face.png"],
                    "nothing refused was kept, not even hidden")

            let stamped = try studio.post("/api/sessions/\(fixture.id)/review", json: #"{"segment":0,"stamp":"my-red-face.png"}"#, cookie: cookie)
            #expect(stamped.status == 200, "\(stamped.text)")
            let edits = try PrivacyEdits.decode(json: Data(contentsOf: URL(fileURLWithPath: fixture.editsPath)))
            #expect(edits.edit(for: FaceSegmentID(segment: 0)).stamp == folder + "/my-red-face.png")
            let rendered = try StudioPictures.gray(try studio.api([studio.base + "/api/sessions/\(fixture.id)/frame?t=0.5&view=mosaic&width=640"]).body)
            // Red's luma is about 81 (BT.601 limited); the noise averages about 128.
            #expect(abs(StudioPictures.mean(rendered, in: NormalizedRect(x: 0.45, y: 0.3, width: 0.1, height: 0.15)) - 81) < 12)
            #expect(try studio.post("/api/sessions/\(fixture.id)/review", json: #"{"segment":0,"stamp":""}"#, cookie: cookie).status == 200)
            #expect(try PrivacyEdits.decode(json: Data(contentsOf: URL(fileURLWithPath: fixture.editsPath))).segments.isEmpty)
        }
    }
}

extension TestStudio {
    /// GETs `path` as a JSON object until `done` holds of it (60 s at most; then the test
    /// fails saying what `what` did not do).
    func waitForJSON(_ path: String, _ what: String, until done: ([String: Any]) -> Bool) async throws -> [String: Any] {
        var now: [String: Any] = [:]
        for _ in 0..<1200 {
            now = StudioReviewTests.object(try api([base + path]))
            if done(now) { return now }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("\(what) did not get there in 60 s: \(now)")
        return [:]
    }

    /// `curl` with `arguments` as given.
    func curl(_ arguments: [String]) throws -> CurlResponse {
        try ReelTestSupport.curl(arguments)
    }
}
