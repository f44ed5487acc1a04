import Foundation
import ReelHTTP
import ReelStudio
import Testing

/// The gate's same-origin rule, the bearer's exemption from the Origin, which refusals count
/// as guesses, and the one-time sign-in codes, as values.
@Suite("Studio same-origin rules")
struct StudioSameOriginTests {
    static let token = try! OriginToken("0123456789abcdef0123456789abcdef")
    static let session = "feedfacefeedfacefeedfacefeedface"
    static let code = "c0dec0dec0dec0dec0dec0dec0dec0de"
    let loopback = StudioAccess(boundHost: "127.0.0.1", port: 8090)

    func verdict(_ method: String = "GET", _ path: String = "/api/status", origin: String? = nil, site: String? = nil,
                 cookie: String? = "reel_studio_8090=\(session)", authorization: String? = nil, token: String? = nil,
                 code: String? = nil) -> StudioAccess.Verdict {
        let request = StudioAccess.Request(method: method, path: path, host: "127.0.0.1:8090", origin: origin, fetchSite: site,
                                           cookie: cookie, authorization: authorization, token: token, code: code)
        return loopback.verdict(request, token: Self.token, isSession: { $0 == Self.session }, spendCode: { $0 == Self.code })
    }

    @Test("only same-origin and none pass as fetch sites; any Origin but the studio's is refused, on every method")
    func sameOrigin() {
        for site in ["same-site", "cross-site", "SAME-SITE", "something-new"] {
            for method in ["GET", "HEAD", "POST"] {
                #expect(verdict(method, origin: method == "POST" ? "http://127.0.0.1:8090" : nil, site: site).status == 403, "\(method) \(site)")
            }
        }
        for origin in ["http://127.0.0.1:8777", "http://localhost:8091", "https://127.0.0.1:8090", "null", "http://evil.example"] {
            #expect(verdict("GET", origin: origin).status == 403, "\(origin)")
            #expect(verdict("GET", "/api/events", origin: origin, site: "same-origin").status == 403, "\(origin)")
        }
        #expect(verdict(site: "same-origin") == .pass)
        #expect(verdict(site: "none") == .pass)
        #expect(verdict(origin: "http://localhost:8090", site: "same-origin") == .pass)
        #expect(verdict() == .pass, "no such headers: curl, scripts")
    }

    @Test("a bearer needs no Origin to change something; a cookie does; a foreign page is refused either way")
    func bearerWithoutOrigin() {
        let bearer = "Bearer \(Self.token.text)"
        #expect(verdict("POST", "/api/tags", cookie: nil, authorization: bearer) == .pass)
        #expect(verdict("POST", "/api/tags", cookie: nil, authorization: "Bearer nope").status == 401)
        #expect(verdict("POST", "/api/tags", origin: "http://127.0.0.1:8777", cookie: nil, authorization: bearer).status == 403)
        #expect(verdict("POST", "/api/tags", site: "same-site", cookie: nil, authorization: bearer).status == 403)
        #expect(verdict("POST", "/api/tags").status == 403, "a cookie without Origin: CSRF")
    }

    @Test("wrong tokens and codes are guesses; no credential and a stale cookie are plain 401s")
    func whatCounts() {
        func isGuess(_ verdict: StudioAccess.Verdict) -> Bool {
            if case .wrongToken = verdict { true } else { false }
        }
        #expect(isGuess(verdict(cookie: nil, authorization: "Bearer wrong-token-0123")))
        #expect(isGuess(verdict("GET", "/", cookie: nil, token: "0123456789abcdef0123456789abcdee")))
        #expect(isGuess(verdict("GET", "/", cookie: nil, code: "0123456789abcdef0123456789abcdee")))
        #expect(!isGuess(verdict(cookie: nil)) && verdict(cookie: nil).status == 401)
        #expect(!isGuess(verdict(cookie: "reel_studio_8090=stale")) && verdict(cookie: "reel_studio_8090=stale").status == 401)
    }

    @Test("a code signs in on the page only, from any fetch site (a file's redirect is cross-site), never past a foreign Origin")
    func codeExchange() {
        #expect(verdict("GET", "/", cookie: nil, code: Self.code) == .exchange)
        #expect(verdict("GET", "/", site: "none", cookie: nil, code: Self.code) == .exchange)
        #expect(verdict("GET", "/", site: "cross-site", cookie: nil, code: Self.code) == .exchangeCode)
        #expect(verdict("GET", "/", site: "same-site", cookie: nil, code: Self.code) == .exchangeCode)
        #expect(verdict("GET", "/", origin: "http://127.0.0.1:8777", cookie: nil, code: Self.code).status == 403)
        #expect(verdict("GET", "/api/status", cookie: nil, code: Self.code).status == 401)
        #expect(verdict("POST", "/", origin: "http://127.0.0.1:8090", cookie: nil, code: Self.code).status == 401)
        #expect(verdict("GET", "/", site: "cross-site", cookie: nil, token: Self.token.text).status == 403, "the token is not a code")
        var spent: [Substring] = []
        let request = StudioAccess.Request(method: "GET", path: "/", host: "127.0.0.1:8090", cookie: "reel_studio_8090=\(Self.session)",
                                           code: Self.code)
        let signedIn = loopback.verdict(request, token: Self.token, isSession: { $0 == Self.session }, spendCode: { spent.append($0); return true })
        #expect(signedIn == .pass && spent == [Substring(Self.code)], "a signed-in browser's link is spent too")
    }

    @Test("codes: spent on first use, expired after their lifetime, the oldest pushed out past the capacity")
    func codes() throws {
        var codes = SignInCodes(lifetime: 120, capacity: 2)
        let first = try OriginToken("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"), second = try OriginToken("bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb")
        let third = try OriginToken("cccccccccccccccccccccccccccccccc")
        #expect(codes.issue(first, now: 0).isEmpty)
        let spent = codes.spend(first.text, now: 1), spentAgain = codes.spend(first.text, now: 2)
        #expect(spent && !spentAgain, "once")
        #expect(codes.issue(second, now: 10).isEmpty)
        let late = codes.spend(second.text, now: 130)
        #expect(!late, "expired")
        #expect(codes.expire(now: 130) == [second.text] && codes.outstanding == 0)
        _ = codes.issue(first, now: 200)
        _ = codes.issue(second, now: 201)
        #expect(codes.issue(third, now: 202) == [first.text])
        let pushedOut = codes.spend(first.text, now: 203), kept = [third, second].map { codes.spend($0.text, now: 203) }
        let empty = codes.spend("", now: 203)
        #expect(!pushedOut && kept == [true, true] && !empty)
    }
}
