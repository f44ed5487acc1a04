import Foundation
import ReelCore
import ReelTestSupport
import ReelVision
import Testing

/// The costs the settings' doc comments quote, printed (median wall time of 30 calls after
/// a warm-up). Runs only with REEL_VISION_BENCH=1: timings on a shared machine are no test.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["REEL_VISION_BENCH"] == "1"))
struct CenterFaceCostTests {
    static func median(_ detect: () throws -> [Detection]) rethrows -> Double {
        _ = try detect()
        var times: [Double] = []
        for _ in 0..<30 {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try detect()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return times.sorted()[times.count / 2]
    }

    @Test(arguments: [(1280, 720), (1920, 1080)])
    func edgePaddingCost(width: Int, height: Int) throws {
        var canvas = TestPicture.wall(width: width, height: height)
        canvas.paste(try TestPicture.astronaut(), x: width / 2, y: 100)
        for inputWidth in [320, 640] {
            var line = "\(width)x\(height) input \(inputWidth):"
            for padding in [0, 0.125, 0.25] {
                let detector = try CenterFaceDetector(modelPath: VisionModels.current().centerFaceModel,
                                                      settings: .init(inputWidth: inputWidth, edgePadding: padding))
                let ms = try canvas.withDetectorPicture(.yuv420p) { picture in try Self.median { try detector.detect(picture) } }
                line += String(format: " padding %.3f %.1f ms;", padding, ms)
            }
            print(line)
        }
    }

    @Test func cropCost() throws {
        let (canvas, _, centre) = try CenterFaceCropTests.smallFace()
        let detector = try CenterFaceDetectorTests.detector(inputWidth: 1280)
        let rect = DetectorPicture.PixelRect(x: centre.x - 80, y: centre.y - 80, width: 160, height: 160)
        let (whole, crop) = try canvas.withDetectorPicture(.yuv420p) { picture in
            (try Self.median { try detector.detect(picture) }, try Self.median { try detector.detect(picture, in: rect) })
        }
        print(String(format: "input 1280: whole 1280x720 %.1f ms, 160x160 crop %.1f ms", whole, crop))
    }
}
