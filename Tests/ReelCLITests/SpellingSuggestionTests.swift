@testable import ReelCLI
import Testing

@Suite struct SpellingSuggestionTests {
    @Test func editDistance() {
        func distance(_ a: String, _ b: String) -> Int {
            SpellingSuggestion.editDistance(Array(a), Array(b))
        }
        #expect(distance("", "abc") == 3)
        #expect(distance("quality", "quality") == 0)
        #expect(distance("qualty", "quality") == 1)
        #expect(distance("qaulity", "quality") == 1)
        #expect(distance("kitten", "sitting") == 3)
    }

    @Test func nearest() {
        let names = ["source", "origin", "quality", "duration", "dry-run", "help"]
        #expect(SpellingSuggestion.nearest(to: "orign", in: names) == "origin")
        #expect(SpellingSuggestion.nearest(to: "d", in: names) == nil)          // too short to be a prefix hint
        #expect(SpellingSuggestion.nearest(to: "du", in: names) == "duration")  // the only name it begins
        #expect(SpellingSuggestion.nearest(to: "src", in: names) == nil)        // too far
        #expect(SpellingSuggestion.nearest(to: "", in: names) == nil)
    }

    @Test func tiesGoToTheFirstListed() {
        #expect(SpellingSuggestion.nearest(to: "hat", in: ["bat", "cat"]) == "bat")
    }
}
