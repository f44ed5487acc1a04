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
            let stored = try Data(contentsOf: origin.root.appendingPathComponent("streams/probe/seg/000000.m4s"))
            #expect(stored.count == 384 * 1024)
            #expect(Set(stored).count > 200, "the probe bytes are random, not compressible filler")
        }
    }

    @Test func unreachableOriginIsAClearErrorAtStart() async throws {
        let port = try Loopback.freePort()
        let target = try HTTPOriginTarget(baseURL: URL(string: "http://127.0.0.1:\(port)/")!)
        let error = await #expect(throws: UplinkProbe.Error.self) {
            try await UplinkProbe(byteCount: 4096).measure(target: target, layout: try StreamLayout(streamID: "x"))
        }
        let text = error?.description ?? ""
        #expect(text.contains("The uplink test could not upload to origin http://127.0.0.1:\(port)/ (streams/x/seg/000000.m4s)"), "\(text)")
        #expect(text.contains("connection refused"), "\(text)")
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
