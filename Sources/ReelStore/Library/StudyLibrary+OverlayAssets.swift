import Foundation
import ReelCore

/// The overlay camera's artwork records: `reel overlay assets`.
extension StudyLibrary {
    /// The folder beside the library where asset files are kept.
    public var overlayAssetFolder: String { ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent("overlay-assets") }

    /// Records `asset` (its file already placed in ``overlayAssetFolder``).
    public func addOverlayAsset(_ asset: OverlayAsset) throws {
        try connection.run("""
            INSERT INTO overlay_asset (id, name, file_name, width, height, has_alpha, format, profile, origin, bytes, added_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [StudyLibrary.key(asset.id), asset.name, asset.fileName, asset.width, asset.height, asset.hasAlpha, asset.format,
                  asset.profile, asset.origin.rawValue, asset.bytes, StudyLibrary.timestamp(asset.addedAt)])
    }

    /// Every asset, oldest first.
    public func overlayAssets() throws -> [OverlayAsset] {
        try connection.namedRows("""
            SELECT id, name, file_name, width, height, has_alpha, format, profile, origin, bytes, added_at
            FROM overlay_asset ORDER BY added_at, id
            """, table: "overlay_asset")
            .map { row in
                OverlayAsset(id: try row.parsed("id", as: "a UUID", UUID.init(uuidString:)), name: try row.text("name"),
                             fileName: try row.text("file_name"), width: Int(try row.integer("width")),
                             height: Int(try row.integer("height")), hasAlpha: try row.integer("has_alpha") != 0,
                             format: try row.text("format"), profile: try row.text("profile"),
                             origin: try row.parsed("origin", as: "import or cutout", OverlayAsset.Origin.init(rawValue:)),
                             bytes: Int(try row.integer("bytes")), addedAt: try row.parsed("added_at", as: "a date", StudyLibrary.date))
            }
    }

    /// The one asset `reference` names: its full name, or at least 4 characters of its id.
    /// No match, or several, is an error that says what to give instead.
    public func overlayAsset(_ reference: String) throws -> OverlayAsset {
        let all = try overlayAssets()
        var matches = all.filter { $0.name == reference }
        if matches.isEmpty {
            let key = reference.lowercased()
            guard key.count >= 4 else {
                throw Error(description: "'\(reference)': give the asset's name or at least 4 characters of its id (reel overlay assets lists them)")
            }
            matches = all.filter { StudyLibrary.key($0.id).hasPrefix(key) }
        }
        guard matches.count == 1, let asset = matches.first else {
            throw Error(description: matches.isEmpty
                ? "no asset is named '\(reference)' or has an id starting with it (reel overlay assets lists them)"
                : "'\(reference)' matches \(matches.count) assets; give at least 4 characters of one's id (reel overlay assets lists them)")
        }
        return asset
    }

    /// Removes the record of `asset` (its file is the caller's to remove, after).
    public func removeOverlayAsset(_ asset: OverlayAsset) throws {
        try connection.run("DELETE FROM overlay_asset WHERE id = ?", [StudyLibrary.key(asset.id)])
    }
}
