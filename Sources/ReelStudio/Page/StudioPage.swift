/// The studio's page and its files: plain HTML, CSS and ES modules in `Page/Assets/`, compiled
/// into the program by SwiftPM's `embedInCode` rule (Package.swift), which makes each file a
/// `[UInt8]` of `PackageResources` (no resource bundle, nothing read from disk at run time).
/// They run under the Content Security Policy of ``StudioServer/securityHeaders`` (no inline
/// script or style anywhere); `make check-page` parses and lints them.
enum StudioPage {
    struct Asset {
        var contentType: String
        var bytes: [UInt8]
    }

    /// `Page/Assets/index.html`, served at `/`.
    static let html = PackageResources.index_html

    /// The files under `/assets/` (``StudioRoute/assetNames`` lets these names through): the
    /// folder's, `events.js`, which ``StudioEvent`` writes, and `states.js`, which ``StudioStates`` writes.
    static let assets: [String: Asset] = [
        "app.js": script(PackageResources.app_js),
        "common.js": script(PackageResources.common_js),
        "events.js": script(StudioEvent.script),
        "states.js": script(StudioStates.script),
        "record.js": script(PackageResources.record_js),
        "library.js": script(PackageResources.library_js),
        "stats.js": script(PackageResources.stats_js),
        "materials.js": script(PackageResources.materials_js),
        "backup.js": script(PackageResources.backup_js),
        "review.js": script(PackageResources.review_js),
        "exports.js": script(PackageResources.exports_js),
        "live.js": script(PackageResources.live_js),
        "overlay.js": script(PackageResources.overlay_js),
        "cinematic.js": script(PackageResources.cinematic_js),
        "style.css": Asset(contentType: "text/css; charset=utf-8", bytes: PackageResources.style_css),
        "icon.svg": Asset(contentType: "image/svg+xml", bytes: PackageResources.icon_svg),
    ]

    private static func script(_ bytes: [UInt8]) -> Asset {
        Asset(contentType: "text/javascript; charset=utf-8", bytes: bytes)
    }
}
