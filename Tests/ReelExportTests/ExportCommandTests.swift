import Foundation
import ReelCore
import ReelStore
import ReelTestSupport
import Testing

/// `reel export` and `reel review`, the real binary: JSON progress, a session reviewed,
/// edited and exported, and the mistakes a user makes.
@Suite("reel export and reel review end to end", .serialized)
struct ExportCommandTests {
    /// A temporary home with XDG folders, a library, and a 3 s recording with a face track of
    /// two segments (a face for 1.5 s, then a wider box).
    struct Home {
        let dir: TemporaryDirectory
        var library: String { dir.path("library.sqlite") }
        var video: String { dir.path("rec/study.mp4") }
        var environment: [String: String] {
            ["XDG_STATE_HOME": dir.path("state"), "XDG_DATA_HOME": dir.path("data"), "XDG_CACHE_HOME": dir.path("cache"),
             "REEL_MODELS_DIR": TestModels.folder]
        }
        let id = UUID(uuidString: "5eed0000-1111-4222-8333-444455556666")!

        init() throws {
            dir = try TemporaryDirectory()
            try FileManager.default.createDirectory(atPath: dir.path("rec"), withIntermediateDirectories: true)
            try TestMedia.makeClip(at: video, seconds: 3, width: 640, height: 360, audio: false,
                                   extraArguments: ["-vf", "noise=alls=40:allf=u", "-crf", "16"])
            var samples: [FaceTrackSample] = []
            for k in 0..<15 {
                let t = MediaTime(value: Int64(k) * 120, timescale: 600)
                samples.append(k < 8 ? FaceTrackSample(time: t, segment: 0, kind: .face, box: NormalizedRect(x: 0.4, y: 0.2, width: 0.2, height: 0.35))
                                     : FaceTrackSample(time: t, segment: 1, kind: .widenedFace, box: NormalizedRect(x: 0.3, y: 0.2, width: 0.4, height: 0.35)))
            }
            try FaceTrack(samples: samples).jsonData().write(to: URL(fileURLWithPath: dir.path("rec/study.faces.json")))
            let session = StudySession(id: id, startedAt: Date(timeIntervalSince1970: 1_796_000_000), endedAt: Date(timeIntervalSince1970: 1_796_000_003),
                                       activeSeconds: 3, videoSeconds: 3, mode: .full, intervalSeconds: nil, filePath: video,
                                       thumbnailPath: nil, faceTrackPath: dir.path("rec/study.faces.json"), title: "Reviewed", tags: [])
            let bare = StudySession(id: UUID(uuidString: "bae00000-1111-4222-8333-444455556666")!, startedAt: Date(timeIntervalSince1970: 1_795_000_000),
                                    endedAt: Date(timeIntervalSince1970: 1_795_000_003), activeSeconds: 3, videoSeconds: 3, mode: .full,
                                    intervalSeconds: nil, filePath: video, thumbnailPath: nil, faceTrackPath: nil, title: "No track", tags: [])
            let library = try StudyLibrary(path: library)
            try library.add(session)
            try library.add(bare)
        }

        func reel(_ arguments: [String]) throws -> Subprocess {
            try ReelBinary.run(arguments + ["--library", library], environment: environment)
        }
    }

