import ReelRuntime
import Foundation
import Synchronization
import ReelCore
import ReelLive
import Testing

@Suite struct DirectoryTargetTests {
    @Test func writesTheOriginLayoutAndCreatesFolders() async throws {
        let folder = try PublishFixtures.temporaryDirectory("dir-layout")
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = DirectoryTarget(root: folder.appendingPathComponent("out/nested"))
        let layout = try StreamLayout(streamID: "desk")
        try await target.put(path: layout.initPath, body: PublishFixtures.initBytes, contentType: "video/mp4")
        try await target.put(path: layout.segmentPath(sequence: 1), body: PublishFixtures.segmentBytes(1), contentType: "video/iso.segment")
        let playlist = PublishFixtures.finalPlaylist(segments: 1)
        try await target.put(path: layout.playlistPath, body: playlist.renderedData(), contentType: "application/vnd.apple.mpegurl")

        let stream = folder.appendingPathComponent("out/nested/streams/desk")
        #expect(try Data(contentsOf: stream.appendingPathComponent("init.mp4")) == PublishFixtures.initBytes)
        #expect(try Data(contentsOf: stream.appendingPathComponent("seg/000001.m4s")) == PublishFixtures.segmentBytes(1))
        #expect(try String(contentsOf: stream.appendingPathComponent("playlist.m3u8"), encoding: .utf8) == playlist.rendered())
        let all = try FileManager.default.subpathsOfDirectory(atPath: stream.path).sorted()
        #expect(all == ["init.mp4", "playlist.m3u8", "seg", "seg/000001.m4s"], "no temporary files are left behind")
        #expect(target.name == "folder \(folder.appendingPathComponent("out/nested").path)")
    }

    @Test func readersSeeTheOldOrTheNewFileNeverAPartialOne() async throws {
        let folder = try PublishFixtures.temporaryDirectory("dir-atomic")
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = DirectoryTarget(root: folder)
        let small = Data(repeating: 0x61, count: 256 * 1024)
        let large = Data(repeating: 0x62, count: 3 * 1024 * 1024)
        try target.store(small, at: "streams/a/playlist.m3u8")
        let file = folder.appendingPathComponent("streams/a/playlist.m3u8")

        // A reader on its own thread (not the test's cooperative pool, which other tests may
        // keep busy) reads the file as fast as it can while the writer replaces it. The writer
        // goes on until the reader has overlapped it a good number of times.
        let counts = Locked<(reads: Int, torn: Int, stop: Bool)>((0, 0, false))
        let done = DispatchSemaphore(value: 0)
        let reader = Thread {
            while !counts.withLock({ $0.stop }) {
                let data = try? Data(contentsOf: file)
                counts.withLock { c in
                    c.reads += 1
                    if data != small && data != large { c.torn += 1 }
                }
            }
            done.signal()
        }
        reader.start()
        let deadline = ContinuousClock.now + .seconds(10)
        var round = 0
        while round < 40 || (counts.withLock { $0.reads } < 200 && ContinuousClock.now < deadline) {
            try target.store(round.isMultiple(of: 2) ? large : small, at: "streams/a/playlist.m3u8")
            round += 1
        }
        counts.withLock { $0.stop = true }
        done.wait()
        let (reads, torn, _) = counts.withLock { $0 }
        #expect(reads > 0)
        #expect(torn == 0, "\(torn) of \(reads) reads saw a missing or partial file")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("streams/a").path)
        #expect(leftovers == ["playlist.m3u8"])
    }

    @Test(arguments: ["/etc/passwd", "../escape.m3u8", "streams/../../x", "streams//a", "streams/.hidden", ""])
    func refusesPathsThatLeaveTheFolder(path: String) async throws {
        let folder = try PublishFixtures.temporaryDirectory("dir-paths")
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = DirectoryTarget(root: folder)
        let error = await #expect(throws: DirectoryTarget.Error.self) {
            try await target.put(path: path, body: Data("x".utf8), contentType: "text/plain")
        }
        #expect(error == .invalidPath(path))
        #expect(error?.isRetryable == false)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func aFileInTheWayIsAClearNonRetryableError() async throws {
        let folder = try PublishFixtures.temporaryDirectory("dir-blocked")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("not a folder".utf8).write(to: folder.appendingPathComponent("streams"))
        let target = DirectoryTarget(root: folder)
        let error = await #expect(throws: DirectoryTarget.Error.self) {
            try await target.put(path: "streams/a/init.mp4", body: Data("x".utf8), contentType: "video/mp4")
        }
        #expect(error?.isRetryable == false)
        #expect(error?.description.contains("\(folder.path)/streams") == true)
        #expect(error?.description.contains("in each other's way") == true, "\(String(describing: error))")
    }
}
