import Foundation

/// A fresh temporary directory, removed by the caller with `cleanup()` (here because the WebDriver
/// client keeps chromium's profile in one; the tests use it through ReelTestSupport).
public struct TemporaryDirectory {
    public let url: URL
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("reel-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    public func cleanup() { try? FileManager.default.removeItem(at: url) }
}
