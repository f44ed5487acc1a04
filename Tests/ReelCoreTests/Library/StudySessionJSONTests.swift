import Foundation
import ReelCore
import Testing

@Suite("Session JSON")
struct StudySessionJSONTests {
    static func session(_ n: Int, title: String?, tags: [String], load: RecordingLoad?, interval: Double?) -> StudySession {
        StudySession(id: UUID(), startedAt: Date(timeIntervalSince1970: 1_793_613_600.125 + Double(n)), endedAt: Date(timeIntervalSince1970: 1_793_617_200.5),
                     activeSeconds: n == 0 ? 3000 : 1700.25 + Double(n) / 3, videoSeconds: 61, mode: interval == nil ? .full : .timelapse,
                     intervalSeconds: interval, filePath: "/home/me/Videos/reel \(n)/a\"b\\c.mp4", thumbnailPath: n % 2 == 0 ? "/v/\(n).jpg" : nil,
                     faceTrackPath: nil, title: title, tags: tags, recovered: n == 3, load: load)
    }

    @Test("the hand-written JSON is the JSONEncoder's, value for value: escapes, control characters, non-ASCII, nulls, fractions, load")
    func writerMatchesTheEncoder() throws {
        let sessions = [
            Self.session(0, title: "Chemistry", tags: ["exam"], load: nil, interval: 5),
            Self.session(1, title: "Quotes \" and \\ and </script> & <b>", tags: [], load: RecordingLoad(cpuShare: 0.5, peakCelsius: nil, easedSeconds: 10.5,
                                                                                                              reducedSeconds: 0, reasons: ["heat", "cpu"]), interval: nil),
            Self.session(2, title: "tab\there\nline\u{1}\u{1F}\u{7F} 日本語 🎓", tags: ["a/b", "ünï"], load: nil, interval: 0.3),
            Self.session(3, title: nil, tags: ["x", "y", "z"], load: RecordingLoad(cpuShare: nil, peakCelsius: 71.25, easedSeconds: 0, reducedSeconds: 2,
                                                                                    reasons: []), interval: 1e-3),
        ]
        let written = StudySessionJSONWriter.array(sessions)
        let encoded = try StudySessionJSON.text(sessions, pretty: false)
        let fast = try JSONSerialization.jsonObject(with: Data(written)) as? NSArray
        let slow = try JSONSerialization.jsonObject(with: Data(encoded.utf8)) as? NSArray
        #expect(fast != nil && fast == slow, "\(String(decoding: written, as: UTF8.self))\nvs\n\(encoded)")
        #expect(String(decoding: written, as: UTF8.self).contains(#""activeSeconds":3000,"#), "a whole number without a fraction")
        #expect(String(decoding: StudySessionJSONWriter.array([]), as: UTF8.self) == "[]")
    }
}
