import Foundation
import ReelCore
import Testing

@Suite("Recording output: claimed names, identity, placement")
struct RecordingOutputTests {
    let id = UUID(uuidString: "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0")!
    let other = UUID(uuidString: "11111111-2222-3333-4444-555555555555")!

    @Test("numbered names go before the extension; 1 is the name itself")
    func candidates() {
        #expect(RecordingOutput.candidate("/s/today.mp4", number: 1) == "/s/today.mp4")
        #expect(RecordingOutput.candidate("/s/today.mp4", number: 2) == "/s/today-2.mp4")
        #expect(RecordingOutput.candidate("/s/reel-20261201-152233-full.mp4", number: 3) == "/s/reel-20261201-152233-full-3.mp4")
        #expect(RecordingOutput.candidate("/s.d/today", number: 2) == "/s.d/today-2", "a dot in a folder is not an extension")
        #expect(RecordingOutput.candidate("/s/.mp4", number: 2) == "/s/.mp4-2")
    }

    @Test("a placeholder is this session's only with its exact text; another session's is recognised as a placeholder but not ours")
    func placeholderIdentity() {
        let ours = Data(RecordingOutput.placeholderText(id: id).utf8)
        #expect(RecordingOutput.isPlaceholder(ours, of: id))
        #expect(!RecordingOutput.isPlaceholder(ours, of: other))
        #expect(RecordingOutput.looksLikePlaceholder(Data(RecordingOutput.placeholderText(id: other).utf8)))
        #expect(!RecordingOutput.isPlaceholder(Data(), of: id), "an empty file is nobody's placeholder")
        #expect(!RecordingOutput.isPlaceholder(ours + Data("x".utf8), of: id))
        #expect(RecordingOutput.placeholderText(id: id).contains("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"))
        #expect(RecordingOutput.videoStamp(id: id) != RecordingOutput.videoStamp(id: other))
    }

    @Test("placement: own placeholder replaced, own video kept, a free name claimed, another file never taken")
    func placement() {
        let path = "/s/today.mp4"
        func decide(_ occupants: [String: RecordingOutput.Occupant]) -> RecordingOutput.Placement {
            RecordingOutput.placement(for: path) { occupants[$0] ?? .nothing }
        }
        #expect(decide([path: .ownPlaceholder]) == .place(path, claimFirst: false), "crashed while recording: replace our placeholder")
        #expect(decide([:]) == .place(path, claimFirst: true), "placeholder removed meanwhile: claim the free name again")
        #expect(decide([path: .ownVideo]) == .alreadyPlaced(path), "crashed after the rename: never remade")
        #expect(decide([path: .other]) == .place("/s/today-2.mp4", claimFirst: true), "another recording's file: a new name")
        #expect(decide([path: .other, "/s/today-2.mp4": .other, "/s/today-3.mp4": .ownPlaceholder])
                == .place("/s/today-3.mp4", claimFirst: false), "a previous recovery claimed -3 and crashed")
        #expect(decide([path: .other, "/s/today-2.mp4": .ownVideo]) == .alreadyPlaced("/s/today-2.mp4"),
                "a previous recovery placed it at -2: idempotent")
        var asked: [String] = []
        _ = RecordingOutput.placement(for: path) { asked.append($0); return $0 == path ? .other : .nothing }
        #expect(asked == [path, "/s/today-2.mp4"], "candidates are looked at only as far as needed")
        #expect(RecordingOutput.placement(for: path) { _ in .other } == .noFreeName)
    }
}
