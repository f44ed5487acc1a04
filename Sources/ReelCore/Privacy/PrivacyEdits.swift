import Foundation

/// The review step's edits of a face track (`reel review SESSION --segment N …`;
/// docs/behaviour.md §1, Face tracker: "the segment is what the review step edits"): per
/// segment an offset, a scale, a stamp, or no mosaic at all. Stored beside the track, never in
/// it: the raw track is never changed, and removing the edits gives the tracker's boxes back.
///
/// Applied to a frame's boxes (``regions(for:)``), each box is scaled about its centre, then
/// moved; a box that no longer meets the picture, or whose segment is disabled, gives no
/// region, a stamped one a `.stamp` region, every other a `.mosaic` region. Boxes are not
/// clamped: one partly outside keeps its shape, so the mosaic's ellipse still fits the face.
///
/// Stored as versioned JSON, only what differs from "no edit", ordered by segment:
///
/// ```json
/// {"segments":[{"dx":0.02,"dy":-0.01,"segment":3,"subject":0},{"disabled":true,"segment":5,"subject":0}],"version":1}
/// ```
public struct PrivacyEdits: Sendable, Equatable, Codable {
    /// The format this Reel writes.
    public static let currentVersion = 1
    /// The smallest and largest scale accepted.
    public static let scaleRange: ClosedRange<Double> = 0.1...10
    /// The largest offset accepted on either axis, in picture sizes.
    public static let maxOffset = 1.0

    /// What the review did to one segment.
    public struct SegmentEdit: Sendable, Equatable {
        /// Horizontal move, normalized to the picture width (positive: right).
        public var dx: Double = 0
        /// Vertical move, normalized to the picture height (positive: down).
        public var dy: Double = 0
        /// Size factor about the box's centre (1: unchanged).
        public var scale: Double = 1
        /// No mosaic for this segment.
        public var disabled = false
        /// A stamp image over the face instead of the mosaic (a PNG's path), or nil.
        public var stamp: String?

        /// No edit.
        public init() {}

        /// Whether this is no edit at all.
        public var isEmpty: Bool { self == SegmentEdit() }

        /// `box` after this edit: scaled about its centre, then moved (exactly `box` when
        /// there is nothing to scale or move). Not clamped: see ``PrivacyEdits``.
        public func apply(to box: NormalizedRect) -> NormalizedRect {
            var result = box
            if scale != 1 { result = result.scaled(width: scale, height: scale) }
            if dx != 0 || dy != 0 { result = result.offsetBy(dx: dx, dy: dy) }
            return result
        }
    }

    /// One change the review asks for.
    public enum Change: Sendable, Equatable {
        /// Move the segment's boxes by (dx, dy), normalized (replaces an earlier offset).
        case offset(dx: Double, dy: Double)
        /// Scale the segment's boxes about their centres (replaces an earlier scale).
        case scale(Double)
        /// No mosaic for the segment.
        case disable
        /// The mosaic again (undoes `disable`).
        case enable
        /// A stamp image (a PNG's path) instead of the mosaic.
        case stamp(String)
        /// The mosaic instead of the stamp.
        case removeStamp
        /// Forget every edit of the segment.
        case reset
    }

    /// The edits, by segment; segments without an edit are absent.
    public private(set) var segments: [FaceSegmentID: SegmentEdit]

    /// No edits.
    public init() {
        segments = [:]
    }

    /// The edit of `id` (no edit when there is none).
    public func edit(for id: FaceSegmentID) -> SegmentEdit {
        segments[id] ?? SegmentEdit()
    }

    /// Applies `change` to segment `id` (any segment; see ``apply(_:to:in:)`` to check it
    /// exists). Touches no other segment.
    public mutating func apply(_ change: Change, to id: FaceSegmentID) throws {
        var edit = self.edit(for: id)
        switch change {
        case let .offset(dx, dy):
            try PrivacyEdits.checkOffset(dx: dx, dy: dy)
            (edit.dx, edit.dy) = (dx, dy)
        case .scale(let scale):
            try PrivacyEdits.checkScale(scale)
            edit.scale = scale
        case .disable: edit.disabled = true
        case .enable: edit.disabled = false
        case .stamp(let ref):
            try PrivacyEdits.checkStamp(ref)
            edit.stamp = ref
        case .removeStamp: edit.stamp = nil
        case .reset: edit = SegmentEdit()
        }
        segments[id] = edit.isEmpty ? nil : edit
    }

    /// Applies `change` to segment `id` of `track`, which must hold that segment.
    public mutating func apply(_ change: Change, to id: FaceSegmentID, in track: FaceTrack) throws {
        guard track.samples.contains(where: { $0.segment == id.segment && $0.subject == id.subject }) else {
            let known = Set(track.samples.map { FaceSegmentID(subject: $0.subject, segment: $0.segment) }).sorted()
            throw Error.unknownSegment(id, known: known)
        }
        try apply(change, to: id)
    }

    /// The regions to cover for a frame whose boxes are `boxes` (from ``FaceTrackTimeline``),
    /// in the same order; disabled segments and boxes edited out of the picture are left out.
    public func regions(for boxes: [FaceBox]) -> [PrivacyRegion] {
        boxes.compactMap { box in
            let edit = self.edit(for: box.segmentID)
            guard !edit.disabled else { return nil }
            let area = edit.apply(to: box.box)
            guard area.meetsPicture else { return nil }
            return PrivacyRegion(box: area, treatment: edit.stamp.map { .stamp($0) } ?? .mosaic)
        }
    }

