import Foundation
import ReelTestSupport
import Testing

/// Found by trying `reel live` as a new user: the uplink probe leaves nothing on the
/// origin, a bad source is named in plain words, an origin that cannot be reached is named by
/// address and port (never Foundation's error dump).
@Suite("reel live: first-use friction", .serialized)
struct LiveFrictionTests {
    /// Files below `streams/` on the origin's disk, relative to its data folder or root, sorted.
    static func storedFiles(_ origin: any HTTPTestOrigin) throws -> [String] {
        if let serve = origin as? ReelServeOrigin {
            return try serve.dataFiles().filter { $0.hasPrefix("streams/") && !$0.hasSuffix("/") }
        }
        return try streamFiles(below: try #require(origin as? NginxOrigin).root)
    }

    /// The regular files below `root`'s `streams/`, relative to `root`, sorted.
    static func streamFiles(below root: URL) throws -> [String] {
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        var files: [String] = []
        while let url = walker?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            files.append(String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)))
        }
        return files.filter { $0.hasPrefix("streams/") }.sorted()
    }

    @Test("after --quality auto (two probes) the origin holds exactly the stream's init, playlist and listed segments",
          arguments: OriginKind.allCases)
    func probeLeavesNothing(_ kind: OriginKind) async throws {
        try await withOrigin(kind, token: "issue12-probe-token") { origin in
            let dir = try TemporaryDirectory()
            defer { dir.cleanup() }
            let result = try ReelBinary.run(["live", "--source", "test:320x240@30"] + origin.liveArguments + [
                "--stream-id", "clean", "--quality", "auto", "--duration", "3", "--no-archive", "--quiet"],
                environment: ["XDG_STATE_HOME": dir.path("state")])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stderr.contains("could not be deleted"), "\(result.stderr)")
            let playlist = String(decoding: try await origin.get("streams/clean/playlist.m3u8").body, as: UTF8.self)
            #expect(playlist.contains("#EXT-X-ENDLIST"), "\(playlist)")
            let listed = playlist.split(separator: "\n").filter { $0.hasPrefix("seg/") }.map { "streams/clean/\($0)" }
            #expect(!listed.isEmpty)
            let expected = (["streams/clean/init.mp4", "streams/clean/playlist.m3u8"] + listed).sorted()
            #expect(try Self.storedFiles(origin) == expected)
            #expect(try await origin.get("streams/clean/seg/000000.m4s").status == 404)
        }
    }

    @Test("--source nope: a usage error that lists the kinds of source and says what is wrong")
    func unknownSource() throws {
        let result = try ReelBinary.run(["live", "--source", "nope"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("reel live: invalid value 'nope' for '--source': expected test[:WxH[@FPS]], file:PATH or "
                                       + "v4l2:/dev/videoN ('nope' is an unknown kind of source)."), "\(result.stderr)")
        #expect(!result.stderr.contains("expected unknown"), "\(result.stderr)")
        let audio = try ReelBinary.run(["live", "--source", "test", "--audio", "pulse:default"])
        #expect(audio.status == 64)
        #expect(audio.stderr.contains("invalid value 'pulse:default' for '--audio': expected alsa:NAME, pulse:NAME or none, with a v4l2 "
                                      + "camera (--audio applies to v4l2 cameras only, not to test)."), "\(audio.stderr)")
    }

    @Test("an archive or an output folder that cannot be made: where, why in words, and what to do")
    func fileErrorsInWords() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir.path("file")))
        let archive = try ReelBinary.run(["live", "--source", "test:320x240@30", "--duration", "1", "--output", dir.path("out"),
                                          "--archive", dir.path("file/a.mp4"), "--quiet"], environment: ["XDG_STATE_HOME": dir.path("state")])
        #expect(archive.status == 1)
        let archiveText = archive.stdout + archive.stderr
        #expect(archiveText.contains("cannot start the archive \(dir.path("file/a.mp4")): "), "\(archiveText)")
        #expect(archiveText.contains("; choose another --archive, or --no-archive"), "\(archiveText)")
        let output = try ReelBinary.run(["live", "--source", "test:320x240@30", "--duration", "1", "--output", dir.path("file/out"),
                                         "--no-archive", "--quiet"], environment: ["XDG_STATE_HOME": dir.path("state")])
        #expect(output.status == 1)
        let outputText = output.stdout + output.stderr
        #expect(outputText.contains("Could not create the folder \(dir.path("file")): a file stands where a folder should be."), "\(outputText)")
        for text in [archiveText, outputText] {
            for leak in ["NSCocoaErrorDomain", "UserInfo", "could not be completed", "Error Domain"] { #expect(!text.contains(leak), "\(text)") }
        }
    }

    @Test("an origin nothing listens on: 'connection refused by 127.0.0.1:PORT' and what to check, nothing started")
    func unreachableOrigin() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let port = try Loopback.freePort()
        for quality in ["medium", "auto"] {
            let result = try ReelBinary.run(["live", "--source", "test", "--origin", "http://127.0.0.1:\(port)/", "--token", "t",
                                             "--quality", quality, "--duration", "2", "--no-archive", "--quiet"],
                                            environment: ["XDG_STATE_HOME": dir.path("state")])
            #expect(result.status == 1)
            let text = result.stdout + result.stderr
            #expect(text.contains("connection refused by 127.0.0.1:\(port)"), "\(text)")
            #expect(text.contains("Check that the origin is running"), "\(text)")
            for leak in ["NSURLErrorDomain", "UserInfo", "could not be completed", "Error Domain"] { #expect(!text.contains(leak), "\(text)") }
        }
    }

    @Test("relative --archive and --output are taken from the working folder (a relative archive used to fail: 'cannot start the archive')")
    func relativePaths() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let reel = try ReelBinary.path()
        let script = "cd '\(dir.url.path)' && exec '\(reel)' live --source test:320x240@10 --output out --stream-id rel --archive rel.mp4 --duration 2 --quiet"
        let result = try Subprocess.run("/bin/sh", ["-c", script], environment: ["XDG_STATE_HOME": dir.path("state")])
        #expect(result.status == 0 && !result.stderr.contains("archive disabled"), "\(result.stdout)\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.path("rel.mp4")) && FileManager.default.fileExists(atPath: dir.path("out/streams/rel/playlist.m3u8")))
    }
}
