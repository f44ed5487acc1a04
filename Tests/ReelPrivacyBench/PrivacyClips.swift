import Foundation

/// Deterministic privacy test clips made with the ffmpeg CLI: the astronaut photo's head
/// (an elliptical cut-out, so the background around the face is textured too) pasted over a
/// moving textured background (lavfi `cellauto` rule 30 averaged with `testsrc2`), with a
/// 440 Hz tone, H.264 CRF 16 + AAC, 30 fps. The known face box of every frame is computed
/// from the same `MotionExpression`s the filter graph renders.
///
/// Scenario `.single` (14 s, 420 frames): moving 0–3 s, tilt sweeping to ±30° 3–6 s, the whole
/// picture at half brightness 6–8 s, gliding right until 40 % of the face is out of the frame
/// 8–10 s, absent 10–12 s, back 12–14 s. Scenario `.twoFaces` (6 s): two heads, the second 0.6×
/// the first, both moving, for the all-faces rule. The hard cases (edges, roll, profile, small,
/// fast, dim, crossing) are listed at ``Scenario``.
public enum PrivacyClips {
    /// The face in the astronaut photo (512 × 512), by eye: cheek to cheek, hairline to chin.
    public static let photoFace = PixelBox(x: 178, y: 78, width: 94, height: 100)
    /// The head the face belongs to in the photo, by eye: the hair's top to the chin, the hair's
    /// sides. Coverage is measured against it: what a cover must hide is a head, and a face
    /// turned to profile is a strip of it.
    public static let photoHead = PixelBox(x: 150, y: 14, width: 154, height: 174)
    /// The cut's opaque ellipse (the alpha of ``filterGraph(_:width:height:)``) in the photo
    /// cut: centre (128, 108), radii 80 and 108, opaque up to 0.95 of them (a soft edge beyond).
    static let cutCentreY = 108.0, cutRadiusX = 80.0, cutRadiusY = 108.0, cutOpaque = 0.95
    /// The square cut from the photo: 256 px with the face's centre (225, 128) at its centre.
    static let cropX = 97, cropY = 0, cropSize = 256
    /// Frames per second of every clip.
    public static let fps = 30

    /// A made clip: the video and its truth.
    public struct Clip: Sendable {
        /// The MP4 (H.264 + AAC).
        public var video: String
        /// The truth JSON beside it.
        public var truthPath: String
        /// The known faces of every frame.
        public var truth: ClipTruth
    }

    /// The known faces of every frame (pure: no ffmpeg).
    public static func truth(_ scenario: Scenario, width: Int, height: Int) -> ClipTruth {
        let layers = layers(scenario, width: width, height: height)
        let frames = (0..<scenario.frameCount).map { n -> ClipTruth.Frame in
            var faces: [TruthFace] = []
            let present = layers.enumerated().filter { !($0.element.absent?.contains(n) ?? false) }
            for (index, layer) in present {
                guard var face = truthFace(layer, index: index, frame: n, width: width, height: height) else { continue }
                // Layers are drawn in order: the heads of the later ones hide this face.
                let front = present.filter { $0.offset > index }.map { silhouette($0.element, frame: n) }
                if !front.isEmpty {
                    face.hiddenBy = front
                    face.visibleShare = face.measuredVisibleShare()
                }
                faces.append(face)
            }
            let phase = scenario.phases.first { $0.frames.contains(n) }?.name ?? "?"
            let dimmed = scenario.dims.contains { $0.frames.contains(n) }
            return ClipTruth.Frame(index: n, phase: phase, dimmed: dimmed, faces: faces)
        }
        return ClipTruth(name: name(scenario, width: width, height: height), width: width, height: height, fps: fps, frames: frames)
    }

    /// The centre of `layer`'s cut in frame `n` (the face's centre when not turned), about
    /// which it is rolled.
    static func cutCentre(_ layer: FaceLayer, frame n: Int) -> (x: Double, y: Double) {
        let half = Double(layer.rotatedSize / 2)
        return (layer.overlayX.value(atFrame: n) + half, layer.overlayY.value(atFrame: n) + half)
    }

