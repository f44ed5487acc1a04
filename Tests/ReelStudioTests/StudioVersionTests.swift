import Foundation
import ReelCore
import ReelStore
import ReelTestSupport
import Testing
@testable import ReelStudio

/// Two tabs editing one session: a session and its review answer with the version they are at
/// (`ETag`); an edit sent with `If-Match` of an older version is refused with 412 and changes
/// nothing; an edit without `If-Match` (a script's) is applied, as before.
@Suite("Studio edit versions")
struct StudioVersionTests {
    /// A POST with the page's headers and `If-Match: tag` when given.
    static func post(_ studio: TestStudio, _ path: String, json: String, ifMatch: String?, cookie: String) throws -> CurlResponse {
        try curl(["-X", "POST", "-H", "Cookie: \(cookie)", "-H", "Origin: \(studio.base)", "-H", "Content-Type: application/json"]
                 + (ifMatch.map { ["-H", "If-Match: \($0)"] } ?? []) + ["--data-binary", json, studio.base + path])
    }

    @Test("a session's edit with the version it was read at is applied; with an older one it is 412 and the title and tags stay")
    func sessionEdits() async throws {
        try await withStudio { studio in
            let fixture = try LibraryFixture(studio)
            let cookie = try studio.signIn()
            let id = fixture.sessions[0].id.uuidString.lowercased()
            let read = try studio.api([studio.base + "/api/sessions/\(id)"])
            let first = try #require(read.headers["etag"], "GET /api/sessions/ID says its version")
            let tabA = try Self.post(studio, "/api/sessions/\(id)/edit", json: #"{"title":"From A"}"#, ifMatch: first, cookie: cookie)
            #expect(tabA.status == 200, "\(tabA.text)")
            let second = try #require(tabA.headers["etag"], "the edit's answer says the new version")
            #expect(second != first)

            let tabB = try Self.post(studio, "/api/sessions/\(id)/edit", json: #"{"title":"From B","addTags":["math"]}"#, ifMatch: first, cookie: cookie)
            #expect(tabB.status == 412, "\(tabB.status) \(tabB.text)")
            #expect(tabB.text.contains("changed"), "\(tabB.text)")
            let kept = try #require(try StudyLibrary(path: studio.server.settings.libraryPath).session(fixture.sessions[0].id))
            #expect(kept.title == "From A" && kept.tags == ["exam"], "nothing of the stale edit applied")
            #expect(try studio.api([studio.base + "/api/sessions/\(id)"]).headers["etag"] == second)

            // A script that sends no If-Match keeps working (the last save wins for it, as before).
            let script = try Self.post(studio, "/api/sessions/\(id)/edit", json: #"{"title":"From a script"}"#, ifMatch: nil, cookie: cookie)
            #expect(script.status == 200 && script.headers["etag"] != second, "\(script.text)")
            #expect(try Self.post(studio, "/api/sessions/\(id)/edit", json: #"{"title":"Any"}"#, ifMatch: "*", cookie: cookie).status == 200)
        }
    }

    @Test("a review edit with the version it was read at is applied; with an older one it is 412 and the edits file stays")
    func reviewEdits() async throws {
        try await withStudio { studio in
            let fixture = try ReviewFixture(studio)
            let cookie = try studio.signIn()
            let path = "/api/sessions/\(fixture.id)/review"
            let read = try studio.api([studio.base + path])
            let first = try #require(read.headers["etag"], "GET …/review says its version")
            let tabA = try Self.post(studio, path, json: #"{"segment":0,"disabled":true}"#, ifMatch: first, cookie: cookie)
            #expect(tabA.status == 200, "\(tabA.text)")
            let second = try #require(tabA.headers["etag"])
            #expect(second != first)
            let stored = try Data(contentsOf: URL(fileURLWithPath: fixture.editsPath))

            let tabB = try Self.post(studio, path, json: #"{"segment":0,"offset":[0.1,0]}"#, ifMatch: first, cookie: cookie)
            #expect(tabB.status == 412, "\(tabB.status) \(tabB.text)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.editsPath)) == stored, "a stale edit changes nothing")
            #expect(try studio.api([studio.base + path]).headers["etag"] == second)
            #expect(try Self.post(studio, path, json: #"{"segment":0,"offset":[0.1,0]}"#, ifMatch: nil, cookie: cookie).status == 200)
        }
    }
}
