import Foundation
import ReelCore
import ReelMedia

/// `reel sources [--json]`: the sources Reel can record from — this machine's V4L2 cameras
/// (``CameraList``) with their formats, sizes and rates, the synthetic source and files.
enum SourcesCommand {
    static let json = Option.flag("json", help: "One JSON object {cameras, test, file}, for scripts.")
    /// Where camera nodes are looked for.
    static let folder = "/dev"

    static let spec = CommandSpec(
        name: "sources",
        summary: "List the sources Reel can record from: cameras, the test source, files.",
        discussion: """
            Each V4L2 capture camera in /dev is listed with the --source argument that records \
            from it (v4l2:/dev/videoN), its name, driver and bus, and every pixel format with its \
            frame sizes and the highest frame rate at the largest size. Only capture nodes are \
            listed (a UVC camera's metadata node is left out); the cameras are only asked what \
            they offer, nothing is captured. A camera this user may not open is named on standard \
            error: its user needs to be in the video group.
            """,
        options: [json],
        examples: ["reel sources", "reel sources --json | jq -r '.cameras[].source'"])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        var cameras: [CameraDevice] = []
        for node in CameraList.nodes(in: folder) {
            do {
                cameras.append(try CameraList.device(at: node))
            } catch let error as CameraList.Error where error.reason != .notCapture {
                ErrorPrinter.warning("reel sources", "\(error)")
            } catch {}
        }
        if arguments.flag(json) {
            print(try LibraryCommandText.json(jsonObject(cameras)))
        } else {
            printSafe(text(cameras), terminator: "")
        }
        return 0
    }

    /// The list for people: cameras (or why there are none), then the test source and files.
    static func text(_ cameras: [CameraDevice]) -> String {
        var lines: [String] = []
        if cameras.isEmpty {
            lines.append("no V4L2 camera found in \(folder) (plug one in, or check you are in the video group)")
        } else {
            lines.append("Cameras:")
            for camera in cameras {
                let about = [camera.driver, camera.bus].filter { !$0.isEmpty }.joined(separator: ", ")
                lines.append("  \(camera.sourceText)   \(camera.name)" + (about.isEmpty ? "" : " (\(about))"))
                for format in camera.formats {
                    let rate = format.maxFramesPerSecond.map { " (up to \(rateText($0)) fps)" } ?? ""
                    let sizes = format.sizes.isEmpty ? "sizes not reported" : format.sizes.joined(separator: ", ")
                    lines.append("    \(format.fourcc.padding(toLength: 5, withPad: " ", startingAt: 0)) \(format.description): \(sizes)\(rate)")
                }
            }
        }
        lines += [
            "",
            "Synthetic:",
            "  test[:WxH[@FPS]]   moving bars with the capture time and frame number, a 440 Hz tone (default 1280x720@30)",
            "",
            "Files:",
            "  file:PATH          anything FFmpeg reads, paced like a camera (--fast: as fast as the encoders go)",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `{cameras: [{source, path, name, driver, bus, formats: [{fourcc, description, sizes,
    /// maxFramesPerSecond}]}], test, file}`; a rate not reported is null.
    static func jsonObject(_ cameras: [CameraDevice]) -> [String: Any] {
        let list = cameras.map { camera -> [String: Any] in
            ["source": camera.sourceText, "path": camera.path, "name": camera.name, "driver": camera.driver, "bus": camera.bus,
             "formats": camera.formats.map { format -> [String: Any] in
                 ["fourcc": format.fourcc, "description": format.description, "sizes": format.sizes,
                  "maxFramesPerSecond": format.maxFramesPerSecond.map { $0 as Any } ?? NSNull()]
             }]
        }
        return ["cameras": list, "test": "test", "file": "file:PATH"]
    }

    /// 30 as "30", 7.5 as "7.5".
    static func rateText(_ rate: Double) -> String {
        rate == rate.rounded() ? String(Int(rate)) : String(format: "%.2f", rate).replacingOccurrences(of: #"0+$"#, with: "", options: .regularExpression)
    }
}
