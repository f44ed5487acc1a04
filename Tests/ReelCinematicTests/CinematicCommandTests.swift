import Foundation
import ReelCore
import ReelTestSupport
import Testing

/// `reel cinematic` through the built binary: the synthetic scene of ``CinematicCameraTests``
/// recorded with the blur baked in, commands on standard input, and every refusal.
@Suite("reel cinematic: a recording with the blur baked in, commands on stdin, clear refusals")
struct CinematicCommandTests {
    /// The luma of picture `index` of `path`, decoded by ffmpeg (into a file: the bytes are not text).
    static func luma(of path: String, picture index: Int) throws -> [UInt8] {
        let raw = path + ".\(index).gray"
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let run = try Subprocess.run("ffmpeg", ["-loglevel", "error", "-y", "-i", path, "-vf", "select=eq(n\\,\(index))", "-frames:v", "1",
                                                "-f", "rawvideo", "-pix_fmt", "gray", raw])
        guard run.status == 0 else { throw CinematicCameraTests.TestFailure("ffmpeg could not decode \(path): \(run.stderr)") }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
    }

    @Test("a file recorded fast: every picture written as H.264, the background blurred and the face kept; stdin commands applied or refused with the reason")
    func recording() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let scene = try CinematicCameraTests.makeScene(in: folder), output = folder.path("out.mp4")
        let pictures = folder.path("pictures")
        let run = try ReelBinary.run(["cinematic", "--source", "file:" + scene, "--output", output, "--fast", "--aperture", "2"],
                                     environment: ["XDG_PICTURES_DIR": pictures],
                                     input: "aperture 2.8\nsubject 99 strong\naperture 30\ntap 2 2\nstill\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("10 pictures"), "\(run.stdout)")
        #expect(run.stderr.contains("ok: aperture 2.8"))
        #expect(run.stderr.contains("'subject 99 strong': no subject 99 in the picture"))
        #expect(run.stderr.contains("'aperture 30': f/30.0 is outside the aperture's range"))
        #expect(run.stderr.contains("'tap 2 2': X and Y are shares of the picture"))
        #expect(run.stderr.contains("subjects 1 face* · focus subject 1 (weak)") && run.stderr.contains("f/2.8"))
        let probe = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", "v", "-count_frames", "-show_entries",
                                                   "stream=codec_name,width,height,nb_read_frames", "-of", "csv=p=0", output])
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "h264,1280,720,10")
        let before = try Self.luma(of: scene, picture: 9), after = try Self.luma(of: output, picture: 9)
        try #require(before.count == 1280 * 720 && after.count == before.count)
        let bx = 40..<300, by = 40..<680
        let share = CinematicCameraTests.spread(after, x: bx, y: by) / CinematicCameraTests.spread(before, x: bx, y: by)
        #expect(share < 0.3, "the background keeps \(share) of its noise")
        // The face (the photo's 178…272 x 78…178 at 600/512, from x 340, y 120): its middle.
        let fx = 570..<610, fy = 200..<260
        let kept = CinematicCameraTests.detail(after, x: fx, y: fy) / CinematicCameraTests.detail(before, x: fx, y: fy)
        #expect(kept > 0.7, "the face keeps \(kept) of its detail")

        // `still`: a picture with the blur, whole size, in ~/Pictures/reel/cinematic.
        let stills = try FileManager.default.contentsOfDirectory(atPath: pictures + "/reel/cinematic")
        #expect(stills.count == 1 && run.stderr.contains("still: \(pictures)/reel/cinematic/\(stills.first ?? "")"), "\(run.stderr)")
        let still = try Self.luma(of: pictures + "/reel/cinematic/" + (stills.first ?? ""), picture: 0)
        try #require(still.count == 1280 * 720)
        let stillShare = CinematicCameraTests.spread(still, x: bx, y: by) / CinematicCameraTests.spread(try Self.luma(of: scene, picture: 0), x: bx, y: by)
        #expect(stillShare < 0.3, "the still's background keeps \(stillShare) of its noise")
    }

    @Test("refusals: an f-number out of range, a focus that is no focus, an output that exists — usage errors, nothing written")
    func usage() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let existing = folder.path("taken.mp4")
        try Data("x".utf8).write(to: URL(fileURLWithPath: existing))
        let aperture = try ReelBinary.run(["cinematic", "--output", folder.path("a.mp4"), "--aperture", "1.4"], input: "")
        #expect(aperture.status == 64 && aperture.stderr.contains("invalid value '1.4' for '--aperture': expected an f-number from 2.0 to 16.0"))
        let focus = try ReelBinary.run(["cinematic", "--output", folder.path("b.mp4"), "--focus", "point:0.5"], input: "")
        #expect(focus.status == 64 && focus.stderr.contains("expected auto, point:X,Y or fixed:X,Y"))
        let taken = try ReelBinary.run(["cinematic", "--output", existing], input: "")
        #expect(taken.status == 64 && taken.stderr.contains("already exists"))
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "x")
        #expect(!FileManager.default.fileExists(atPath: folder.path("a.mp4")) && !FileManager.default.fileExists(atPath: folder.path("b.mp4")))
    }

    @Test("failures: a source that is not there, the models missing — exit 1 with what to do, no file left")
    func failures() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let missing = try ReelBinary.run(["cinematic", "--source", "file:" + folder.path("none.mp4"), "--output", folder.path("a.mp4")], input: "")
        #expect(missing.status == 1 && missing.stderr.contains("no such file"), "\(missing.stderr)")
        let models = try ReelBinary.run(["cinematic", "--source", "test:320x240@10", "--output", folder.path("b.mp4"), "--duration", "1"],
                                        environment: ["REEL_MODELS_DIR": folder.url.path], input: "")
        #expect(models.status == 1 && models.stderr.contains("person-segmentation model missing") && models.stderr.contains("make setup"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("a.mp4")) && !FileManager.default.fileExists(atPath: folder.path("b.mp4")))
    }

    @Test("no person in the picture: the test pattern recorded unblurred, nothing focused, said on the status line")
    func nobody() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let output = folder.path("pattern.mp4")
        let run = try ReelBinary.run(["cinematic", "--source", "test:320x240@10", "--output", output, "--duration", "1"], input: "lock\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("subjects none · focus waiting for a subject"))
        #expect(run.stderr.contains("'lock': nothing to lock: no subject is in the picture"))
        // The test source runs in real time: on a loaded machine (the tests in parallel) the
        // camera falls behind, drops pictures and says so ("5 pictures … 1 of 6 dropped"), and
        // the source, like a camera, skips those it could not deliver. So the count is not fixed:
        // what the summary says is what the file holds, and the dropped ones are accounted for.
        let summary = try #require(run.stdout.firstMatch(of: /wrote .*: (\d+) pictures, [^;]*(?:; (\d+) of (\d+) dropped)?/), "\(run.stdout)")
        let written = try #require(Int(summary.1))
        #expect(written >= 1)
        if let dropped = summary.2.flatMap({ Int($0) }), let total = summary.3.flatMap({ Int($0) }) {
            #expect(written + dropped == total, "\(run.stdout)")
        }
        let probe = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", "v", "-count_frames", "-show_entries",
                                                   "stream=nb_read_frames", "-of", "csv=p=0", output])
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == String(written), "the file holds \(probe.stdout), the summary says \(written)")
    }
}

