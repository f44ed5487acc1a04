import Foundation
import ReelCore
import Testing

@Suite("Trashed session record")
struct TrashedSessionTests {
    /// Dates as the library hands them out: parsed from its millisecond text.
    static func day(_ text: String) -> Date {
        try! Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC")!).parse(text)
    }

    static let session = StudySession(
        id: UUID(uuidString: "0b8e4f2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b")!, startedAt: day("2026-11-02T10:00:00.125Z"),
        endedAt: day("2026-11-02T11:00:00.987Z"), activeSeconds: 3000.5, videoSeconds: 12, mode: .timelapse, intervalSeconds: 5,
        filePath: "/v/a.mp4", thumbnailPath: "/v/a.jpg", faceTrackPath: nil, title: "Chemistry", tags: ["exam", "week 1"])

    @Test("the record keeps the session's dates to the millisecond, so a session put back equals the one removed")
    func millisecondsSurvive() throws {
        let record = TrashedSession(session: Self.session, files: [.init(originalPath: "/v/a.mp4", trash: "/t", name: "a.mp4")])
        let data = try record.encoded()
        #expect(String(decoding: data, as: UTF8.self).contains("\"startedAt\" : \"2026-11-02T10:00:00.125Z\""))
        let back = try TrashedSession.decoded(data)
        #expect(back.session.startedAt == record.session.startedAt, "\(back.session.startedAt.timeIntervalSince1970) \(record.session.startedAt.timeIntervalSince1970)")
        #expect(back == record)
    }

    @Test("a record written before milliseconds were kept (whole seconds) is still read")
    func wholeSecondRecords() throws {
        let old = """
            {"files":[],"formatVersion":1,"session":{"activeSeconds":3000.5,"endedAt":"2026-11-02T11:00:00Z","id":"0B8E4F2A-1C3D-4E5F-8A9B-0C1D2E3F4A5B",
            "intervalSeconds":5,"filePath":"/v/a.mp4","mode":"timelapse","recovered":false,"startedAt":"2026-11-02T10:00:00Z","tags":[],"videoSeconds":12}}
            """
        let record = try TrashedSession.decoded(Data(old.utf8))
        #expect(record.session.startedAt == Date(timeIntervalSince1970: 1_793_613_600))
        #expect(throws: DecodingError.self) { try TrashedSession.decoded(Data(old.replacingOccurrences(of: "2026-11-02T10:00:00Z", with: "yesterday").utf8)) }
    }

    @Test("a date read from the library's text is written as the same text, every millisecond (nearest, not truncated)")
    func timestampsRoundTrip() {
        for millisecond in 0..<1000 {
            let text = "2026-11-02T11:59:59.\(String(millisecond + 1000).dropFirst())Z"
            #expect(StudySessionJSON.timestamp(Self.day(text)) == text)
        }
        #expect(StudySessionJSON.timestamp(Date(timeIntervalSince1970: 1_793_613_599.9996)) == "2026-11-02T10:00:00.000Z", "carries into the second")
        #expect(StudySessionJSON.timestamp(Date(timeIntervalSince1970: -0.0004)) == "1970-01-01T00:00:00.000Z")
        #expect(StudySessionJSON.timestamp(Date(timeIntervalSince1970: -1.5)) == "1969-12-31T23:59:58.500Z")
    }
}
