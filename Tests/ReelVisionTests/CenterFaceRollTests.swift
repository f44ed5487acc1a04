import Foundation
import ReelCore
import ReelTestSupport
import ReelVision
import Testing

/// CenterFace's roll (``Detection/roll``, from the eyes) on the astronaut photo rotated about
/// its centre on the 1280 × 720 wall, as ``CenterFaceDetectorTests`` places it.
@Suite struct CenterFaceRollTests {
    /// Degrees clockwise on screen.
    @Test(arguments: [0.0, 30.0, -30.0, 45.0, -45.0])
    func rollFollowsTheEyes(degrees: Double) throws {
        let detector = try CenterFaceDetectorTests.detector()
        let photo = try TestPicture.astronaut()
        let canvas = CenterFaceDetectorTests.canvas(with: degrees == 0 ? photo : photo.rotated(degrees: degrees))
        let faces = try canvas.withDetectorPicture(.yuv420p) { try detector.detect($0) }
        let face = try #require(faces.first, "rotated \(degrees)°: no face")
        let roll = face.roll * 180 / .pi
        print("roll: rotated \(degrees)° → \(String(format: "%.1f", roll))° (score \(String(format: "%.2f", face.score)))")
        // Measured (input 320, unfused network): 3.1°, 24.5°, −20.0°, 28.8°, −36.2° for 0°, 30°,
        // −30°, 45°, −45°: the right sign always, upright within 5°, but CenterFace's landmarks
        // lean back toward an upright face, so large rolls read short by up to 16° (ONNX
        // Runtime gives the same: the network, not the decoding). The tracker's rolled box
        // (FaceTrackerSettings.expanded(face:)) has room for that: the ±45° clip leaks nowhere.
        if degrees == 0 { #expect(abs(roll) <= 5, "upright: roll \(roll)°") }
        else {
            #expect((roll > 0) == (degrees > 0), "sign: rotated \(degrees)°, roll \(roll)°")
            #expect(abs(roll - degrees) <= 17, "rotated \(degrees)°: roll \(roll)°")
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
