import Foundation
import ReelCore

/// Changing what the library holds about sessions and tags after the fact:
/// `reel sessions edit`, `reel tags rename`, `reel sessions rm`. Each change is one transaction.
extension StudyLibrary {
    /// What `reel sessions edit` changes; nil or empty fields change nothing.
    public struct SessionEdit: Sendable, Equatable {
        /// The new title: `.some(nil)` removes it.
        public var title: String??
        /// Existing tags to put on the session (after its others).
        public var addTags: [String]
        /// Tags to take off.
        public var removeTags: [String]

        /// An edit.
        public init(title: String?? = nil, addTags: [String] = [], removeTags: [String] = []) {
            self.title = title
            self.addTags = addTags
            self.removeTags = removeTags
        }

        /// Whether it changes nothing.
        public var isEmpty: Bool { title == nil && addTags.isEmpty && removeTags.isEmpty }
    }

    /// Applies `edit` to the session `id` in one transaction and returns the session as it is
    /// now. An unknown session, an unknown tag to add (named with the nearest one), or a tag to
    /// remove that the session does not have is an error, and nothing changes.
    @discardableResult
    public func editSession(_ id: UUID, _ edit: SessionEdit) throws -> StudySession {
        try connection.transaction {
            guard try contains(id) else { throw Error(description: "no session \(StudyLibrary.key(id)) in \(path)") }
            if let title = edit.title {
                try connection.run("UPDATE study_session SET title = ? WHERE id = ?", [title.map(SQLiteValue.text) ?? .null, StudyLibrary.key(id)])
            }
            for name in edit.removeTags {
                guard try untagInTransaction(session: id, from: name) else {
                    throw Error(description: "session \(StudyLibrary.key(id).prefix(8)) does not have tag '\(name)'; nothing was changed")
                }
            }
            for name in edit.addTags { _ = try tagInTransaction(session: id, with: name) }
            guard let session = try sessions().first(where: { $0.id == id }) else {
                throw Error(description: "session \(StudyLibrary.key(id)) cannot be read back")
            }
            return session
        }
    }

    /// Renames the tag `old` to `new` (validated by ``Tag``), keeping it on every session. An
    /// unknown tag or a name already taken is an error; returns how many sessions carry it.
    @discardableResult
    public func renameTag(_ old: String, to new: Tag) throws -> Int {
        try connection.transaction {
            guard let id = try connection.rows("SELECT id FROM tag WHERE name = ?", [old]).first?.first?.integer else {
                throw Error(description: try unknownTagMessage(old))
            }
            guard old != new.name else { return try sessionCount(tagID: id) }
            if try connection.rows("SELECT 1 FROM tag WHERE name = ?", [new.name]).first != nil {
                throw Error(description: "tag '\(new.name)' exists already; to merge the two, tag its sessions (reel sessions edit ID --add-tag '\(new.name)') and remove '\(old)'")
            }
            try connection.run("UPDATE tag SET name = ? WHERE id = ?", [new.name, id])
            return try sessionCount(tagID: id)
        }
    }

    private func sessionCount(tagID: Int64) throws -> Int {
        Int(try connection.rows("SELECT count(*) FROM study_session_tag WHERE tag_id = ?", [tagID]).first?.first?.integer ?? 0)
    }

    /// Removes the session `id` with its tags' links and its exports' records (not the files:
    /// the caller has moved them); returns the session as it was. An unknown id is an error.
    @discardableResult
    public func removeSession(_ id: UUID) throws -> StudySession {
        try connection.transaction {
            guard let session = try sessions().first(where: { $0.id == id }) else {
                throw Error(description: "no session \(StudyLibrary.key(id)) in \(path)")
            }
            try connection.run("DELETE FROM study_session WHERE id = ?", [StudyLibrary.key(id)])
            return session
        }
    }

    // MARK: Exports

    /// A file `reel export` made from a session.
    public struct SessionExport: Sendable, Equatable {
        /// Where it was written.
        public var path: String
        /// When.
        public var exportedAt: Date
        /// The privacy treatment (`mosaic`, `stamp`, `none`).
        public var privacy: String
        /// Its size when written.
        public var bytes: Int64

        /// An export's record.
        public init(path: String, exportedAt: Date, privacy: String, bytes: Int64) {
            self.path = path
            self.exportedAt = exportedAt
            self.privacy = privacy
            self.bytes = bytes
        }
    }

    /// Records that `export` was made from the session `id` (a later export to the same path
    /// replaces the record).
    public func recordExport(_ export: SessionExport, of id: UUID) throws {
        try connection.transaction {
            try connection.run("""
                INSERT INTO session_export (session_id, path, exported_at, privacy, bytes) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (session_id, path) DO UPDATE SET exported_at = excluded.exported_at, privacy = excluded.privacy, bytes = excluded.bytes
                """, [StudyLibrary.key(id), export.path, StudyLibrary.timestamp(export.exportedAt), export.privacy, export.bytes])
        }
    }

    /// The exports recorded for the session `id`, oldest first.
    public func exports(of id: UUID) throws -> [SessionExport] {
        try connection.namedRows("SELECT path, exported_at, privacy, bytes FROM session_export WHERE session_id = ? ORDER BY exported_at, path",
                                 [StudyLibrary.key(id)], table: "session_export", keyColumn: "path").map { row in
            SessionExport(path: try row.text("path"), exportedAt: try row.parsed("exported_at", as: "a date", StudyLibrary.date),
                          privacy: try row.text("privacy"), bytes: try row.integer("bytes"))
        }
    }
}
