import Foundation
import ReelOrigin
import ReelTestSupport
import Testing

/// Requests a lenient proxy in front could read differently from the origin (request
/// smuggling), or that libmicrohttpd would quietly reinterpret, are refused with 400 before any
/// route sees them; nothing is stored. Each is sent byte for byte on a raw socket.
@Suite("Origin request framing", .serialized)
struct OriginRequestFramingTests {
    static func status(_ origin: TestOrigin, _ request: String) throws -> (status: Int?, body: String) {
        let client = try RawClient(port: origin.port, receiveTimeout: 5)
        client.send(request)
        let answer = String(decoding: client.receiveAll(limit: 64 * 1024), as: UTF8.self)
        let line = answer.split(separator: "\r\n").first ?? ""
        let parts = line.split(separator: " ")
        return (parts.count >= 2 ? Int(parts[1]) : nil, answer)
    }

    static let refused: [(String, String, String)] = [
        ("an empty Transfer-Encoding beside a Content-Length", "Transfer-Encoding:\r\nContent-Length: 5\r\n", "Transfer-Encoding"),
        ("Transfer-Encoding: chunked beside a Content-Length", "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n", "both"),
        ("a space before the colon", "Content-Length : 5\r\n", "not a token"),
        ("two Content-Lengths", "Content-Length: 5\r\nContent-Length: 5\r\n", "2 Content-Length"),
        ("a folded header line", "X-Note: a\r\n  folded\r\nContent-Length: 5\r\n", "folded"),
        ("a bare CR", "X-Note: a\rContent-Length: 99\r\nContent-Length: 5\r\n", "CR"),
        ("a NUL in a header value", "X-Note: a\u{0}b\r\nContent-Length: 5\r\n", "NUL"),
    ]

    @Test func ambiguousHeadersAreRefusedAndNothingIsStored() async throws {
        try await withOrigin { origin in
            for (name, headers, reason) in Self.refused {
                let request = "PUT /streams/desk/init.mp4 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(origin.token)\r\n"
                    + headers + "\r\nhello"
                let answer = try Self.status(origin, request)
                #expect(answer.status == 400, "\(name): \(answer.body)")
                #expect(answer.body.contains(reason), "\(name): \(answer.body)")
            }
            #expect(!FileManager.default.fileExists(atPath: origin.data.appendingPathComponent("streams/desk/init.mp4").path))
            #expect(origin.temporaryFiles().isEmpty)
            // The same PUT, well formed, is stored: the refusals were about the framing alone.
            let good = try Self.status(origin, "PUT /streams/desk/init.mp4 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(origin.token)\r\n"
                                       + "Content-Length: 5\r\nConnection: close\r\n\r\nhello")
            #expect(good.status == 201, "\(good.body)")
        }
    }

    @Test func theTargetAndHostMustBeWhole() async throws {
        try await withOrigin { origin in
            let cases: [(String, String, Int)] = [
                ("a NUL in the target", "GET /health\u{0}/../streams HTTP/1.1\r\nHost: x\r\n\r\n", 400),
                ("a NUL before the query", "GET /health\u{0}?a=1 HTTP/1.1\r\nHost: x\r\n\r\n", 400),
                ("a NUL in the query", "GET /health?a=1\u{0}b HTTP/1.1\r\nHost: x\r\n\r\n", 400),
                ("HTTP/1.1 without Host", "GET /health HTTP/1.1\r\n\r\n", 400),
                ("two Hosts", "GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
                ("HTTP/1.0 without Host", "GET /health HTTP/1.0\r\n\r\n", 200),
                ("a query and empty values", "GET /health?a=1&b=&c HTTP/1.1\r\nHost: x\r\nX-Empty:\r\nX-Spaced:   v   \r\nConnection: close\r\n\r\n", 200),
                ("a blank line before the request", "\r\nGET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 200),
            ]
            for (name, request, expected) in cases {
                let answer = try Self.status(origin, request)
                #expect(answer.status == expected, "\(name): \(answer.body)")
            }
        }
    }

    @Test func aSegmentHasOnePath() async throws {
        try await withOrigin { origin in
            let put = try curl(["-X", "PUT", "--data-binary", "segment", "-H", "Authorization: Bearer \(origin.token)",
                                origin.base + "/streams/desk/seg/000001.m4s"])
            #expect(put.status == 201)
            #expect(try curl([origin.base + "/streams/desk/seg/000001.m4s"]).status == 200)
            for other in ["/streams/desk/seg/0000001.m4s", "/streams/desk/seg/%30%30%30%30%30%31.m4s", "/streams/%64esk/seg/000001.m4s"] {
                #expect(try curl(["--path-as-is", origin.base + other]).status == 404, "\(other)")
            }
        }
    }
}
