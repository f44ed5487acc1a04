import Foundation
import ReelCore
import ReelLive
import ReelTestSupport
import Testing

@Suite(.serialized) struct HTTPOriginTargetTests {
    @Test func putStoresTheBodyWithContentLengthContentTypeAndToken() async throws {
        try await withNginxOrigin(token: "s3cret") { origin in
            let target = try HTTPOriginTarget(baseURL: origin.baseURL, token: "s3cret")
            let body = PublishFixtures.segmentBytes(3, size: 700 * 1024)
            try await target.put(path: "streams/cam/seg/000003.m4s", body: body, contentType: "video/iso.segment")

            let stored = try Data(contentsOf: origin.root.appendingPathComponent("streams/cam/seg/000003.m4s"))
            #expect(stored == body)
            let (status, served, headers) = try await origin.get("streams/cam/seg/000003.m4s")
            #expect(status == 200 && served == body)
            #expect(headers["content-type"] == "video/iso.segment")
            #expect(headers["cache-control"] == "public, max-age=31536000, immutable")

            let put = try #require(try origin.requests().first { $0.method == "PUT" })
            #expect(put.status == 201)
            #expect(put.contentLength == body.count, "Content-Length is sent, not chunked")
            #expect(put.transferEncoding.isEmpty)
            #expect(put.contentType == "video/iso.segment")
        }
    }

    /// The uplink probe's upload is deleted with the same token, on nginx (WebDAV)
    /// and on `reel serve`; a file already gone is no error; a wrong token is a DELETE refusal
    /// that says what to allow, never retried.
    @Test(arguments: OriginKind.allCases)
    func deleteUsesTheSameTokenAndAnAbsentFileIsGone(_ kind: OriginKind) async throws {
        try await withOrigin(kind, token: "issue12-delete-token") { origin in
            let target = try HTTPOriginTarget(baseURL: origin.baseURL, token: "issue12-delete-token")
            try await target.put(path: "streams/d/seg/000000.m4s", body: Data(repeating: 1, count: 4096), contentType: "video/iso.segment")
            #expect(try await origin.get("streams/d/seg/000000.m4s").status == 200)
            try await target.delete(path: "streams/d/seg/000000.m4s")
            #expect(try await origin.get("streams/d/seg/000000.m4s").status == 404)
            try await target.delete(path: "streams/d/seg/000000.m4s")  // already gone: fine

            try await target.put(path: "streams/d/seg/000000.m4s", body: Data(repeating: 2, count: 16), contentType: "video/iso.segment")
            let wrong = try HTTPOriginTarget(baseURL: origin.baseURL, token: "not-the-right-token")
            let error = await #expect(throws: HTTPOriginTarget.Error.self) { try await wrong.delete(path: "streams/d/seg/000000.m4s") }
            guard case .deleteRefused(_, let status, _)? = error else {
                Issue.record("expected a DELETE refusal, got \(String(describing: error))")
                return
            }
            #expect(status == (kind == .nginx ? 401 : 403))
            #expect(error?.isRetryable == false)
            #expect(error?.description.contains("The origin must let the upload token DELETE what it PUT") == true, "\(String(describing: error))")
            #expect(try await origin.get("streams/d/seg/000000.m4s").status == 200, "a refused DELETE removes nothing")
        }
    }

    @Test func baseURLWithAPathPrefixIsJoinedWithoutDoubleSlashes() throws {
        let target = try HTTPOriginTarget(baseURL: URL(string: "http://127.0.0.1:8080/live/")!)
        #expect(target.url(forPath: "streams/a/init.mp4").absoluteString == "http://127.0.0.1:8080/live/streams/a/init.mp4")
        let bare = try HTTPOriginTarget(baseURL: URL(string: "https://origin.example")!)
        #expect(bare.url(forPath: "/streams/a/init.mp4").absoluteString == "https://origin.example/streams/a/init.mp4")
        #expect(throws: HTTPOriginTarget.Error.invalidBaseURL("ftp://x/")) { try HTTPOriginTarget(baseURL: URL(string: "ftp://x/")!) }
    }

    @Test func wrongOrMissingTokenIsAnAuthorizationErrorThatSaysWhatToDo() async throws {
        try await withNginxOrigin(token: "right") { origin in
            let wrong = try HTTPOriginTarget(baseURL: origin.baseURL, token: "wrong")
            let error = await #expect(throws: HTTPOriginTarget.Error.self) {
                try await wrong.put(path: "streams/a/init.mp4", body: Data("x".utf8), contentType: "video/mp4")
            }
            #expect(error == .unauthorized(url: wrong.url(forPath: "streams/a/init.mp4"), status: 401, tokenGiven: true))
            #expect(error?.isRetryable == false)
            #expect(error?.description.contains("HTTP 401 Unauthorized: the upload token was refused") == true)

            let missing = try HTTPOriginTarget(baseURL: origin.baseURL)
            let noToken = await #expect(throws: HTTPOriginTarget.Error.self) {
                try await missing.put(path: "streams/a/init.mp4", body: Data("x".utf8), contentType: "video/mp4")
            }
            #expect(noToken?.description.contains("wants an upload token and none was given") == true)
            #expect(!FileManager.default.fileExists(atPath: origin.root.appendingPathComponent("streams/a/init.mp4").path))
        }
    }

    @Test func aClientErrorStatusIsFinalAndCarriesTheStatus() async throws {
        try await withNginxOrigin { origin in
            let target = try HTTPOriginTarget(baseURL: origin.baseURL)
            // nginx answers 409 Conflict for a PUT to a collection (a path ending in "/").
            let error = await #expect(throws: HTTPOriginTarget.Error.self) {
                try await target.put(path: "streams/a/", body: Data("x".utf8), contentType: "text/plain")
            }
            guard case .httpStatus(_, let status, _)? = error else {
                Issue.record("expected an HTTP status error, got \(String(describing: error))")
                return
            }
            #expect(status == 409)
            #expect(error?.isRetryable == false, "the same PUT gets the same conflict")
            #expect(error?.description.contains("HTTP 409") == true && error?.description.contains("Retrying will not help") == true)
        }
        // Which statuses may pass if tried again.
        for status in [500, 502, 503, 504, 507, 408, 425, 429] { #expect(HTTPOriginTarget.Error.isRetryable(status: status), "\(status)") }
        for status in [400, 404, 405, 409, 410, 411, 413, 414, 415] { #expect(!HTTPOriginTarget.Error.isRetryable(status: status), "\(status)") }
    }

    @Test func refusedConnectionIsRetryableAndNamesTheAddress() async throws {
        let port = try Loopback.freePort()
        let target = try HTTPOriginTarget(baseURL: URL(string: "http://127.0.0.1:\(port)/")!)
        let error = await #expect(throws: HTTPOriginTarget.Error.self) {
            try await target.put(path: "streams/a/init.mp4", body: Data("x".utf8), contentType: "video/mp4")
        }
        #expect(error == .unreachable(url: target.url(forPath: "streams/a/init.mp4"), reason: "connection refused by 127.0.0.1:\(port)"))
        #expect(error?.isRetryable == true)
        #expect(error?.description.contains("127.0.0.1:\(port)") == true)
    }
}
