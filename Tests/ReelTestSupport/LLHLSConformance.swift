import Foundation

/// Checks a media playlist's text against the LL-HLS rules (RFC 8216bis §4.4.3.7–4.4.5.3,
/// §6.2.2 and Apple's low-latency HLS) that a publisher must keep, independently of the code
/// that writes it. Returns one sentence per violation; empty when the playlist conforms.
///
/// - `EXT-X-PART-INF:PART-TARGET` once; every `EXT-X-PART` DURATION at most it.
/// - `EXT-X-SERVER-CONTROL` with `CAN-BLOCK-RELOAD=YES` and `PART-HOLD-BACK` ≥ 3 × PART-TARGET;
///   `CAN-SKIP-UNTIL`, when present, ≥ 6 × the target duration.
/// - The parts of a segment are numbered 0, 1, … in order and listed before its `EXTINF`;
///   part 0 and only part 0 is `INDEPENDENT=YES` (the segment's key frame starts it); their
///   durations add up to the `EXTINF` (to the printed millisecond per part).
/// - Parts after the last `EXTINF` belong to the next segment and start at part 0.
/// - No parts for a segment that ends more than three target durations plus one segment
///   before the end.
/// - `EXT-X-PRELOAD-HINT:TYPE=PART`, when present, names the part after the last listed one
///   (the next index, or part 0 of the next segment); none with `EXT-X-ENDLIST`.
/// - Every `EXTINF` rounds to at most `EXT-X-TARGETDURATION`.
/// - `EXT-X-RENDITION-REPORT` (an ABR ladder's other renditions) has a quoted URI and an
///   integer LAST-MSN, and LAST-PART whenever the playlist lists parts; no URI twice.
/// - `EXT-X-MEDIA-SEQUENCE` names the first listed segment, and the segments follow it
///   without a gap; an `EXT-X-PLAYLIST-TYPE:EVENT` playlist (which may never drop a segment)
///   starts at segment 1, the first of a Reel stream; a sliding window has
///   `EXT-X-DISCONTINUITY-SEQUENCE`.
public enum LLHLSConformance {
    struct Part {
        var sequence: Int
        var index: Int
        var duration: Double
        var independent: Bool
    }

    struct Segment {
        var sequence: Int
        var duration: Double
        var parts: [Part]
    }

    struct Reading {
        var targetDuration: Int?
        var partTarget: Double?
        var partTargetTags = 0
        var serverControl: [String: String]?
        var segments: [Segment] = []
        var trailing: [Part] = []
        var hint: String?
        var reports: [[String: String]] = []
        var finished = false
        var mediaSequence: Int?
        /// `EXT-X-SKIP:SKIPPED-SEGMENTS` of a delta update.
        var skipped = 0
        var isEvent = false
        var hasDiscontinuitySequence = false
        var problems: [String] = []
    }

    /// The violations of `text`, one sentence each.
    public static func violations(_ text: String) -> [String] {
        let reading = read(text)
        var problems = reading.problems
        problems += headerViolations(reading)
        problems += partViolations(reading)
        problems += hintViolations(reading)
        problems += reportViolations(reading)
        problems += sequenceViolations(reading)
        return problems
    }

    /// Attribute lists: `KEY=VALUE,KEY="VALUE"` (quoted values may hold commas).
    public static func attributes(_ list: Substring) -> [String: String] {
        var result: [String: String] = [:]
        var key = "", value = "", inKey = true, quoted = false
        for character in list + "," {
            if inKey {
                if character == "=" { inKey = false } else { key.append(character) }
            } else if character == "\"" {
                quoted.toggle()
            } else if character == "," && !quoted {
                result[key] = value
                (key, value, inKey) = ("", "", true)
            } else {
                value.append(character)
            }
        }
        return result
    }

