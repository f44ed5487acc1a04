import Foundation
import Testing
@testable import ReelHLS

/// The tokenizer: lines to tags by exact name, and typed values.
@Suite("HLS lines and tags")
struct HLSLineTests {
    @Test func linesAreToldApart() {
        #expect(HLSLine("") == .blank)
        #expect(HLSLine("  \t") == .blank)
        #expect(HLSLine("#EXTM3U") == .tag(name: "EXTM3U", value: nil))
        #expect(HLSLine(" #EXT-X-MAP:URI=\"init.mp4\" ") == .tag(name: "EXT-X-MAP", value: "URI=\"init.mp4\""))
        #expect(HLSLine("#EXTINF:2.000,") == .tag(name: "EXTINF", value: "2.000,"))
        #expect(HLSLine("# a comment") == .comment("# a comment"))
        #expect(HLSLine("seg/000001.m4s") == .uri("seg/000001.m4s"))
        #expect(HLSLine.lines(of: "#EXTM3U\r\na.ts\rb.ts\n") == [.tag(name: "EXTM3U", value: nil), .uri("a.ts"), .uri("b.ts"), .blank])
    }

    @Test("a tag is its whole name: DISCONTINUITY-SEQUENCE is not DISCONTINUITY, PART-INF is not PART")
    func namesAreMatchedWhole() throws {
        #expect(try HLSTag(name: "EXT-X-DISCONTINUITY-SEQUENCE", value: "3") == .discontinuitySequence(3))
        #expect(try HLSTag(name: "EXT-X-DISCONTINUITY", value: nil) == .discontinuity)
        #expect(try HLSTag(name: "EXT-X-PART-INF", value: "PART-TARGET=0.350") == .partInf(partTarget: 0.35))
        #expect(try HLSTag(name: "EXT-X-PART", value: "DURATION=0.350,URI=\"p.m4s\"") == .part(.init(uri: "p.m4s", duration: 0.35)))
        #expect(try HLSTag(name: "EXT-X-PARTS", value: "1") == .other(name: "EXT-X-PARTS", value: "1"))
        #expect(try HLSTag(name: "EXT-X-ENDLISTING", value: nil) == .other(name: "EXT-X-ENDLISTING", value: nil))
        #expect(!HLSTag.mediaSegmentTagNames.contains("EXT-X-DISCONTINUITY-SEQUENCE"))
        #expect(!HLSTag.mediaSegmentTagNames.contains("EXT-X-PART-INF"))
    }

    @Test func tagValuesAreTyped() throws {
        #expect(try HLSTag(name: "EXTINF", value: "4.00008,title, with comma") == .inf(duration: 4.00008, title: "title, with comma"))
        #expect(try HLSTag(name: "EXTINF", value: "2") == .inf(duration: 2, title: ""))
        #expect(try HLSTag(name: "EXT-X-PLAYLIST-TYPE", value: "VOD") == .playlistType(.vod))
        #expect(try HLSTag(name: "EXT-X-SKIP", value: "SKIPPED-SEGMENTS=3") == .skip(skippedSegments: 3))
        #expect(try HLSTag(name: "EXT-X-SERVER-CONTROL", value: "CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.0,CAN-SKIP-UNTIL=12.0")
                == .serverControl(.init(canBlockReload: true, canSkipUntil: 12, partHoldBack: 1)))
        #expect(try HLSTag(name: "EXT-X-RENDITION-REPORT", value: "URI=\"../low/p.m3u8\",LAST-MSN=273,LAST-PART=2")
                == .renditionReport(.init(uri: "../low/p.m3u8", lastMediaSequence: 273, lastPart: 2)))
        #expect(try HLSTag(name: "EXT-X-PRELOAD-HINT", value: "TYPE=PART,URI=\"p.3.m4s\"") == .preloadHint(.init(type: "PART", uri: "p.3.m4s")))
        #expect(try HLSTag(name: "EXT-X-STREAM-INF", value: "BANDWIDTH=880000,RESOLUTION=320x240,CODECS=\"avc1.f4000d\"")
                == .streamInf(.init(bandwidth: 880_000, codecs: "avc1.f4000d", resolution: HLSResolution(width: 320, height: 240))))
    }

    @Test("a malformed value is a typed error naming the tag", arguments: [
        ("EXTINF", "two,", HLSParseError.Reason.invalidValue(tag: "EXTINF", attribute: nil, value: "two,")),
        ("EXT-X-TARGETDURATION", "-2", .invalidValue(tag: "EXT-X-TARGETDURATION", attribute: nil, value: "-2")),
        ("EXT-X-MEDIA-SEQUENCE", nil, .invalidValue(tag: "EXT-X-MEDIA-SEQUENCE", attribute: nil, value: "")),
        ("EXT-X-PLAYLIST-TYPE", "LIVE", .invalidValue(tag: "EXT-X-PLAYLIST-TYPE", attribute: nil, value: "LIVE")),
        ("EXT-X-PROGRAM-DATE-TIME", "yesterday", .invalidValue(tag: "EXT-X-PROGRAM-DATE-TIME", attribute: nil, value: "yesterday")),
        ("EXT-X-PART", "DURATION=0.3", .missingAttribute(tag: "EXT-X-PART", attribute: "URI")),
        ("EXT-X-PART", "DURATION=0.3,URI=p.m4s", .invalidValue(tag: "EXT-X-PART", attribute: "URI", value: "p.m4s")),
        ("EXT-X-PART", "DURATION=\"0.3\",URI=\"p\"", .invalidValue(tag: "EXT-X-PART", attribute: "DURATION", value: "\"0.3\"")),
        ("EXT-X-SERVER-CONTROL", "CAN-BLOCK-RELOAD=MAYBE", .invalidValue(tag: "EXT-X-SERVER-CONTROL", attribute: "CAN-BLOCK-RELOAD", value: "MAYBE")),
        ("EXT-X-MAP", nil, .malformedAttributeList(tag: "EXT-X-MAP", problem: "it is empty")),
    ] as [(String, String?, HLSParseError.Reason)])
    func malformedValues(_ name: String, _ value: String?, _ reason: HLSParseError.Reason) {
        let error = HLSFixtures.error { () throws(HLSParseError) in _ = try HLSTag(name: name, value: value) }
        #expect(error == HLSParseError(reason))
        #expect(error?.description.contains(name) == true)
    }
}