/// `reel cinematic --live-origin`: the same pictures streamed by `reel live`'s session to `reel serve`.
@Suite("reel cinematic --live-origin: the camera's pictures streamed as live HLS")
struct CinematicLiveTests {
    @Test("streamed to reel serve on loopback: a finished playlist ffmpeg plays, 10 pictures at 1280x720, the subjects said")
    func live() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let scene = try CinematicCameraTests.makeScene(in: folder)
        try await withReelServeOrigin { origin in
            let run = try ReelBinary.run(["cinematic", "--source", "file:" + scene, "--live-origin", origin.baseURL.absoluteString,
                                          "--token", origin.token, "--stream-id", "cine", "--fast", "--aperture", "2"], input: "")
            #expect(run.status == 0, "\(run.stderr)")
            #expect((run.stdout + run.stderr).contains("cinematic: subjects 1 face* · focus subject 1 (weak)"), "\(run.stdout)")
            let playlist = try await origin.get("streams/cine/playlist.m3u8")
            #expect(playlist.status == 200 && String(decoding: playlist.body, as: UTF8.self).contains("#EXT-X-ENDLIST"))
            let probe = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", "v", "-count_frames", "-show_entries",
                                                       "stream=width,height,nb_read_frames", "-of", "csv=p=0",
                                                       origin.baseURL.absoluteString + "streams/cine/playlist.m3u8"])
            // The HLS demuxer lists the stream once as a program's and once on its own.
            let lines = probe.stdout.split(separator: "\n").filter { !$0.isEmpty }
            #expect(!lines.isEmpty && lines.allSatisfy { $0 == "1280,720,10" }, "\(probe.stdout) \(probe.stderr)")
        }
    }
}