    @Test("export a file with --json: progress lines, then a done line with the figures; the file plays with its audio")
    func jsonProgress() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let source = dir.path("talk.mp4")
        try TestMedia.makeClip(at: source, seconds: 3, width: 640, height: 360)
        let watermark = dir.path("mark.png")
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=red@0.6:s=64x32,format=rgba", "-frames:v", "1", watermark])
        #expect(made.status == 0, "\(made.stderr)")
        let run = try ReelBinary.run(["export", source, "-o", dir.path("out.mp4"), "--json", "--caption", "--caption-label", "勉強時間",
                                      "--watermark", watermark, "--size", "source"])
        #expect(run.status == 0, "\(run.stderr)")
        let events = run.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(events.count == run.stdout.split(separator: "\n").count, "every line is JSON: \(run.stdout)")
        #expect(events.contains { $0["event"] as? String == "progress" })
        let done = try #require(events.last)
        #expect(done["event"] as? String == "done" && done["frames"] as? Int == 90 && done["audioCopied"] as? Bool == true, "\(done)")
        #expect(done["detector"] as? String != nil)
        let lastProgress = try #require(events.last { $0["event"] as? String == "progress" })
        #expect(lastProgress["frames"] as? Int == 90 && lastProgress["totalFrames"] as? Int == 90 && lastProgress["percent"] as? Double == 100,
                "the last progress line is complete: \(lastProgress)")
        #expect(try ExportInspection.probe(dir.path("out.mp4"), "stream=codec_name") == ["h264", "aac"])
    }

    @Test("without the CenterFace model a file export stops and says how to get it; --detector haar is the explicit way round, with a warning")
    func missingModel() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let source = dir.path("talk.mp4")
        try TestMedia.makeClip(at: source, seconds: 1, width: 640, height: 360, audio: false)
        let empty = ["XDG_DATA_HOME": dir.path("no-models"), "REEL_MODELS_DIR": dir.path("no-models/reel/models")]
        let refused = try ReelBinary.run(["export", source, "-o", dir.path("out.mp4")], environment: empty)
        #expect(refused.status == 1 && refused.stderr.contains("CenterFace model is not installed") && refused.stderr.contains("make setup"),
                "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("out.mp4")))
        let haar = try ReelBinary.run(["export", source, "-o", dir.path("out.mp4"), "--detector", "haar"], environment: empty)
        #expect(haar.status == 0 && haar.stderr.contains("Haar cascade chosen"), "\(haar.stderr)")
    }

    @Test("review lists the segments with a picture each; an edit is stored apart from the track; export uses it; bad references and edits are clear")
    func reviewAndExport() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        let listing = try home.reel(["review", "5eed"])
        #expect(listing.status == 0, "\(listing.stderr)")
        let lines = listing.stdout.split(separator: "\n")
        #expect(lines.count == 3 && lines[0].hasPrefix("SEG"), "\(listing.stdout)")
        #expect(lines[1].contains("face") && lines[2].contains("wider box"), "\(listing.stdout)")
        let picture = home.dir.path("cache/reel/review/\(home.id.uuidString.lowercased())/segment-1.png")
        let png = try Data(contentsOf: URL(fileURLWithPath: picture))
        #expect(png.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]), "a PNG of the segment")
        let trackBefore = try Data(contentsOf: URL(fileURLWithPath: home.dir.path("rec/study.faces.json")))

        let edit = try home.reel(["review", "last", "--segment", "1", "--disable"])
        #expect(edit.status == 0, "\(edit.stderr)")
        #expect(edit.stdout.contains("segment 1: no mosaic"), "\(edit.stdout)")
        #expect(FileManager.default.fileExists(atPath: home.dir.path("rec/study.privacy.json")))
        #expect(try Data(contentsOf: URL(fileURLWithPath: home.dir.path("rec/study.faces.json"))) == trackBefore, "the track never changes")
        let json = try home.reel(["review", "5eed", "--json"])
        let rows = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["disabled"] as? Bool } == [false, true])

        let export = try home.reel(["export", "5eed", "-o", home.dir.path("share.mp4"), "--size", "source"])
        #expect(export.status == 0, "\(export.stderr)")
        let a = try ExportInspection.grayFrames(of: home.video, width: 640, height: 360)
        let b = try ExportInspection.grayFrames(of: home.dir.path("share.mp4"), width: 640, height: 360)
        let middle = NormalizedRect(x: 0.45, y: 0.3, width: 0.1, height: 0.15)
        #expect(ExportInspection.meanDifference(a[10], b[10], width: 640, height: 360, in: middle) > 7, "segment 0 hidden")
        #expect(ExportInspection.meanDifference(a[70], b[70], width: 640, height: 360, in: middle) < 4.5, "segment 1 disabled")

        let reset = try home.reel(["review", "5eed", "--segment", "1", "--reset"])
        #expect(reset.status == 0 && reset.stdout.contains("segment 1: -"), "\(reset.stdout)\(reset.stderr)")

        let unknownSegment = try home.reel(["review", "5eed", "--segment", "9", "--disable"])
        #expect(unknownSegment.status == 1 && unknownSegment.stderr.contains("no segment 9; the segments are 0, 1"), "\(unknownSegment.stderr)")
        let noSegment = try home.reel(["review", "5eed", "--disable"])
        #expect(noSegment.status == 64 && noSegment.stderr.contains("--segment N"), "\(noSegment.stderr)")
        let unknown = try home.reel(["export", "zzzz", "-o", home.dir.path("x.mp4")])
        #expect(unknown.status == 1 && unknown.stderr.contains("no such file") && unknown.stderr.contains("'zzzz' is not a session"), "\(unknown.stderr)")
        let unknownID = try home.reel(["export", "ffff", "-o", home.dir.path("x.mp4")])
        #expect(unknownID.status == 1 && unknownID.stderr.contains("no session id starts with 'ffff'"), "\(unknownID.stderr)")
        let bare = try home.reel(["export", "bae0", "-o", home.dir.path("x.mp4")])
        #expect(bare.status == 1 && bare.stderr.contains("--all-faces"), "\(bare.stderr)")
        let allFaces = try home.reel(["export", "bae0", "-o", home.dir.path("all.mp4"), "--all-faces", "--json"])
        #expect(allFaces.status == 0 && allFaces.stdout.contains("\"event\":\"done\""), "--all-faces finds faces in a session without positions: \(allFaces.stderr)")
        let bareReview = try home.reel(["review", "bae0"])
        #expect(bareReview.status == 1 && bareReview.stderr.contains("no face positions"), "\(bareReview.stderr)")
        let badPrivacy = try home.reel(["export", "5eed", "-o", home.dir.path("x.mp4"), "--privacy", "blur"])
        #expect(badPrivacy.status == 64 && badPrivacy.stderr.contains("stamp:IMAGE.png"), "\(badPrivacy.stderr)")
        let exists = try home.reel(["export", "5eed", "-o", home.dir.path("share.mp4")])
        #expect(exists.status == 1 && exists.stderr.contains("--overwrite"), "\(exists.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.dir.path("x.mp4")))
    }
}
