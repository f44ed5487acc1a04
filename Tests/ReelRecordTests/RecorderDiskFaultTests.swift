import Foundation
import ReelCore
import ReelTestSupport
import Testing
@testable import ReelRecord

/// The recorder's durable writes (checkpoint, output placeholder) on a real full and a real
/// read-only disk: a tmpfs in a private mount namespace (``PrivateDisk``; root needed, as CI runs).
@Suite("Recorder files on a faulty disk", .serialized)
struct RecorderDiskFaultTests {
    private func checkpoint(_ seconds: Double, folder: String) -> RecordingCheckpoint {
        RecordingCheckpoint(
            id: UUID(uuidString: "6B1C1A52-8F0E-4C38-9E55-0B8B0B3C4F11")!, videoPath: folder + "/recording.mp4", outputPath: folder + "/out.mp4",
            canvas: VideoDimensions(width: 1280, height: 720), mode: .full, intervalSeconds: nil, activeSeconds: seconds, framesWritten: 375,
            state: .recording, startedAt: Date(timeIntervalSince1970: 1e9), updatedAt: Date(timeIntervalSince1970: 1e9 + seconds),
            title: nil, tags: [], faceTrack: FaceTrack())
    }

    @Test("a checkpoint on a full disk: a clear error, the previous checkpoint intact, no temporary file")
    func checkpointOnAFullDisk() throws {
        let disk = try PrivateDisk(bytes: 64 << 10)
        defer { disk.stop() }
        let path = disk.path + "/" + CheckpointFile.name
        let first = checkpoint(12.5, folder: disk.path)
        try CheckpointFile.write(first, to: path)
        disk.fill()
        #expect {
            try CheckpointFile.write(checkpoint(14.5, folder: disk.path), to: path)
        } throws: { error in
            "\(error)" == "cannot write \(path): no space left on the device; free some space on that disk and try again"
        }
        #expect(try CheckpointFile.read(at: path) == first)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: disk.path)) == [CheckpointFile.name, "filler"])
    }

    @Test("the output placeholder on a read-only disk: a clear error and nothing made; an existing name is taken, never replaced")
    func claimOnAReadOnlyDisk() throws {
        let disk = try PrivateDisk(bytes: 64 << 10)
        defer { disk.stop() }
        let taken = disk.path + "/taken.mp4"
        try Data("someone's video".utf8).write(to: URL(fileURLWithPath: taken))
        #expect(throws: OutputClaim.Taken.self) { try OutputClaim.claim(taken, id: UUID()) }
        #expect(FileManager.default.contents(atPath: taken) == Data("someone's video".utf8))
        try disk.remount(readOnly: true)
        let path = disk.path + "/out.mp4"
        #expect {
            try OutputClaim.claim(path, id: UUID())
        } throws: { error in
            "\(error)" == "cannot create a temporary file beside \(path): read-only file system; the disk is mounted read-only; choose a folder on a writable disk"
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path) == ["taken.mp4"])
    }
}
