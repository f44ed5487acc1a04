import Foundation

/// Test inputs made once per test process and shared by the tests that only read them: a
/// clip that costs seconds of ffmpeg to make is made by the first test that asks for it, in a
/// folder of its own below one process-wide temporary folder (removed when the process exits).
/// A test that changes an input copies it first. When making fails, nothing is kept: the next
/// test to ask tries again (and fails with its own message).
public enum SharedFixtures {
    /// The process-wide folder; each key gets a folder below it.
    public static let root: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reel-test-shared-\(getpid())-\(UUID().uuidString)").path
        atexit { try? FileManager.default.removeItem(atPath: SharedFixtures.root) }
        return path
    }()

    private final class Store: @unchecked Sendable {
        let lock = NSLock()
        var made: [String: Any] = [:]
    }
    private static let store = Store()

    /// The value made for `key`: `make` runs once per process (with `key`'s empty folder) while
    /// no other test makes a shared input, and its value is handed to every later caller.
    public static func shared<T>(_ key: String, make: (_ folder: String) throws -> T) throws -> T {
        store.lock.lock()
        defer { store.lock.unlock() }
        if let value = store.made[key] as? T { return value }
        let folder = root + "/" + key
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let value = try make(folder)
        store.made[key] = value
        return value
    }
}
