import Foundation

/// Errors from Foundation and the system in words a user can act on: never
/// `Error Domain=NSURLErrorDomain Code=-1004 "(null)" UserInfo={…}`, never "The operation could
/// not be completed". The caller says what failed and what to do; this says why, in a few
/// words: "connection refused by 127.0.0.1:9", "permission denied", "no such file or folder".
///
/// Understood: `NSURLErrorDomain` (`URLError`), `NSCocoaErrorDomain` (`CocoaError`: file and
/// data errors, with their underlying POSIX error preferred when there is one),
/// `NSPOSIXErrorDomain` (`POSIXError`, errno), decoding and encoding errors. Any other error
/// that describes itself (Reel's own errors) is its description. Pure: no I/O.
public enum ErrorSentence {
    /// Why `error` happened, without where: e.g. "permission denied". `url` names the server for
    /// a network error whose own information lacks it.
    public static func reason(_ error: any Error, url: URL? = nil) -> String {
        let ns = error as NSError
        switch ns.domain {
        case urlDomain: return network(ns.code, url: url ?? failingURL(ns), detail: ownDescription(ns))
        case cocoaDomain: return cocoa(ns)
        case posixDomain: return posix(Int32(truncatingIfNeeded: ns.code))
        default: break
        }
        if error is DecodingError { return "the data is damaged or not in the expected format" }
        if error is EncodingError { return "the data could not be encoded" }
        if !(type(of: error) is NSError.Type) { return String(describing: error) }  // Reel's own: their description
        return ns.localizedFailureReason ?? "error \(ns.code) in \(ns.domain)"
    }

    /// ``reason(_:url:)`` preceded by the file the error names, when it names one:
    /// "/srv/x.json: permission denied". For a caller that does not know the file itself.
    public static func describe(_ error: any Error) -> String {
        let ns = error as NSError
        guard ns.domain == cocoaDomain, let path = filePath(ns), !path.isEmpty else { return reason(error) }
        return "\(path): \(reason(error))"
    }

    /// The sentence for an `errno` value: "no such file or folder", "permission denied", …
    public static func posix(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file or folder"
        case EACCES: "permission denied"
        case EPERM: "operation not permitted"
        case ENOSPC: "no space left on the device"
        case EDQUOT: "disk quota exceeded"
        case EROFS: "read-only file system"
        case EEXIST: "something with that name already exists"
        case ENOTDIR: "a file stands where a folder should be"
        case EISDIR: "it is a folder, not a file"
        case ENOTEMPTY: "the folder is not empty"
        case ELOOP: "a symbolic link is in the way (or links loop)"
        case ENAMETOOLONG: "the name is too long"
        case EXDEV: "it cannot be moved to another file system"
        case EMFILE, ENFILE: "too many open files"
        case EIO: "input/output error (the disk or device may be failing)"
        case ECONNREFUSED: "connection refused"
        case ETIMEDOUT: "timed out"
        case EADDRINUSE: "the address is already in use"
        case EADDRNOTAVAIL: "the address is not one of this machine's"
        case ENETUNREACH, EHOSTUNREACH: "no route to the host"
        case ECONNRESET: "the connection was reset"
        default: lowercasedFirst(String(cString: strerror(code)))
        }
    }

    // MARK: Domains

    static let urlDomain = "NSURLErrorDomain"
    static let cocoaDomain = "NSCocoaErrorDomain"
    static let posixDomain = "NSPOSIXErrorDomain"

    /// A URL error's sentence (codes as `URLError.Code`'s raw values). `detail` is the error's
    /// own text where it has one (on Linux, curl's message), used for codes without a meaning
    /// of their own, such as -1 for a TLS handshake with a server that does not speak TLS.
    static func network(_ code: Int, url: URL?, detail: String? = nil) -> String {
        let server = url.map(hostAndPort) ?? "the server"
        let host = url?.host.map { $0 } ?? "the server"
        switch code {
        case -999: return "the request was cancelled"
        case -1000: return "the address is not a valid URL"
        case -1001: return "no answer from \(server) in time (timed out)"
        case -1002: return "unsupported address (only http:// and https:// are)"
        case -1003, -1006: return "host name \(host) not found"
        case -1004: return "connection refused by \(server)"
        case -1005: return "the connection to \(server) was lost"
        case -1007: return "too many redirects from \(server)"
        case -1009: return "no network connection"
        case -1011: return "\(server) did not answer with valid HTTP"
        case -1012, -1013: return "\(server) wants authentication"
        case -1014: return "\(server) answered with nothing"
        case -1015, -1016, -1017: return "the answer from \(server) could not be read"
        case -1103: return "the answer from \(server) is too large"
        case -1200: return "the TLS connection to \(server) failed"
        case -1201, -1204: return "the TLS certificate of \(host) is expired or not valid yet"
        case -1202, -1203: return "the TLS certificate of \(host) is not trusted"
        case -1205, -1206: return "\(server) wants a TLS client certificate"
        default:
            guard let detail else { return "network error \(code) talking to \(server)" }
            let tls = ["SSL", "TLS", "certificate"].contains { detail.localizedCaseInsensitiveContains($0) }
            return tls ? "the TLS connection to \(server) failed (\(detail))" : "the exchange with \(server) failed (\(detail))"
        }
    }

    /// The error's own description when it has a real one (not Foundation's "The operation
    /// could not be completed" filler).
    static func ownDescription(_ ns: NSError) -> String? {
        guard let text = ns.userInfo[NSLocalizedDescriptionKey] as? String, !text.isEmpty,
              !text.hasPrefix("The operation could not be completed") else { return nil }
        return text
    }

    /// A Cocoa error's sentence: the underlying POSIX error when there is one, else by code
    /// (`CocoaError.Code`'s raw values).
    static func cocoa(_ ns: NSError) -> String {
        // On Linux the underlying error is often a POSIXError value, not an NSError object.
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? any Error, (underlying as NSError).domain == posixDomain {
            return posix(Int32(truncatingIfNeeded: (underlying as NSError).code))
        }
        switch ns.code {
        case 4, 260: return posix(ENOENT)
        case 257, 513: return posix(EACCES)
        case 640: return posix(ENOSPC)
        case 642: return posix(EROFS)
        case 516: return posix(EEXIST)
        case 259, 3840, 4864, 4865: return "the data is damaged or not in the expected format"
        case 261, 517: return "the text is not in the expected encoding"
        case 262, 518: return "not a local file"
        case 263: return "the file is too large to read"
        case 256..<512: return "the file could not be read"
        case 512..<640: return "the file could not be written"
        default: return ns.localizedFailureReason ?? "error \(ns.code) in \(ns.domain)"
        }
    }

    /// The URL a network error names, if any.
    static func failingURL(_ ns: NSError) -> URL? {
        if let url = ns.userInfo["NSErrorFailingURLKey"] as? URL { return url }
        return (ns.userInfo["NSErrorFailingURLStringKey"] as? String).flatMap(URL.init(string:))
    }

    /// The file a Cocoa error names, if any.
    static func filePath(_ ns: NSError) -> String? {
        if let path = ns.userInfo[NSFilePathErrorKey] as? String { return path }
        return (ns.userInfo[NSURLErrorKey] as? URL).flatMap { $0.isFileURL ? $0.path : nil }
    }

    /// `host:port` (`[v6]:port`), the scheme's port when the URL has none.
    static func hostAndPort(_ url: URL) -> String {
        guard let host = url.host, !host.isEmpty else { return url.absoluteString }
        let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : url.scheme?.lowercased() == "http" ? 80 : nil)
        return port.map { "\(shown):\($0)" } ?? shown
    }

    private static func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
