import Foundation
import ReelTestSupport
import Testing
@testable import ReelBooks

/// The lookup cache on a real read-only disk: a tmpfs in a private mount namespace
/// (``PrivateDisk``; root needed, as CI runs).
@Suite("BookLookupCache on a read-only disk", .serialized)
struct BookLookupCacheFaultTests {
    @Test("storing onto a read-only disk fails with a clear error; the cached answer stays; no temporary file")
    func readOnlyDisk() throws {
        let disk = try PrivateDisk(bytes: 64 << 10)
        defer { disk.stop() }
        let cache = BookLookupCache(directory: disk.path + "/books")
        let isbn = "9784003101018"
        let old = BookLookupCache.Entry(isbn: isbn, lookedUpAt: Date(timeIntervalSince1970: 1_700_000_000), record: nil)
        try cache.store(old)
        try disk.remount(readOnly: true)
        #expect {
            try cache.store(BookLookupCache.Entry(isbn: isbn, lookedUpAt: Date(timeIntervalSince1970: 1_700_000_100), record: nil))
        } throws: { error in
            "\(error)".hasPrefix("cannot create a temporary file beside \(cache.path(isbn)): read-only file system")
        }
        #expect(cache.entry(for: isbn, now: Date(timeIntervalSince1970: 1_700_000_200)) == old)
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path + "/books") == [isbn + ".json"])
    }
}
