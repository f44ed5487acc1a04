import Foundation

/// The backup's two decisions that are arithmetic (docs/library.md, Backup and restore):
/// whether `--auto` runs, and whether the destination has room.
public enum BackupPolicy {
    /// `--auto` runs at most once a day.
    public static let autoInterval: TimeInterval = 24 * 3600

    /// Room kept free beyond the files themselves: `backup.json` and its temporary copy, and
    /// the file system's own blocks (1 MiB plus 1 % of what is copied).
    public static func margin(forCopying bytes: Int64) -> Int64 { (1 << 20) + bytes / 100 }

    /// Whether `--auto` should back up now: no previous backup, one at least ``autoInterval``
    /// old, or one dated in the future (a clock that was wrong).
    public static func isAutoDue(lastBackup: Date?, now: Date) -> Bool {
        guard let last = lastBackup else { return true }
        let age = now.timeIntervalSince(last)
        return age >= autoInterval || age < 0
    }

    /// Whether `available` bytes hold `bytesToCopy` plus the ``margin(forCopying:)``.
    public static func fits(bytesToCopy: Int64, available: Int64) -> Bool {
        bytesToCopy + margin(forCopying: bytesToCopy) <= available
    }
}
