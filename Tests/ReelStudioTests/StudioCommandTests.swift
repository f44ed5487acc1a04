import Foundation
import ReelTestSupport
import Testing

/// `reel studio` through the binary: what it prints, the API it serves, a clean stop on
/// SIGINT and SIGTERM, and the mistakes a user makes.
@Suite("reel studio command", .serialized)
struct StudioCommandTests {
    @Test("it prints a sign-in link and the token, serves the API to that token, and stops cleanly on SIGINT and SIGTERM", arguments: [SIGINT, SIGTERM])
    func startServeStop(signal: Int32) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let studio = try LineWatchedProcess(try ReelBinary.path(), ["studio", "--port", "0", "--library", folder.path("lib.sqlite"),
                                                                    "--access-log", "none", "--source", "test"])
        let line = try #require(await studio.waitForLine(timeout: .seconds(20)) { $0.contains("api:") }, "the address is printed")
        let address = try #require(studio.linesSoFar.first { $0.contains("open:") }?.split(separator: " ").last.map(String.init))
        let token = try #require(line.split(separator: " ").last.map { String($0.dropLast()) })
        let base = String(address.prefix { $0 != "?" })
        #expect(base.hasPrefix("http://127.0.0.1:") && token.count == 64 && address.contains("?code=") && !address.contains(token))
        let status = try curl(["-H", "Authorization: Bearer \(token)", base + "api/status"])
        #expect(status.status == 200 && status.text.contains("\"source\":\"test\""))
        #expect(try curl([base + "api/status"]).status == 401)
        studio.send(signal)
        let ended = await studio.wait(timeout: .seconds(10))
        #expect(!ended.timedOut && ended.status == 0, "exit \(ended.status): \(ended.stderr)")
        #expect(ended.stderr.contains("reel studio: stopped"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("lib.sqlite")), "the studio alone creates no library")
    }

    @Test("SIGTERM while recording: the recording is finished as stop would, into the library, before the studio exits")
    func signalFinishesTheRecording() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let library = folder.path("lib.sqlite")
        let studio = try LineWatchedProcess(try ReelBinary.path(), ["studio", "--port", "0", "--library", library, "--access-log", "none",
                                                                    "--source", "test:320x180@15"],
                                            environment: ["HOME": folder.url.path, "XDG_DATA_HOME": folder.path("data"),
                                                          "XDG_STATE_HOME": folder.path("state")])
        let line = try #require(await studio.waitForLine(timeout: .seconds(20)) { $0.contains("api:") })
        let token = try #require(line.split(separator: " ").last.map { String($0.dropLast()) })
        let base = try #require(line.split(separator: " ").first { $0.hasPrefix("http://") }.map { $0.components(separatedBy: "api/")[0] })
        let auth = ["-H", "Authorization: Bearer \(token)", "-H", "Origin: \(base.dropLast())"]
        let started = try curl(auth + ["-X", "POST", "--data", #"{"mode":"timelapse","interval":0.5,"canvas":"1280x720","title":"Late"}"#,
                                       base + "api/recording/start"])
        #expect(started.status == 202, "\(started.text)")
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline, !(try curl(auth + [base + "api/recording"]).text.contains("\"framesWritten\":2")) {
            try await Task.sleep(for: .milliseconds(200))
        }
        studio.send(SIGTERM)
        let ended = await studio.wait(timeout: .seconds(30))
        #expect(!ended.timedOut && ended.status == 0, "exit \(ended.status): \(ended.stderr)")
        #expect(ended.stderr.contains("finishing the recording first"), "\(ended.stderr)")
        let sessions = try ReelBinary.run(["sessions", "--library", library])
        #expect(sessions.stdout.contains("Late"), "\(sessions.stdout)\(sessions.stderr)")
    }

    @Test("--open without xdg-open: a note saying what to install, and the studio serves anyway")
    func openWithoutOpener() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let studio = try LineWatchedProcess(try ReelBinary.path(), ["studio", "--port", "0", "--open", "--library", folder.path("lib.sqlite"),
                                                                    "--access-log", "none"], environment: ["PATH": folder.path("empty")])
        let line = try #require(await studio.waitForLine(timeout: .seconds(20)) { $0.contains("open:") })
        let base = String(line.split(separator: " ").last!.prefix { $0 != "?" })
        #expect(try curl([base + "api/status"]).status == 401, "serving")
        studio.send(SIGINT)
        let ended = await studio.wait(timeout: .seconds(10))
        #expect(ended.status == 0 && ended.stderr.contains("xdg-open (Debian package xdg-utils)"), "\(ended.stderr)")
    }

    @Test("another address without --remote, a bad source or port: exit 64 with what to do, nothing served")
    func mistakes() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let library = ["--library", folder.path("lib.sqlite"), "--access-log", "none"]
        let remote = try ReelBinary.run(["studio", "--host", "0.0.0.0", "--port", "0"] + library)
        #expect(remote.status == 64 && remote.stderr.contains("--remote"), "\(remote.stderr)")
        let source = try ReelBinary.run(["studio", "--source", "webcam", "--port", "0"] + library)
        #expect(source.status == 64 && source.stderr.contains("--source"), "\(source.stderr)")
        let port = try ReelBinary.run(["studio", "--port", "70000"] + library)
        #expect(port.status == 64 && port.stderr.contains("--port"), "\(port.stderr)")
    }
}
