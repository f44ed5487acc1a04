import CFFmpeg
import Testing
@testable import ReelMedia

@Suite("Video scaler")
struct VideoScalerTests {
    /// A black picture with a 2-pixel white vertical line at `lineX`.
    func picture(width: Int, height: Int, lineX: Int) throws -> VideoFrame {
        let frame = try VideoFrame.allocate(width: width, height: height, format: AV_PIX_FMT_YUV420P)
        let p = PlanarPicture(frame)
        TestPattern.fill(p, x: 0, y: 0, width: width, height: height, yuv: (16, 128, 128))
        for row in 0..<height { (p.y + row * p.yStride + lineX).update(repeating: 235, count: 2) }
        return VideoFrame(taking: frame, captureTime: .zero)
    }

    /// Columns of the middle row brighter than mid-grey.
    func brightColumns(_ frame: UnsafeMutablePointer<AVFrame>) -> [Int] {
        let p = PlanarPicture(frame)
        let row = p.y + (p.height / 2) * p.yStride
        return (0..<p.width).filter { row[$0] > 128 }
    }

    @Test("fill crop keeps the centre: a line at the source's centre lands at the output's centre, unsqueezed",
          arguments: [(1280, 720, 720, 1280), (1920, 1080, 1080, 1920), (1280, 720, 480, 854), (640, 480, 1280, 720)])
    func centreCrop(sw: Int, sh: Int, ow: Int, oh: Int) throws {
        let scaler = VideoScaler(width: ow, height: oh)
        let out = try scaler.scale(try picture(width: sw, height: sh, lineX: sw / 2 - 1))
        defer { var f: UnsafeMutablePointer<AVFrame>? = out; av_frame_free(&f) }
        let columns = brightColumns(out)
        let centre = Double(columns.reduce(0, +)) / Double(max(columns.count, 1))
        #expect(!columns.isEmpty)
        #expect(abs(centre - (Double(ow) / 2 - 0.5)) <= 1.0, "line centred at \(centre), expected \(Double(ow) / 2 - 0.5): \(columns)")
        // The line is 2 source pixels wide; scaled by oh/sh it should not come out wider (no squeeze).
        let scale = Double(oh) / Double(sh)
        #expect(Double(columns.count) <= 2 * scale + 2, "\(columns.count) columns for a 2 px line at scale \(scale)")
    }

    @Test("the crop rectangle is centred and has the output's aspect")
    func cropRectangle() {
        let c = VideoScaler.cropFill(sourceWidth: 1280, sourceHeight: 720, width: 720, height: 1280)
        #expect(c.width == 404 && c.height == 720 && c.x == 438 && c.y == 0)
        let l = VideoScaler.cropFill(sourceWidth: 640, sourceHeight: 480, width: 1280, height: 720)
        #expect(l.width == 640 && l.height == 360 && l.x == 0 && l.y == 60)
    }
}
