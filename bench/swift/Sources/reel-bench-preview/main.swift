// reel-bench-preview: the studio's preview latency, capture → drawn in the page, measured in
// headless chromium (bench/studio-latency.sh runs it in a release build).
//
//   reel-bench-preview [--seconds N] [--source test:640x360@15] [--record]
//
// A studio runs in this process on loopback, its source the test pattern, which draws each
// frame's number as a strip of 24 cells along its bottom. The source is wrapped to note each
// frame's capture time (the monotonic clock the recorder stamps frames with). Chromium opens
// the page; a script in it looks at the preview on every animation frame, reads the frame
// number from the strip's pixels and notes when a new one was first drawn (Date.now(), the
// system's real-time clock). The two clocks are on one machine: the offset between them is
// read here at the start. Latency = drawn − captured, for every frame that was drawn; frames
// the preview skipped (it takes at most 15 a second and drops freely) are counted apart.
// --record starts a timelapse first, so the preview is the recording's branch.
import BenchTable
import Foundation
import ReelCore
import ReelMedia
import ReelStudio
import ReelHarness

var seconds = 30.0, sourceText = "test:640x360@15", record = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--seconds": seconds = Double(arguments.next() ?? "") ?? seconds
    case "--source": sourceText = arguments.next() ?? sourceText
    case "--record": record = true
    default:
        FileHandle.standardError.write(Data("usage: reel-bench-preview [--seconds N] [--source test:WxH@FPS] [--record]\n".utf8))
        exit(2)
    }
}

/// Capture times (monotonic nanoseconds) by frame number, as the test pattern numbers them.
final class CaptureLog: @unchecked Sendable {
    private let lock = NSLock()
    private var times: [Int: Int64] = [:]
    func note(_ index: Int, _ nanoseconds: Int64) { lock.withLock { times[index] = nanoseconds } }
    var all: [Int: Int64] { lock.withLock { times } }
}

/// The test pattern, its frames' capture times noted. Frame numbers start at 0 for each open.
final class NotedSource: CaptureSource {
    let inner: any CaptureSource
    let log: CaptureLog
    init(_ inner: any CaptureSource, log: CaptureLog) { self.inner = inner; self.log = log }
    var format: CaptureFormat { inner.format }
    var name: String { inner.name }
    func stop() { inner.stop() }
    func run(_ deliver: (CaptureSample) throws -> Void) throws {
        var index = 0
        try inner.run { sample in
            if case .video(let frame) = sample {
                log.note(index, frame.captureTime.nanoseconds)
                index += 1
            }
            try deliver(sample)
        }
    }
}

/// Seconds to add to a monotonic time to get the real-time clock's (read both, twice, keep
/// the reading with the shortest gap).
func realTimeOffset() -> Double {
    var best = (gap: Double.infinity, offset: 0.0)
    for _ in 0..<5 {
        var a = timespec(), b = timespec(), c = timespec()
        clock_gettime(CLOCK_MONOTONIC, &a)
        clock_gettime(CLOCK_REALTIME, &b)
        clock_gettime(CLOCK_MONOTONIC, &c)
        func s(_ t: timespec) -> Double { Double(t.tv_sec) + Double(t.tv_nsec) / 1e9 }
        let gap = s(c) - s(a)
        if gap < best.gap { best = (gap, s(b) - (s(a) + s(c)) / 2) }
    }
    return best.offset
}

