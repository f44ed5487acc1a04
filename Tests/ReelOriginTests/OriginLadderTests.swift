import Foundation
import ReelCore
@testable import ReelOrigin
import ReelTestSupport
import Testing

/// An ABR ladder on the origin: `streams/{id}/playlist.m3u8` is the multivariant playlist and
/// each rung keeps its files in `streams/{id}/{rung}/`. Stored and served like a stream's
/// files, listed once under the stream (judged by its rungs, rebuilt from the disk at start),
/// deleted as a whole, each rung's playlist kept apart in the response cache and judged by its
/// own tally for blocking reload.
@Suite("Origin ladder", .serialized)
struct OriginLadderTests {
    static let multivariant = """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-STREAM-INF:BANDWIDTH=3000000,RESOLUTION=1280x720,CODECS="avc1.64001f"
        high/playlist.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,CODECS="avc1.64001e"
        low/playlist.m3u8

        """

    /// A rung's media playlist of `segments` 2 s segments, named by `rung` in a comment (so two
    /// rungs' playlists differ), ended when asked.
    static func media(_ rung: String, segments: Int, ended: Bool = false) -> Data {
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:2\n#EXT-X-MAP:URI=\"init.mp4\"\n#EXT-X-MEDIA-SEQUENCE:1\n# rung \(rung)\n"
        for sequence in (0..<segments).map({ $0 + 1 }) { text += "#EXTINF:2.000,\n\(StreamLayout.segmentURI(sequence: sequence))\n" }
        return Data((text + (ended ? "#EXT-X-ENDLIST\n" : "")).utf8)
    }

    static func put(_ origin: TestOrigin, _ path: String, _ body: Data) throws -> Int {
        try OriginServerTests.put(origin, path, body, token: origin.token).status
    }

    /// Waits until the clock is past the millisecond of `updatedAt` (the listing's precision),
    /// so an update made now shows as later.
    static func pastTheMillisecond(of updatedAt: String) async throws {
        let time = try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(updatedAt)
        _ = try await eventually("the clock past \(updatedAt)") { Date() >= time.addingTimeInterval(0.001) ? true : nil }
    }

    struct Listing: Decodable {
        struct Stream: Decodable {
            var streamId: String
            var playlistURL: String
            var updatedAt: String
            var segmentCount: Int
            var isFinished: Bool
            var renditions: [String]?
        }
        var streams: [Stream]

        static func get(_ base: String) throws -> Listing {
            try JSONDecoder().decode(Listing.self, from: try curl([base + "/api/streams"]).body)
        }
    }

    /// PUTs a two-rung ladder `id`: the multivariant playlist, each rung's init, first segment
    /// and playlist (`low` with `lowSegments`, `high` with `highSegments`).
    static func publish(_ origin: TestOrigin, _ id: String, lowSegments: Int, highSegments: Int) throws {
        #expect(try put(origin, "/streams/\(id)/playlist.m3u8", Data(multivariant.utf8)) == 201)
        for (rung, segments) in [("low", lowSegments), ("high", highSegments)] {
            #expect(try put(origin, "/streams/\(id)/\(rung)/init.mp4", Data("init \(rung)".utf8)) == 201)
            #expect(try put(origin, "/streams/\(id)/\(rung)/seg/000001.m4s", Data("segment 1 \(rung)".utf8)) == 201)
            #expect(try put(origin, "/streams/\(id)/\(rung)/part/000002.0.m4s", Data("part 2.0 \(rung)".utf8)) == 201)
            #expect(try put(origin, "/streams/\(id)/\(rung)/playlist.m3u8", media(rung, segments: segments)) == 201)
        }
    }

