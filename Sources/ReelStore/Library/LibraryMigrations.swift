/// The library's schema, as named migrations applied in order. **Only ever append**: a
/// migration that shipped is never edited, renamed or removed (a library made by any earlier
/// Reel must migrate with no loss). The schema they produce is kept as a golden file
/// (`Tests/ReelStoreTests/Golden/library-schema.sql`).
public enum LibraryMigrations {
    /// One migration: a unique name and the SQL that applies it (run in one transaction with
    /// its entry in `schema_migration`).
    public struct Migration: Sendable {
        public var name: String
        public var sql: String
    }

    /// Every migration, oldest first.
    public static let all: [Migration] = [
        Migration(name: "0001-study-sessions-and-tags", sql: """
            CREATE TABLE study_session (
                id TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 36),
                started_at TEXT NOT NULL,
                ended_at TEXT NOT NULL,
                active_seconds REAL NOT NULL CHECK (active_seconds >= 0),
                video_seconds REAL NOT NULL CHECK (video_seconds >= 0),
                mode TEXT NOT NULL CHECK (mode IN ('timelapse', 'full')),
                interval_seconds REAL CHECK (interval_seconds IS NULL OR interval_seconds > 0),
                file_path TEXT NOT NULL,
                thumbnail_path TEXT,
                face_track_path TEXT,
                title TEXT,
                recovered INTEGER NOT NULL DEFAULT 0 CHECK (recovered IN (0, 1))
            ) STRICT;
            CREATE INDEX study_session_by_start ON study_session (started_at);
            CREATE TABLE tag (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL UNIQUE CHECK (length(name) > 0)
            ) STRICT;
            CREATE TABLE study_session_tag (
                session_id TEXT NOT NULL REFERENCES study_session (id) ON DELETE CASCADE,
                tag_id INTEGER NOT NULL REFERENCES tag (id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                PRIMARY KEY (session_id, tag_id)
            ) STRICT;
            CREATE INDEX study_session_tag_by_tag ON study_session_tag (tag_id);
            """),
        // Heat and load: NULL eased_seconds means "not measured" (sessions from
        // before, recovered ones); load_reasons is a comma-separated list of reason kinds.
        Migration(name: "0002-session-load", sql: """
            ALTER TABLE study_session ADD COLUMN cpu_share REAL CHECK (cpu_share IS NULL OR cpu_share >= 0);
            ALTER TABLE study_session ADD COLUMN peak_celsius REAL;
            ALTER TABLE study_session ADD COLUMN eased_seconds REAL CHECK (eased_seconds IS NULL OR eased_seconds >= 0);
            ALTER TABLE study_session ADD COLUMN reduced_seconds REAL CHECK (reduced_seconds IS NULL OR reduced_seconds >= 0);
            ALTER TABLE study_session ADD COLUMN load_reasons TEXT;
            """),
        // Goals and materials: one goal per date (YYYY-MM-DD, the first day it applies
        // to; 0 minutes = no goal); a material's ISBN is 13 digits and unique when present
        // (NULLs do not collide); a barcode scan (ReelMaterials) fills the same columns.
        Migration(name: "0003-goals-and-materials", sql: """
            CREATE TABLE daily_goal (
                date TEXT PRIMARY KEY NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]'),
                minutes INTEGER NOT NULL CHECK (minutes BETWEEN 0 AND 1440)
            ) STRICT;
            CREATE TABLE study_material (
                id TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 36),
                isbn TEXT UNIQUE CHECK (isbn IS NULL OR (length(isbn) = 13 AND isbn NOT GLOB '*[^0-9]*')),
                title TEXT NOT NULL CHECK (length(title) > 0),
                author TEXT,
                publisher TEXT,
                cover_path TEXT,
                added_at TEXT NOT NULL
            ) STRICT;
            CREATE INDEX study_material_by_added ON study_material (added_at);
            """),
        // What was exported from a session (`reel sessions show`): one row per file
        // `reel export` wrote; removed with its session. Not backed up: exports are made again
        // from the session.
        Migration(name: "0004-session-exports", sql: """
            CREATE TABLE session_export (
                session_id TEXT NOT NULL REFERENCES study_session (id) ON DELETE CASCADE,
                path TEXT NOT NULL CHECK (length(path) > 0),
                exported_at TEXT NOT NULL,
                privacy TEXT NOT NULL,
                bytes INTEGER NOT NULL CHECK (bytes >= 0),
                PRIMARY KEY (session_id, path)
            ) STRICT;
            """),
        // The overlay camera's artwork: one row per asset; the file is kept beside the
        // library (overlay-assets/ID.EXT). Not backed up yet.
        Migration(name: "0005-overlay-assets", sql: """
            CREATE TABLE overlay_asset (
                id TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 36),
                name TEXT NOT NULL CHECK (length(name) > 0),
                file_name TEXT NOT NULL UNIQUE CHECK (length(file_name) > 37 AND file_name NOT GLOB '*/*'),
                width INTEGER NOT NULL CHECK (width > 0),
                height INTEGER NOT NULL CHECK (height > 0),
                has_alpha INTEGER NOT NULL CHECK (has_alpha IN (0, 1)),
                format TEXT NOT NULL,
                profile TEXT NOT NULL,
                origin TEXT NOT NULL CHECK (origin IN ('import', 'cutout')),
                bytes INTEGER NOT NULL CHECK (bytes >= 0),
                added_at TEXT NOT NULL
            ) STRICT;
            CREATE INDEX overlay_asset_by_added ON overlay_asset (added_at);
            """),
    ]
}
