import Foundation
import ReelTestSupport
import Testing

/// `reel live` deletes its uplink probe (`seg/000000.m4s`) again, so the origin takes
/// a DELETE of one stream file — with the same token, failed-auth cap and path rules as a PUT.
@Suite("Origin: DELETE of one stream file", .serialized)
struct OriginFileDeleteTests {
    static func put(_ origin: TestOrigin, _ path: String, _ body: Data) throws -> Int {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        try body.write(to: URL(fileURLWithPath: folder.path("body")))
        return try curl(["-X", "PUT", "--data-binary", "@" + folder.path("body"), "-H", "Authorization: Bearer \(origin.token)",
                         origin.base + path]).status
    }

    static func delete(_ origin: TestOrigin, _ path: String, token: String?) throws -> CurlResponse {
        try curl(["--path-as-is", "-X", "DELETE"] + (token.map { ["-H", "Authorization: Bearer \($0)"] } ?? []) + [origin.base + path])
    }

    @Test("the token is needed (401 without, 403 wrong); then 204, the file is gone at once (no kept response), 404 after")
    func tokenThenGone() throws {
        let origin = try TestOrigin()
        defer { origin.close() }
        let path = "/streams/probe/seg/000000.m4s"
        let file = origin.data.appendingPathComponent("streams/probe/seg/000000.m4s").path
        #expect(try Self.put(origin, path, Data(repeating: 7, count: 4096)) == 201)
        #expect(try curl([origin.base + path]).status == 200, "served, so its response is kept")
        #expect(try Self.delete(origin, path, token: nil).status == 401)
        #expect(try Self.delete(origin, path, token: String(repeating: "0", count: 64)).status == 403)
        #expect(FileManager.default.fileExists(atPath: file), "a refused DELETE changes nothing")
        let deleted = try Self.delete(origin, path, token: origin.token)
        #expect(deleted.status == 204, "\(deleted.status) \(String(decoding: deleted.body, as: UTF8.self))")
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(try curl([origin.base + path]).status == 404)
        let again = try Self.delete(origin, path, token: origin.token)
        #expect(again.status == 404 && String(decoding: again.body, as: UTF8.self).contains("streams/probe/seg/000000.m4s does not exist"))
        // The other stream files take DELETE too; the stream's own DELETE still removes the rest.
        #expect(try Self.put(origin, "/streams/probe/init.mp4", Data("i".utf8)) == 201)
        #expect(try Self.delete(origin, "/streams/probe/init.mp4", token: origin.token).status == 204)
        #expect(try Self.delete(origin, "/streams/probe", token: origin.token).status == 204)
    }

    @Test("only layout paths, never through a symlink: a linked file loses the link only, a linked folder is 409")
    func neverOutside() throws {
        let origin = try TestOrigin()
        defer { origin.close() }
        let fm = FileManager.default
        let secret = Data("outside".utf8)
        try fm.createDirectory(at: origin.outside.appendingPathComponent("seg"), withIntermediateDirectories: true)
        try secret.write(to: origin.outside.appendingPathComponent("seg/000001.m4s"))
        try secret.write(to: origin.outside.appendingPathComponent("target.m4s"))
        let streams = origin.data.appendingPathComponent("streams")
        try fm.createDirectory(at: streams.appendingPathComponent("a/seg"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: streams.appendingPathComponent("a/seg/000003.m4s").path,
                                  withDestinationPath: origin.outside.appendingPathComponent("target.m4s").path)
        try fm.createDirectory(at: streams.appendingPathComponent("b"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: streams.appendingPathComponent("b/seg").path,
                                  withDestinationPath: origin.outside.appendingPathComponent("seg").path)

        #expect(try Self.delete(origin, "/streams/a/seg/000003.m4s", token: origin.token).status == 204)
        #expect((try? fm.destinationOfSymbolicLink(atPath: streams.appendingPathComponent("a/seg/000003.m4s").path)) == nil)
        #expect(try Self.delete(origin, "/streams/b/seg/000001.m4s", token: origin.token).status == 409)
        for path in ["/streams/a/../../token", "/streams/a/seg/%2e%2e%2f%2e%2e%2ftoken", "/token", "/streams/a/seg/x.m4s", "/streams/a/seg"] {
            #expect(try Self.delete(origin, path, token: origin.token).status == 404, "\(path)")
        }
        #expect(try Data(contentsOf: origin.outside.appendingPathComponent("target.m4s")) == secret)
        #expect(try Data(contentsOf: origin.outside.appendingPathComponent("seg/000001.m4s")) == secret)
        #expect(try String(contentsOf: origin.data.appendingPathComponent("token"), encoding: .utf8).hasPrefix(origin.token))
        #expect(try curl(["-X", "OPTIONS", origin.base + "/streams/a/init.mp4"]).headers["allow"] == "GET, HEAD, PUT, DELETE, OPTIONS")
    }
}
