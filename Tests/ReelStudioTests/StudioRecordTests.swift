import Foundation
import ReelCore
import ReelMedia
import ReelStore
import ReelStudio
import ReelTestSupport
import Testing

/// The record API of the studio through curl on loopback: a timelapse from the test source
/// paused, resumed and stopped into the library, the live preview (recording and idle), the
/// refusals, two observers of one recording, and a stop of the studio mid-recording.
///
/// Nothing here waits for a time as an assertion: each step polls `/api/recording` (or the
/// camera, or an event stream) until a state or a count is reached, within a generous bound.
@Suite("Studio recording", .serialized)
struct StudioRecordTests {
    /// A small source and canvas, to keep the CPU low on a slow machine.
    static let source = "test:320x180@15"
    static let timelapse = #"{"source":"test:320x180@15","mode":"timelapse","interval":0.5,"canvas":"1280x720","faces":false}"#

    @Test("a timelapse from the test source: recording, paused (active time stops, wall time goes on), resumed, stopped into the library")
    func timelapseLifecycle() async throws {
        try await withStudio { studio in
            let body = #"{"source":"test:320x180@15","mode":"timelapse","interval":0.5,"title":"Chemistry","tags":["exam","ch3"],"#
                + #""canvas":"1280x720","faces":false}"#
            let started = try studio.post("/api/recording/start", json: body)
            #expect(started.status == 202, "\(started.text)")
            let first = try JSONDecoder().decode(RecordingSnapshot.self, from: started.body)
            #expect([.starting, .recording].contains(first.state))
            #expect(first.mode == "timelapse" && first.intervalSeconds == 0.5 && first.title == "Chemistry" && first.tags == ["exam", "ch3"])
            #expect(first.width == 1280 && first.height == 720 && first.source == Self.source)
            let id = try #require(first.id)

            let recording = try await studio.waitForRecording("state recording with a frame written") { $0.state == .recording && $0.framesWritten >= 1 }
            #expect(recording.id == id)
            let grown = try await studio.waitForRecording("framesWritten growing past \(recording.framesWritten)") {
                $0.framesWritten > recording.framesWritten
            }
            #expect(grown.state == .recording && grown.fileBytes > 0)
            #expect((grown.freeBytes ?? 0) > 0 && (grown.hoursLeft ?? 0) > 0, "the disk estimate is there")

            let paused = try studio.post("/api/recording/pause")
            #expect(paused.status == 200, "\(paused.text)")
            let pausedAt = try await studio.waitForRecording("state paused") { $0.state == .paused }
            // Two readings at least 1.5 s of wall time apart, both while paused: the active time
            // must not move.
            let later = try await studio.waitForRecording("wall time 1.5 s past \(pausedAt.wallSeconds) while paused") {
                $0.wallSeconds >= pausedAt.wallSeconds + 1.5
            }
            #expect(later.state == .paused)
            #expect(later.activeSeconds == pausedAt.activeSeconds,
                    "active time moved while paused: \(pausedAt.activeSeconds) → \(later.activeSeconds) (wall \(pausedAt.wallSeconds) → \(later.wallSeconds))")

            let resumed = try studio.post("/api/recording/resume")
            #expect(resumed.status == 200, "\(resumed.text)")
            _ = try await studio.waitForRecording("state recording again, active time past \(later.activeSeconds)") {
                $0.state == .recording && $0.activeSeconds > later.activeSeconds
            }

            let stopped = try studio.post("/api/recording/stop")
            #expect(stopped.status == 200, "\(stopped.text)")
            let finished = try await studio.waitForRecording("state finished") { !$0.isActive }
            #expect(finished.state == .finished, "\(finished)")
            #expect(finished.error == nil && finished.sessionRegistered == true)
            let output = try #require(finished.outputPath)
            #expect(FileManager.default.fileExists(atPath: output))
            try expectPlayableH264(output, width: 1280, height: 720)

            let library = try StudyLibrary(path: studio.server.settings.libraryPath, create: false)
            #expect(try library.sessionCount() == 1)
            let session = try #require(try library.sessions().first)
            #expect(session.id.uuidString.lowercased() == id)
            #expect(session.title == "Chemistry" && session.tags == ["exam", "ch3"] && session.mode == .timelapse)
            #expect(session.filePath == output)
            #expect(try studio.post("/api/recording/stop").status == 409, "nothing runs any more")
        }
    }

    @Test("the preview during a recording: whole JPEG parts, each a new picture; closing it leaves the recording running")
    func previewWhileRecording() async throws {
        try await withStudio { studio in
            let started = try studio.post("/api/recording/start", json: Self.timelapse)
            #expect(started.status == 202, "\(started.text)")
            let recording = try await studio.waitForRecording("state recording") { $0.state == .recording }

            let preview = try studio.readPreview(seconds: 2)
            #expect(preview.exitStatus == 28, "curl ends the endless stream at --max-time: \(preview.stderr)")
            #expect(preview.contentType == "multipart/x-mixed-replace; boundary=reel-preview-frame")
            #expect(preview.parts.count >= 5, "\(preview.parts.count) pictures in 2 s")
            for part in preview.parts {
                #expect(part.contentType == "image/jpeg")
                #expect(part.isJPEG, "a part is not a whole JPEG (\(part.body.count) bytes)")
            }
            #expect(zip(preview.parts, preview.parts.dropFirst()).allSatisfy { $0.body != $1.body }, "each part is a new picture")

            // The stream is gone once the server noticed; the recording is not.
            _ = try await studio.waitForCamera("no preview watcher") { $0.watchers == 0 }
            let after = try studio.recording()
            #expect(after.state == .recording && after.id == recording.id)
            let grown = try await studio.waitForRecording("frames still written after the preview closed") {
                $0.framesWritten > after.framesWritten
            }
            #expect(grown.state == .recording)
        }
    }

    @Test("the idle preview: a chosen source previews while someone watches, and /api/preview.jpg has its newest picture")
    func idlePreview() async throws {
        try await withStudio { studio in
            let sources = try studio.get("/api/sources")
            #expect(sources.status == 200)
            let list = try #require(try JSONSerialization.jsonObject(with: sources.body) as? [String: Any])
            #expect(list["cameras"] is [Any] && list["test"] as? String == "test" && list["file"] as? String == "file:/PATH")

            #expect(try studio.get("/api/preview.jpg").status == 404, "no picture before any preview")
            let chosen = try studio.post("/api/source", json: #"{"source":"test:320x180@15"}"#)
            #expect(chosen.status == 200, "\(chosen.text)")
            #expect(try studio.camera().source == Self.source)
            let listed = try JSONSerialization.jsonObject(with: try studio.get("/api/sources").body) as? [String: Any]
            #expect(listed?["chosen"] as? String == Self.source)

            let preview = try studio.readPreview(seconds: 3)
            #expect(preview.exitStatus == 28, "\(preview.stderr)")
            #expect(preview.parts.count >= 1, "pictures came from the idle preview")
            #expect(preview.parts.allSatisfy { $0.isJPEG && $0.contentType == "image/jpeg" })
            #expect(zip(preview.parts, preview.parts.dropFirst()).allSatisfy { $0.body != $1.body }, "each part is a new picture")

            let picture = try studio.get("/api/preview.jpg")
            #expect(picture.status == 200 && picture.headers["content-type"] == "image/jpeg")
            #expect(Array(picture.body.prefix(2)) == [0xFF, 0xD8] && Array(picture.body.suffix(2)) == [0xFF, 0xD9])
            #expect(Int(picture.headers["x-reel-sequence"] ?? "") ?? 0 >= preview.parts.count, "numbered across the feed's life")

            // With no watcher left, the idle preview closes the source; nothing was recorded.
            let idle = try await studio.waitForCamera("the idle preview ending without a watcher") { $0.watchers == 0 && !$0.previewing }
            #expect(idle.source == Self.source)
            #expect(try studio.recording().state == .idle)
        }
    }

    @Test("refusals, each with its status and nothing changed")
    func refusals() async throws {
        try await withStudio { studio in
            let start = studio.base + "/api/recording/start"
            let json = ["-H", "Content-Type: application/json", "--data-binary", Self.timelapse]
            let noOrigin = try curl(["-X", "POST", "-H", "Authorization: Bearer \(studio.token)", "-H", "Origin: http://127.0.0.1:8777"] + json + [start])
            #expect(noOrigin.status == 403, "another page's Origin, even with the token: \(noOrigin.text)")
            let noAuth = try curl(["-X", "POST", "-H", "Origin: \(studio.base)"] + json + [start])
            #expect(noAuth.status == 401, "\(noAuth.text)")
            #expect(try studio.recording().state == .idle)

            for action in ["pause", "resume", "toggle", "stop"] {
                let control = try studio.post("/api/recording/" + action)
                #expect(control.status == 409 && control.text.contains("no recording"), "\(action): \(control.status) \(control.text)")
            }

            let bad: [(body: String?, names: String)] = [
                (#"{"source":"test:320x180@15","mode":"slow"}"#, "mode"),
                (#"{"source":"test:320x180@15","mode":"full","interval":2}"#, "interval"),
                (#"{"source":"test:320x180@15","mode":"timelapse","interval":0}"#, "interval"),
                (#"{"source":"test:320x180@15","mode":"timelapse","canvas":"640x480"}"#, "canvas"),
                (#"{"source":"test:320x180@15","mode":"timelapse","title":"two\nlines"}"#, "title"),
                (#"{"source":"test:320x180@15","mode":"timelapse","tags":"exam"}"#, "tags"),
                (#"{"source":"test:320x180@15"}"#, "mode"),
                (#"{"source":"nonsense:x","mode":"timelapse"}"#, "source"),
                (#"{"source":"test:320x180@15","mode":"timelapse""#, "JSON"),
                (nil, "JSON body"),
            ]
            for (body, names) in bad {
                let answer = try studio.post("/api/recording/start", json: body)
                #expect(answer.status == 400 && answer.text.contains(names), "\(body ?? "no body"): \(answer.status) \(answer.text)")
            }
            #expect(try studio.recording().state == .idle, "no refused start began a recording")

            for (source, names) in [("nonsense:x", "source"), ("file:relative.mp4", "absolute"), ("file:/nonexistent/reel-test.mp4", "does not exist")] {
                let answer = try studio.post("/api/source", json: #"{"source":"\#(source)"}"#)
                #expect(answer.status == 400 && answer.text.contains(names), "\(source): \(answer.status) \(answer.text)")
            }
            #expect(try studio.camera().source == nil, "no refused choice was taken")

            let wrongMethod = try studio.get("/api/recording/start")
            #expect(wrongMethod.status == 405 && wrongMethod.headers["allow"] == "POST")
            #expect(try studio.get("/api/source").status == 405)
            #expect(try studio.get("/api/recording/pause").status == 405)

            let folder = try TemporaryDirectory()
            defer { folder.cleanup() }
            let big = folder.path("big.json")
            try Data(repeating: 0x20, count: 64 * 1024 + 1).write(to: URL(fileURLWithPath: big))
            let tooLarge = try curl(["-X", "POST", "-H", "Origin: \(studio.base)", "-H", "Authorization: Bearer \(studio.token)",
                                     "-H", "Content-Type: application/json", "--data-binary", "@" + big, start])
            #expect(tooLarge.status == 413, "\(tooLarge.text)")
            #expect(try studio.recording().state == .idle)

            // While one runs: a second start, and choosing a source, are 409.
            let started = try studio.post("/api/recording/start", json: Self.timelapse)
            #expect(started.status == 202, "\(started.text)")
            let running = try await studio.waitForRecording("state recording") { $0.state == .recording }
            let second = try studio.post("/api/recording/start", json: Self.timelapse)
            #expect(second.status == 409 && second.text.contains("a recording is running"), "\(second.text)")
            let choose = try studio.post("/api/source", json: #"{"source":"test"}"#)
            #expect(choose.status == 409, "\(choose.text)")
            #expect(try studio.camera().source == Self.source, "the source stayed")
            let still = try studio.recording()
            #expect(still.state == .recording && still.id == running.id, "the same recording runs")
            let library = try StudyLibrary(path: studio.server.settings.libraryPath, create: true)
            #expect(try library.sessionCount() == 0)
        }
    }

    @Test("two observers on /api/events both see the recording paused")
    func twoObservers() async throws {
        try await withStudio { studio in
            let auth = ["Authorization: Bearer \(studio.token)"]
            let first = try EventStreamReader(url: studio.base + "/api/events", headers: auth)
            defer { first.stop() }
            let cookie = try studio.signIn()
            let second = try EventStreamReader(url: studio.base + "/api/events", headers: ["Cookie: \(cookie)"])
            defer { second.stop() }
            #expect(await first.waitForEvents(named: "status", count: 1, timeout: .seconds(10)) != nil)
            #expect(await second.waitForEvents(named: "status", count: 1, timeout: .seconds(10)) != nil)

            let started = try studio.post("/api/recording/start", json: Self.timelapse)
            #expect(started.status == 202, "\(started.text)")
            let recording = try await studio.waitForRecording("state recording") { $0.state == .recording }
            #expect(try studio.post("/api/recording/toggle").status == 200)

            for (name, stream) in [("first", first), ("second", second)] {
                let paused = try await eventually("a paused recording event on the \(name) stream", within: 20) {
                    stream.events(named: "recording").compactMap { try? JSONDecoder().decode(RecordingSnapshot.self, from: Data($0.utf8)) }
                        .first { $0.state == .paused }
                }
                #expect(paused.id == recording.id)
                // Published in the order they were made: each newer than the last.
                let revisions = stream.events(named: "recording")
                    .compactMap { try? JSONDecoder().decode(RecordingSnapshot.self, from: Data($0.utf8)).revision }
                #expect(zip(revisions, revisions.dropFirst()).allSatisfy { $0 < $1 }, "\(revisions)")
            }
            #expect(try studio.recording().state == .paused)
        }
    }

    @Test("stopping the studio while recording finishes the recording into the library")
    func stopStudioWhileRecording() async throws {
        try await withStudio { studio in
            let body = #"{"source":"test:320x180@15","mode":"timelapse","interval":0.5,"title":"Physics","canvas":"1280x720","faces":false}"#
            let started = try studio.post("/api/recording/start", json: body)
            #expect(started.status == 202, "\(started.text)")
            _ = try await studio.waitForRecording("a frame written") { $0.state == .recording && $0.framesWritten >= 2 }
            #expect(studio.server.isRecording)

            await studio.server.stop()
            #expect(!studio.server.isRecording)
            let library = try StudyLibrary(path: studio.server.settings.libraryPath, create: false)
            #expect(try library.sessionCount() == 1)
            let session = try #require(try library.sessions().first)
            #expect(session.title == "Physics")
            #expect(FileManager.default.fileExists(atPath: session.filePath))
            try expectPlayableH264(session.filePath, width: 1280, height: 720)
        }
    }

    @Test("a source that delivers nothing: the preview ends after the wait instead of holding its connection, and counts no watcher")
    func silentSourceEndsThePreview() async throws {
        let silent = SilentSource()
        try await withStudio(configure: { settings in
            settings.previewResend = 1
            settings.openSource = { _ in silent }
        }) { studio in
            #expect(try studio.post("/api/source", json: #"{"source":"test"}"#).status == 200)
            let started = ContinuousClock.now
            let preview = try studio.readPreview(seconds: 15)
            #expect(preview.exitStatus == 0, "the stream ended by itself, before curl's limit: \(preview.stderr)")
            #expect(ContinuousClock.now - started < .seconds(10))
            #expect(preview.parts.isEmpty)
            _ = try await studio.waitForCamera("no watcher left") { $0.watchers == 0 }
        }
    }
}

/// A source that opens and never delivers a frame until stopped.
private final class SilentSource: CaptureSource, @unchecked Sendable {
    private let stopped = DispatchSemaphore(value: 0)
    var format: CaptureFormat { CaptureFormat(width: 320, height: 180, framesPerSecond: 15, audio: nil) }
    var name: String { "silent" }
    func stop() { stopped.signal() }
    func run(_ deliver: (CaptureSample) throws -> Void) throws {
        stopped.wait()
        stopped.signal()
    }
}

// MARK: - Helpers

/// The recording's state did not reach what a test waited for.
private struct NotReached: Error, CustomStringConvertible {
    var description: String
}

fileprivate extension TestStudio {
    var auth: [String] { ["-H", "Authorization: Bearer \(token)"] }

    func get(_ path: String) throws -> CurlResponse {
        try curl(auth + [base + path])
    }

    /// A POST with the studio's Origin and the token; `json` as the body (none when nil).
    func post(_ path: String, json: String? = nil) throws -> CurlResponse {
        var arguments = ["-X", "POST", "-H", "Origin: \(base)"] + auth
        if let json { arguments += ["-H", "Content-Type: application/json", "--data-binary", json] }
        return try curl(arguments + [base + path])
    }

    func recording() throws -> RecordingSnapshot {
        let answer = try get("/api/recording")
        guard answer.status == 200 else { throw NotReached(description: "GET /api/recording: \(answer.status) \(answer.text)") }
        return try JSONDecoder().decode(RecordingSnapshot.self, from: answer.body)
    }

    func camera() throws -> CameraState {
        let answer = try get("/api/camera")
        guard answer.status == 200 else { throw NotReached(description: "GET /api/camera: \(answer.status) \(answer.text)") }
        return try JSONDecoder().decode(CameraState.self, from: answer.body)
    }

    /// Polls `/api/recording` until `predicate` holds, for at most `seconds`; fails naming
    /// `what` and the last snapshot otherwise.
    func waitForRecording(_ what: String, within seconds: Double = 20,
                          where predicate: (RecordingSnapshot) -> Bool) async throws -> RecordingSnapshot {
        let deadline = Date().addingTimeInterval(seconds)
        var last: RecordingSnapshot?
        repeat {
            let snapshot = try recording()
            if predicate(snapshot) { return snapshot }
            last = snapshot
            try await Task.sleep(for: .milliseconds(150))
        } while Date() < deadline
        throw NotReached(description: "\(what): not reached in \(seconds) s; last /api/recording: \(last.map { String(describing: $0) } ?? "none")")
    }

    /// Polls `/api/camera` until `predicate` holds.
    func waitForCamera(_ what: String, within seconds: Double = 20, where predicate: (CameraState) -> Bool) async throws -> CameraState {
        let deadline = Date().addingTimeInterval(seconds)
        var last: CameraState?
        repeat {
            let camera = try camera()
            if predicate(camera) { return camera }
            last = camera
            try await Task.sleep(for: .milliseconds(150))
        } while Date() < deadline
        throw NotReached(description: "\(what): not reached in \(seconds) s; last /api/camera: \(last.map { String(describing: $0) } ?? "none")")
    }

    /// `GET /api/preview` read by curl for `seconds` (it never ends by itself), its parts parsed.
    func readPreview(seconds: Int) throws -> PreviewCapture {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let headers = folder.path("headers"), body = folder.path("body")
        let run = try Subprocess.run("/usr/bin/curl", ["-s", "-S", "-N", "--max-time", "\(seconds)", "-D", headers, "-o", body] + auth
            + [base + "/api/preview"])
        let headerText = (try? String(contentsOfFile: headers, encoding: .utf8)) ?? ""
        let contentType = headerText.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("content-type:") }
            .map { String($0.dropFirst("content-type:".count)).trimmingCharacters(in: .whitespaces) }
        let bytes = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: body))) ?? Data())
        return PreviewCapture(exitStatus: run.status, stderr: run.stderr, contentType: contentType, parts: PreviewCapture.parts(of: bytes))
    }
}

/// `GET /api/camera`.
private struct CameraState: Decodable, CustomStringConvertible {
    var source: String?
    var previewing: Bool
    var problem: String?
    var watchers: Int

    var description: String { "source \(source ?? "none"), previewing \(previewing), problem \(problem ?? "none"), watchers \(watchers)" }
}

/// What curl read of a preview stream.
private struct PreviewCapture {
    struct Part {
        var contentType: String?
        var body: ArraySlice<UInt8>

        /// Starts with SOI and ends with EOI.
        var isJPEG: Bool { body.count > 4 && body.prefix(2).elementsEqual([0xFF, 0xD8]) && body.suffix(2).elementsEqual([0xFF, 0xD9]) }
    }

    var exitStatus: Int32
    var stderr: String
    var contentType: String?
    var parts: [Part]

    /// The complete parts of a `multipart/x-mixed-replace; boundary=reel-preview-frame` body:
    /// each runs from its headers to the next boundary (the studio sends a part's end with the
    /// next part's boundary and headers, so parts carry no Content-Length); the last one, cut by
    /// curl's timeout, is left out.
    static func parts(of bytes: [UInt8]) -> [Part] {
        let delimiter = Array("--reel-preview-frame\r\n".utf8), headEnd: [UInt8] = [13, 10, 13, 10]
        let next = Array("\r\n--reel-preview-frame\r\n".utf8)
        var parts: [Part] = []
        var index = 0
        while let start = find(delimiter, in: bytes, from: index) {
            let headStart = start + delimiter.count
            guard let end = find(headEnd, in: bytes, from: headStart) else { break }
            var headers: [String: String] = [:]
            for line in String(decoding: bytes[headStart..<end], as: UTF8.self).components(separatedBy: "\r\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            let bodyStart = end + headEnd.count
            guard let bodyEnd = find(next, in: bytes, from: bodyStart) else { break }
            parts.append(Part(contentType: headers["content-type"], body: bytes[bodyStart..<bodyEnd]))
            index = bodyEnd + 2
        }
        return parts
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count, start <= haystack.count - needle.count else { return nil }
        var position = start
        while position <= haystack.count - needle.count {
            if haystack[position] == needle[0], haystack[position..<position + needle.count].elementsEqual(needle) { return position }
            position += 1
        }
        return nil
    }
}

/// ffprobe reads `path` as one H.264 video stream of `width` x `height`.
private func expectPlayableH264(_ path: String, width: Int, height: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
    struct Probe: Decodable {
        struct Stream: Decodable {
            var codec_name: String?
            var width: Int?
            var height: Int?
        }
        var streams: [Stream]
    }
    let probe = try Subprocess.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "json", path])
    #expect(probe.status == 0 && probe.stderr.isEmpty, "ffprobe: \(probe.stderr)", sourceLocation: sourceLocation)
    let streams = try JSONDecoder().decode(Probe.self, from: Data(probe.stdout.utf8)).streams
    let video = streams.first { $0.width != nil }
    #expect(video?.codec_name == "h264" && video?.width == width && video?.height == height, "ffprobe: \(probe.stdout)",
            sourceLocation: sourceLocation)
}
