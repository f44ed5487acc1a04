import Foundation
import ReelTestSupport
import Testing

/// A TCP connection to the studio for requests curl will not send: a raw head, a trickle.
final class StudioSocket: @unchecked Sendable {
    let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard Loopback.connect(fd, port: port) == 0 else { throw POSIXError(.ECONNREFUSED) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    @discardableResult
    func send(_ text: String) -> Bool {
        Array(text.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) == $0.count }
    }

    /// Everything until the server closes (or 10 s pass).
    func receiveAll() -> String {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            result += buffer.prefix(count)
        }
        return String(decoding: result, as: UTF8.self)
    }

    deinit { Glibc.close(fd) }
}

/// `reel studio`'s connections: every refusal carries the security headers once, whoever
/// makes it; and one local script holding connections cannot keep a signed-in browser out.
@Suite("Studio connections", .serialized)
struct StudioConnectionTests {
    static func count(_ text: String, in answer: String) -> Int { answer.components(separatedBy: text).count - 1 }

    @Test("a Content-Length of -1 or a head too large (libmicrohttpd's own refusals) is one answer with the security headers, as Reel's own are")
    func malformedLengthAnsweredOnce() async throws {
        try await withRunningStudio { studio in
            let host = "Host: 127.0.0.1:\(studio.port)\r\n"
            let requests = [
                "POST /api/tags HTTP/1.1\r\n\(host)Content-Length: -1\r\n\r\n",
                "GET /api/status HTTP/1.1\r\n\(host)Content-Length: -1\r\n\r\n",
                "GET /api/status HTTP/1.1\r\n\(host)Content-Length: 1\r\nContent-Length: 2\r\n\r\n",
                "GET /api/status HTTP/1.1\r\n\(host)X-Big: \(String(repeating: "a", count: 70_000))\r\n\r\n",
                "GET /api/status HTTP/1.1\r\n\(host)Authorization: Bearer \(studio.token)\r\nConnection: close\r\n\r\n",
            ]
            for request in requests {
                let socket = try StudioSocket(port: studio.port)
                socket.send(request)
                let answer = socket.receiveAll()
                let head = answer.components(separatedBy: "\r\n\r\n").first ?? ""
                #expect(Self.count("HTTP/1.1 ", in: answer) == 1, "one status line: \(answer)")
                for header in ["Content-Security-Policy: ", "X-Frame-Options: DENY", "X-Content-Type-Options: nosniff", "Cache-Control: no-store"] {
                    #expect(Self.count(header, in: head) == 1, "\(header) once in \(head)")
                }
                if request.contains("-1") {
                    #expect(head.hasPrefix("HTTP/1.1 400 ") && answer.contains("Content-Length") && !answer.contains("<html>"), "\(answer)")
                }
                if request.contains("X-Big") {
                    #expect(head.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large") && !answer.contains("<html>"), "\(answer)")
                }
            }
            #expect(try curl(["-H", "Authorization: Bearer \(studio.token)", studio.base + "/api/status"]).status == 200, "still serving")
        }
    }

    @Test("80 trickling connections from one script, past the 64 served: a signed-in request right behind them, and a reloaded page, still answer within seconds")
    func tricklersDoNotLockTheBrowserOut() async throws {
        try await withRunningStudio { studio in
            let session = try studio.signIn()
            var sockets: [StudioSocket] = []
            for _ in 0..<80 {
                let socket = try StudioSocket(port: studio.port)
                socket.send("GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:\(studio.port)\r\n")
                sockets.append(socket)
            }
            let trickling = Task.detached { [sockets] in
                while !Task.isCancelled {
                    for socket in sockets { socket.send("X-Trickle: 1\r\n") }
                    try? await Task.sleep(for: .seconds(1))
                }
            }
            defer { trickling.cancel() }
            let start = ContinuousClock.now
            let status = try curl(["--max-time", "15", "-H", "Cookie: \(session)", studio.base + "/api/status"])
            let waited = ContinuousClock.now - start
            #expect(status.status == 200 && waited < .seconds(8), "\(status.status) after \(waited)")
            let page = try curl(["--max-time", "15", "-H", "Cookie: \(session)", "-H", "Sec-Fetch-Site: none", studio.base + "/"])
            #expect(page.status == 200 && page.text.contains("/assets/app.js"), "the page loads: \(page.status)")
            trickling.cancel()
            _ = await trickling.value
            sockets.removeAll()
        }
    }
}
