import Testing
@testable import ReelCore

/// A stream path names the file it is (what the S3 target and the origin take Cache-Control from).
@Suite struct OriginFileTests {
    @Test("stream paths name their origin file (what the S3 target takes Cache-Control from)")
    func originFileFromPath() {
        #expect(OriginFile(streamPath: "streams/a/playlist.m3u8") == .playlist)
        #expect(OriginFile(streamPath: "streams/a/init.mp4") == .initSegment)
        #expect(OriginFile(streamPath: "streams/a/seg/000012.m4s") == .segment(sequence: 12))
        #expect(OriginFile(streamPath: "streams/a/seg/x.m4s") == nil)
        #expect(OriginFile(streamPath: "streams/a/other.txt") == nil)
    }
}
