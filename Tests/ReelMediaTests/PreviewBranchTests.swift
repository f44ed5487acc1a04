import CFFmpeg
import Foundation
import ReelCore
import Testing
@testable import ReelMedia

/// The live preview's branch: JPEGs of the recording's shape, at most the stated rate, never a
/// wait for the capture, nothing done without a watcher.
@Suite("Preview branch")
struct PreviewBranchTests {
    /// `count` frames of the test pattern, `framesPerSecond` apart.
    func frames(_ count: Int, width: Int = 640, height: Int = 480, framesPerSecond: Int = 30) throws -> [VideoFrame] {
        var frames: [VideoFrame] = []
        let source = TestPatternSource(width: width, height: height, framesPerSecond: framesPerSecond, realTime: false)
        try source.run { sample in
            guard case .video(let frame) = sample else { return }
            frames.append(frame)
            if frames.count == count { source.stop() }
        }
        return frames
    }

    @Test("the JPEG encoder: a JPEG of the asked size (centre crop), full range, again and again from one encoder")
    func jpegEncoder() throws {
        let encoder = try JPEGEncoder(width: 320, height: 180)
        for frame in try frames(3) {
            let jpeg = try encoder.encode(frame)
            #expect(jpeg.starts(with: [0xFF, 0xD8]) && jpeg.suffix(2) == [0xFF, 0xD9])
            let decoded = try Self.decode(jpeg)
            #expect(decoded.width == 320 && decoded.height == 180)
        }
        #expect(try JPEGEncoder(width: 321, height: 181).width == 320, "odd sizes are made even")
    }

    @Test("a preview size keeps the canvas's shape: 640 on the long side")
    func sizes() {
        #expect(PreviewBranch.size(for: VideoDimensions(width: 1920, height: 1080)) == (640, 360))
        #expect(PreviewBranch.size(for: VideoDimensions(width: 1080, height: 1920)) == (360, 640))
        #expect(PreviewBranch.size(for: VideoDimensions(width: 1280, height: 720), longSide: 320) == (320, 180))
    }

    @Test("no watcher: frames are offered and nothing is encoded")
    func nobodyWatching() throws {
        let feed = PreviewFeed()
        let branch = PreviewBranch(feed: feed, width: 160, height: 90)
        branch.start()
        for frame in try frames(10) { branch.offer(frame) }
        branch.stop()
        #expect(branch.counts.offered == 10 && branch.counts.taken == 0 && branch.counts.encoded == 0)
        #expect(feed.latest == nil)
    }

    @Test("at most maxFramesPerSecond by capture time: 30 fps offered, 15 taken")
    func rateLimit() throws {
        let feed = PreviewFeed()
        feed.join()
        let branch = PreviewBranch(feed: feed, width: 160, height: 90, maxFramesPerSecond: 15)
        branch.start()
        for frame in try frames(30, framesPerSecond: 30) { branch.offer(frame) }
        branch.stop()
        #expect(branch.counts.offered == 30 && branch.counts.taken == 15)
        #expect(branch.counts.encoded + branch.counts.replaced == 15, "each taken frame is encoded or replaced by a newer one")
        #expect(feed.latest?.sequence == branch.counts.encoded)
    }

    @Test("offer never waits: with the encoder held up, 200 offers go through and the newest frame replaces the waiting one")
    func neverWaits() throws {
        let feed = PreviewFeed()
        feed.join()
        let branch = PreviewBranch(feed: feed, width: 160, height: 90, maxFramesPerSecond: 1000)
        // Not started: nothing pops the queue, as if the encoder were stuck. An offer that
        // waited for room would never return here.
        let all = try frames(200, framesPerSecond: 100)
        for frame in all { branch.offer(frame) }
        #expect(branch.counts.taken == 200 && branch.counts.replaced == 199, "one waits, the rest were replaced")
        branch.start()
        branch.stop()
        #expect(branch.counts.encoded == 1)
        #expect(feed.latest?.captureTime == all.last?.captureTime, "the newest frame is the one shown")
    }

    @Test("the feed: a watcher waits for a newer picture, a timeout says nil, close ends every wait")
    func feed() async throws {
        let feed = PreviewFeed()
        #expect(feed.next(after: 0, timeout: 0.05) == nil)
        feed.publish(jpeg: [1], width: 2, height: 2, captureTime: .zero)
        #expect(feed.next(after: 0, timeout: 0.05)?.sequence == 1)
        #expect(feed.next(after: 1, timeout: 0.05) == nil)
        let waiter = Task.detached { feed.next(after: 1, timeout: 30)?.sequence }
        // Published while the watcher most likely waits (published before it, it gets the picture at once all the same).
        try await Task.sleep(for: .milliseconds(50))
        feed.publish(jpeg: [2], width: 2, height: 2, captureTime: .zero)
        #expect(await waiter.value == 2)
        let closed = Task.detached { feed.next(after: 2, timeout: 30) }
        feed.close()
        #expect(await closed.value == nil)
    }

    /// Width and height of a JPEG, decoded by FFmpeg.
    static func decode(_ jpeg: [UInt8]) throws -> (width: Int, height: Int) {
        let codec = try #require(avcodec_find_decoder(AV_CODEC_ID_MJPEG))
        var context = avcodec_alloc_context3(codec)
        defer { avcodec_free_context(&context) }
        #expect(avcodec_open2(context, codec, nil) == 0)
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        var frame = av_frame_alloc()
        defer { av_frame_free(&frame) }
        let data = av_malloc(jpeg.count + Int(AV_INPUT_BUFFER_PADDING_SIZE))!.assumingMemoryBound(to: UInt8.self)
        data.initialize(from: jpeg, count: jpeg.count)
        (data + jpeg.count).initialize(repeating: 0, count: Int(AV_INPUT_BUFFER_PADDING_SIZE))
        #expect(av_packet_from_data(packet, data, Int32(jpeg.count)) == 0)
        #expect(avcodec_send_packet(context, packet) == 0)
        #expect(avcodec_receive_frame(context, frame) == 0)
        #expect(frame!.pointee.color_range == AVCOL_RANGE_JPEG || frame!.pointee.format == AV_PIX_FMT_YUVJ420P.rawValue)
        return (Int(frame!.pointee.width), Int(frame!.pointee.height))
    }
}
