import Foundation

/// Reads a media playlist as a player would, for the end-to-end checks.
struct PlaylistReader {
    struct Entry { var uri: String; var duration: Double; var programDateTime: String? }
    var version: Int?
    var targetDuration: Int?
    var mediaSequence: Int?
    var map: String?
    var independentSegments = false
    var playlistType: String?
    var entries: [Entry] = []
    var ended = false

    init(_ text: String) throws {
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        guard lines.first == "#EXTM3U" else { throw Malformed(text: text) }
        var duration: Double?
        var date: String?
        for line in lines.dropFirst() {
            func value(_ tag: String) -> String? { line.hasPrefix(tag) ? String(line.dropFirst(tag.count)) : nil }
            if let v = value("#EXT-X-VERSION:") { version = Int(v) }
            else if let v = value("#EXT-X-TARGETDURATION:") { targetDuration = Int(v) }
            else if let v = value("#EXT-X-MEDIA-SEQUENCE:") { mediaSequence = Int(v) }
            else if let v = value("#EXT-X-MAP:URI=") { map = v.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            else if let v = value("#EXT-X-PLAYLIST-TYPE:") { playlistType = v }
            else if line == "#EXT-X-INDEPENDENT-SEGMENTS" { independentSegments = true }
            else if let v = value("#EXT-X-PROGRAM-DATE-TIME:") { date = v }
            else if let v = value("#EXTINF:") { duration = Double(v.split(separator: ",").first ?? "") }
            else if line == "#EXT-X-ENDLIST" { ended = true }
            else if !line.hasPrefix("#") {
                guard let d = duration else { throw Malformed(text: text) }
                entries.append(Entry(uri: line, duration: d, programDateTime: date))
                duration = nil
                date = nil
            }
        }
    }

    /// Sequence numbers from the segment names (seg/000001.m4s → 1).
    var sequences: [Int] {
        entries.compactMap { Int($0.uri.split(separator: "/").last?.split(separator: ".").first ?? "") }
    }

    struct Malformed: Error, CustomStringConvertible {
        var text: String
        var description: String { "malformed playlist:\n\(text)" }
    }
}
