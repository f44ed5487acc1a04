import Foundation
import Testing
import ReelCore

@Suite("Face track format (subjects)")
struct FaceTrackFormatTests {
    @Test("a single-subject track is still version 1, seven numbers a sample, as before")
    func singleSubjectIsVersion1() throws {
        var track = FaceTrack()
        track.append(FaceTrackSample(time: ms(300), segment: 0, kind: .defaultRegion, box: rect(0.15, 0, 0.7, 0.45)))
        track.append(FaceTrackSample(time: ms(500), segment: 1, kind: .face, box: rect(0.123456, -0.05, 0.2, 0.33333)))
        #expect(String(decoding: try track.jsonData(), as: UTF8.self)
            == #"{"boxScale":10000,"samples":[[180,0,3,1500,0,7000,4500],[300,1,0,1235,-500,2000,3333]],"timescale":600,"version":1}"#)
        #expect(try FaceTrack.decode(json: try track.jsonData()).samples.allSatisfy { $0.subject == 0 })
    }

    @Test("several subjects: version 2 with the subject as an eighth number; reads back equal")
    func multiSubjectIsVersion2() throws {
        var track = FaceTrack()
        track.append(FaceTrackSample(time: ms(0), segment: 0, kind: .face, box: rect(0.1, 0.2, 0.15, 0.25), subject: 0))
        track.append(FaceTrackSample(time: ms(0), segment: 1, kind: .face, box: rect(0.6, 0.2, 0.15, 0.25), subject: 1))
        track.append(FaceTrackSample(time: ms(200), segment: 2, kind: .widenedFace, box: rect(0.5, 0.2, 0.3, 0.25), subject: 1))
        let json = String(decoding: try track.jsonData(), as: UTF8.self)
        #expect(json == #"{"boxScale":10000,"samples":[[0,0,0,1000,2000,1500,2500,0],[0,1,0,6000,2000,1500,2500,1],[120,2,2,5000,2000,3000,2500,1]],"timescale":600,"version":2}"#)
        #expect(try FaceTrack.decode(json: Data(json.utf8)) == track)
    }

    @Test("damaged rows and newer versions are refused with the sample and the reason")
    func errors() {
        func decode(_ version: Int, _ rows: String) throws {
            _ = try FaceTrack.decode(json: Data(#"{"boxScale":10000,"samples":\#(rows),"timescale":600,"version":\#(version)}"#.utf8))
        }
        #expect(throws: FaceTrack.Error.unsupportedVersion(3)) { try decode(3, "[]") }
        #expect(throws: FaceTrack.Error.unsupportedVersion(0)) { try decode(0, "[]") }
        #expect(throws: FaceTrack.Error.badSample(index: 1, reason: "7 numbers instead of 8")) {
            try decode(2, "[[0,0,0,1,1,1,1,0],[0,0,0,1,1,1,1]]")
        }
        #expect(throws: FaceTrack.Error.badSample(index: 0, reason: "8 numbers instead of 7")) { try decode(1, "[[0,0,0,1,1,1,1,0]]") }
        #expect(throws: FaceTrack.Error.badSample(index: 0, reason: "negative subject -2")) { try decode(2, "[[0,0,0,1,1,1,1,-2]]") }
        #expect(throws: FaceTrack.Error.badSample(index: 0, reason: "negative segment -1")) { try decode(1, "[[0,-1,0,1,1,1,1]]") }
        #expect(throws: FaceTrack.Error.badSample(index: 0, reason: "negative box size -5x1")) { try decode(1, "[[0,0,0,1,1,-5,1]]") }
        #expect(FaceTrack.Error.unsupportedVersion(3).description.contains("update Reel"))
        #expect(throws: DecodingError.self) { try decode(1, "[[0,0,0,1.5,1,1,1]]") }
    }
}
