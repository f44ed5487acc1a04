import Foundation

extension MediaPlaylist {
    /// The playlist's text: UTF-8, `\n` line endings, ending with a newline. The order is fixed:
    ///
    /// ```
    /// #EXTM3U
    /// #EXT-X-VERSION  #EXT-X-TARGETDURATION  #EXT-X-SERVER-CONTROL  #EXT-X-PART-INF
    /// #EXT-X-PLAYLIST-TYPE  #EXT-X-INDEPENDENT-SEGMENTS  #EXT-X-MEDIA-SEQUENCE
    /// #EXT-X-DISCONTINUITY-SEQUENCE  #EXT-X-MAP  #EXT-X-SKIP
    /// each segment: #EXT-X-DISCONTINUITY  #EXT-X-PROGRAM-DATE-TIME  #EXT-X-PART…  #EXT-X-GAP  #EXTINF  URI
    /// the segment in progress: #EXT-X-DISCONTINUITY  #EXT-X-PROGRAM-DATE-TIME  #EXT-X-PART…
    /// #EXT-X-PRELOAD-HINT…  #EXT-X-RENDITION-REPORT…  #EXT-X-ENDLIST
    /// ```
    ///
    /// Decimals are printed with three decimals, dates in UTC with milliseconds.
    public func rendered() -> String {
        var lines = ["#EXTM3U"]
        if let version { lines.append("#EXT-X-VERSION:\(version)") }
        lines.append("#EXT-X-TARGETDURATION:\(targetDuration)")
        if let serverControl { lines.append("#EXT-X-SERVER-CONTROL:" + Self.attributes(serverControl)) }
        if let partTarget { lines.append("#EXT-X-PART-INF:PART-TARGET=\(HLSNumber.threeDecimals(partTarget))") }
        if let playlistType { lines.append("#EXT-X-PLAYLIST-TYPE:\(playlistType.rawValue)") }
        if hasIndependentSegments { lines.append("#EXT-X-INDEPENDENT-SEGMENTS") }
        if let mediaSequence { lines.append("#EXT-X-MEDIA-SEQUENCE:\(mediaSequence)") }
        if let discontinuitySequence { lines.append("#EXT-X-DISCONTINUITY-SEQUENCE:\(discontinuitySequence)") }
        if let mapURI { lines.append("#EXT-X-MAP:URI=\"\(mapURI)\"") }
        if let skippedSegments { lines.append("#EXT-X-SKIP:SKIPPED-SEGMENTS=\(skippedSegments)") }
        lines.reserveCapacity(lines.count + segments.count * 3 + 2)
        for segment in segments {
            Self.appendStart(discontinuity: segment.followsDiscontinuity, date: segment.programDateTime, parts: segment.parts, to: &lines)
            if segment.isGap { lines.append("#EXT-X-GAP") }
            lines.append("#EXTINF:\(HLSNumber.threeDecimals(segment.duration)),\(segment.title)")
            lines.append(segment.uri)
        }
        if let partialSegment {
            Self.appendStart(discontinuity: partialSegment.followsDiscontinuity, date: partialSegment.programDateTime,
                             parts: partialSegment.parts, to: &lines)
        }
        lines += preloadHints.map { "#EXT-X-PRELOAD-HINT:TYPE=\($0.type),URI=\"\($0.uri)\"" }
        lines += renditionReports.map { report in
            "#EXT-X-RENDITION-REPORT:URI=\"\(report.uri)\"" + (report.lastMediaSequence.map { ",LAST-MSN=\($0)" } ?? "")
                + (report.lastPart.map { ",LAST-PART=\($0)" } ?? "")
        }
        if hasEndList { lines.append("#EXT-X-ENDLIST") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// ``rendered()`` as UTF-8 bytes, ready to upload.
    public func renderedData() -> Data { Data(rendered().utf8) }

    private static func appendStart(discontinuity: Bool, date: Date?, parts: [Part], to lines: inout [String]) {
        if discontinuity { lines.append("#EXT-X-DISCONTINUITY") }
        if let date { lines.append("#EXT-X-PROGRAM-DATE-TIME:\(HLSDateTime.string(from: date))") }
        lines += parts.map { part in
            "#EXT-X-PART:DURATION=\(HLSNumber.threeDecimals(part.duration)),URI=\"\(part.uri)\""
                + (part.isIndependent ? ",INDEPENDENT=YES" : "") + (part.isGap ? ",GAP=YES" : "")
        }
    }

    private static func attributes(_ control: ServerControl) -> String {
        var list: [String] = []
        if control.canBlockReload { list.append("CAN-BLOCK-RELOAD=YES") }
        if let until = control.canSkipUntil { list.append("CAN-SKIP-UNTIL=\(HLSNumber.threeDecimals(until))") }
        if control.canSkipDateRanges { list.append("CAN-SKIP-DATERANGES=YES") }
        if let holdBack = control.holdBack { list.append("HOLD-BACK=\(HLSNumber.threeDecimals(holdBack))") }
        if let partHoldBack = control.partHoldBack { list.append("PART-HOLD-BACK=\(HLSNumber.threeDecimals(partHoldBack))") }
        return list.joined(separator: ",")
    }
}
