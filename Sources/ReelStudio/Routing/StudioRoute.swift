import Foundation
import ReelCore

/// What a request names in Reel Studio (`reel studio`), parsed once from its method and path:
/// an area of the app, each with its own route, so each area's handler answers every route of
/// its own with nothing left to a default. Paths are matched whole, as received (still
/// percent-encoded), so no encoding, dot segment or doubled slash reaches a file: the pages and
/// scripts are compiled into the program, and the only names are these. A path that names
/// nothing is ``Refusal/notFound`` (404); a known path asked with a method it does not answer
/// is ``Refusal/methodNotAllowed(allowed:)`` (405). HEAD is answered wherever GET is.
public enum StudioRoute: Sendable, Hashable {
    case app(AppRoute)
    case camera(CameraRoute)
    case library(LibraryRoute)
    case materials(MaterialsRoute)
    case backup(BackupRoute)
    case review(ReviewRoute)
    case live(LiveRoute)
    case overlay(OverlayRoute)
    case cinematic(CinematicRoute)

    /// Why a request names no route.
    public enum Refusal: Error, Sendable, Hashable {
        /// No such path.
        case notFound
        /// The path is known; these methods are answered there (`GET, HEAD`, `POST`, or all three).
        case methodNotAllowed(allowed: [String])
    }

    /// A method a route is asked with (HEAD is asked as GET).
    public enum Method: String, Sendable, Hashable {
        case get = "GET"
        case post = "POST"
    }

    /// The page's files.
    public static let assetNames: Set<String> = ["app.js", "common.js", "events.js", "states.js", "record.js", "library.js", "stats.js", "materials.js", "backup.js", "review.js", "exports.js", "live.js", "overlay.js", "cinematic.js", "style.css", "icon.svg"]

    /// The route `method` and `path` (without its query) name.
    public init(method: String, path: String) throws(Refusal) {
        guard let choices = Self.choices(path) else { throw .notFound }
        let route: StudioRoute? = switch method {
        case "GET", "HEAD": choices.get
        case "POST": choices.post
        default: nil
        }
        guard let route else { throw .methodNotAllowed(allowed: choices.allowed) }
        self = route
    }

    /// The method that asks for this route.
    public var method: Method {
        switch self {
        case .app(let route): route.method
        case .camera(let route): route.method
        case .library(let route): route.method
        case .materials(let route): route.method
        case .backup(let route): route.method
        case .review(let route): route.method
        case .live(let route): route.method
        case .overlay(let route): route.method
        case .cinematic(let route): route.method
        }
    }

    /// The path that names this route.
    public var path: String {
        switch self {
        case .app(let route): route.path
        case .camera(let route): "/api/" + route.path
        case .library(let route): "/api/" + route.path
        case .materials(let route): "/api/" + route.path
        case .backup(let route): "/api/" + route.path
        case .review(let route): "/api/" + route.path
        case .live(let route): "/api/" + route.path
        case .overlay(let route): "/api/" + route.path
        case .cinematic(let route): "/api/" + route.path
        }
    }

    /// What `path` names for each method; nil for a path that names nothing. Each area reads
    /// the API path after `/api/`; the areas' paths do not overlap.
    static func choices(_ path: String) -> RouteChoices<StudioRoute>? {
        if path == "/" { return RouteChoices(get: .app(.page)) }
        if path.hasPrefix("/assets/") {
            let name = String(path.dropFirst("/assets/".count))
            return assetNames.contains(name) ? RouteChoices(get: .app(.asset(name))) : nil
        }
        guard path.hasPrefix("/api/") else { return nil }
        let api = path.dropFirst("/api/".count)
        return AppRoute.choices(api)?.map(StudioRoute.app)
            ?? CameraRoute.choices(api)?.map(StudioRoute.camera)
            ?? LibraryRoute.choices(api)?.map(StudioRoute.library)
            ?? MaterialsRoute.choices(api)?.map(StudioRoute.materials)
            ?? BackupRoute.choices(api)?.map(StudioRoute.backup)
            ?? ReviewRoute.choices(api)?.map(StudioRoute.review)
            ?? LiveRoute.choices(api)?.map(StudioRoute.live)
            ?? OverlayRoute.choices(api)?.map(StudioRoute.overlay)
            ?? CinematicRoute.choices(api)?.map(StudioRoute.cinematic)
    }

