import CFFmpeg
import Foundation
@testable import ReelMedia
import ReelCore
import Synchronization
import Testing

/// Delivers `count` pictures of one size whose luma at (x, y) is `(x + 3y) % 251` and whose
/// chroma at (x, y) is `(2x + y) % 199`, in `format` (yuv420p, or yuyv422 like a UVC camera).
final class PatternSource: CaptureSource, @unchecked Sendable {
    let format: CaptureFormat
    let name: String
    let count: Int
    let pixelFormat: AVPixelFormat
    private let stopped = Atomic<Bool>(false)

    init(width: Int, height: Int, count: Int = 1_000_000, pixelFormat: AVPixelFormat = AV_PIX_FMT_YUV420P) {
        format = CaptureFormat(width: width, height: height, framesPerSecond: 30, audio: nil)
        name = "pattern \(width)x\(height)"
        self.count = count
        self.pixelFormat = pixelFormat
    }

    func run(_ deliver: (CaptureSample) throws -> Void) throws {
        var index = 0
        while index < count && !stopped.load(ordering: .relaxed) {
            try deliver(.video(try Self.picture(format.width, format.height, pixelFormat, index: index)))
            index += 1
        }
    }

    func stop() { stopped.store(true, ordering: .relaxed) }

    static func luma(_ x: Int, _ y: Int) -> UInt8 { UInt8((x + 3 * y) % 251) }
    static func chroma(_ x: Int, _ y: Int) -> UInt8 { UInt8((2 * x + y) % 199) }

    static func picture(_ width: Int, _ height: Int, _ format: AVPixelFormat, index: Int) throws -> VideoFrame {
        let frame = try VideoFrame.allocate(width: width, height: height, format: format)
        let f = frame.pointee
        if format == AV_PIX_FMT_YUV420P {
            for y in 0..<height { for x in 0..<width { f.data.0![y * Int(f.linesize.0) + x] = luma(x, y) } }
            for y in 0..<height / 2 {
                for x in 0..<width / 2 {
                    f.data.1![y * Int(f.linesize.1) + x] = chroma(x, y)
                    f.data.2![y * Int(f.linesize.2) + x] = 255 - chroma(x, y)
                }
            }
        } else {
            // YUYV: Y0 U Y1 V per two pixels; a flat mid-grey is enough to show the format is converted.
            for y in 0..<height { for i in 0..<(width * 2) { f.data.0![y * Int(f.linesize.0) + i] = 128 } }
        }
        return VideoFrame(taking: frame, captureTime: MediaTime(value: Int64(index), timescale: 30))
    }
}

@Suite("PortraitSource and SourceSwitcher: no landscape picture reaches a consumer")
struct PortraitSourceTests {
    @Test("a landscape picture is turned a quarter clockwise, every plane: source (x, y) lands at (height − 1 − y, x)")
    func turnsClockwise() throws {
        let source = PortraitSource(PatternSource(width: 64, height: 36, count: 1))
        #expect(source.format.width == 36 && source.format.height == 64)
        var frames: [VideoFrame] = []
        try source.run { if case let .video(frame) = $0 { frames.append(frame) } }
        let frame = try #require(frames.first)
        #expect(frame.width == 36 && frame.height == 64)
        let f = frame.avFrame.pointee
        for y in 0..<36 {
            for x in 0..<64 {
                #expect(f.data.0![x * Int(f.linesize.0) + (35 - y)] == PatternSource.luma(x, y))
            }
        }
        for y in 0..<18 {
            for x in 0..<32 {
                #expect(f.data.1![x * Int(f.linesize.1) + (17 - y)] == PatternSource.chroma(x, y))
                #expect(f.data.2![x * Int(f.linesize.2) + (17 - y)] == 255 - PatternSource.chroma(x, y))
            }
        }
    }

    @Test("a portrait picture passes untouched; a camera's yuyv422 landscape picture is made yuv420p and turned")
    func portraitAndOtherFormats() throws {
        let portrait = PortraitSource(PatternSource(width: 36, height: 64, count: 1))
        var sizes: [String] = []
        try portrait.run { if case let .video(frame) = $0 { sizes.append("\(frame.width)x\(frame.height) \(frame.pixelFormatName)") } }
        let yuyv = PortraitSource(PatternSource(width: 64, height: 36, count: 1, pixelFormat: AV_PIX_FMT_YUYV422))
        try yuyv.run { if case let .video(frame) = $0 { sizes.append("\(frame.width)x\(frame.height) \(frame.pixelFormatName)") } }
        #expect(sizes == ["36x64 yuv420p", "36x64 yuv420p"])
    }

    @Test("switching sources: the turn is in place before the new source's first picture, and the stream goes on")
    func switching() throws {
        let specs: [SourceSpec] = [.test(width: 64, height: 36, framesPerSecond: 30), .test(width: 36, height: 64, framesPerSecond: 30),
                                   .test(width: 96, height: 54, framesPerSecond: 30)]
        let switcher = try SourceSwitcher(initial: specs[0]) { spec in
            guard case let .test(width, height, _) = spec else { throw CaptureError(source: "\(spec)", reason: "not a test source") }
            return PatternSource(width: width, height: height)
        }
        #expect(switcher.format.width == 36 && switcher.format.height == 64)
        var sizes: [String] = []
        try switcher.run { sample in
            guard case let .video(frame) = sample else { return }
            sizes.append("\(frame.width)x\(frame.height)")
            switch sizes.count {
            case 5: try switcher.switchTo(specs[1])
            case 10: try switcher.switchTo(specs[2])
            case 15: switcher.stop()
            default: break
            }
        }
        // The switch takes effect after the picture in hand: each source's pictures in order,
        // and not one of them landscape.
        #expect(sizes.allSatisfy { size in let p = size.split(separator: "x").map { Int($0)! }; return p[0] <= p[1] })
        #expect(sizes.first == "36x64" && sizes.contains("54x96"))
        #expect(sizes.count >= 15)
    }

    @Test("a source that cannot be opened leaves the current one running")
    func failedSwitch() throws {
        let switcher = try SourceSwitcher(initial: .test(width: 64, height: 36, framesPerSecond: 30)) { spec in
            guard case let .test(width, height, _) = spec, width > 0 else { throw CaptureError(source: "v4l2:/dev/video9", reason: "no such device") }
            return PatternSource(width: width, height: height)
        }
        var count = 0
        var failure: String?
        try switcher.run { _ in
            count += 1
            if count == 3 {
                do { try switcher.switchTo(.camera(device: "/dev/video9", audio: .none)) } catch { failure = "\(error)" }
            }
            if count == 6 { switcher.stop() }
        }
        #expect(failure?.contains("no such device") == true && count == 6)
    }
}
