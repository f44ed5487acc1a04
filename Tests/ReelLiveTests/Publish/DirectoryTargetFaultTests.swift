import Foundation
import ReelLive
import ReelTestSupport
import Testing

/// The folder target on a real full disk: a tmpfs in a private mount namespace (``PrivateDisk``;
/// root needed, as CI runs).
@Suite("DirectoryTarget on a full disk", .serialized)
struct DirectoryTargetFaultTests {
    @Test("a playlist onto a full disk: a retryable error saying so, the old playlist intact, no temporary file")
    func fullDisk() throws {
        let disk = try PrivateDisk(bytes: 64 << 10)
        defer { disk.stop() }
        let target = DirectoryTarget(root: URL(fileURLWithPath: disk.path))
        try target.store(Data("#EXTM3U\n".utf8), at: "streams/s/playlist.m3u8")
        disk.fill()
        let path = disk.path + "/streams/s/playlist.m3u8"
        do {
            try target.store(Data(repeating: 65, count: 8 << 10), at: "streams/s/playlist.m3u8")
            Issue.record("stored 8 KiB on a full disk")
        } catch {
            #expect(error == .io(operation: "write", path: path, errno: ENOSPC))
            #expect(error.isRetryable)
            #expect(error.description == "Could not write \(path): no space left on the device. Free some space on that disk; Reel retries.")
        }
        #expect(FileManager.default.contents(atPath: path) == Data("#EXTM3U\n".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path + "/streams/s") == ["playlist.m3u8"])
    }
}
