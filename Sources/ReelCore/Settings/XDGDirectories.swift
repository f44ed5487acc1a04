/// Where Reel keeps files for a user, after the XDG Base Directory specification: data
/// (`$XDG_DATA_HOME`, default `~/.local/share`), state (`$XDG_STATE_HOME`, default
/// `~/.local/state`), cache (`$XDG_CACHE_HOME`, default `~/.cache`), videos
/// (`$XDG_VIDEOS_DIR`, default `~/Videos`) and pictures (`$XDG_PICTURES_DIR`, default
/// `~/Pictures`), where `~` is `$HOME`.
///
/// A pure value: the caller passes the environment and the account's home folder (from the
/// password database), so tests need no real home. `$HOME` wins over the account's home, as in
/// every shell tool (`HOME=/tmp/x reel …` must not write into the real home). Empty or
/// relative variables are ignored, as the specification asks.
public struct XDGDirectories: Sendable, Equatable {
    /// The home folder in force: `$HOME` when it is an absolute path, else the account's.
    public var home: String
    /// User data (`~/.local/share`): finished recordings, the origin's streams.
    public var data: String
    /// State that survives restarts but is not data (`~/.local/state`): spools, recordings in
    /// progress and their checkpoints.
    public var state: String
    /// Files that can be made again (`~/.cache`): the review's segment pictures.
    public var cache: String
    /// The user's videos (`~/Videos`).
    public var videos: String
    /// The user's pictures (`~/Pictures`): the overlay camera's photos.
    public var pictures: String

    /// The folders for `environment`; `accountHome` is used only when `$HOME` is unset, empty
    /// or relative.
    public init(environment: [String: String], accountHome: String) {
        var home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? accountHome
        while home.count > 1, home.hasSuffix("/") { home.removeLast() }
        self.home = home
        func resolve(_ variable: String, _ fallback: String) -> String {
            if let value = environment[variable], value.hasPrefix("/") { return value }
            return (home == "/" ? "" : home) + "/" + fallback
        }
        data = resolve("XDG_DATA_HOME", ".local/share")
        state = resolve("XDG_STATE_HOME", ".local/state")
        cache = resolve("XDG_CACHE_HOME", ".cache")
        videos = resolve("XDG_VIDEOS_DIR", "Videos")
        pictures = resolve("XDG_PICTURES_DIR", "Pictures")
    }

    /// `path` with a leading `~` or `~/` replaced by ``home`` (as a shell would; `~user` and
    /// every other path are returned unchanged).
    public func expandingTilde(_ path: String) -> String {
        if path == "~" { return home }
        if path.hasPrefix("~/") { return (home == "/" ? "" : home) + path.dropFirst() }
        return path
    }

    /// `path` made absolute: `~` expanded, then a relative path taken from `workingFolder`.
    public func absolute(_ path: String, workingFolder: String) -> String {
        let expanded = expandingTilde(path)
        if expanded.hasPrefix("/") { return expanded }
        return (workingFolder.hasSuffix("/") ? workingFolder : workingFolder + "/") + expanded
    }
}
