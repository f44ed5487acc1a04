import Foundation
import ReelCore
import ReelHTTP
import ReelRuntime

/// The file holding the origin's bearer token: read when it exists, created otherwise
/// (256 random bits in hex, mode 0600, never through a symlink; written whole through
/// ``DurableFile``, so a crash never leaves an empty token file).
public enum OriginTokenFile {
    /// What loading found.
    public struct Loaded: Sendable {
        /// The token.
        public var token: OriginToken
        /// Whether the file was created now.
        public var created: Bool
        /// Advice when other users can read the file.
        public var warning: String?
    }

    /// Reads the token at `url`, or creates the file with a new token.
    public static func loadOrCreate(at url: URL) throws(Error) -> Loaded {
        let path = url.path
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        if fd >= 0 {
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { throw .notAFile(path) }
            var bytes = [UInt8](repeating: 0, count: 1024)
            let count = read(fd, &bytes, bytes.count)
            guard count >= 0 else { throw .unreadable(path, ErrorSentence.posix(errno)) }
            let token: OriginToken
            do {
                token = try OriginToken(String(decoding: bytes.prefix(count), as: UTF8.self))
            } catch {
                throw .invalid(path, error)
            }
            let warning = (info.st_mode & 0o077) != 0
                ? "the token file \(path) can be read by other users; run 'chmod 600 \(path)'" : nil
            return Loaded(token: token, created: false, warning: warning)
        }
        guard errno == ENOENT else { throw .unreadable(path, ErrorSentence.posix(errno)) }
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .uncreatable(path, ErrorSentence.reason(error))
        }
        var generator = SystemRandomNumberGenerator()
        let token = OriginToken.generate(using: &generator)
        // Durably, mode 0600, never over an existing name (a symlink planted there included).
        do {
            try DurableFile.write(Data((token.text + "\n").utf8), to: path, ifExists: .fail, permissions: 0o600)
        } catch {
            throw .uncreatable(path, ErrorSentence.posix(error.code))
        }
        return Loaded(token: token, created: true, warning: nil)
    }

    /// Why the token file cannot be used.
    public enum Error: Swift.Error, Sendable, CustomStringConvertible {
        /// The path is a folder, a symlink or a device.
        case notAFile(String)
        /// It exists but cannot be read.
        case unreadable(String, String)
        /// It holds no usable token.
        case invalid(String, OriginToken.Error)
        /// It could not be created.
        case uncreatable(String, String)

        /// A message for the user: what happened and what to do.
        public var description: String {
            switch self {
            case .notAFile(let path): "the token file \(path) is not a regular file (symlinks are not followed); remove it or pass --token-file"
            case .unreadable(let path, let reason): "cannot read the token file \(path): \(reason); fix it or pass --token-file"
            case .invalid(let path, let error): "the token file \(path) holds no usable token: \(error)"
            case .uncreatable(let path, let reason): "cannot create the token file \(path): \(reason); check the folder's permissions or pass --token-file"
            }
        }
    }
}
