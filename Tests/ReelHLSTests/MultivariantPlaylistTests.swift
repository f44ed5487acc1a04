import Foundation
import Testing
@testable import ReelHLS

@Suite("HLS multivariant playlists")
struct MultivariantPlaylistTests {
    static let ladder = MultivariantPlaylist(variants: [
        .init(uri: "high/playlist.m3u8", streamInf: .init(bandwidth: 2_711_000, averageBandwidth: 2_592_000, codecs: "avc1.64001f,mp4a.40.2",
                                                          resolution: HLSResolution(width: 720, height: 1280), frameRate: 30)),
        .init(uri: "low/playlist.m3u8", streamInf: .init(bandwidth: 1_000_000, averageBandwidth: 950_000,
                                                         resolution: HLSResolution(width: 480, height: 854), frameRate: 29.97)),
    ])

    @Test func writerThenParserGivesTheSameValue() throws {
        let text = Self.ladder.rendered()
        #expect(text.hasPrefix("#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-STREAM-INF:BANDWIDTH=2711000,"
                               + "AVERAGE-BANDWIDTH=2592000,CODECS=\"avc1.64001f,mp4a.40.2\",RESOLUTION=720x1280,FRAME-RATE=30.000\nhigh/playlist.m3u8\n"))
        #expect(try MultivariantPlaylist(parsing: text) == Self.ladder)
        let bare = MultivariantPlaylist(version: nil, hasIndependentSegments: false, variants: [.init(uri: "a.m3u8", streamInf: .init(bandwidth: 1))])
        #expect(try MultivariantPlaylist(parsing: bare.rendered()) == bare)
    }

    @Test func ffmpegsMultivariantPlaylist() throws {
        let playlist = try MultivariantPlaylist(parsing: try HLSFixtures.text("ffmpeg-multivariant.m3u8"))
        #expect(playlist.version == 7 && !playlist.hasIndependentSegments)
        #expect(playlist.variants == [
            .init(uri: "v0.m3u8", streamInf: .init(bandwidth: 880_000, codecs: "avc1.f4000d", resolution: HLSResolution(width: 320, height: 240))),
            .init(uri: "v1.m3u8", streamInf: .init(bandwidth: 220_000, codecs: "avc1.f4000b", resolution: HLSResolution(width: 160, height: 120))),
        ])
    }

    @Test("a media playlist is not a multivariant one, nor the reverse")
    func kindsAreToldApart() throws {
        let media = try HLSFixtures.text("ffmpeg-fmp4-vod.m3u8")
        let error = HLSFixtures.error { () throws(HLSParseError) in _ = try MultivariantPlaylist(parsing: media) }
        #expect(error == HLSParseError(.wrongKind(tag: "EXT-X-TARGETDURATION"), line: 3))
        #expect(throws: HLSParseError.self) { try MediaPlaylist(parsing: try HLSFixtures.text("ffmpeg-multivariant.m3u8")) }
    }

    @Test("malformed multivariant playlists are typed errors", arguments: [
        ("#EXTM3U\nlow.m3u8\n", HLSParseError(.uriWithoutTag("low.m3u8"), line: 2)),
        ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n", HLSParseError(.tagWithoutURI(tag: "EXT-X-STREAM-INF"))),
        ("#EXTM3U\n#EXT-X-STREAM-INF:RESOLUTION=1x1\na.m3u8\n", HLSParseError(.missingAttribute(tag: "EXT-X-STREAM-INF", attribute: "BANDWIDTH"), line: 2)),
        ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,RESOLUTION=wide\na.m3u8\n",
         HLSParseError(.invalidValue(tag: "EXT-X-STREAM-INF", attribute: "RESOLUTION", value: "wide"), line: 2)),
        ("#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n", HLSParseError(.missingHeader, line: 1)),
    ])
    func malformed(_ text: String, _ expected: HLSParseError) {
        #expect(HLSFixtures.error { () throws(HLSParseError) in _ = try MultivariantPlaylist(parsing: text) } == expected)
    }
}
