import Foundation
import ReelCore
import ReelTestSupport
import Testing
@testable import ReelStudio

/// `reel live` from the studio, to `reel serve` on loopback: the stream plays (ffprobe reads
/// the playlist over HTTP), the source is the live stream's alone while it runs, a stop ends it
/// with ENDLIST and the archive; the refusals in `reel live`'s words; the studio's stop.
@Suite("Studio live", .serialized)
struct StudioLiveTests {
    static func state(_ studio: TestStudio) throws -> [String: Any] {
        StudioReviewTests.object(try studio.api([studio.base + "/api/live"]))
    }

    /// Polls the live state until `done` holds of it (60 s at most).
    static func waitForLive(_ studio: TestStudio, until done: ([String: Any]) -> Bool) async throws -> [String: Any] {
        try await studio.waitForJSON("/api/live", "the live stream", until: done)
    }

    static func ended(_ now: [String: Any]) -> Bool { ["finished", "failed"].contains(now["state"] as? String ?? "") }

    @Test("go live to reel serve: the playlist plays while it runs; recording and a second stream are refused; stop: ENDLIST and the archive")
    func liveToOrigin() async throws {
        try await withReelServeOrigin { origin in
            try await withStudio(configure: { $0.source = "test:640x360@15" }) { studio in
                let cookie = try studio.signIn()
                #expect(try Self.state(studio)["state"] as? String == "idle")
                let body = #"{"origin":"\#(origin.baseURL.absoluteString)","token":"\#(origin.token)","quality":"low"}"#
                let started = try studio.post("/api/live", json: body, cookie: cookie)
                #expect(started.status == 202 && !started.text.contains(origin.token), "the token is never echoed: \(started.text)")
                let first = StudioReviewTests.object(started)
                let id = try #require(first["streamID"] as? String)
                #expect(first["source"] as? String == "test:640x360@15", "the chosen source by default")
                #expect(first["playlistURL"] as? String == origin.baseURL.absoluteString + "streams/\(id)/playlist.m3u8")
                #expect(first["viewerURL"] as? String == origin.baseURL.absoluteString + "watch/\(id)")

                let recording = try studio.post("/api/recording/start", json: #"{"mode":"timelapse"}"#, cookie: cookie)
                #expect(recording.status == 409 && recording.text.contains("live stream"), "\(recording.text)")
                #expect(try studio.post("/api/live", json: body, cookie: cookie).status == 409)
                let camera = StudioReviewTests.object(try studio.api([studio.base + "/api/camera"]))
                #expect((camera["problem"] as? String)?.contains("streaming live") == true, "\(camera)")

                let running = try await Self.waitForLive(studio) { ($0["segmentsPublished"] as? Int ?? 0) >= 2 || Self.ended($0) }
                #expect(running["state"] as? String == "live", "\(running)")
                let probe = try Subprocess.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0",
                                                           try #require(running["playlistURL"] as? String)])
                #expect(probe.status == 0 && probe.stdout.contains("h264"), "\(probe.stdout) \(probe.stderr)")
                #expect(try curl([try #require(running["viewerURL"] as? String)]).status == 200, "the origin's viewer page")
                #expect((running["lines"] as? [String])?.contains { $0.hasPrefix("stream: \(id)") } == true, "\(running)")

                #expect(try studio.post("/api/live/stop", cookie: cookie).status == 200)
                let done = try await Self.waitForLive(studio, until: Self.ended)
                #expect(done["state"] as? String == "finished", "\(done)")
                let playlist = try await origin.get("streams/\(id)/playlist.m3u8")
                #expect(String(decoding: playlist.body, as: UTF8.self).contains("#EXT-X-ENDLIST"))
                let archive = try #require(done["archivePath"] as? String)
                #expect(archive.hasPrefix(studio.folder.url.path) && FileManager.default.fileExists(atPath: archive), "\(archive)")
                let archived = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name", "-of", "csv=p=0", archive])
                #expect(archived.stdout.contains("hevc"), "\(archived.stdout) \(archived.stderr)")
                let free = StudioReviewTests.object(try studio.api([studio.base + "/api/camera"]))
                #expect(free["problem"] == nil, "the source is the record page's again: \(free)")
            }
        }
    }

    @Test("refusals in reel live's words; a wrong token fails with the origin's refusal; a stream with a duration ends by itself; the studio's stop ends a stream")
    func refusalsAndEnds() async throws {
        try await withReelServeOrigin { origin in
            try await withStudio(configure: { $0.source = "test:640x360@15" }) { studio in
                let cookie = try studio.signIn()
                let refusals: [(String, String)] = [
                    ("{}", "nowhere to publish"), (#"{"origin":"ftp://example.org/"}"#, "http"),
                    (#"{"origin":"\#(origin.baseURL.absoluteString)","quality":"ultra"}"#, "quality"),
                    (#"{"output":"relative/folder"}"#, "absolute"), (#"{"output":"/tmp/x","source":"nonsense"}"#, "source"),
                    (#"{"output":"/tmp/x","quality":"auto"}"#, "--quality auto"),
                ]
                for (body, words) in refusals {
                    let refused = try studio.post("/api/live", json: body, cookie: cookie)
                    #expect(refused.status == 400 && refused.text.contains(words), "\(body): \(refused.status) \(refused.text)")
                }
                #expect(try Self.state(studio)["state"] as? String == "idle", "nothing started")

                let wrong = try studio.post("/api/live", json: #"{"origin":"\#(origin.baseURL.absoluteString)","token":"not-the-token","archive":false}"#,
                                            cookie: cookie)
                #expect(wrong.status == 202)
                let failed = try await Self.waitForLive(studio, until: Self.ended)
                #expect(failed["state"] as? String == "failed" && (failed["message"] as? String)?.contains("the upload token was refused") == true, "\(failed)")

                let output = studio.folder.path("hls")
                let timed = try studio.post("/api/live", json: #"{"output":"\#(output)","duration":3,"archive":false}"#, cookie: cookie)
                #expect(timed.status == 202, "\(timed.text)")
                let id = try #require(StudioReviewTests.object(timed)["streamID"] as? String)
                let over = try await Self.waitForLive(studio, until: Self.ended)
                #expect(over["state"] as? String == "finished", "\(over)")
                let written = try String(contentsOfFile: output + "/streams/\(id)/playlist.m3u8", encoding: .utf8)
                #expect(written.contains("#EXT-X-ENDLIST"))

                let last = try studio.post("/api/live", json: #"{"origin":"\#(origin.baseURL.absoluteString)","token":"\#(origin.token)","archive":false}"#,
                                           cookie: cookie)
                let lastID = try #require(StudioReviewTests.object(last)["streamID"] as? String)
                _ = try await Self.waitForLive(studio) { ($0["segmentsPublished"] as? Int ?? 0) >= 1 || Self.ended($0) }
                await studio.server.stop()
                #expect(studio.server.live.current.state == .finished, "\(studio.server.live.current)")
                let playlist = try await origin.get("streams/\(lastID)/playlist.m3u8")
                #expect(String(decoding: playlist.body, as: UTF8.self).contains("#EXT-X-ENDLIST"), "the studio's stop ends the stream cleanly")
            }
        }
    }
}