    /// A UUID written as the library writes it: 36 characters, lowercase.
    static func lowercaseID(_ text: Substring) -> UUID? {
        guard text.count == 36, text == text.lowercased() else { return nil }
        return UUID(uuidString: String(text))
    }

    /// `PREFIX/ID` and `PREFIX/ID/REST`, the id whole and in lowercase: the id and what follows
    /// it (`""`, or `/REST`); nil when `path` does not start so.
    static func identified(_ path: Substring, under prefix: String) -> (UUID, Substring)? {
        guard path.hasPrefix(prefix) else { return nil }
        let rest = path.dropFirst(prefix.count)
        guard let id = lowercaseID(rest.prefix(36)) else { return nil }
        return (id, rest.dropFirst(36))
    }

    /// `PREFIX/NAME` and `PREFIX/NAME/SUFFIX`: NAME and whether the suffix was there; nil when
    /// `path` does not start with the prefix or NAME is empty.
    static func named(_ path: Substring, under prefix: String, suffix: String) -> (name: Substring, suffixed: Bool)? {
        guard path.hasPrefix(prefix) else { return nil }
        let rest = path.dropFirst(prefix.count)
        return rest.hasSuffix(suffix) ? (rest.dropLast(suffix.count), true) : (rest, false)
    }
}

/// What one path answers: its GET (and HEAD) route and its POST route.
struct RouteChoices<Route> {
    var get: Route?
    var post: Route?

    init(get: Route? = nil, post: Route? = nil) {
        self.get = get
        self.post = post
    }

    /// The methods answered here, for a 405's `Allow`.
    var allowed: [String] { (get == nil ? [] : ["GET", "HEAD"]) + (post == nil ? [] : ["POST"]) }

    func map<Other>(_ transform: (Route) -> Other) -> RouteChoices<Other> {
        RouteChoices<Other>(get: get.map(transform), post: post.map(transform))
    }
}

/// The app itself: its page, files, state, events and sign-out.
public enum AppRoute: Sendable, Hashable {
    /// `GET /`: the app's page (and, with `?code=` or `?token=`, the sign-in).
    case page
    /// `GET /assets/NAME`: a script, style sheet or icon of the page (``StudioRoute/assetNames``).
    case asset(String)
    /// `GET /api/status`: the studio's state as JSON.
    case status
    /// `GET /api/events`: server-sent events (state, progress, status).
    case events
    /// `POST /api/sign-out`: ends this browser's session.
    case signOut

    static func choices(_ api: Substring) -> RouteChoices<AppRoute>? {
        switch api {
        case "status": RouteChoices(get: .status)
        case "events": RouteChoices(get: .events)
        case "sign-out": RouteChoices(post: .signOut)
        default: nil
        }
    }

    var method: StudioRoute.Method {
        switch self {
        case .page, .asset, .status, .events: .get
        case .signOut: .post
        }
    }

    /// The whole path (the page and its files are not under `/api/`).
    var path: String {
        switch self {
        case .page: "/"
        case .asset(let name): "/assets/" + name
        case .status: "/api/status"
        case .events: "/api/events"
        case .signOut: "/api/sign-out"
        }
    }
}

/// The record view's camera: sources, preview, recording.
public enum CameraRoute: Sendable, Hashable {
    /// `GET /api/sources`: the cameras found and the other kinds of source.
    case sources
    /// `GET /api/camera`: the chosen source and its preview.
    case camera
    /// `POST /api/source`: chooses the source.
    case chooseSource
    /// `GET /api/preview`: the live preview, a stream of JPEGs; `GET /api/preview.jpg`: its newest picture.
    case preview
    case previewPicture
    /// `GET /api/recording`: the recording's state; `POST /api/recording/start` starts one.
    case recording
    case startRecording
    /// `POST /api/recording/pause`, `resume`, `toggle`, `stop`.
    case control(RecordingStateMachine.Control)
    /// `GET /api/recordings/unfinished`: recordings a crash left; `POST /api/recordings/recover` finishes them.
    case unfinished
    case recover

