import Foundation

/// Exports made with the ffmpeg CLI against which the meter is calibrated and tested: the
/// source re-encoded untouched, a box mosaic following the known faces, a whole-frame mosaic.
public enum ReferenceExports {
    /// The x264 settings of every reference export.
    static func encoder(crf: Int) -> [String] {
        ["-c:v", "libx264", "-preset", "veryfast", "-crf", String(crf), "-pix_fmt", "yuv420p", "-an"]
    }

    /// `clip` decoded and encoded again, pictures untouched (what an export without privacy is).
    public static func reencode(_ clip: String, to output: String, crf: Int = 23) throws {
        try FFmpegTool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", clip, "-fps_mode", "passthrough"] + encoder(crf: crf) + [output])
    }

    /// The whole picture pixelated with `block`-pixel blocks (area mean, nearest up-scaling).
    public static func fullMosaic(_ clip: String, width: Int, height: Int, block: Int, to output: String, crf: Int = 23) throws {
        let graph = "scale=\(max(1, width / block)):\(max(1, height / block)):flags=area,scale=\(width):\(height):flags=neighbor"
        try FFmpegTool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", clip, "-vf", graph, "-fps_mode", "passthrough"]
                           + encoder(crf: crf) + [output])
    }

    /// The width and height of the mosaic box of `layer`: `boxScale` × the face's bounding box
    /// at 30° (so a tilted face stays inside), even.
    public static func boxSize(_ layer: PrivacyClips.FaceLayer, boxScale: Double) -> (width: Int, height: Int) {
        let c = cos(Double.pi / 6), s = sin(Double.pi / 6)
        let w = (layer.faceWidth * c + layer.faceHeight * s) * boxScale
        let h = (layer.faceWidth * s + layer.faceHeight * c) * boxScale
        return (PrivacyClips.even(w), PrivacyClips.even(h))
    }

    /// A rectangular mosaic (crop → scale down by `block` → scale up nearest → overlay) of
    /// `boxScale` × each face's box, following the scenario's motion expressions (the box
    /// stays inside the frame; drawn in every frame, also where the face is absent).
    public static func trackedMosaic(_ clip: String, scenario: PrivacyClips.Scenario, width: Int, height: Int,
                                     block: Int, boxScale: Double = 1.2, to output: String, crf: Int = 23) throws {
        try FFmpegTool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", clip,
                                      "-filter_complex", trackedMosaicGraph(scenario: scenario, width: width, height: height,
                                                                            block: block, boxScale: boxScale),
                                      "-map", "[v]", "-fps_mode", "passthrough"] + encoder(crf: crf) + [output])
    }

    /// The boxes `trackedMosaic` draws in frame `n` (for expected coverage).
    public static func trackedBoxes(scenario: PrivacyClips.Scenario, width: Int, height: Int, boxScale: Double = 1.2,
                                    frame n: Int) -> [PixelBox] {
        PrivacyClips.layers(scenario, width: width, height: height).map { layer in
            let size = boxSize(layer, boxScale: boxScale)
            let (x, y) = position(layer, size: size, width: width, height: height)
            return PixelBox(x: x.value(atFrame: n), y: y.value(atFrame: n), width: Double(size.width), height: Double(size.height))
        }
    }

    static func position(_ layer: PrivacyClips.FaceLayer, size: (width: Int, height: Int), width: Int, height: Int)
        -> (MotionExpression, MotionExpression) {
        let half = Double(layer.rotatedSize / 2)
        let cx = layer.overlayX + .number(half), cy = layer.overlayY + .number(half)
        let x = (cx - .number(Double(size.width / 2))).clamped(0, Double(width - size.width)).evenFloor
        let y = (cy - .number(Double(size.height / 2))).clamped(0, Double(height - size.height)).evenFloor
        return (x, y)
    }

    static func trackedMosaicGraph(scenario: PrivacyClips.Scenario, width: Int, height: Int, block: Int, boxScale: Double) -> String {
        var graph = "[0:v]null[in0];"
        let layers = PrivacyClips.layers(scenario, width: width, height: height)
        for (i, layer) in layers.enumerated() {
            let size = boxSize(layer, boxScale: boxScale)
            let (x, y) = position(layer, size: size, width: width, height: height)
            graph += "[in\(i)]split[base\(i)][cut\(i)];"
            graph += "[cut\(i)]crop=\(size.width):\(size.height):'\(x.ffmpeg)':'\(y.ffmpeg)',"
            graph += "scale=\(max(1, size.width / block)):\(max(1, size.height / block)):flags=area,"
            graph += "scale=\(size.width):\(size.height):flags=neighbor[m\(i)];"
            graph += "[base\(i)][m\(i)]overlay=x='\(x.ffmpegOverlay)':y='\(y.ffmpegOverlay)':eval=frame[in\(i + 1)];"
        }
        return graph + "[in\(layers.count)]null[v]"
    }
}
