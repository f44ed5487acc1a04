import Foundation
import ReelCore
import ReelOrigin
import ReelTestSupport
import Testing

/// One client must not be able to hold the origin's connections: a cap per address, idle
/// keep-alive connections closed while the server is nearly full, and a minimum rate at which
/// an answer must be read. Others get through meanwhile. The other client is a second loopback
/// address (127.0.0.2), which the server sees as a different one.
@Suite("Origin connection limits", .serialized)
struct OriginConnectionLimitsTests {
    static func health(from source: String, _ origin: TestOrigin) throws -> Int {
        try curl(["--interface", source, "--max-time", "5", origin.base + "/health"]).status
    }

    @Test func oneAddressHoldsAtMostItsShare() async throws {
        try await withOrigin(configure: { $0.maxConnectionsPerAddress = 4 }) { origin in
            // Five connections from one address: whichever the server accepts fifth is shut.
            var held: [RawClient] = []
            for _ in 0..<5 { held.append(try RawClient(port: origin.port)) }
            try await eventually("the fifth connection shut") {
                origin.server.refusedConnections >= 1 && held.contains { $0.isClosedNow() } ? true : nil
            }
            let shut = held.filter { $0.isClosedNow() }
            #expect(shut.count == 1, "one connection over the share of four is shut as it opens")
            #expect(origin.server.refusedConnections == 1)
            held = held.filter { client in !shut.contains { $0 === client } }
            #expect(try Self.health(from: "127.0.0.2", origin) == 200, "another address is served meanwhile")
            held[0].send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(held[0].receiveStatus() == 200, "the connections held are served")
            held.removeAll()  // closed
            // Once the server has seen them close, the address is served again.
            try await eventually("127.0.0.1 served again") { (try? Self.health(from: "127.0.0.1", origin)) == 200 ? true : nil }
        }
    }

    @Test func idleKeepAliveGivesWayWhenTheServerIsNearlyFull() async throws {
        let configure: (inout OriginSettings) -> Void = {
            $0.maxConnections = 8
            $0.maxConnectionsPerAddress = 0
            $0.deadlines.idleUnderPressure = 3
            $0.watchdogInterval = 0.2
        }
        try await withOrigin(configure: configure) { origin in
            // The attack: every connection, each kept alive after one request (a request every
            // few seconds keeps a connection from ever reaching the 30 s header deadline).
            var held: [RawClient] = []
            for _ in 0..<8 {
                let client = try RawClient(port: origin.port, receiveTimeout: 1)
                client.send("GET /health HTTP/1.1\r\nHost: x\r\nX-Pad: \(String(repeating: "x", count: 10))\r\n\r\n")
                #expect(client.receiveStatus() == 200)
                _ = client.receiveBody()
                held.append(client)
            }
            let turnedAway = try curl(["--interface", "127.0.0.2", "--max-time", "1", origin.base + "/health"])
            #expect(turnedAway.status == 0, "while all are held, a newcomer is not served")
            // Idle for 3 s under pressure: the watchdog closes them until it is below three quarters full.
            try await eventually("idle connections closed") { origin.server.droppedConnections >= 3 ? true : nil }
            #expect(try Self.health(from: "127.0.0.2", origin) == 200, "idle connections gave way")
            #expect(origin.server.droppedConnections >= 3, "at least until the server fell below three quarters full")
            #expect(held.filter { $0.isClosedByServer() }.count == origin.server.droppedConnections)
        }
    }

    @Test func aClientReadingTooSlowlyIsDropped() async throws {
        let configure: (inout OriginSettings) -> Void = {
            $0.deadlines.minimumDownloadRate = 64 * 1024
            $0.deadlines.downloadGrace = 1
            $0.watchdogInterval = 0.2
        }
        try await withOrigin(configure: configure) { origin in
            let folder = try TemporaryDirectory()
            defer { folder.cleanup() }
            let body = URL(fileURLWithPath: folder.path("segment"))
            try Data((0..<(8 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }).write(to: body)
            #expect(try curl(["-X", "PUT", "--data-binary", "@\(body.path)", "-H", "Authorization: Bearer \(origin.token)",
                              origin.base + "/streams/desk/seg/000001.m4s"]).status == 201)
            // 200 bytes every 250 ms through a small window: 800 bytes a second, for 3 s.
            let slow = try RawClient(port: origin.port, receiveBuffer: 4096)
            slow.send("GET /streams/desk/seg/000001.m4s HTTP/1.1\r\nHost: x\r\n\r\n")
            var received = 0
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            for _ in 0..<12 {
                received += max(0, recv(slow.fd, &buffer, 200, 0))
                // The slow reader is the scenario: 200 bytes every 250 ms of real time.
                try await Task.sleep(for: .milliseconds(250))
            }
            try await eventually("the slow reader dropped") { origin.server.droppedConnections >= 1 ? true : nil }
            #expect(origin.server.droppedConnections == 1, "dropped after the 1 s grace and a sweep or two")
            // The connection was reset: what the kernel still held to send is dropped.
            while true {
                let count = recv(slow.fd, &buffer, buffer.count, 0)
                if count <= 0 { break }
                received += count
            }
            #expect(received < 1 << 20, "the 8 MB answer was cut short (\(received) bytes arrived)")
            let fast = try curl([origin.base + "/streams/desk/seg/000001.m4s"])
            #expect(fast.status == 200)
            #expect(fast.body == (try Data(contentsOf: body)), "a client reading at speed gets it all")
            #expect(origin.server.droppedConnections == 1)
        }
    }
}
