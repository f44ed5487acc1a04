import Foundation

/// What `reel restore` adds (docs/library.md, Backup and restore): only additions, never an
/// overwrite or a deletion. Sessions are recognised by id, tags by exact name, goals by date,
/// materials by ISBN (materials without one by id). Pure: built from what the library already
/// holds.
public struct RestorePlan: Sendable, Equatable {
    /// What the library already holds, as far as the merge needs it.
    public struct Existing: Sendable, Equatable {
        /// Session ids.
        public var sessionIDs: Set<UUID>
        /// Tag names.
        public var tagNames: Set<String>
        /// Goal dates.
        public var goalDates: Set<CalendarDay>
        /// Material ISBNs.
        public var materialISBNs: Set<String>
        /// Material ids.
        public var materialIDs: Set<UUID>

        /// A library's keys.
        public init(sessionIDs: Set<UUID> = [], tagNames: Set<String> = [], goalDates: Set<CalendarDay> = [],
                    materialISBNs: Set<String> = [], materialIDs: Set<UUID> = []) {
            self.sessionIDs = sessionIDs
            self.tagNames = tagNames
            self.goalDates = goalDates
            self.materialISBNs = materialISBNs
            self.materialIDs = materialIDs
        }
    }

    /// Sessions to add (each with its tags; tags a session names are added with it).
    public var sessions: [StudySession]
    /// Tag names to add (those in the backup and not in the library, including ones only sessions carry).
    public var tags: [String]
    /// Goals to add.
    public var goals: [DailyGoal]
    /// Materials to add.
    public var materials: [StudyMaterial]

    /// True when restoring changes nothing.
    public var isEmpty: Bool { sessions.isEmpty && tags.isEmpty && goals.isEmpty && materials.isEmpty }

    /// The additions `backup` brings to a library holding `existing`. Duplicates inside the
    /// backup itself count once (the first wins).
    public init(backup: BackupDocument, existing: Existing) {
        var known = existing
        sessions = backup.sessions.filter { known.sessionIDs.insert($0.id).inserted }
        tags = (backup.tags + backup.sessions.flatMap(\.tags)).filter { known.tagNames.insert($0).inserted }
        goals = backup.goals.filter { known.goalDates.insert($0.date).inserted }
        materials = backup.materials.filter { material in
            guard !known.materialIDs.contains(material.id) else { return false }
            if let isbn = material.isbn, !known.materialISBNs.insert(isbn).inserted { return false }
            known.materialIDs.insert(material.id)
            return true
        }
    }
}
