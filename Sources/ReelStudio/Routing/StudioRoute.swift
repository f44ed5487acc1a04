import Foundation
import ReelCore

/// What a path names in Reel Studio (`reel studio`); anything else is 404. Paths are matched
/// whole, as received (still percent-encoded), so no encoding, dot segment or doubled slash
/// reaches a file: the pages and scripts are compiled into the program, and the only names
/// are these.
public enum StudioRoute: Sendable, Hashable {
    /// `/`: the app's page (and, with `?token=`, the sign-in).
    case page
    /// `/assets/NAME`: a script, style sheet or icon of the page (``StudioRoute/assetNames``).
    case asset(String)
    /// `/api/status`: the studio's state as JSON.
    case status
    /// `/api/events`: server-sent events (state, progress, status).
    case events
    /// `/api/sign-out`: ends this browser's session (POST).
    case signOut
    /// `/api/sources`: the cameras found and the other kinds of source.
    case sources
    /// `/api/camera`: the chosen source and its preview (GET); `/api/source` chooses one (POST).
    case camera
    case chooseSource
    /// `/api/preview`: the live preview, a stream of JPEGs; `/api/preview.jpg`: its newest picture.
    case preview
    case previewPicture
    /// `/api/recording`: the recording's state; `/api/recording/start` starts one (POST).
    case recording
    case startRecording
    /// `/api/recording/pause`, `resume`, `toggle`, `stop` (POST).
    case controlRecording(RecordingStateMachine.Control)
    /// `/api/sessions`: the library's sessions, newest first (`?tag=`, `?since=`, `?until=`).
    case sessions
    /// `/api/tags`: every tag with its count (GET); makes one (POST).
    case tags
    /// `/api/stats` (JSON) and `/api/stats.svg` (the chart `reel stats --svg` draws), for
    /// `?period=week|month&date=YYYY-MM-DD`.
    case stats
    case statsChart
    /// `/api/goals`: the daily goals (GET); sets one (POST).
    case goals
    /// `/api/materials`: the books (GET); adds one (POST).
    case materials
    /// `/api/materials/scan`: a book's barcode read from the source's picture (POST).
    case scanBarcode
    /// `/api/materials/ID/cover` (GET) and `/api/materials/ID/remove` (POST).
    case materialCover(UUID)
    case removeMaterial(UUID)
    /// `/api/backup`: the backup's state (GET); starts one (POST). `/api/restore`: a restore,
    /// dry run or not (POST).
    case backup
    case restore
    /// `/api/sessions/ID…`: one session (``SessionPart``); ID is the whole id in lowercase.
    case session(UUID, SessionPart)
    /// `/api/stamps`: the stamp images (GET); adds one (POST, the PNG as the body).
    /// `/api/stamps/NAME`: one (``StampName``).
    case stamps
    case stamp(String)
    /// `/api/export`: the export or vlog job (GET); exports a session (POST). `/api/vlog`: makes a
    /// weekly vlog (POST). `/api/export/stop` stops the job (POST); `/api/export/file` is the
    /// last finished job's video (GET, byte ranges).
    case export
    case vlog
    case stopExport
    case exportFile
    /// `/api/live`: the live stream (GET); starts `reel live` (POST). `/api/live/stop` ends it (POST).
    case live
    case stopLive
    /// `/api/overlay`: the overlay camera's state with the artwork's transform for each preview
    /// (GET); changes it (POST, ``OverlayCameraState/Change``).
    case overlay
    /// `/api/overlay/preview?view=unfiltered|square|circle|tall`: a preview of the overlay
    /// camera, a stream of JPEGs.
    case overlayPreview
    /// `/api/overlay/shoot`: takes a photo (POST).
    case overlayShoot
    /// `/api/overlay/source`: switches the overlay camera to another source while it runs (the
    /// lens switch), or chooses one (POST `{"source"}`).
    case overlaySource
    /// `/api/overlay/assets`: the artwork (GET); imports one (POST, the image as the body).
    /// `/api/overlay/assets/ID`: its picture as a PNG for the page (GET); `…/remove` (POST).
    case overlayAssets
    case overlayAsset(UUID)
    case removeOverlayAsset(UUID)
    /// `/api/overlay/photos`: the gallery, newest first. `/api/overlay/photos/NAME`: the photo's
    /// file; `…/NAME/view`: a JPEG of it a browser can show, upright (GET).
    case overlayPhotos
    case overlayPhoto(String)
    case overlayPhotoView(String)
    /// `/api/overlay/cutout`: cuts the subject at a point of a gallery photo out into a new
    /// asset (POST).
    case overlayCutout
    /// `/api/cinematic`: the cinematic camera's state (GET); a command to it (POST
    /// `{"command":"tap 0.4 0.5"}`, ``CinematicControl``'s words).
    case cinematic
    /// `/api/cinematic/preview`: the picture with the blur, a stream of JPEGs.
    case cinematicPreview
    /// `/api/cinematic/record` starts a clip, `/api/cinematic/record/stop` ends it (POST).
    case cinematicRecord
    case cinematicRecordStop
    /// `/api/cinematic/still`: a JPEG of the next picture, with the blur (POST).
    case cinematicStill
    /// `/api/cinematic/clips`: the clips and stills, newest first (GET).
    /// `/api/cinematic/clips/NAME`: a clip's MP4 (byte ranges); `…/NAME/timeline`: its recorded
    /// subjects and focus, for the refocus editor. `/api/cinematic/stills/NAME`: a still (GET).
    case cinematicClips
    case cinematicClip(String)
    case cinematicTimeline(String)
    case cinematicStillFile(String)
    /// `/api/cinematic/refocus`: the refocus job (GET); renders a clip with new keyframes (POST).
    /// `/api/cinematic/refocus/stop` stops it (POST).
    case cinematicRefocus
    case cinematicRefocusStop

