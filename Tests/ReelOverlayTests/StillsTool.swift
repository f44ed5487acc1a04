import Foundation
import ReelImage
import ReelTestSupport

/// Runs Scripts/stills.py (Debian's python3 with Pillow): the independent reader of Reel's
/// photos, and the maker of test pictures.
enum StillsTool {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts/stills.py").path

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        let result = try Subprocess.run("/usr/bin/python3", [script] + arguments)
        guard result.status == 0 else { throw Failure(description: "stills.py \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result.stdout
    }

    /// The photo measured against the chart's layout.
    static func measure(_ photo: String, layout: String) throws -> Measurement {
        try JSONDecoder().decode(Measurement.self, from: Data(try run(["measure", photo, layout]).utf8))
    }

    /// Writes the Display P3 profile Reel makes, for the chart to carry.
    static func writeP3Profile(to path: String) throws {
        try Data(ColorProfile.shared(.displayP3).iccData).write(to: URL(fileURLWithPath: path))
    }

    /// What stills.py measured.
    struct Measurement: Decodable {
        struct Patch: Decodable {
            var name: String
            var rgb: [Double]
            var deltaE: Double
            var deltaEClipped: Double
            var inGamut: Bool
        }

        struct Gradient: Decodable {
            var distinct: Int
            var width: Int
        }

        var profile: String
        var width: Int
        var height: Int
        var depth: Int
        var patches: [Patch]
        var gradient: Gradient
    }

    /// `exiftool -n -j` of a file: tag name → value.
    static func exif(_ path: String) throws -> [String: Any] {
        let result = try Subprocess.run("exiftool", ["-n", "-j", "-G0", path])
        guard result.status == 0, let array = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]],
              let first = array.first else { throw Failure(description: "exiftool \(path): \(result.stderr)") }
        return first
    }
}
