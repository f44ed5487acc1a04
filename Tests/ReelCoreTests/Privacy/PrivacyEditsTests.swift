import Foundation
import Testing
import ReelCore

@Suite("Review edits and segment summaries")
struct PrivacyEditsTests {
    private let boxes = [
        FaceBox(segment: 0, kind: .face, box: rect(0.4, 0.2, 0.2, 0.3)),
        FaceBox(segment: 1, kind: .upperBody, box: rect(0.1, 0.1, 0.2, 0.2)),
        FaceBox(subject: 1, segment: 1, kind: .face, box: rect(0.6, 0.6, 0.2, 0.2)),
    ]

    private func track() -> FaceTrack {
        FaceTrack(samples: [
            FaceTrackSample(time: ms(0), segment: 0, kind: .defaultRegion, box: rect(0.15, 0, 0.7, 0.45)),
            FaceTrackSample(time: ms(200), segment: 0, kind: .defaultRegion, box: rect(0.15, 0, 0.7, 0.45)),
            FaceTrackSample(time: ms(400), segment: 1, kind: .face, box: rect(0.4, 0.2, 0.1, 0.2)),
            FaceTrackSample(time: ms(600), segment: 1, kind: .face, box: rect(0.5, 0.2, 0.1, 0.2)),
            FaceTrackSample(time: ms(800), segment: 1, kind: .face, box: rect(0.6, 0.2, 0.1, 0.4)),
            FaceTrackSample(time: ms(1_000), segment: 2, kind: .widenedFace, box: rect(0.5, 0.2, 0.3, 0.4)),
        ])
    }

    @Test("no edits: every box is a mosaic region, unchanged")
    func noEdits() {
        #expect(PrivacyEdits().regions(for: boxes) == boxes.map { PrivacyRegion(box: $0.box, treatment: .mosaic) })
    }

    @Test("an offset, a scale about the centre, a stamp or a disable touch only the named segment of the named subject")
    func editsTouchOnlyTheirSegment() throws {
        var edits = PrivacyEdits()
        try edits.apply(.offset(dx: 0.05, dy: -0.1), to: FaceSegmentID(segment: 1))
        var regions = edits.regions(for: boxes)
        #expect(regions[0] == PrivacyRegion(box: boxes[0].box, treatment: .mosaic))
        expectClose(regions[1].box, rect(0.15, 0.0, 0.2, 0.2))
        #expect(regions[2] == PrivacyRegion(box: boxes[2].box, treatment: .mosaic), "subject 1's segment 1 is another segment")

        try edits.apply(.scale(1.5), to: FaceSegmentID(segment: 0))
        regions = edits.regions(for: boxes)
        expectClose(regions[0].box, rect(0.35, 0.125, 0.3, 0.45))  // same centre (0.5, 0.35)
        expectClose(regions[1].box, rect(0.15, 0.0, 0.2, 0.2), tolerance: 1e-12)

        try edits.apply(.stamp("stamps/cat.png"), to: FaceSegmentID(subject: 1, segment: 1))
        try edits.apply(.disable, to: FaceSegmentID(segment: 0))
        regions = edits.regions(for: boxes)
        #expect(regions.count == 2, "the disabled segment gives no region")
        #expect(regions[1] == PrivacyRegion(box: boxes[2].box, treatment: .stamp("stamps/cat.png")))
        try edits.apply(.enable, to: FaceSegmentID(segment: 0))
        expectClose(edits.regions(for: boxes)[0].box, rect(0.35, 0.125, 0.3, 0.45))
        #expect(edits.edit(for: FaceSegmentID(segment: 0)).scale == 1.5, "enable keeps the other edits")
        try edits.apply(.removeStamp, to: FaceSegmentID(subject: 1, segment: 1))
        #expect(edits.regions(for: boxes)[2].treatment == .mosaic)
    }

    @Test("edited boxes keep their shape partly outside the picture; a box moved wholly out gives no region")
    func editsAtTheEdge() throws {
        var edits = PrivacyEdits()
        try edits.apply(.offset(dx: -0.45, dy: 0), to: FaceSegmentID(segment: 0))
        expectClose(edits.regions(for: [boxes[0]]).first?.box, rect(-0.05, 0.2, 0.2, 0.3))
        try edits.apply(.offset(dx: -0.65, dy: 0), to: FaceSegmentID(segment: 0))
        #expect(edits.regions(for: [boxes[0]]).isEmpty, "x -0.25 … -0.05: nothing left in the picture")
    }

