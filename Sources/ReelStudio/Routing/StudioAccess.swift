import ReelCore
import ReelHTTP

/// Who may use Reel Studio, request by request: the rules of `reel studio`'s gate, without I/O.
///
/// The studio is a web app on this machine that can record the desk and delete sessions, so
/// a web page from elsewhere (another site, or another port of this machine) must not be able
/// to drive it or read from it. Every request passes four checks:
/// 1. **Host** (DNS rebinding): the `Host` header must name this studio: `127.0.0.1`,
///    `localhost` or `[::1]` with its port, or the address it was bound to; a studio bound to
///    every interface (`--remote`) also takes any IP literal with its port. Names are refused:
///    a page on `evil.example` that re-points its name at 127.0.0.1 sends `Host:
///    evil.example:PORT`.
/// 2. **Same origin**, on every method and path: a browser's `Sec-Fetch-Site` must be
///    `same-origin` or `none` (a typed address, a bookmark). `same-site` is refused too: a page
///    on another port of 127.0.0.1 is the same site, and SameSite=Strict cookies go along with
///    its requests. An `Origin`, when sent, must be this studio's own (`http://` + an accepted
///    host). A client that sends neither header (curl, a script) is judged by the rest.
/// 3. **CSRF**: a request that can change something (any method but GET and HEAD) must carry
///    this studio's `Origin`, unless it carries `Authorization: Bearer` (a script: a browser
///    never adds that header to another page's request without CORS, which the studio refuses).
/// 4. **Who**: the session cookie (HttpOnly, SameSite=Strict, one name per port) of a session
///    this run made, or `Authorization: Bearer TOKEN` (scripts). A page load of `/` with a
///    one-time sign-in code (`/?code=…`, spent on first use, short-lived; from any fetch site,
///    since it is a secret no other page knows) or with the token (`/?token=…`) is exchanged
///    for a session; neither is accepted anywhere else.
///
/// A refusal for a wrong token or code is ``Verdict/wrongToken(reason:)``: the server counts
/// those per address. A request with no credential at all, or with a session cookie this run
/// does not know (a tab left open from the last run), is a plain 401 and is not counted: any
/// process on the machine can send those, and counting them would lock every browser on
/// loopback out of signing in.
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
        /// A valid token or sign-in code on the page, opened directly: make a session, set its
        /// cookie, send the browser to `/` (so the token or code leaves the address bar).
        case exchange
        /// A valid one-time sign-in code on the page, opened from another page (the private page
        /// `reel studio --open` writes is a file: its navigation is `cross-site`): make a
        /// session, set its cookie, and answer with a page that goes on to `/` by itself. Not a
        /// redirect: the browser would not send a SameSite=Strict cookie along a redirect chain
        /// that began on another site. (Opened directly, a code is an ``exchange``.)
        case exchangeCode
        /// Refuse with `status` and `reason` (a sentence for the user).
        case refuse(status: Int, reason: String)
        /// Refuse with 401: a wrong token or sign-in code was presented (a guess; counted).
        case wrongToken(reason: String)

        /// The status of the answer (303 for the exchange).
        public var status: Int {
            switch self {
            case .pass: 200
            case .exchange: 303
            case .exchangeCode: 200
            case .refuse(let status, _): status
            case .wrongToken: 401
            }
        }
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
        /// The `code` query argument (a one-time sign-in code).
        public var code: String?

        public init(method: String, path: String, host: String? = nil, origin: String? = nil, fetchSite: String? = nil,
                    cookie: String? = nil, authorization: String? = nil, token: String? = nil, code: String? = nil) {
            self.method = method
            self.path = path
            self.host = host
            self.origin = origin
            self.fetchSite = fetchSite
            self.cookie = cookie
            self.authorization = authorization
            self.token = token
            self.code = code
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
    /// a live session; `spendCode` spends a one-time sign-in code and says whether it was one
    /// (it is called only for a page load that would be exchanged).
    public func verdict(_ request: Request, token: OriginToken, isSession: (Substring) -> Bool,
                        spendCode: (Substring) -> Bool = { _ in false }) -> Verdict {
        guard let host = request.host, acceptsHost(host) else {
            let shown = request.host.map { "'\($0)'" } ?? "missing"
            return .refuse(status: 403, reason: "this studio answers at http://127.0.0.1:\(port)/ (or localhost); "
                + "the request named host \(shown), which could be a web page pointing its own name at this machine")
        }
        // A sign-in code may arrive from any page (the redirect file `--open` writes is a page of
        // its own): it is a secret no other page can know, spent on first use.
        let signingIn = request.method == "GET" && request.path == "/" && request.code != nil
        if let refusal = sameOriginRefusal(request, anyFetchSite: signingIn) { return refusal }
        let bearer = OriginToken.bearer(fromAuthorization: request.authorization)
        if !Self.isSafe(request.method), request.origin == nil, bearer == nil {
            return .refuse(status: 403, reason: "\(request.method) needs the studio's own Origin (http://\(host)) "
                + "or 'Authorization: Bearer TOKEN'; the request came from no origin")
        }
        if let value = Self.cookie(named: cookieName, in: request.cookie), isSession(value) {
            // A link opened by a browser already signed in is spent all the same: the address
            // it leaves in the history must sign nobody in.
            if signingIn, let code = request.code { _ = spendCode(Substring(code)) }
            return .pass
        }
        if let bearer {
            return token.matches(bearer) ? .pass : .wrongToken(reason: "the token is not this studio's")
        }
        if request.path == "/", request.method == "GET" {
            if let code = request.code {
                guard spendCode(Substring(code)) else {
                    return .wrongToken(reason: "this sign-in link is used up or expired (each works once, for \(Self.codeLifetimeText)); "
                        + "get a new one from the running studio: kill -USR1 its process, or restart 'reel studio'")
                }
                let site = request.fetchSite?.lowercased()
                return site == nil || site == "none" || site == "same-origin" ? .exchange : .exchangeCode
            }
            if let presented = request.token {
                guard token.matches(presented) else {
                    return .wrongToken(reason: "the token in the address is not this run's; open the address 'reel studio' printed "
                        + "(a new token is made each time it starts)")
                }
                return .exchange
            }
        }
        return .refuse(status: 401, reason: "not signed in: open the sign-in link 'reel studio' printed, "
            + "or send 'Authorization: Bearer TOKEN'")
    }

    /// How long a one-time sign-in code is good for, in words.
    static let codeLifetimeText = "2 minutes"

    /// The same-origin check: a browser's request made by a page other than the studio's own
    /// (`Sec-Fetch-Site` other than `same-origin`/`none`, or an `Origin` of another scheme,
    /// host or port) is refused, whatever the method and path.
    func sameOriginRefusal(_ request: Request, anyFetchSite: Bool = false) -> Verdict? {
        if !anyFetchSite, let site = request.fetchSite?.lowercased(), site != "same-origin", site != "none" {
            let page = site == "same-site" ? "another port or name of this machine" : "another site"
            return .refuse(status: 403, reason: "a request made by a page on \(page) (Sec-Fetch-Site: \(site)) is refused; "
                + "open the studio's own address")
        }
        if let origin = request.origin, !acceptsOrigin(origin) {
            return .refuse(status: 403, reason: "the request came from the page at '\(origin)', not the studio's own "
                + "(http://127.0.0.1:\(port)); open the studio's own address")
        }
        return nil
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
