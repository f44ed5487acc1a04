import Foundation

/// Deterministic privacy test clips made with the ffmpeg CLI: the astronaut photo's head
/// (an elliptical cut-out, so the background around the face is textured too) pasted over a
/// moving textured background (lavfi `cellauto` rule 30 averaged with `testsrc2`), with a
/// 440 Hz tone, H.264 CRF 16 + AAC, 30 fps. The known face box of every frame is computed
/// from the same `MotionExpression`s the filter graph renders.
///
/// Scenario `.single` (14 s, 420 frames; issue 5): moving 0–3 s, tilt sweeping to ±30° 3–6 s,
/// the whole picture at half brightness 6–8 s, gliding right until 40 % of the face is out of
/// the frame 8–10 s, absent 10–12 s, back 12–14 s. Scenario `.twoFaces` (6 s): two heads,
/// the second 0.6× the first, both moving, for the all-faces rule.
public enum PrivacyClips {
    /// The face in the astronaut photo (512 × 512), by eye: cheek to cheek, hairline to chin.
    public static let photoFace = PixelBox(x: 178, y: 78, width: 94, height: 100)
    /// The square cut from the photo: 256 px with the face's centre (225, 128) at its centre.
    static let cropX = 97, cropY = 0, cropSize = 256
    /// Frames per second of every clip.
    public static let fps = 30

    /// Which clip.
    public enum Scenario: String, Sendable, CaseIterable, Codable {
        /// One face through the phases (14 s).
        case single
        /// Two faces at once, one smaller (6 s).
        case twoFaces

        /// Frames in the clip.
        public var frameCount: Int { self == .single ? 420 : 180 }
    }

    /// The phases of `.single`, as frame ranges.
    public static let phases: [(name: String, frames: Range<Int>)] = [
        ("moving", 0..<90), ("tilt", 90..<180), ("dimmed", 180..<240),
        ("partlyOut", 240..<300), ("absent", 300..<360), ("back", 360..<420),
    ]

    /// A made clip: the video and its truth.
    public struct Clip: Sendable {
        /// The MP4 (H.264 + AAC).
        public var video: String
        /// The truth JSON beside it.
        public var truthPath: String
        /// The known faces of every frame.
        public var truth: ClipTruth
    }

    /// One pasted head: its size and motion.
    public struct FaceLayer: Sendable {
        /// The side of the square photo cut once scaled (even).
        public var size: Int
        /// The face's centre, before the even rounding of the overlay position.
        public var centerX: MotionExpression
        /// The face's centre, before the even rounding of the overlay position.
        public var centerY: MotionExpression
        /// Clockwise rotation in radians.
        public var angle: MotionExpression
        /// Frames in which the head is not pasted.
        public var absent: Range<Int>?

        /// The side of the rotated layer (even, holds the square at any angle).
        public var rotatedSize: Int { Int((Double(size) * 2.0.squareRoot()).rounded(.up)) / 2 * 2 + 2 }
        /// The overlay's left edge.
        public var overlayX: MotionExpression { (centerX - .number(Double(rotatedSize / 2))).evenFloor }
        /// The overlay's top edge.
        public var overlayY: MotionExpression { (centerY - .number(Double(rotatedSize / 2))).evenFloor }
        /// The face's width in the frame.
        public var faceWidth: Double { PrivacyClips.photoFace.width * Double(size) / Double(PrivacyClips.cropSize) }
        /// The face's height in the frame.
        public var faceHeight: Double { PrivacyClips.photoFace.height * Double(size) / Double(PrivacyClips.cropSize) }
    }

