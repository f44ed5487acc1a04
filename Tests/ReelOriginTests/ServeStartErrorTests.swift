import Foundation
import ReelTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `reel serve` that cannot start says which address and port, what is wrong with
/// which of the two, and what to do; libmicrohttpd's own line (which named port 0) never shows.
@Suite("reel serve: start-up errors")
struct ServeStartErrorTests {
    /// Words no message may contain: libmicrohttpd's line, Foundation's dumps.
    static let leaks = ["Failed to bind", "port 0", "NSCocoaErrorDomain", "UserInfo", "could not be completed"]

    func serve(_ arguments: [String], _ dir: TemporaryDirectory) throws -> Subprocess {
        try ReelBinary.run(["serve", "--data", dir.path("data"), "--access-log", "none"] + arguments)
    }

    @Test("a port in use: that port is named, and what to do")
    func portInUse() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let (fd, port) = try Loopback.boundSocket()
        defer { close(fd) }
        #expect(listen(fd, 1) == 0)
        let result = try serve(["--port", String(port)], dir)
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot listen on 127.0.0.1:\(port): port \(port) is already in use by another program; "
                                       + "stop it, or pick another port with --port (0 picks a free one)"), "\(result.stderr)")
        for leak in Self.leaks { #expect(!result.stderr.contains(leak), "\(leak): \(result.stderr)") }
    }

    @Test("an address that is not this machine's: the host is blamed, not the port")
    func foreignAddress() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        // 192.0.2.1 is TEST-NET-1 (RFC 5737), never a local address: the bind fails at once, nothing is sent.
        let result = try serve(["--host", "192.0.2.1", "--port", "8080"], dir)
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot listen on 192.0.2.1:8080: 192.0.2.1 is not an address of this machine; give --host"),
                "\(result.stderr)")
        #expect(!result.stderr.contains("--port"), "the port is not to blame: \(result.stderr)")
        for leak in Self.leaks { #expect(!result.stderr.contains(leak), "\(leak): \(result.stderr)") }
    }

    @Test("a host that is not an IP address: only --host is blamed, before any file is made")
    func badHost() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let result = try serve(["--host", "example.org", "--port", "8080"], dir)
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot listen on 'example.org': --host must be an IP address of this machine"), "\(result.stderr)")
        #expect(!result.stderr.contains("--port"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("data")))
    }

    @Test("a data folder that cannot be made: the folder and the reason in words, not Foundation's")
    func dataFolderUnderAFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir.path("file")))
        let result = try ReelBinary.run(["serve", "--data", dir.path("file/origin"), "--port", "0"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot use the data folder \(dir.path("file/origin")): a file stands where a folder should be; "
                                       + "pass --data with a folder you can write"), "\(result.stderr)")
        for leak in Self.leaks { #expect(!result.stderr.contains(leak), "\(leak): \(result.stderr)") }
        let log = try ReelBinary.run(["serve", "--data", dir.path("data"), "--port", "0", "--access-log", dir.path("file/access.log")])
        #expect(log.status == 1)
        #expect(log.stderr.contains("cannot open the access log \(dir.path("file/access.log")): a file stands where a folder should be; "
                                    + "give --access-log a file in a folder you can write, '-' or 'none'"), "\(log.stderr)")
        let token = try ReelBinary.run(["serve", "--data", dir.path("data"), "--port", "0", "--token-file", dir.path("file/token")])
        #expect(token.status == 1)
        #expect(token.stderr.contains("cannot read the token file \(dir.path("file/token")): a file stands where a folder should be; "
                                      + "fix it or pass --token-file"), "\(token.stderr)")
    }
}
