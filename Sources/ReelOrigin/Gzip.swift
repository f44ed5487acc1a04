import CZlib

/// One-shot gzip through zlib (for playlists, which are small text).
enum Gzip {
    /// The gzip member of `bytes`, or `nil` if zlib fails (the caller then sends identity).
    static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        var capacity = reel_gzip_bound(bytes.count)
        var output = [UInt8](repeating: 0, count: capacity)
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                reel_gzip(input.baseAddress, input.count, out.baseAddress, &capacity)
            }
        }
        guard status == 0 else { return nil }
        output.removeLast(output.count - capacity)
        return output
    }
}
