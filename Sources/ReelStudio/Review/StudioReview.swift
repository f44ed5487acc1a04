import Foundation
import ReelCore
import ReelExport
import ReelMedia

/// The review page's work: what `reel review` does, for one session at a time. The segments
/// come from ReelCore's ``SegmentSummary`` (``ReviewSegmentJSON``, the rows `reel review
/// --json` prints), the edits are ``PrivacyEdits`` changes stored through ReelExport's
/// ``SessionMedia`` in the same `NAME.privacy.json`, and the pictures are ReelExport's
/// ``ReviewFrame``: plain, outlined, or rendered by the export's own compositor.
final class StudioReview: Sendable {
    private let library: StudioLibrary
    private let stamps: StudioStamps
    /// Edits are read, changed and written under this lock: two tabs editing at once never
    /// lose each other's change.
    private let editing = NSLock()

    init(library: StudioLibrary, stamps: StudioStamps) {
        self.library = library
        self.stamps = stamps
    }

    /// `GET /api/sessions/ID/review`: the segments with their edits; 422 without face positions.
    func document(_ id: UUID) throws(StudioRefusal) -> ReviewAnswer {
        let (media, track) = try reviewed(id)
        return try answer(media, track: track, edits: try Self.edits(media))
    }

    /// `POST /api/sessions/ID/review`: applies the request's changes to one segment, in the
    /// order ``ReviewRequest/changes(stamp:)`` gives, stores them, and answers the new document;
    /// refused with 412 when `ifMatch` names another version than the review's (``StudioVersion``).
    func edit(_ id: UUID, _ request: ReviewRequest, ifMatch: String? = nil) throws(StudioRefusal) -> ReviewAnswer {
        let (media, track) = try reviewed(id)
        let changes = try request.changes { name throws(StudioRefusal) in try stamps.path(of: name) }
        guard !changes.isEmpty else { throw StudioRefusal(status: 400, message: "the edit names no change (reset, offset, scale, disabled or stamp)") }
        editing.lock()
        defer { editing.unlock() }
        var edits = try Self.edits(media)
        try StudioVersion.check(ifMatch, current: StudioVersion.of(ReviewSegmentJSON.rows(track, edits: edits)), what: "the review of this session")
        do {
            for change in changes { try edits.apply(change, to: request.segmentID, in: track) }
        } catch {
            throw StudioRefusal(status: 400, message: "\(error)")
        }
        do { try media.save(edits) } catch { throw StudioRefusal(status: 500, message: "\(error)") }
        return try answer(media, track: track, edits: edits)
    }

    /// `GET /api/sessions/ID/frame`: the picture at `time` as `view` shows it, at most `width` wide.
    func frame(_ id: UUID, at time: MediaTime, view: ReviewFrame.View, width: Int) throws(StudioRefusal) -> Data {
        let media = SessionMedia(try library.session(id))
        do {
            let track = view == .plain ? nil : try media.faceTrack()
            return try ReviewFrame.jpeg(video: media.session.filePath, at: time, view: view, track: track,
                                        edits: view == .plain ? PrivacyEdits() : try media.edits(), maxWidth: width)
        } catch {
            throw StudioRefusal(status: 422, message: "no picture of \(media.session.filePath) at \(time.seconds) s: \(error)")
        }
    }

    /// The session and its face track; 422 when it has no face positions (saying why).
    private func reviewed(_ id: UUID) throws(StudioRefusal) -> (SessionMedia, FaceTrack) {
        let media = SessionMedia(try library.session(id))
        let track: FaceTrack?
        do { track = try media.faceTrack() } catch { throw StudioRefusal(status: 422, message: "\(error)") }
        guard let track, !track.samples.isEmpty else {
            throw StudioRefusal(status: 422, message: "this session has no face positions to review: \(media.missingFacesReason(track)); "
                                + "'reel export --all-faces' finds faces in its video instead")
        }
        return (media, track)
    }

    private static func edits(_ media: SessionMedia) throws(StudioRefusal) -> PrivacyEdits {
        do { return try media.edits() } catch { throw StudioRefusal(status: 422, message: "\(error)") }
    }

    private func answer(_ media: SessionMedia, track: FaceTrack, edits: PrivacyEdits) throws(StudioRefusal) -> ReviewAnswer {
        let info: MediaFileInfo
        do { info = try VideoFileReader(path: media.session.filePath).info } catch {
            throw StudioRefusal(status: 422, message: "the session's video cannot be read: \(error)")
        }
        return ReviewAnswer(session: media.session.id.uuidString.lowercased(), title: media.session.title,
                            duration: info.videoDuration?.seconds ?? info.duration?.seconds ?? media.session.videoSeconds,
                            width: info.width, height: info.height, editsPath: media.editsPath,
                            segments: ReviewSegmentJSON.rows(track, edits: edits))
    }
}

/// `GET /api/sessions/ID/review` and the answer of an edit.
struct ReviewAnswer: Encodable {
    var session: String
    var title: String?
    var duration: Double
    var width: Int, height: Int
    var editsPath: String
    var segments: [ReviewSegmentJSON]
}

/// The body of `POST /api/sessions/ID/review`: one segment and what to change in it.
struct ReviewRequest: Decodable {
    var segment: Int
    var subject: Int?
    var reset: Bool?
    var offset: [Double]?
    var scale: Double?
    var disabled: Bool?
    /// A stamp's name (``StampName``), or "" for the mosaic again.
    var stamp: String?

    var segmentID: FaceSegmentID { FaceSegmentID(subject: subject ?? 0, segment: segment) }

    /// The changes, in this order: reset, offset, scale, disabled, stamp; `stampPath` finds a
    /// stamp's file by its name.
    func changes(stampPath: (String) throws(StudioRefusal) -> String) throws(StudioRefusal) -> [PrivacyEdits.Change] {
        var changes: [PrivacyEdits.Change] = []
        if reset == true { changes.append(.reset) }
        if let offset {
            guard offset.count == 2 else { throw StudioRefusal(status: 400, message: "offset is two numbers, [dx, dy]") }
            changes.append(.offset(dx: offset[0], dy: offset[1]))
        }
        if let scale { changes.append(.scale(scale)) }
        if let disabled { changes.append(disabled ? .disable : .enable) }
        if let stamp { changes.append(stamp.isEmpty ? .removeStamp : .stamp(try stampPath(stamp))) }
        return changes
    }
}