    static func read(_ text: String) -> Reading {
        var reading = Reading()
        var pending: [Part] = []
        var extinf: Double?
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if let value = line.value(after: "#EXT-X-TARGETDURATION:") {
                reading.targetDuration = Int(value)
            } else if let value = line.value(after: "#EXT-X-MEDIA-SEQUENCE:") {
                reading.mediaSequence = Int(value)
            } else if let value = line.value(after: "#EXT-X-SKIP:") {
                reading.skipped = attributes(value)["SKIPPED-SEGMENTS"].flatMap(Int.init) ?? 0
            } else if line == "#EXT-X-PLAYLIST-TYPE:EVENT" {
                reading.isEvent = true
            } else if line.hasPrefix("#EXT-X-DISCONTINUITY-SEQUENCE:") {
                reading.hasDiscontinuitySequence = true
            } else if let value = line.value(after: "#EXT-X-PART-INF:") {
                reading.partTargetTags += 1
                reading.partTarget = attributes(value)["PART-TARGET"].flatMap(Double.init)
            } else if let value = line.value(after: "#EXT-X-SERVER-CONTROL:") {
                reading.serverControl = attributes(value)
            } else if let value = line.value(after: "#EXT-X-PART:") {
                let attributes = attributes(value)
                guard let uri = attributes["URI"], let (sequence, index) = partAddress(uri),
                      let duration = attributes["DURATION"].flatMap(Double.init) else {
                    reading.problems.append("unreadable part: \(line)")
                    continue
                }
                pending.append(Part(sequence: sequence, index: index, duration: duration, independent: attributes["INDEPENDENT"] == "YES"))
            } else if let value = line.value(after: "#EXT-X-PRELOAD-HINT:") {
                let attributes = attributes(value)
                if attributes["TYPE"] != "PART" { reading.problems.append("a preload hint that is not TYPE=PART: \(line)") }
                reading.hint = attributes["URI"]
            } else if let value = line.value(after: "#EXT-X-RENDITION-REPORT:") {
                reading.reports.append(attributes(value))
            } else if let value = line.value(after: "#EXTINF:") {
                extinf = Double(value.split(separator: ",").first ?? "")
            } else if line == "#EXT-X-ENDLIST" {
                reading.finished = true
            } else if !line.hasPrefix("#"), !line.isEmpty {
                guard let duration = extinf, let sequence = segmentSequence(line) else {
                    reading.problems.append("a segment URI without a readable EXTINF or name: \(line)")
                    continue
                }
                reading.segments.append(Segment(sequence: sequence, duration: duration, parts: pending))
                pending = []
                extinf = nil
            }
        }
        reading.trailing = pending
        return reading
    }

    static func sequenceViolations(_ reading: Reading) -> [String] {
        guard let mediaSequence = reading.mediaSequence else { return ["no readable EXT-X-MEDIA-SEQUENCE"] }
        var problems: [String] = []
        if let first = reading.segments.first, first.sequence != mediaSequence + reading.skipped {
            problems.append("EXT-X-MEDIA-SEQUENCE is \(mediaSequence) (\(reading.skipped) skipped) but the first listed segment is \(first.sequence)")
        }
        for (before, after) in zip(reading.segments, reading.segments.dropFirst()) where after.sequence != before.sequence + 1 {
            problems.append("segment \(after.sequence) follows segment \(before.sequence)")
        }
        if reading.isEvent && mediaSequence != 1 { problems.append("an EVENT playlist that does not start at segment 1 dropped segments") }
        if !reading.isEvent && !reading.hasDiscontinuitySequence {
            problems.append("a sliding window (no PLAYLIST-TYPE:EVENT) without EXT-X-DISCONTINUITY-SEQUENCE")
        }
        return problems
    }

    static func reportViolations(_ reading: Reading) -> [String] {
        var problems: [String] = []
        let hasParts = !reading.trailing.isEmpty || reading.segments.contains { !$0.parts.isEmpty }
        for report in reading.reports {
            guard let uri = report["URI"], !uri.isEmpty else { problems.append("a rendition report without a URI"); continue }
            if report["LAST-MSN"].flatMap(Int.init) == nil { problems.append("the rendition report of \(uri) lacks an integer LAST-MSN") }
            if hasParts && report["LAST-PART"].flatMap(Int.init) == nil {
                problems.append("the rendition report of \(uri) lacks LAST-PART, though the playlist lists parts")
            }
        }
        if Set(reading.reports.compactMap { $0["URI"] }).count != reading.reports.count { problems.append("a rendition reported twice") }
        return problems
    }

    static func headerViolations(_ reading: Reading) -> [String] {
        var problems: [String] = []
        guard let target = reading.targetDuration else { return ["no EXT-X-TARGETDURATION"] }
        guard reading.partTargetTags == 1, let partTarget = reading.partTarget else {
            return ["EXT-X-PART-INF:PART-TARGET must appear once, found \(reading.partTargetTags)"]
        }
        guard let control = reading.serverControl else { return problems + ["no EXT-X-SERVER-CONTROL"] }
        if control["CAN-BLOCK-RELOAD"] != "YES" { problems.append("EXT-X-SERVER-CONTROL lacks CAN-BLOCK-RELOAD=YES") }
        if let holdBack = control["PART-HOLD-BACK"].flatMap(Double.init) {
            if holdBack < 3 * partTarget - 0.0005 { problems.append("PART-HOLD-BACK \(holdBack) is less than 3 × PART-TARGET \(partTarget)") }
        } else {
            problems.append("EXT-X-SERVER-CONTROL lacks PART-HOLD-BACK")
        }
        if let skip = control["CAN-SKIP-UNTIL"].flatMap(Double.init), skip < Double(6 * target) {
            problems.append("CAN-SKIP-UNTIL \(skip) is less than 6 × the target duration \(target)")
        }
        for segment in reading.segments where (segment.duration).rounded() > Double(target) {
            problems.append("segment \(segment.sequence) lasts \(segment.duration) s, more than the target duration \(target)")
        }
        return problems
    }

    static func partViolations(_ reading: Reading) -> [String] {
        guard let partTarget = reading.partTarget, let target = reading.targetDuration else { return [] }
        var problems: [String] = []
        let groups = reading.segments.map { ($0.sequence, $0.parts, Optional($0.duration)) }
            + [((reading.segments.last?.sequence ?? 0) + 1, reading.trailing, nil)]
        for (sequence, parts, duration) in groups where !parts.isEmpty {
            for (position, part) in parts.enumerated() {
                if part.sequence != sequence { problems.append("part \(part.sequence).\(part.index) is listed under segment \(sequence)") }
                if part.index != position { problems.append("segment \(sequence) lists part \(part.index) at position \(position)") }
                if part.independent != (part.index == 0) {
                    problems.append("part \(part.sequence).\(part.index) INDEPENDENT=\(part.independent ? "YES" : "NO"): only part 0 starts with the key frame")
                }
                if part.duration > partTarget + 0.0000001 {
                    problems.append("part \(part.sequence).\(part.index) lasts \(part.duration) s, more than PART-TARGET \(partTarget)")
                }
            }
            if let duration {
                let sum = parts.reduce(0) { $0 + $1.duration }
                if abs(sum - duration) > 0.0015 * Double(parts.count) {
                    problems.append("the parts of segment \(sequence) add up to \(sum) s, its EXTINF says \(duration) s")
                }
            }
        }
        var fromEnd = 0.0
        for segment in reading.segments.reversed() {
            if !segment.parts.isEmpty, fromEnd > Double(3 * target) {
                problems.append("segment \(segment.sequence) still lists its parts \(fromEnd) s before the end")
            }
            fromEnd += segment.duration
        }
        return problems
    }

    static func hintViolations(_ reading: Reading) -> [String] {
        if reading.finished { return reading.hint == nil ? [] : ["a finished playlist with a preload hint"] }
        // A hint is optional (a server MAY send one; Reel's leaves it out once the stream is
        // ending, as no part will come); when there is one it must name the next part.
        guard let hint = reading.hint else { return [] }
        guard let (sequence, index) = partAddress(hint) else { return ["unreadable preload hint \(hint)"] }
        let next = (reading.segments.last?.sequence ?? 0) + 1
        if let last = reading.trailing.last {
            let follows = (sequence == last.sequence && index == last.index + 1) || (sequence == last.sequence + 1 && index == 0)
            return follows ? [] : ["the preload hint \(hint) does not follow the last part \(last.sequence).\(last.index)"]
        }
        let follows = (sequence == next && index == 0) || (sequence == next + 1 && index == 0)
        return follows ? [] : ["the preload hint \(hint) is not the first part of segment \(next)"]
    }

    /// `part/000012.3.m4s` → (12, 3).
    public static func partAddress(_ uri: String) -> (Int, Int)? {
        guard uri.hasPrefix("part/"), uri.hasSuffix(".m4s") else { return nil }
        let numbers = uri.dropFirst(5).dropLast(4).split(separator: ".")
        guard numbers.count == 2, let sequence = Int(numbers[0]), let index = Int(numbers[1]) else { return nil }
        return (sequence, index)
    }

    /// `seg/000012.m4s` → 12.
    static func segmentSequence(_ uri: String) -> Int? {
        guard uri.hasPrefix("seg/"), uri.hasSuffix(".m4s") else { return nil }
        return Int(uri.dropFirst(4).dropLast(4))
    }
}

extension String {
    fileprivate func value(after prefix: String) -> Substring? {
        hasPrefix(prefix) ? dropFirst(prefix.count) : nil
    }
}
