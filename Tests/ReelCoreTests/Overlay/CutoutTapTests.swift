import Testing
@testable import ReelCore

@Suite("Cut-out: whose face a tap on a body belongs to")
struct CutoutTapTests {
    /// A face 0.1 wide and high with its middle at (0.5, 0.3).
    let face = NormalizedRect(x: 0.45, y: 0.25, width: 0.1, height: 0.1)

    @Test("a tap on the chest under a face belongs to it; in the face too")
    func chest() {
        #expect(CutoutTap.face(at: 0.5, 0.6, among: [face]) == 0)
        #expect(CutoutTap.face(at: 0.52, 0.28, among: [face]) == 0)
    }

    @Test("above the face, too far to the side or too far down: no face")
    func outside() {
        #expect(CutoutTap.face(at: 0.5, 0.1, among: [face]) == nil)
        // 2 face widths to the side is the limit: 0.5 ± 0.2.
        #expect(CutoutTap.face(at: 0.69, 0.5, among: [face]) == 0)
        #expect(CutoutTap.face(at: 0.71, 0.5, among: [face]) == nil)
        #expect(CutoutTap.face(at: 0.29, 0.5, among: [face]) == nil)
        // 8 face heights below its middle is the limit: 0.3 + 0.8.
        let small = NormalizedRect(x: 0.48, y: 0.08, width: 0.04, height: 0.04)
        #expect(CutoutTap.face(at: 0.5, 0.41, among: [small]) == 0)
        #expect(CutoutTap.face(at: 0.5, 0.43, among: [small]) == nil)
    }

    @Test("of several, the nearest body wins: the face above the point over a bigger one beside it")
    func nearest() {
        let big = NormalizedRect(x: 0.52, y: 0.02, width: 0.2, height: 0.2)
        let own = NormalizedRect(x: 0.41, y: 0.37, width: 0.08, height: 0.08)
        #expect(CutoutTap.face(at: 0.45, 0.62, among: [big, own]) == 1)
        #expect(CutoutTap.face(at: 0.45, 0.62, among: [own, big]) == 0)
        #expect(CutoutTap.face(at: 0.5, 0.5, among: []) == nil)
        #expect(CutoutTap.face(at: 0.5, 0.5, among: [NormalizedRect(x: 0.5, y: 0.2, width: 0, height: 0.1)]) == nil)
    }
}
