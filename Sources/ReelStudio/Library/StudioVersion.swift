import Foundation
import ReelCore
import ReelHTTP

/// The version a session, or a session's review, was read at: an entity tag (`ETag`) made from
/// what an edit can change, and the check of an edit's `If-Match` against the current one.
/// Two tabs editing one session: the edit made on an older version (the other tab saved
/// meanwhile) is refused with 412 and changes nothing, and the tab reads the new state. An
/// edit without `If-Match` (a script's, as docs/studio.md says) is applied to what is current.
enum StudioVersion {
    /// A session's version: its title, tags and every other field, as the API writes them.
    static func of(_ session: StudySession) -> EntityTag {
        EntityTag(content: Array(StudioJSON.line(StudySessionJSON(session)).utf8))
    }

    /// A review's version: its segments with their edits, as the API writes them.
    static func of(_ segments: [ReviewSegmentJSON]) -> EntityTag {
        EntityTag(content: Array(StudioJSON.line(segments).utf8))
    }

    /// Refuses with 412 unless `ifMatch` is absent, `*`, or lists `current` (strong comparison,
    /// RFC 9110 §13.1.1: a weak tag never matches).
    static func check(_ ifMatch: String?, current: EntityTag, what: String) throws(StudioRefusal) {
        guard let ifMatch else { return }
        for item in ifMatch.split(separator: ",") {
            let candidate = item.trimmingCharacters(in: .whitespaces)
            if candidate == "*" || candidate == current.headerValue { return }
        }
        throw StudioRefusal(status: 412, message: "\(what) changed since this version was read (in another tab or program): "
                            + "nothing was changed; read it again (its ETag is now \(current.headerValue)) and redo the edit")
    }
}
