import Foundation
import ReelOrigin
import ReelTestSupport
import Testing

/// The origin when storing fails: a full disk (507), a read-only or failing disk (500), a
/// folder where a file must be (409). The real `reel serve` binary runs with its data folder on
/// a small tmpfs mounted in a private mount namespace (``ReelServeOrigin/DataFolder/tmpfs(bytes:inodes:)``),
/// so the disk really fills up and really turns read-only, and nothing outlives the test.
/// Mounting needs root (CI runs as root); without it these tests fail and say what is needed.
///
/// After every failure: a clear message in the answer and on the server's standard error, no
/// temp file left, the previous version of a replaced file still served whole, every listed
/// file complete, reads answered throughout, and writes accepted again once the cause is gone.
@Suite("Origin storage failures", .serialized)
struct OriginStorageFailureTests {
    /// `count` bytes from a seeded generator: every file distinct and incompressible.
    static func bytes(_ seed: UInt64, _ count: Int) -> Data {
        var generator = SplitMix64(seed: seed)
        var data = Data(count: (count + 7) / 8 * 8)
        data.withUnsafeMutableBytes { raw in
            for offset in stride(from: 0, to: raw.count, by: 8) { raw.storeBytes(of: generator.next(), toByteOffset: offset, as: UInt64.self) }
        }
        return data.prefix(count)
    }

    static func playlist(segments: Int, padding: Int = 0) -> Data {
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:2\n#EXT-X-MAP:URI=\"init.mp4\"\n#EXT-X-MEDIA-SEQUENCE:1\n"
        for sequence in 1...max(segments, 1) { text += "#EXTINF:2.000,\nseg/\(String(format: "%06d", sequence)).m4s\n" }
        if padding > 0 { text += "#" + String(repeating: "x", count: padding) + "\n" }
        return Data(text.utf8)
    }

    static func segment(_ sequence: Int) -> String { "streams/desk/seg/\(String(format: "%06d", sequence)).m4s" }

    /// Every file the server has that a reader can be served, checked byte for byte, and no temp file anywhere.
    static func expectStoredWhole(_ origin: ReelServeOrigin, _ stored: [String: Data], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for (path, body) in stored.sorted(by: { $0.key < $1.key }) {
            let read = try await origin.get(path)
            #expect(read.status == 200 && read.body == body, "\(path): \(read.status), \(read.body.count) of \(body.count) bytes", sourceLocation: sourceLocation)
        }
        let files = try origin.dataFiles()
        #expect(!files.contains { $0.hasSuffix(".tmp") }, "no temp file left: \(files)", sourceLocation: sourceLocation)
        #expect(!files.contains { $0.contains(".deleted-") }, "no half-deleted stream left: \(files)", sourceLocation: sourceLocation)
    }

