import Foundation

/// A material as JSON, one shape for `reel materials ls --json` and Reel Studio's
/// `/api/materials`: id in lowercase, `addedAt` ISO 8601 UTC with milliseconds, absent values
/// as null (every key is always there).
public struct StudyMaterialJSON: Encodable, Sendable {
    public let material: StudyMaterial

    public init(_ material: StudyMaterial) { self.material = material }

    /// `materials` as a JSON array; `pretty` for a terminal, else one line.
    public static func text(_ materials: [StudyMaterial], pretty: Bool) throws -> String {
        String(decoding: try StudySessionJSON.encoder(pretty: pretty).encode(materials.map(StudyMaterialJSON.init)), as: UTF8.self)
    }

    enum Key: String, CodingKey { case id, isbn, title, author, publisher, coverPath, addedAt }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(material.id.uuidString.lowercased(), forKey: .id)
        try c.encode(material.isbn, forKey: .isbn)
        try c.encode(material.title, forKey: .title)
        try c.encode(material.author, forKey: .author)
        try c.encode(material.publisher, forKey: .publisher)
        try c.encode(material.coverPath, forKey: .coverPath)
        try c.encode(StudySessionJSON.timestamp(material.addedAt), forKey: .addedAt)
    }
}
