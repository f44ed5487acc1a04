import Foundation

/// Whether two paths name the same file: the same device and inode when both exist (so
/// symbolic and hard links count), else the same place once `.` and `..` are taken out and the
/// deepest existing folder is resolved (a path that does not exist yet but leads to the file).
/// `reel export` and `reel overlay` check with it that an output never replaces an input.
public enum SameFile {
    /// Whether writing `output` would write over `input`.
    public static func refers(_ output: String, to input: String) -> Bool {
        guard let inputID = identity(input) else { return false }
        if let outputID = identity(output) { return outputID == inputID }
        let normalized = lexical(output)
        if let outputID = identity(normalized) { return outputID == inputID }
        guard let resolvedInput = resolved(input) else { return false }
        return resolved(normalized) == resolvedInput
    }

    private struct Identity: Equatable {
        var device: UInt64, inode: UInt64
    }

    private static func identity(_ path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// `path` with `.`, `..` and empty components taken out, as text.
    public static func lexical(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == ".." { if !parts.isEmpty { parts.removeLast() } } else { parts.append(part) }
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }

    /// The deepest existing folder of `path` with its links resolved, plus the rest as text.
    private static func resolved(_ path: String) -> String? {
        var head = lexical(path), tail: [String] = []
        while !head.isEmpty, head != "/" {
            if let real = realpath(head, nil) {
                defer { free(real) }
                return ([String(cString: real)] + tail.reversed()).joined(separator: "/")
            }
            tail.append((head as NSString).lastPathComponent)
            head = (head as NSString).deletingLastPathComponent
        }
        return nil
    }
}
