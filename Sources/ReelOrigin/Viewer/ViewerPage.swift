import Foundation
import ReelCore
import ReelHTTP

/// The viewer: one HTML page (at `/` following the newest stream, at `/watch/{id}` showing
/// one), its script and its style, all compiled into the binary so `reel serve` needs no
/// files beside it. The page is static apart from two data attributes (the stream to show,
/// hls.js's URL); the script polls `/api/streams` every second and plays the stream with
/// the browser's own HLS (Safari, Chromium), or with hls.js when the operator named a copy
/// (`reel serve --hls-js URL`) and the browser has no HLS of its own.
///
/// The script reports every state change on the browser console as
/// `reel-viewer {"state":…,"stream":…,"detail":…}`; with `?debug=1` it also reports playback
/// (`currentTime`, distance behind live) every second.
enum ViewerPage {
    /// The page for `streamID` (`nil`: follow the newest stream).
    static func html(streamID: String?, hlsJS: URL?) -> String {
        let title = streamID.map { "\($0) · Reel" } ?? "Reel live"
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="dark light">
            <title>\(escape(title))</title>
            <link rel="stylesheet" href="/viewer.css">
            <script src="/viewer.js" defer></script>
            </head>
            <body data-stream="\(escape(streamID ?? ""))" data-hls-js="\(escape(hlsJS?.absoluteString ?? ""))">
            <header class="bar">
              <a class="brand" href="/">Reel</a>
              <span id="state" class="state state-waiting" role="status" aria-live="polite">WAITING</span>
              <span id="stream-name" class="stream-name"></span>
              <span id="behind" class="behind" hidden></span>
              <button id="go-live" class="go-live" type="button" hidden>Go live</button>
            </header>
            <main class="layout">
              <section class="stage">
                <div class="screen">
                  <video id="video" muted autoplay playsinline controls crossorigin="anonymous"></video>
                  <div id="notice" class="notice">Looking for a stream…</div>
                </div>
                <p id="detail" class="detail"></p>
              </section>
              <aside class="recent">
                <h2>Recent streams</h2>
                <ul id="streams" class="streams"></ul>
                <p class="hint">Publish with <code>reel live --origin URL --token TOKEN</code>.
                  The list as JSON: <a href="/api/streams">/api/streams</a>.</p>
              </aside>
            </main>
            <noscript><p class="detail">The viewer needs JavaScript; the playlists are at /streams/{id}/playlist.m3u8 for any HLS player.</p></noscript>
            </body>
            </html>

            """
    }

    /// Headers for the page: no caching (it is tiny), and a content security policy that
    /// lets it load only its own script and style, the origin's media, and hls.js from the
    /// operator's URL (hls.js plays through blob: media and workers).
    static func pageHeaders(hlsJS: URL?) -> [(String, String)] {
        var scripts = "'self'"
        if let hlsJS, let scheme = hlsJS.scheme, let host = hlsJS.host {
            scripts += " \(scheme)://\(host)\(hlsJS.port.map { ":\($0)" } ?? "")"
        }
        let policy = "default-src 'none'; script-src \(scripts); style-src 'self'; connect-src 'self'; "
            + "media-src 'self' blob:; worker-src 'self' blob:; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'"
        return [
            ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-cache"),
            ("Content-Security-Policy", policy), ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
        ]
    }

    /// An asset's bytes and strong tag (computed once).
    static func asset(_ asset: OriginRoute.ViewerAsset) -> (bytes: [UInt8], tag: EntityTag) {
        switch asset {
        case .script: script
        case .style: style
        }
    }

    private static let script = tagged(ViewerScript.source)
    private static let style = tagged(ViewerStyle.source)

    private static func tagged(_ text: String) -> (bytes: [UInt8], tag: EntityTag) {
        let bytes = Array(text.utf8)
        return (bytes, EntityTag(content: bytes))
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }
}
