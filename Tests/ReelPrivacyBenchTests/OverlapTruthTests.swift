import Foundation
import ReelPrivacyBench
import ReelTestSupport
import Testing

/// The truth of faces that overlap (which head hides which face, and how much of it) and of the
/// head boxes coverage is measured against; the meter on made-up pictures with a hidden part.
@Suite struct OverlapTruthTests {
    static let overlapping: [PrivacyClips.Scenario] = [.passing, .passingTilted, .merging, .hidden, .smallCrossing]

    @Test("the overlap clips: two faces in every frame, the second head in front of the first")
    func theSecondHeadHidesTheFirst() {
        for scenario in Self.overlapping {
            let truth = PrivacyClips.truth(scenario, width: 1280, height: 720)
            #expect(truth.frames.count == 120 && truth.frames.allSatisfy { $0.faces.count == 2 }, "\(scenario)")
            // Only the face behind is hidden, by one head; it is partly hidden at some point and
            // whole at the start; only a passing head hides it wholly.
            let passes = scenario == .passing || scenario == .passingTilted
            for frame in truth.frames {
                #expect(frame.faces[0].hiddenBy?.count == 1 && frame.faces[1].hiddenBy == nil, "\(scenario) \(frame.index)")
                #expect(passes || (frame.faces[0].visibleShare ?? 0) >= 0.25, "\(scenario) \(frame.index)")
            }
            let least = truth.frames.map { $0.faces[0].visibleShare ?? 1 }.min() ?? 1
            #expect(least < 0.9, "\(scenario): the face behind is never hidden")
            #expect(truth.frames[0].faces[0].visibleShare == 1, "\(scenario) starts apart")
        }
        // The passing face hides the still one wholly midway (frame 50), half of it a quarter
        // of a second before; the merging hides three quarters, the half hidden about half.
        let passing = PrivacyClips.truth(.passing, width: 1280, height: 720).frames
        #expect((passing[50].faces[0].visibleShare ?? 1) < 0.01 && (passing[42].faces[0].visibleShare ?? 1) > 0.3)
        let half = PrivacyClips.truth(.hidden, width: 1280, height: 720).frames[60].faces[0].visibleShare ?? 1
        #expect(half > 0.45 && half < 0.6, "\(half)")
        let merged = PrivacyClips.truth(.merging, width: 1280, height: 720).frames[45].faces[0].visibleShare ?? 1
        #expect(merged > 0.2 && merged < 0.35, "\(merged)")
        // Rolled to 30° and at half brightness, that face alone, while it passes.
        let tilted = PrivacyClips.layers(.passingTilted, width: 1280, height: 720)
        #expect(abs(tilted[1].angle.value(atFrame: 60) - Double.pi / 6) < 1e-9 && tilted[0].angle.value(atFrame: 60) == 0)
        #expect(tilted[1].dims.contains { $0.frames.contains(60) && $0.factor == 0.5 } && tilted[0].dims.isEmpty)
        #expect(PrivacyClips.filterGraph(.passingTilted, width: 1280, height: 720).contains("colorchannelmixer=rr=0.5"))
        // The small face is 35 px tall and crosses the large one's face.
        let small = PrivacyClips.truth(.smallCrossing, width: 1280, height: 720).frames[60].faces
        #expect(abs(small[1].height - 35) < 0.6 && small[0].box.intersectionOverUnion(small[1].box) > 0)
    }

