// reel-bench-library: Reel Studio's library at scale — how fast `GET /api/sessions` answers and
// how fast the library page first draws its grid, with N sessions in the library
// (bench/studio-library.sh runs it in a release build).
//
//   reel-bench-library [--sessions N] [--requests K] [--runs R]
//
// A temporary library is filled with N sessions (default 1000) spread over the last year:
// titles made from subjects and parts (a few with non-ASCII text, quotes, `&` and `<…>`), 0–3
// of 13 tags, timelapse and full mixed, most with a load report. Every session has its own
// thumbnail file (one 640x360 JPEG made once with ReelMedia, as the recorder makes them, copied
// N times) and points at one real 2 s MP4 (ffmpeg's testsrc). A studio runs in this process on
// loopback with that library, then:
//   1. `GET /api/sessions` over loopback HTTP with `Authorization: Bearer TOKEN`, a plain
//      socket per request (`Connection: close`), timed from connect to the body's last byte:
//      5 warm-up requests, then K (default 50) timed; the answer must hold the N sessions.
//      Also timed: a tag filter and a month (10 each), 20 thumbnails one by one, one video
//      range; and, in this process without HTTP, ReelStore reading every session apart from
//      the JSON encoding of them (where a GET's time goes). These figures are printed first.
//   2. The library page's first render in headless chromium (chromedriver through
//      ReelHarness's WebDriver client): signed in once, then R (default 10) fresh loads of
//      `/#library` (about:blank in between, so each is a new document in a new renderer, as a
//      new tab), each followed by a reload in the same tab. Each reads the page's
//      `performance.mark("reel-library-rendered")` (ms since navigation start), checks that
//      `document.body.dataset.libraryCount` is N, and notes when the frame after the mark was
//      drawn (a script added to every document queues a task from the next animation frame:
//      the grid's style, layout and paint happen after the mark), with the navigation and
//      resource timings on the way.
// Figures go to standard output, progress to standard error; any failed check exits 1.
import BenchTable
import Foundation
import ReelCore
import ReelMedia
import ReelRecord
import ReelStore
import ReelStudio
import ReelHarness
#if canImport(Glibc)
import Glibc
#endif

// MARK: Arguments

var sessionCount = 1000, requestCount = 50, runCount = 10
let usage = "usage: reel-bench-library [--sessions N] [--requests K] [--runs R]   (N, K, R ≥ 1; defaults 1000, 50, 10)\n"
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    let value = arguments.next().flatMap { Int($0) }
    switch (argument, value) {
    case ("--sessions", let n?) where n >= 1: sessionCount = n
    case ("--requests", let n?) where n >= 1: requestCount = n
    case ("--runs", let n?) where n >= 1: runCount = n
    default:
        FileHandle.standardError.write(Data(usage.utf8))
        exit(2)
    }
}

func say(_ line: String) { FileHandle.standardError.write(Data("reel-bench-library: \(line)\n".utf8)) }

/// A failed check: said on standard error, exit status 1.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func ms(_ value: Double) -> String { String(format: "%.1f", value) }
func whole(_ value: Double) -> String { value.isFinite ? String(Int(value)) : "-" }

// MARK: CPU seconds (other load)

/// utime + stime of `/proc/PID/stat` in seconds, and the process group (nil when it is gone).
func processCPU(_ pid: String) -> (seconds: Double, group: Int32)? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = text.lastIndex(of: ")") else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")  // fields[0] is field 3 (state)
    guard fields.count > 12, let group = Int32(fields[2]), let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return ((user + system) / Double(sysconf(Int32(_SC_CLK_TCK))), group)
}

/// CPU seconds the whole machine has spent busy since boot (`/proc/stat`, idle and iowait left out).
func machineCPU() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
          let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) else { return .nan }
    let ticks = line.split(separator: " ").dropFirst().compactMap { Double($0) }
    guard ticks.count >= 8 else { return .nan }
    return (ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6] + ticks[7]) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// CPU seconds of the processes of one process group (chromedriver, chromium and its helpers),
