import Foundation
import ReelCore
import Testing

/// Foundation's and the system's errors as a few words a user can act on.
@Suite("ErrorSentence")
struct ErrorSentenceTests {
    struct Own: Error, CustomStringConvertible {
        var description: String { "the library is damaged" }
    }

    @Test("network errors name the server as host:port, the scheme's port when the URL has none")
    func network() {
        func urlError(_ code: Int, _ address: String?) -> NSError {
            NSError(domain: "NSURLErrorDomain", code: code,
                    userInfo: address.map { ["NSErrorFailingURLKey": URL(string: $0)!] } ?? [:])
        }
        #expect(ErrorSentence.reason(urlError(-1004, "http://127.0.0.1:9/x")) == "connection refused by 127.0.0.1:9")
        #expect(ErrorSentence.reason(urlError(-1004, "https://api.openbd.jp/v1/get")) == "connection refused by api.openbd.jp:443")
        #expect(ErrorSentence.reason(urlError(-1004, "http://[::1]:8080/")) == "connection refused by [::1]:8080")
        #expect(ErrorSentence.reason(urlError(-1001, "http://10.0.0.1/")) == "no answer from 10.0.0.1:80 in time (timed out)")
        #expect(ErrorSentence.reason(urlError(-1003, "https://nope.invalid/")) == "host name nope.invalid not found")
        #expect(ErrorSentence.reason(urlError(-1005, "http://h:1/")) == "the connection to h:1 was lost")
        #expect(ErrorSentence.reason(urlError(-1009, nil)) == "no network connection")
        #expect(ErrorSentence.reason(urlError(-1202, "https://h/")) == "the TLS certificate of h is not trusted")
        #expect(ErrorSentence.reason(urlError(-1004, nil)) == "connection refused by the server")
        #expect(ErrorSentence.reason(urlError(-1004, nil), url: URL(string: "http://127.0.0.1:7/a")) == "connection refused by 127.0.0.1:7")
        #expect(ErrorSentence.reason(urlError(-1234, "http://h:2/")) == "network error -1234 talking to h:2")
        // On Linux a TLS handshake with a plain HTTP server is code -1 with curl's message.
        let tls = NSError(domain: "NSURLErrorDomain", code: -1, userInfo: [
            "NSErrorFailingURLKey": URL(string: "https://127.0.0.1:8/")!,
            NSLocalizedDescriptionKey: "OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong version number"])
        #expect(ErrorSentence.reason(tls) == "the TLS connection to 127.0.0.1:8 failed (OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong version number)")
        let other = NSError(domain: "NSURLErrorDomain", code: -1, userInfo: ["NSErrorFailingURLKey": URL(string: "http://h:3/")!,
                                                                            NSLocalizedDescriptionKey: "Weird failure"])
        #expect(ErrorSentence.reason(other) == "the exchange with h:3 failed (Weird failure)")
        let filler = NSError(domain: "NSURLErrorDomain", code: -1, userInfo: ["NSErrorFailingURLKey": URL(string: "http://h:3/")!,
                                                                             NSLocalizedDescriptionKey: "The operation could not be completed"])
        #expect(ErrorSentence.reason(filler) == "network error -1 talking to h:3")
        let string = NSError(domain: "NSURLErrorDomain", code: -1004, userInfo: ["NSErrorFailingURLStringKey": "http://127.0.0.1:9/"])
        #expect(ErrorSentence.reason(string) == "connection refused by 127.0.0.1:9")
    }

    @Test("file errors: the underlying POSIX error first, else the Cocoa code; describe adds the path")
    func files() {
        #expect(ErrorSentence.reason(CocoaError(.fileWriteNoPermission)) == "permission denied")
        #expect(ErrorSentence.reason(CocoaError(.fileReadNoSuchFile)) == "no such file or folder")
        #expect(ErrorSentence.reason(CocoaError(.fileNoSuchFile)) == "no such file or folder")
        #expect(ErrorSentence.reason(CocoaError(.fileWriteOutOfSpace)) == "no space left on the device")
        #expect(ErrorSentence.reason(CocoaError(.fileWriteVolumeReadOnly)) == "read-only file system")
        #expect(ErrorSentence.reason(CocoaError(.fileReadCorruptFile)) == "the data is damaged or not in the expected format")
        #expect(ErrorSentence.reason(CocoaError(.fileWriteUnknown)) == "the file could not be written")
        let underlying = NSError(domain: NSCocoaErrorDomain, code: 512,
                                 userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOTDIR)),
                                            NSFilePathErrorKey: "/srv/a/b"])
        #expect(ErrorSentence.reason(underlying) == "a file stands where a folder should be")
        #expect(ErrorSentence.describe(underlying) == "/srv/a/b: a file stands where a folder should be")
        #expect(ErrorSentence.describe(CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: "/etc/x"])) == "/etc/x: permission denied")
        #expect(ErrorSentence.describe(CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: ""])) == "no such file or folder", "an empty path adds nothing")
        // As FileManager on Linux makes them: the underlying error a POSIXError value.
        let linux = CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: "/tmp/f/o", NSUnderlyingErrorKey: POSIXError(.ENOTDIR)])
        #expect(ErrorSentence.describe(linux) == "/tmp/f/o: a file stands where a folder should be")
        #expect(ErrorSentence.describe(CocoaError(.fileWriteNoPermission)) == "permission denied")
    }

    @Test("errno values, POSIXError, decoding errors, Reel's own errors and unknown domains")
    func others() {
        #expect(ErrorSentence.posix(ENOENT) == "no such file or folder")
        #expect(ErrorSentence.posix(EACCES) == "permission denied")
        #expect(ErrorSentence.posix(ECONNREFUSED) == "connection refused")
        #expect(ErrorSentence.posix(EADDRINUSE) == "the address is already in use")
        #expect(ErrorSentence.posix(E2BIG) == "argument list too long")
        #expect(ErrorSentence.reason(POSIXError(.EROFS)) == "read-only file system")
        #expect(ErrorSentence.reason(NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))) == "no space left on the device")
        let decoding = DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "bad"))
        #expect(ErrorSentence.reason(decoding) == "the data is damaged or not in the expected format")
        #expect(ErrorSentence.reason(Own()) == "the library is damaged")
        #expect(ErrorSentence.describe(Own()) == "the library is damaged")
        #expect(ErrorSentence.reason(NSError(domain: "Elsewhere", code: 7)) == "error 7 in Elsewhere")
        for error in [NSError(domain: "NSURLErrorDomain", code: -1004), CocoaError(.fileWriteNoPermission) as NSError] {
            let text = ErrorSentence.describe(error)
            #expect(!text.contains("Domain") && !text.contains("UserInfo") && !text.contains("operation could not be completed"), "\(text)")
        }
    }
}
