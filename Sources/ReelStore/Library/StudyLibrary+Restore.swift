import Foundation
import ReelCore

/// Restore: the library's keys for ``RestorePlan`` and the plan's additions in one transaction.
extension StudyLibrary {
    /// Session ids, tag names, goal dates, material ISBNs and ids already in the library.
    public func restoreKeys() throws -> RestorePlan.Existing {
        var existing = RestorePlan.Existing()
        for row in try connection.namedRows("SELECT id FROM study_session", table: "study_session") {
            existing.sessionIDs.insert(try row.parsed("id", as: "a UUID", UUID.init(uuidString:)))
        }
        existing.tagNames = Set(try tagNames())
        existing.goalDates = Set(try goals().map(\.date))
        for row in try connection.namedRows("SELECT id, isbn FROM study_material", table: "study_material") {
            existing.materialIDs.insert(try row.parsed("id", as: "a UUID", UUID.init(uuidString:)))
            if let isbn = try row.optionalText("isbn") { existing.materialISBNs.insert(isbn) }
        }
        return existing
    }

    /// Adds everything `plan` lists in one `BEGIN IMMEDIATE` transaction: all of it or, on any
    /// error, nothing. Never updates or deletes a row.
    public func apply(_ plan: RestorePlan) throws {
        try connection.transaction {
            let addTag = try connection.prepare("INSERT INTO tag (name) VALUES (?) ON CONFLICT (name) DO NOTHING")
            for name in plan.tags { try addTag.run([name]) }
            for session in plan.sessions { try insertSession(session) }
            let addGoal = try connection.prepare("INSERT INTO daily_goal (date, minutes) VALUES (?, ?)")
            for goal in plan.goals { try addGoal.run([goal.date.description, goal.minutes]) }
            let addMaterial = try connection.prepare("""
                INSERT INTO study_material (id, isbn, title, author, publisher, cover_path, added_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
            for material in plan.materials {
                try addMaterial.run([StudyLibrary.key(material.id), material.isbn, material.title, material.author, material.publisher,
                                     material.coverPath, StudyLibrary.timestamp(material.addedAt)])
            }
        }
    }
}