    static func choices(_ api: Substring) -> RouteChoices<CameraRoute>? {
        switch api {
        case "sources": return RouteChoices(get: .sources)
        case "camera": return RouteChoices(get: .camera)
        case "source": return RouteChoices(post: .chooseSource)
        case "preview": return RouteChoices(get: .preview)
        case "preview.jpg": return RouteChoices(get: .previewPicture)
        case "recording": return RouteChoices(get: .recording)
        case "recording/start": return RouteChoices(post: .startRecording)
        case "recordings/unfinished": return RouteChoices(get: .unfinished)
        case "recordings/recover": return RouteChoices(post: .recover)
        default:
            let prefix = "recording/"
            guard api.hasPrefix(prefix), let action = RecordingStateMachine.Control(rawValue: String(api.dropFirst(prefix.count))) else { return nil }
            return RouteChoices(post: .control(action))
        }
    }

    var method: StudioRoute.Method {
        switch self {
        case .sources, .camera, .preview, .previewPicture, .recording, .unfinished: .get
        case .chooseSource, .startRecording, .control, .recover: .post
        }
    }

    var path: String {
        switch self {
        case .sources: "sources"
        case .camera: "camera"
        case .chooseSource: "source"
        case .preview: "preview"
        case .previewPicture: "preview.jpg"
        case .recording: "recording"
        case .startRecording: "recording/start"
        case .control(let action): "recording/" + action.rawValue
        case .unfinished: "recordings/unfinished"
        case .recover: "recordings/recover"
        }
    }
}

/// The library and stats views: sessions, tags, one session's record and files, stats, goals.
/// A session is named by its whole id in lowercase (`/api/sessions/ID…`).
public enum LibraryRoute: Sendable, Hashable {
    /// `GET /api/sessions`: the library's sessions, newest first (`?tag=`, `?since=`, `?until=`).
    case sessions
    /// `GET /api/tags`: every tag with its count; `POST` makes one.
    case tags
    case addTag
    /// `GET /api/sessions/ID`: the session with its files and exports.
    case session(UUID)
    /// `GET /api/sessions/ID/thumbnail`: its picture (JPEG).
    case thumbnail(UUID)
    /// `GET /api/sessions/ID/video`: its video, with byte ranges.
    case video(UUID)
    /// `POST /api/sessions/ID/edit`: title and tags.
    case edit(UUID)
    /// `POST /api/sessions/ID/trash`: files and record to the Trash; `…/untrash`: back.
    case trash(UUID)
    case untrash(UUID)
    /// `GET /api/trash`: the sessions the Trash holds, newest removal first.
    case trashed
    /// `GET /api/stats` (JSON) and `GET /api/stats.svg` (the chart `reel stats --svg` draws),
    /// for `?period=week|month&date=YYYY-MM-DD`.
    case stats
    case statsChart
    /// `GET /api/goals`: the daily goals; `POST` sets one.
    case goals
    case setGoal

    static func choices(_ api: Substring) -> RouteChoices<LibraryRoute>? {
        switch api {
        case "sessions": return RouteChoices(get: .sessions)
        case "tags": return RouteChoices(get: .tags, post: .addTag)
        case "stats": return RouteChoices(get: .stats)
        case "stats.svg": return RouteChoices(get: .statsChart)
        case "goals": return RouteChoices(get: .goals, post: .setGoal)
        case "trash": return RouteChoices(get: .trashed)
        default:
            guard let (id, rest) = StudioRoute.identified(api, under: "sessions/") else { return nil }
            switch rest {
            case "": return RouteChoices(get: .session(id))
            case "/thumbnail": return RouteChoices(get: .thumbnail(id))
            case "/video": return RouteChoices(get: .video(id))
            case "/edit": return RouteChoices(post: .edit(id))
            case "/trash": return RouteChoices(post: .trash(id))
            case "/untrash": return RouteChoices(post: .untrash(id))
            default: return nil
            }
        }
    }

    var method: StudioRoute.Method {
        switch self {
        case .sessions, .tags, .session, .thumbnail, .video, .stats, .statsChart, .goals, .trashed: .get
        case .addTag, .edit, .trash, .untrash, .setGoal: .post
        }
    }