/// each process's last reading kept: chromium ends a page's renderer when the next page opens
/// in a new one, so the group is read before each navigation.
final class GroupCPU {
    let group: Int32
    private var seen: [String: Double] = [:]
    init(group: Int32) { self.group = group }
    func read() {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.filter { $0.allSatisfy(\.isNumber) } ?? []
        for pid in pids { if let cpu = processCPU(pid), cpu.group == group { seen[pid] = cpu.seconds } }
    }
    var seconds: Double { seen.values.reduce(0, +) }
}

/// The rest of the machine's CPU over a window: the machine's, less this process's and `also`.
struct OtherLoad {
    let machine = machineCPU(), own = processCPU("self")?.seconds ?? 0
    func rest(also: Double = 0) -> (other: Double, own: Double) {
        let ownNow = (processCPU("self")?.seconds ?? 0) - own
        return (max(0, machineCPU() - machine - ownNow - also), ownNow)
    }
}

// MARK: The library

/// The sessions' made-up content: subjects with the tag they usually carry, parts, other tags.
enum Content {
    static let subjects: [(title: String, tag: String)] = [
        ("Linear algebra", "math"), ("Calculus II", "math"), ("Statistics", "math"),
        ("Organic chemistry", "chemistry"), ("Physics: electromagnetism", "physics"), ("Mechanics", "physics"),
        ("JLPT N2 kanji", "japanese"), ("漢字の復習", "japanese"), ("English essay", "english"),
        ("Modern history", "history"), ("Swift concurrency", "programming"), ("Algorithms", "programming"),
        ("Microeconomics", "economics"), ("Cell biology", "biology"), ("Reading: Dostoevsky", "reading"),
    ]
    static let parts = ["chapter", "problem set", "past paper", "lecture notes", "flashcards", "mock exam", "review", "exercises"]
    static let extraTags = ["exam", "homework", "review"]
    /// Titles that test a page's escaping: quotes, an ampersand, something that looks like a tag.
    static let odd = ["Q&A prep: \"Kant\" <ethics>", "Proofs — <b>not bold</b> & more", "d'Alembert's principle 'n' \"stuff\""]
    static var tagNames: [String] {
        var names: [String] = []
        for name in subjects.map(\.tag) + extraTags where !names.contains(name) { names.append(name) }
        return names
    }
}

/// The sessions, oldest first: day i·365/N of the last year, each day's sessions a slot apart
/// from 08:00 local time, 20–150 minutes long.
func makeSessions(count: Int, mediaPath: String, thumbnailFolder: String) -> [StudySession] {
    var random = SplitMix64(seed: 0x5EE1_0000 + UInt64(count))
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .current
    let firstDay = calendar.date(byAdding: .day, value: -364, to: calendar.startOfDay(for: Date()))!
    let perDay = Int((Double(count) / 365).rounded(.up))
    let slot = min(3 * 3600.0, 14 * 3600 / Double(perDay))
    let stamp = DateFormatter()
    stamp.locale = Locale(identifier: "en_US_POSIX")
    stamp.dateFormat = "yyyyMMdd-HHmmss"
    var sessions: [StudySession] = []
    var day = -1, indexInDay = 0
    for i in 0..<count {
        let thisDay = i * 365 / count
        if thisDay != day { day = thisDay; indexInDay = 0 } else { indexInDay += 1 }
        let dayStart = calendar.date(byAdding: .day, value: day, to: firstDay)!
        let started = dayStart.addingTimeInterval(8 * 3600 + Double(indexInDay) * slot + Double.random(in: 0..<min(3600, slot / 3), using: &random))
        let wall = Double(Int.random(in: 20 * 60...150 * 60, using: &random))
        let active = (wall * Double.random(in: 0.75...1.0, using: &random)).rounded()
        let timelapse = Double.random(in: 0..<1, using: &random) < 0.65
        let interval: Double? = timelapse ? [2, 5, 5, 5, 10, 30].randomElement(using: &random)! : nil
        let videoSeconds = interval.map { (floor(active / $0) + 1) / 10 } ?? active
        let subject = Content.subjects.randomElement(using: &random)!
        let roll = Double.random(in: 0..<1, using: &random)
        let title: String? = switch roll {
        case ..<0.08: nil
        case ..<0.11: Content.odd.randomElement(using: &random)!
        default: "\(subject.title) — \(Content.parts.randomElement(using: &random)!) \(Int.random(in: 1...14, using: &random))"
        }
        let tagCount = [0, 1, 1, 2, 2, 3].randomElement(using: &random)!
        var tags: [String] = []
        if tagCount > 0 { tags.append(subject.tag) }
        while tags.count < tagCount {
            let extra = (Content.extraTags + Content.tagNames).randomElement(using: &random)!
            if !tags.contains(extra) { tags.append(extra) }
        }
        let load: RecordingLoad? = Double.random(in: 0..<1, using: &random) < 0.7
            ? RecordingLoad(cpuShare: timelapse ? Double.random(in: 0.01...0.05, using: &random) : Double.random(in: 0.25...0.45, using: &random),
                            peakCelsius: Double(Int.random(in: 45...82, using: &random)))
            : nil
        let mode: RecordingMode = timelapse ? .timelapse : .full
        let id = UUID(uuid: withUnsafeBytes(of: (random.next(), random.next())) { bytes in
            var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: bytes) }
            uuid.6 = (uuid.6 & 0x0F) | 0x40
            uuid.8 = (uuid.8 & 0x3F) | 0x80
            return uuid
        })
        let name = "reel-\(stamp.string(from: started))-\(mode.rawValue)-\(i)"
        sessions.append(StudySession(id: id, startedAt: started, endedAt: started.addingTimeInterval(wall), activeSeconds: active,
                                     videoSeconds: videoSeconds, mode: mode, intervalSeconds: interval, filePath: mediaPath,
                                     thumbnailPath: thumbnailFolder + "/" + name + ".jpg", faceTrackPath: nil, title: title, tags: tags,
                                     recovered: Double.random(in: 0..<1, using: &random) < 0.01, load: load))
    }
    return sessions
}

