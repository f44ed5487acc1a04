import Foundation
import ReelHLS
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
            .init(uri: "high/playlist.m3u8", streamInf: .init(bandwidth: meter.peakBitsPerSecond!, averageBandwidth: meter.averageBitsPerSecond!,
                                                              codecs: "avc1.64001f,mp4a.40.2", resolution: HLSResolution(width: 720, height: 1280), frameRate: 30)),
            .init(uri: "low/playlist.m3u8", streamInf: .init(bandwidth: 1_000_000, averageBandwidth: 950_000,
                                                             codecs: "avc1.64001e,mp4a.40.2", resolution: HLSResolution(width: 480, height: 854), frameRate: 29.97)),
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

/// When the multivariant playlist is due, and what it says.
@Suite("Multivariant schedule")
struct MultivariantScheduleTests {
    static let two = MediaTime(value: 2, timescale: 1)

    static func schedule() -> MultivariantSchedule {
        MultivariantSchedule(rungs: [.init(uri: "high/playlist.m3u8", size: VideoDimensions(width: 720, height: 1280)),
                                     .init(uri: "low/playlist.m3u8", size: VideoDimensions(width: 480, height: 854))],
                             framesPerSecond: 30, segmentInterval: two, firstVersionAfter: 1)
    }

    @Test func nothingIsDueUntilEveryRungHasItsInitAndASegment() throws {
        var schedule = Self.schedule()
        var due: MultivariantPlaylist?
        schedule.initSegment(rung: 0, codecs: "avc1.64001f,mp4a.40.2")
        schedule.segment(rung: 0, bytes: 625_000, duration: Self.two)
        due = schedule.due()
        #expect(due == nil, "the low rung has nothing yet")
        schedule.segment(rung: 1, bytes: 250_000, duration: Self.two)
        due = schedule.due()
        #expect(due == nil, "the low rung has no init segment yet")
        #expect(schedule.final == nil)
        schedule.initSegment(rung: 1, codecs: "avc1.64001e,mp4a.40.2")
        due = schedule.due()
        let first = try #require(due)
        #expect(first.rendered() == """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-STREAM-INF:BANDWIDTH=2500000,AVERAGE-BANDWIDTH=2500000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=720x1280,FRAME-RATE=30.000
            high/playlist.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=1000000,AVERAGE-BANDWIDTH=1000000,CODECS="avc1.64001e,mp4a.40.2",RESOLUTION=480x854,FRAME-RATE=30.000
            low/playlist.m3u8

            """)
        #expect(schedule.published == first)
        due = schedule.due()
        #expect(due == nil, "nothing changed")
    }

    @Test func aRegularLadderWaitsForThreeSegmentsOfEveryRungButTheFinalVersionNeedsOne() throws {
        var schedule = MultivariantSchedule(rungs: Self.schedule().rungs, framesPerSecond: 30, segmentInterval: Self.two,
                                            firstVersionAfter: 3)
        var due: MultivariantPlaylist?
        for rung in 0..<2 { schedule.initSegment(rung: rung, codecs: "avc1.64001f") }
        for _ in 0..<3 { schedule.segment(rung: 0, bytes: 500_000, duration: Self.two) }
        for count in 1...2 {
            schedule.segment(rung: 1, bytes: 250_000, duration: Self.two)
            due = schedule.due()
            #expect(due == nil, "the low rung has \(count) of 3 segments")
        }
        #expect(schedule.final != nil, "a stream that ends now still gets its playlist")
        schedule.segment(rung: 1, bytes: 250_000, duration: Self.two)
        due = schedule.due()
        let first = try #require(due)
        #expect(first.variants.map(\.streamInf.averageBandwidth) == [2_000_000, 1_000_000])
        // Later versions follow the bit rates as before, with no count to wait for.
        schedule.segment(rung: 1, bytes: 500_000, duration: Self.two)
        due = schedule.due()
        #expect(due?.variants[1].streamInf.bandwidth == 2_000_000)
        #expect(MultivariantSchedule(rungs: [], framesPerSecond: 30, segmentInterval: Self.two, firstVersionAfter: 0).firstVersionAfter == 1)
    }

    @Test func aPeakMoreThanTenPercentUpOrAnAverageTenPercentOffMakesANewVersion() throws {
        var schedule = Self.schedule()
        var due: MultivariantPlaylist?
        for rung in 0..<2 {
            schedule.initSegment(rung: rung, codecs: "avc1.64001f")
            schedule.segment(rung: rung, bytes: 500_000, duration: Self.two)  // 2 Mbps
        }
        due = schedule.due()
        _ = try #require(due)
        // A segment at 2.2 Mbps: the peak is 10 % up, not more; the average 5 %.
        schedule.segment(rung: 0, bytes: 550_000, duration: Self.two)
        due = schedule.due()
        #expect(due == nil)
        // 2.3 Mbps: 15 % over the published peak.
        schedule.segment(rung: 0, bytes: 575_000, duration: Self.two)
        due = schedule.due()
        let grown = try #require(due)
        #expect(grown.variants[0].streamInf.bandwidth == 2_300_000)
        // Quieter segments pull the low rung's average down, never its peak: 1.8 Mbps makes the
        // average 1.9 (5 % off), then 1.2 Mbps makes it 1.67 (17 % off).
        schedule.segment(rung: 1, bytes: 450_000, duration: Self.two)
        due = schedule.due()
        #expect(due == nil)
        schedule.segment(rung: 1, bytes: 300_000, duration: Self.two)
        due = schedule.due()
        let moved = try #require(due)
        #expect(moved.variants[1].streamInf.averageBandwidth == 1_666_667 && moved.variants[1].streamInf.bandwidth == 2_000_000)
    }

    @Test func aShortLastSegmentCountsInTheAverageButNotThePeak() throws {
        var schedule = Self.schedule()
        var due: MultivariantPlaylist?
        for rung in 0..<2 {
            schedule.initSegment(rung: rung, codecs: "avc1.64001f")
            schedule.segment(rung: rung, bytes: 500_000, duration: Self.two)
        }
        due = schedule.due()
        _ = try #require(due)
        // 0.2 s at 2.2 Mbps (a key frame and little else): a burst that is not the rung's peak.
        // BANDWIDTH is never below AVERAGE-BANDWIDTH, which the short segment did raise.
        schedule.segment(rung: 0, bytes: 55_000, duration: MediaTime(value: 1, timescale: 5))
        let final = try #require(schedule.final)
        let average = Int((555_000.0 * 8 / 2.2).rounded(.up))
        #expect(final.variants[0].streamInf.averageBandwidth == average)
        #expect(final.variants[0].streamInf.bandwidth == average, "not 2.2 Mbps")
        // A segment of exactly half the interval still counts.
        schedule.segment(rung: 1, bytes: 300_000, duration: MediaTime(value: 1, timescale: 1))
        #expect(schedule.final?.variants[1].streamInf.bandwidth == 2_400_000)
    }

    @Test func unknownCodecsLeaveTheAttributeOut() throws {
        var schedule = Self.schedule()
        var due: MultivariantPlaylist?
        for rung in 0..<2 {
            schedule.initSegment(rung: rung, codecs: rung == 0 ? nil : "avc1.64001e")
            schedule.segment(rung: rung, bytes: 250_000, duration: Self.two)
        }
        due = schedule.due()
        let text = try #require(due).rendered()
        #expect(text.contains("#EXT-X-STREAM-INF:BANDWIDTH=1000000,AVERAGE-BANDWIDTH=1000000,RESOLUTION=720x1280,FRAME-RATE=30.000\nhigh/"))
        #expect(text.contains("CODECS=\"avc1.64001e\",RESOLUTION=480x854"))
    }
}

/// The ladder's load rule on virtual time: thinned from the top in steps while the live
/// queue is full, the lowest rung never, restored one step at a time once it keeps up.
@Suite("Ladder load policy")
struct LadderLoadPolicyTests {
    /// Frame `index` at 30 fps.
    static func time(_ index: Int) -> MediaTime { MediaTime(value: Int64(index), timescale: 30) }

    @Test func aQueueThatKeepsUpThinsNothing() {
        var policy = LadderLoadPolicy(rungCount: 3)
        for index in 0..<300 {
            let fresh = policy.frame(at: Self.time(index), depth: 44, capacity: 60)  // 73 %: just under the high water
            #expect(fresh == [true, true, true])
        }
        #expect(policy.events.isEmpty && policy.repeated == [0, 0, 0])
    }

    @Test func aFullQueueThinsFromTheTopOneStepEveryTwoSecondsButNeverTheLowestRung() {
        var policy = LadderLoadPolicy(rungCount: 3)
        var seen: [[Bool]] = []
        for index in 0..<(12 * 30) { seen.append(policy.frame(at: Self.time(index), depth: 60, capacity: 60)) }
        #expect(policy.events == [
            .thinned(at: Self.time(0), rung: 0, factor: 2), .thinned(at: Self.time(60), rung: 0, factor: 4),
            .thinned(at: Self.time(120), rung: 1, factor: 2), .thinned(at: Self.time(180), rung: 1, factor: 4),
        ])
        #expect(policy.isExhausted && policy.maximumSteps == 4)
        #expect(seen[0..<4].map { $0[0] } == [true, false, true, false], "1 in 2 from the first frame")
        #expect(seen[60..<64].map { $0[0] } == [true, false, false, false], "1 in 4 two seconds later")
        #expect(seen.allSatisfy { $0[2] }, "the lowest rung keeps every picture")
        #expect(seen[120..<124].map { $0[1] } == [true, false, true, false], "the second rung 1 in 2 from 4 s")
        #expect(policy.repeated[2] == 0 && policy.repeated[0] > policy.repeated[1] && policy.repeated[1] > 0, "\(policy.repeated)")
    }

    @Test func tenSecondsOfAQuietQueueUndoOneStepAtATime() {
        var policy = LadderLoadPolicy(rungCount: 2)
        var index = 0
        func run(seconds: Int, depth: Int) {
            for _ in 0..<(seconds * 30) {
                _ = policy.frame(at: Self.time(index), depth: depth, capacity: 60)
                index += 1
            }
        }
        run(seconds: 3, depth: 60)
        #expect(policy.factors == [4, 1], "two steps: the top rung only, of two")
        run(seconds: 9, depth: 10)
        #expect(policy.factors == [4, 1], "9 s quiet: not yet")
        run(seconds: 1, depth: 30)  // half full: neither full nor quiet, the quiet time starts again
        run(seconds: 9, depth: 10)
        #expect(policy.factors == [4, 1])
        run(seconds: 2, depth: 10)
        #expect(policy.factors == [2, 1], "10 s quiet undoes the last step")
        run(seconds: 10, depth: 10)
        #expect(policy.factors == [1, 1])
        #expect(policy.events.map { if case .restored(_, let rung, let factor) = $0 { "\(rung)→\(factor)" } else { "thin" } }
                == ["thin", "thin", "0→2", "0→1"])
        run(seconds: 20, depth: 10)
        #expect(policy.events.count == 4, "nothing more to undo")
    }

    @Test func oneRungIsNeverThinned() {
        var policy = LadderLoadPolicy(rungCount: 1)
        for index in 0..<120 { #expect(policy.frame(at: Self.time(index), depth: 60, capacity: 60) == [true]) }
        #expect(policy.events.isEmpty && policy.maximumSteps == 0 && policy.isExhausted)
    }
}
