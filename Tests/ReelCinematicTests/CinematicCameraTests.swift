import Foundation
import ReelCinematic
import ReelCore
import ReelMedia
import ReelTestSupport
import ReelVision
import Testing

/// The cinematic camera on a synthetic scene with known layers: the astronaut photo (a person,
/// 600 px tall) over a background of grey noise (every frequency, so blur is measurable), as a
/// 1280x720 H.264 file made by ffmpeg, decoded by Reel and processed picture by picture with
/// the real models (CenterFace, the selfie segmentation) and the real renderer.
@Suite("Cinematic camera: the face found and focused, its detail kept, the background blurred as the aperture says")
struct CinematicCameraTests {
    static let width = 1280, height = 720
    static let photo = (x: 340, y: 120, side: 600)

    /// The scene file: 1 s at 10 fps (the noise is the same in every picture).
    static func makeScene(in folder: TemporaryDirectory) throws -> String {
        let path = folder.path("scene.mp4")
        let filter = "color=c=gray:s=\(width)x\(height):r=10:d=1,noise=alls=40:all_seed=7[bg];"
            + "[0:v]scale=\(photo.side):\(photo.side)[person];[bg][person]overlay=\(photo.x):\(photo.y):shortest=1,format=yuv420p"
        let run = try Subprocess.run("ffmpeg", ["-loglevel", "error", "-y", "-loop", "1", "-i", TestPhotos.astronautPath, "-filter_complex", filter,
                                                "-frames:v", "10", "-c:v", "libx264", "-qp", "0", "-preset", "ultrafast", path])
        guard run.status == 0 else { throw TestFailure("ffmpeg could not make the scene: \(run.stderr)") }
        return path
    }

    struct TestFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Each picture's luma before and after, with what the camera reported.
    static func run(focus: FocusStart, aperture: Aperture) throws -> [(before: [UInt8], after: [UInt8], frame: CinematicFrame)] {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let reader = try VideoFileReader(path: try makeScene(in: folder))
        let camera = try CinematicCamera(vision: try CinematicVision(models: .current()), aperture: aperture, focus: focus)
        let converter = PictureConverter(width: width, height: height)
        var results: [(before: [UInt8], after: [UInt8], frame: CinematicFrame)] = []
        try reader.forEachFrame { decoded in
            let picture = try converter.convert(decoded)
            let before = try luma(of: picture)
            let frame = try camera.process(picture)
            results.append((before, try luma(of: picture), frame))
            return true
        }
        return results
    }

    static func luma(of frame: VideoFrame) throws -> [UInt8] {
        try frame.withWritablePlanes { planes in
            var out = [UInt8](repeating: 0, count: width * height)
            for y in 0..<height { for x in 0..<width { out[y * width + x] = planes[0].base[y * planes[0].stride + x] } }
            return out
        }
    }

    /// The spread of `values` in the rectangle, and the mean squared Laplacian (the detail).
    static func spread(_ values: [UInt8], x: Range<Int>, y: Range<Int>) -> Double {
        var sum = 0.0, squares = 0.0
        for row in y { for column in x { let v = Double(values[row * width + column]); sum += v; squares += v * v } }
        let count = Double(x.count * y.count), mean = sum / count
        return (squares / count - mean * mean).squareRoot()
    }

    static func detail(_ values: [UInt8], x: Range<Int>, y: Range<Int>) -> Double {
        var total = 0.0
        for row in y {
            for column in x {
                let i = row * width + column
                let l = 4 * Double(values[i]) - Double(values[i - 1]) - Double(values[i + 1]) - Double(values[i - width]) - Double(values[i + width])
                total += l * l
            }
        }
        return total / Double(x.count * y.count)
    }

    @Test("automatic focus: the face is subject 1 throughout, focused weakly; its detail is kept, the background's noise is left as the aperture says")
    func faceInFocus() throws {
        let aperture = try Aperture(fNumber: 2)
        let results = try Self.run(focus: .automatic, aperture: aperture)
        #expect(results.count == 10)
        for result in results {
            let faces = result.frame.subjects.filter { $0.kind == .face }
            #expect(faces.count == 1 && faces.first?.id == 1, "subjects at \(result.frame.time.seconds) s: \(result.frame.subjects)")
            #expect(result.frame.decision.mode == .weak && result.frame.decision.target == .subject(1))
        }
        let last = try #require(results.last)
        let face = try #require(last.frame.subjects.first { $0.kind == .face })
        let focal = try #require(last.frame.focalDioptres)
        // Exactly the face's layer (its depth to the nearest step of the layer map).
        #expect(focal == LayerMap.dioptres(LayerMap.code(LayeredDepth.dioptres(of: .face, bounds: face.bounds))))
        // The face's middle: its detail kept.
        let box = face.bounds
        let fx = Int((box.x + box.width * 0.25) * Double(Self.width))..<Int((box.x + box.width * 0.75) * Double(Self.width))
        let fy = Int((box.y + box.height * 0.25) * Double(Self.height))..<Int((box.y + box.height * 0.75) * Double(Self.height))
        let kept = Self.detail(last.after, x: fx, y: fy) / Self.detail(last.before, x: fx, y: fy)
        #expect(kept >= 0.95, "the face in focus keeps \(kept) of its detail")
        // The background left of the photo: noise left as a blur of the aperture's radius leaves it.
        let radius = aperture.blurRadius(dioptres: LayeredDepth.backgroundDioptres, focus: focal, width: Self.width)
        let bx = 40..<(Self.photo.x - 40), by = 40..<(Self.height - 40)
        let share = Self.spread(last.after, x: bx, y: by) / Self.spread(last.before, x: bx, y: by)
        let expected = 1 / (radius * Double.pi.squareRoot())
        #expect(abs(share / expected - 1) <= 0.15, "background noise left \(share); a blur of radius \(radius) leaves \(expected)")
        #expect(!last.frame.lowLight)
    }

