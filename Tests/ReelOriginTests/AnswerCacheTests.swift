import ReelCore
import ReelHTTP
import Testing
@testable import ReelOrigin

@Suite struct AnswerCacheTests {
    static func version(_ inode: UInt64, size: Int64 = 100, modified: Int64 = 1, changed: Int64 = 1, device: UInt64 = 1) -> FileVersion {
        FileVersion(device: device, inode: inode, size: size, modificationNanoseconds: modified, changeNanoseconds: changed)
    }

    @Test func answersOnlyTheVersionItWasMadeFrom() {
        var cache = AnswerCache<String, String>(maxBytes: 1000, maxEntries: 10)
        let v1 = Self.version(7)
        #expect(cache.lookup("a", version: v1) == nil)
        #expect(cache.insert("one", bytes: 10, for: "a", version: v1, generation: cache.generation).stored)
        #expect(cache.lookup("a", version: v1) == "one")
        // Any field that differs is another version: a new inode, size, mtime, ctime or device.
        for other in [Self.version(8), Self.version(7, size: 101), Self.version(7, modified: 2), Self.version(7, changed: 2),
                      Self.version(7, device: 2)] {
            #expect(cache.lookup("a", version: other) == nil, "\(other)")
        }
        #expect(cache.lookup("b", version: v1) == nil, "another file")
        // A newer version replaces the older one.
        let result = cache.insert("two", bytes: 10, for: "a", version: Self.version(8), generation: cache.generation)
        #expect(result.stored && result.dropped == ["one"])
        #expect(cache.lookup("a", version: v1) == nil && cache.lookup("a", version: Self.version(8)) == "two")
        #expect(cache.count == 1 && cache.totalBytes == 10)
    }

    @Test func anAnswerMadeAcrossAWriteIsRefused() {
        var cache = AnswerCache<String, String>(maxBytes: 1000, maxEntries: 10)
        #expect(cache.insert("old", bytes: 10, for: "a", version: Self.version(1), generation: 0).stored)
        let readBeforeOpening = cache.generation
        // A write lands between the reader's open and its insert: what it read may be the old file.
        #expect(cache.invalidate { $0 == "a" } == ["old"])
        #expect(cache.lookup("a", version: Self.version(1)) == nil)
        #expect(!cache.insert("stale", bytes: 10, for: "a", version: Self.version(1), generation: readBeforeOpening).stored)
        #expect(cache.count == 0)
        #expect(cache.insert("new", bytes: 10, for: "a", version: Self.version(2), generation: cache.generation).stored)
        // Invalidation drops only what matches.
        _ = cache.insert("other", bytes: 10, for: "b", version: Self.version(3), generation: cache.generation)
        #expect(cache.invalidate { $0 == "b" } == ["other"])
        #expect(cache.lookup("a", version: Self.version(2)) == "new")
    }

    @Test func boundedByBytesAndEntriesDroppingTheLeastRecentlyUsed() {
        var cache = AnswerCache<Int, Int>(maxBytes: 100, maxEntries: 3)
        for key in 0..<3 {
            #expect(cache.insert(key, bytes: 30, for: key, version: Self.version(UInt64(key)), generation: cache.generation).stored)
        }
        #expect(cache.lookup(0, version: Self.version(0)) == 0)  // 1 is now the least recently used
        var result = cache.insert(3, bytes: 10, for: 3, version: Self.version(3), generation: cache.generation)
        #expect(result.stored && result.dropped == [1], "the entry cap")
        result = cache.insert(4, bytes: 65, for: 4, version: Self.version(4), generation: cache.generation)
        #expect(result.stored && result.dropped == [2, 0], "the byte budget: 65 more fits once the two least recently used go")
        #expect(cache.count == 2 && cache.totalBytes == 75)
        #expect(cache.lookup(3, version: Self.version(3)) == 3 && cache.lookup(4, version: Self.version(4)) == 4)
        #expect(!cache.insert(5, bytes: 101, for: 5, version: Self.version(5), generation: cache.generation).stored, "larger than the budget")
        #expect(cache.count == 2)
        var off = AnswerCache<Int, Int>(maxBytes: 0, maxEntries: 10)
        #expect(!off.insert(1, bytes: 1, for: 1, version: Self.version(1), generation: off.generation).stored)
    }

    @Test func theTagIsTheVersionsIdentity() {
        let version = Self.version(0x1234, size: 0x99, modified: 0x5555, changed: 0x6666)
        #expect(version.tag == EntityTag(inode: 0x1234, size: 0x99, modificationNanoseconds: 0x5555))
    }
}
