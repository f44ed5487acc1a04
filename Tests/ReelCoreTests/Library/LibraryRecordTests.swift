import Foundation
import ReelCore
import Testing

@Suite("Library records: ISBN, tags, goals, materials, session lookup")
struct LibraryRecordTests {
    @Test("ISBN-13: hyphens and spaces ignored; check digit, length and the 978/979 prefix checked")
    func isbn() throws {
        #expect(try ISBN.validate("978-0-306-40615-7") == "9780306406157")
        #expect(try ISBN.validate("979 10 90636 07 1") == "9791090636071")
        #expect(throws: ISBN.Error.wrongCheckDigit("9780306406158", expected: 7)) { try ISBN.validate("9780306406158") }
        #expect(throws: ISBN.Error.notThirteenDigits("0-306-40615-2")) { try ISBN.validate("0-306-40615-2") }
        #expect(throws: ISBN.Error.notThirteenDigits("978030640615X")) { try ISBN.validate("978030640615X") }
        #expect(throws: ISBN.Error.notThirteenDigits("")) { try ISBN.validate("") }
        // A valid EAN-13 of a grocery product is not a book.
        #expect(throws: ISBN.Error.notABook("4006381333931")) { try ISBN.validate("4006381333931") }
        #expect(ISBN.checkDigit([9, 7, 8, 0, 3, 0, 6, 4, 0, 6, 1, 5]) == 7)
        #expect(ISBN.checkDigit([9, 7, 8, 4, 0, 0, 0, 0, 0, 0, 0, 0]) == (10 - (9 + 21 + 8 + 12) % 10) % 10)
        // Every wrong last digit is caught.
        for digit in 0...9 where digit != 7 {
            #expect(throws: ISBN.Error.self) { try ISBN.validate("978030640615\(digit)") }
        }
    }

    @Test("tag names: trimmed; empty, over-long, comma or control characters refused; spelling kept")
    func tags() throws {
        #expect(try Tag("  Exam ").name == "Exam")
        #expect(try Tag("化学").name == "化学")
        #expect(throws: Tag.Error.empty) { try Tag("   ") }
        #expect(throws: Tag.Error.forbiddenCharacter("a,b")) { try Tag("a,b") }
        #expect(throws: Tag.Error.forbiddenCharacter("a\u{7}b")) { try Tag("a\u{7}b") }
        #expect(throws: Tag.Error.self) { try Tag(String(repeating: "x", count: 65)) }
        #expect(try Tag(String(repeating: "x", count: 64)).name.count == 64)
    }

    @Test("the goal in force: that date's, else the latest earlier one, else none; 0 means none")
    func goalInForce() throws {
        let goals = [try DailyGoal(date: CalendarDay("2026-11-10"), minutes: 60),
                     try DailyGoal(date: CalendarDay("2026-11-01"), minutes: 90),
                     try DailyGoal(date: CalendarDay("2026-11-20"), minutes: 0),
                     try DailyGoal(date: CalendarDay("2026-11-25"), minutes: 120)]
        func goal(_ day: String) throws -> Int? { DailyGoal.inForce(on: try CalendarDay(day), among: goals) }
        #expect(try goal("2026-10-31") == nil)
        #expect(try goal("2026-11-01") == 90)
        #expect(try goal("2026-11-09") == 90)
        #expect(try goal("2026-11-10") == 60)
        #expect(try goal("2026-11-19") == 60)
        #expect(try goal("2026-11-20") == nil)
        #expect(try goal("2026-11-24") == nil)
        #expect(try goal("2027-06-01") == 120)
        #expect(throws: DailyGoal.Error.minutesOutOfRange(1441)) { try DailyGoal(date: CalendarDay("2026-11-01"), minutes: 1441) }
        #expect(throws: DailyGoal.Error.minutesOutOfRange(-1)) { try DailyGoal(date: CalendarDay("2026-11-01"), minutes: -1) }
    }

    @Test("a material: ISBN normalised and checked, texts trimmed, empty ones absent, a title required")
    func material() throws {
        let m = try StudyMaterial(isbn: "978-0-306-40615-7", title: " Signals ", author: "", publisher: " Plenum ", addedAt: Date(timeIntervalSince1970: 0))
        #expect(m.isbn == "9780306406157" && m.title == "Signals" && m.author == nil && m.publisher == "Plenum" && m.coverPath == nil)
        #expect(try StudyMaterial(isbn: "  ", title: "Notes", addedAt: Date()).isbn == nil)
        #expect(throws: StudyMaterial.Error.emptyTitle) { try StudyMaterial(isbn: nil, title: "  ", addedAt: Date()) }
        #expect(throws: ISBN.Error.wrongCheckDigit("9780306406150", expected: 7)) { try StudyMaterial(isbn: "9780306406150", title: "x", addedAt: Date()) }
    }

    @Test("a session is found by 'last' or a unique id prefix of 4+ characters, in any case")
    func lookup() throws {
        func session(_ id: String, start: Double) -> StudySession {
            StudySession(id: UUID(uuidString: id)!, startedAt: Date(timeIntervalSince1970: start), endedAt: Date(timeIntervalSince1970: start + 60),
                         activeSeconds: 60, videoSeconds: 6, mode: .full, intervalSeconds: nil, filePath: "/v.mp4", thumbnailPath: nil,
                         faceTrackPath: nil, title: nil, tags: [])
        }
        let a = session("ABCD1111-0000-0000-0000-000000000001", start: 200)
        let b = session("abcd2222-0000-0000-0000-000000000002", start: 100)
        let c = session("ffff0000-0000-0000-0000-000000000003", start: 50)
        let all = [a, b, c]
        #expect(try StudySession.find("last", in: all) == a)
        #expect(try StudySession.find("ABCD2", in: all) == b)
        #expect(try StudySession.find("ffff", in: all) == c)
        #expect(throws: StudySession.LookupError.ambiguous("abcd", count: 2)) { try StudySession.find("abcd", in: all) }
        #expect(throws: StudySession.LookupError.tooShort("ffa")) { try StudySession.find("ffa", in: all) }
        #expect(throws: StudySession.LookupError.notAnID("30ez")) { try StudySession.find("30ez", in: all) }
        #expect(throws: StudySession.LookupError.tooShort("30e")) { try StudySession.checkReference("30e") }
        try StudySession.checkReference("0B8E-2a1c")
        #expect(throws: StudySession.LookupError.noMatch("1234")) { try StudySession.find("1234", in: all) }
        #expect(throws: StudySession.LookupError.noSessions) { try StudySession.find("last", in: []) }
    }
}
