/// The studio's server-sent events by name: what ``StudioEvents/publish(_:data:)`` sends on
/// `/api/events`, and what the page listens for. The page does not retype the names: it imports
/// `EVENTS` from `/assets/events.js`, which the studio writes from this enum (``script``), and
/// listens for `EVENTS.overlayPhoto` and the like; ReelStudioTests checks that every `EVENTS.x`
/// in the page's scripts is a case here and that no script listens for a name as a literal.
enum StudioEvent: String, CaseIterable, Sendable {
    /// The studio's status (library, disk, source, streams): ``StudioStatus``.
    case status
    /// The recording's snapshot (``RecordingSnapshot``).
    case recording
    /// The chosen source and its preview.
    case camera
    /// The library changed (a session registered, edited, trashed): the page reloads its lists.
    case library
    /// The backup job's snapshot.
    case backup
    /// The export job's snapshot.
    case export
    /// The live stream's snapshot.
    case live
    /// The overlay camera's state.
    case overlay
    /// A photo joined the overlay camera's gallery.
    case overlayPhoto = "overlay-photo"
    /// The overlay camera's artwork shelf.
    case overlayAssets = "overlay-assets"
    /// The cinematic camera's state.
    case cinematic
    /// The cinematic clips and stills changed: the page reloads them.
    case cinematicClips = "cinematic-clips"
    /// The refocus job's answer.
    case cinematicRefocus = "cinematic-refocus"

    /// The name in `EVENTS` (`events.js`): the event's name in camelCase
    /// (`overlay-photo` → `overlayPhoto`), as the case is spelt here.
    var key: String {
        let words = rawValue.split(separator: "-")
        return words.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }
            .joined()
    }

    /// `/assets/events.js`: an ES module that exports `EVENTS`, every event's key and name, frozen.
    static let script: [UInt8] = {
        let entries = allCases.map { "  \($0.key): \"\($0.rawValue)\"," }
        let lines = ["// The names of the studio's events on /api/events, written by the studio from StudioEvent",
                     "// (Sources/ReelStudio/StudioEvent.swift): listen for EVENTS.x, never for a name typed out.",
                     "export const EVENTS = Object.freeze({"] + entries + ["});", ""]
        return Array(lines.joined(separator: "\n").utf8)
    }()
}
