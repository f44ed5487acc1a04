import Foundation

/// A small tmpfs mounted in a private mount namespace (`unshare --mount`) that only a helper
/// process sees, reached by this process through `/proc/PID/root/…`: a real disk that fills up
/// or turns read-only without touching the machine, gone when the helper ends (``stop()``, or
/// this process's death closes the helper's input). Needs root (or CAP_SYS_ADMIN) and
/// util-linux's unshare and nsenter; CI runs as root.
public final class PrivateDisk {
    /// Why the disk could not be made.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The mounted folder, as this process reaches it.
    public let path: String
    /// The mount point inside the helper's namespace (what `nsenter` commands name).
    public let mountPoint: String
    private let process = Process()
    private let input = Pipe()
    private let folder: TemporaryDirectory

    /// Mounts a tmpfs of `bytes` (and at most `inodes` files and folders, when given).
    public init(bytes: Int, inodes: Int? = nil) throws {
        folder = try TemporaryDirectory()
        mountPoint = folder.path("disk")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        let options = "size=\(bytes)" + (inodes.map { ",nr_inodes=\($0)" } ?? "")
        let output = Pipe(), errors = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["--mount", "--propagation", "private", "/bin/sh", "-c",
                             #"mount -t tmpfs -o "$1" reel-test-disk "$0" || exit 97; echo ready; exec cat >/dev/null"#,
                             mountPoint, options]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let line = String(decoding: output.fileHandleForReading.readData(ofLength: 6), as: UTF8.self)
        guard line == "ready\n" else {
            process.waitUntilExit()
            let reason = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            folder.cleanup()
            throw Failure(description: "could not mount a tmpfs in a private mount namespace (\(reason.trimmingCharacters(in: .whitespacesAndNewlines))); "
                          + "these tests need root (or CAP_SYS_ADMIN) and util-linux's unshare")
        }
        path = "/proc/\(process.processIdentifier)/root" + mountPoint
    }

    deinit { stop() }

    /// Remounts the disk read-only (`true`) or writable again.
    public func remount(readOnly: Bool) throws {
        let result = try Subprocess.run("/usr/bin/nsenter", ["-t", "\(process.processIdentifier)", "-m", "/bin/mount", "-o",
                                                             "remount,\(readOnly ? "ro" : "rw")", mountPoint])
        guard result.status == 0 else { throw Failure(description: "remounting the test disk failed: \(result.stderr)") }
    }

    /// Fills the disk: writes `filler` until no byte more fits.
    public func fill() {
        let fd = open(path + "/filler", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let block = [UInt8](repeating: 0x55, count: 4096)
        while write(fd, block, block.count) > 0 {}
        while write(fd, block, 1) > 0 {}
    }

    /// Ends the helper (the mount goes with its namespace) and removes the mount point.
    public func stop() {
        if process.isRunning {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        folder.cleanup()
    }
}
