import Foundation
import ReelCinematic
import ReelCore
import ReelMedia
import ReelTestSupport
import Testing

/// Tracking between detections: the detectors run every 0.2 s; between them the subjects' boxes
/// follow the picture's optical flow, so the layers of a person who moves keep up with them.
@Suite("Cinematic camera: the subjects followed between detections")
struct CinematicTrackingTests {
    static let width = 1280, height = 720, side = 600
    /// The astronaut's horizontal speed, pixels a second.
    static let speed = 450.0

    @Test("a person moving 450 px/s: between detections the face box moves with them (within 3 px of the truth's motion; held still it would lag up to 75 px)")
    func movingFace() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let path = folder.path("moving.mp4")
        let filter = "color=c=gray:s=\(Self.width)x\(Self.height):r=30:d=1,noise=alls=40:all_seed=7[bg];"
            + "[0:v]scale=\(Self.side):\(Self.side)[person];[bg][person]overlay=x='100+\(Int(Self.speed))*t':y=60:shortest=1,format=yuv420p"
        let made = try Subprocess.run("ffmpeg", ["-loglevel", "error", "-y", "-loop", "1", "-i", TestPhotos.astronautPath, "-filter_complex", filter,
                                                 "-frames:v", "30", "-c:v", "libx264", "-qp", "0", "-preset", "ultrafast", path])
        try #require(made.status == 0, "ffmpeg: \(made.stderr)")
        let reader = try VideoFileReader(path: path)
        let camera = try CinematicCamera(vision: try CinematicVision(models: .current()), aperture: try Aperture(fNumber: 2))
        let converter = PictureConverter(width: Self.width, height: Self.height)
        var centres: [(time: Double, x: Double)] = []
        try reader.forEachFrame { decoded in
            let frame = try camera.process(try converter.convert(decoded))
            if let face = frame.subjects.first(where: { $0.kind == .face }) {
                centres.append((frame.time.seconds, (face.bounds.x + face.bounds.width / 2) * Double(Self.width)))
            }
            return true
        }
        try #require(centres.count >= 28, "the face found in \(centres.count) of 30 pictures")
        // From each detection (every 0.2 s), the box's motion against the person's.
        let start = centres[0].time
        var worst = 0.0, heldWorst = 0.0, followed = 0
        var anchor = centres[0]
        for centre in centres.dropFirst() {
            let step = Int(((centre.time - start) * 30).rounded())
            if step % 6 == 0 { anchor = centre; continue }
            let truth = Self.speed * (centre.time - anchor.time)
            worst = max(worst, abs((centre.x - anchor.x) - truth))
            heldWorst = max(heldWorst, truth)
            followed += 1
        }
        #expect(followed >= 20)
        #expect(heldWorst > 50, "the scene moves enough to matter: \(heldWorst) px")
        #expect(worst <= 3, "the box's motion is within \(worst) px of the person's")
    }
}