/// The page's side: on each animation frame, the preview's strip read from its pixels; each
/// new frame number noted with Date.now(). The strip is the bottom 1/16 of the picture (at
/// least 8 rows), 24 cells, most significant bit first, white = 1.
let watcher = """
    window.__drawn = [];
    const img = document.getElementById('preview');
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('2d', { willReadFrequently: true });
    let last = -1;
    function look() {
      if (img.complete && img.naturalWidth > 0) {
        const w = img.naturalWidth, h = img.naturalHeight;
        if (canvas.width !== w) { canvas.width = w; canvas.height = h; }
        const strip = Math.max(8, Math.floor(h / 16)) & ~1;
        const y = h - Math.floor(strip / 2);
        context.drawImage(img, 0, 0);
        const row = context.getImageData(0, y, w, 1).data;
        const cell = Math.floor(w / 24);
        let value = 0;
        for (let bit = 0; bit < 24; bit += 1) {
          const x = ((bit * cell) & ~1) + Math.floor(cell / 2);
          value = value * 2 + (row[x * 4 + 1] > 128 ? 1 : 0);
        }
        if (value !== last) { last = value; window.__drawn.push([value, Date.now()]); }
      }
      requestAnimationFrame(look);
    }
    requestAnimationFrame(look);
    """

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reel-bench-preview-\(UUID().uuidString)").path
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: folder) }
let log = CaptureLog()
var settings = StudioSettings(port: 0, libraryPath: folder + "/library.sqlite", source: sourceText)
settings.folders = XDGDirectories(environment: ["XDG_DATA_HOME": folder + "/data", "XDG_STATE_HOME": folder + "/state"], accountHome: folder)
settings.keepAwake = false
settings.openSource = { NotedSource(try CaptureSources.open($0), log: log) }
let studio = try StudioServer(settings: settings)
try studio.start()
let offset = realTimeOffset()
let base = studio.baseURL.absoluteString

let drawn: [(index: Int, at: Double)] = try await withWebDriver(windowSize: (1280, 900)) { browser in
    try await browser.navigate(to: studio.signInURL)
    try await browser.waitUntil(script: "return document.getElementById('connection').dataset.state === 'live'")
    if record {
        FileHandle.standardError.write(Data("reel-bench-preview: recording a timelapse while measuring\n".utf8))
        _ = try await browser.executeAsyncScript("""
            const done = arguments[arguments.length - 1];
            fetch('/api/recording/start', { method: 'POST', headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify({ mode: 'timelapse', interval: 5, canvas: '1280x720' }) }).then((a) => done(a.status));
            """)
    }
    try await browser.waitUntil(script: "const i = document.getElementById('preview'); return i.complete && i.naturalWidth > 0",
                                timeout: .seconds(30))
    _ = try await browser.executeScript(watcher)
    FileHandle.standardError.write(Data("reel-bench-preview: measuring for \(Int(seconds)) s\n".utf8))
    try await Task.sleep(for: .seconds(seconds))
    let pairs = try await browser.executeScript("return window.__drawn").array ?? []
    return pairs.compactMap { pair in
        guard let values = pair.array, values.count == 2, let index = values[0].int, let at = values[1].number else { return nil }
        return (index, at / 1000)
    }
}
await studio.stop()

let captured = log.all
var latencies: [Double] = []
var unknown = 0
for (index, at) in drawn.dropFirst() {  // the first was drawn before the watcher looked
    guard let nanoseconds = captured[index] else { unknown += 1; continue }
    latencies.append((at - (Double(nanoseconds) / 1e9 + offset)) * 1000)
}
latencies.sort()
let firstShown = drawn.dropFirst().first?.index ?? 0, lastShown = drawn.last?.index ?? 0
let span = max(1, lastShown - firstShown + 1)
print("""
    preview latency, capture → drawn in headless chromium (\(sourceText)\(record ? ", while recording a timelapse" : ""), \(Int(seconds)) s)
      frames drawn:   \(latencies.count) of the \(span) captured in that span (\(String(format: "%.1f", Double(latencies.count) / seconds)) a second)\(unknown > 0 ? "; \(unknown) unreadable" : "")
      latency ms:     p50 \(String(format: "%.1f", percentile(latencies, 0.5)))  p95 \(String(format: "%.1f", percentile(latencies, 0.95)))  max \(String(format: "%.1f", latencies.last ?? .nan))  min \(String(format: "%.1f", latencies.first ?? .nan))
    """)
_ = base
