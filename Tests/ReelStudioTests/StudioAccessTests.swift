import Foundation
import ReelCore
import ReelHTTP
import ReelStudio
import Testing

/// The studio's gate (``StudioAccess``): host, fetch site, origin and session, in that order.
@Suite("Studio access rules")
struct StudioAccessTests {
    static let token = try! OriginToken("0123456789abcdef0123456789abcdef")
    static let session = "feedfacefeedfacefeedfacefeedface"
    let loopback = StudioAccess(boundHost: "127.0.0.1", port: 8090)

    func verdict(_ access: StudioAccess, _ request: StudioAccess.Request) -> StudioAccess.Verdict {
        access.verdict(request, token: Self.token, isSession: { $0 == Self.session })
    }

    func request(_ method: String = "GET", _ path: String = "/api/status", host: String? = "127.0.0.1:8090",
                 origin: String? = nil, site: String? = nil, cookie: String? = "reel_studio_8090=\(session)",
                 authorization: String? = nil, token: String? = nil) -> StudioAccess.Request {
        StudioAccess.Request(method: method, path: path, host: host, origin: origin, fetchSite: site, cookie: cookie,
                             authorization: authorization, token: token)
    }

    func status(_ verdict: StudioAccess.Verdict) -> Int { verdict.status }

    @Test("a session cookie passes on every loopback name of this port, and only this port's cookie counts")
    func sessionPasses() {
        for host in ["127.0.0.1:8090", "localhost:8090", "LOCALHOST:8090"] {
            #expect(verdict(loopback, request(host: host)) == .pass, "\(host)")
        }
        let v6 = StudioAccess(boundHost: "::1", port: 8090)
        #expect(verdict(v6, request(host: "[::1]:8090")) == .pass)
        #expect(status(verdict(loopback, request(cookie: "reel_studio_8091=\(Self.session)"))) == 401, "another studio's cookie")
        #expect(status(verdict(loopback, request(cookie: "reel_studio_8090=feedface"))) == 401, "not a session")
        #expect(status(verdict(loopback, request(cookie: "a=1; reel_studio_8090=\(Self.session); b=2"))) == 200)
    }

    @Test("a foreign or missing Host is refused before anything else (DNS rebinding), even with a session")
    func foreignHost() {
        for host in ["evil.example:8090", "127.0.0.1:8091", "127.0.0.1", "localhost", "127.0.0.1.evil.example:8090", ""] {
            #expect(status(verdict(loopback, request(host: host))) == 403, "\(host)")
        }
        #expect(status(verdict(loopback, request(host: nil))) == 403)
        // Bound to every interface (--remote): IP literals with the port, never names.
        let remote = StudioAccess(boundHost: "0.0.0.0", port: 8090)
        #expect(verdict(remote, request(host: "192.168.1.20:8090")) == .pass)
        #expect(verdict(remote, request(host: "[fe80::1]:8090")) == .pass)
        #expect(status(verdict(remote, request(host: "desk.example:8090"))) == 403)
        #expect(status(verdict(remote, request(host: "300.1.1.1:8090"))) == 403)
    }

    @Test("a request another site's page made is refused, whatever it carries")
    func crossSite() {
        #expect(status(verdict(loopback, request(site: "cross-site"))) == 403)
        #expect(status(verdict(loopback, request("GET", "/", site: "cross-site", cookie: nil, token: Self.token.text))) == 403)
        #expect(verdict(loopback, request(site: "same-origin")) == .pass)
    }

    @Test("anything but GET and HEAD needs this studio's own Origin (CSRF)")
    func origin() {
        #expect(verdict(loopback, request("POST", "/api/sign-out", origin: "http://127.0.0.1:8090")) == .pass)
        #expect(verdict(loopback, request("DELETE", "/api/x", origin: "http://localhost:8090")) == .pass)
        for origin in [nil, "null", "http://evil.example", "http://127.0.0.1:8091", "https://127.0.0.1:8090", "http://127.0.0.1:8090/x"] {
            #expect(status(verdict(loopback, request("POST", "/api/sign-out", origin: origin))) == 403, "\(origin ?? "none")")
        }
        #expect(status(verdict(loopback, request("GET", origin: "http://evil.example"))) == 403, "another page reads nothing either")
    }

    @Test("the token is exchanged only on the page, by GET, opened directly or from the studio itself")
    func tokenExchange() {
        let token = Self.token.text
        #expect(verdict(loopback, request("GET", "/", cookie: nil, token: token)) == .exchange)
        #expect(verdict(loopback, request("GET", "/", site: "none", cookie: nil, token: token)) == .exchange)
        #expect(verdict(loopback, request("GET", "/", site: "same-origin", cookie: nil, token: token)) == .exchange)
        #expect(status(verdict(loopback, request("GET", "/", site: "same-site", cookie: nil, token: token))) == 403)
        #expect(status(verdict(loopback, request("GET", "/api/status", cookie: nil, token: token))) == 401, "not on the API")
        #expect(status(verdict(loopback, request("GET", "/", cookie: nil, token: "0123456789abcdef0123456789abcdee"))) == 401)
        #expect(status(verdict(loopback, request("GET", "/", cookie: nil))) == 401)
    }

    @Test("scripts: the bearer token passes, a wrong one is 401")
    func bearer() {
        #expect(verdict(loopback, request(cookie: nil, authorization: "Bearer \(Self.token.text)")) == .pass)
        #expect(status(verdict(loopback, request(cookie: nil, authorization: "Bearer nope"))) == 401)
        #expect(status(verdict(loopback, request(cookie: nil, authorization: "Basic \(Self.token.text)"))) == 401)
    }

    @Test("the cookie is HttpOnly and SameSite=Strict, named for the port")
    func cookie() {
        #expect(loopback.setCookie(session: "abc") == "reel_studio_8090=abc; Path=/; HttpOnly; SameSite=Strict")
        #expect(loopback.clearCookie.hasSuffix("Max-Age=0"))
        #expect(StudioAccess.cookie(named: "x", in: "x=") == nil)
        #expect(StudioAccess.cookie(named: "x", in: "xx=1; x=2") == "2")
    }
}
