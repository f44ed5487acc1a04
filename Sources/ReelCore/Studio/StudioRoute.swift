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

    /// The page's files.
    public static let assetNames: Set<String> = ["app.js", "style.css", "icon.svg"]

    public init?(path: String) {
        switch path {
        case "/": self = .page
        case "/api/status": self = .status
        case "/api/events": self = .events
        case "/api/sign-out": self = .signOut
        default:
            let prefix = "/assets/"
            guard path.hasPrefix(prefix) else { return nil }
            let name = String(path.dropFirst(prefix.count))
            guard Self.assetNames.contains(name) else { return nil }
            self = .asset(name)
        }
    }

    /// The methods the route answers (besides HEAD for GET routes).
    public var methods: [String] {
        switch self {
        case .page, .asset, .status, .events: ["GET", "HEAD"]
        case .signOut: ["POST"]
        }
    }
}
