/// Where Reel keeps files for a user, after the XDG Base Directory specification: data
/// (`$XDG_DATA_HOME`, default `~/.local/share`), state (`$XDG_STATE_HOME`, default
/// `~/.local/state`), cache (`$XDG_CACHE_HOME`, default `~/.cache`) and videos
/// (`$XDG_VIDEOS_DIR`, default `~/Videos`).
///
/// A pure value: the caller passes the environment and the home folder, so tests need no
/// real home. Empty or relative variables are ignored, as the specification asks.
public struct XDGDirectories: Sendable, Equatable {
    /// User data (`~/.local/share`): finished recordings, the origin's streams.
    public var data: String
    /// State that survives restarts but is not data (`~/.local/state`): spools, recordings in
    /// progress and their checkpoints.
    public var state: String
    /// Files that can be made again (`~/.cache`): the review's segment pictures.
    public var cache: String
    /// The user's videos (`~/Videos`).
    public var videos: String

    /// The folders for `environment` and `home`.
    public init(environment: [String: String], home: String) {
        func resolve(_ variable: String, _ fallback: String) -> String {
            if let value = environment[variable], value.hasPrefix("/") { return value }
            return (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/" + fallback
        }
        data = resolve("XDG_DATA_HOME", ".local/share")
        state = resolve("XDG_STATE_HOME", ".local/state")
        cache = resolve("XDG_CACHE_HOME", ".cache")
        videos = resolve("XDG_VIDEOS_DIR", "Videos")
    }
}
