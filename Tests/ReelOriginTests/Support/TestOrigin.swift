import Foundation
import ReelOrigin
import ReelTestSupport

/// An ``OriginServer`` on a free loopback port with its own temporary data folder; the folder
/// sits inside a parent folder the tests use as "outside the data folder".
final class TestOrigin: @unchecked Sendable {
    let server: OriginServer
    /// The temporary parent: `data/` (the data folder), `outside/` (a folder nothing may touch).
    let parent: TemporaryDirectory
    let data: URL
    let outside: URL
    let accessLog: URL

    var port: Int { server.port }
    var base: String { "http://127.0.0.1:\(server.port)" }
    var token: String { server.token.text }

    init(configure: (inout OriginSettings) -> Void = { _ in }) throws {
        parent = try TemporaryDirectory()
        data = parent.url.appendingPathComponent("data")
        outside = parent.url.appendingPathComponent("outside")
        accessLog = parent.url.appendingPathComponent("access.log")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        var settings = OriginSettings(host: "127.0.0.1", port: 0, dataDirectory: data, accessLog: .file(accessLog))
        settings.threadCount = 4
        configure(&settings)
        server = try OriginServer(settings: settings)
        try server.start()
    }

    /// Stops the server and removes every file.
    func close() {
        server.stop()
        parent.cleanup()
    }

    /// Every path below the parent folder except inside `data/` (to prove nothing escaped).
    func filesOutsideData() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: parent.url.path)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path == "data" || path.hasPrefix("data/") { continue }
            found.append(path)
        }
        return found.sorted()
    }

    /// Files in the data folder whose name marks a temp file.
    func temporaryFiles() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: data.path)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".tmp") { found.append(path) }
        }
        return found
    }
}

/// Runs `body` with a fresh origin; always stops it and removes its folder.
func withOrigin<T>(configure: (inout OriginSettings) -> Void = { _ in }, _ body: (TestOrigin) async throws -> T) async throws -> T {
    let origin = try TestOrigin(configure: configure)
    defer { origin.close() }
    return try await body(origin)
}

/// A raw TCP client for requests no well-behaved HTTP client would send.
final class RawClient {
    let fd: Int32
    /// The Content-Length of the last head ``receiveStatus()`` read.
    private var lastContentLength = 0

    /// Connects to 127.0.0.1:`port`, from `source` (another loopback address: a different
    /// client as the server sees it) when given, with a receive buffer of `receiveBuffer` bytes
    /// when given (a client that reads slowly).
    init(port: Int, receiveTimeout: Int = 10, source: String? = nil, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
        }
        let connected = Loopback.connect(fd, port: port)
        // No close here: a class whose init throws once every property is set still runs
        // deinit, which closes the socket (closing twice could close another thread's file).
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        var timeout = timeval(tv_sec: receiveTimeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends bytes; false when the server has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool { send(Data(text.utf8)) }

    @discardableResult
    func send(_ data: Data) -> Bool {
        data.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let count = Glibc.send(fd, buffer.baseAddress! + done, buffer.count - done, Int32(MSG_NOSIGNAL))
                if count <= 0 { return false }
                done += count
            }
            return true
        }
    }

    /// Reads until the server closes, `limit` bytes arrive, or the 10 s receive timeout.
    func receiveAll(limit: Int = 1 << 20) -> Data {
        var result = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while result.count < limit {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            result.append(contentsOf: buffer.prefix(count))
        }
        return result
    }

    /// Reads one response's head (through the blank line) and returns the status code.
    func receiveStatus() -> Int? {
        var head = Data()
        var byte: UInt8 = 0
        while !head.hasSuffix("\r\n\r\n") {
            guard recv(fd, &byte, 1, 0) == 1 else { break }
            head.append(byte)
        }
        let lines = String(decoding: head, as: UTF8.self).split(separator: "\r\n")
        lastContentLength = lines.compactMap { line -> Int? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
            return Int(parts[1].trimmingCharacters(in: .whitespaces))
        }.first ?? 0
        let line = lines.first ?? ""
        let parts = line.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }

    /// Reads the body of the response whose head ``receiveStatus()`` read (by its
    /// Content-Length), leaving the connection ready for the next response.
    func receiveBody(length: Int? = nil) -> Data {
        var body = Data()
        var byte: UInt8 = 0
        let wanted = length ?? lastContentLength
        while body.count < wanted, recv(fd, &byte, 1, 0) == 1 { body.append(byte) }
        return body
    }

    /// Whether the server has closed the connection (a read returns end of file or a reset).
    func isClosedByServer() -> Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, 0)
        return count == 0 || (count < 0 && errno == ECONNRESET)
    }

    deinit { Glibc.close(fd) }
}

extension Data {
    func hasSuffix(_ text: String) -> Bool {
        let suffix = Data(text.utf8)
        return count >= suffix.count && self.suffix(suffix.count) == suffix
    }
}
