import Foundation
import ReelTestSupport
import Testing

/// The `reel` binary's durable writes on a real full and a real read-only disk: a tmpfs in a
/// private mount namespace (``PrivateDisk``, which this process and the binary reach through
/// `/proc/PID/root`; root needed, as CI runs). The error says what and what to do, the old
/// file is intact, no temporary file is left, the exit code is 1.
@Suite("reel on a full or read-only disk", .serialized)
struct DurableWriteCLITests {
    /// Names starting with a dot anywhere below `folder`.
    private func hiddenFiles(below folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? [])
            .filter { ($0 as NSString).lastPathComponent.hasPrefix(".") }
    }

    @Test("pomodoro: the end noticed on a full disk fails clearly with exit 1; the stored state is untouched, no temporary file")
    func pomodoroOnAFullDisk() async throws {
        let disk = try PrivateDisk(bytes: 64 << 10)
        defer { disk.stop() }
        let environment = ["XDG_STATE_HOME": disk.path, "PATH": "/usr/bin:/bin"]
        let state = disk.path + "/reel/pomodoro.json"
        let started = try ReelBinary.run(["pomodoro", "start", "--minutes", "0.02"], environment: environment)  // 1.2 s
        #expect(started.status == 0, "\(started.stderr)")
        let before = try Data(contentsOf: URL(fileURLWithPath: state))
        let stored = try JSONSerialization.jsonObject(with: before) as? [String: Any]
        let endsAt = try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(try #require(stored?["endsAt"] as? String))
        disk.fill()
        // Until the timer's own end, no later.
        if endsAt.timeIntervalSinceNow > 0 { try await Task.sleep(for: .milliseconds(Int((endsAt.timeIntervalSinceNow * 1000).rounded(.up)))) }
        // The end is noticed now: storing `notifiedAt` needs a page the disk does not have.
        let status = try ReelBinary.run(["pomodoro", "status"], environment: environment)
        #expect(status.status == 1, "\(status.stdout)\(status.stderr)")
        #expect(status.stderr.contains("cannot store the pomodoro state: cannot write \(state): no space left on the device; free some space on that disk and try again"),
                "\(status.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == before)
        #expect(hiddenFiles(below: disk.path).isEmpty)
    }

    @Test("backup: a second backup onto a disk turned read-only fails clearly; the first backup's backup.json is untouched")
    func backupOnAReadOnlyDisk() throws {
        let disk = try PrivateDisk(bytes: 2 << 20)
        defer { disk.stop() }
        let home = try BackupCommandTests.Home()
        defer { home.dir.cleanup() }
        try home.sessions(1, videoBytes: 20_000)
        let destination = disk.path + "/backup"
        let first = try home.reel(["backup", "--to", destination])
        #expect(first.status == 0, "\(first.stderr)")
        let document = try Data(contentsOf: URL(fileURLWithPath: destination + "/backup.json"))
        #expect(try home.reel(["tags", "add", "later"]).status == 0)  // the next document differs
        try disk.remount(readOnly: true)
        let second = try home.reel(["backup", "--to", destination])
        #expect(second.status == 1, "\(second.stdout)\(second.stderr)")
        #expect(second.stderr.contains("\(destination)/backup.json: read-only file system; the disk is mounted read-only; choose a folder on a writable disk"),
                "\(second.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: destination + "/backup.json")) == document)
        #expect(hiddenFiles(below: destination).isEmpty)
    }
}
