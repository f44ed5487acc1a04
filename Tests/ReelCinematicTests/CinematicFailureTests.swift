import Foundation
import ReelTestSupport
import Testing

/// `reel cinematic` when there is nothing to record or nowhere to record it: a clear refusal,
/// exit 1 and no file left behind; FFmpeg's own lines only with `--verbose`; the help after a
/// command on standard input that is none names every command.
@Suite("reel cinematic: a source without pictures or a full disk fails cleanly; FFmpeg's lines only with --verbose")
struct CinematicFailureTests {
    /// A PNG whose header says 20000x20000 and that holds no picture data.
    static func hugePNGHeader() -> Data {
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in typed {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            crc ^= 0xFFFF_FFFF
            return bigEndian(UInt32(body.count)) + typed + bigEndian(crc)
        }
        func bigEndian(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        let header = bigEndian(20_000) + bigEndian(20_000) + [8, 2, 0, 0, 0]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IEND", []))
    }

    /// The files in `folder` (none expected but the inputs).
    static func files(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test("a text file named .png, an MP4 without video, a 20000x20000 PNG header: exit 1, 'no pictures' said, no MP4 or sidecar left; no raw FFmpeg line")
    func noPictures() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let text = folder.path("notes.png")
        try Data("these are notes, not a picture\n".utf8).write(to: URL(fileURLWithPath: text))
        let huge = folder.path("huge.png")
        try Self.hugePNGHeader().write(to: URL(fileURLWithPath: huge))
        // A video track and no picture in it (what a recording that never got a picture leaves).
        let empty = folder.path("empty.mp4")
        let made = try Subprocess.run("ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=320x240:r=10", "-frames:v", "0",
                                                 "-c:v", "libx264", "-movflags", "frag_keyframe+empty_moov", empty])
        try #require(made.status == 0, "ffmpeg: \(made.stderr)")
        for (index, source) in [text, empty, huge].enumerated() {
            for editable in [false, true] {
                let output = folder.path("out-\(index)-\(editable).mp4")
                let run = try ReelBinary.run(["cinematic", "--source", "file:" + source, "--output", output, "--fast"] + (editable ? ["--editable"] : []),
                                             input: "")
                #expect(run.status == 1, "\(source): \(run.status) \(run.stdout) \(run.stderr)")
                #expect(run.stderr.contains("no pictures") && run.stderr.contains("nothing was written"), "\(source): \(run.stderr)")
                #expect(!run.stdout.contains("wrote"), "\(source): \(run.stdout)")
                #expect(!run.stderr.contains(" @ 0x") && !run.stderr.contains("Invalid PNG signature"), "\(source): \(run.stderr)")
                #expect(!FileManager.default.fileExists(atPath: output) && !FileManager.default.fileExists(atPath: output + ".cinematic"),
                        "\(source): \(Self.files(in: folder.url.path))")
            }
        }
    }

    @Test("--verbose shows FFmpeg's lines, as Reel's, without the address of FFmpeg's object")
    func verbose() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let text = folder.path("notes.png")
        try Data("these are notes, not a picture\n".utf8).write(to: URL(fileURLWithPath: text))
        let run = try ReelBinary.run(["cinematic", "--source", "file:" + text, "--output", folder.path("out.mp4"), "--fast", "--verbose"], input: "")
        #expect(run.status == 1)
        #expect(run.stderr.contains("ffmpeg (png): Invalid PNG signature"), "\(run.stderr)")
        #expect(!run.stderr.contains(" @ 0x"), "\(run.stderr)")
    }

    @Test("--editable on a disk that fills before the first fragment is whole (8 KiB: while recording; 12 KiB: in the last flush): exit 1 saying so, no MP4 and no sidecar left",
          arguments: [8, 12])
    func fullDisk(kibibytes: Int) throws {
        // Room for the sidecar's records and the MP4's header, not for the 2 s fragment (about 45 KB).
        let disk = try PrivateDisk(bytes: kibibytes << 10)
        defer { disk.stop() }
        let output = disk.path + "/take.mp4"
        let run = try ReelBinary.run(["cinematic", "--source", "test:640x480@10", "--output", output, "--duration", "2", "--editable", "--fast"],
                                     input: "")
        #expect(run.status == 1, "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.lowercased().contains("no space left on") && run.stderr.contains("nothing was written"), "\(run.stderr)")
        #expect(!run.stderr.contains("recorded before that") && !run.stdout.contains("wrote"), "\(run.stdout) \(run.stderr)")
        #expect(Self.files(in: disk.path).isEmpty, "\(Self.files(in: disk.path))")
    }

    @Test("a line on standard input that is no command: the help names every command, still and stop too")
    func standardInputHelp() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let output = folder.path("pattern.mp4")
        let run = try ReelBinary.run(["cinematic", "--source", "test:320x240@10", "--output", output, "--duration", "1"], input: "zoom 2\n")
        #expect(run.status == 0, "\(run.stderr)")
        let help = run.stderr.split(separator: "\n").first { $0.contains("'zoom 2': unknown command") }.map(String.init) ?? ""
        for command in ["tap X Y", "press X Y", "subject ID strong|weak", "aperture F", "lock", "auto", "still", "stop"] {
            #expect(help.contains(command), "'\(command)' missing from: \(run.stderr)")
        }
    }
}