// MARK: A plain HTTP/1.1 client

/// One answer, timed from connect to its body's last byte.
struct Answer {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
    var milliseconds: Double
}

/// `GET path` on 127.0.0.1:`port` with `Connection: close`, one new socket; reads until the
/// body is complete (Content-Length, chunked, or the end of the stream).
func get(_ path: String, port: Int, token: String, headers extra: [(String, String)] = []) throws -> Answer {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw BenchFailure("socket() failed: errno \(errno)") }
    defer { close(fd) }
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\nConnection: close\r\n"
    for (name, value) in extra { request += "\(name): \(value)\r\n" }
    let bytes = Array((request + "\r\n").utf8)

    let start = ContinuousClock.now
    guard Loopback.connect(fd, port: port) == 0 else { throw BenchFailure("connecting to 127.0.0.1:\(port) failed: errno \(errno)") }
    var sent = 0
    while sent < bytes.count {
        let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard n > 0 else { throw BenchFailure("sending GET \(path) failed: errno \(errno)") }
        sent += n
    }
    var received: [UInt8] = []
    received.reserveCapacity(1 << 20)
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var headerEnd: Int?, contentLength: Int?, chunked = false
    var status = 0, headers: [String: String] = [:]
    let chunkedEnd: [UInt8] = Array("\r\n0\r\n\r\n".utf8)
    reading: while true {
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n < 0 {
            if errno == EINTR { continue }
            throw BenchFailure("reading the answer to GET \(path) failed: errno \(errno)\(errno == EAGAIN ? " (no byte for 10 s)" : "")")
        }
        if n == 0 { break }
        received.append(contentsOf: buffer[0..<n])
        if headerEnd == nil, let end = find([13, 10, 13, 10], in: received) {
            headerEnd = end + 4
            let lines = String(decoding: received[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
            status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } } ?? 0
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            contentLength = headers["content-length"].flatMap { Int($0) }
            chunked = headers["transfer-encoding"]?.lowercased().contains("chunked") ?? false
        }
        guard let bodyStart = headerEnd else { continue }
        if let length = contentLength, received.count - bodyStart >= length { break reading }
        if chunked, received.count - bodyStart >= 5, received.suffix(chunkedEnd.count).elementsEqual(chunkedEnd)
            || received.count - bodyStart == 5 && received.suffix(5).elementsEqual(chunkedEnd.suffix(5)) { break reading }
    }
    let elapsed = milliseconds(ContinuousClock.now - start)
    guard let bodyStart = headerEnd else { throw BenchFailure("GET \(path): the answer ended before its headers (\(received.count) bytes)") }
    var body = Array(received[bodyStart...])
    if chunked { body = try unchunk(body, path: path) }
    if let length = contentLength, body.count != length {
        throw BenchFailure("GET \(path): \(body.count) body bytes, Content-Length said \(length)")
    }
    return Answer(status: status, headers: headers, body: body, milliseconds: elapsed)
}

