import ReelCore
import Testing
@testable import ReelOrigin

@Suite struct OriginRouteTests {
    @Test func layoutPathsRoute() throws {
        let desk = try StreamLayout(streamID: "desk_2026-11-30")
        #expect(OriginRoute(path: "/") == .index)
        #expect(OriginRoute(path: "/health") == .health)
        #expect(OriginRoute(path: "/api/streams") == .streamList)
        #expect(OriginRoute(path: "/watch/desk_2026-11-30") == .watch(desk))
        #expect(OriginRoute(path: "/viewer.js") == .viewerAsset(.script))
        #expect(OriginRoute(path: "/viewer.css") == .viewerAsset(.style))
        #expect(OriginRoute(path: "/streams/desk_2026-11-30") == .stream(desk))
        #expect(OriginRoute(path: "/streams/desk_2026-11-30/init.mp4") == .streamFile(desk, .initSegment))
        #expect(OriginRoute(path: "/streams/desk_2026-11-30/playlist.m3u8") == .streamFile(desk, .playlist))
        #expect(OriginRoute(path: "/streams/desk_2026-11-30/seg/000001.m4s") == .streamFile(desk, .segment(sequence: 1)))
        #expect(OriginRoute(path: "/streams/desk_2026-11-30/seg/1234567890.m4s") == .streamFile(desk, .segment(sequence: 1_234_567_890)))
        // Every path the publisher writes routes back to the same file.
        for sequence in [1, 999_999, 1_000_000] {
            #expect(OriginRoute(path: "/" + desk.segmentPath(sequence: sequence)) == .streamFile(desk, .segment(sequence: sequence)))
        }
        // One file, one path: no escaped spelling and no extra leading zero names it again.
        #expect(OriginRoute(path: "/streams/%64esk_2026-11-30/init.mp4") == nil)
        #expect(OriginRoute(path: "/streams/desk_2026-11-30/seg/0000001.m4s") == nil)
        #expect(OriginRoute(path: "/streams/desk_2026-11-30/seg/%30%30%30%30%30%31.m4s") == nil)
        #expect(OriginRoute(path: "/streams/desk_2026-11-30/seg/0001000000.m4s") == nil)
    }

    @Test(arguments: [
        "", "health", "//health", "/health/", "/api/streams/", "/streams", "/streams/", "/streams/x/",
        "/streams/../etc/passwd", "/streams/x/../../etc/passwd", "/streams/%2e%2e/init.mp4", "/streams/%2E%2E/%2e%2e/token",
        "/streams/x%2finit.mp4", "/streams/x/seg%2f000001.m4s", "/streams/x%2F..%2F..%2Ftoken", "/streams/x%00/init.mp4",
        "/streams/x/init.mp4%00.m3u8", "/streams/x/init.mp4\u{0}", "//etc/passwd", "/etc/passwd", "/streams//init.mp4",
        "/streams/x//init.mp4", "http://evil/streams/x/init.mp4", "/streams/x/init.mp4?x", "/streams/x/token",
        "/streams/x/seg/00001.m4s", "/streams/x/seg/12345678901.m4s", "/streams/x/seg/00000a.m4s", "/streams/x/seg/000001.mp4",
        "/streams/x/seg/-00001.m4s", "/streams/x/seg/.000001.m4s", "/streams/x/.init.mp4.tmp", "/streams/.hidden/init.mp4",
        "/streams/a.b/init.mp4", "/streams/x/%", "/streams/x/%2", "/streams/x/%zz", "/streams/caf%C3%A9/init.mp4",
        "/streams/x/%FF/init.mp4", "/streams/x/init.mp4/", "/streams/x/seg", "/streams/x/seg/", "/api", "/api/streams/x",
        "\\streams\\x\\init.mp4", "/streams/x\\..\\..\\init.mp4",
        "/watch", "/watch/", "/watch/a.b", "/watch/x/", "/watch/x/init.mp4", "/watch/%2e%2e", "/viewer.js/", "/viewer.JS",
        "/x/viewer.js", "/viewer", "/viewer.html",
    ])
    func everythingElseIsNothing(path: String) {
        #expect(OriginRoute(path: path) == nil, "\(path)")
    }

