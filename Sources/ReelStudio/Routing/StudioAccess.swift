import ReelCore
import ReelHTTP

/// Who may use Reel Studio, request by request: the rules of `reel studio`'s gate, without I/O.
///
/// The studio is a web app on this machine that can record the desk and delete sessions, so
/// a web page from elsewhere must not be able to drive it. Every request passes four checks:
/// 1. **Host** (DNS rebinding): the `Host` header must name this studio: `127.0.0.1`,
///    `localhost` or `[::1]` with its port, or the address it was bound to; a studio bound to
///    every interface (`--remote`) also takes any IP literal with its port. Names are refused:
///    a page on `evil.example` that re-points its name at 127.0.0.1 sends `Host:
///    evil.example:PORT`.
/// 2. **Fetch site**: a browser's `Sec-Fetch-Site: cross-site` (a request another site's
///    page made or linked) is refused outright.
/// 3. **Origin** (CSRF): a request that can change something (any method but GET and HEAD)
///    must carry an `Origin` that is this studio's own (`http://` + an accepted host).
/// 4. **Who**: the session cookie (HttpOnly, SameSite=Strict, one name per port) of a session
///    this run made, or `Authorization: Bearer TOKEN` (scripts). The token printed at start,
///    in `/?token=…`, is exchanged for a session on a top-level page load (fetch site `none`
///    or `same-origin`, or a client that sends none) and never accepted in any other place.
public struct StudioAccess: Sendable {
    /// The port the studio listens on.
    public var port: Int
    /// The address it was bound to (`127.0.0.1`, `::1`, `0.0.0.0`, `::`, another literal).
    public var boundHost: String

    public init(boundHost: String, port: Int) {
        self.boundHost = boundHost
        self.port = port
    }

    /// What to do with a request.
    public enum Verdict: Sendable, Hashable {
        /// Answer it: the client is a session of this run (or holds the token).
        case pass
        /// A valid token on the page: make a session, set its cookie, send the browser to
        /// `/` (so the token leaves the address bar and its history).
        case exchange
        /// Refuse with `status` and `reason` (a sentence for the user).
        case refuse(status: Int, reason: String)
    }

    /// The parts of a request the gate reads.
    public struct Request: Sendable {
        public var method: String
        /// The path without its query.
        public var path: String
        public var host: String?
        public var origin: String?
        public var fetchSite: String?
        public var cookie: String?
        public var authorization: String?
        /// The `token` query argument.
        public var token: String?

        public init(method: String, path: String, host: String? = nil, origin: String? = nil, fetchSite: String? = nil,
                    cookie: String? = nil, authorization: String? = nil, token: String? = nil) {
            self.method = method
            self.path = path
            self.host = host
            self.origin = origin
            self.fetchSite = fetchSite
            self.cookie = cookie
            self.authorization = authorization
            self.token = token
        }
    }

    /// The session cookie's name: one per port (cookies are not kept apart by port, and two
    /// studios on one machine must not log each other out).
    public var cookieName: String { "reel_studio_\(port)" }

    /// The `Set-Cookie` value that hands a browser `session`.
    public func setCookie(session: String) -> String {
        "\(cookieName)=\(session); Path=/; HttpOnly; SameSite=Strict"
    }

    /// The `Set-Cookie` value that makes a browser forget its session.
    public var clearCookie: String {
        "\(cookieName)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"
    }

