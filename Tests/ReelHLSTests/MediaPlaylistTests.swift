import Foundation
import Testing
@testable import ReelHLS

/// Media playlists: the writer and the parser agree, and the parser reads FFmpeg's playlists,
/// the HLS specification's low-latency examples, and refuses malformed text with a typed error.
@Suite("HLS media playlists")
struct MediaPlaylistTests {
    static let regular = MediaPlaylist(
        version: 7, targetDuration: 2, playlistType: .event, hasIndependentSegments: true, mediaSequence: 1, mapURI: "init.mp4",
        segments: [
            .init(uri: "seg/000001.m4s", duration: 2, programDateTime: HLSFixtures.date(0)),
            .init(uri: "seg/000002.m4s", duration: 1.999, programDateTime: HLSFixtures.date(2)),
            .init(uri: "seg/000003.m4s", duration: 2.001, programDateTime: HLSFixtures.date(9.5), followsDiscontinuity: true),
        ],
        hasEndList: true)

    static func parts(_ sequence: Int, _ count: Int) -> [MediaPlaylist.Part] {
        (0..<count).map { .init(uri: "part/00000\(sequence).\($0).m4s", duration: 0.334, isIndependent: $0 == 0) }
    }

    static let lowLatency = MediaPlaylist(
        version: 7, targetDuration: 2,
        serverControl: .init(canBlockReload: true, canSkipUntil: 12, partHoldBack: 1.002), partTarget: 0.334,
        hasIndependentSegments: true, mediaSequence: 5, discontinuitySequence: 1, mapURI: "init.mp4",
        segments: [
            .init(uri: "seg/000005.m4s", duration: 2, programDateTime: HLSFixtures.date(0)),
            .init(uri: "seg/000006.m4s", duration: 2.004, programDateTime: HLSFixtures.date(2), parts: parts(6, 6)),
        ],
        partialSegment: .init(programDateTime: HLSFixtures.date(4.004), followsDiscontinuity: true, parts: parts(7, 2)),
        preloadHints: [.init(type: "PART", uri: "part/000007.2.m4s")],
        renditionReports: [.init(uri: "../low/playlist.m3u8", lastMediaSequence: 7, lastPart: 1),
                           .init(uri: "../mid/playlist.m3u8", lastMediaSequence: 7)])

    @Test("writer → parser → the same value", arguments: [
        regular,
        lowLatency,
        MediaPlaylist(targetDuration: 4),
        MediaPlaylist(version: 9, targetDuration: 2, serverControl: .init(canBlockReload: true, canSkipUntil: 12, canSkipDateRanges: true, holdBack: 6),
                      mediaSequence: 100, skippedSegments: 40,
                      segments: [.init(uri: "https://cdn.example/a b.ts", duration: 1.5, title: "a title", isGap: true),
                                 .init(uri: "b.ts", duration: 2, parts: [.init(uri: "b.0.ts", duration: 1, isGap: true)])]),
    ])
    func roundTrip(_ playlist: MediaPlaylist) throws {
        let text = playlist.rendered()
        #expect(try MediaPlaylist(parsing: text) == playlist, "\(text)")
        #expect(try MediaPlaylist(parsing: text).rendered() == text)
    }

