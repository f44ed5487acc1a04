import Foundation
import ReelCore

/// The page at `/` until the real viewer lands: the streams, newest first, each linked to
/// its playlist.
enum OriginIndexPage {
    static func html(streams: [StreamSummary]) -> String {
        let sorted = streams.sorted { $0.updatedAt > $1.updatedAt }
        let rows = sorted.map { stream in
            let state = stream.isFinished ? "ended" : "live or waiting"
            return "<li><a href=\"\(escape(stream.playlistURL))\">\(escape(stream.streamId))</a> — \(stream.segmentCount) segments, "
                + "\(state), updated \(StreamSummary.timestamp(stream.updatedAt))</li>"
        }
        let list = rows.isEmpty ? "<p>No streams yet. Publish one with <code>reel live --origin URL --token TOKEN</code>.</p>"
            : "<ul>\n\(rows.joined(separator: "\n"))\n</ul>"
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Reel origin</title>
            <style>body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}</style></head>
            <body><h1>Reel origin</h1>
            <p>Open a playlist in a player that speaks HLS (Safari, ffplay, VLC). The stream list as JSON is at
            <a href="/api/streams">/api/streams</a>.</p>
            \(list)
            </body></html>

            """
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
