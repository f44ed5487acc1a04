import Testing
import ReelCore

@Suite("Counted: a number with its noun, singular for one")
struct CountedTests {
    @Test("0, 1, 2 sessions; a noun of several words; an irregular plural")
    func nouns() {
        #expect(Counted.noun(0, "session") == "0 sessions")
        #expect(Counted.noun(1, "session") == "1 session")
        #expect(Counted.noun(2, "session") == "2 sessions")
        #expect(Counted.noun(1, "media file") == "1 media file" && Counted.noun(6, "media file") == "6 media files")
        #expect(Counted.noun(2, "person", plural: "people") == "2 people" && Counted.noun(1, "person", plural: "people") == "1 person")
    }
}
