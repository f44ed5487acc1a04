import Foundation
import Testing
@testable import ReelCore

/// The ABR ladder's pure rules: parsing rungs, the multivariant playlist, measured bit rates
/// and codec strings read from init segments.
@Suite("ABR ladder rules")
struct LadderTests {
    @Test func presetsAndCustomRungsParseAndSortHighestFirst() throws {
        let ladder = try Ladder(parsing: "low, high,640x360@800k,medium")
        #expect(ladder.rungs.map(\.name) == ["high", "medium", "low", "360p-800k"])
        #expect(ladder.rungs.map(\.videoBitsPerSecond) == [2_500_000, 1_500_000, 900_000, 800_000])
        #expect(ladder.rungs[3].size == VideoDimensions(width: 640, height: 360))
        #expect(ladder.oriented(.portrait)[3].size == VideoDimensions(width: 360, height: 640))
        #expect(ladder.oriented(.landscape)[0].size == VideoDimensions(width: 1280, height: 720))
        #expect(try Ladder(parsing: "1280x720@2.5M").rungs[0].videoBitsPerSecond == 2_500_000)
        #expect(try Ladder(parsing: "1280x720@2500000").rungs[0].name == "720p-2500k")
    }

    @Test(arguments: [
        ("", Ladder.Error.unreadable("")),
        ("low,,high", .unreadable("")),
        ("ultra", .unreadable("ultra")),
        ("640x360", .unreadable("640x360")),
        ("640x360@fast", .unreadable("640x360@fast")),
        ("low,low", .duplicate("low")),
        ("low,medium,high,640x360@800k,320x180@300k", .rungCount(5)),
        ("641x360@800k", .outOfRange("360p-800k")),
        ("640x360@50k", .outOfRange("360p-50k")),
        ("8000x360@800k", .outOfRange("360p-800k")),
    ])
    func badLaddersAreRefusedSayingWhy(_ text: String, _ error: Ladder.Error) {
        #expect(throws: error) { try Ladder(parsing: text) }
        #expect(!error.description.isEmpty)
    }

    @Test func theMultivariantPlaylistListsWhatWasMeasured() {
        var meter = BandwidthMeter()
        #expect(meter.peakBitsPerSecond == nil && meter.averageBitsPerSecond == nil)
        meter.add(bytes: 500_000, duration: MediaTime(value: 2, timescale: 1))      // 2.0 Mbps
        meter.add(bytes: 300_000, duration: MediaTime(value: 1, timescale: 1))      // 2.4 Mbps
        meter.add(bytes: 100, duration: .zero)                                      // left out
        #expect(meter.peakBitsPerSecond == 2_400_000)
        #expect(meter.averageBitsPerSecond == 2_133_334)
        let playlist = MultivariantPlaylist(variants: [
            .init(uri: "high/playlist.m3u8", peakBitsPerSecond: meter.peakBitsPerSecond!, averageBitsPerSecond: meter.averageBitsPerSecond!,
                  codecs: "avc1.64001f,mp4a.40.2", size: VideoDimensions(width: 720, height: 1280), framesPerSecond: 30),
            .init(uri: "low/playlist.m3u8", peakBitsPerSecond: 1_000_000, averageBitsPerSecond: 950_000,
                  codecs: "avc1.64001e,mp4a.40.2", size: VideoDimensions(width: 480, height: 854), framesPerSecond: 29.97),
        ])
        #expect(playlist.rendered() == """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-STREAM-INF:BANDWIDTH=2400000,AVERAGE-BANDWIDTH=2133334,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=720x1280,FRAME-RATE=30.000
            high/playlist.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=1000000,AVERAGE-BANDWIDTH=950000,CODECS="avc1.64001e,mp4a.40.2",RESOLUTION=480x854,FRAME-RATE=29.970
            low/playlist.m3u8

            """)
    }

    /// A hand-made init segment: `avcC` (High, level 3.1) and `esds` (AAC-LC), as FFmpeg's
    /// mov muxer lays them out.
    static func initSegment(avc: [UInt8] = [0x64, 0x00, 0x1f], audioObjectType: UInt8 = 2) -> Data {
        func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let size = UInt32(8 + body.count)
            return [UInt8(size >> 24), UInt8(size >> 16 & 0xff), UInt8(size >> 8 & 0xff), UInt8(size & 0xff)] + Array(type.utf8) + body
        }
        let avcC = box("avcC", [0x01] + avc + [0xff, 0xe1, 0x00, 0x00])
        let specific: [UInt8] = [0x05, 0x02, audioObjectType << 3 | 0x01, 0x90]
        let config: [UInt8] = [0x04, 0x11, 0x40, 0x15, 0, 0, 0, 0, 1, 0xf4, 0, 0, 1, 0xf4, 0] + specific
        let esdsBody: [UInt8] = [0, 0, 0, 0] + [0x03, UInt8(3 + config.count + 3), 0x00, 0x01, 0x00] + config + [0x06, 0x01, 0x02]
        let moov = box("moov", box("trak", box("avc1", [UInt8](repeating: 0, count: 78) + avcC)) + box("trak", box("mp4a", [UInt8](repeating: 0, count: 28) + box("esds", esdsBody))))
        return Data(box("ftyp", Array("iso5".utf8) + [0, 0, 2, 0]) + moov)
    }

    @Test func codecStringsComeFromTheInitSegment() {
        #expect(CodecString.codecs(ofInitSegment: Self.initSegment()) == "avc1.64001f,mp4a.40.2")
        #expect(CodecString.codecs(ofInitSegment: Self.initSegment(avc: [0x42, 0xc0, 0x1e], audioObjectType: 5)) == "avc1.42c01e,mp4a.40.5")
        #expect(CodecString.codecs(ofInitSegment: Data("ftypiso5".utf8)) == nil)
        #expect(CodecString.codecs(ofInitSegment: Data()) == nil)
    }
}