    var path: String {
        func session(_ id: UUID, _ part: String) -> String { "sessions/" + id.uuidString.lowercased() + part }
        return switch self {
        case .sessions: "sessions"
        case .tags, .addTag: "tags"
        case .session(let id): session(id, "")
        case .thumbnail(let id): session(id, "/thumbnail")
        case .video(let id): session(id, "/video")
        case .edit(let id): session(id, "/edit")
        case .trash(let id): session(id, "/trash")
        case .untrash(let id): session(id, "/untrash")
        case .stats: "stats"
        case .statsChart: "stats.svg"
        case .goals, .setGoal: "goals"
        case .trashed: "trash"
        }
    }
}

/// The materials view: the books, their covers, a barcode scan.
public enum MaterialsRoute: Sendable, Hashable {
    /// `GET /api/materials`: the books; `POST` adds one.
    case materials
    case add
    /// `POST /api/materials/scan`: a book's barcode read from the source's picture.
    case scan
    /// `GET /api/materials/ID/cover` and `POST /api/materials/ID/remove`, the id whole and in lowercase.
    case cover(UUID)
    case remove(UUID)

    static func choices(_ api: Substring) -> RouteChoices<MaterialsRoute>? {
        switch api {
        case "materials": return RouteChoices(get: .materials, post: .add)
        case "materials/scan": return RouteChoices(post: .scan)
        default:
            guard let (id, rest) = StudioRoute.identified(api, under: "materials/") else { return nil }
            switch rest {
            case "/cover": return RouteChoices(get: .cover(id))
            case "/remove": return RouteChoices(post: .remove(id))
            default: return nil
            }
        }
    }

    var method: StudioRoute.Method {
        switch self {
        case .materials, .cover: .get
        case .add, .scan, .remove: .post
        }
    }

    var path: String {
        switch self {
        case .materials, .add: "materials"
        case .scan: "materials/scan"
        case .cover(let id): "materials/" + id.uuidString.lowercased() + "/cover"
        case .remove(let id): "materials/" + id.uuidString.lowercased() + "/remove"
        }
    }
}

/// The backup view: a backup and a restore.
public enum BackupRoute: Sendable, Hashable {
    /// `GET /api/backup`: the backup's state; `POST` starts one.
    case state
    case start
    /// `POST /api/restore`: a restore, dry run or not.
    case restore

    static func choices(_ api: Substring) -> RouteChoices<BackupRoute>? {
        switch api {
        case "backup": RouteChoices(get: .state, post: .start)
        case "restore": RouteChoices(post: .restore)
        default: nil
        }
    }

    var method: StudioRoute.Method {
        switch self {
        case .state: .get
        case .start, .restore: .post
        }
    }

    var path: String {
        switch self {
        case .state, .start: "backup"
        case .restore: "restore"
        }
    }
}

/// The review and export views: a session's face segments and pictures, the stamps, the
/// export or vlog job.
public enum ReviewRoute: Sendable, Hashable {
    /// `GET /api/sessions/ID/review`: the face segments with their edits; `POST` edits one.
    case segments(UUID)
    case editSegment(UUID)
    /// `GET /api/sessions/ID/frame?t=&view=`: one picture, plain, with the boxes, or rendered.
    case frame(UUID)
    /// `GET /api/stamps`: the stamp images; `POST` adds one (the PNG as the body).
    case stamps
    case addStamp
    /// `GET /api/stamps/NAME`: one (``StampName``).
    case stamp(String)
    /// `GET /api/export`: the export or vlog job; `POST` exports a session.
    case job
    case export
    /// `POST /api/vlog`: makes a weekly vlog.
    case vlog
    /// `POST /api/export/stop`: stops the job.
    case stop
    /// `GET /api/export/file`: the last finished job's video (byte ranges).
    case file

    static func choices(_ api: Substring) -> RouteChoices<ReviewRoute>? {
        switch api {
        case "stamps": return RouteChoices(get: .stamps, post: .addStamp)
        case "export": return RouteChoices(get: .job, post: .export)
        case "vlog": return RouteChoices(post: .vlog)
        case "export/stop": return RouteChoices(post: .stop)
        case "export/file": return RouteChoices(get: .file)
        default:
            let stamps = "stamps/"
            if api.hasPrefix(stamps) {
                let name = api.dropFirst(stamps.count)
                return StampName.isValid(name) ? RouteChoices(get: .stamp(String(name))) : nil
            }
            guard let (id, rest) = StudioRoute.identified(api, under: "sessions/") else { return nil }
            switch rest {
            case "/review": return RouteChoices(get: .segments(id), post: .editSegment(id))
            case "/frame": return RouteChoices(get: .frame(id))
            default: return nil
            }
        }
    }

