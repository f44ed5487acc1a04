import Foundation

/// The private pages `reel studio --open` hands the browser instead of the sign-in address, so
/// the address never appears on a command line (`ps` shows every user the arguments of
/// xdg-open and the browser it starts): each is an HTML file, mode 0600, that sends the browser
/// on to the studio with a one-time sign-in code. They live in `$XDG_RUNTIME_DIR` (the
/// account's private runtime folder) or, without it, in a folder of ours made mode 0700 under
/// the temporary folder; the caller removes each once its code is spent or expired, and
/// ``close()`` removes the rest (and our folder).
final class StudioSignInFiles: @unchecked Sendable {
    // Files are made and removed under `lock`; the folder is fixed at init.
    let folder: String
    private let ownsFolder: Bool
    private let lock = NSLock()
    private var made = 0
    private var files: Set<String> = []

    /// Picks the folder: `XDG_RUNTIME_DIR` when it is a folder, else a new private one.
    init(environment: [String: String]) throws {
        var isFolder: ObjCBool = false
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"),
           FileManager.default.fileExists(atPath: runtime, isDirectory: &isFolder), isFolder.boolValue {
            folder = runtime
            ownsFolder = false
            return
        }
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("reel-studio-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw Failure(sentence: "cannot make a private folder for the sign-in page: \(String(cString: strerror(errno)))") }
        folder = String(cString: made)
        ownsFolder = true
    }

    /// Writes a new page that opens `address`; its path.
    func write(opening address: URL) throws -> String {
        let path = lock.withLock { () -> String in
            made += 1
            return "\(folder)/reel-studio-\(getpid())-\(made)-open.html"
        }
        let escaped = address.absoluteString.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
        let page = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=\(escaped)"><title>Reel Studio</title></head>
            <body><p><a href="\(escaped)">Open Reel Studio</a></p></body></html>

            """
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(sentence: "cannot write the sign-in page \(path): \(String(cString: strerror(errno)))") }
        defer { Glibc.close(descriptor) }
        let bytes = Array(page.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            unlink(path)
            throw Failure(sentence: "cannot write the sign-in page \(path)")
        }
        lock.withLock { _ = files.insert(path) }
        return path
    }

    /// Removes a page written here (once the browser has used its code, or the code is gone).
    func remove(_ path: String) {
        lock.withLock { _ = files.remove(path) }
        unlink(path)
    }

    /// Removes every page left, and our folder.
    func close() {
        let left = lock.withLock { () -> Set<String> in defer { files.removeAll() }; return files }
        for path in left { unlink(path) }
        if ownsFolder { rmdir(folder) }
    }

    struct Failure: Error, CustomStringConvertible {
        var sentence: String
        var description: String { sentence }
    }
}
