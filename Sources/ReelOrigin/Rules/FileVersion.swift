import ReelHTTP

/// One version of a stored file, as `fstat` of an open descriptor describes it. Reel never
/// changes a stored file in place (every PUT writes a new file and renames it over the old
/// one: a new inode), so this names one content. The ``EntityTag`` uses (inode, size,
/// modification time) of it; the origin's response cache compares all five fields.
public struct FileVersion: Sendable, Hashable {
    /// `st_dev`.
    public var device: UInt64
    /// `st_ino`.
    public var inode: UInt64
    /// `st_size`.
    public var size: Int64
    /// `st_mtim` in nanoseconds since 1970.
    public var modificationNanoseconds: Int64
    /// `st_ctim` in nanoseconds since 1970 (changes on any write, also one that restores the
    /// modification time).
    public var changeNanoseconds: Int64

    /// A version from its fields.
    public init(device: UInt64, inode: UInt64, size: Int64, modificationNanoseconds: Int64, changeNanoseconds: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modificationNanoseconds = modificationNanoseconds
        self.changeNanoseconds = changeNanoseconds
    }

    /// The version's strong entity tag.
    public var tag: EntityTag { EntityTag(inode: inode, size: size, modificationNanoseconds: modificationNanoseconds) }

    /// The modification time in whole seconds (rounded down): what `Last-Modified` says.
    public var modificationSeconds: Int64 {
        let modified = modificationNanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        return modified.quotient - (modified.remainder < 0 ? 1 : 0)
    }
}