    /// What of one session a path names.
    public enum SessionPart: String, Sendable, Hashable, CaseIterable {
        /// `/api/sessions/ID`: the session with its files and exports.
        case record = ""
        /// `/api/sessions/ID/thumbnail`: its picture (JPEG).
        case thumbnail
        /// `/api/sessions/ID/video`: its video, with byte ranges.
        case video
        /// `/api/sessions/ID/edit`: title and tags (POST).
        case edit
        /// `/api/sessions/ID/trash`: files and record to the Trash (POST).
        case trash
        /// `/api/sessions/ID/untrash`: back from the Trash (POST).
        case untrash
        /// `/api/sessions/ID/review`: the face segments with their edits (GET); edits one (POST).
        case review
        /// `/api/sessions/ID/frame?t=&view=`: one picture, plain, with the boxes, or rendered.
        case frame
    }

    /// The page's files.
    public static let assetNames: Set<String> = ["app.js", "common.js", "events.js", "record.js", "library.js", "stats.js", "materials.js", "backup.js", "review.js", "exports.js", "live.js", "overlay.js", "cinematic.js", "style.css", "icon.svg"]

    public init?(path: String) {
        switch path {
        case "/": self = .page
        case "/api/status": self = .status
        case "/api/events": self = .events
        case "/api/sign-out": self = .signOut
        case "/api/sources": self = .sources
        case "/api/camera": self = .camera
        case "/api/source": self = .chooseSource
        case "/api/preview": self = .preview
        case "/api/preview.jpg": self = .previewPicture
        case "/api/recording": self = .recording
        case "/api/recording/start": self = .startRecording
        case "/api/sessions": self = .sessions
        case "/api/tags": self = .tags
        case "/api/stats": self = .stats
        case "/api/stats.svg": self = .statsChart
        case "/api/goals": self = .goals
        case "/api/materials": self = .materials
        case "/api/materials/scan": self = .scanBarcode
        case "/api/backup": self = .backup
        case "/api/restore": self = .restore
        case "/api/stamps": self = .stamps
        case "/api/export": self = .export
        case "/api/vlog": self = .vlog
        case "/api/export/stop": self = .stopExport
        case "/api/export/file": self = .exportFile
        case "/api/live": self = .live
        case "/api/live/stop": self = .stopLive
        case "/api/overlay": self = .overlay
        case "/api/overlay/preview": self = .overlayPreview
        case "/api/overlay/shoot": self = .overlayShoot
        case "/api/overlay/source": self = .overlaySource
        case "/api/overlay/assets": self = .overlayAssets
        case "/api/overlay/photos": self = .overlayPhotos
        case "/api/overlay/cutout": self = .overlayCutout
        case "/api/cinematic": self = .cinematic
        case "/api/cinematic/preview": self = .cinematicPreview
        case "/api/cinematic/record": self = .cinematicRecord
        case "/api/cinematic/record/stop": self = .cinematicRecordStop
        case "/api/cinematic/still": self = .cinematicStill
        case "/api/cinematic/clips": self = .cinematicClips
        case "/api/cinematic/refocus": self = .cinematicRefocus
        case "/api/cinematic/refocus/stop": self = .cinematicRefocusStop
        default:
            let stamps = "/api/stamps/"
            if path.hasPrefix(stamps), StampName.isValid(path.dropFirst(stamps.count)) {
                self = .stamp(String(path.dropFirst(stamps.count)))
                return
            }
            if let session = Self.session(path) ?? Self.material(path) ?? Self.overlayAssetRoute(path) ?? Self.overlayPhotoRoute(path) ?? Self.cinematicFileRoute(path) {
                self = session
                return
            }
            let control = "/api/recording/"
            if path.hasPrefix(control), let action = RecordingStateMachine.Control(rawValue: String(path.dropFirst(control.count))) {
                self = .controlRecording(action)
                return
            }
            let prefix = "/assets/"
            guard path.hasPrefix(prefix) else { return nil }
            let name = String(path.dropFirst(prefix.count))
            guard Self.assetNames.contains(name) else { return nil }
            self = .asset(name)
        }
    }