    /// Judges `request`. `token` is this run's; `isSession` says whether a cookie's value is
    /// a live session.
    public func verdict(_ request: Request, token: OriginToken, isSession: (Substring) -> Bool) -> Verdict {
        guard let host = request.host, acceptsHost(host) else {
            let shown = request.host.map { "'\($0)'" } ?? "missing"
            return .refuse(status: 403, reason: "this studio answers at http://127.0.0.1:\(port)/ (or localhost); "
                + "the request named host \(shown), which could be a web page pointing its own name at this machine")
        }
        if request.fetchSite?.lowercased() == "cross-site" {
            return .refuse(status: 403, reason: "a request made by another site's page is refused; open the studio's own address")
        }
        if !Self.isSafe(request.method) {
            guard let origin = request.origin, acceptsOrigin(origin) else {
                return .refuse(status: 403, reason: "\(request.method) needs the studio's own Origin (http://\(host)); "
                    + "the request came from \(request.origin.map { "'\($0)'" } ?? "no origin")")
            }
        }
        if let value = Self.cookie(named: cookieName, in: request.cookie), isSession(value) { return .pass }
        if let bearer = OriginToken.bearer(fromAuthorization: request.authorization) {
            return token.matches(bearer) ? .pass : .refuse(status: 401, reason: "the token is not this studio's")
        }
        if let presented = request.token, request.path == "/", request.method == "GET" {
            guard token.matches(presented) else {
                return .refuse(status: 401, reason: "the token in the address is not this run's; open the address 'reel studio' printed "
                    + "(a new token is made each time it starts)")
            }
            let site = request.fetchSite?.lowercased()
            guard site == nil || site == "none" || site == "same-origin" else {
                return .refuse(status: 403, reason: "the token is taken only from an address opened directly, not from a link on another page")
            }
            return .exchange
        }
        return .refuse(status: 401, reason: "not signed in: open the address 'reel studio' printed (it carries a token), "
            + "or send 'Authorization: Bearer TOKEN'")
    }

    /// GET and HEAD change nothing; every other method may.
    public static func isSafe(_ method: String) -> Bool { method == "GET" || method == "HEAD" }

    /// Whether a `Host` header names this studio.
    public func acceptsHost(_ header: String) -> Bool {
        guard let (name, headerPort) = Self.split(hostHeader: header.lowercased()), headerPort == port else { return false }
        let bound = boundHost.lowercased()
        let unbracketedBound = bound.hasPrefix("[") ? String(bound.dropFirst().dropLast()) : bound
        switch name {
        case "127.0.0.1", "localhost", "::1": return Self.isLoopback(unbracketedBound) || Self.isWildcard(unbracketedBound)
        case unbracketedBound: return true
        default: return Self.isWildcard(unbracketedBound) && Self.isIPLiteral(name)
        }
    }

    /// Whether an `Origin` header is this studio's own.
    public func acceptsOrigin(_ origin: String) -> Bool {
        let lowered = origin.lowercased()
        guard lowered.hasPrefix("http://") else { return false }
        let rest = lowered.dropFirst(7)
        guard !rest.contains("/") else { return false }
        return acceptsHost(String(rest))
    }

    /// `name` and port of a Host header (`127.0.0.1:8090`, `[::1]:8090`); nil without a port.
    static func split(hostHeader: String) -> (String, Int)? {
        if hostHeader.hasPrefix("[") {
            guard let close = hostHeader.firstIndex(of: "]") else { return nil }
            let name = String(hostHeader[hostHeader.index(after: hostHeader.startIndex)..<close])
            let rest = hostHeader[hostHeader.index(after: close)...]
            guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()) else { return nil }
            return (name, port)
        }
        guard let colon = hostHeader.lastIndex(of: ":"), let port = Int(hostHeader[hostHeader.index(after: colon)...]) else { return nil }
        let name = String(hostHeader[..<colon])
        return name.isEmpty || name.contains(":") ? nil : (name, port)
    }

    static func isLoopback(_ host: String) -> Bool { host == "127.0.0.1" || host == "::1" || host == "localhost" }
    static func isWildcard(_ host: String) -> Bool { host == "0.0.0.0" || host == "::" }
    /// A `--host` that binds every interface (`[::]` as written on the command line too).
    static func isWildcardHost(_ host: String) -> Bool { isWildcard(host) || host == "[::]" }

    /// Dotted-quad IPv4 or an IPv6 literal (hex digits, colons, dots).
    static func isIPLiteral(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 4, parts.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCIIDigit) && Int($0)! <= 255 }) {
            return true
        }
        return name.contains(":") && name.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }

    /// The value of cookie `name` in a `Cookie` header, or nil.
    public static func cookie(named name: String, in header: String?) -> Substring? {
        guard let header else { return nil }
        for pair in header.split(separator: ";") {
            let trimmed = pair.drop { $0 == " " }
            guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == name else { continue }
            let value = trimmed[trimmed.index(after: equals)...]
            return value.isEmpty ? nil : value
        }
        return nil
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
