CREATE TABLE daily_goal (
    date TEXT PRIMARY KEY NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]'),
    minutes INTEGER NOT NULL CHECK (minutes BETWEEN 0 AND 1440)
) STRICT;

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

CREATE TABLE schema_migration (
    position INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, applied_at TEXT NOT NULL) STRICT;

CREATE TABLE session_export (
    session_id TEXT NOT NULL REFERENCES study_session (id) ON DELETE CASCADE,
    path TEXT NOT NULL CHECK (length(path) > 0),
    exported_at TEXT NOT NULL,
    privacy TEXT NOT NULL,
    bytes INTEGER NOT NULL CHECK (bytes >= 0),
    PRIMARY KEY (session_id, path)
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
, cpu_share REAL CHECK (cpu_share IS NULL OR cpu_share >= 0), peak_celsius REAL, eased_seconds REAL CHECK (eased_seconds IS NULL OR eased_seconds >= 0), reduced_seconds REAL CHECK (reduced_seconds IS NULL OR reduced_seconds >= 0), load_reasons TEXT) STRICT;

CREATE TABLE study_session_tag (
    session_id TEXT NOT NULL REFERENCES study_session (id) ON DELETE CASCADE,
    tag_id INTEGER NOT NULL REFERENCES tag (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    PRIMARY KEY (session_id, tag_id)
) STRICT;

CREATE TABLE tag (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE CHECK (length(name) > 0)
) STRICT;

CREATE INDEX overlay_asset_by_added ON overlay_asset (added_at);

CREATE INDEX study_material_by_added ON study_material (added_at);

CREATE INDEX study_session_by_start ON study_session (started_at);

CREATE INDEX study_session_tag_by_tag ON study_session_tag (tag_id);
