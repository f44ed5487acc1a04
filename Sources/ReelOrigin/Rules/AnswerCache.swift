/// The rules of the origin's cache of ready answers for small files (playlists above all,
/// which every viewer fetches every second): what is kept, when it may be used, what is
/// dropped. Pure; the server keeps one behind a lock.
///
/// - An answer is stored for one `Key` (a file and its representation) *and* one
///   ``FileVersion``. A lookup must present the version of a descriptor it has just opened
///   and `fstat`ed, and gets the answer only when every field matches: a file replaced by
///   any means (a new inode, or a change of size, modification or change time) is never
///   answered from the cache.
/// - Every write the server makes calls ``invalidate(where:)``, which drops the file's
///   answers and advances ``generation``. An answer can only be inserted under the
///   generation read *before* its file was opened, so an answer built from a version that a
///   write has meanwhile replaced is refused; a later file reusing the freed inode number
///   therefore never meets an old answer.
/// - Bounded: at most `maxEntries` answers and `maxBytes` bytes; inserting beyond either drops
///   the least recently used answers first. An answer larger than `maxBytes` is not stored.
///
/// (Inlinable so the server's use is specialized: it runs on every GET.)
public struct AnswerCache<Key: Hashable, Value> {
    @usableFromInline
    struct Entry {
        @usableFromInline var version: FileVersion
        @usableFromInline var value: Value
        @usableFromInline var bytes: Int
        @usableFromInline var lastUsed: UInt64

        @inlinable
        init(version: FileVersion, value: Value, bytes: Int, lastUsed: UInt64) {
            self.version = version
            self.value = value
            self.bytes = bytes
            self.lastUsed = lastUsed
        }
    }

    /// Byte budget of all answers together.
    public let maxBytes: Int
    /// Most answers kept.
    public let maxEntries: Int
    @usableFromInline var currentGeneration: UInt64 = 0
    @usableFromInline var keptBytes = 0
    @usableFromInline var entries: [Key: Entry] = [:]
    @usableFromInline var clock: UInt64 = 0

    /// Advanced by every invalidation.
    @inlinable public var generation: UInt64 { currentGeneration }
    /// Bytes of the answers kept.
    @inlinable public var totalBytes: Int { keptBytes }

    /// An empty cache; `maxBytes` 0 keeps nothing.
    public init(maxBytes: Int, maxEntries: Int) {
        self.maxBytes = max(0, maxBytes)
        self.maxEntries = max(0, maxEntries)
    }

    /// Answers kept.
    @inlinable public var count: Int { entries.count }

    /// The answer for `key` if it was made from exactly `version`.
    @inlinable public mutating func lookup(_ key: Key, version: FileVersion) -> Value? {
        guard let entry = entries[key], entry.version == version else { return nil }
        clock += 1
        entries[key]?.lastUsed = clock
        return entry.value
    }

    /// Stores `value` (`bytes` long) for `key` at `version`, replacing what `key` had —
    /// unless an invalidation happened since `generation` was read, or it exceeds the budget.
    /// Returns whether it was stored and the answers dropped (to release outside a lock).
    @inlinable public mutating func insert(_ value: Value, bytes: Int, for key: Key, version: FileVersion,
                                generation: UInt64) -> (stored: Bool, dropped: [Value]) {
        guard generation == currentGeneration, bytes <= maxBytes, maxEntries > 0 else { return (false, []) }
        var dropped: [Value] = []
        if let old = entries.removeValue(forKey: key) {
            keptBytes -= old.bytes
            dropped.append(old.value)
        }
        while !entries.isEmpty && (keptBytes + bytes > maxBytes || entries.count + 1 > maxEntries) {
            let oldest = entries.min { $0.value.lastUsed < $1.value.lastUsed }!
            entries.removeValue(forKey: oldest.key)
            keptBytes -= oldest.value.bytes
            dropped.append(oldest.value.value)
        }
        clock += 1
        entries[key] = Entry(version: version, value: value, bytes: bytes, lastUsed: clock)
        keptBytes += bytes
        return (true, dropped)
    }

    /// Drops every answer whose key `matches`, and advances ``generation``; returns the
    /// answers dropped.
    @inlinable public mutating func invalidate(where matches: (Key) -> Bool) -> [Value] {
        currentGeneration &+= 1
        var dropped: [Value] = []
        for (key, entry) in entries where matches(key) {
            entries.removeValue(forKey: key)
            keptBytes -= entry.bytes
            dropped.append(entry.value)
        }
        return dropped
    }
}
