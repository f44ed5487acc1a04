import Foundation

/// `CODECS` values (RFC 6381) read from an fMP4 init segment's sample descriptions, so the
/// multivariant playlist names what the encoders really produced.
///
/// - H.264: `avc1.` and the three bytes after the `avcC` box's version (profile, constraint
///   flags, level) in hex: `avc1.64001f` is High, level 3.1.
/// - AAC: `mp4a.40.` and the audio object type from the `esds` box's DecoderSpecificInfo
///   (2 for AAC-LC), when the object type indication is MPEG-4 audio (0x40).
public enum CodecString {
    /// The codecs of the init segment's tracks, comma-separated in track order (nil when no
    /// track is H.264 or AAC).
    public static func codecs(ofInitSegment data: Data) -> String? {
        let bytes = [UInt8](data)
        var found: [(offset: Int, codec: String)] = []
        if let offset = find("avcC", in: bytes), offset + 8 + 4 <= bytes.count {
            let profile = bytes[offset + 9], constraints = bytes[offset + 10], level = bytes[offset + 11]
            found.append((offset, "avc1." + [profile, constraints, level].map(hex).joined()))
        }
        if let offset = find("esds", in: bytes), let type = audioObjectType(bytes, esds: offset) {
            found.append((offset, "mp4a.40.\(type)"))
        }
        guard !found.isEmpty else { return nil }
        return found.sorted { $0.offset < $1.offset }.map(\.codec).joined(separator: ",")
    }

    /// The offset of the box whose type is `fourCC` (its size field), found by its type bytes.
    static func find(_ fourCC: String, in bytes: [UInt8]) -> Int? {
        let type = Array(fourCC.utf8)
        guard bytes.count >= 8 else { return nil }
        for index in 4...(bytes.count - 4) where bytes[index] == type[0] && bytes[index + 1] == type[1]
            && bytes[index + 2] == type[2] && bytes[index + 3] == type[3] {
            return index - 4
        }
        return nil
    }

    /// The AAC audio object type in an `esds` box at `offset`: ES_Descriptor (tag 3) →
    /// DecoderConfigDescriptor (tag 4, object type 0x40) → DecoderSpecificInfo (tag 5), whose
    /// first five bits are the type.
    static func audioObjectType(_ bytes: [UInt8], esds offset: Int) -> Int? {
        var position = offset + 12  // size, type, version and flags
        func descriptor(_ tag: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == tag else { return false }
            position += 1
            for _ in 0..<4 {  // the length: up to four bytes, 0x80 marks another
                guard position < bytes.count else { return false }
                let byte = bytes[position]
                position += 1
                if byte & 0x80 == 0 { break }
            }
            return true
        }
        guard descriptor(3) else { return nil }
        position += 3  // ES_ID, flags (no stream dependence, URL or OCR stream in ours)
        guard descriptor(4), position < bytes.count, bytes[position] == 0x40 else { return nil }
        position += 13  // object type, stream type, buffer size, max and average bit rate
        guard descriptor(5), position < bytes.count else { return nil }
        return Int(bytes[position] >> 3)
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]])
    }
}
