import CFFmpeg
import Testing
@testable import ReelMedia

@Suite("Picture pool")
struct PicturePoolTests {
    @Test("a freed picture's buffer is the next picture's; two held at once are distinct and writable")
    func reuse() throws {
        let pool = try PicturePool(width: 1080, height: 1920)
        var first: UnsafeMutablePointer<AVFrame>? = try pool.picture()
        let firstPlanes = first!.pointee.data.0
        var second: UnsafeMutablePointer<AVFrame>? = try pool.picture()
        #expect(second!.pointee.data.0 != firstPlanes)
        #expect(av_frame_is_writable(first) == 1 && av_frame_is_writable(second) == 1)
        av_frame_free(&first)
        var third: UnsafeMutablePointer<AVFrame>? = try pool.picture()
        #expect(third!.pointee.data.0 == firstPlanes, "the freed buffer comes back")
        av_frame_free(&second)
        av_frame_free(&third)
    }

    @Test("planes are aligned, inside the buffer, and the picture outlives its pool")
    func layout() throws {
        var pool: PicturePool? = try PicturePool(width: 721, height: 405)
        var picture: UnsafeMutablePointer<AVFrame>? = try pool!.picture()
        pool = nil
        let frame = picture!.pointee
        #expect(frame.width == 721 && frame.height == 405 && frame.format == AV_PIX_FMT_YUV420P.rawValue)
        let lines = [frame.linesize.0, frame.linesize.1, frame.linesize.2].map(Int.init)
        #expect(lines[0] >= 721 && lines[1] >= 361 && lines[2] >= 361)
        #expect(lines.allSatisfy { $0 % PicturePool.alignment == 0 })
        let base = Int(bitPattern: frame.buf.0!.pointee.data)
        let end = base + Int(frame.buf.0!.pointee.size)
        let planes = [frame.data.0, frame.data.1, frame.data.2].map { Int(bitPattern: $0) }
        let rows = [405, 203, 203]
        for plane in 0..<3 {
            #expect((planes[plane] - base) % PicturePool.alignment == 0)
            #expect(planes[plane] + lines[plane] * rows[plane] <= end)
        }
        // Writing every byte of every plane stays inside the buffer (ASan/TSan would see it).
        for plane in 0..<3 {
            UnsafeMutableRawPointer(bitPattern: planes[plane])!.initializeMemory(as: UInt8.self, repeating: 0x80, count: lines[plane] * rows[plane])
        }
        av_frame_free(&picture)
    }
}
