import Foundation
import ReelBooks
import ReelCinematic
import ReelCore
import ReelHTTP
import ReelMedia
import ReelOverlay
import ReelRecord
import ReelVision

/// How `reel studio` runs: where it listens, what it shows, and its bounds.
public struct StudioSettings: Sendable {
    /// Address to listen on: `127.0.0.1` (default), `::1`, or with ``remote`` any address of
    /// this machine (`0.0.0.0`, `::`).
    public var host: String
    /// Port to listen on; 0 picks a free one.
    public var port: Int
    /// Whether an address other than loopback was asked for explicitly (`--remote`).
    public var remote: Bool
    /// The study library (`library.sqlite`).
    public var libraryPath: String
    /// The source the record page starts with (`--source`), as the user wrote it.
    public var source: String?
    /// Where the access log goes.
    public var accessLog: AccessLogDestination
    /// The program's version, shown on the page.
    public var version: String = "dev"
    /// Simultaneous connections at most (each has a thread: the page, its event stream, a
    /// few tabs and scripts).
    public var maxConnections: Int = 64
    /// Event streams open at once at most (more are refused with 503).
    public var maxEventStreams: Int = 16
    /// Seconds between two status events.
    public var statusInterval: Double = 1
    /// Seconds an idle event stream waits before a keep-alive comment (which is also how a
    /// stream notices that its browser went away).
    public var keepAliveInterval: Double = 15
    /// Largest request body (JSON) accepted.
    public var maxBodyBytes: Int = 64 * 1024
    /// Browser sessions kept at most (the oldest is signed out first).
    public var maxSessions: Int = 32
    /// Seconds a one-time sign-in link is good for (``StudioServer/signInURL``).
    public var signInLifetime: Double = 120
    /// Seconds a stop waits for requests in flight.
    public var shutdownGrace: Double = 5
    /// Where recordings go and are kept while in progress (`reel/recordings` of the XDG data
    /// and state folders), as for `reel record`.
    public var folders: XDGDirectories = XDGDirectories(environment: ProcessInfo.processInfo.environment, accountHome: NSHomeDirectory())
    /// The book services the materials page looks ISBNs up in (answers cached in
    /// `reel/books` of the XDG cache folder), as for `reel materials add --isbn`.
    public var bookLookup = BookLookup.Settings.default
    /// The backup page's folder until another is typed (`$REEL_BACKUP_DIR`, as `reel backup`).
    public var backupFolder: String? = ProcessInfo.processInfo.environment["REEL_BACKUP_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil }
    /// Where exports and vlogs made from the page go (`$REEL_EXPORT_DIR`, else `reel` in the
    /// XDG videos folder, where `reel live` keeps its archives).
    public var exportFolder: String?
    /// Where stamp images are kept (`reel/stamps` of the XDG data folder).
    public var stampsFolder: String { folders.data + "/reel/stamps" }
    /// Largest stamp image upload accepted (a PNG).
    public var maxStampBytes: Int = 2 * 1024 * 1024
    /// Whether recordings keep the machine awake (a systemd-inhibit lock, as `reel record`).
    public var keepAwake = true
    /// The face tracker of a recording that asks for one (the installed models by default).
    public var faceTracking: @Sendable (Bool) -> (make: @Sendable () -> any FaceTracker, warning: String?) = {
        VisionFaceTracker.forRecording(requested: $0)
    }
    /// Opens a source for the preview and for recordings (``CaptureSources/open(_:realTime:)``;
    /// tests pass sources that vanish and come back).
    public var openSource: @Sendable (SourceSpec) throws -> any CaptureSource = { try CaptureSources.open($0) }
    /// Free bytes on the file system holding a path, for the recorder's disk checks (statvfs
    /// when nil; tests pass a disk that fills up).
    public var freeBytes: (@Sendable (String) -> Int64?)?
    /// Previews open at once at most (more are refused with 503).
    public var maxPreviewStreams: Int = 8
    /// Seconds a preview without a new picture waits before sending the newest again.
    public var previewResend: Double = 5

    public init(host: String = "127.0.0.1", port: Int = 8090, remote: Bool = false, libraryPath: String,
                source: String? = nil, accessLog: AccessLogDestination = .none) {
        self.host = host
        self.port = port
        self.remote = remote
        self.libraryPath = libraryPath
        self.source = source
        self.accessLog = accessLog
        exportFolder = ProcessInfo.processInfo.environment["REEL_EXPORT_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil }
    }

    /// Where the overlay camera's photos go (`reel` in the XDG pictures folder).
    public var photosFolder: String { folders.pictures + "/reel" }
    /// Largest artwork upload accepted (the artwork library's own bound by default).
    public var maxAssetBytes: Int = OverlayAssetShelf.maxFileBytes
    /// Seconds the overlay camera's shutter waits for the source's next picture (a camera
    /// that went away fails the shot after this, with nothing saved).
    public var shutterTimeout: Double = 5
    /// The vision models the overlay camera's cut-out uses (the installed ones by default).
    public var visionModels: VisionModels = .current()

    /// Where the cinematic page's clips (and their sidecars, and refocused clips) go:
    /// `reel/cinematic` in the XDG videos folder.
    public var cinematicFolder: String { folders.videos + "/reel/cinematic" }
    /// Where the cinematic page's stills go: `reel/cinematic` in the XDG pictures folder.
    public var cinematicStillsFolder: String { CinematicStill.defaultFolder(folders) }

    /// ``exportFolder``, or its default.
    var exportsFolder: String { exportFolder ?? folders.videos + "/reel" }

    /// Whether `host` keeps the studio on this machine.
    public var isLoopback: Bool { ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host.lowercased()) }

    /// The HTTP server's part: a thread per connection (event streams wait between events).
    var http: HTTPServerSettings {
        var http = HTTPServerSettings(host: host, port: port, accessLog: accessLog, threading: .perConnection,
                                      maxConnections: maxConnections, messagePrefix: "reel studio")
        http.shutdownGrace = shutdownGrace
        // A <video> stops reading its answer while it has enough buffered: on this local app
        // that is no attack, so no download rate is required.
        http.deadlines.minimumDownloadRate = 0
        // One local script must not hold every connection: a new connection has 10 s for its
        // first request head, and one opening into a full server pushes out the one waiting
        // longest for its first request (a signed-in tab's connections have made requests).
        http.deadlines.firstRequestTimeout = 10
        http.deadlines.evictWhenFull = true
        // Every answer, the refusals the server makes itself included.
        http.responseHeaders = StudioServer.securityHeaders
        return http
    }

    /// `$XDG_STATE_HOME/reel/studio-access.log`, default `~/.local/state/reel/studio-access.log`.
    public static func defaultAccessLog() -> URL {
        let folders = XDGDirectories(environment: ProcessInfo.processInfo.environment, accountHome: NSHomeDirectory())
        return URL(fileURLWithPath: folders.state).appendingPathComponent("reel/studio-access.log")
    }
}
