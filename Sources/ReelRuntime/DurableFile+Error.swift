import Foundation
import ReelCore

extension DurableFile {
    /// A durable write that failed: which step, on which file, why (`errno`), and what to do,
    /// as one sentence. The temporary file is gone by the time it is thrown.
    public struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        /// The step that failed.
        public enum Step: Sendable, Equatable {
            /// Opening the destination's folder.
            case openFolder
            /// Creating the temporary file.
            case create
            /// Writing the bytes.
            case write
            /// fsync of the file.
            case sync
            /// Renaming it onto its name (`EEXIST`: a file is there and replacing was not asked).
            case place
            /// fsync of the folder (the file is in place; its name may not survive a power cut).
            case syncFolder
        }

        /// The step that failed.
        public var step: Step
        /// The destination, as the caller named it.
        public var path: String
        /// `errno` at the failure.
        public var code: Int32

        /// The failure of `step` on `path` with `code`.
        public init(_ step: Step, _ path: String, code: Int32) {
            self.step = step
            self.path = path
            self.code = code
        }

        /// The disk or the user's quota is full.
        public var isNoSpace: Bool { code == ENOSPC || code == EDQUOT }

        /// "cannot write /srv/a.json: no space left on the device; free some space on that disk
        /// and try again".
        public var description: String {
            if step == .place && code == EEXIST {
                return "\(path) already exists and is left as it is; remove it or choose another name"
            }
            let advice = self.advice
            return "cannot \(doing) \(path): \(ErrorSentence.posix(code))" + (advice.isEmpty ? "" : "; " + advice)
        }

        /// What was being done, as the words after "cannot".
        var doing: String {
            switch step {
            case .openFolder: "open the folder of"
            case .create: "create a temporary file beside"
            case .write: "write"
            case .sync: "flush to the disk"
            case .place: "put in place"
            case .syncFolder: "flush to the disk the folder holding"
            }
        }

        /// What the user can do about `code`, or "".
        var advice: String {
            let folder = DurableFile.folder(of: path)
            switch code {
            case ENOSPC, EDQUOT: return "free some space on that disk and try again"
            case EROFS: return "the disk is mounted read-only; choose a folder on a writable disk"
            case EACCES, EPERM: return "give this user write permission on \(folder) or choose another folder"
            case ENOENT where step == .openFolder: return "create the folder \(folder) first"
            case ELOOP: return "symbolic links are never followed there; remove the link"
            case EIO: return "check the disk (dmesg) before trying again"
            default: return ""
            }
        }
    }
}

extension DurableFile {
    /// A new temporary name for `name`: `.NAME.PID.RANDOM.tmp`, hidden, in the same folder, with
    /// the writing process's id (so a leftover of a dead process is recognisable).
    public static func temporaryName(for name: String) -> String {
        ".\(name).\(getpid()).\(String(UInt64.random(in: 0...UInt64.max), radix: 36)).tmp"
    }

    /// The destination's name and the writing process of a temporary file named `entry`, or nil
    /// when `entry` is not one of ``temporaryName(for:)``'s names.
    public static func leftover(_ entry: String) -> (name: String, pid: pid_t)? {
        guard entry.hasPrefix("."), entry.hasSuffix(".tmp") else { return nil }
        let parts = entry.dropFirst().dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, let pid = pid_t(parts[parts.count - 2]), pid > 0,
              !parts[parts.count - 1].isEmpty, parts[parts.count - 1].allSatisfy({ $0.isNumber || $0.isLetter }) else { return nil }
        let name = parts.dropLast(2).joined(separator: ".")
        return name.isEmpty ? nil : (name, pid)
    }

    /// Removes the temporary files in `folderPath` whose process is gone (killed, crashed),
    /// never those of a running process; returns how many.
    @discardableResult
    public static func removeLeftovers(in folderPath: String) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folderPath) else { return 0 }
        var removed = 0
        for entry in names {
            guard let (_, pid) = leftover(entry), pid != getpid() else { continue }
            // kill(pid, 0) fails with ESRCH only when no such process exists (EPERM: it exists).
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            if unlink(folderPath + "/" + entry) == 0 { removed += 1 }
        }
        return removed
    }
}
