import Foundation
import ReelCore
import ReelHTTP
import ReelOrigin

/// `reel serve`: Reel's own origin. Stores the publisher's PUTs and serves HLS to players.
enum ServeCommand {
    static let host = Option.value("host", placeholder: "ADDR", default: "127.0.0.1",
                                   help: "Address to listen on: 127.0.0.1 (this machine only), 0.0.0.0 or :: (every interface), or one address.")
    static let port = Option.value("port", short: "p", as: Int.self, default: "8080", help: "Port to listen on (0 picks a free one).")
    static let data = Option.value("data", placeholder: "DIR",
                                   help: "Data folder holding streams/{id}/… (default: reel/origin in the XDG data folder, ~/.local/share/reel/origin).")
    static let tokenFile = Option.value("token-file", placeholder: "FILE",
                                        help: "File holding the bearer token PUT and DELETE need; created (256 random bits, mode 0600) when missing. Default: token in the data folder.")
    static let accessLog = Option.value("access-log", placeholder: "FILE",
                                        help: "Append the access log (one line per request) to FILE instead of standard output; '-' for standard output, 'none' for no log.")
    static let hlsJS = Option.value("hls-js", placeholder: "URL",
                                    help: "Where the viewer loads hls.js from (an http or https URL you host or trust) for browsers without native HLS; without it, such browsers are told to use Safari, Chromium or an HLS player.")
    static let trustedProxy = Option.value("trusted-proxy", placeholder: "ADDR", repeatable: true,
                                           help: "A proxy in front (a caching nginx, a CDN edge) whose X-Forwarded-For names the client; repeat for several. Its own connections are not capped per address, and failed logins count against the client it names.")
    static let maxConnections = Option.value("max-connections", as: Int.self, default: "512",
                                             help: "Connections held at once at most; more wait in the listen queue.")
    static let maxPerAddress = Option.value("max-connections-per-address", as: Int.self, default: "32",
                                            help: "Connections one address may hold at once (trusted proxies excepted); 0 for no cap.")

    static let spec = CommandSpec(
        name: "serve",
        summary: "Run Reel's HLS origin: store PUT streams, serve them to players.",
        discussion: """
            Stores what 'reel live --origin URL --token TOKEN' publishes (streams/{id}/init.mp4, \
            playlist.m3u8, seg/NNNNNN.m4s) atomically in the data folder and serves it with the right \
            MIME types, caching, ETags, ranges, gzip for playlists and CORS. GET /api/streams lists \
            the streams, newest first; GET /health answers 200. The viewer at / plays the newest \
            stream in the browser (/watch/{id} one stream) and shows LIVE, ENDED, WAITING or SERVER \
            ERROR. PUT and DELETE (of a stream, or of one of its files) need the bearer token. \
            Ctrl-C (SIGINT) or SIGTERM stops after the requests in flight.
            """,
        options: [host, port, data, tokenFile, accessLog, hlsJS, trustedProxy, maxConnections, maxPerAddress],
        examples: [
            "reel serve",
            "reel serve --host 0.0.0.0 --port 8080 --data /srv/reel",
            "reel serve --hls-js https://cdn.example.org/hls.js/1.5/hls.min.js",
            "reel serve --trusted-proxy 127.0.0.1   # behind a caching nginx on this machine",
            "reel live --origin http://127.0.0.1:8080/ --token \"$(cat ~/.local/share/reel/origin/token)\"",
        ])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let portNumber = try arguments.require(port, as: Int.self)
        guard (0...65535).contains(portNumber) else { throw arguments.invalid(port, expected: "a port from 0 to 65535") }
        var settings = OriginSettings(host: try arguments.require(host), port: portNumber)
        if let folder = arguments.string(data) { settings.dataDirectory = URL(fileURLWithPath: folder) }
        if let file = arguments.string(tokenFile) { settings.tokenFile = URL(fileURLWithPath: file) }
        if let address = arguments.string(hlsJS) {
            guard let url = URL(string: address), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false else {
                throw arguments.invalid(hlsJS, expected: "an http:// or https:// URL of hls.js (e.g. https://cdn.example.org/hls.min.js)")
            }
            settings.hlsJS = url
        }
        try applyBounds(arguments, to: &settings)
        switch arguments.string(accessLog) {
        case nil, "-": settings.accessLog = .standardOutput
        case "none": settings.accessLog = .none
        case let file?: settings.accessLog = .file(URL(fileURLWithPath: file))
        }

        let server = try OriginServer(settings: settings)
        try server.start()
        let base = server.baseURL.absoluteString
        let tokenPath = settings.resolvedTokenFile.path
        print("""
            reel serve: serving \(settings.dataDirectory.path)
              base URL:  \(base)
              viewer:    \(base)   (one stream: \(base)watch/ID)
              streams:   \(base)api/streams
              token:     \(tokenPath)\(server.tokenFile.created ? " (new, mode 0600)" : "")
              publish:   reel live --origin \(base) --token "$(cat \(tokenPath))"
            """)
        if let warning = server.tokenFile.warning { print("warning: \(warning)") }
        fflush(nil)  // all C streams: the banner must reach a pipe before any access-log line

        await SignalTrap.serveUntilStopped { received in
            ErrorPrinter.note("reel serve", "\(received == SIGINT ? "interrupted" : "terminated"), finishing \(Counted.noun(server.requestsInFlight, "request")) in flight")
            server.stop()
            ErrorPrinter.note("reel serve", "stopped")
        }
        return 0
    }

    /// The connection caps and the trusted proxies (each address checked and written the way
    /// the server prints client addresses).
    static func applyBounds(_ arguments: ParsedArguments, to settings: inout OriginSettings) throws {
        let total = try arguments.require(maxConnections, as: Int.self)
        guard (1...100_000).contains(total) else { throw arguments.invalid(maxConnections, expected: "a number from 1 to 100000") }
        settings.maxConnections = total
        let perAddress = try arguments.require(maxPerAddress, as: Int.self)
        guard perAddress >= 0 else { throw arguments.invalid(maxPerAddress, expected: "0 (no cap) or more") }
        settings.maxConnectionsPerAddress = perAddress
        for text in arguments.strings(trustedProxy) {
            guard let address = HTTPServer.canonicalAddress(text) else {
                throw arguments.invalid(trustedProxy, expected: "an IPv4 or IPv6 address such as 127.0.0.1 or ::1 (no names, ports or ranges)")
            }
            settings.trustedProxies.insert(address)
        }
    }
}
