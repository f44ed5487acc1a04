import Foundation

/// Finds where the playable part of a fragmented MP4 ends: after the last top-level box that
/// is complete, where a `moof` only counts together with the complete `mdat` after it.
///
/// A crash can tear the last fragment (a `moof` without its `mdat`, or an `mdat` cut short).
/// FFmpeg's MP4 demuxer reads a torn `mdat` as far as the file goes and hands out its last
/// sample cut short (the decoder then reports an error on the last frame), so recovery cuts
/// the file back to the last whole fragment before remuxing.
enum TornFragment {
    /// The length of the whole-fragment prefix of `path`, and the file's length.
    static func completeLength(of path: String) throws -> (complete: Int64, total: Int64) {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let total = Int64(try handle.seekToEnd())
        var offset: Int64 = 0, complete: Int64 = 0
        var pendingFragment = false
        while offset + 8 <= total {
            try handle.seek(toOffset: UInt64(offset))
            guard let header = try handle.read(upToCount: 16), header.count >= 8 else { break }
            let bytes = [UInt8](header)
            var size = Int64(bytes[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            let type = String(decoding: bytes[4..<8], as: UTF8.self)
            if size == 1 {
                guard bytes.count >= 16 else { break }
                size = Int64(bitPattern: bytes[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
            } else if size == 0 {
                break  // "to the end of the file": never written by Reel; a torn header
            }
            guard size >= 8, offset + size <= total else { break }
            offset += size
            switch type {
            case "moof": pendingFragment = true
            case "mdat":
                pendingFragment = false
                complete = offset
            default:
                if !pendingFragment { complete = offset }
            }
        }
        return (complete, total)
    }

    /// Cuts `path` back to its whole fragments; returns the bytes removed (0: nothing torn).
    static func trim(_ path: String) throws -> Int64 {
        let (complete, total) = try completeLength(of: path)
        guard complete < total else { return 0 }
        guard truncate(path, off_t(complete)) == 0 else { throw FileError("cutting the torn end of", path) }
        try FileIO.sync(path: path)
        return total - complete
    }
}