func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] && haystack[i..<i + needle.count].elementsEqual(needle) {
        return i
    }
    return nil
}

func unchunk(_ bytes: [UInt8], path: String) throws -> [UInt8] {
    var body: [UInt8] = [], at = 0
    while true {
        guard let lineEnd = find([13, 10], in: Array(bytes[at...])).map({ $0 + at }),
              let sizeText = String(decoding: bytes[at..<lineEnd], as: UTF8.self).split(separator: ";").first,
              let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
            throw BenchFailure("GET \(path): a chunked body that cannot be read")
        }
        if size == 0 { return body }
        guard lineEnd + 2 + size <= bytes.count else { throw BenchFailure("GET \(path): a chunked body cut short") }
        body += bytes[(lineEnd + 2)..<(lineEnd + 2 + size)]
        at = lineEnd + 2 + size + 2
    }
}

/// The sessions and tags of an `/api/sessions` answer (throws when it is not that shape).
func sessionsAnswer(_ answer: Answer, path: String) throws -> (sessions: [[String: Any]], tags: [Any]) {
    guard answer.status == 200 else {
        throw BenchFailure("GET \(path) answered \(answer.status): \(String(decoding: answer.body.prefix(300), as: UTF8.self))")
    }
    guard let object = try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any],
          let sessions = object["sessions"] as? [[String: Any]], let tags = object["tags"] as? [Any] else {
        throw BenchFailure("GET \(path): not {\"sessions\":[…],\"tags\":[…]}: \(String(decoding: answer.body.prefix(300), as: UTF8.self))")
    }
    return (sessions, tags)
}

// MARK: Setup

