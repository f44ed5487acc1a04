import Foundation
import ReelTestSupport
import Testing

/// The cinematic camera's stills are written as the overlay camera's photos are.
@Suite("reel cinematic's still: a JPEG with EXIF and its ICC profile")
struct CinematicStillFileTests {
    @Test("`still` on standard input saves a JPEG carrying the sRGB ICC profile and EXIF (time, camera, software), read by exiftool")
    func stillHasMetadata() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let pictures = folder.path("pictures")
        let run = try ReelBinary.run(["cinematic", "--source", "test:320x240@10", "--output", folder.path("pattern.mp4"), "--duration", "2"],
                                     environment: ["XDG_PICTURES_DIR": pictures], input: "still\n")
        #expect(run.status == 0, "\(run.stderr)")
        let stills = (try? FileManager.default.contentsOfDirectory(atPath: pictures + "/reel/cinematic")) ?? []
        try #require(stills.count == 1, "\(run.stderr)")
        let tags = try Subprocess.run("exiftool", ["-n", "-j", "-G0", pictures + "/reel/cinematic/" + stills[0]])
        let object = try JSONSerialization.jsonObject(with: Data(tags.stdout.utf8)) as? [[String: Any]]
        let found = try #require(object?.first, "\(tags.stdout) \(tags.stderr)")
        #expect(found["ICC_Profile:ProfileDescription"] as? String == "sRGB", "\(found)")
        #expect(found["EXIF:ColorSpace"] as? Int == 1, "\(found)")
        #expect((found["EXIF:Software"] as? String)?.hasPrefix("reel ") == true, "\(found)")
        #expect((found["EXIF:Model"] as? String)?.contains("test pattern") == true, "\(found)")
        #expect(found["EXIF:DateTimeOriginal"] is String, "\(found)")
        #expect(found["File:ImageWidth"] as? Int == 320 && found["File:ImageHeight"] as? Int == 240, "\(found)")
    }
}
