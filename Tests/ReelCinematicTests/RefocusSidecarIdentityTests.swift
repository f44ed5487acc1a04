import Foundation
import ReelTestSupport
import Testing

/// `reel refocus` and the sidecar's video: a sidecar cut short, another recording's sidecar (of
/// a length of its own, or of the same length), a video that is not there — each refused with
/// what is wrong, nothing written; a sidecar that names no video (older Reel) is checked by its
/// picture count and used with a warning.
@Suite("reel refocus: the sidecar must belong to the video; mismatches and a missing video refused with the reason")
struct RefocusSidecarIdentityTests {
    /// An editable recording of `filter` (a lavfi source) at 320x240, 10 fps, `pictures` long.
    static func record(_ filter: String, pictures: Int, in folder: TemporaryDirectory, name: String) throws -> String {
        let scene = folder.path(name + "-scene.mp4")
        let made = try Subprocess.run("ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "\(filter)=s=320x240:r=10",
                                                 "-frames:v", "\(pictures)", "-c:v", "libx264", "-qp", "0", "-preset", "ultrafast", "-pix_fmt", "yuv420p", scene])
        guard made.status == 0 else { throw CinematicCameraTests.TestFailure("ffmpeg: \(made.stderr)") }
        let output = folder.path(name + ".mp4")
        let run = try ReelBinary.run(["cinematic", "--source", "file:" + scene, "--output", output, "--fast", "--editable"], input: "")
        guard run.status == 0 else { throw CinematicCameraTests.TestFailure("reel cinematic: \(run.stderr)") }
        return output
    }

    static func refocus(_ video: String, to output: String) throws -> Subprocess {
        try ReelBinary.run(["refocus", video, "--aperture", "2", "-o", output], input: "")
    }

    static func copySidecar(of source: String, to video: String) throws {
        try? FileManager.default.removeItem(atPath: video + ".cinematic")
        try FileManager.default.copyItem(atPath: source + ".cinematic", toPath: video + ".cinematic")
    }

    @Test("a sidecar cut short, another recording's shorter sidecar, another of the same length: refused saying which; nothing written")
    func mismatches() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let long = try Self.record("testsrc", pictures: 30, in: folder, name: "long")
        let short = try Self.record("testsrc", pictures: 12, in: folder, name: "short")
        let twin = try Self.record("mandelbrot", pictures: 30, in: folder, name: "twin")
        let own = try Self.refocus(long, to: folder.path("own.mp4"))
        #expect(own.status == 0 && own.stdout.contains("30 pictures"), "\(own.stdout) \(own.stderr)")

        // Cut short: the sidecar's second half lost (as a copy that stopped half way).
        let victim = folder.path("victim.mp4")
        try FileManager.default.copyItem(atPath: long, toPath: victim)
        let whole = try Data(contentsOf: URL(fileURLWithPath: long + ".cinematic"))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: victim + ".cinematic"))
        let cut = try Self.refocus(victim, to: folder.path("cut.mp4"))
        #expect(cut.status == 1 && cut.stderr.contains("of the 30 pictures"), "\(cut.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("cut.mp4")))

        // Another recording's sidecar, shorter.
        try Self.copySidecar(of: short, to: victim)
        let shorter = try Self.refocus(victim, to: folder.path("shorter.mp4"))
        #expect(shorter.status == 1 && shorter.stderr.contains("belongs to another video"), "\(shorter.stderr)")
        #expect(shorter.stderr.contains("12 pictures"), "\(shorter.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("shorter.mp4")))

        // Another recording's sidecar of the same length and size.
        try Self.copySidecar(of: twin, to: victim)
        let same = try Self.refocus(victim, to: folder.path("same.mp4"))
        #expect(same.status == 1 && same.stderr.contains("belongs to another video"), "\(same.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("same.mp4")))
    }

    @Test("a sidecar that names no video (written before the identity): refused when its length differs, else used with a warning")
    func olderSidecar() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let long = try Self.record("testsrc", pictures: 30, in: folder, name: "long")
        let short = try Self.record("testsrc", pictures: 12, in: folder, name: "short")
        for video in [long, short] {
            // The identity is the last part of the file, after a length of 0xFFFFFFFF.
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: video + ".cinematic")))
            let marker: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF]
            let at = try #require((0...(bytes.count - 4)).reversed().first { Array(bytes[$0..<$0 + 4]) == marker })
            try Data(bytes[..<at]).write(to: URL(fileURLWithPath: video + ".cinematic"))
        }
        let ok = try Self.refocus(long, to: folder.path("ok.mp4"))
        #expect(ok.status == 0 && ok.stdout.contains("30 pictures"), "\(ok.stdout) \(ok.stderr)")
        #expect(ok.stderr.contains("names no video"), "\(ok.stderr)")
        try Self.copySidecar(of: short, to: long)
        let refused = try Self.refocus(long, to: folder.path("refused.mp4"))
        #expect(refused.status == 1 && refused.stderr.contains("12 of the 30 pictures"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("refused.mp4")))
    }

    @Test("a video that is not there: the video named missing, not its sidecar")
    func missingVideo() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let run = try ReelBinary.run(["refocus", folder.path("missing.mp4"), "--aperture", "2", "-o", folder.path("out.mp4")], input: "")
        #expect(run.status != 0)
        #expect(run.stderr.contains("\(folder.path("missing.mp4")) does not exist") && !run.stderr.contains(".cinematic"), "\(run.stderr)")
    }
}
