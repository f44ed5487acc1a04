import Foundation
import ReelCore
import ReelHTTP
import ReelOverlay
import ReelRuntime

/// Reel Studio's server (`reel studio`): the web app's page, its JSON API under `/api/` and
/// its event stream, an ``HTTPService`` on ReelHTTP's libmicrohttpd server with a thread per
/// connection (event streams wait between events).
///
/// Every request passes ``StudioAccess`` first (host, same origin, CSRF, session). A token is
/// made at each start for scripts (`Authorization: Bearer`); a browser signs in with a
/// one-time code instead (``signInURL``), which it exchanges for a session cookie. The
/// handlers hold no rules of their own: what the page shows comes from the modules the command
/// line uses too.
///
/// ```swift
/// let studio = try StudioServer(settings: StudioSettings(port: 0, libraryPath: path))
/// try studio.start()
/// print(studio.signInURL)        // http://127.0.0.1:41234/?code=… (one use, 2 minutes)
/// studio.stop()
/// ```
public final class StudioServer: HTTPService {
    /// Why the studio could not start.
    public typealias Error = HTTPServer.Error

    public let settings: StudioSettings
    /// This run's token: in the sign-in address, or as `Authorization: Bearer` for scripts.
    public let token: OriginToken

    let http: HTTPServer
    let events: StudioEvents
    let uploads: UploadPolicy
    /// The record page's source, preview and recording.
    let camera: StudioCamera
    /// The study library, over one connection.
    let library: StudioLibrary
    /// Backups and restores.
    let backup: StudioBackup
    /// The stamp images, the review of face segments, and the export and vlog job.
    let stamps: StudioStamps
    let review: StudioReview
    let exports: StudioExports
    /// The live stream (`reel live` from the page).
    let live: StudioLive
    /// The overlay camera: its previews, shutter, gallery, artwork and cut-outs.
    let overlay: StudioOverlay
    /// The cinematic camera: its preview, controls, clips, stills and the refocus editor's job.
    let cinematic: StudioCinematic
    let cinematicClips: StudioCinematicClips
    /// The bound of an artwork upload (``StudioSettings/maxAssetBytes``).
    let assetUploads: UploadPolicy
    /// The bound of a stamp upload (``StudioSettings/maxStampBytes``).
    let stampUploads: UploadPolicy
    /// Previews open now.
    let previewStreams = Locked(0)
    private let sessions = Locked<[OriginToken]>([])
    private let limiter = Locked(AuthFailureLimiter(maxFailures: 10, window: 60))
    private let codes: Locked<SignInCodes>
    /// What to call once a sign-in code is spent or gone, by code.
    private let codeEnds = Locked<[String: @Sendable () -> Void]>([:])
    private let ticker = Locked<(any Ticker)?>(nil)
    private let startedAt = Date()

    /// Checks the address; nothing listens until ``start()``. Refuses an address other than
    /// loopback unless ``StudioSettings/remote`` asks for it.
    public init(settings: StudioSettings) throws {
        guard settings.isLoopback || settings.remote else { throw StartError.remoteNotAllowed(settings.host) }
        self.settings = settings
        codes = Locked(SignInCodes(lifetime: settings.signInLifetime))
        var generator = SystemRandomNumberGenerator()
        token = OriginToken.generate(using: &generator)
        http = try HTTPServer(settings: settings.http)
        events = StudioEvents(maxStreams: settings.maxEventStreams, keepAlive: settings.keepAliveInterval)
        uploads = UploadPolicy(maxBodyBytes: settings.maxBodyBytes)
        camera = StudioCamera(settings: settings, events: events)
        library = StudioLibrary(path: settings.libraryPath, dataFolder: settings.folders.data)
        backup = StudioBackup(libraryPath: settings.libraryPath, defaultFolder: settings.backupFolder) { [events] snapshot in
            events.publish(.backup, data: StudioJSON.line(snapshot))
        }
        stamps = StudioStamps(folder: settings.stampsFolder)
        review = StudioReview(library: library, stamps: stamps)
        exports = StudioExports(folder: settings.exportsFolder, library: library) { [events] snapshot in
            events.publish(.export, data: StudioJSON.line(snapshot))
        }
        stampUploads = UploadPolicy(maxBodyBytes: settings.maxStampBytes)
        live = StudioLive(camera: camera, settings: settings) { [events] snapshot in
            events.publish(.live, data: StudioJSON.line(snapshot))
        }
        assetUploads = UploadPolicy(maxBodyBytes: settings.maxAssetBytes)
        overlay = StudioOverlay(camera: camera, library: library, settings: settings, events: events)
        cinematic = StudioCinematic(camera: camera, settings: settings, events: events)
        cinematicClips = StudioCinematicClips(settings: settings, events: events)
    }

    /// The port it listens on; 0 before ``start()``.
    public var port: Int { http.port }

    /// `http://HOST:PORT/` (for a studio on every interface: 127.0.0.1).
    public var baseURL: URL {
        let host = StudioAccess.isWildcardHost(settings.host) ? "127.0.0.1" : settings.host
        let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return URL(string: "http://\(shown):\(port)/")!
    }

    /// A new address to open in a browser: the page with a new one-time sign-in code, good for
    /// one use within ``StudioSettings/signInLifetime`` seconds (each read makes a new code).
    public var signInURL: URL { signInURL(whenDone: nil) }

