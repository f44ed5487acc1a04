import Foundation
import ReelCore
import ReelStore
import ReelTestSupport
import Testing
@testable import ReelStudio

/// A studio's library filled with sessions whose files are real: a 2-second H.264 clip and a
/// JPEG thumbnail made by ffmpeg for each (the third has no thumbnail).
struct LibraryFixture {
    let sessions: [StudySession]

    /// Three sessions on 2026-11-02, -11-09 and -11-16 (10:00 UTC), tagged exam / exam, math / none.
    @discardableResult
    init(_ studio: TestStudio) throws {
        let folder = studio.folder.path("recordings")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let clip = folder + "/clip.mp4"
        try TestMedia.makeClip(at: clip, seconds: 2, width: 320, height: 180, audio: false, extraArguments: ["-movflags", "+faststart"])
        let picture = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180", "-frames:v", "1",
                                                    folder + "/picture.jpg"])
        #expect(picture.status == 0, "\(picture.stderr)")
        let library = try StudyLibrary(path: studio.server.settings.libraryPath)
        let titles = ["Chemistry", "Algebra", nil]
        let tags = [["exam"], ["exam", "math"], []]
        var made: [StudySession] = []
        for index in 0..<3 {
            let name = folder + "/session-\(index)"
            try FileManager.default.copyItem(atPath: clip, toPath: name + ".mp4")
            if index < 2 { try FileManager.default.copyItem(atPath: folder + "/picture.jpg", toPath: name + ".jpg") }
            // 2026-11-02 10:00:00.125 UTC and weekly after (milliseconds, as recordings have them)
            let start = Date(timeIntervalSince1970: 1_793_613_600.125 + Double(index) * 7 * 86_400)
            let session = StudySession(id: UUID(), startedAt: start, endedAt: start + 3600, activeSeconds: 3000, videoSeconds: 2,
                                       mode: index == 2 ? .full : .timelapse, intervalSeconds: index == 2 ? nil : 5, filePath: name + ".mp4",
                                       thumbnailPath: index < 2 ? name + ".jpg" : nil, faceTrackPath: nil, title: titles[index], tags: tags[index])
            try library.add(session)
            made.append(session)
        }
        sessions = made
    }
}

extension TestStudio {
    /// `curl` signed in with the bearer token (as a script would), with `arguments` after.
    func api(_ arguments: [String]) throws -> CurlResponse {
        try curl(["-H", "Authorization: Bearer \(token)"] + arguments)
    }

    /// A POST from the page: the studio's Origin and the session cookie, a JSON body.
    func post(_ path: String, json: String? = nil, cookie: String) throws -> CurlResponse {
        try curl(["-X", "POST", "-H", "Cookie: \(cookie)", "-H", "Origin: \(base)"]
                 + (json.map { ["-H", "Content-Type: application/json", "--data-binary", $0] } ?? []) + [base + path])
    }
}

/// The library's API through curl (and ffprobe as the player) on loopback: the list and its
/// filter, pictures and videos with byte ranges, edits, tags, the Trash and back, and every
/// refusal with nothing changed.
@Suite("Studio library API", .serialized)
struct StudioLibraryTests {
    static func list(_ studio: TestStudio, _ query: String = "") throws -> (status: Int, object: [String: Any]) {
        let answer = try studio.api([studio.base + "/api/sessions" + query])
        let object = (try? JSONSerialization.jsonObject(with: Data(answer.text.utf8))) as? [String: Any] ?? [:]
        return (answer.status, object)
    }

