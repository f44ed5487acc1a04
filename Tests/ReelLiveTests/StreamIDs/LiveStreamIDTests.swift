import Foundation
import ReelTestSupport
import Testing

/// Nothing stale (docs/publishing.md): a stream id whose playlist is on the target is refused
/// before capture (a cache keeps immutable segments for a year), and `--replace` deletes the
/// old stream first, so a shorter run leaves none of the longer run's segments listed or stored.
@Suite("reel live: a stream id is never reused with different bytes", .serialized)
struct LiveStreamIDTests {
    /// The segment names a playlist lists (`seg/000001.m4s`, …).
    static func listed(_ playlist: String) -> [String] {
        playlist.split(separator: "\n").filter { $0.hasPrefix("seg/") }.map(String.init)
    }

    /// A 4 s run (two 2 s segments), the same id again (refused, the old playlist untouched),
    /// then a 2 s run with `--replace` (one segment): only the new segments are listed, the old
    /// higher ones are gone.
    static func refuseThenReplace(origin: any HTTPReadableOrigin, place: String, arguments: [String], environment: [String: String],
                                  storedFiles: (() throws -> [String])?) async throws {
        let live = ["live", "--source", "test:320x240@30"] + arguments + ["--stream-id", "desk", "--no-archive", "--quiet"]
        let first = try ReelBinary.run(live + ["--duration", "4"], environment: environment)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        let before = try await origin.get("streams/desk/playlist.m3u8").body
        let old = listed(String(decoding: before, as: UTF8.self))
        #expect(old.count >= 2, "\(old)")

        let again = try ReelBinary.run(live + ["--duration", "2"], environment: environment)
        #expect(again.status == 1)
        #expect(again.stderr.contains("stream ID desk already exists on \(place): a cache may keep its segments for a year, so Reel never "
                                      + "writes different bytes under the same name. Pick another --stream-id, or pass --replace to delete "
                                      + "the old stream first"), "\(again.stderr)")
        #expect(!again.stdout.contains("stream:"), "nothing was captured: \(again.stdout)")
        #expect(try await origin.get("streams/desk/playlist.m3u8").body == before)

        let replaced = try ReelBinary.run(live + ["--duration", "2", "--replace"], environment: environment)
        #expect(replaced.status == 0, "\(replaced.stdout)\(replaced.stderr)")
        let playlist = String(decoding: try await origin.get("streams/desk/playlist.m3u8").body, as: UTF8.self)
        let new = listed(playlist)
        #expect(playlist.contains("#EXT-X-ENDLIST") && !new.isEmpty && new.count < old.count, "\(playlist)")
        #expect(new == Array(old.prefix(new.count)), "numbered from 1 again: \(new)")
        for gone in old.dropFirst(new.count) {
            #expect(try await origin.get("streams/desk/\(gone)").status == 404, "\(gone) of the longer run is gone")
        }
        if let storedFiles {
            #expect(try storedFiles() == (["streams/desk/init.mp4", "streams/desk/playlist.m3u8"] + new.map { "streams/desk/\($0)" }).sorted())
        }
    }

    @Test("an id already on the origin is refused before capture; --replace deletes the old stream first", arguments: OriginKind.allCases)
    func origin(_ kind: OriginKind) async throws {
        try await withOrigin(kind, token: "issue18-replace-token") { origin in
            let dir = try TemporaryDirectory()
            defer { dir.cleanup() }
            try await Self.refuseThenReplace(origin: origin, place: "origin \(origin.baseURL.absoluteString)", arguments: origin.liveArguments,
                                             environment: ["XDG_STATE_HOME": dir.path("state")],
                                             storedFiles: { try LiveFrictionTests.storedFiles(origin) })
        }
    }

    @Test("--replace on an origin that refuses DELETE (nginx with dav_methods PUT): refused before capture, saying what to do; the old stream untouched")
    func originThatCannotDelete() async throws {
        try await withNginxOrigin(davMethods: "PUT") { origin in
            let dir = try TemporaryDirectory()
            defer { dir.cleanup() }
            let live = ["live", "--source", "test:320x240@30"] + origin.liveArguments + ["--stream-id", "kept", "--no-archive", "--quiet"]
            let first = try ReelBinary.run(live + ["--duration", "2"], environment: ["XDG_STATE_HOME": dir.path("state")])
            #expect(first.status == 0, "\(first.stderr)")
            let before = try await origin.get("streams/kept/playlist.m3u8").body
            let replaced = try ReelBinary.run(live + ["--duration", "2", "--replace"], environment: ["XDG_STATE_HOME": dir.path("state")])
            #expect(replaced.status == 1)
            #expect(replaced.stderr.contains("--replace: could not delete the old stream kept on origin \(origin.baseURL.absoluteString), "
                                             + "so nothing was started. The origin answered HTTP 405 to DELETE \(origin.baseURL.absoluteString)streams/kept/"),
                    "\(replaced.stderr)")
            #expect(replaced.stderr.contains("nginx: dav_methods PUT DELETE") && replaced.stderr.contains("pick another --stream-id"), "\(replaced.stderr)")
            #expect(!replaced.stdout.contains("stream:"), "nothing was captured: \(replaced.stdout)")
            #expect(try await origin.get("streams/kept/playlist.m3u8").body == before)
        }
    }

    @Test("an id already in the bucket (moto) is refused; --replace lists and deletes the old objects first")
    func bucket() async throws {
        try await withMotoS3 { server in
            let dir = try TemporaryDirectory()
            defer { dir.cleanup() }
            try await Self.refuseThenReplace(origin: server, place: "bucket \(server.location)/ at \(server.endpoint)", arguments: server.liveArguments,
                                             environment: server.environment().merging(["XDG_STATE_HOME": dir.path("state")]) { $1 },
                                             storedFiles: nil)
        }
    }

    @Test("an id already in the --output folder is refused; --replace removes the old folder first")
    func folder() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let out = dir.url.appendingPathComponent("out")
        let files = FolderOrigin(root: out)
        try await Self.refuseThenReplace(origin: files, place: "folder \(out.standardizedFileURL.path)", arguments: ["--output", out.path],
                                         environment: ["XDG_STATE_HOME": dir.path("state")], storedFiles: files.storedFiles)
    }
}

/// An `--output` folder read like an origin: 200 with the file, 404 without.
final class FolderOrigin: HTTPReadableOrigin {
    let root: URL
    var baseURL: URL { root }

    init(root: URL) { self.root = root }

    func get(_ path: String) async throws -> (status: Int, body: Data, headers: [String: String]) {
        guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(path).path) else { return (404, Data(), [:]) }
        return (200, data, [:])
    }

    /// Files below `streams/`, relative to the root, sorted.
    func storedFiles() throws -> [String] {
        try LiveFrictionTests.streamFiles(below: root)
    }
}