    /// A new sign-in address (as ``signInURL``); `whenDone` is called once its code is spent
    /// or expired, or pushed out by newer ones (on a request's or the status ticker's thread).
    public func signInURL(whenDone: (@Sendable () -> Void)?) -> URL {
        var generator = SystemRandomNumberGenerator()
        let code = OriginToken.generate(using: &generator)
        let now = http.now
        if let whenDone { codeEnds.withLock { $0[code.text] = whenDone } }
        let pushedOut = codes.withLock { $0.issue(code, now: now) }
        endCodes(pushedOut)
        return URL(string: "?code=\(code.text)", relativeTo: baseURL)!.absoluteURL
    }

    /// Requests in flight (event streams included).
    public var requestsInFlight: Int { http.requestsInFlight }

    var access: StudioAccess { StudioAccess(boundHost: settings.host, port: port) }

    /// Binds, then publishes the status every ``StudioSettings/statusInterval`` seconds (and
    /// starts or ends the idle preview as watchers come and go).
    public func start() throws(Error) {
        try http.start(serving: self)
        publishStatus()
        camera.publishCamera()
        events.publish(.recording, data: camera.recording.json)
        let started = RealClock().every(MediaTime(seconds: settings.statusInterval), name: "reel-studio-status") { [weak self] _ in
            self?.publishStatus()
            self?.expireSignInCodes()
            self?.camera.tick()
            self?.overlay.tick()
            self?.cinematic.tick()
        }
        ticker.withLock { $0 = started }
    }

    /// Stops: finishes a recording in progress as `stop` would (and waits for it), ends every
    /// event stream and preview, lets other requests finish (up to
    /// ``StudioSettings/shutdownGrace`` seconds), closes the rest, and calls what waits on the
    /// sign-in codes still outstanding. Idempotent.
    public func stop() async {
        ticker.withLock { value -> (any Ticker)? in defer { value = nil }; return value }?.stop()
        await live.shutdown()
        overlay.shutdown()
        cinematic.shutdown()
        cinematicClips.shutdown()
        await camera.shutdown()
        await backup.stop()
        await exports.stop()
        events.closeAll()
        http.stop()
        let pending = codeEnds.withLock { ends in defer { ends.removeAll() }; return Array(ends.values) }
        for call in pending { call() }
    }

    /// Whether a recording is running (the command line says so before stopping).
    public var isRecording: Bool { camera.recording.isActive }

    /// The status now.
    public func status() -> StudioStatus {
        StudioStatus(version: settings.version, uptimeSeconds: Int(Date().timeIntervalSince(startedAt)),
                     eventStreams: events.streamCount, library: library.summary(),
                     disk: StudioStatus.disk(for: settings.libraryPath), source: camera.camera.source)
    }

    private func publishStatus() {
        events.publish(.status, data: status().json)
    }

    // MARK: Sessions

    /// A new browser session (the oldest goes when ``StudioSettings/maxSessions`` are kept).
    func newSession() -> OriginToken {
        var generator = SystemRandomNumberGenerator()
        let session = OriginToken.generate(using: &generator)
        let dropped = sessions.withLock { sessions -> [OriginToken] in
            sessions.append(session)
            let excess = max(0, sessions.count - settings.maxSessions)
            defer { sessions.removeFirst(excess) }
            return Array(sessions.prefix(excess))
        }
        for old in dropped { events.close(owner: old.text) }
        return session
    }

    /// Whether `value` is a live session; compared with every one, each in constant time.
    func isSession(_ value: Substring) -> Bool {
        sessions.withLock { sessions in sessions.reduce(false) { $0 || $1.matches(value) } }
    }

    /// Ends the session `value` and closes the event streams it opened.
    func endSession(_ value: Substring) {
        let ended = sessions.withLock { sessions -> [OriginToken] in
            let ended = sessions.filter { $0.matches(value) }
            sessions.removeAll { $0.matches(value) }
            return ended
        }
        for session in ended { events.close(owner: session.text) }
    }

    /// Counts a wrong token or code from `client`; the seconds to wait when it has sent too
    /// many lately (then this one is not counted), else nil.
    func countWrongToken(from client: String) -> Double? {
        let now = http.now
        return limiter.withLock { limiter in
            if let wait = limiter.retryAfter(client, now: now) { return wait }
            limiter.recordFailure(client, now: now)
            return nil
        }
    }

    /// Spends a one-time sign-in code: whether it was one (outstanding, unexpired).
    func spendSignInCode(_ code: Substring) -> Bool {
        let now = http.now
        guard codes.withLock({ $0.spend(code, now: now) }) else { return false }
        endCodes([String(code)])
        return true
    }

    private func expireSignInCodes() {
        let now = http.now
        endCodes(codes.withLock { $0.expire(now: now) })
    }

    private func endCodes(_ ended: [String]) {
        guard !ended.isEmpty else { return }
        let calls = codeEnds.withLock { ends in ended.compactMap { ends.removeValue(forKey: $0) } }
        for call in calls { call() }
    }

    // MARK: HTTPService (on libmicrohttpd's threads)

    public func libraryMessage(_ line: String) {
        FileHandle.standardError.write(Data("reel studio: libmicrohttpd: \(line)\n".utf8))
    }

    public func failed(_ request: HTTPRequest, reason: String) {
        FileHandle.standardError.write(Data("reel studio: \(request.method) \(AccessLogEntry.escaped(request.path)) failed: \(reason)\n".utf8))
    }

    /// Why the studio was not made.
    public enum StartError: Swift.Error, CustomStringConvertible {
        case remoteNotAllowed(String)

        public var description: String {
            switch self {
            case .remoteNotAllowed(let host):
                "--host \(host) would let other machines reach the studio (which can record this desk and delete sessions); "
                    + "add --remote to mean it (the token is needed from every address), or leave --host at 127.0.0.1"
            }
        }
    }
}