    @Test func idsFollowTheLayoutRule() {
        #expect(OriginRoute(path: "/streams/\(String(repeating: "a", count: 128))/init.mp4") != nil)
        #expect(OriginRoute(path: "/streams/\(String(repeating: "a", count: 129))/init.mp4") == nil)
        #expect(OriginRoute(path: "/" + String(repeating: "a", count: 2000)) == nil)
    }

    @Test func filesKnowTheirTypeCachingAndPlace() {
        #expect(OriginFile.playlist.contentType == "application/vnd.apple.mpegurl")
        #expect(OriginFile.initSegment.contentType == "video/mp4")
        #expect(OriginFile.segment(sequence: 3).contentType == "video/iso.segment")
        #expect(OriginFile.playlist.cacheControl == "public, max-age=1")
        #expect(OriginFile.initSegment.cacheControl == "public, max-age=31536000, immutable")
        #expect(OriginFile.segment(sequence: 3).cacheControl == "public, max-age=31536000, immutable")
        #expect(OriginFile.playlist.isCompressible && !OriginFile.initSegment.isCompressible && !OriginFile.segment(sequence: 1).isCompressible)
        #expect(OriginFile.segment(sequence: 42).location.folders == ["seg"])
        #expect(OriginFile.segment(sequence: 42).location.name == "000042.m4s")
        #expect(OriginFile.playlist.location.folders.isEmpty && OriginFile.playlist.location.name == "playlist.m3u8")
        // The same MIME types the publisher sends.
        let layout = try! StreamLayout(streamID: "x")
        #expect(OriginFile.playlist.contentType == StreamLayout.contentType(forPath: layout.playlistPath))
        #expect(OriginFile.initSegment.contentType == StreamLayout.contentType(forPath: layout.initPath))
        #expect(OriginFile.segment(sequence: 1).contentType == StreamLayout.contentType(forPath: layout.segmentPath(sequence: 1)))
    }
}

@Suite struct OriginPartRouteTests {
    @Test func partsHaveOneNameEach() throws {
        let desk = try StreamLayout(streamID: "desk")
        #expect(OriginRoute(path: "/streams/desk/part/000001.0.m4s") == .streamFile(desk, .part(sequence: 1, index: 0)))
        #expect(OriginRoute(path: "/streams/desk/part/1234567.12.m4s") == .streamFile(desk, .part(sequence: 1_234_567, index: 12)))
        #expect(OriginRoute(path: "/" + desk.directory + "/" + StreamLayout.partURI(sequence: 7, index: 3)) == .streamFile(desk, .part(sequence: 7, index: 3)))
        for other in ["/streams/desk/part/000001.00.m4s", "/streams/desk/part/000001.100.m4s", "/streams/desk/part/000001.m4s",
                      "/streams/desk/part/0000001.0.m4s", "/streams/desk/part/000001.-1.m4s", "/streams/desk/part/000001.0",
                      "/streams/desk/seg/000001.0.m4s", "/streams/desk/part/000001.1.2.m4s"] {
            #expect(OriginRoute(path: other) == nil, "\(other)")
        }
        #expect(OriginFile(streamPath: "streams/desk/part/000002.5.m4s") == .part(sequence: 2, index: 5))
        #expect(OriginFile.part(sequence: 2, index: 5).cacheControl.contains("immutable"))
    }
}