    /// The heads of `scenario` in a `width` × `height` clip.
    public static func layers(_ scenario: Scenario, width: Int, height: Int) -> [FaceLayer] {
        let w = Double(width), h = Double(height)
        // The face is 100 px of the photo's 512: 150 px tall at 720p, 200 px at 1080p.
        let size = even(Double(cropSize) * 1.5 * h / 720)
        let tau = 2 * Double.pi
        switch scenario {
        case .single:
            let baseX: MotionExpression = .number(w / 2) + .number(0.25 * w) * .sine(.frame * .number(tau / 150))
            let baseY: MotionExpression = .number(h / 2) + .number(0.1 * h) * .sine(.frame * .number(tau / 110))
            var layer = FaceLayer(size: size, centerX: baseX, centerY: baseY, angle: 0, absent: 300..<360)
            // Glide right from 8 s until 40 % of the face is out (centre 0.1 face widths inside the edge).
            let out = baseX.gliding(to: .number(w - 0.1 * layer.faceWidth), from: 240, over: 30)
            layer.centerX = .ifLess(.frame, 240, then: baseX, else: .ifLess(.frame, 300, then: out, else: baseX))
            // Tilt 3–6 s: one full sine period, +30° then -30°, 0 at both ends.
            let tilt: MotionExpression = .number(Double.pi / 6) * .sine((.frame - 90) * .number(tau / 90))
            layer.angle = .ifLess(.frame, 90, then: 0, else: .ifLess(.frame, 180, then: tilt, else: 0))
            return [layer]
        case .twoFaces:
            let a = FaceLayer(size: size,
                              centerX: .number(0.3 * w) + .number(0.1 * w) * .sine(.frame * .number(tau / 120)),
                              centerY: .number(0.5 * h) + .number(0.1 * h) * .sine(.frame * .number(tau / 90)),
                              angle: 0, absent: nil)
            let b = FaceLayer(size: even(Double(size) * 0.6),
                              centerX: .number(0.72 * w) + .number(0.08 * w) * .sine(.frame * .number(tau / 100) + 1),
                              centerY: .number(0.45 * h) + .number(0.1 * h) * .sine(.frame * .number(tau / 140)),
                              angle: 0, absent: nil)
            return [a, b]
        }
    }

    /// The frames at half brightness.
    static func dimmed(_ scenario: Scenario) -> Range<Int>? { scenario == .single ? 180..<240 : nil }

    /// The known faces of every frame (pure: no ffmpeg).
    public static func truth(_ scenario: Scenario, width: Int, height: Int) -> ClipTruth {
        let layers = layers(scenario, width: width, height: height)
        let dim = dimmed(scenario)
        let frames = (0..<scenario.frameCount).map { n -> ClipTruth.Frame in
            var faces: [TruthFace] = []
            for (index, layer) in layers.enumerated() where !(layer.absent?.contains(n) ?? false) {
                let half = Double(layer.rotatedSize / 2)
                let face = TruthFace(layer: index, centerX: layer.overlayX.value(atFrame: n) + half,
                                     centerY: layer.overlayY.value(atFrame: n) + half,
                                     width: layer.faceWidth, height: layer.faceHeight, angle: layer.angle.value(atFrame: n),
                                     frameWidth: width, frameHeight: height)
                if face.box.area > 0 { faces.append(face) }
            }
            let phase = scenario == .twoFaces ? "twoFaces" : (phases.first { $0.frames.contains(n) }?.name ?? "back")
            return ClipTruth.Frame(index: n, phase: phase, dimmed: dim?.contains(n) ?? false, faces: faces)
        }
        return ClipTruth(name: name(scenario, width: width, height: height), width: width, height: height, fps: fps, frames: frames)
    }

    /// `single-1280x720`, `twoFaces-1280x720`, …
    public static func name(_ scenario: Scenario, width: Int, height: Int) -> String { "\(scenario.rawValue)-\(width)x\(height)" }