    @Test func aFullDiskAnswers507KeepsEveryStoredVersionWholeAndTakesWritesAgainOnceSpaceIsFreed() async throws {
        try await withReelServeOrigin(dataFolder: .tmpfs(bytes: 2 << 20)) { origin in
            var stored: [String: Data] = [:]
            func put(_ path: String, _ body: Data) async throws -> (status: Int, text: String) {
                let answer = try await origin.put(path, body)
                if (200..<300).contains(answer.status) { stored[path] = body }
                return (answer.status, String(decoding: answer.body, as: UTF8.self))
            }
            // Another stream takes half of the 2 MiB.
            #expect(try await put("streams/old/seg/000001.m4s", Self.bytes(1, 1_000_000)).status == 201)
            #expect(try await put("streams/old/playlist.m3u8", Self.playlist(segments: 1)).status == 201)
            #expect(try await put("streams/desk/init.mp4", Self.bytes(2, 2_000)).status == 201)
            #expect(try await put("streams/desk/playlist.m3u8", Self.playlist(segments: 1)).status == 201)

            // Segments of 200 kB until the disk is full: the write fails part way through the body.
            var refused: (sequence: Int, status: Int, text: String)?
            for sequence in 1...10 {
                let answer = try await put(Self.segment(sequence), Self.bytes(100 + UInt64(sequence), 200_000))
                if answer.status != 201 {
                    refused = (sequence, answer.status, answer.text)
                    break
                }
                #expect(try await put("streams/desk/playlist.m3u8", Self.playlist(segments: sequence)).status == 204)
            }
            let full = try #require(refused, "2 MiB never filled up")
            #expect(full.sequence >= 3, "\(full.sequence - 1) segments fitted")
            #expect(full.status == 507, "\(full.status): \(full.text)")
            #expect(full.text.contains("no space left on the device while storing \(Self.segment(full.sequence))"), "\(full.text)")
            #expect(origin.standardError.contains("reel serve: PUT /\(Self.segment(full.sequence)) failed: 507 Insufficient Storage: no space left on the device while storing \(Self.segment(full.sequence))\n"),
                    "the reason is on standard error: \(origin.standardError)")
            #expect(try await origin.get(Self.segment(full.sequence)).status == 404, "nothing partial is visible")
            try await Self.expectStoredWhole(origin, stored)

            // Replacing files on the full disk: the previous versions stay, whole.
            let lastPlaylist = try #require(stored["streams/desk/playlist.m3u8"])
            let replaced = try await put("streams/desk/playlist.m3u8", Self.playlist(segments: full.sequence, padding: 400_000))
            #expect(replaced.status == 507 && replaced.text.contains("streams/desk/playlist.m3u8"), "\(replaced)")
            #expect(try await put(Self.segment(1), Self.bytes(999, 200_000)).status == 507)
            #expect(stored["streams/desk/playlist.m3u8"] == lastPlaylist)
            try await Self.expectStoredWhole(origin, stored)

            // Reads go on: the stream list counts only what the stored playlists list.
            let list = String(decoding: try await origin.get("api/streams").body, as: UTF8.self)
            #expect(list.contains("\"streamId\":\"desk\"") && list.contains("\"segmentCount\":\(full.sequence - 1)"), "\(list)")
            #expect(try await origin.get("health").status == 200)

            // Deleting the other stream frees the space: the refused segment goes in now.
            #expect(try await origin.delete("streams/old").status == 204)
            stored = stored.filter { !$0.key.hasPrefix("streams/old/") }
            #expect(try await put(Self.segment(full.sequence), Self.bytes(100 + UInt64(full.sequence), 200_000)).status == 201)
            #expect(try await put("streams/desk/playlist.m3u8", Self.playlist(segments: full.sequence)).status == 204)
            try await Self.expectStoredWhole(origin, stored)
            #expect(try await origin.get("streams/old/playlist.m3u8").status == 404)
        }
    }

    @Test func aLongUploadToAFullDiskIsAnswered507NotDroppedAsASlowClient() async throws {
        // After a failed write the server still reads the rest of the body, so that it can
        // answer. The minimum upload rate (1 KiB/s on average once 10 s have passed) must count
        // those bytes too: counting only the bytes stored, an upload that outlasts 10 s on a full
        // disk was cut off as a slow client, and its sender saw a dropped connection instead of 507.
        try await withReelServeOrigin(dataFolder: .tmpfs(bytes: 1 << 20)) { origin in
            let fill = try origin.shell(#"head -c 2000000 /dev/zero > "$DATA/filler"; df -B1 --output=avail "$DATA" | tail -n 1"#)
            #expect(fill.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "the disk is full: \(fill.stdout) \(fill.stderr)")
            let chunk = Self.bytes(5, 4096), chunks = 24  // 96 KiB over 12 s: 8 KiB/s, well above the minimum rate
            let client = try RawClient(port: origin.port, receiveTimeout: 20)
            client.send("PUT /\(Self.segment(1)) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(origin.token)\r\n"
                        + "Content-Length: \(chunk.count * chunks)\r\n\r\n")
            var sent = 0
            for _ in 0..<chunks {
                guard client.send(chunk) else { break }
                sent += 1
                // The slow upload is the scenario: a chunk every 500 ms of real time.
                try await Task.sleep(for: .milliseconds(500))
            }
            #expect(sent == chunks, "the server kept reading the body")
            #expect(client.receiveStatus() == 507, "answered, not dropped")
            #expect(!origin.accessLog.contains("slow"), "\(origin.accessLog)")
            #expect(try origin.dataFiles() == ["filler", "streams/", "streams/desk/", "streams/desk/seg/"])
        }
    }

    @Test func noFreeInodesIsAFullDiskToo() async throws {
        // A tmpfs with room for a handful of files and folders (the root counts as one): a
        // PUT that cannot even create its temp file, or a new stream that cannot create its
        // folder, is refused with 507 before its body is read.
        try await withReelServeOrigin(dataFolder: .tmpfs(bytes: 8 << 20, inodes: 8)) { origin in
            var stored: [String: Data] = [:]
            var refused: (path: String, status: Int, text: String)?
            for path in ["streams/desk/init.mp4", "streams/desk/playlist.m3u8"] + (1...8).map(Self.segment) {
                let body = Self.bytes(UInt64(stored.count + 1), 10_000)
                let answer = try await origin.put(path, body)
                guard answer.status == 201 else {
                    refused = (path, answer.status, String(decoding: answer.body, as: UTF8.self))
                    break
                }
                stored[path] = body
            }
            let full = try #require(refused, "8 inodes never ran out")
            #expect(full.status == 507 && full.text.contains("no space left on the device while storing \(full.path)"), "\(full)")
            // Replacing needs a new file too (the old one stays until the rename): refused, the old one kept.
            let replace = try await origin.put("streams/desk/init.mp4", Self.bytes(77, 10_000))
            #expect(replace.status == 507)
            // A new stream cannot make its folder.
            let other = try await origin.put("streams/other/init.mp4", Self.bytes(78, 10_000))
            #expect(other.status == 507 && String(decoding: other.body, as: UTF8.self).contains("no space left on the device while storing streams/other"),
                    "\(other.status) \(String(decoding: other.body, as: UTF8.self))")
            try await Self.expectStoredWhole(origin, stored)
            #expect(try origin.dataFiles().filter { $0.hasPrefix("streams/other") }.allSatisfy { $0.hasSuffix("/") }, "at most an empty folder")
        }
    }

    @Test func aReadOnlyDiskAnswers500WhileReadsGoOnAndTakesWritesAgainOnceWritable() async throws {
        try await withReelServeOrigin(dataFolder: .tmpfs(bytes: 4 << 20)) { origin in
            var stored: [String: Data] = [:]
            for (path, body) in [("streams/desk/init.mp4", Self.bytes(1, 2_000)), (Self.segment(1), Self.bytes(2, 100_000)),
                                 ("streams/desk/playlist.m3u8", Self.playlist(segments: 1))] {
                #expect(try await origin.put(path, body).status == 201)
                stored[path] = body
            }
            // The disk turns read-only under the server: every write is an I/O error now.
            try origin.remountData(readOnly: true)
            let segment = try await origin.put(Self.segment(2), Self.bytes(3, 100_000))
            let text = String(decoding: segment.body, as: UTF8.self)
            #expect(segment.status == 500 && text.contains(Self.segment(2)) && text.contains("Read-only file system"), "\(segment.status) \(text)")
            #expect(origin.standardError.contains("reel serve: PUT /\(Self.segment(2)) failed: 500 Internal Server Error: \(Self.segment(2)): Read-only file system\n"),
                    "\(origin.standardError)")
            #expect(try await origin.put("streams/desk/playlist.m3u8", Self.playlist(segments: 2)).status == 500)
            #expect(try await origin.put("streams/new/init.mp4", Self.bytes(4, 2_000)).status == 500)
            #expect(try await origin.delete("streams/desk").status == 500, "DELETE fails too, and says so")
            // Reads are served as before.
            try await Self.expectStoredWhole(origin, stored)
            #expect(try await origin.get(Self.segment(2)).status == 404)
            let list = String(decoding: try await origin.get("api/streams").body, as: UTF8.self)
            #expect(list.contains("\"streamId\":\"desk\"") && list.contains("\"segmentCount\":1"), "\(list)")
            #expect(try await origin.get("health").status == 200)

            try origin.remountData(readOnly: false)
            #expect(try await origin.put(Self.segment(2), Self.bytes(3, 100_000)).status == 201)
            stored[Self.segment(2)] = Self.bytes(3, 100_000)
            #expect(try await origin.put("streams/desk/playlist.m3u8", Self.playlist(segments: 2)).status == 204)
            stored["streams/desk/playlist.m3u8"] = Self.playlist(segments: 2)
            try await Self.expectStoredWhole(origin, stored)
        }
    }

    @Test func aFolderWhereTheFileMustBeFailsTheRenameAndLeavesNoTempFile() async throws {
        // The last step of a PUT, the rename over the destination, fails (EISDIR): 409, and the
        // temp file written so far is removed.
        try await withOrigin { origin in
            let planted = origin.data.appendingPathComponent("streams/desk/init.mp4/inside")
            try FileManager.default.createDirectory(at: planted, withIntermediateDirectories: true)
            let answer = try OriginServerTests.put(origin, "/streams/desk/init.mp4", Self.bytes(1, 50_000), token: origin.token)
            #expect(answer.status == 409, "\(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
            #expect(String(decoding: answer.body, as: UTF8.self).contains("streams/desk/init.mp4"))
            #expect(origin.temporaryFiles().isEmpty)
            #expect(FileManager.default.fileExists(atPath: planted.path), "the folder is left as it was")
            #expect(try curl([origin.base + "/streams/desk/init.mp4"]).status == 404)
            #expect(try OriginServerTests.put(origin, "/streams/desk/playlist.m3u8", Self.playlist(segments: 1), token: origin.token).status == 201)
        }
    }
}