    /// A point given in photo pixels, where `layer` puts it in frame `n` (scaled, rolled about
    /// the cut's centre, moved; the turn is left out).
    static func place(_ photoX: Double, _ photoY: Double, _ layer: FaceLayer, frame n: Int) -> (x: Double, y: Double) {
        let centre = cutCentre(layer, frame: n), angle = layer.angle.value(atFrame: n)
        let k = Double(layer.size) / Double(cropSize)
        let u = (photoX - Double(cropX) - Double(cropSize) / 2) * k, v = (photoY - Double(cropY) - Double(cropSize) / 2) * k
        return (centre.x + u * cos(angle) - v * sin(angle), centre.y + u * sin(angle) + v * cos(angle))
    }

    /// The opaque part of `layer`'s head in frame `n`: what it hides of the layers drawn before.
    static func silhouette(_ layer: FaceLayer, frame n: Int) -> TruthFace.Silhouette {
        let k = Double(layer.size) / Double(cropSize)
        let centre = place(Double(cropX) + Double(cropSize) / 2, Double(cropY) + cutCentreY, layer, frame: n)
        return TruthFace.Silhouette(centerX: centre.x, centerY: centre.y, radiusX: cutRadiusX * cutOpaque * k,
                                    radiusY: cutRadiusY * cutOpaque * k, angle: layer.angle.value(atFrame: n))
    }

    /// `layer`'s head box in frame `n`: ``photoHead`` placed with the face, its rolled bounding
    /// box clipped to the frame (whole however far the face is turned).
    static func headBox(_ layer: FaceLayer, frame n: Int, width: Int, height: Int) -> PixelBox {
        let k = Double(layer.size) / Double(cropSize), angle = layer.angle.value(atFrame: n)
        let centre = place(photoHead.x + photoHead.width / 2, photoHead.y + photoHead.height / 2, layer, frame: n)
        let c = abs(cos(angle)), s = abs(sin(angle))
        let w = photoHead.width * k, h = photoHead.height * k
        let bw = w * c + h * s, bh = w * s + h * c
        return PixelBox(x: centre.x - bw / 2, y: centre.y - bh / 2, width: bw, height: bh).clipped(toWidth: width, height: height)
    }

    /// Where `layer`'s face is in frame `n`; nil when no part of it is in the picture.
    static func truthFace(_ layer: FaceLayer, index: Int, frame n: Int, width: Int, height: Int) -> TruthFace? {
        var (centerX, centerY) = cutCentre(layer, frame: n)
        let angle = layer.angle.value(atFrame: n)
        var faceWidth = layer.faceWidth
        var yaw: Double?
        if layer.turns {
            // The turned face is the part of the cylinder between the face's edges: narrower,
            // and off the head's centre along the face's own x axis.
            let turn = layer.yaw.value(atFrame: n)
            let span = layer.turnedSpan(yaw: turn)
            faceWidth = span.right - span.left
            let offset = (span.left + span.right) / 2
            centerX += offset * cos(angle); centerY += offset * sin(angle)
            yaw = turn
            guard faceWidth > 0.5 else { return nil }
        }
        var face = TruthFace(layer: index, centerX: centerX, centerY: centerY, width: faceWidth, height: layer.faceHeight,
                             angle: angle, frameWidth: width, frameHeight: height)
        face.yaw = yaw
        face.head = headBox(layer, frame: n, width: width, height: height)
        return face.box.area > 0 ? face : nil
    }

    /// `single-1280x720`, `twoFaces-1280x720`, …
    public static func name(_ scenario: Scenario, width: Int, height: Int) -> String { "\(scenario.rawValue)-\(width)x\(height)" }

