import Foundation
import ReelCore

/// Tags: `reel tags add|rm|ls`, `reel tag SESSION NAME`.
extension StudyLibrary {
    /// A tag and how many sessions carry it.
    public struct TagUsage: Sendable, Equatable {
        /// The tag's name.
        public var name: String
        /// Sessions tagged with it.
        public var sessionCount: Int

        /// A tag's usage.
        public init(name: String, sessionCount: Int) {
            self.name = name
            self.sessionCount = sessionCount
        }
    }

    /// Every tag, sorted by name, with its session count.
    public func tags() throws(SQLiteError) -> [TagUsage] {
        var usages: [TagUsage] = []
        for row in try connection.namedRows("""
            SELECT t.id, t.name, count(st.session_id) AS sessions FROM tag t LEFT JOIN study_session_tag st ON st.tag_id = t.id
            GROUP BY t.id ORDER BY t.name
            """, table: "tag") {
            usages.append(TagUsage(name: try row.text("name"), sessionCount: Int(try row.integer("sessions"))))
        }
        return usages
    }

    /// Adds `tag`; false (changing nothing) when a tag of that exact name is there.
    @discardableResult
    public func addTag(_ tag: Tag) throws -> Bool {
        try connection.transaction {
            try connection.run("INSERT INTO tag (name) VALUES (?) ON CONFLICT (name) DO NOTHING", [tag.name])
            return connection.changes == 1
        }
    }

    /// Removes the tag called `name` and returns how many sessions lost it. A tag that does not
    /// exist is an error naming the nearest existing one; a tag still on sessions is refused
    /// (saying how many) unless `force`.
    @discardableResult
    public func removeTag(named name: String, force: Bool = false) throws -> Int {
        try connection.transaction {
            guard let row = try connection.rows("""
                SELECT t.id, count(st.session_id) FROM tag t LEFT JOIN study_session_tag st ON st.tag_id = t.id WHERE t.name = ? GROUP BY t.id
                """, [name]).first, let id = row[0].integer else {
                throw Error(description: try unknownTagMessage(name))
            }
            let count = Int(row[1].integer ?? 0)
            guard count == 0 || force else {
                throw Error(description: "tag '\(name)' is on \(Counted.noun(count, "session")); add --force to remove it anyway (it is taken off \(count == 1 ? "that session" : "those sessions"), which stay)")
            }
            try connection.run("DELETE FROM tag WHERE id = ?", [id])
            return count
        }
    }

    /// Puts the existing tag `name` on the session `id` (after its other tags); false when the
    /// session already has it. An unknown tag or session is an error.
    @discardableResult
    public func tag(session id: UUID, with name: String) throws -> Bool {
        try connection.transaction { try tagInTransaction(session: id, with: name) }
    }

    /// ``tag(session:with:)`` inside the caller's transaction.
    func tagInTransaction(session id: UUID, with name: String) throws -> Bool {
        do {
            guard let tagID = try connection.rows("SELECT id FROM tag WHERE name = ?", [name]).first?.first?.integer else {
                throw Error(description: try unknownTagMessage(name) + "; create it first: reel tags add '\(name)'")
            }
            guard try contains(id) else { throw Error(description: "no session \(StudyLibrary.key(id)) in \(path)") }
            try connection.run("""
                INSERT INTO study_session_tag (session_id, tag_id, position)
                SELECT ?1, ?2, coalesce(max(position) + 1, 0) FROM study_session_tag WHERE session_id = ?1
                ON CONFLICT (session_id, tag_id) DO NOTHING
                """, [StudyLibrary.key(id), tagID])
            return connection.changes == 1
        }
    }

    /// Takes the tag `name` off the session `id`; false when it did not have it.
    @discardableResult
    public func untag(session id: UUID, from name: String) throws -> Bool {
        try connection.transaction { try untagInTransaction(session: id, from: name) }
    }

    /// ``untag(session:from:)`` inside the caller's transaction.
    func untagInTransaction(session id: UUID, from name: String) throws -> Bool {
        do {
            try connection.run("DELETE FROM study_session_tag WHERE session_id = ? AND tag_id = (SELECT id FROM tag WHERE name = ?)",
                               [StudyLibrary.key(id), name])
            return connection.changes == 1
        }
    }

    /// "no tag 'NAME'" with the nearest existing name, for errors about a tag the user named.
    public func unknownTagMessage(_ name: String) throws -> String {
        let names = try tagNames()
        let near = names.first { $0.lowercased() == name.lowercased() }
            ?? names.min { Self.distance($0.lowercased(), name.lowercased()) < Self.distance($1.lowercased(), name.lowercased()) }
                .flatMap { Self.distance($0.lowercased(), name.lowercased()) <= max(2, name.count / 3) ? $0 : nil }
        return "no tag '\(name)'" + (near.map { " (did you mean '\($0)'?)" } ?? "") + (names.isEmpty ? "; the library has no tags yet" : "")
    }

    /// Edit distance, for "did you mean".
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let old = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = old
            }
        }
        return a.isEmpty ? b.count : row[b.count]
    }
}
