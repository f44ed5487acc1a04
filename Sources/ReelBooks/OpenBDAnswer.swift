import Foundation

/// openBD's answer to `GET {base}/get?isbn=ISBN`: a JSON array with one element per ISBN asked
/// for, `null` when openBD does not know it, otherwise an object whose `summary` holds `isbn`,
/// `title`, `volume`, `series`, `publisher`, `pubdate`, `cover` (a URL or "") and `author`.
public enum OpenBDAnswer {
    /// The answer was not openBD's documented format.
    public struct Error: Swift.Error, CustomStringConvertible, Equatable {
        /// What was wrong with it.
        public var description: String
    }

    /// The book in `data`, nil when openBD answered `[null]` (unknown ISBN) or gave no title.
    public static func parse(_ data: Data, isbn: String) throws(Error) -> BookRecord? {
        let json: Any
        do { json = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) } catch {
            throw Error(description: "openBD's answer is not JSON (\(data.count) bytes)")
        }
        guard let array = json as? [Any] else { throw Error(description: "openBD's answer is not a JSON array") }
        guard let entry = array.first as? [String: Any] else { return nil }
        guard let summary = entry["summary"] as? [String: Any] else { throw Error(description: "openBD's answer has no summary") }
        let title = ((summary["title"] as? String) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { return nil }
        let volume = (summary["volume"] as? String)?.trimmingCharacters(in: .whitespaces) ?? ""
        return BookRecord(isbn: isbn, title: volume.isEmpty ? title : "\(title) \(volume)", author: summary["author"] as? String,
                          publisher: summary["publisher"] as? String, coverURL: summary["cover"] as? String, source: .openBD)
    }
}
