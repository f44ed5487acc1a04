import Foundation

extension MediaPlaylist {
    /// Reads a media playlist: every tag of the model by its exact name, its value by type
    /// (attribute lists per RFC 8216 §4.2); other tags and comments are skipped. Throws an
    /// ``HLSParseError`` naming the line for text that is no media playlist: no `#EXTM3U`
    /// first, a tag whose value is malformed, a URI no `#EXTINF` announced, an `#EXTINF`
    /// without its URI, no `#EXT-X-TARGETDURATION`, a multivariant playlist's tag.
    public init(parsing text: String) throws(HLSParseError) {
        var reader = MediaPlaylistReader()
        for (number, line) in try HLSLine.playlistLines(of: text) {
            do throws(HLSParseError) {
                try reader.read(line)
            } catch {
                throw HLSParseError(error.reason, line: number)
            }
        }
        self = try reader.finished()
    }
}

extension HLSLine {
    /// The lines of `text` after its `#EXTM3U` (blank lines before it are allowed), each with
    /// its number (the first line is 1).
    static func playlistLines(of text: String) throws(HLSParseError) -> [(number: Int, line: HLSLine)] {
        let lines = lines(of: text)
        guard let first = lines.firstIndex(where: { $0 != .blank }), lines[first] == .tag(name: "EXTM3U", value: nil) else {
            throw HLSParseError(.missingHeader, line: 1)
        }
        return lines.indices.dropFirst(first + 1).map { ($0 + 1, lines[$0]) }
    }
}

/// The state of reading a media playlist line by line: the playlist so far and the tags of
/// the segment whose URI has not come yet.
struct MediaPlaylistReader {
    var playlist = MediaPlaylist(targetDuration: 0)
    var targetDuration: Int?
    var inf: (duration: Double, title: String)?
    var date: Date?
    var discontinuity = false
    var gap = false
    var parts: [MediaPlaylist.Part] = []

    mutating func read(_ line: HLSLine) throws(HLSParseError) {
        switch line {
        case .blank, .comment:
            return
        case let .uri(uri):
            guard let inf else { throw HLSParseError(.uriWithoutTag(uri)) }
            playlist.segments.append(.init(uri: uri, duration: inf.duration, title: inf.title, programDateTime: date,
                                           followsDiscontinuity: discontinuity, isGap: gap, parts: parts))
            (self.inf, date, discontinuity, gap, parts) = (nil, nil, false, false, [])
        case let .tag(name, value):
            try read(HLSTag(name: name, value: value))
        }
    }

    private mutating func read(_ tag: HLSTag) throws(HLSParseError) {
        switch tag {
        case .extM3U, .other: return
        case let .version(version): playlist.version = version
        case let .targetDuration(seconds): targetDuration = seconds
        case let .mediaSequence(number): playlist.mediaSequence = number
        case let .discontinuitySequence(number): playlist.discontinuitySequence = number
        case let .playlistType(type): playlist.playlistType = type
        case .independentSegments: playlist.hasIndependentSegments = true
        case .endList: playlist.hasEndList = true
        case let .serverControl(control): playlist.serverControl = control
        case let .partInf(partTarget): playlist.partTarget = partTarget
        case let .skip(skipped): playlist.skippedSegments = skipped
        case let .preloadHint(hint): playlist.preloadHints.append(hint)
        case let .renditionReport(report): playlist.renditionReports.append(report)
        case let .inf(duration, title): inf = (duration, title)
        case let .programDateTime(date): self.date = date
        case .discontinuity: discontinuity = true
        case .gap: gap = true
        case let .map(uri): playlist.mapURI = playlist.mapURI ?? uri
        case let .part(part): parts.append(part)
        case .streamInf: throw HLSParseError(.wrongKind(tag: "EXT-X-STREAM-INF"))
        }
    }

    /// The playlist, once every line was read.
    func finished() throws(HLSParseError) -> MediaPlaylist {
        guard inf == nil else { throw HLSParseError(.tagWithoutURI(tag: "EXTINF")) }
        guard let targetDuration else { throw HLSParseError(.missingTargetDuration) }
        var playlist = playlist
        playlist.targetDuration = targetDuration
        if !parts.isEmpty {
            playlist.partialSegment = .init(programDateTime: date, followsDiscontinuity: discontinuity, parts: parts)
        }
        return playlist
    }
}