    static func ids(_ object: [String: Any]) -> [String] {
        (object["sessions"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    @Test("the sessions newest first, in the shape reel sessions --json writes; filtered by tag and days; bad filters are 400")
    func listAndFilter() async throws {
        try await withStudio { studio in
            let empty = try Self.list(studio)
            #expect(empty.status == 200 && Self.ids(empty.object).isEmpty && empty.object["total"] as? Int == 0,
                    "no library file yet: an empty list, nothing created")
            #expect(!FileManager.default.fileExists(atPath: studio.server.settings.libraryPath))

            let fixture = try LibraryFixture(studio)
            let key = { (index: Int) in fixture.sessions[index].id.uuidString.lowercased() }
            let all = try Self.list(studio)
            #expect(Self.ids(all.object) == [key(2), key(1), key(0)])
            #expect(all.object["total"] as? Int == 3)
            let tags = (all.object["tags"] as? [[String: Any]] ?? []).map { "\($0["name"] ?? "")=\($0["sessions"] ?? "")" }
            #expect(tags == ["exam=2", "math=1"])
            let first = try #require((all.object["sessions"] as? [[String: Any]])?.last)
            let cli = try JSONSerialization.jsonObject(with: Data(try StudySessionJSON.text([fixture.sessions[0]], pretty: true).utf8)) as? [[String: Any]]
            #expect(Set(first.keys) == Set(cli?.first?.keys ?? [:].keys), "the same keys as reel sessions --json")
            #expect(first["startedAt"] as? String == "2026-11-02T10:00:00.125Z" && first["title"] as? String == "Chemistry")

            #expect(Self.ids(try Self.list(studio, "?tag=exam").object) == [key(1), key(0)])
            #expect(Self.ids(try Self.list(studio, "?tag=math").object) == [key(1)])
            #expect(Self.ids(try Self.list(studio, "?tag=m%61th").object) == [key(1)], "the page sends the tag percent-encoded")
            // Days are the studio's local days; these sessions start at 10:00 UTC, so a day either side holds in any zone.
            #expect(Self.ids(try Self.list(studio, "?since=2026-11-08&until=2026-11-10").object) == [key(1)])
            #expect(Self.ids(try Self.list(studio, "?since=2026-11-15").object) == [key(2)])
            #expect(Self.ids(try Self.list(studio, "?tag=exam&until=2026-11-03").object) == [key(0)])

            for (query, words) in [("?tag=biology", "biology"), ("?tag=%20", "tag"), ("?since=2026-13-01", "not a day"),
                                   ("?since=yesterday", "not a day"), ("?since=2026-11-10&until=2026-11-01", "before since")] {
                let refused = try studio.api([studio.base + "/api/sessions" + query])
                #expect(refused.status == 400 && refused.text.contains(words), "\(query): \(refused.status) \(refused.text)")
            }
        }
    }

    @Test("thumbnails and videos: the file's bytes, byte ranges as a <video> asks, 416 past the end; ffprobe plays it over HTTP")
    func picturesAndVideos() async throws {
        try await withStudio { studio in
            let fixture = try LibraryFixture(studio)
            let session = fixture.sessions[0], id = session.id.uuidString.lowercased()
            let thumbnail = try studio.api([studio.base + "/api/sessions/\(id)/thumbnail"])
            #expect(thumbnail.status == 200 && thumbnail.headers["content-type"] == "image/jpeg")
            #expect(thumbnail.body == (try Data(contentsOf: URL(fileURLWithPath: session.thumbnailPath!))))
            let none = try studio.api([studio.base + "/api/sessions/\(fixture.sessions[2].id.uuidString.lowercased())/thumbnail"])
            #expect(none.status == 404 && none.text.contains("no thumbnail"))

            let video = try Data(contentsOf: URL(fileURLWithPath: session.filePath))
            let whole = try studio.api([studio.base + "/api/sessions/\(id)/video"])
            #expect(whole.status == 200 && whole.headers["accept-ranges"] == "bytes" && whole.body == video)
            let part = try studio.api(["-H", "Range: bytes=100-199", studio.base + "/api/sessions/\(id)/video"])
            #expect(part.status == 206 && part.headers["content-range"] == "bytes 100-199/\(video.count)")
            #expect(part.body == video.subdata(in: 100..<200))
            let tail = try studio.api(["-H", "Range: bytes=-10", studio.base + "/api/sessions/\(id)/video"])
            #expect(tail.status == 206 && tail.body == video.suffix(10))
            let past = try studio.api(["-H", "Range: bytes=\(video.count)-", studio.base + "/api/sessions/\(id)/video"])
            #expect(past.status == 416 && past.headers["content-range"] == "bytes */\(video.count)")

            let probe = try Subprocess.run("/usr/bin/ffprobe", ["-v", "error", "-headers", "Authorization: Bearer \(studio.token)\r\n",
                                                                "-show_entries", "stream=codec_name,width:format=duration", "-of", "default=nw=1",
                                                                studio.base + "/api/sessions/\(id)/video"])
            #expect(probe.status == 0 && probe.stdout.contains("codec_name=h264") && probe.stdout.contains("width=320"), "\(probe.stdout)\(probe.stderr)")
            #expect(probe.stdout.contains("duration=2.0"), "\(probe.stdout)")

            // A file that went away under the library: 404 that names it.
            try FileManager.default.removeItem(atPath: fixture.sessions[1].filePath)
            let gone = try studio.api([studio.base + "/api/sessions/\(fixture.sessions[1].id.uuidString.lowercased())/video"])
            #expect(gone.status == 404 && gone.text.contains(fixture.sessions[1].filePath))
        }
    }

    @Test("edit title and tags as reel sessions edit does (all or nothing); make a tag; each refusal changes nothing")
    func editAndTags() async throws {
        try await withStudio { studio in
            let fixture = try LibraryFixture(studio)
            let cookie = try studio.signIn()
            let id = fixture.sessions[0].id.uuidString.lowercased()
            let library = try StudyLibrary(path: studio.server.settings.libraryPath, create: false)
            func stored() throws -> StudySession? { try library.sessions().first { $0.id == fixture.sessions[0].id } }

            let made = try studio.post("/api/tags", json: #"{"name":"biology"}"#, cookie: cookie)
            #expect(made.status == 201 && made.text.contains(#""name":"biology","sessions":0"#))
            #expect(try studio.post("/api/tags", json: #"{"name":"biology"}"#, cookie: cookie).status == 200, "making it twice changes nothing")
            #expect(try studio.post("/api/tags", json: #"{"name":"a\nb"}"#, cookie: cookie).status == 400)

            let edited = try studio.post("/api/sessions/\(id)/edit", json: #"{"title":"Organic chemistry","addTags":["biology"],"removeTags":["exam"]}"#,
                                         cookie: cookie)
            #expect(edited.status == 200 && edited.text.contains(#""title":"Organic chemistry""#), "\(edited.text)")
            #expect(try stored()?.title == "Organic chemistry" && stored()?.tags == ["biology"])

            let before = try stored()
            for (body, status, words) in [(#"{"addTags":["nosuch"]}"#, 400, "nosuch"), (#"{"removeTags":["math"]}"#, 400, "does not have tag"),
                                          (#"{"title":"two\nlines"}"#, 400, "title"), ("{}", 400, "changes nothing"),
                                          (#"{"title":"Renamed","addTags":["nosuch"]}"#, 400, "nosuch"), ("{oops", 400, "not the JSON"),
                                          (#"{"title":5}"#, 400, "wrong type")] {
                let refused = try studio.post("/api/sessions/\(id)/edit", json: body, cookie: cookie)
                #expect(refused.status == status && refused.text.contains(words), "\(body): \(refused.status) \(refused.text)")
            }
            #expect(try stored() == before, "a refused edit changes nothing, not even its valid half")
            let cleared = try studio.post("/api/sessions/\(id)/edit", json: #"{"title":null}"#, cookie: cookie)
            #expect(try cleared.status == 200 && stored()?.title == nil)

            let unknown = try studio.post("/api/sessions/\(UUID().uuidString.lowercased())/edit", json: #"{"title":"x"}"#, cookie: cookie)
            #expect(unknown.status == 404 && unknown.text.contains("no session"))
            // Changing needs the studio's own Origin, as every change does.
            let foreign = try curl(["-X", "POST", "-H", "Cookie: \(cookie)", "-H", "Origin: http://evil.example", "-H", "Content-Type: application/json",
                                    "--data-binary", #"{"title":"pwned"}"#, studio.base + "/api/sessions/\(id)/edit"])
            #expect(try foreign.status == 403 && stored()?.title == nil)
        }
    }

    @Test("to the Trash and back: the files into the freedesktop Trash with the record, the session out of the list; untrash restores both")
    func trashAndUndo() async throws {
        try await withStudio { studio in
            let fixture = try LibraryFixture(studio)
            let cookie = try studio.signIn()
            let session = fixture.sessions[1], id = session.id.uuidString.lowercased()
            let video = try Data(contentsOf: URL(fileURLWithPath: session.filePath))

            let trashed = try studio.post("/api/sessions/\(id)/trash", cookie: cookie)
            #expect(trashed.status == 200 && trashed.text.contains(session.filePath), "\(trashed.text)")
            #expect(!FileManager.default.fileExists(atPath: session.filePath) && !FileManager.default.fileExists(atPath: session.thumbnailPath!))
            let trash = studio.folder.path("data/Trash")
            let inTrash = try FileManager.default.contentsOfDirectory(atPath: trash + "/files")
            #expect(inTrash.contains("session-1.mp4") && inTrash.contains { $0.hasPrefix("reel-session-") }, "\(inTrash)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: trash + "/info").contains("session-1.mp4.trashinfo"))
            #expect(!Self.ids(try Self.list(studio).object).contains(id))
            #expect(try studio.api([studio.base + "/api/sessions/\(id)"]).status == 404)
            #expect(try studio.post("/api/sessions/\(id)/trash", cookie: cookie).status == 404, "not in the library any more")

            let back = try studio.post("/api/sessions/\(id)/untrash", cookie: cookie)
            #expect(back.status == 200 && back.text.contains(#""title":"Algebra""#), "\(back.text)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: session.filePath)) == video)
            #expect(FileManager.default.fileExists(atPath: session.thumbnailPath!))
            let again = try StudyLibrary(path: studio.server.settings.libraryPath, create: false).sessions().first { $0.id == session.id }
            #expect(again == session, "the same record, tags in their order")
            #expect(try FileManager.default.contentsOfDirectory(atPath: trash + "/files").isEmpty)
            let twice = try studio.post("/api/sessions/\(id)/untrash", cookie: cookie)
            #expect(twice.status == 404 && twice.text.contains("not in the Trash"), "\(twice.status) \(twice.text)")

            // A file put where the video was meanwhile is never overwritten: untrash refuses, the Trash keeps it.
            #expect(try studio.post("/api/sessions/\(id)/trash", cookie: cookie).status == 200)
            try Data("someone else's".utf8).write(to: URL(fileURLWithPath: session.filePath))
            let blocked = try studio.post("/api/sessions/\(id)/untrash", cookie: cookie)
            #expect(blocked.status == 409 && blocked.text.contains("exists now"), "\(blocked.text)")
            #expect(try String(contentsOfFile: session.filePath, encoding: .utf8) == "someone else's")
            #expect(!Self.ids(try Self.list(studio).object).contains(id))
        }
    }

    @Test("every session path is a whole known one: traversal, other spellings of the id, wrong methods and no sign-in are refused")
    func refusals() async throws {
        try await withStudio { studio in
            let fixture = try LibraryFixture(studio)
            let id = fixture.sessions[0].id.uuidString.lowercased()
            for path in ["/api/sessions/../../etc/passwd", "/api/sessions/\(id)/../../../etc/passwd", "/api/sessions/\(id)/video/..",
                         "/api/sessions/\(id.uppercased())/video", "/api/sessions/\(id.prefix(8))/video", "/api/sessions/%2e%2e/video",
                         "/api/sessions/\(id)/video%00", "/api/sessions/\(id)/", "/api/sessions/\(id)//video", "/api/sessions/\(id)/file",
                         "/api/sessions//etc/passwd"] {
                let answer = try studio.api(["--path-as-is", studio.base + path])
                #expect(answer.status == 404, "\(path): \(answer.status)")
            }
            let wrong = try studio.api(["-X", "DELETE", "-H", "Origin: \(studio.base)", studio.base + "/api/sessions/\(id)"])
            #expect(wrong.status == 405 && wrong.headers["allow"] == "GET, HEAD")
            let getTrash = try studio.api([studio.base + "/api/sessions/\(id)/trash"])
            #expect(getTrash.status == 405 && getTrash.headers["allow"] == "POST")
            #expect(try curl([studio.base + "/api/sessions"]).status == 401)
            #expect(try curl([studio.base + "/api/sessions/\(id)/video"]).status == 401)
            #expect(try curl(["-H", "Authorization: Bearer wrong", studio.base + "/api/sessions/\(id)/thumbnail"]).status == 401)
            #expect(try StudyLibrary(path: studio.server.settings.libraryPath).sessionCount() == 3, "nothing changed")
        }
    }
}
