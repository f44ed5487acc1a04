import Foundation
import ReelCore
import ReelHTTP
import ReelOrigin
import ReelTestSupport
import Testing

/// Slow-loris clients are dropped by the header deadline and the minimum upload rate, and
/// the server keeps answering everyone else meanwhile.
@Suite("Origin slow clients", .serialized)
struct OriginSlowClientTests {
    static func configure(_ settings: inout OriginSettings) {
        settings.deadlines = ConnectionDeadlines(headerTimeout: 2, minimumUploadRate: 1000, uploadGrace: 1.5)
        settings.watchdogInterval = 0.2
        settings.idleTimeout = 30
    }

    @Test func aClientTricklingHeadersIsDropped() async throws {
        try await withOrigin(configure: Self.configure) { origin in
            let slow = try RawClient(port: origin.port)
            let started = ContinuousClock.now
            var dropped = false
            var othersAnswered = false
            let header = Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n")
            for character in header {
                // One byte every 200 ms: never idle, never done.
                if !slow.send(String(character)) { dropped = true; break }
                try await Task.sleep(for: .milliseconds(200))
                if !othersAnswered && ContinuousClock.now - started > .seconds(1) {
                    // Once, not every byte: a curl's start-up on a loaded machine would stretch
                    // the loop (and the elapsed time measured) beyond the server's doing.
                    #expect(try curl([origin.base + "/health"]).status == 200, "others are answered meanwhile")
                    othersAnswered = true
                }
                if ContinuousClock.now - started > .seconds(8) { break }
            }
            let elapsed = ContinuousClock.now - started
            #expect(dropped || slow.isClosedByServer(), "the trickling client was dropped")
            #expect(elapsed < .seconds(5), "within the 2 s header deadline and a sweep (took \(elapsed))")
            #expect(origin.server.droppedConnections == 1)
            #expect(try curl([origin.base + "/health"]).status == 200)
        }
    }

    @Test func anUploadTricklingOneByteASecondIsDropped() async throws {
        try await withOrigin(configure: Self.configure) { origin in
            let slow = try RawClient(port: origin.port)
            slow.send("PUT /streams/desk/init.mp4 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(origin.token)\r\nContent-Length: 1000\r\n\r\n")
            let started = ContinuousClock.now
            var dropped = false
            while ContinuousClock.now - started < .seconds(8) {
                if !slow.send("x") { dropped = true; break }
                // The trickle is the scenario: a byte every 250 ms of real time.
                try await Task.sleep(for: .milliseconds(250))
                if slow.isClosedNow() { dropped = true; break }
            }
            #expect(dropped, "the trickling upload was dropped")
            #expect(ContinuousClock.now - started < .seconds(4))
            #expect(origin.server.droppedConnections == 1)
            try await eventually("the partial upload's temp file removed") { origin.temporaryFiles().isEmpty ? true : nil }
            #expect(!FileManager.default.fileExists(atPath: origin.data.appendingPathComponent("streams/desk/init.mp4").path))
            #expect(origin.temporaryFiles().isEmpty, "the partial upload's temp file is removed")
            #expect(try curl(["-X", "PUT", "--data-binary", "fast enough", "-H", "Authorization: Bearer \(origin.token)",
                              origin.base + "/streams/desk/init.mp4"]).status == 201)
        }
    }

    @Test func anIdleConnectionIsClosed() async throws {
        try await withOrigin(configure: Self.configure) { origin in
            let idle = try RawClient(port: origin.port)
            let started = ContinuousClock.now
            #expect(idle.isClosedByServer(), "closed rather than the 10 s receive timeout")
            #expect(ContinuousClock.now - started < .seconds(5))
        }
    }
}

extension RawClient {
    /// Whether the server closed the connection, without waiting.
    func isClosedNow() -> Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }
}
