/// The studio's page and its files, compiled into the program (no build step, nothing read
/// from disk): plain HTML, CSS and one ES module, under the Content Security Policy of
/// ``StudioServer/securityHeaders`` (no inline script or style anywhere).
enum StudioPage {
    struct Asset {
        var contentType: String
        var bytes: [UInt8]
    }

    static let html = Array(page.utf8)

    static let assets: [String: Asset] = [
        "app.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: Array(StudioScript.source.utf8)),
        "style.css": Asset(contentType: "text/css; charset=utf-8", bytes: Array(StudioStyle.source.utf8)),
        "icon.svg": Asset(contentType: "image/svg+xml", bytes: Array(icon.utf8)),
    ]

    private static let page = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>Reel Studio</title>
        <link rel="icon" href="/assets/icon.svg" type="image/svg+xml">
        <link rel="stylesheet" href="/assets/style.css">
        <script type="module" src="/assets/app.js"></script>
        </head>
        <body>
        <header class="bar">
          <h1><img src="/assets/icon.svg" alt="" width="28" height="28"> Reel Studio</h1>
          <p id="connection" class="connection" role="status" aria-live="polite" data-state="connecting">Connecting…</p>
          <button id="sign-out" type="button" class="quiet">Sign out</button>
        </header>
        <main>
          <section aria-labelledby="status-title" class="panel">
            <h2 id="status-title">This studio</h2>
            <dl class="facts">
              <div><dt>Library</dt><dd id="library-path">…</dd></div>
              <div><dt>Sessions</dt><dd id="library-sessions">…</dd></div>
              <div><dt>Free disk</dt><dd id="disk-free">…</dd></div>
              <div><dt>Source</dt><dd id="source">…</dd></div>
              <div><dt>Open tabs</dt><dd id="streams">…</dd></div>
              <div><dt>Running for</dt><dd id="uptime">…</dd></div>
              <div><dt>Version</dt><dd id="version">…</dd></div>
            </dl>
          </section>
          <p id="signed-out" class="notice" hidden>Signed out. Open the address <code>reel studio</code> printed to sign in again.</p>
        </main>
        </body>
        </html>

        """

    private static let icon = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="14" fill="#1d4ed8"/>\
        <circle cx="16" cy="16" r="4" fill="#fff"/><circle cx="16" cy="8" r="3" fill="#fff"/><circle cx="16" cy="24" r="3" fill="#fff"/>\
        <circle cx="8" cy="16" r="3" fill="#fff"/><circle cx="24" cy="16" r="3" fill="#fff"/></svg>

        """
}