    var method: StudioRoute.Method {
        switch self {
        case .segments, .frame, .stamps, .stamp, .job, .file: .get
        case .editSegment, .addStamp, .export, .vlog, .stop: .post
        }
    }

    var path: String {
        switch self {
        case .segments(let id), .editSegment(let id): "sessions/" + id.uuidString.lowercased() + "/review"
        case .frame(let id): "sessions/" + id.uuidString.lowercased() + "/frame"
        case .stamps, .addStamp: "stamps"
        case .stamp(let name): "stamps/" + name
        case .job, .export: "export"
        case .vlog: "vlog"
        case .stop: "export/stop"
        case .file: "export/file"
        }
    }
}

/// The live view: the stream's state, starting it, stopping it.
public enum LiveRoute: Sendable, Hashable {
    /// `GET /api/live`: the live stream; `POST` starts `reel live`.
    case state
    case start
    /// `POST /api/live/stop`: ends it.
    case stop

    static func choices(_ api: Substring) -> RouteChoices<LiveRoute>? {
        switch api {
        case "live": RouteChoices(get: .state, post: .start)
        case "live/stop": RouteChoices(post: .stop)
        default: nil
        }
    }

    var method: StudioRoute.Method {
        switch self {
        case .state: .get
        case .start, .stop: .post
        }
    }

    var path: String {
        switch self {
        case .state, .start: "live"
        case .stop: "live/stop"
        }
    }
}

/// The overlay camera's view (`/api/overlay…`).
public enum OverlayRoute: Sendable, Hashable {
    /// `GET /api/overlay`: the overlay camera's state with the artwork's transform for each
    /// preview; `POST` changes it (``OverlayCameraState/Change``).
    case state
    case change
    /// `GET /api/overlay/preview?view=unfiltered|square|circle|tall`: a preview, a stream of JPEGs.
    case preview
    /// `POST /api/overlay/shoot`: takes a photo.
    case shoot
    /// `POST /api/overlay/source`: switches the overlay camera to another source while it runs
    /// (the lens switch), or chooses one.
    case source
    /// `GET /api/overlay/assets`: the artwork; `POST` imports one (the image as the body).
    case assets
    case importAsset
    /// `GET /api/overlay/assets/ID`: its picture as a PNG for the page; `POST …/ID/remove`.
    case asset(UUID)
    case removeAsset(UUID)
    /// `GET /api/overlay/photos`: the gallery, newest first. `GET /api/overlay/photos/NAME`: the
    /// photo's file; `GET …/NAME/view`: a JPEG of it a browser can show, upright.
    case photos
    case photo(String)
    case photoView(String)
    /// `POST /api/overlay/cutout`: cuts the subject at a point of a gallery photo out into a new asset.
    case cutout

    static func choices(_ api: Substring) -> RouteChoices<OverlayRoute>? {
        switch api {
        case "overlay": return RouteChoices(get: .state, post: .change)
        case "overlay/preview": return RouteChoices(get: .preview)
        case "overlay/shoot": return RouteChoices(post: .shoot)
        case "overlay/source": return RouteChoices(post: .source)
        case "overlay/assets": return RouteChoices(get: .assets, post: .importAsset)
        case "overlay/photos": return RouteChoices(get: .photos)
        case "overlay/cutout": return RouteChoices(post: .cutout)
        default:
            if let (id, rest) = StudioRoute.identified(api, under: "overlay/assets/") {
                switch rest {
                case "": return RouteChoices(get: .asset(id))
                case "/remove": return RouteChoices(post: .removeAsset(id))
                default: return nil
                }
            }
            guard let (name, view) = StudioRoute.named(api, under: "overlay/photos/", suffix: "/view"), OverlayPhotoName.isValid(name) else { return nil }
            return RouteChoices(get: view ? .photoView(String(name)) : .photo(String(name)))
        }
    }