    /// The filter graph: background, heads, dimming; output label `[v]`. Inputs: 0 cellauto,
    /// 1 testsrc2, 2 the photo (one picture at 30 fps). The head is cut from it once and the
    /// `loop` filter repeats it for every frame: `geq` costs tens of milliseconds a picture,
    /// and run on the looped photo it was most of a clip's making.
    public static func filterGraph(_ scenario: Scenario, width: Int, height: Int) -> String {
        let layers = layers(scenario, width: width, height: height)
        let c = Double(cropSize) / 2
        // The head: an ellipse around face and hair with a 5 % soft edge, transparent outside.
        let alpha = "255*clip((1-hypot((X-\(c))/80,(Y-108)/108))/0.05,0,1)"
        var graph = "[0:v]scale=\(width):\(height):flags=neighbor,format=yuv420p[ca];[1:v]format=yuv420p[ts];"
        graph += "[ca][ts]blend=all_mode=average[bg0];"
        graph += "[2:v]crop=\(cropSize):\(cropSize):\(cropX):\(cropY),format=rgba,"
        graph += "geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='\(alpha)',loop=loop=-1:size=1:start=0"
        graph += layers.count > 1 ? ",split=\(layers.count)" + layers.indices.map { "[head\($0)]" }.joined() + ";" : "[head0];"
        for (i, layer) in layers.enumerated() {
            graph += "[head\(i)]"
            if layer.turns { graph += turnFilter(layer.yaw) + "," }
            for dim in layer.dims {
                // This head alone darker (in the shade while it crosses), its alpha kept.
                let f = dim.factor
                graph += "colorchannelmixer=rr=\(f):gg=\(f):bb=\(f):enable='between(n,\(dim.frames.lowerBound),\(dim.frames.upperBound - 1))',"
            }
            graph += "scale=\(layer.size):\(layer.size),"
            graph += "rotate=a='\(layer.angle.ffmpeg)':ow=\(layer.rotatedSize):oh=\(layer.rotatedSize):c=black@0[face\(i)];"
            let enable = layer.absent.map { ":enable='not(between(n,\($0.lowerBound),\($0.upperBound - 1)))'" } ?? ""
            graph += "[bg\(i)][face\(i)]overlay=x='\(layer.overlayX.ffmpegOverlay)':y='\(layer.overlayY.ffmpegOverlay)':eval=frame\(enable)[bg\(i + 1)];"
        }
        graph += "[bg\(layers.count)]"
        for dim in scenario.dims {
            // Darker above black (16 in limited range), so a quarter is still a picture.
            graph += "lutyuv=y='16+(val-16)*\(dim.factor)':enable='between(n,\(dim.frames.lowerBound),\(dim.frames.upperBound - 1))',"
        }
        graph += "format=yuv420p[v]"
        return graph
    }

    /// The profile turn on the photo cut (`crop`-sized RGBA, alpha already set): each column
    /// is a point of a vertical cylinder of radius ``headRadius`` round the head's centre,
    /// turned by `yaw` (geq's `N` is the frame index); what turns behind the silhouette, and
    /// the back of the head that the photo never showed, become transparent.
    static func turnFilter(_ yaw: MotionExpression) -> String {
        let c = Double(cropSize) / 2, r = headRadius
        let psi = yaw.ffmpeg(frameVariable: "N")
        let phi = "(asin(clip((X-\(c))/\(r),-1,1))-\(psi))"
        let source = "(\(c)+\(r)*sin(\(phi)))"
        let visible = "lte(abs(X-\(c)),\(r))*gte(\(phi),-PI/2)*lte(\(phi),PI/2)"
        return "geq=r='r(\(source),Y)':g='g(\(source),Y)':b='b(\(source),Y)':a='alpha(\(source),Y)*\(visible)'"
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
            "-framerate", String(fps), "-i", photo,
            "-f", "lavfi", "-t", seconds, "-i", "sine=frequency=440:sample_rate=48000",
            "-filter_complex_script", graphFile, "-map", "[v]", "-map", "3:a", "-frames:v", String(frames),
            "-c:v", "libx264", "-preset", "veryfast", "-crf", "16", "-g", "60", "-pix_fmt", "yuv420p",
            "-c:a", "aac", "-b:a", "128k", "-ac", "2", "-movflags", "+faststart", video,
        ])
        let truth = truth(scenario, width: width, height: height)
        try truth.write(to: truthPath)
        return Clip(video: video, truthPath: truthPath, truth: truth)
    }

    /// Every clip the benchmarks use: `.single` at 1280×720 and 1920×1080 and `.twoFaces`, then
    /// the hard cases, all at 1280×720.
    public static let catalog: [(scenario: Scenario, width: Int, height: Int)] =
        [(.single, 1280, 720), (.single, 1920, 1080)] + Scenario.allCases.filter { $0 != .single }.map { ($0, 1280, 720) }

    /// The first two scenarios: `.single` at 1280×720 and 1920×1080, `.twoFaces` at 1280×720.
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
