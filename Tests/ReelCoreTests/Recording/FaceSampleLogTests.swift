import Foundation
import ReelCore
import Testing

@Suite("Face sample log and face track completion")
struct FaceSampleLogTests {
    func sample(_ tick: Int64, segment: Int = 0, kind: FaceTrackSample.Kind = .face, x: Double = 0.25) -> FaceTrackSample {
        FaceTrack.quantized(FaceTrackSample(time: MediaTime(value: tick, timescale: 600), segment: segment, kind: kind,
                                            box: NormalizedRect(x: x, y: 0.1, width: 0.3, height: 0.4)))
    }

    func log(_ samples: [FaceTrackSample]) -> Data {
        samples.reduce(FaceSampleLog.header) { $0 + FaceSampleLog.line($1) }
    }

    @Test("lines round-trip at the track's precision")
    func roundTrip() throws {
        let samples = [sample(0), sample(120, segment: 1, kind: .upperBody, x: 0.123456), sample(240, kind: .defaultRegion)]
        let read = try FaceSampleLog.decode(log(samples))
        #expect(read.samples == samples && read.ignoredBytes == 0)
        #expect(String(decoding: FaceSampleLog.line(samples[1]), as: UTF8.self) == "120 1 1 1235 1000 3000 4000 0\n")
    }

    @Test("a crash cuts the last line anywhere: every whole line before it is kept, the rest counted")
    func tornEverywhere() throws {
        let samples = (0..<5).map { sample(Int64($0) * 120) }
        let data = log(samples)
        for cut in 0...data.count {
            let read = try FaceSampleLog.decode(data.prefix(cut))
            let wholeLines = data.prefix(cut).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count - 2
            #expect(read.samples == Array(samples.prefix(max(0, wholeLines))), "cut at \(cut)")
            #expect(read.samples.count <= samples.count)
        }
        #expect(try FaceSampleLog.decode(Data()).samples.isEmpty, "created, nothing synced yet")
    }

    @Test("a damaged line ends the log there; a foreign or newer file is an error")
    func damage() throws {
        var data = log([sample(0), sample(120)])
        data += Data("12 0 9 0 0 1 1 0\n".utf8) + FaceSampleLog.line(sample(360))
        let read = try FaceSampleLog.decode(data)
        #expect(read.samples.count == 2 && read.ignoredBytes > 0, "unknown kind 9")
        #expect(throws: FaceSampleLog.Error.self) { try FaceSampleLog.decode(Data("{\"version\":1}\n".utf8)) }
        let newer = #expect(throws: FaceSampleLog.Error.self) { try FaceSampleLog.decode(Data("reel-face-log 9\n".utf8)) }
        #expect(newer?.description.contains("newer Reel") == true)
    }

    @Test("merge: the checkpoint's samples, then the log's after them, none past the video's end")
    func merge() {
        let checkpoint = FaceTrack(samples: [sample(0), sample(120)])
        let log = [sample(0), sample(120), sample(240), sample(360), sample(2400)]
        let merged = FaceTrackCompletion.merged(checkpoint: checkpoint, log: log, videoDuration: MediaTime(value: 2, timescale: 1))
        #expect(merged.samples.map(\.time.value) == [0, 120, 240, 360])
        #expect(FaceTrackCompletion.merged(checkpoint: FaceTrack(), log: log, videoDuration: MediaTime(value: 1, timescale: 2)).samples.count == 3)
    }

    @Test("missing: an empty track needs the whole video; one ending more than 1.5 s early needs the rest; otherwise complete")
    func missing() {
        let ten = MediaTime(value: 10, timescale: 1)
        #expect(FaceTrackCompletion.missingFrom(FaceTrack(), videoDuration: ten) == .zero)
        #expect(FaceTrackCompletion.missingFrom(FaceTrack(), videoDuration: .zero) == nil)
        let upTo4 = FaceTrack(samples: [sample(0), sample(2400)])
        #expect(FaceTrackCompletion.missingFrom(upTo4, videoDuration: ten) == MediaTime(value: 2400, timescale: 600))
        let upTo9 = FaceTrack(samples: [sample(0), sample(5100)])  // 8.5 s
        #expect(FaceTrackCompletion.missingFrom(upTo9, videoDuration: ten) == nil)
        #expect(FaceTrackCompletion.missingFrom(upTo9, videoDuration: MediaTime(value: 10_001, timescale: 1000)) != nil)
    }

    @Test("found samples are appended after the track's last, as new segments")
    func appending() {
        let track = FaceTrack(samples: [sample(0, segment: 0), sample(120, segment: 2)])
        let found = [sample(0, segment: 0), sample(120, segment: 0), sample(240, segment: 0), sample(360, segment: 1)]
        let result = FaceTrackCompletion.appending(found, to: track)
        #expect(result.samples.map(\.time.value) == [0, 120, 240, 360])
        #expect(result.samples.map(\.segment) == [0, 2, 3, 4])
        #expect(FaceTrackCompletion.appending(found, to: FaceTrack()).samples.map(\.segment) == [0, 0, 0, 1])
    }
}