    /// The regions to cover at video time `time` of `timeline`.
    public func regions(at time: MediaTime, in timeline: FaceTrackTimeline) -> [PrivacyRegion] {
        regions(for: timeline.boxes(at: time))
    }

    /// Edits that cannot be made or read.
    public enum Error: Swift.Error, CustomStringConvertible, Equatable {
        /// Written by a newer Reel.
        case unsupportedVersion(Int)
        /// A stored entry that cannot be used.
        case badEntry(index: Int, reason: String)
        /// An offset that is not a number or moves the box more than a picture away.
        case badOffset(dx: Double, dy: Double)
        /// A scale outside ``PrivacyEdits/scaleRange``.
        case badScale(Double)
        /// A stamp without a path.
        case emptyStamp
        /// The track has no such segment.
        case unknownSegment(FaceSegmentID, known: [FaceSegmentID])

        public var description: String {
            switch self {
            case .unsupportedVersion(let version):
                "privacy edits version \(version) are newer than this Reel understands (\(PrivacyEdits.currentVersion)); update Reel"
            case let .badEntry(index, reason): "privacy edit \(index) is damaged: \(reason)"
            case let .badOffset(dx, dy):
                "offset \(dx),\(dy) is not usable: give DX,DY as fractions of the picture between -1 and 1 (e.g. 0.05,-0.02)"
            case .badScale(let scale):
                "scale \(scale) is not usable: give a factor between \(PrivacyEdits.scaleRange.lowerBound) and \(PrivacyEdits.scaleRange.upperBound) (e.g. 1.2)"
            case .emptyStamp: "the stamp needs the path of a PNG image"
            case let .unknownSegment(id, known):
                known.isEmpty
                    ? "there is no segment \(id): this recording has no face segments"
                    : "there is no segment \(id); the segments are \(known.map(\.description).joined(separator: ", ")) (see reel review)"
            }
        }
    }

    private static func checkOffset(dx: Double, dy: Double) throws {
        guard dx.isFinite, dy.isFinite, abs(dx) <= maxOffset, abs(dy) <= maxOffset else { throw Error.badOffset(dx: dx, dy: dy) }
    }

    private static func checkScale(_ scale: Double) throws {
        guard scale.isFinite, scaleRange.contains(scale) else { throw Error.badScale(scale) }
    }

    private static func checkStamp(_ ref: String) throws {
        guard !ref.trimmingCharacters(in: .whitespaces).isEmpty else { throw Error.emptyStamp }
    }

    // MARK: Storage

    private enum Keys: String, CodingKey { case version, segments }

    private struct Entry: Codable {
        var subject: Int
        var segment: Int
        var dx: Double?
        var dy: Double?
        var scale: Double?
        var disabled: Bool?
        var stamp: String?
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let version = try container.decode(Int.self, forKey: .version)
        guard version >= 1, version <= PrivacyEdits.currentVersion else { throw Error.unsupportedVersion(version) }
        let entries = try container.decode([Entry].self, forKey: .segments)
        segments = [:]
        for (index, entry) in entries.enumerated() {
            guard entry.subject >= 0, entry.segment >= 0 else {
                throw Error.badEntry(index: index, reason: "negative segment \(entry.segment) or subject \(entry.subject)")
            }
            let id = FaceSegmentID(subject: entry.subject, segment: entry.segment)
            guard segments[id] == nil else { throw Error.badEntry(index: index, reason: "segment \(id) is listed twice") }
            var edit = SegmentEdit()
            do {
                if entry.dx != nil || entry.dy != nil {
                    try PrivacyEdits.checkOffset(dx: entry.dx ?? 0, dy: entry.dy ?? 0)
                    (edit.dx, edit.dy) = (entry.dx ?? 0, entry.dy ?? 0)
                }
                if let scale = entry.scale {
                    try PrivacyEdits.checkScale(scale)
                    edit.scale = scale
                }
                if let stamp = entry.stamp {
                    try PrivacyEdits.checkStamp(stamp)
                    edit.stamp = stamp
                }
            } catch let error as Error {
                throw Error.badEntry(index: index, reason: error.description)
            }
            edit.disabled = entry.disabled ?? false
            if !edit.isEmpty { segments[id] = edit }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(PrivacyEdits.currentVersion, forKey: .version)
        let entries = segments.keys.sorted().map { id -> Entry in
            let edit = segments[id]!
            let moved = edit.dx != 0 || edit.dy != 0
            return Entry(subject: id.subject, segment: id.segment, dx: moved ? edit.dx : nil, dy: moved ? edit.dy : nil,
                         scale: edit.scale == 1 ? nil : edit.scale, disabled: edit.disabled ? true : nil, stamp: edit.stamp)
        }
        try container.encode(entries, forKey: .segments)
    }

    /// The edits as compact JSON (keys sorted, so equal edits give equal bytes).
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Reads edits written by ``jsonData()``.
    public static func decode(json data: Data) throws -> PrivacyEdits {
        try JSONDecoder().decode(PrivacyEdits.self, from: data)
    }

    /// Where `reel review` keeps a video's edits: `NAME.privacy.json` beside `NAME.mp4` (the
    /// export reads them there; the backup carries them with the session's other files).
    public static func path(forVideo video: String) -> String {
        (video.lowercased().hasSuffix(".mp4") ? String(video.dropLast(4)) : video) + ".privacy.json"
    }
}