    /// The filter graph: background, heads, dimming; output label `[v]`. Inputs: 0 cellauto,
    /// 1 testsrc2, 2 the photo (looped).
    public static func filterGraph(_ scenario: Scenario, width: Int, height: Int) -> String {
        let layers = layers(scenario, width: width, height: height)
        let c = Double(cropSize) / 2
        // The head: an ellipse around face and hair with a 5 % soft edge, transparent outside.
        let alpha = "255*clip((1-hypot((X-\(c))/80,(Y-108)/108))/0.05,0,1)"
        var graph = "[0:v]scale=\(width):\(height):flags=neighbor,format=yuv420p[ca];[1:v]format=yuv420p[ts];"
        graph += "[ca][ts]blend=all_mode=average[bg0];"
        graph += "[2:v]crop=\(cropSize):\(cropSize):\(cropX):\(cropY),format=rgba,"
        graph += "geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='\(alpha)'"
        graph += layers.count > 1 ? ",split=\(layers.count)" + layers.indices.map { "[head\($0)]" }.joined() + ";" : "[head0];"
        for (i, layer) in layers.enumerated() {
            graph += "[head\(i)]scale=\(layer.size):\(layer.size),"
            graph += "rotate=a='\(layer.angle.ffmpeg)':ow=\(layer.rotatedSize):oh=\(layer.rotatedSize):c=black@0[face\(i)];"
            let enable = layer.absent.map { ":enable='not(between(n,\($0.lowerBound),\($0.upperBound - 1)))'" } ?? ""
            graph += "[bg\(i)][face\(i)]overlay=x='\(layer.overlayX.ffmpegOverlay)':y='\(layer.overlayY.ffmpegOverlay)':eval=frame\(enable)[bg\(i + 1)];"
        }
        graph += "[bg\(layers.count)]"
        if let dim = dimmed(scenario) {
            graph += "lutyuv=y='val/2':enable='between(n,\(dim.lowerBound),\(dim.upperBound - 1))',"
        }
        graph += "format=yuv420p[v]"
        return graph
    }

    /// Makes `scenario` at `width` × `height` in `directory` (`NAME.mp4` and `NAME.truth.json`);
    /// `photo` is the astronaut PNG (512 × 512).
    public static func make(_ scenario: Scenario, width: Int, height: Int, in directory: String, photo: String) throws -> Clip {
        guard FileManager.default.isReadableFile(atPath: photo) else { throw Error.photoMissing(path: photo) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let name = name(scenario, width: width, height: height)
        let video = "\(directory)/\(name).mp4", truthPath = "\(directory)/\(name).truth.json"
        let frames = scenario.frameCount
        let seconds = String(Double(frames) / Double(fps))
        let graphFile = "\(directory)/\(name).graph.txt"
        try filterGraph(scenario, width: width, height: height).write(toFile: graphFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: graphFile) }
        try FFmpegTool.run("ffmpeg", [
            "-nostdin", "-v", "error", "-y",
            "-f", "lavfi", "-i", "cellauto=s=\(width / 2)x\(height / 2):rate=\(fps):rule=30:seed=7:random_fill_ratio=0.5",
            "-f", "lavfi", "-i", "testsrc2=s=\(width)x\(height):rate=\(fps)",
            "-loop", "1", "-framerate", String(fps), "-i", photo,
            "-f", "lavfi", "-t", seconds, "-i", "sine=frequency=440:sample_rate=48000",
            "-filter_complex_script", graphFile, "-map", "[v]", "-map", "3:a", "-frames:v", String(frames),
            "-c:v", "libx264", "-preset", "veryfast", "-crf", "16", "-g", "60", "-pix_fmt", "yuv420p",
            "-c:a", "aac", "-b:a", "128k", "-ac", "2", "-movflags", "+faststart", video,
        ])
        let truth = truth(scenario, width: width, height: height)
        try truth.write(to: truthPath)
        return Clip(video: video, truthPath: truthPath, truth: truth)
    }

    /// The set: `.single` at 1280×720 and 1920×1080, `.twoFaces` at 1280×720.
    public static func makeAll(in directory: String, photo: String) throws -> [Clip] {
        [try make(.single, width: 1280, height: 720, in: directory, photo: photo),
         try make(.single, width: 1920, height: 1080, in: directory, photo: photo),
         try make(.twoFaces, width: 1280, height: 720, in: directory, photo: photo)]
    }

    static func even(_ value: Double) -> Int { Int((value / 2).rounded()) * 2 }

    /// A clip that cannot be made.
    public enum Error: Swift.Error, CustomStringConvertible {
        /// The astronaut photo is not there.
        case photoMissing(path: String)

        /// What went wrong and what to do.
        public var description: String {
            switch self {
            case .photoMissing(let path):
                return "the astronaut photo \(path) is missing: it is Tests/Fixtures/astronaut.png in the repository (or set REEL_TEST_PHOTO)"
            }
        }
    }
}