    @Test("fixed focus on the background (a long press at its plane): the background untouched, the face blurred")
    func backgroundFixed() throws {
        let results = try Self.run(focus: .fixed(x: 0.05, y: 0.5), aperture: try Aperture(fNumber: 2))
        let last = try #require(results.last)
        #expect(last.frame.decision.mode == .strong)
        #expect(last.frame.focalDioptres == LayeredDepth.backgroundDioptres)
        let bx = 40..<(Self.photo.x - 40), by = 40..<(Self.height - 40)
        #expect(Self.spread(last.after, x: bx, y: by) == Self.spread(last.before, x: bx, y: by))
        let face = try #require(last.frame.subjects.first { $0.kind == .face })
        let box = face.bounds
        let fx = Int((box.x + box.width * 0.25) * Double(Self.width))..<Int((box.x + box.width * 0.75) * Double(Self.width))
        let fy = Int((box.y + box.height * 0.25) * Double(Self.height))..<Int((box.y + box.height * 0.75) * Double(Self.height))
        let kept = Self.detail(last.after, x: fx, y: fy) / Self.detail(last.before, x: fx, y: fy)
        #expect(kept < 0.3, "the face out of focus keeps \(kept) of its detail")
    }

    /// The astronaut over noise as `filter` places it, `frames` pictures into `path` (not
    /// lossless: nothing here is measured in pixels).
    static func scene(_ path: String, filter: String, frames: Int) throws {
        let made = try Subprocess.run("ffmpeg", ["-loglevel", "error", "-y", "-loop", "1", "-i", TestPhotos.astronautPath, "-filter_complex", filter,
                                                 "-frames:v", String(frames), "-c:v", "libx264", "-crf", "23", "-preset", "ultrafast", path])
        try #require(made.status == 0, "\(made.stderr)")
    }

    /// A camera at f/2 whose vision runs on its own thread, as in real time.
    static func ownThreadCamera() throws -> CinematicCamera {
        try CinematicCamera(vision: try CinematicVision(models: .current()), aperture: try Aperture(fNumber: 2), pace: .ownThread)
    }

    @Test("the vision on its own thread (real time): the first picture waits for its own look, so it is focused and blurred; the face and its matte are in it")
    func ownThread() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        // 30 s of the scene at 640x360 (not lossless: nothing here is measured in pixels).
        let path = folder.path("long.mp4")
        let filter = "color=c=gray:s=640x360:r=10:d=30,noise=alls=40:all_seed=7[bg];[0:v]scale=300:300[p];[bg][p]overlay=170:60:shortest=1,format=yuv420p"
        try Self.scene(path, filter: filter, frames: 300)
        let camera = try Self.ownThreadCamera()
        defer { camera.stop() }
        let converter = PictureConverter(width: 640, height: 360)
        // The pictures at 10 a second of wall time, until the vision's look with the face has
        // come back (or the 30 s run out).
        var first: CinematicFrame?, seen: CinematicFrame?
        try VideoFileReader(path: path).forEachFrame { decoded in
            let result = try camera.process(try converter.convert(decoded))
            if first == nil { first = result }
            if result.subjects.contains(where: { $0.kind == .face }) && result.layers.matte.contains(where: { $0 > 200 }) { seen = result }
            Thread.sleep(forTimeInterval: 0.1)
            return seen == nil
        }
        // Before, the first pictures went out with no look (sharp), and the blur came in one
        // step with the first look a few pictures later.
        let picture = try #require(first)
        #expect(picture.subjects.map(\.kind) == [.face] && picture.focalDioptres != nil, "the first picture: \(picture.subjects), focus \(String(describing: picture.focalDioptres))")
        let look = try #require(seen, "no look with the face came back in 30 s")
        #expect(look.decision.target == .subject(1) && look.focalDioptres != nil)
    }

    @Test("the vision on its own thread, each picture held until a look at or after it exists: every picture is rendered with its own look, never an older one")
    func heldForItsLook() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let path = folder.path("sway.mp4")
        // 2 s at 10 a second: every picture is at least 1/15 s after the one before, so each is handed to the vision.
        let filter = "color=c=gray:s=640x360:r=10:d=2,noise=alls=40:all_seed=7[bg];[0:v]scale=240:240[p];[bg][p]overlay=x='100+100*t':y=60:shortest=1,format=yuv420p"
        try Self.scene(path, filter: filter, frames: 20)
        let camera = try Self.ownThreadCamera()
        defer { camera.stop() }
        let converter = PictureConverter(width: 640, height: 360)
        var leads: [MediaTime?] = []
        try VideoFileReader(path: path).forEachFrame { decoded in
            let picture = try converter.convert(decoded)
            try camera.offer(picture)
            // What the real-time source does, waiting on the look instead of the next picture.
            let settled = camera.waitForLook(atOrAfter: picture.captureTime, timeout: 30)
            #expect(settled, "no look of the picture at \(picture.captureTime) came back in 30 s")
            leads.append(try camera.process(picture).lookLead)
            return true
        }
        #expect(leads.count == 20)
        #expect(leads.allSatisfy { $0 == .zero }, "looks: \(leads.map { $0.map { String(format: "%.3f", $0.seconds) } ?? "none" })")
    }

    @Test("the models missing: a clear error naming the setup step")
    func modelMissing() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        #expect {
            _ = try CinematicVision(models: VisionModels(modelFolder: folder.url.path))
        } throws: { error in
            "\(error)".contains("person-segmentation model missing") && "\(error)".contains("make setup")
        }
    }
}