let wallStart = ContinuousClock.now
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reel-bench-library-\(UUID().uuidString)").path
let dataFolder = folder + "/data", recordings = folder + "/data/reel/recordings"
try FileManager.default.createDirectory(atPath: recordings, withIntermediateDirectories: true)
// Ctrl-C or a TERM removes the temporary folder too (chromium goes with chromedriver's watchdog).
var stopSignals: [any DispatchSourceSignal] = []
for number in [SIGINT, SIGTERM] {
    signal(number, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
    source.setEventHandler { [folder] in
        try? FileManager.default.removeItem(atPath: folder)
        FileHandle.standardError.write(Data("reel-bench-library: interrupted\n".utf8))
        exit(128 + number)
    }
    source.resume()
    stopSignals.append(source)
}

let exitStatus: Int32
do {
    // One real 2 s MP4 every session points at, and its middle picture as the thumbnail (640x360
    // at quality 3, what the recorder makes), copied once per session.
    let mediaPath = recordings + "/testsrc-2s.mp4"
    let ffmpeg = Process()
    ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
    ffmpeg.arguments = ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=1280x720:rate=10",
                        "-t", "2", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart", mediaPath]
    try ffmpeg.run()  // its errors, if any, go to standard error with the progress lines
    ffmpeg.waitUntilExit()
    guard ffmpeg.terminationStatus == 0 else { throw BenchFailure("ffmpeg could not make the test MP4 (its reason is above)") }
    let jpeg = try Thumbnail.jpeg(ofVideoAt: mediaPath, at: MediaTime(seconds: 1))
    let sessions = makeSessions(count: sessionCount, mediaPath: mediaPath, thumbnailFolder: recordings)
    let fillStart = ContinuousClock.now
    for session in sessions { try jpeg.write(to: URL(fileURLWithPath: session.thumbnailPath!)) }
    let libraryPath = dataFolder + "/reel/library.sqlite"
    do {
        let library = try StudyLibrary(path: libraryPath)
        for name in Content.tagNames { try library.addTag(Tag(name)) }
        for session in sessions {
            var untagged = session
            untagged.tags = []
            guard try library.add(untagged) else { throw BenchFailure("session \(session.id) was already in the library") }
            for name in session.tags { try library.tag(session: session.id, with: name) }
        }
        guard try library.sessionCount() == sessionCount else { throw BenchFailure("the library holds \(try library.sessionCount()) sessions, not \(sessionCount)") }
    }
    let fillSeconds = milliseconds(ContinuousClock.now - fillStart) / 1000
    // Where a GET's time could go, in this process without HTTP: ReelStore reading every
    // session, and the sessions as the API's JSON (10 each, after one of each).
    var readTimes: [Double] = [], encodeTimes: [Double] = []
    do {
        let library = try StudyLibrary(path: libraryPath, create: false)
        let read = try library.sessions()
        _ = try StudySessionJSON.text(read.reversed(), pretty: false)
        for _ in 0..<10 {
            let t0 = ContinuousClock.now
            let all = try library.sessions()
            let t1 = ContinuousClock.now
            _ = try StudySessionJSON.text(all.reversed(), pretty: false)
            readTimes.append(milliseconds(t1 - t0))
            encodeTimes.append(milliseconds(ContinuousClock.now - t1))
        }
        readTimes.sort()
        encodeTimes.sort()
    }
    let timelapses = sessions.filter { $0.mode == .timelapse }.count
    let day = DateFormatter()
    day.locale = Locale(identifier: "en_US_POSIX")
    day.dateFormat = "yyyy-MM-dd"
    say("library filled: \(sessionCount) sessions, \(jpeg.count) B thumbnails, in \(String(format: "%.1f", fillSeconds)) s")

    // The studio, in this process, on loopback.
    var settings = StudioSettings(port: 0, libraryPath: libraryPath)
    settings.version = "bench"
    settings.folders = XDGDirectories(environment: ["XDG_DATA_HOME": dataFolder, "XDG_STATE_HOME": folder + "/state",
                                                    "XDG_CACHE_HOME": folder + "/cache"], accountHome: folder)
    settings.keepAwake = false
    settings.faceTracking = { _ in ({ NoFaceTracker() }, nil) }
    let studio = try StudioServer(settings: settings)
    try studio.start()
    let port = studio.port, token = studio.token.text
    do {
        // 1. GET /api/sessions over loopback.
        say("GET /api/sessions: 5 warm-up, \(requestCount) timed")
        let apiLoad = OtherLoad()
        for _ in 0..<5 { _ = try sessionsAnswer(try get("/api/sessions", port: port, token: token), path: "/api/sessions") }
        var times: [Double] = [], bodyBytes = 0, answeredTags = 0
        for _ in 0..<requestCount {
            let answer = try get("/api/sessions", port: port, token: token)
            let (listed, tags) = try sessionsAnswer(answer, path: "/api/sessions")
            guard listed.count == sessionCount else {
                throw BenchFailure("GET /api/sessions listed \(listed.count) sessions; the library holds \(sessionCount)")
            }
            times.append(answer.milliseconds)
            bodyBytes = answer.body.count
            answeredTags = tags.count
        }
        times.sort()
        // Newest first, and every session's id there.
        let full = try sessionsAnswer(try get("/api/sessions", port: port, token: token), path: "/api/sessions").sessions
        let startedList = full.compactMap { $0["startedAt"] as? String }
        let newestFirst = startedList.count == full.count && zip(startedList, startedList.dropFirst()).allSatisfy { $0 >= $1 }
        let ids = Set(full.compactMap { $0["id"] as? String })
        guard ids == Set(sessions.map { $0.id.uuidString.lowercased() }) else {
            throw BenchFailure("GET /api/sessions: the ids listed are not the library's (\(ids.count) distinct)")
        }
        let keys = Set(full.first?.keys.map { $0 } ?? [])
        let expectedKeys: Set<String> = ["id", "startedAt", "endedAt", "activeSeconds", "videoSeconds", "mode", "intervalSeconds", "filePath",
                                         "thumbnailPath", "faceTrackPath", "title", "tags", "recovered", "load"]
        var notes: [String] = []
        if !newestFirst { notes.append("not newest first") }
        if keys != expectedKeys {
            notes.append("keys differ from reel sessions --json: missing \(expectedKeys.subtracting(keys).sorted()), extra \(keys.subtracting(expectedKeys).sorted())")
        }

        // A tag and a month, timed apart (10 each after one warm-up).
        let tag = "exam", expectedTagged = sessions.filter { $0.tags.contains(tag) }.count
        let monthStart = Calendar.current.date(byAdding: .month, value: -1, to: Calendar.current.startOfDay(for: Date()))!
        let since = day.string(from: monthStart), until = day.string(from: Date())
        let expectedMonth = sessions.filter { day.string(from: $0.startedAt) >= since && day.string(from: $0.startedAt) <= until }.count
        var filtered: [(path: String, count: Int, expected: Int, times: [Double])] = []
        for (path, expected) in [("/api/sessions?tag=\(tag)", expectedTagged), ("/api/sessions?since=\(since)&until=\(until)", expectedMonth)] {
            _ = try get(path, port: port, token: token)
            var filterTimes: [Double] = [], count = 0
            for _ in 0..<10 {
                let answer = try get(path, port: port, token: token)
                count = try sessionsAnswer(answer, path: path).sessions.count
                filterTimes.append(answer.milliseconds)
            }
            filtered.append((path, count, expected, filterTimes.sorted()))
            if count != expected { notes.append("\(path) listed \(count), expected \(expected)") }
        }

        // Thumbnails of 20 sessions (as a page's first screen asks for them), and the start of one video.
        let someID = sessions[sessionCount / 2].id.uuidString.lowercased()
        let thumbnail = try get("/api/sessions/\(someID)/thumbnail", port: port, token: token)
        var thumbnailTimes: [Double] = []
        for session in sessions.suffix(20) {
            let answer = try get("/api/sessions/\(session.id.uuidString.lowercased())/thumbnail", port: port, token: token)
            if answer.status != 200 { notes.append("thumbnail of \(session.id): \(answer.status)") }
            thumbnailTimes.append(answer.milliseconds)
        }
        thumbnailTimes.sort()
        let video = try get("/api/sessions/\(someID)/video", port: port, token: token, headers: [("Range", "bytes=0-1023")])
        if thumbnail.status != 200 || thumbnail.body != Array(jpeg) { notes.append("thumbnail: \(thumbnail.status), \(thumbnail.body.count) B (not the file's bytes)") }
        if video.status != 206 || video.body.count != 1024 { notes.append("video with Range bytes=0-1023: \(video.status), \(video.body.count) B") }

        let kb = Double(bodyBytes) / 1024
        let first = day.string(from: sessions.first!.startedAt), last = day.string(from: sessions.last!.startedAt)
        var lines = [
            "library: \(sessionCount) sessions (\(timelapses) timelapse, \(sessionCount - timelapses) full; \(Content.tagNames.count) tags; \(first) … \(last)), filled in \(String(format: "%.1f", fillSeconds)) s; thumbnails \(String(format: "%.1f", Double(jpeg.count) / 1024)) KB each",
            "GET /api/sessions, connect → last body byte over loopback (Bearer token, a new connection each; \(requestCount) timed after 5 warm-up)",
            "  answer:         \(sessionCount) sessions, \(answeredTags) tags, \(String(format: "%.1f", kb)) KB (\(bodyBytes) B), \(newestFirst ? "newest first" : "NOT newest first")",
            "  ms:             p50 \(ms(percentile(times, 0.5)))  p95 \(ms(percentile(times, 0.95)))  max \(ms(times.last!))  min \(ms(times.first!))",
        ]
        for f in filtered {
            lines.append("  \(f.path): \(f.count) sessions (expected \(f.expected)); ms p50 \(ms(percentile(f.times, 0.5)))  max \(ms(f.times.last!)) (10 timed)")
        }
        lines.append("  thumbnail: \(thumbnail.status) \(thumbnail.headers["content-type"] ?? "-") \(thumbnail.body.count) B; the newest 20 one by one: ms p50 \(ms(percentile(thumbnailTimes, 0.5)))  max \(ms(thumbnailTimes.last!)); "
            + "video Range bytes=0-1023: \(video.status) \(video.headers["content-type"] ?? "-") \(video.body.count) B in \(ms(video.milliseconds)) ms")
        lines.append("  in this process, no HTTP (10 each): StudyLibrary.sessions() p50 \(ms(percentile(readTimes, 0.5))) ms, "
            + "StudySessionJSON.text of all p50 \(ms(percentile(encodeTimes, 0.5))) ms")
        let apiCPU = apiLoad.rest()
        lines.append("  CPU-s over this part: this process (studio and client) \(String(format: "%.1f", apiCPU.own)); other load (the rest of the machine) \(String(format: "%.1f", apiCPU.other))")
        if !notes.isEmpty { lines.append("  notes: " + notes.joined(separator: "; ")) }
        print(lines.joined(separator: "\n"))
        fflush(nil)

        // 2. The library page's first render in chromium.
        say("first render of /#library in headless chromium, \(runCount) fresh loads")
        let base = studio.baseURL.absoluteString, expectedCards = sessionCount
        let pageLoad = OtherLoad()
        let (renders, reloads, chromiumCPU): ([WebDriver.JSON], [WebDriver.JSON], Double) = try await withWebDriver(windowSize: (1280, 800)) { browser in
            // Before every document: note when the frame after the mark was drawn (a task
            // queued from the next animation frame runs once that frame is painted).
            try await browser.command("POST", "/goog/cdp/execute", ["cmd": "Page.addScriptToEvaluateOnNewDocument", "params": ["source": """
                (() => {
                  const mark = performance.mark.bind(performance);
                  performance.mark = function (name, options) {
                    const entry = mark(name, options);
                    if (name === 'reel-library-rendered' && window.__reelPainted === undefined) {
                      window.__reelPainted = null;
                      requestAnimationFrame(() => setTimeout(() => { window.__reelPainted = performance.now(); }, 0));
                    }
                    return entry;
                  };
                })();
                """]], what: "add a script to every new document")
            try await browser.navigate(to: studio.signInURL)
            /// The current document's figures once its mark is there and the frame after it drawn.
            func measure(_ run: Int, _ how: String) async throws -> WebDriver.JSON {
                let value: WebDriver.JSON
                do {
                    value = try await browser.waitUntil(script: """
                        const mark = performance.getEntriesByName('reel-library-rendered')[0];
                        if (!mark || typeof window.__reelPainted !== 'number') return null;
                        const nav = performance.getEntriesByType('navigation')[0];
                        const resources = performance.getEntriesByType('resource');
                        const api = resources.find((e) => new URL(e.name).pathname === '/api/sessions');
                        return { rendered: mark.startTime, count: document.body.dataset.libraryCount ?? null,
                                 responseEnd: nav ? nav.responseEnd : -1, domContentLoaded: nav ? nav.domContentLoadedEventEnd : -1,
                                 load: nav ? nav.loadEventEnd : -1, navigation: nav ? nav.type : null,
                                 apiStart: api ? api.startTime : -1, apiEnd: api ? api.responseEnd : -1,
                                 thumbnails: resources.filter((e) => e.name.includes('/thumbnail')).length,
                                 images: document.images.length, painted: window.__reelPainted,
                                 requests: resources.filter((e) => !e.name.includes('/thumbnail') && e.startTime <= mark.startTime)
                                   .map((e) => [new URL(e.name).pathname, e.startTime, e.responseEnd]) };
                        """, timeout: .seconds(10))
                } catch {
                    throw BenchFailure("run \(run) (\(how)): no performance mark 'reel-library-rendered' within 10 s of loading \(base)#library (\(error))")
                }
                let count = value["count"]?.string.flatMap { Int($0) }
                guard count == expectedCards else {
                    throw BenchFailure("run \(run) (\(how)): document.body.dataset.libraryCount is \(value["count"]?.description ?? "missing"), not \(expectedCards)")
                }
                say("run \(run), \(how): rendered at \(ms(value["rendered"]?.number ?? .nan)) ms, next frame drawn at \(ms(value["painted"]?.number ?? .nan)) ms")
                return value
            }
            var fresh: [WebDriver.JSON] = [], reloaded: [WebDriver.JSON] = []
            let chromium = GroupCPU(group: browser.driverProcessID)
            for run in 1...runCount {
                chromium.read()
                try await browser.navigate(to: "about:blank")
                try await browser.navigate(to: base + "#library")
                fresh.append(try await measure(run, "from about:blank"))
                try await browser.command("POST", "/refresh", what: "refresh")
                reloaded.append(try await measure(run, "reloaded"))
            }
            chromium.read()
            return (fresh, reloaded, chromium.seconds)
        }
        let pageCPU = pageLoad.rest(also: chromiumCPU)
        await studio.stop()

        func figures(_ key: String) -> [Double] { renders.compactMap { $0[key]?.number }.filter { $0 >= 0 }.sorted() }
        let rendered = renders.compactMap { $0["rendered"]?.number }
        let sortedRendered = rendered.sorted()
        // Each request made before the mark: p50 start → end over the runs, in order of start.
        var requestTimes: [String: (starts: [Double], ends: [Double])] = [:]
        for render in renders {
            for request in render["requests"]?.array ?? [] {
                guard let path = request[0]?.string, let start = request[1]?.number, let end = request[2]?.number else { continue }
                requestTimes[path, default: ([], [])].starts.append(start)
                requestTimes[path, default: ([], [])].ends.append(end)
            }
        }
        let waterfall = requestTimes.map { (path: $0.key, start: percentile($0.value.starts.sorted(), 0.5), end: percentile($0.value.ends.sorted(), 0.5)) }
            .sorted { $0.start < $1.start }
            .map { "\($0.path) \(ms($0.start))→\(ms($0.end))" }
        let painted = figures("painted")
        let reloadRendered = reloads.compactMap { $0["rendered"]?.number }.sorted()
        let reloadPainted = reloads.compactMap { $0["painted"]?.number }.sorted()
        let reloadAPI = reloads.compactMap { $0["apiEnd"]?.number }.sorted()
        let reloadDCL = reloads.compactMap { $0["domContentLoaded"]?.number }.sorted()
        lines = [
            "first render of /#library in headless chromium (1280x800 window, \(runCount) fresh loads, \(sessionCount) cards each)",
            "  ms since navigation start to the mark 'reel-library-rendered': p50 \(ms(percentile(sortedRendered, 0.5)))  max \(ms(sortedRendered.last!))  min \(ms(sortedRendered.first!))",
            "  each run:       \(rendered.map(ms).joined(separator: " "))",
            "  the frame after the mark drawn: p50 \(ms(percentile(painted, 0.5)))  max \(ms(painted.last ?? .nan))",
            "  on the way (p50): page response end \(ms(percentile(figures("responseEnd"), 0.5))), DOMContentLoaded \(ms(percentile(figures("domContentLoaded"), 0.5))), "
                + "/api/sessions fetched \(ms(percentile(figures("apiStart"), 0.5))) → \(ms(percentile(figures("apiEnd"), 0.5))), load event \(ms(percentile(figures("load"), 0.5)))",
            "  requests before the mark (p50 start→end ms): " + waterfall.joined(separator: ", "),
            "  reloaded in the same tab (\(runCount), one after each): mark p50 \(ms(percentile(reloadRendered, 0.5)))  max \(ms(reloadRendered.last ?? .nan)); "
                + "frame after it drawn p50 \(ms(percentile(reloadPainted, 0.5))); DOMContentLoaded \(ms(percentile(reloadDCL, 0.5))), /api/sessions received \(ms(percentile(reloadAPI, 0.5)))",
            "  images in the page: \(whole(percentile(figures("images"), 0.5))); thumbnails loaded when read: \(whole(percentile(figures("thumbnails"), 0.5))) (p50; lazy)",
        ]
        lines.append("  CPU-s over this part: this process \(String(format: "%.1f", pageCPU.own)), chromium and chromedriver \(String(format: "%.1f", chromiumCPU)); other load \(String(format: "%.1f", pageCPU.other))")
        lines.append("  (this run: \(String(format: "%.0f", milliseconds(ContinuousClock.now - wallStart) / 1000)) s in all)")
        print(lines.joined(separator: "\n"))
        exitStatus = 0
    } catch {
        await studio.stop()
        throw error
    }
} catch {
    say("error: \(error)")
    exitStatus = 1
}
try? FileManager.default.removeItem(atPath: folder)
exit(exitStatus)