    @Test func aLadderIsStoredServedAndListedOnce() async throws {
        try await withOrigin { origin in
            try Self.publish(origin, "desk", lowSegments: 3, highSegments: 2)
            #expect(try Self.put(origin, "/streams/solo/playlist.m3u8", Self.media("solo", segments: 1)) == 201)
            // Each file where the layout puts it, and served back as stored.
            let folder = origin.data.appendingPathComponent("streams/desk")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["high", "low", "playlist.m3u8"])
            #expect(try Data(contentsOf: folder.appendingPathComponent("high/seg/000001.m4s")) == Data("segment 1 high".utf8))
            #expect(try curl([origin.base + "/streams/desk/playlist.m3u8"]).text == Self.multivariant)
            for rung in ["low", "high"] {
                #expect(try curl([origin.base + "/streams/desk/\(rung)/init.mp4"]).body == Data("init \(rung)".utf8))
                #expect(try curl([origin.base + "/streams/desk/\(rung)/seg/000001.m4s"]).body == Data("segment 1 \(rung)".utf8))
                let part = try curl([origin.base + "/streams/desk/\(rung)/part/000002.0.m4s"])
                #expect(part.body == Data("part 2.0 \(rung)".utf8) && part.headers["content-type"] == "video/iso.segment")
                let playlist = try curl([origin.base + "/streams/desk/\(rung)/playlist.m3u8"])
                #expect(playlist.text.contains("# rung \(rung)") && playlist.headers["content-type"] == "application/vnd.apple.mpegurl")
            }
            #expect(try curl([origin.base + "/streams/desk/medium/init.mp4"]).status == 404, "a rung never stored")

            // Listed once, under the stream, with the multivariant playlist and the fewest segments of any rung.
            var listing = try Listing.get(origin.base)
            #expect(listing.streams.map(\.streamId).sorted() == ["desk", "solo"])
            var desk = try #require(listing.streams.first { $0.streamId == "desk" })
            #expect(desk.playlistURL == "/streams/desk/playlist.m3u8" && desk.segmentCount == 2 && !desk.isFinished)
            #expect(desk.renditions == ["high", "low"])
            let solo = try #require(listing.streams.first { $0.streamId == "solo" })
            #expect(solo.renditions == nil && solo.segmentCount == 1, "a stream of one rendition is listed as always")

            // Each rung playlist PUT moves the summary on; finished only once every rung ended.
            try await Self.pastTheMillisecond(of: desk.updatedAt)
            #expect(try Self.put(origin, "/streams/desk/high/playlist.m3u8", Self.media("high", segments: 4)) == 204)
            listing = try Listing.get(origin.base)
            desk = try #require(listing.streams.first { $0.streamId == "desk" })
            #expect(desk.segmentCount == 3 && listing.streams.first?.streamId == "desk", "low's 3 now; newest first")
            #expect(try Self.put(origin, "/streams/desk/low/playlist.m3u8", Self.media("low", segments: 4, ended: true)) == 204)
            #expect(try Listing.get(origin.base).streams.first { $0.streamId == "desk" }?.isFinished == false, "high has not ended")
            #expect(try Self.put(origin, "/streams/desk/high/playlist.m3u8", Self.media("high", segments: 5, ended: true)) == 204)
            desk = try #require(try Listing.get(origin.base).streams.first { $0.streamId == "desk" })
            #expect(desk.isFinished && desk.segmentCount == 4)
            // The multivariant playlist's PUT moves it on too (it changes nothing else).
            try await Self.pastTheMillisecond(of: desk.updatedAt)
            #expect(try Self.put(origin, "/streams/desk/playlist.m3u8", Data(Self.multivariant.utf8)) == 204)
            let after = try #require(try Listing.get(origin.base).streams.first { $0.streamId == "desk" })
            #expect(after.updatedAt > desk.updatedAt && after.isFinished && after.segmentCount == 4)

            // Deleting one rung's playlist leaves its init: that rung lists nothing, so neither does the ladder.
            #expect(try curl(["-X", "DELETE", "-H", "Authorization: Bearer \(origin.token)",
                              origin.base + "/streams/desk/low/playlist.m3u8"]).status == 204)
            desk = try #require(try Listing.get(origin.base).streams.first { $0.streamId == "desk" })
            #expect(desk.segmentCount == 0 && !desk.isFinished && desk.renditions == ["high", "low"])
        }
    }

    @Test(arguments: ["/streams/a/seg/x/init.mp4", "/streams/a/High/init.mp4", "/streams/a/-x/init.mp4",
                      "/streams/a/low/low/init.mp4", "/streams/a/seg/init.mp4", "/streams/a/part/playlist.m3u8",
                      "/streams/a/low", "/streams/a/low/seg/1.m4s"])
    func pathsThatAreNoRungsFileAreRefused(path: String) throws {
        let origin = try TestOrigin()
        defer { origin.close() }
        let get = try curl(["--path-as-is", origin.base + path])
        #expect(get.status == 404 && get.text.contains("/streams/{id}/{rung}/"), "\(path): \(get.text)")
        #expect(try Self.put(origin, path, Data("x".utf8)) == 404, "\(path)")
        #expect(try curl(["--path-as-is", "-X", "DELETE", "-H", "Authorization: Bearer \(origin.token)", origin.base + path]).status == 404)
        #expect(!FileManager.default.fileExists(atPath: origin.data.appendingPathComponent("streams/a").path), "nothing stored")
    }

    @Test func gzipAnswersOfRungPlaylistsAreKeptApart() throws {
        let origin = try TestOrigin()
        defer { origin.close() }
        // Long enough to be worth compressing; low's and high's the same length (only the content tells them apart).
        let playlists = ["": Data((Self.multivariant + String(repeating: "# padding\n", count: 300)).utf8),
                         "low/": Self.media("lo", segments: 200), "high/": Self.media("hi", segments: 200)]
        for (folder, body) in playlists { #expect(try Self.put(origin, "/streams/desk/\(folder)playlist.m3u8", body) == 201) }
        for _ in 0..<2 {
            for (folder, body) in playlists {
                let zipped = try curl(["--compressed", origin.base + "/streams/desk/\(folder)playlist.m3u8"])
                #expect(zipped.headers["content-encoding"] == "gzip" && zipped.body == body, "\(folder)playlist.m3u8")
                #expect(try curl([origin.base + "/streams/desk/\(folder)playlist.m3u8"]).body == body)
            }
        }
        #expect(origin.server.cache.count == 6, "each playlist's gzip and identity answers, kept apart")
        // A new version of one rung's playlist drops its answers only.
        let newLow = Self.media("LO", segments: 200)
        #expect(try Self.put(origin, "/streams/desk/low/playlist.m3u8", newLow) == 204)
        #expect(origin.server.cache.count == 4)
        #expect(try curl(["--compressed", origin.base + "/streams/desk/low/playlist.m3u8"]).body == newLow)
        #expect(try curl(["--compressed", origin.base + "/streams/desk/high/playlist.m3u8"]).body == playlists["high/"])
        // Deleting the stream drops every rung's.
        #expect(try curl(["-X", "DELETE", "-H", "Authorization: Bearer \(origin.token)", origin.base + "/streams/desk"]).status == 204)
        #expect(origin.server.cache.count == 0)
    }

    @Test func deletingALadderRemovesEveryRung() throws {
        let origin = try TestOrigin()
        defer { origin.close() }
        try Self.publish(origin, "desk", lowSegments: 1, highSegments: 1)
        try Self.publish(origin, "other", lowSegments: 1, highSegments: 1)
        #expect(try curl(["-X", "DELETE", "-H", "Authorization: Bearer \(origin.token)", origin.base + "/streams/desk"]).status == 204)
        #expect(try FileManager.default.contentsOfDirectory(atPath: origin.data.appendingPathComponent("streams").path) == ["other"],
                "the folder with its rungs is gone, no trash left")
        for path in ["/streams/desk/playlist.m3u8", "/streams/desk/low/init.mp4", "/streams/desk/high/seg/000001.m4s"] {
            #expect(try curl([origin.base + path]).status == 404, "\(path)")
        }
        #expect(try Listing.get(origin.base).streams.map(\.streamId) == ["other"])
        #expect(try curl([origin.base + "/streams/other/high/init.mp4"]).body == Data("init high".utf8), "the other ladder is untouched")
        // A rung PUT after the DELETE starts the stream anew.
        #expect(try Self.put(origin, "/streams/desk/low/playlist.m3u8", Self.media("low", segments: 2)) == 201)
        let desk = try #require(try Listing.get(origin.base).streams.first { $0.streamId == "desk" })
        #expect(desk.renditions == ["low"] && desk.segmentCount == 2)
    }

    @Test func aSymlinkedRungFolderIsNeverFollowed() throws {
        let origin = try TestOrigin()
        defer { origin.close() }
        let fm = FileManager.default
        let secret = Data("outside".utf8)
        try fm.createDirectory(at: origin.outside.appendingPathComponent("seg"), withIntermediateDirectories: true)
        for name in ["init.mp4", "playlist.m3u8", "seg/000001.m4s"] { try secret.write(to: origin.outside.appendingPathComponent(name)) }
        let desk = origin.data.appendingPathComponent("streams/desk")
        try fm.createDirectory(at: desk, withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: desk.appendingPathComponent("low").path, withDestinationPath: origin.outside.path)
        for path in ["/streams/desk/low/init.mp4", "/streams/desk/low/playlist.m3u8", "/streams/desk/low/seg/000001.m4s"] {
            let get = try curl([origin.base + path])
            #expect(get.status == 404 && get.body != secret, "GET \(path) → \(get.status)")
        }
        #expect(try Self.put(origin, "/streams/desk/low/init.mp4", Data("evil".utf8)) == 409)
        #expect(try Self.put(origin, "/streams/desk/low/seg/000002.m4s", Data("evil".utf8)) == 409)
        #expect(try Listing.get(origin.base).streams.isEmpty, "a refused rung is no stream")
        // Not listed after a restart either, nor cleaned through (a temp file's name outside stays);
        // the DELETE removes the link, not what it points at.
        let bait = origin.outside.appendingPathComponent(".init.mp4.1.tmp")
        try secret.write(to: bait)
        let restarted = try OriginServer(settings: OriginSettings(host: "127.0.0.1", port: 0, dataDirectory: origin.data, accessLog: .none))
        #expect(restarted.store.streams().isEmpty && fm.fileExists(atPath: bait.path))
        #expect(try curl(["-X", "DELETE", "-H", "Authorization: Bearer \(origin.token)", origin.base + "/streams/desk"]).status == 204)
        for name in ["init.mp4", "playlist.m3u8", "seg/000001.m4s"] {
            #expect(try Data(contentsOf: origin.outside.appendingPathComponent(name)) == secret, "\(name) outside is untouched")
        }
        #expect(try fm.contentsOfDirectory(atPath: origin.outside.appendingPathComponent("seg").path) == ["000001.m4s"])
    }

    @Test func aRestartRebuildsTheLadderFromDisk() throws {
        let origin = try TestOrigin()
        defer { origin.close() }
        try Self.publish(origin, "desk", lowSegments: 3, highSegments: 2)
        #expect(try Self.put(origin, "/streams/desk/high/playlist.m3u8", Self.media("high", segments: 4, ended: true)) == 204)
        // low can block reload (LL-HLS), with segments 1 to 3.
        #expect(try Self.put(origin, "/streams/desk/low/playlist.m3u8", OriginBlockingReloadTests.playlist(segments: 3, parts: 0)) == 204)
        #expect(try Self.put(origin, "/streams/solo/playlist.m3u8", Self.media("solo", segments: 1)) == 201)
        origin.server.stop()
        // What a crash leaves in rung folders, and folders that are no rungs.
        let desk = origin.data.appendingPathComponent("streams/desk")
        let fm = FileManager.default
        for folder in ["Big", "empty", "low/part"] {
            try fm.createDirectory(at: desk.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for name in ["Big/playlist.m3u8", "low/.init.mp4.12.tmp", "low/seg/.000002.m4s.34.tmp", "low/part/.000002.1.m4s.5.tmp", ".playlist.m3u8.6.tmp"] {
            try Data("#EXTINF:2,\nx\n".utf8).write(to: desk.appendingPathComponent(name))
        }

        let restarted = try OriginServer(settings: OriginSettings(host: "127.0.0.1", port: 0, dataDirectory: origin.data, accessLog: .none))
        try restarted.start()
        defer { restarted.stop() }
        let base = "http://127.0.0.1:\(restarted.port)"
        let listing = try Listing.get(base)
        #expect(listing.streams.map(\.streamId).sorted() == ["desk", "solo"])
        let ladder = try #require(listing.streams.first { $0.streamId == "desk" })
        #expect(ladder.renditions == ["high", "low"], "Big is no rung name, empty holds no rung file")
        #expect(ladder.segmentCount == 3 && !ladder.isFinished && ladder.playlistURL == "/streams/desk/playlist.m3u8")
        #expect(listing.streams.first { $0.streamId == "solo" }?.renditions == nil)
        #expect(origin.temporaryFiles().isEmpty, "temp files in the stream's and its rungs' folders are removed")
        // The rungs' tallies are back too: low's judges a blocking reload (without it nothing would block).
        let started = ContinuousClock.now
        #expect(try curl([base + "/streams/desk/low/playlist.m3u8?_HLS_msn=3"]).status == 200)
        #expect(ContinuousClock.now - started < .seconds(2), "segment 3 is there: at once")
        let tooFar = try curl([base + "/streams/desk/low/playlist.m3u8?_HLS_msn=9"])
        #expect(tooFar.status == 400 && tooFar.text.contains("more than two"), "too far ahead of low's 3: \(tooFar.text)")
    }
}

/// Blocking reload and held parts on a ladder: each rung is judged by its own media playlist
/// and woken by its own files only.
@Suite("Origin ladder blocking reload", .serialized)
struct OriginLadderBlockingReloadTests {
    /// `OriginBlockingReloadTests.playlist` with the rung named in a comment.
    static func playlist(_ rung: String, segments: Int, parts: Int) -> Data {
        OriginBlockingReloadTests.playlist(segments: segments, parts: parts) + Data("# rung \(rung)\n".utf8)
    }

    @Test func aRungsPlaylistWaitsForThatRungOnly() async throws {
        try await withOrigin { origin in
            for rung in ["low", "high"] {
                #expect(try OriginLadderTests.put(origin, "/streams/live/\(rung)/playlist.m3u8", Self.playlist(rung, segments: 3, parts: 0)) == 201)
            }
            let high = origin.base + "/streams/live/high/playlist.m3u8"
            let waiting = OriginBlockingReloadTests.getLater(high + "?_HLS_msn=4")
            try await eventually("the request held") { origin.server.http.heldRequests == 1 ? true : nil }
            // Neither the multivariant playlist nor another rung reaching segment 4 answers it.
            #expect(try OriginLadderTests.put(origin, "/streams/live/playlist.m3u8", Data(OriginLadderTests.multivariant.utf8)) == 201)
            #expect(try OriginLadderTests.put(origin, "/streams/live/low/playlist.m3u8", Self.playlist("low", segments: 4, parts: 0)) == 204)
            #expect(try curl([origin.base + "/streams/live/low/playlist.m3u8?_HLS_msn=4"]).status == 200, "low is judged by low's")
            // Asked now, after low's PUT: judged by high's playlist at once, so held too.
            let later = OriginBlockingReloadTests.getLater(high + "?_HLS_msn=4")
            try await eventually("both requests held") { origin.server.http.heldRequests == 2 ? true : nil }
            // Held for a while is the scenario: 300 ms in which nothing of high's comes.
            try await Task.sleep(for: .milliseconds(300))
            #expect(origin.server.http.heldRequests == 2, "high's requests still wait")
            #expect(try OriginLadderTests.put(origin, "/streams/live/high/playlist.m3u8", Self.playlist("high", segments: 4, parts: 0)) == 204)
            for request in [waiting, later] {
                let (answer, took) = try await request.value
                #expect(answer.status == 200 && answer.text.contains("# rung high") && answer.text.contains(StreamLayout.segmentURI(sequence: 4)))
                #expect(took >= .milliseconds(300) && took < .seconds(3), "answered when high's segment came (\(took))")
            }
            #expect(origin.server.http.heldRequests == 0)
            // Delta updates per rung playlist.
            #expect(try OriginLadderTests.put(origin, "/streams/live/low/playlist.m3u8", Self.playlist("low", segments: 20, parts: 1)) == 204)
            let delta = try curl([origin.base + "/streams/live/low/playlist.m3u8?_HLS_skip=YES"])
            #expect(delta.text.contains("#EXT-X-SKIP:SKIPPED-SEGMENTS=13") && delta.text.contains("# rung low"), "\(delta.text)")
            #expect(!(try curl([high + "?_HLS_skip=YES"]).text.contains("EXT-X-SKIP")), "high's 4 segments: nothing to skip")
        }
    }

    @Test func aRungsHintedPartWaitsForThatRungsPart() async throws {
        try await withOrigin { origin in
            for rung in ["low", "high"] {
                #expect(try OriginLadderTests.put(origin, "/streams/live/\(rung)/playlist.m3u8", Self.playlist(rung, segments: 3, parts: 2)) == 201)
            }
            let part = StreamLayout.partURI(sequence: 4, index: 2)
            let waiting = OriginBlockingReloadTests.getLater(origin.base + "/streams/live/high/" + part)
            try await eventually("the part request held") { origin.server.http.heldRequests == 1 ? true : nil }
            #expect(try OriginLadderTests.put(origin, "/streams/live/low/" + part, Data("low part".utf8)) == 201)
            #expect(try OriginLadderTests.put(origin, "/streams/live/" + part, Data("the stream's own part".utf8)) == 201)
            // Held for a while is the scenario: 300 ms in which only other folders' parts come.
            try await Task.sleep(for: .milliseconds(300))
            #expect(origin.server.http.heldRequests == 1, "another folder's part is not high's")
            #expect(try OriginLadderTests.put(origin, "/streams/live/high/" + part, Data("high part".utf8)) == 201)
            let (answer, took) = try await waiting.value
            #expect(answer.status == 200 && answer.body == Data("high part".utf8))
            #expect(took >= .milliseconds(300) && took < .seconds(3))
        }
    }

    @Test func deletingTheLadderAnswersItsRungsHeldRequests() async throws {
        try await withOrigin { origin in
            #expect(try OriginLadderTests.put(origin, "/streams/live/high/playlist.m3u8", Self.playlist("high", segments: 3, parts: 0)) == 201)
            let waiting = OriginBlockingReloadTests.getLater(origin.base + "/streams/live/high/playlist.m3u8?_HLS_msn=4")
            try await eventually("the request held") { origin.server.http.heldRequests == 1 ? true : nil }
            #expect(try curl(["-X", "DELETE", "-H", "Authorization: Bearer \(origin.token)", origin.base + "/streams/live"]).status == 204)
            let (answer, took) = try await waiting.value
            // Judged again at once: no playlist now, so nothing to wait for (not 503 after three target durations).
            #expect(answer.status == 404 && took < .milliseconds(2500), "\(answer.status) after \(took)")
            #expect(origin.server.http.heldRequests == 0)
        }
    }
}
