import CFFmpeg
import Foundation
import ReelTestSupport
import Testing
@testable import ReelMedia

/// The test pattern's wall-clock strip (the capture time a player reads from the picture it
/// shows, for glass-to-glass latency): it reads back exactly as drawn, beside an unchanged
/// frame number, straight from memory and after x264 at live bit rates and the scaling a
/// player does.
@Suite("test pattern wall-clock strip")
struct TestPatternClockTests {
    /// Clock values that set every cell both ways, the wrap and a few ordinary ones.
    static let clocks: [UInt64] = [0, 0xFFFF_FFFF, 0xAAAA_AAAA, 0x5555_5555, 0x8000_0001, 1_764_780_000_123, 0x1_0000_0000 + 7]

    /// A picture of the test pattern with `clock` drawn in.
    func picture(width: Int, height: Int, frameIndex: Int, clock: UInt64) throws -> UnsafeMutablePointer<AVFrame> {
        let frame = try VideoFrame.allocate(width: width, height: height, format: AV_PIX_FMT_YUV420P)
        TestPattern.draw(into: PlanarPicture(frame), frameIndex: frameIndex, label: "#\(frameIndex)", clockMilliseconds: clock)
        return frame
    }

    @Test("reads back the drawn milliseconds (mod 2^32) and the frame number", arguments: [(640, 360), (854, 480), (1280, 720), (320, 180)])
    func roundTripInMemory(width: Int, height: Int) throws {
        for (i, clock) in Self.clocks.enumerated() {
            var frame: UnsafeMutablePointer<AVFrame>? = try picture(width: width, height: height, frameIndex: 1000 + i, clock: clock)
            defer { av_frame_free(&frame) }
            let p = PlanarPicture(frame!)
            let read = TestPattern.readClockMilliseconds(luma: p.y, stride: p.yStride, width: width, height: height)
            #expect(read == UInt32(truncatingIfNeeded: clock), "clock \(clock) at \(width)x\(height)")
            #expect(TestPattern.readFrameIndex(luma: p.y, stride: p.yStride, width: width, height: height) == 1000 + i)
        }
    }

    @Test("without a clock the frame-number strip is unchanged")
    func frameStripUnchanged() throws {
        var frame: UnsafeMutablePointer<AVFrame>? = try VideoFrame.allocate(width: 640, height: 360, format: AV_PIX_FMT_YUV420P)
        defer { av_frame_free(&frame) }
        let p = PlanarPicture(frame!)
        TestPattern.draw(into: p, frameIndex: 0xABCDEF, label: "x")
        #expect(TestPattern.readFrameIndex(luma: p.y, stride: p.yStride, width: 640, height: 360) == 0xABCDEF)
    }

    /// A source size, what x264 encodes it to and at what bit rate, and the size the reader
    /// sees (a player drawing the video into a canvas of another size).
    struct Trip: Sendable, CustomStringConvertible {
        var source: (Int, Int), encoded: (Int, Int), kbps: Int, read: (Int, Int)
        var description: String { "\(source) → x264 \(encoded) \(kbps) kb/s → \(read)" }
    }

    static let trips = [
        // `reel live --source test:640x360@30 --landscape --quality low` (854x480, 0.9 Mbps), at a third of that.
        Trip(source: (640, 360), encoded: (854, 480), kbps: 300, read: (854, 480)),
        Trip(source: (640, 360), encoded: (854, 480), kbps: 300, read: (640, 360)),
        Trip(source: (1280, 720), encoded: (1280, 720), kbps: 500, read: (640, 360)),
        Trip(source: (640, 360), encoded: (640, 360), kbps: 150, read: (640, 360)),
    ]

    @Test("survives x264 at low bit rates and scaling", arguments: trips)
    func roundTripThroughX264(trip: Trip) throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let (sw, sh) = trip.source
        let count = 90
        let base: UInt64 = 1_764_780_000_000
        func clock(_ i: Int) -> UInt64 { base + UInt64(i) * 33 + UInt64(i % 7) * 0x0101_0000 }
        var raw = Data()
        for i in 0..<count {
            var frame: UnsafeMutablePointer<AVFrame>? = try picture(width: sw, height: sh, frameIndex: i, clock: clock(i))
            defer { av_frame_free(&frame) }
            raw.append(Self.planes(frame!))
        }
        try raw.write(to: URL(fileURLWithPath: dir.path("in.yuv")))
        let (ew, eh) = trip.encoded, (rw, rh) = trip.read
        let encode = try Subprocess.run("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(sw)x\(sh)", "-r", "30",
                                                   "-i", dir.path("in.yuv"), "-vf", "scale=\(ew):\(eh)", "-c:v", "libx264",
                                                   "-preset", "veryfast", "-tune", "zerolatency", "-b:v", "\(trip.kbps)k",
                                                   "-maxrate", "\(trip.kbps)k", "-bufsize", "\(trip.kbps)k", "-g", "60", dir.path("out.mp4")])
        try #require(encode.status == 0, "ffmpeg encode: \(encode.stderr)")
        let decode = try Subprocess.run("ffmpeg", ["-v", "error", "-i", dir.path("out.mp4"), "-vf", "scale=\(rw):\(rh),format=gray",
                                                   "-f", "rawvideo", dir.path("out.gray")])
        try #require(decode.status == 0, "ffmpeg decode: \(decode.stderr)")
        let gray = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.path("out.gray"))))
        try #require(gray.count == rw * rh * count, "\(gray.count) bytes for \(count) pictures of \(rw)x\(rh)")
        var wrong: [String] = []
        gray.withUnsafeBufferPointer { buffer in
            for i in 0..<count {
                let luma = buffer.baseAddress! + i * rw * rh
                let index = TestPattern.readFrameIndex(luma: luma, stride: rw, width: rw, height: rh)
                let read = TestPattern.readClockMilliseconds(luma: luma, stride: rw, width: rw, height: rh)
                if index != i || read != UInt32(truncatingIfNeeded: clock(i)) {
                    wrong.append("picture \(i): frame \(index.map(String.init) ?? "nil"), clock \(read.map(String.init) ?? "nil")")
                }
            }
        }
        #expect(wrong.isEmpty, "\(trip): \(wrong.count) of \(count) misread: \(wrong.prefix(5))")
    }

    /// The three planes of a 4:2:0 picture without stride padding, as rawvideo expects.
    static func planes(_ frame: UnsafeMutablePointer<AVFrame>) -> Data {
        let p = PlanarPicture(frame)
        var data = Data(capacity: p.width * p.height * 3 / 2)
        for row in 0..<p.height { data.append(p.y + row * p.yStride, count: p.width) }
        for row in 0..<(p.height / 2) { data.append(p.u + row * p.uStride, count: p.width / 2) }
        for row in 0..<(p.height / 2) { data.append(p.v + row * p.vStride, count: p.width / 2) }
        return data
    }
}
