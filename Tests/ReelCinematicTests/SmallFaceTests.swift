import Foundation
import ReelCinematic
import ReelCore
import ReelTestSupport
import Testing

/// A small, far face: the astronaut scaled to 120 px (her face's box about 19 px wide, 28 px at
/// 1080p) standing still at the top right of a 1280x720 noise picture. The usual pass (the
/// picture shrunk to 320 wide: the box 5 px) cannot find it; the finer look (``SmallFaceLook``)
/// can.
@Suite("Small far faces: found by the finer look, one id throughout")
struct SmallFaceTests {
    /// The face's middle (normalized): the photo's face middle at (225, 128) of 512, at 120/512 from (1100, 60).
    static let face = (x: (1100 + 225.0 * 120 / 512) / 1280, y: (60 + 128.0 * 120 / 512) / 720)

    @Test("--fast on a 2 s clip: the 19 px face is a subject in at least 18 of the 20 pictures (the first detection searches the whole picture), always the same id")
    func found() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let scene = folder.path("far.mp4"), output = folder.path("out.mp4")
        let filter = "color=c=gray:s=1280x720:r=10:d=2,noise=alls=30:all_seed=3[bg];[0:v]scale=120:120[small];"
            + "[bg][small]overlay=1100:60:shortest=1,format=yuv420p"
        let make = try Subprocess.run("ffmpeg", ["-loglevel", "error", "-y", "-loop", "1", "-i", TestPhotos.astronautPath,
                                                 "-filter_complex", filter, "-frames:v", "20", "-c:v", "libx264", "-qp", "0", "-preset", "ultrafast", scene])
        try #require(make.status == 0, "ffmpeg: \(make.stderr)")
        let run = try ReelBinary.run(["cinematic", "--source", "file:" + scene, "--output", output, "--fast", "--editable", "--quiet"], input: "")
        try #require(run.status == 0, "reel cinematic: \(run.stderr)")
        let records = try CinematicSidecarFile(video: output).records
        #expect(records.count == 20)
        let ids = records.map { entry in
            entry.record.subjects.map(\.subject).first { $0.kind == .face && $0.bounds.contains(x: Self.face.x, y: Self.face.y) }?.id
        }
        let seen = ids.compactMap { $0 }
        #expect(seen.count >= 18, "the far face was a subject in \(seen.count) of 20 pictures: \(ids)")
        #expect(Set(seen).count == 1, "its ids: \(ids)")
        let box = try #require(records.last?.record.subjects.map(\.subject).first { $0.id == seen.first })
        #expect(box.bounds.width * 1280 < 60, "a small face's box: \(box.bounds)")
    }
}
