import Foundation
import ReelCore
import ReelLive
import ReelTestSupport
import Testing

@Suite(.serialized) struct UplinkProbeTests {
    @Test func measuresByUploadingRandomBytesToSegmentZeroWhichNoPlaylistLists() async throws {
        try await withNginxOrigin(token: "t") { origin in
            let target = try HTTPOriginTarget(baseURL: origin.baseURL, token: "t")
            let layout = try StreamLayout(streamID: "probe")
            let measurement = try await UplinkProbe().measure(target: target, layout: layout)
            #expect(measurement.bytes == 384 * 1024)
            #expect(measurement.bitsPerSecond > 1_000_000, "loopback is faster than 1 Mbit/s: \(measurement)")
            #expect(measurement.bitsPerSecond == Double(measurement.bytes * 8) / (Double(measurement.elapsed.components.attoseconds) / 1e18 + Double(measurement.elapsed.components.seconds)))
            #expect(UplinkProbe.path(in: layout) == "streams/probe/seg/000000.m4s")
            #expect(!FileManager.default.fileExists(atPath: origin.root.appendingPathComponent("streams/probe/init.mp4").path),
                    "the init segment is only ever the real one")
            // The probe's upload is deleted again (nginx WebDAV: DELETE with the same token).
            #expect(!FileManager.default.fileExists(atPath: origin.root.appendingPathComponent("streams/probe/seg/000000.m4s").path))
            #expect(measurement.leftBehind == nil)
            // nginx writes a request's log line after its answer went out: wait for the line,
            // not for a time.
            let logged = try await eventually("nginx's log line of the DELETE") { () -> [String]? in
                let lines = (try? origin.requests())?.filter { $0.method != "GET" }.map { "\($0.method) \($0.uri) \($0.status)" }
                return (lines?.count ?? 0) >= 2 ? lines : nil
            }
            #expect(logged == ["PUT /streams/probe/seg/000000.m4s 201", "DELETE /streams/probe/seg/000000.m4s 204"], "\(logged)")
            #expect(try origin.requests().first { $0.method == "PUT" }?.contentLength == 384 * 1024)
        }
    }

    /// A target that stores PUTs in memory and refuses every DELETE.
    final class NoDeleteTarget: PublishTarget, @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String: Data] = [:]
        var name: String { "no-delete" }
        var files: [String: Data] { lock.withLock { stored } }
        func put(path: String, body: Data, contentType: String) async throws { lock.withLock { stored[path] = body } }
        func delete(path: String) async throws {
            throw HTTPOriginTarget.Error.deleteRefused(url: URL(string: "http://127.0.0.1:1/" + path)!, status: 405, detail: "Not Allowed")
        }
        func fileExists(path: String) async throws -> Bool { lock.withLock { stored[path] != nil } }
        func deleteStream(_ layout: StreamLayout) async throws {
            throw HTTPOriginTarget.Error.streamNotDeleted(url: URL(string: "http://127.0.0.1:1/" + layout.directory + "/")!, status: 405, detail: "")
        }
    }

    @Test func randomBytesAndADeleteTheTargetRefusesIsReportedNotFatal() async throws {
        let target = NoDeleteTarget()
        let measurement = try await UplinkProbe(byteCount: 64 * 1024).measure(target: target, layout: try StreamLayout(streamID: "kept"))
        let stored = try #require(target.files["streams/kept/seg/000000.m4s"])
        #expect(stored.count == 64 * 1024)
        #expect(Set(stored).count > 200, "the probe bytes are random, not compressible filler")
        let reason = try #require(measurement.leftBehind)
        #expect(reason.contains("HTTP 405 to DELETE http://127.0.0.1:1/streams/kept/seg/000000.m4s (Not Allowed), so the file stays there"))
        #expect(reason.contains("nginx: dav_methods PUT DELETE"))
    }

    @Test func unreachableOriginIsAClearErrorAtStart() async throws {
        let port = try Loopback.freePort()
        let target = try HTTPOriginTarget(baseURL: URL(string: "http://127.0.0.1:\(port)/")!)
        let error = await #expect(throws: UplinkProbe.Error.self) {
            try await UplinkProbe(byteCount: 4096).measure(target: target, layout: try StreamLayout(streamID: "x"))
        }
        let text = error?.description ?? ""
        #expect(text.contains("The uplink test could not upload to origin http://127.0.0.1:\(port)/ (streams/x/seg/000000.m4s)"), "\(text)")
        #expect(text.contains("connection refused by 127.0.0.1:\(port)"), "\(text)")
        for leak in ["NSURLErrorDomain", "UserInfo", "could not be completed"] { #expect(!text.contains(leak), "\(text)") }
        #expect(text.contains("Check that the origin is running"), "\(text)")
    }

    @Test func wrongTokenIsAClearNonRetryableErrorAtStart() async throws {
        try await withNginxOrigin(token: "right") { origin in
            let target = try HTTPOriginTarget(baseURL: origin.baseURL, token: "wrong")
            let error = await #expect(throws: UplinkProbe.Error.self) {
                try await UplinkProbe().measure(target: target, layout: try StreamLayout(streamID: "x"))
            }
            guard case .uploadFailed(_, _, let reason, let retryable)? = error else { return }
            #expect(!retryable)
            #expect(reason.contains("HTTP 401"))
        }
    }
}