    @Test("the raw track is never changed; regions come from the interpolated boxes plus the edits")
    func rawTrackUntouched() throws {
        let track = track()
        let before = try track.jsonData()
        var edits = PrivacyEdits()
        try edits.apply(.offset(dx: 0.1, dy: 0), to: FaceSegmentID(segment: 1), in: track)
        try edits.apply(.disable, to: FaceSegmentID(segment: 2), in: track)
        let timeline = FaceTrackTimeline(track)
        expectClose(edits.regions(at: ms(500), in: timeline).first?.box, rect(0.55, 0.2, 0.1, 0.2))
        #expect(edits.regions(at: ms(900), in: timeline).count == 1, "between segments 1 and 2: only segment 1, segment 2 is disabled")
        #expect(edits.regions(at: ms(1_000), in: timeline).isEmpty)
        #expect(try track.jsonData() == before)
        #expect(timeline.boxes(at: ms(500)).first?.box == rect(0.45, 0.2, 0.1, 0.2))
    }

    @Test("bad changes are refused with what to give instead; unknown segments list the known ones")
    func badChanges() {
        var edits = PrivacyEdits()
        let id = FaceSegmentID(segment: 1)
        #expect(throws: PrivacyEdits.Error.badScale(0)) { try edits.apply(.scale(0), to: id) }
        #expect(throws: PrivacyEdits.Error.badScale(11)) { try edits.apply(.scale(11), to: id) }
        #expect(throws: PrivacyEdits.Error.self) { try edits.apply(.scale(.nan), to: id) }
        #expect(throws: PrivacyEdits.Error.badOffset(dx: 1.5, dy: 0)) { try edits.apply(.offset(dx: 1.5, dy: 0), to: id) }
        #expect(throws: PrivacyEdits.Error.emptyStamp) { try edits.apply(.stamp("  "), to: id) }
        #expect(edits == PrivacyEdits(), "a refused change leaves the edits as they were")
        #expect(PrivacyEdits.Error.badScale(0).description.contains("between 0.1 and 10"))
        let unknown = #expect(throws: PrivacyEdits.Error.self) {
            try edits.apply(.disable, to: FaceSegmentID(segment: 7), in: track())
        }
        #expect(unknown == .unknownSegment(FaceSegmentID(segment: 7), known: [0, 1, 2].map { FaceSegmentID(segment: $0) }))
        #expect(unknown?.description == "there is no segment 7; the segments are 0, 1, 2 (see reel review)")
        #expect(throws: PrivacyEdits.Error.unknownSegment(FaceSegmentID(subject: 1, segment: 1), known: [0, 1, 2].map { FaceSegmentID(segment: $0) })) {
            try edits.apply(.disable, to: FaceSegmentID(subject: 1, segment: 1), in: track())
        }
    }

    @Test("stored as compact versioned JSON holding only the edits; reads back equal")
    func roundTrip() throws {
        var edits = PrivacyEdits()
        try edits.apply(.offset(dx: 0.02, dy: -0.01), to: FaceSegmentID(segment: 3))
        try edits.apply(.disable, to: FaceSegmentID(segment: 5))
        try edits.apply(.scale(1.25), to: FaceSegmentID(subject: 2, segment: 4))
        try edits.apply(.stamp("/home/me/ねこ.png"), to: FaceSegmentID(subject: 2, segment: 4))
        try edits.apply(.disable, to: FaceSegmentID(segment: 6))
        try edits.apply(.enable, to: FaceSegmentID(segment: 6))  // back to no edit: not stored
        let json = String(decoding: try edits.jsonData(), as: UTF8.self)
        #expect(json == #"{"segments":[{"dx":0.02,"dy":-0.01,"segment":3,"subject":0},{"scale":1.25,"segment":4,"stamp":"/home/me/ねこ.png","subject":2},{"disabled":true,"segment":5,"subject":0}],"version":1}"#)
        #expect(try PrivacyEdits.decode(json: Data(json.utf8)) == edits)
        try edits.apply(.reset, to: FaceSegmentID(segment: 3))
        #expect(edits.segments.count == 2)
        #expect(String(decoding: try PrivacyEdits().jsonData(), as: UTF8.self) == #"{"segments":[],"version":1}"#)
    }

    @Test("damaged or newer edit files are refused with the reason")
    func badFiles() {
        func decode(_ json: String) throws { _ = try PrivacyEdits.decode(json: Data(json.utf8)) }
        #expect(throws: PrivacyEdits.Error.unsupportedVersion(2)) { try decode(#"{"segments":[],"version":2}"#) }
        #expect(throws: PrivacyEdits.Error.badEntry(index: 1, reason: "segment 3 is listed twice")) {
            try decode(#"{"segments":[{"segment":3,"subject":0,"disabled":true},{"segment":3,"subject":0,"scale":2}],"version":1}"#)
        }
        #expect(throws: PrivacyEdits.Error.badEntry(index: 0, reason: "negative segment -1 or subject 0")) {
            try decode(#"{"segments":[{"segment":-1,"subject":0,"disabled":true}],"version":1}"#)
        }
        #expect(throws: PrivacyEdits.Error.badEntry(index: 0, reason: PrivacyEdits.Error.badScale(0).description)) {
            try decode(#"{"segments":[{"segment":1,"subject":0,"scale":0}],"version":1}"#)
        }
        #expect(throws: DecodingError.self) { try decode(#"{"segments":[{"subject":0}],"version":1}"#) }
    }

    @Test("segment summaries: one per segment in time order, with span, count, mean box and a middle sample")
    func summaries() {
        var samples = track().samples
        samples.append(FaceTrackSample(time: ms(400), segment: 3, kind: .face, box: rect(0.7, 0.1, 0.1, 0.1), subject: 1))
        let list = SegmentSummary.list(for: FaceTrack(samples: samples))
        #expect(list.map(\.id) == [FaceSegmentID(segment: 0), FaceSegmentID(segment: 1), FaceSegmentID(subject: 1, segment: 3),
                                   FaceSegmentID(segment: 2)])
        let face = list[1]
        #expect(face.kind == .face && face.start == ms(400) && face.end == ms(800) && face.sampleCount == 3)
        expectClose(face.meanBox, rect(0.5, 0.2, 0.1, 0.8 / 3))
        #expect(face.representativeTime == ms(600))
        #expect(list[0].representativeTime == ms(0), "two samples: the earlier of the two nearest the middle")
        #expect(list[3].start == ms(1_000) && list[3].end == ms(1_000) && list[3].kind == .widenedFace)
        #expect(SegmentSummary.list(for: FaceTrack()).isEmpty)
    }

    @Test("the review's rows: each segment with its recorded box at the representative time and its edit; keys sorted, nulls written")
    func reviewRows() throws {
        var edits = PrivacyEdits()
        try edits.apply(.offset(dx: 0.05, dy: 0), to: FaceSegmentID(segment: 1))
        try edits.apply(.stamp("/s/x.png"), to: FaceSegmentID(segment: 2))
        let rows = ReviewSegmentJSON.rows(track(), edits: edits, pictures: [FaceSegmentID(segment: 0): "/p/0.png"])
        #expect(rows.map(\.segment) == [0, 1, 2] && rows.map(\.kind) == ["top region", "face", "wider box"])
        #expect(rows[1].representative == 0.6 && rows[1].box == [0.5, 0.2, 0.1, 0.2], "the recorded box at 600 ms, not the mean")
        #expect(rows[1].offset == [0.05, 0] && rows[1].scale == 1 && !rows[1].disabled && rows[2].stamp == "/s/x.png")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(rows[1]), as: UTF8.self)
        #expect(text == #"{"box":[0.5,0.2,0.1,0.2],"disabled":false,"end":0.8,"kind":"face","meanBox":[0.5,0.20000000000000004,0.10000000000000002,0.26666666666666666],"#
                + #""offset":[0.05,0],"picture":null,"representative":0.6,"samples":3,"scale":1,"segment":1,"stamp":null,"start":0.4,"subject":0}"#,
                "\(text)")
        #expect(rows[0].picture == "/p/0.png")
    }
}
