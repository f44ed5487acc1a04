import Foundation
import ReelCore

/// Study materials: `reel materials add|ls|rm`.
extension StudyLibrary {
    /// Adds `material`. A material whose ISBN is already in the library is refused, naming the
    /// one there; adding the same id twice returns false and changes nothing.
    @discardableResult
    public func addMaterial(_ material: StudyMaterial) throws -> Bool {
        try connection.transaction {
            guard try connection.rows("SELECT 1 FROM study_material WHERE id = ?", [StudyLibrary.key(material.id)]).isEmpty else { return false }
            if let isbn = material.isbn,
               let title = try connection.rows("SELECT title FROM study_material WHERE isbn = ?", [isbn]).first?.first?.text {
                throw Error(description: "ISBN \(isbn) is already in the library as '\(title)'")
            }
            try connection.run("""
                INSERT INTO study_material (id, isbn, title, author, publisher, cover_path, added_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [StudyLibrary.key(material.id), material.isbn, material.title, material.author, material.publisher,
                      material.coverPath, StudyLibrary.timestamp(material.addedAt)])
            return true
        }
    }

    /// Every material, oldest first.
    public func materials() throws -> [StudyMaterial] {
        try connection.namedRows("SELECT id, isbn, title, author, publisher, cover_path, added_at FROM study_material ORDER BY added_at, id",
                                 table: "study_material")
            .map { row in
                try StudyMaterial(id: try row.parsed("id", as: "a UUID", UUID.init(uuidString:)), isbn: try row.optionalText("isbn"),
                                  title: try row.text("title"), author: try row.optionalText("author"),
                                  publisher: try row.optionalText("publisher"), coverPath: try row.optionalText("cover_path"),
                                  addedAt: try row.parsed("added_at", as: "a date", StudyLibrary.date))
            }
    }

    /// Removes the material `reference` names — its ISBN (hyphens allowed) or at least 4
    /// characters of its id — and returns it. No match or several are errors.
    @discardableResult
    public func removeMaterial(_ reference: String) throws -> StudyMaterial {
        try connection.transaction {
            let all = try materials()
            let digits = reference.filter { $0 != "-" && $0 != " " }
            var matches = all.filter { $0.isbn != nil && $0.isbn == digits }
            if matches.isEmpty {
                let key = reference.lowercased()
                guard key.count >= 4 else {
                    throw Error(description: "'\(reference)': give the material's ISBN or at least 4 characters of its id (reel materials ls --json)")
                }
                matches = all.filter { StudyLibrary.key($0.id).hasPrefix(key) }
            }
            guard matches.count == 1, let material = matches.first else {
                throw Error(description: matches.isEmpty
                    ? "no material has the ISBN or an id starting with '\(reference)' (reel materials ls lists them)"
                    : "'\(reference)' matches \(matches.count) materials; give more of the id")
            }
            try connection.run("DELETE FROM study_material WHERE id = ?", [StudyLibrary.key(material.id)])
            return material
        }
    }
}