    var method: StudioRoute.Method {
        switch self {
        case .state, .preview, .assets, .asset, .photos, .photo, .photoView: .get
        case .change, .shoot, .source, .importAsset, .removeAsset, .cutout: .post
        }
    }

    var path: String {
        switch self {
        case .state, .change: "overlay"
        case .preview: "overlay/preview"
        case .shoot: "overlay/shoot"
        case .source: "overlay/source"
        case .assets, .importAsset: "overlay/assets"
        case .asset(let id): "overlay/assets/" + id.uuidString.lowercased()
        case .removeAsset(let id): "overlay/assets/" + id.uuidString.lowercased() + "/remove"
        case .photos: "overlay/photos"
        case .photo(let name): "overlay/photos/" + name
        case .photoView(let name): "overlay/photos/" + name + "/view"
        case .cutout: "overlay/cutout"
        }
    }
}

/// The cinematic camera's view (`/api/cinematic…`).
public enum CinematicRoute: Sendable, Hashable {
    /// `GET /api/cinematic`: the cinematic camera's state; `POST` gives it a command
    /// (`{"command":"tap 0.4 0.5"}`, ``CinematicControl``'s words).
    case state
    case command
    /// `GET /api/cinematic/preview`: the picture with the blur, a stream of JPEGs.
    case preview
    /// `POST /api/cinematic/record` starts a clip, `POST /api/cinematic/record/stop` ends it.
    case record
    case stopRecord
    /// `POST /api/cinematic/still`: a JPEG of the next picture, with the blur.
    case still
    /// `GET /api/cinematic/clips`: the clips and stills, newest first.
    /// `GET /api/cinematic/clips/NAME`: a clip's MP4 (byte ranges); `…/NAME/timeline`: its
    /// recorded subjects and focus, for the refocus editor. `GET /api/cinematic/stills/NAME`: a still.
    case clips
    case clip(String)
    case timeline(String)
    case stillFile(String)
    /// `GET /api/cinematic/refocus`: the refocus job; `POST` renders a clip with new keyframes.
    /// `POST /api/cinematic/refocus/stop` stops it.
    case refocusJob
    case refocus
    case stopRefocus

    static func choices(_ api: Substring) -> RouteChoices<CinematicRoute>? {
        switch api {
        case "cinematic": return RouteChoices(get: .state, post: .command)
        case "cinematic/preview": return RouteChoices(get: .preview)
        case "cinematic/record": return RouteChoices(post: .record)
        case "cinematic/record/stop": return RouteChoices(post: .stopRecord)
        case "cinematic/still": return RouteChoices(post: .still)
        case "cinematic/clips": return RouteChoices(get: .clips)
        case "cinematic/refocus": return RouteChoices(get: .refocusJob, post: .refocus)
        case "cinematic/refocus/stop": return RouteChoices(post: .stopRefocus)
        default:
            let stills = "cinematic/stills/"
            if api.hasPrefix(stills) {
                let name = api.dropFirst(stills.count)
                return CinematicFileName.isValid(name, kind: .still) ? RouteChoices(get: .stillFile(String(name))) : nil
            }
            guard let (name, timeline) = StudioRoute.named(api, under: "cinematic/clips/", suffix: "/timeline"),
                  CinematicFileName.isValid(name, kind: .clip) else { return nil }
            return RouteChoices(get: timeline ? .timeline(String(name)) : .clip(String(name)))
        }
    }

    var method: StudioRoute.Method {
        switch self {
        case .state, .preview, .clips, .clip, .timeline, .stillFile, .refocusJob: .get
        case .command, .record, .stopRecord, .still, .refocus, .stopRefocus: .post
        }
    }

    var path: String {
        switch self {
        case .state, .command: "cinematic"
        case .preview: "cinematic/preview"
        case .record: "cinematic/record"
        case .stopRecord: "cinematic/record/stop"
        case .still: "cinematic/still"
        case .clips: "cinematic/clips"
        case .clip(let name): "cinematic/clips/" + name
        case .timeline(let name): "cinematic/clips/" + name + "/timeline"
        case .stillFile(let name): "cinematic/stills/" + name
        case .refocusJob, .refocus: "cinematic/refocus"
        case .stopRefocus: "cinematic/refocus/stop"
        }
    }
}