    /// `/api/sessions/ID` and `/api/sessions/ID/PART`, the id exactly as the library writes
    /// it (36 characters, lowercase); nil for anything else.
    private static func session(_ path: String) -> StudioRoute? {
        let prefix = "/api/sessions/"
        guard path.hasPrefix(prefix) else { return nil }
        let rest = path.dropFirst(prefix.count)
        guard let id = lowercaseID(rest.prefix(36)) else { return nil }
        let tail = rest.dropFirst(36)
        if tail.isEmpty { return .session(id, .record) }
        guard tail.hasPrefix("/"), let part = SessionPart(rawValue: String(tail.dropFirst())), part != .record else { return nil }
        return .session(id, part)
    }

    /// `/api/materials/ID/cover` and `/api/materials/ID/remove`, the id whole and in lowercase.
    private static func material(_ path: String) -> StudioRoute? {
        let prefix = "/api/materials/"
        guard path.hasPrefix(prefix) else { return nil }
        let rest = path.dropFirst(prefix.count)
        guard let id = lowercaseID(rest.prefix(36)) else { return nil }
        switch rest.dropFirst(36) {
        case "/cover": return .materialCover(id)
        case "/remove": return .removeMaterial(id)
        default: return nil
        }
    }

    /// `/api/overlay/assets/ID` and `/api/overlay/assets/ID/remove`, the id whole and in lowercase.
    private static func overlayAssetRoute(_ path: String) -> StudioRoute? {
        let prefix = "/api/overlay/assets/"
        guard path.hasPrefix(prefix) else { return nil }
        let rest = path.dropFirst(prefix.count)
        guard let id = lowercaseID(rest.prefix(36)) else { return nil }
        switch rest.dropFirst(36) {
        case "": return .overlayAsset(id)
        case "/remove": return .removeOverlayAsset(id)
        default: return nil
        }
    }

    /// `/api/overlay/photos/NAME` and `/api/overlay/photos/NAME/view`, NAME an ``OverlayPhotoName``.
    private static func overlayPhotoRoute(_ path: String) -> StudioRoute? {
        let prefix = "/api/overlay/photos/"
        guard path.hasPrefix(prefix) else { return nil }
        var rest = path.dropFirst(prefix.count)
        let view = rest.hasSuffix("/view")
        if view { rest = rest.dropLast(5) }
        guard OverlayPhotoName.isValid(rest) else { return nil }
        return view ? .overlayPhotoView(String(rest)) : .overlayPhoto(String(rest))
    }

    /// `/api/cinematic/clips/NAME[/timeline]` and `/api/cinematic/stills/NAME` (``CinematicFileName``).
    private static func cinematicFileRoute(_ path: String) -> StudioRoute? {
        let stills = "/api/cinematic/stills/", clips = "/api/cinematic/clips/"
        if path.hasPrefix(stills) {
            let name = path.dropFirst(stills.count)
            return CinematicFileName.isValid(name, kind: .still) ? .cinematicStillFile(String(name)) : nil
        }
        guard path.hasPrefix(clips) else { return nil }
        var name = path.dropFirst(clips.count)
        let timeline = name.hasSuffix("/timeline")
        if timeline { name = name.dropLast(9) }
        guard CinematicFileName.isValid(name, kind: .clip) else { return nil }
        return timeline ? .cinematicTimeline(String(name)) : .cinematicClip(String(name))
    }

    /// A UUID written as the library writes it: 36 characters, lowercase.
    private static func lowercaseID(_ text: Substring) -> UUID? {
        guard text.count == 36, text == text.lowercased() else { return nil }
        return UUID(uuidString: String(text))
    }

    /// The methods the route answers (besides HEAD for GET routes).
    public var methods: [String] {
        switch self {
        case .page, .asset, .status, .events, .sources, .camera, .preview, .previewPicture, .recording, .sessions, .stats, .statsChart,
             .materialCover, .stamp, .exportFile, .overlayPreview, .overlayAsset, .overlayPhotos, .overlayPhoto, .overlayPhotoView,
             .cinematicPreview, .cinematicClips, .cinematicClip, .cinematicTimeline, .cinematicStillFile:
            ["GET", "HEAD"]
        case .signOut, .chooseSource, .startRecording, .controlRecording, .removeMaterial, .restore, .scanBarcode, .vlog, .stopExport, .stopLive,
             .overlayShoot, .overlaySource, .removeOverlayAsset, .overlayCutout, .cinematicRecord, .cinematicRecordStop, .cinematicStill,
             .cinematicRefocusStop: ["POST"]
        case .tags, .goals, .materials, .backup, .stamps, .export, .live, .overlay, .overlayAssets, .cinematic, .cinematicRefocus: ["GET", "HEAD", "POST"]
        case .session(_, let part):
            switch part {
            case .record, .thumbnail, .video, .frame: ["GET", "HEAD"]
            case .edit, .trash, .untrash: ["POST"]
            case .review: ["GET", "HEAD", "POST"]
            }
        }
    }
}
