import Foundation
import ReelHLS
import ReelTestSupport
import Testing
@testable import ReelCore

@Suite struct HLSPlaylistTests {
    /// 2026-11-30T02:43:11.123Z
    static let start = Date(timeIntervalSince1970: 1_796_006_591.123)

    static func segment(_ sequence: Int, seconds: Double, at offset: Double) -> HLSPlaylist.Segment {
        HLSPlaylist.Segment(
            sequence: sequence,
            duration: MediaTime(seconds: seconds, timescale: 90_000),
            programDateTime: start.addingTimeInterval(offset)
        )
    }

    static let threeSegments = [
        segment(1, seconds: 2.0, at: 0),
        segment(2, seconds: 2.002, at: 2.0),
        segment(3, seconds: 1.4666, at: 4.002),
    ]

    @Test func aSegmentAfterAGapFollowsADiscontinuityTag() {
        var late = Self.segment(2, seconds: 2, at: 30)
        late.followsDiscontinuity = true
        let text = HLSPlaylist(targetDuration: 2, segments: [Self.segment(1, seconds: 1, at: 0), late]).rendered()
        #expect(text.hasSuffix("""
            #EXT-X-PROGRAM-DATE-TIME:2026-11-30T02:43:11.123Z
            #EXTINF:1.000,
            seg/000001.m4s
            #EXT-X-DISCONTINUITY
            #EXT-X-PROGRAM-DATE-TIME:2026-11-30T02:43:41.123Z
            #EXTINF:2.000,
            seg/000002.m4s

            """), "\(text)")
        #expect(!HLSPlaylist(targetDuration: 2, segments: Self.threeSegments).rendered().contains("DISCONTINUITY"))
    }

    @Test("what Reel writes, ReelHLS reads back: regular, sliding-window and LL-HLS playlists")
    func renderedPlaylistsReadBack() throws {
        func part(_ sequence: Int, _ index: Int) -> HLSPlaylist.Part {
            HLSPlaylist.Part(address: .init(sequence: sequence, index: index), duration: MediaTime(value: 1001, timescale: 3000), isIndependent: index == 0)
        }
        var window = HLSPlaylist(targetDuration: 2, mediaSequence: 2, segments: Array(Self.threeSegments.dropFirst()))
        (window.isSlidingWindow, window.discontinuitySequence) = (true, 4)
        var lowLatency = HLSPlaylist(targetDuration: 2, segments: Self.threeSegments,
                                     lowLatency: .init(partTarget: MediaTime(value: 1001, timescale: 3000), renditionReports: ["../low/playlist.m3u8"]),
                                     partial: .init(sequence: 4, programDateTime: Self.start.addingTimeInterval(5.4686), parts: [part(4, 0), part(4, 1)],
                                                    followsDiscontinuity: true),
                                     preloadHint: .init(sequence: 4, index: 2))
        lowLatency.segments[2].parts = (0..<4).map { part(3, $0) }
        for playlist in [HLSPlaylist(targetDuration: 2, segments: Self.threeSegments, isFinished: true), window, lowLatency] {
            let text = playlist.rendered()
            let read = try MediaPlaylist(parsing: text)
            #expect(read.rendered() == text)
            #expect(read.segments.map(\.uri) == playlist.segments.map(\.uri))
            #expect(read.discontinuitySequence == (playlist.isSlidingWindow ? 4 : nil))
        }
        let read = try MediaPlaylist(parsing: lowLatency.rendered())
        #expect(read.segments[2].parts.map(\.uri) == (0..<4).map { "part/000003.\($0).m4s" })
        #expect(read.partialSegment?.parts.count == 2 && read.partialSegment?.followsDiscontinuity == true)
        #expect(read.preloadHints == [.init(type: "PART", uri: "part/000004.2.m4s")])
        #expect(read.renditionReports == [.init(uri: "../low/playlist.m3u8", lastMediaSequence: 4, lastPart: 1)])
        #expect(read.serverControl == .init(canBlockReload: true, canSkipUntil: 12, partHoldBack: 1.002))
    }

    @Test func liveEventPlaylistMatchesGolden() throws {
        let playlist = HLSPlaylist(targetDuration: 2, segments: Self.threeSegments)
        try GoldenFile.expect(playlist.rendered(), matches: "playlist-live.m3u8")
    }

    @Test func finishedPlaylistMatchesGolden() throws {
        let playlist = HLSPlaylist(targetDuration: 2, segments: Self.threeSegments, isFinished: true)
        try GoldenFile.expect(playlist.rendered(), matches: "playlist-ended.m3u8")
    }

    @Test func playlistWithoutSegmentsMatchesGolden() throws {
        try GoldenFile.expect(HLSPlaylist(targetDuration: 3).rendered(), matches: "playlist-empty.m3u8")
    }

    @Test func rendersTagsInSpecOrderWithMillisecondEXTINF() {
        let text = HLSPlaylist(targetDuration: 2, segments: [Self.segment(7, seconds: 1.9995, at: 0)], isFinished: true).rendered()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines == [
            "#EXTM3U",
            "#EXT-X-VERSION:7",
            "#EXT-X-TARGETDURATION:2",
            "#EXT-X-PLAYLIST-TYPE:EVENT",
            "#EXT-X-INDEPENDENT-SEGMENTS",
            "#EXT-X-MEDIA-SEQUENCE:1",
            "#EXT-X-MAP:URI=\"init.mp4\"",
            "#EXT-X-PROGRAM-DATE-TIME:2026-11-30T02:43:11.123Z",
            "#EXTINF:2.000,",
            "seg/000007.m4s",
            "#EXT-X-ENDLIST",
            "",
        ])
    }

    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"),
        (1_796_006_591.123, "2026-11-30T02:43:11.123Z"),
        (951_782_400.0, "2000-02-29T00:00:00.000Z"),  // leap day of a century leap year
        (1_709_251_199.9996, "2024-03-01T00:00:00.000Z"),  // rounds up across midnight and month
        (4_102_444_799.999, "2099-12-31T23:59:59.999Z"),
        (-0.001, "1969-12-31T23:59:59.999Z"),
    ])
    func programDateTimeIsUTCWithMilliseconds(seconds: Double, expected: String) {
        #expect(HLSPlaylist.programDateTimeString(Date(timeIntervalSince1970: seconds)) == expected)
    }

    @Test func programDateTimeAgreesWithFoundationForManyDates() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        var generator = SplitMix64(seed: 42)
        for _ in 0..<500 {
            // Whole milliseconds between 1901 and 2099, so both sides agree on rounding.
            let ms = Int64.random(in: -2_177_452_800_000...4_102_444_799_999, using: &generator)
            let date = Date(timeIntervalSince1970: Double(ms) / 1000)
            #expect(HLSPlaylist.programDateTimeString(date) == formatter.string(from: date))
        }
    }

    @Test func segmentURIsHaveSixDigitsAndGrowBeyond() {
        #expect(StreamLayout.segmentURI(sequence: 1) == "seg/000001.m4s")
        #expect(StreamLayout.segmentURI(sequence: 123_456) == "seg/123456.m4s")
        #expect(StreamLayout.segmentURI(sequence: 1_234_567) == "seg/1234567.m4s")
    }

    @Test func streamLayoutPathsAndIDValidation() throws {
        let layout = try StreamLayout(streamID: "desk-2026-11-30_a")
        #expect(layout.initPath == "streams/desk-2026-11-30_a/init.mp4")
        #expect(layout.playlistPath == "streams/desk-2026-11-30_a/playlist.m3u8")
        #expect(layout.segmentPath(sequence: 12) == "streams/desk-2026-11-30_a/seg/000012.m4s")
        for bad in ["", ".", "..", "a.b", "a/b", "a b", "a%2e", "caf\u{e9}", "a\u{0}", String(repeating: "x", count: 129)] {
            #expect(throws: StreamLayout.Error.invalidStreamID(bad)) { try StreamLayout(streamID: bad) }
        }
        #expect(StreamLayout.contentType(forPath: layout.playlistPath) == "application/vnd.apple.mpegurl")
        #expect(StreamLayout.contentType(forPath: layout.segmentPath(sequence: 1)) == "video/iso.segment")
        #expect(StreamLayout.contentType(forPath: layout.initPath) == "video/mp4")
    }

    @Test func aRungsLayoutIsOneFolderBelowTheStream() throws {
        let stream = try StreamLayout(streamID: "desk")
        let rung = try stream.rung("360p-800k")
        #expect(rung.rung == "360p-800k" && stream.rung == nil)
        #expect(rung.directory == "streams/desk/360p-800k" && rung.streamDirectory == "streams/desk")
        #expect(rung.directoryComponents == ["streams", "desk", "360p-800k"] && stream.directoryComponents == ["streams", "desk"])
        #expect(rung.initPath == "streams/desk/360p-800k/init.mp4")
        #expect(rung.playlistPath == "streams/desk/360p-800k/playlist.m3u8")
        #expect(rung.segmentPath(sequence: 3) == "streams/desk/360p-800k/seg/000003.m4s")
        #expect(rung.partPath(sequence: 3, index: 1) == "streams/desk/360p-800k/part/000003.1.m4s")
        #expect(rung.playlistURIFromStream == "360p-800k/playlist.m3u8" && stream.playlistURIFromStream == "playlist.m3u8")
        #expect(rung.stream == stream && stream.stream == stream)
        // A rung never names a stream's own folder, a file, or anything that needs escaping.
        for bad in ["", "seg", "part", "-a", "High", "a.b", "..", "a/b", "a_b", "a b", String(repeating: "x", count: 33)] {
            #expect(!StreamLayout.isValidRungName(bad))
            #expect(throws: StreamLayout.Error.invalidRungName(bad)) { try StreamLayout(streamID: "desk", rung: bad) }
        }
        for good in ["low", "medium", "high", "720p-2500k", "a", String(repeating: "9", count: 32)] {
            #expect(StreamLayout.isValidRungName(good))
        }
    }
}