    @Test("the head box: the photo's head placed with the face, whole when turned, rolled, cut by the edge")
    func headBoxes() throws {
        let single = PrivacyClips.truth(.single, width: 1280, height: 720).frames[0].faces[0]
        let head = try #require(single.head)
        // 154 × 174 photo pixels at 1.5×, round the face (its box inside the head's).
        #expect(abs(head.width - 231) < 0.01 && abs(head.height - 261) < 0.01)
        #expect(head.x < single.box.x && head.y < single.box.y)
        #expect(head.x + head.width > single.box.x + single.box.width && head.y + head.height > single.box.y + single.box.height)
        // Turned to 80°: the face is a strip, the head box as wide as the upright one's.
        let profile = PrivacyClips.truth(.profile, width: 1280, height: 720)
        let turned = profile.frames[45].faces[0], front = profile.frames[0].faces[0]
        #expect(turned.width < 0.3 * front.width)
        #expect(abs((turned.head?.width ?? 0) - (front.head?.width ?? 0)) < 0.01)
        // Rolled 45°: the bounding box of the rolled head, (w + h) / √2 each way.
        let rolled = try #require(PrivacyClips.truth(.roll, width: 1280, height: 720).frames[45].faces[0].head)
        #expect(abs(rolled.width - (231 + 261) / 2.0.squareRoot()) < 0.01)
        // Out of the edge: clipped to the picture.
        for frame in PrivacyClips.truth(.edges, width: 1280, height: 720).frames {
            for face in frame.faces {
                let h = try #require(face.head)
                #expect(h.x >= 0 && h.y >= 0 && h.x + h.width <= 1280 && h.y + h.height <= 720)
            }
        }
    }

    /// A 200 × 160 noise picture with a face whose right half a silhouette hides.
    static func hiddenHalf(share: Double = 0.5) -> (source: [UInt8], face: TruthFace) {
        var rng = SplitMix64(seed: 9)
        let source = (0..<(200 * 160)).map { _ in UInt8(truncatingIfNeeded: rng.next() % 200 + 20) }
        var face = TruthFace(layer: 0, centerX: 100, centerY: 80, width: 40, height: 50, angle: 0, frameWidth: 200, frameHeight: 160)
        face.hiddenBy = [TruthFace.Silhouette(centerX: 200, centerY: 80, radiusX: 100, radiusY: 1000, angle: 0)]
        face.visibleShare = share
        face.head = PixelBox(x: 70, y: 40, width: 60, height: 80)
        return (source, face)
    }

    @Test("the meter looks only at the visible part of a face behind another head")
    func onlyTheVisiblePartIsMeasured() {
        let (source, face) = Self.hiddenHalf()
        #expect(abs(face.measuredVisibleShare() - 0.5) < 0.03)
        // The hidden half changed, the visible half untouched: the face shows.
        var hiddenChanged = source
        for y in 0..<160 { for x in 100..<200 { hiddenChanged[y * 200 + x] = 128 } }
        let shown = FrameMeasure().measure(source: source, export: hiddenChanged, width: 200, height: 160, faces: [face])
        #expect(shown.faces[0].leaked && shown.faces[0].measured)
        // The visible half covered, the hidden half untouched: nothing a viewer can see.
        var visibleCovered = source
        for y in 0..<160 { for x in 0..<100 { visibleCovered[y * 200 + x] = 128 } }
        let covered = FrameMeasure().measure(source: source, export: visibleCovered, width: 200, height: 160, faces: [face])
        #expect(!covered.faces[0].leaked, "\(covered.faces[0])")
        // Less than a fifth visible: not measured, never a leak.
        let (_, mostlyHidden) = Self.hiddenHalf(share: 0.1)
        let unseen = FrameMeasure().measure(source: source, export: source, width: 200, height: 160, faces: [mostlyHidden])
        #expect(!unseen.faces[0].measured && !unseen.faces[0].leaked)
    }

    @Test("coverage against the head: changed area over the head box")
    func headCoverage() {
        let (source, face) = Self.hiddenHalf()
        var export = source
        // Exactly the head box flattened: coverage 1 against the head (give or take the 7 × 7 smoothing).
        for y in 40..<120 { for x in 70..<130 { export[y * 200 + x] = 128 } }
        let result = FrameMeasure().measure(source: source, export: export, width: 200, height: 160, faces: [face])
        #expect(result.headArea == 60 * 80)
        #expect(abs(result.headCoverage - 1) < 0.2, "\(result.headCoverage)")
        #expect(abs(result.coverage - 4800.0 / 2000) < 0.5, "\(result.coverage)")
    }
}
