import Foundation
import ReelOrigin
import ReelTestSupport
import Testing

/// The token file on a real full disk: a tmpfs in a private mount namespace (``PrivateDisk``;
/// root needed, as CI runs).
@Suite("Origin token file on a full disk", .serialized)
struct OriginTokenFileFaultTests {
    @Test("a token file that cannot be written whole is not created at all (never an empty token file); then it is made with mode 0600 and read back")
    func fullDisk() throws {
        let disk = try PrivateDisk(bytes: 64 << 10)
        defer { disk.stop() }
        disk.fill()
        let path = disk.path + "/token"
        #expect {
            try OriginTokenFile.loadOrCreate(at: URL(fileURLWithPath: path))
        } throws: { error in
            "\(error)" == "cannot create the token file \(path): no space left on the device; check the folder's permissions or pass --token-file"
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path) == ["filler"])

        try FileManager.default.removeItem(atPath: disk.path + "/filler")
        let created = try OriginTokenFile.loadOrCreate(at: URL(fileURLWithPath: path))
        #expect(created.created && created.warning == nil)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)
        #expect(mode.intValue & 0o777 == 0o600)
        #expect(try OriginTokenFile.loadOrCreate(at: URL(fileURLWithPath: path)).token.text == created.token.text)
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path) == ["token"])
    }
}