    @Test func theWriterPrintsReelsFixedForm() {
        #expect(Self.lowLatency.rendered().split(separator: "\n").prefix(9) == [
            "#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:2",
            "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=12.000,PART-HOLD-BACK=1.002",
            "#EXT-X-PART-INF:PART-TARGET=0.334", "#EXT-X-INDEPENDENT-SEGMENTS", "#EXT-X-MEDIA-SEQUENCE:5",
            "#EXT-X-DISCONTINUITY-SEQUENCE:1", "#EXT-X-MAP:URI=\"init.mp4\"",
        ])
        #expect(Self.regular.rendered().contains("#EXT-X-DISCONTINUITY\n#EXT-X-PROGRAM-DATE-TIME:2025-11-30T02:43:20.623Z\n#EXTINF:2.001,\nseg/000003.m4s\n"))
    }

    @Test("DISCONTINUITY-SEQUENCE is a header, not a segment's discontinuity")
    func discontinuitySequenceIsNotADiscontinuity() throws {
        let playlist = try MediaPlaylist(parsing: """
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXT-X-DISCONTINUITY-SEQUENCE:3
            #EXTINF:2.000,
            a.m4s
            #EXT-X-DISCONTINUITY
            #EXTINF:2.000,
            b.m4s
            """)
        #expect(playlist.discontinuitySequence == 3)
        #expect(playlist.segments.map(\.followsDiscontinuity) == [false, true])
    }

    @Test("PART-INF is the part target, not a part")
    func partInfIsNotAPart() throws {
        let playlist = try MediaPlaylist(parsing: "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PART-INF:PART-TARGET=0.5\n#EXTINF:2,\na.m4s\n")
        #expect(playlist.partTarget == 0.5)
        #expect(playlist.segments[0].parts.isEmpty && playlist.partialSegment == nil)
    }

    @Test func ffmpegsFragmentedMP4Playlist() throws {
        let playlist = try MediaPlaylist(parsing: try HLSFixtures.text("ffmpeg-fmp4-vod.m3u8"))
        #expect(playlist.version == 7 && playlist.targetDuration == 2 && playlist.mediaSequence == 0)
        #expect(playlist.playlistType == .vod && playlist.mapURI == "init.mp4" && playlist.hasEndList)
        #expect(playlist.segments.map(\.uri) == ["out0.m4s", "out1.m4s", "out2.m4s"])
        #expect(playlist.segments.allSatisfy { $0.duration == 2 && $0.title.isEmpty })
        let dates = playlist.segments.compactMap(\.programDateTime)
        #expect(dates.count == 3, "FFmpeg writes the date between EXTINF and the URI")
        #expect(HLSDateTime.string(from: dates[0]) == "2026-12-06T18:48:16.941Z", "+0000")
        #expect(dates[1].timeIntervalSince(dates[0]) == 2)
    }

    @Test func ffmpegsTransportStreamWindow() throws {
        let playlist = try MediaPlaylist(parsing: try HLSFixtures.text("ffmpeg-ts-window.m3u8"))
        #expect(playlist.version == 3 && playlist.mediaSequence == 1 && playlist.mapURI == nil && playlist.playlistType == nil)
        #expect(playlist.segments.map(\.uri) == ["live1.ts", "live2.ts"])
        #expect(playlist.segments.allSatisfy { $0.programDateTime == nil })
    }

    @Test func ffmpegsVariantPlaylist() throws {
        let playlist = try MediaPlaylist(parsing: try HLSFixtures.text("ffmpeg-variant.m3u8"))
        #expect(playlist.mapURI == "init_1.mp4" && playlist.segments.count == 2 && playlist.hasEndList)
    }

    @Test("the HLS specification's low-latency example")
    func specLowLatencyExample() throws {
        let playlist = try MediaPlaylist(parsing: try HLSFixtures.text("spec-low-latency.m3u8"))
        #expect(playlist.version == 6 && playlist.targetDuration == 4 && playlist.mediaSequence == 266)
        #expect(playlist.serverControl == .init(canBlockReload: true, canSkipUntil: 12, partHoldBack: 1))
        #expect(playlist.partTarget == 0.33334)
        #expect(playlist.segments.map(\.uri) == (266...272).map { "fileSequence\($0).mp4" })
        #expect(playlist.segments.allSatisfy { $0.duration == 4.00008 })
        #expect(playlist.segments[0].programDateTime.map(HLSDateTime.string(from:)) == "2019-02-14T02:13:36.106Z")
        #expect(playlist.segments.map(\.parts.count) == [0, 0, 0, 0, 0, 12, 12])
        #expect(playlist.segments[6].parts[6] == .init(uri: "filePart272.g.mp4", duration: 0.33334, isIndependent: true))
        #expect(playlist.partialSegment?.parts.map(\.uri) == ["filePart273.0.mp4", "filePart273.1.mp4", "filePart273.2.mp4"])
        #expect(playlist.preloadHints == [.init(type: "PART", uri: "filePart273.3.mp4")])
        #expect(playlist.renditionReports == [.init(uri: "../1M/waitForMSN.php", lastMediaSequence: 273, lastPart: 2),
                                              .init(uri: "../4M/waitForMSN.php", lastMediaSequence: 273, lastPart: 1)])
        #expect(!playlist.hasEndList)
    }

    @Test("the HLS specification's delta update example")
    func specDeltaUpdateExample() throws {
        let full = try MediaPlaylist(parsing: try HLSFixtures.text("spec-low-latency.m3u8"))
        let delta = try MediaPlaylist(parsing: try HLSFixtures.text("spec-delta-update.m3u8"))
        #expect(delta.version == 9 && delta.skippedSegments == 3 && delta.mediaSequence == 266)
        #expect(delta.segments == Array(full.segments.dropFirst(3)).map { var segment = $0; segment.programDateTime = nil; return segment })
        #expect(delta.partialSegment == full.partialSegment && delta.renditionReports == full.renditionReports)
    }

    @Test("malformed playlists are typed errors naming the line", arguments: [
        ("", HLSParseError(.missingHeader, line: 1)),
        ("#EXT-X-TARGETDURATION:2\n#EXTM3U\n", HLSParseError(.missingHeader, line: 1)),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:2\nseg.ts\n", HLSParseError(.uriWithoutTag("seg.ts"), line: 3)),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\nb.ts\n", HLSParseError(.uriWithoutTag("b.ts"), line: 5)),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n", HLSParseError(.tagWithoutURI(tag: "EXTINF"))),
        ("#EXTM3U\n#EXTINF:2,\na.ts\n", HLSParseError(.missingTargetDuration)),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PART:DURATION=1,URI=\"a\",URI=\"b\"\n",
         HLSParseError(.malformedAttributeList(tag: "EXT-X-PART", problem: "URI is given twice"), line: 3)),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=soon\n",
         HLSParseError(.invalidValue(tag: "EXT-X-SERVER-CONTROL", attribute: "CAN-SKIP-UNTIL", value: "soon"), line: 3)),
        ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nlow.m3u8\n", HLSParseError(.wrongKind(tag: "EXT-X-STREAM-INF"), line: 2)),
    ])
    func malformed(_ text: String, _ expected: HLSParseError) {
        let error = HLSFixtures.error { () throws(HLSParseError) in _ = try MediaPlaylist(parsing: text) }
        #expect(error == expected)
        #expect(error.map { !$0.description.isEmpty } == true)
    }

    @Test func unknownTagsAndCommentsAreSkipped() throws {
        let playlist = try MediaPlaylist(parsing: """

            #EXTM3U
            # made by hand
            #EXT-X-TARGETDURATION:2
            #EXT-X-START:TIME-OFFSET=-3
            #EXT-X-BYTERANGE:100@0
            #EXTINF:2,
            a.ts
            """)
        #expect(playlist.segments == [.init(uri: "a.ts", duration: 2)])
    }
}