@Suite struct OriginRungRouteTests {
    @Test func aRungsFilesRouteToTheRungsLayout() throws {
        let desk = try StreamLayout(streamID: "desk")
        let high = try desk.rung("high")
        #expect(OriginRoute(path: "/streams/desk/high/init.mp4") == .streamFile(high, .initSegment))
        #expect(OriginRoute(path: "/streams/desk/high/playlist.m3u8") == .streamFile(high, .playlist))
        #expect(OriginRoute(path: "/streams/desk/high/seg/000007.m4s") == .streamFile(high, .segment(sequence: 7)))
        #expect(OriginRoute(path: "/streams/desk/high/part/000007.3.m4s") == .streamFile(high, .part(sequence: 7, index: 3)))
        // Every path a ladder's publisher writes routes back to its rung's file.
        let rung = try desk.rung("720p-2")
        #expect(OriginRoute(path: "/" + rung.initPath) == .streamFile(rung, .initSegment))
        #expect(OriginRoute(path: "/" + rung.playlistPath) == .streamFile(rung, .playlist))
        #expect(OriginRoute(path: "/" + rung.segmentPath(sequence: 1_000_000)) == .streamFile(rung, .segment(sequence: 1_000_000)))
        #expect(OriginRoute(path: "/" + rung.partPath(sequence: 12, index: 0)) == .streamFile(rung, .part(sequence: 12, index: 0)))
        // The stream's own files are still the stream's (no rung): the multivariant playlist among them.
        #expect(OriginRoute(path: "/streams/desk/playlist.m3u8") == .streamFile(desk, .playlist))
        #expect(OriginRoute(path: "/streams/desk/seg/000001.m4s") == .streamFile(desk, .segment(sequence: 1)))
        #expect(OriginRoute(path: "/streams/desk/part/000001.0.m4s") == .streamFile(desk, .part(sequence: 1, index: 0)))
        // Longest rung name, longest id: still one route.
        let long = String(repeating: "a", count: 128), rungName = String(repeating: "9", count: 32)
        #expect(OriginRoute(path: "/streams/\(long)/\(rungName)/seg/1234567890.m4s")
                == .streamFile(try StreamLayout(streamID: long, rung: rungName), .segment(sequence: 1_234_567_890)))
    }

    @Test(arguments: [
        // seg and part are never rungs, whatever follows them.
        "/streams/a/seg/init.mp4", "/streams/a/part/playlist.m3u8", "/streams/a/seg/x/init.mp4", "/streams/a/part/seg/000001.m4s",
        "/streams/a/seg/seg/000001.m4s",
        // Names a rung cannot have.
        "/streams/a/High/init.mp4", "/streams/a/-x/init.mp4", "/streams/a/hi_gh/init.mp4", "/streams/a/hi.gh/playlist.m3u8",
        "/streams/a/\(String(repeating: "a", count: 33))/init.mp4", "/streams/a/h%69gh/init.mp4", "/streams/a/%2e%2e/init.mp4",
        "/streams/a/../init.mp4", "/streams/a/./init.mp4",
        // One rung level only, and only the four files in it.
        "/streams/a/low/low/init.mp4", "/streams/a/low/low/seg/000001.m4s", "/streams/a/low/token", "/streams/a/low/seg/0000001.m4s",
        "/streams/a/low/part/000001.00.m4s", "/streams/a/low/seg/000001.m4s/", "/streams/a/low/seg", "/streams/a/low/seg/",
        // A rung alone is no route (DELETE /streams/{id} removes a ladder), nor empty or trailing components.
        "/streams/a/low", "/streams/a/low/", "/streams/a//init.mp4", "/streams/a/low//init.mp4", "/streams/a/low/init.mp4/",
        "/streams//low/init.mp4", "/watch/a/low", "/streams/a.b/low/init.mp4",
    ])
    func whatIsNotARungsFileIsNothing(path: String) {
        #expect(OriginRoute(path: path) == nil, "\(path)")
    }

    @Test func lengthLimitHoldsForRungPaths() {
        let id = String(repeating: "a", count: 128)
        let path = "/streams/\(id)/low/seg/000001.m4s"
        #expect(OriginRoute(path: path) != nil)
        #expect(OriginRoute(path: path + String(repeating: "/x", count: 500)) == nil, "over the length limit")
        #expect(Array("/a/b/c/d/e".utf8).withUnsafeBufferPointer(OriginRoute.components) == ["a", "b", "c", "d", "e"])
        #expect(Array("/a/b/c/d/e/f".utf8).withUnsafeBufferPointer(OriginRoute.components) == nil, "no route has six")
        #expect(OriginRoute(path: "/streams/a/low/seg/000001.m4s/x") == nil)
    }
}
