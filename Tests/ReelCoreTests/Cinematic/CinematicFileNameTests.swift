import Foundation
import ReelCore
import Testing

/// The names of the cinematic camera's clips and stills (``CinematicFileName``).
@Suite("Cinematic file names")
struct CinematicFileNameTests {
    @Test("a name is lowercase letters, digits and '-' before its own extension; nothing that could leave the folder")
    func validity() {
        for name in ["cinematic-20261203-101500.mp4", "cinematic-20261203-101500-2.mp4", "a.mp4"] {
            #expect(CinematicFileName.isValid(name, kind: .clip), "\(name)")
        }
        #expect(CinematicFileName.isValid("cinematic-20261203-101500.jpg", kind: .still))
        for name in [".mp4", "-a.mp4", "A.mp4", "a.jpg", "../a.mp4", "a/b.mp4", "%2e%2e.mp4", "a.mp4/", String(repeating: "a", count: 65) + ".mp4"] {
            #expect(!CinematicFileName.isValid(name, kind: .clip), "\(name)")
        }
    }

    @Test("a stem from the local time, numbered when taken; a refocus is named for its clip")
    func naming() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let date = try #require(calendar.date(from: DateComponents(year: 2026, month: 12, day: 3, hour: 10, minute: 15, second: 0)))
        let stem = CinematicFileName.stem(at: date, calendar: calendar)
        #expect(stem == "cinematic-20261203-101500")
        let taken: Set = ["\(stem).mp4", "\(stem)-2.mp4"]
        #expect(CinematicFileName.free(stem, kind: .clip) { taken.contains($0) } == "\(stem)-3.mp4")
        #expect(CinematicFileName.free(stem, kind: .still) { taken.contains($0) } == "\(stem).jpg")
        #expect(CinematicFileName.refocused("\(stem).mp4") { _ in false } == "\(stem)-refocused.mp4")
        #expect(CinematicFileName.refocused("\(stem)-refocused.mp4") { $0 == "\(stem)-refocused.mp4" } == "\(stem)-refocused-2.mp4")
    }
}
