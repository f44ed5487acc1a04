/// The studio's page and its files, compiled into the program (no build step, nothing read
/// from disk): plain HTML, CSS and ES modules, under the Content Security Policy of
/// ``StudioServer/securityHeaders`` (no inline script or style anywhere).
enum StudioPage {
    struct Asset {
        var contentType: String
        var bytes: [UInt8]
    }

    static let html = Array(page.utf8)

    static let assets: [String: Asset] = [
        "app.js": script(AppScript.source),
        "common.js": script(CommonScript.source),
        "record.js": script(RecordScript.source),
        "library.js": script(LibraryScript.source),
        "stats.js": script(StatsScript.source),
        "materials.js": script(MaterialsScript.source),
        "backup.js": script(BackupScript.source),
        "review.js": script(ReviewScript.source),
        "exports.js": script(ExportsScript.source),
        "live.js": script(LiveScript.source),
        "overlay.js": script(OverlayScript.source),
        "cinematic.js": script(CinematicScript.source),
        "style.css": Asset(contentType: "text/css; charset=utf-8", bytes: Array(StudioStyle.source.utf8)),
        "icon.svg": Asset(contentType: "image/svg+xml", bytes: Array(icon.utf8)),
    ]

    private static func script(_ source: String) -> Asset {
        Asset(contentType: "text/javascript; charset=utf-8", bytes: Array(source.utf8))
    }

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
        <link rel="modulepreload" href="/assets/common.js">
        <link rel="modulepreload" href="/assets/record.js">
        <link rel="modulepreload" href="/assets/library.js">
        <link rel="modulepreload" href="/assets/stats.js">
        <link rel="modulepreload" href="/assets/materials.js">
        <link rel="modulepreload" href="/assets/backup.js">
        <link rel="modulepreload" href="/assets/review.js">
        <link rel="modulepreload" href="/assets/exports.js">
        <link rel="modulepreload" href="/assets/live.js">
        <link rel="modulepreload" href="/assets/overlay.js">
        <link rel="modulepreload" href="/assets/cinematic.js">
        </head>
        <body>
        <header class="bar">
          <h1><img src="/assets/icon.svg" alt="" width="28" height="28"> Reel Studio</h1>
          <p id="connection" class="connection" role="status" aria-live="polite" data-state="connecting">Connecting…</p>
          <nav class="views" aria-label="Views">
            <a id="nav-record" href="#record">Record</a>
            <a id="nav-live" href="#live">Live</a>
            <a id="nav-overlay" href="#overlay">Overlay</a>
            <a id="nav-cinematic" href="#cinematic">Cinematic</a>
            <a id="nav-library" href="#library">Library</a>
            <a id="nav-stats" href="#stats">Stats</a>
            <a id="nav-materials" href="#materials">Materials</a>
            <a id="nav-exports" href="#exports">Export</a>
            <a id="nav-backup" href="#backup">Backup</a>
          </nav>
          <button id="sign-out" type="button" class="quiet">Sign out</button>
        </header>
        <main>
          <section id="view-record" aria-labelledby="record-title" class="panel record">
            <h2 id="record-title">Record</h2>
            <div class="record-grid">
              <figure class="preview">
                <div class="picture" id="picture">
                  <img id="preview" alt="Live preview of the source" width="640" height="360">
                  <div id="face-box" class="face-box" hidden></div>
                </div>
                <figcaption id="preview-note">The preview starts when a source is chosen.</figcaption>
              </figure>
              <form id="record-form" class="record-form">
                <label for="source-choice">Source</label>
                <select id="source-choice"></select>
                <div id="file-row" class="row" hidden>
                  <input id="source-file" type="text" placeholder="/home/me/Videos/desk.mp4" aria-label="Video file path" autocomplete="off">
                  <button id="use-file" type="button">Use file</button>
                </div>
                <fieldset class="modes">
                  <legend>Mode</legend>
                  <label><input id="mode-timelapse" type="radio" name="mode" value="timelapse" checked> Timelapse</label>
                  <label><input id="mode-full" type="radio" name="mode" value="full"> Full</label>
                </fieldset>
                <label for="interval">Seconds of study per frame</label>
                <input id="interval" type="number" min="0.1" step="any" value="5" inputmode="decimal">
                <label for="title">Title</label>
                <input id="title" type="text" maxlength="200" autocomplete="off">
                <label for="tags">Tags, separated by commas</label>
                <input id="tags" type="text" autocomplete="off">
                <div class="row buttons">
                  <button id="start" type="submit" class="primary">Start recording</button>
                  <button id="pause" type="button" disabled aria-keyshortcuts="Space">Pause</button>
                  <button id="stop" type="button" disabled>Stop</button>
                </div>
                <p class="hint">Space pauses and resumes. Closing this tab never stops a recording.</p>
              </form>
            </div>
            <dl class="facts recording-facts">
              <div><dt>State</dt><dd id="rec-state" data-state="idle">Not recording</dd></div>
              <div><dt>Study time</dt><dd id="rec-active">–</dd></div>
              <div><dt>Wall time</dt><dd id="rec-wall">–</dd></div>
              <div><dt>Frames</dt><dd id="rec-frames">–</dd></div>
              <div><dt>File size</dt><dd id="rec-size">–</dd></div>
              <div><dt>Disk lasts</dt><dd id="rec-estimate">–</dd></div>
              <div><dt>Load</dt><dd id="rec-load">–</dd></div>
            </dl>
            <p id="rec-message" class="message" role="status" aria-live="polite"></p>
          </section>
          <section id="view-overlay" aria-labelledby="overlay-title" class="panel overlay" hidden>
            <h2 id="overlay-title">Overlay camera</h2>
            <p class="hint">Artwork over the live picture of the source chosen on the record page, turned portrait. Drag the artwork to move it,
              the wheel or a pinch to scale it, the round handle to turn it. The photo keeps what the chosen preview shows.</p>
            <div class="overlay-grid">
              <div class="overlay-previews">
                <figure class="overlay-figure">
                  <div class="overlay-stage" id="overlay-stage-unfiltered" data-preview="unfiltered">
                    <img class="overlay-camera" id="overlay-camera-unfiltered" alt="Unfiltered preview of the source">
                    <img class="overlay-art" id="overlay-art-unfiltered" alt="" hidden draggable="false">
                    <span class="overlay-turn" id="overlay-turn-unfiltered" hidden></span>
                  </div>
                  <figcaption><label><input type="radio" name="overlay-preview" value="unfiltered" checked> Unfiltered</label></figcaption>
                </figure>
                <figure class="overlay-figure">
                  <div class="overlay-stage" id="overlay-stage-filtered" data-preview="filtered">
                    <img class="overlay-camera" id="overlay-camera-filtered" alt="Filtered preview of the source">
                    <img class="overlay-art" id="overlay-art-filtered" alt="" hidden draggable="false">
                    <span class="overlay-turn" id="overlay-turn-filtered" hidden></span>
                  </div>
                  <figcaption><label><input type="radio" name="overlay-preview" value="filtered"> Filtered</label>
                    <select id="overlay-filter" aria-label="Filter preset"></select></figcaption>
                </figure>
              </div>
              <form id="overlay-form" class="record-form overlay-form" novalidate>
                <button id="overlay-shoot" type="button" class="primary" aria-keyshortcuts="Space">Take photo</button>
                <p class="hint">Space takes a photo; arrows move the artwork (Shift: further), + and − scale it, [ and ] turn it.</p>
                <label for="overlay-source-choice">Camera</label>
                <select id="overlay-source-choice" aria-describedby="overlay-source"></select>
                <label for="overlay-format">Format</label>
                <select id="overlay-format">
                  <option value="heic">HEIC, Display P3</option>
                  <option value="jpeg">JPEG, sRGB</option>
                  <option value="tiff">TIFF, 16-bit Display P3</option>
                </select>
                <label for="overlay-orientation">Device held</label>
                <select id="overlay-orientation">
                  <option value="0">Upright</option>
                  <option value="90">Turned left (+90°)</option>
                  <option value="-90">Turned right (−90°)</option>
                  <option value="180">Upside down</option>
                </select>
                <fieldset class="overlay-anchors" id="overlay-anchors">
                  <legend>Align</legend>
                </fieldset>
                <label for="overlay-scale">Scale</label>
                <input id="overlay-scale" type="number" min="0.05" max="20" step="0.05" inputmode="decimal">
                <label for="overlay-rotation">Turn (degrees, clockwise)</label>
                <input id="overlay-rotation" type="number" step="1" inputmode="decimal">
                <button id="overlay-reset" type="button">Reset placement</button>
                <p id="overlay-source" class="hint"></p>
              </form>
            </div>
            <p id="overlay-message" class="message" role="status" aria-live="polite"></p>
            <h3>Artwork</h3>
            <div class="row">
              <label for="overlay-import">Import an image (PNG with transparency, JPEG, HEIC or TIFF)</label>
              <input id="overlay-import" type="file" accept="image/png,image/jpeg,image/heic,image/tiff,.heic,.tif,.tiff">
            </div>
            <ul id="overlay-assets" class="overlay-shelf" aria-label="Artwork"></ul>
            <h3>Photos</h3>
            <ul id="overlay-photos" class="overlay-gallery" aria-label="Photos"></ul>
            <dialog id="overlay-cutout" aria-labelledby="overlay-cutout-title">
              <h3 id="overlay-cutout-title">Cut out a subject</h3>
              <p class="hint">Click the subject: a person, or any object that stands out. It becomes new artwork.</p>
              <img id="overlay-cutout-photo" alt="The photo to cut a subject out of">
              <p id="overlay-cutout-message" class="message" role="status" aria-live="polite"></p>
              <button id="overlay-cutout-close" type="button">Close</button>
            </dialog>
          </section>
          <section id="view-cinematic" aria-labelledby="cinematic-title" class="panel cinematic" hidden>
            <h2 id="cinematic-title">Cinematic camera</h2>
            <p class="hint">The source chosen on the record page with a shallow depth of field that follows a subject. Click a subject or a place
              to focus there (click the focused subject again for strong focus: it keeps it until it leaves); press and hold to fix the focus on
              that plane. The depth is estimated in layers from what is seen (people's outlines, face sizes), not measured.</p>
            <div class="cinematic-grid">
              <figure class="cinematic-figure">
                <div class="cinematic-stage" id="cinematic-stage">
                  <img class="cinematic-camera" id="cinematic-camera" alt="Preview with the cinematic blur" draggable="false">
                  <div class="cinematic-boxes" id="cinematic-boxes"></div>
                  <p class="cinematic-light" id="cinematic-light" role="alert" hidden>Not enough light</p>
                  <p class="cinematic-rec" id="cinematic-rec" hidden>REC</p>
                </div>
                <figcaption id="cinematic-status" class="hint" aria-live="polite"></figcaption>
              </figure>
              <form id="cinematic-form" class="record-form cinematic-form" novalidate>
                <button id="cinematic-record" type="button" class="primary">Record</button>
                <label class="check"><input id="cinematic-editable" type="checkbox" checked> Editable: refocus later</label>
                <button id="cinematic-still" type="button">Take still</button>
                <label for="cinematic-aperture">Aperture <output id="cinematic-aperture-value" for="cinematic-aperture"></output></label>
                <input id="cinematic-aperture" type="range" min="2" max="16" step="0.1">
                <button id="cinematic-lock" type="button">Lock main subject</button>
                <button id="cinematic-auto" type="button">Automatic focus</button>
                <p id="cinematic-source" class="hint"></p>
              </form>
            </div>
            <p id="cinematic-message" class="message" role="status" aria-live="polite"></p>
            <section id="cinematic-editor" class="cinematic-editor" aria-labelledby="cinematic-editor-title" hidden>
              <h3 id="cinematic-editor-title">Refocus <span id="cinematic-editor-clip"></span></h3>
              <p class="hint">Play or drag to a moment, then click a subject's box to focus on it from there (click it again: strong focus), or
                elsewhere to focus near that point; Shift+click fixes the focus on that point's plane. The clip is shown as recorded, unblurred.</p>
              <div class="cinematic-stage" id="cinematic-editor-stage">
                <video class="cinematic-camera" id="cinematic-editor-video" preload="auto" muted playsinline></video>
                <div class="cinematic-boxes editing" id="cinematic-editor-boxes"></div>
              </div>
              <div class="row">
                <button id="cinematic-editor-play" type="button">Play / pause</button>
                <input id="cinematic-editor-time" type="range" min="0" step="0.01" value="0" aria-label="Time in the clip">
              </div>
              <div id="cinematic-timeline" class="cinematic-timeline" aria-label="Keyframes on the clip's time"></div>
              <ol id="cinematic-keyframes" class="cinematic-keyframes" aria-label="Keyframes"></ol>
              <label for="cinematic-editor-aperture">Aperture <output id="cinematic-editor-aperture-value" for="cinematic-editor-aperture"></output></label>
              <input id="cinematic-editor-aperture" type="range" min="2" max="16" step="0.1">
              <div class="row">
                <button id="cinematic-render" type="button" class="primary">Render refocused clip</button>
                <button id="cinematic-render-stop" type="button" hidden>Stop</button>
                <progress id="cinematic-render-progress" max="1" value="0" aria-label="Refocus rendering" hidden></progress>
                <button id="cinematic-editor-close" type="button" class="quiet">Close</button>
              </div>
              <p id="cinematic-editor-message" class="message" role="status" aria-live="polite"></p>
            </section>
            <h3>Clips</h3>
            <ul id="cinematic-clips" class="cinematic-clips" aria-label="Clips"></ul>
            <h3>Stills</h3>
            <ul id="cinematic-stills" class="overlay-gallery" aria-label="Stills"></ul>
          </section>
          <section id="view-live" aria-labelledby="live-title" class="panel live" hidden>
            <h2 id="live-title">Live</h2>
            <p class="hint">Streams the source as HLS, as <code>reel live</code> does: to an origin (<code>reel serve</code>), to a folder on
              this machine, or both. While it runs the source is busy: the record view has no preview and cannot record.</p>
            <div class="live-grid">
              <form id="live-form" class="record-form live-form" novalidate>
                <label for="live-source">Source</label>
                <select id="live-source"><option value="">As chosen on the record page</option></select>
                <div id="live-file-row" class="live-file" hidden>
                  <label for="live-file">Video file (an absolute path)</label>
                  <input id="live-file" type="text" autocomplete="off" placeholder="/home/me/Videos/desk.mp4">
                </div>
                <label for="live-origin">Origin URL</label>
                <input id="live-origin" type="url" autocomplete="off" placeholder="http://127.0.0.1:8080/" aria-describedby="live-origin-hint">
                <p id="live-origin-hint" class="hint">Where <code>reel serve</code> takes the segments; empty with a local folder alone.</p>
                <label for="live-token">Token</label>
                <input id="live-token" type="password" autocomplete="off" aria-describedby="live-token-hint">
                <p id="live-token-hint" class="hint">Sent to the origin with each upload; never shown again.</p>
                <label for="live-output">Local folder (optional)</label>
                <input id="live-output" type="text" autocomplete="off" placeholder="/home/me/Videos/live" aria-describedby="live-output-hint">
                <p id="live-output-hint" class="hint">An absolute path: also (or instead) write the HLS files here.</p>
                <label for="live-quality">Quality</label>
                <select id="live-quality" aria-describedby="live-quality-hint">
                  <option value="low">Low: 480x854, 0.9 Mbps</option>
                  <option value="medium" selected>Medium: 720x1280, 1.5 Mbps</option>
                  <option value="high">High: 720x1280, 2.5 Mbps</option>
                  <option value="auto">Auto: measures the uplink first</option>
                </select>
                <p id="live-quality-hint" class="hint">Sizes are upright (width x height); Landscape turns them (854x480, 1280x720).</p>
                <label class="check"><input id="live-landscape" type="checkbox"> Landscape</label>
                <label class="check"><input id="live-archive" type="checkbox" checked> Keep an archive on this machine</label>
                <div class="row buttons">
                  <button id="live-start" type="submit" class="primary">Go live</button>
                  <button id="live-stop" type="button" disabled>Stop</button>
                </div>
                <p id="live-message" class="message" role="status" aria-live="polite"></p>
              </form>
              <section id="live-panel" class="live-status" aria-labelledby="live-panel-title">
                <h3 id="live-panel-title">The stream</h3>
                <dl class="facts live-facts">
                  <div><dt>State</dt><dd id="live-state" data-state="idle">Not live</dd></div>
                  <div><dt>Stream</dt><dd id="live-stream">–</dd></div>
                  <div><dt>Elapsed</dt><dd id="live-elapsed">–</dd></div>
                  <div><dt>Segments</dt><dd id="live-segments">–</dd></div>
                  <div><dt>Waiting to upload</dt><dd id="live-backlog">–</dd></div>
                  <div><dt>Dropped frames</dt><dd id="live-dropped">–</dd></div>
                  <div><dt>Bit rate</dt><dd id="live-bitrate">–</dd></div>
                  <div><dt>Failed upload attempts</dt><dd id="live-failures">–</dd></div>
                  <div><dt>Archive</dt><dd id="live-archive-frames">–</dd></div>
                  <div><dt>Archive file</dt><dd id="live-archive-path">–</dd></div>
                  <div class="whole"><dt id="live-playlist-label">Playlist URL</dt>
                    <dd class="row live-copy-row"><code id="live-playlist">–</code>
                      <button id="live-copy" type="button" aria-label="Copy the playlist URL" disabled>Copy</button>
                      <span id="live-copy-note" class="copy-note" role="status" aria-live="polite"></span></dd></div>
                </dl>
                <p class="live-viewer"><a id="live-viewer" target="_blank" rel="noopener" hidden>Watch it on the origin’s viewer page (new tab)</a></p>
                <ul id="live-warnings" class="plan live-warnings" aria-label="Warnings" hidden></ul>
                <h4 id="live-lines-title">What reel live says</h4>
                <pre id="live-lines" class="live-lines">Nothing yet.</pre>
              </section>
            </div>
          </section>
          <section id="view-library" aria-labelledby="library-title" class="panel library" hidden>
            <h2 id="library-title">Library</h2>
            <form id="library-filter" class="filter">
              <div><label for="filter-tag">Tag</label><select id="filter-tag"><option value="">All tags</option></select></div>
              <div><label for="filter-since">From</label><input id="filter-since" type="date"></div>
              <div><label for="filter-until">To</label><input id="filter-until" type="date"></div>
              <button id="filter-clear" type="reset">Show all</button>
            </form>
            <p id="library-count" class="hint" role="status" aria-live="polite"></p>
            <div class="row undo-row">
              <p id="library-message" class="message" role="status" aria-live="polite"></p>
              <button id="library-undo" type="button" hidden>Undo</button>
            </div>
            <ul id="sessions" class="sessions"></ul>
          </section>
          <section id="view-review" aria-labelledby="review-title" class="panel review" hidden>
            <p class="back"><a id="review-back" href="#library">← Back to library</a></p>
            <h2 id="review-title" tabindex="-1">Review and export</h2>
            <p id="review-summary" class="hint"></p>
            <p id="review-message" class="message" role="status" aria-live="polite"></p>
            <div id="review-faces" class="review-faces" hidden>
              <h3 id="review-segments-title">Face segments</h3>
              <div id="review-timeline" class="timeline" role="group" aria-labelledby="review-segments-title"></div>
              <p class="hint">Yellow: covered (mosaic or stamp); grey: not covered. One row per person.</p>
              <div class="review-grid">
                <figure class="review-figure">
                  <div id="review-stage" class="stage">
                    <img id="review-frame" alt="" width="960" height="540">
                    <button id="review-box" type="button" class="review-box" aria-label="Face box">
                      <span class="handle" data-corner="nw" aria-hidden="true"></span><span class="handle" data-corner="ne" aria-hidden="true"></span>
                      <span class="handle" data-corner="sw" aria-hidden="true"></span><span class="handle" data-corner="se" aria-hidden="true"></span>
                    </button>
                  </div>
                  <figcaption id="review-stage-note"></figcaption>
                </figure>
                <form id="review-controls" class="record-form review-controls">
                  <fieldset>
                    <legend id="review-selected">Segment</legend>
                    <label class="check"><input id="review-mosaic" type="checkbox"> Mosaic</label>
                    <label for="review-stamp">Cover</label>
                    <select id="review-stamp"><option value="">Mosaic</option></select>
                    <label for="review-upload">Upload a stamp (PNG)</label>
                    <input id="review-upload" type="file" accept="image/png">
                    <div class="row buttons"><button id="review-reset" type="button">Reset segment</button></div>
                  </fieldset>
                  <p class="hint">Drag the box to move it, a corner to resize it. Or Tab to it: arrow keys move it (Shift: further),
                    + and - make it larger and smaller. Each change is saved.</p>
                </form>
              </div>
              <h3 id="review-strip-title">The segment’s frames with the box</h3>
              <div id="review-strip" class="strip" role="group" aria-labelledby="review-strip-title"></div>
              <h3 id="review-rendered-title">As the export shows it</h3>
              <img id="review-rendered" class="rendered" alt="" width="960" height="540">
            </div>
            <div id="review-export" class="review-export" hidden>
              <h3 id="export-title">Export</h3>
              <form id="export-form" class="filter" aria-labelledby="export-title">
                <div><label for="export-size">Size</label>
                  <select id="export-size"><option value="1080p">1080p</option><option value="720p">720p</option><option value="source">As recorded</option></select></div>
                <label class="check"><input id="export-caption" type="checkbox"> Caption with study time</label>
                <button id="export-start" type="submit" class="primary">Export</button>
              </form>
              <p id="export-message" class="message" role="status" aria-live="polite"></p>
              \(jobPanel("review-job"))
            </div>
          </section>
          <section id="view-stats" aria-labelledby="stats-title" class="panel stats" hidden>
            <h2 id="stats-title">Study time</h2>
            <div class="row stats-controls">
              <fieldset class="modes">
                <legend>Period</legend>
                <label><input id="period-week" type="radio" name="period" value="week" checked> Week</label>
                <label><input id="period-month" type="radio" name="period" value="month"> Month</label>
              </fieldset>
              <button id="stats-previous" type="button" aria-label="Earlier period">←</button>
              <span id="stats-range" class="range" aria-live="polite"></span>
              <button id="stats-next" type="button" aria-label="Later period">→</button>
              <button id="stats-today" type="button">Today</button>
            </div>
            <img id="stats-chart" class="chart" alt="" width="720" height="402">
            <dl class="facts">
              <div><dt>Total</dt><dd id="stats-total">–</dd></div>
              <div><dt>Goal met</dt><dd id="stats-met">–</dd></div>
              <div><dt>Streak (to today)</dt><dd id="stats-streak">–</dd></div>
            </dl>
            <details class="days">
              <summary>Each day</summary>
              <table>
                <thead><tr><th scope="col">Day</th><th scope="col">Study</th><th scope="col">Goal</th><th scope="col">Verdict</th><th scope="col">Sessions</th></tr></thead>
                <tbody id="stats-days"></tbody>
              </table>
            </details>
            <form id="goal-form" class="filter goal-form">
              <div><label for="goal-minutes">Daily goal, minutes (0: none)</label>
                <input id="goal-minutes" type="number" min="0" max="1440" step="1" inputmode="numeric" required></div>
              <div><label for="goal-date">From (empty: today)</label><input id="goal-date" type="date"></div>
              <button id="goal-set" type="submit">Set goal</button>
            </form>
            <p class="hint">Goals: <span id="goals-list">…</span></p>
            <p id="stats-message" class="message" role="status" aria-live="polite"></p>
          </section>
          <section id="view-materials" aria-labelledby="materials-title" class="panel materials" hidden>
            <h2 id="materials-title">Materials</h2>
            <form id="material-form" class="filter material-form">
              <div><label for="material-isbn">ISBN</label><input id="material-isbn" type="text" inputmode="numeric" autocomplete="off"
                   placeholder="978-…"></div>
              <div><label for="material-title">Title (empty: looked up)</label><input id="material-title" type="text" maxlength="200" autocomplete="off"></div>
              <div><label for="material-author">Author</label><input id="material-author" type="text" maxlength="200" autocomplete="off"></div>
              <div><label for="material-publisher">Publisher</label><input id="material-publisher" type="text" maxlength="200" autocomplete="off"></div>
              <button id="material-add" type="submit" class="primary">Add</button>
              <button id="material-scan" type="button">Scan a barcode</button>
            </form>
            <img id="scan-preview" class="scan-preview" alt="The camera's picture, for the barcode" width="640" height="360" hidden>
            <p class="hint">With only an ISBN the title, author, publisher and cover are looked up in openBD, then the National Diet Library.
              Scan reads the ISBN from the source chosen on the record page.</p>
            <p id="materials-message" class="message" role="status" aria-live="polite"></p>
            <p id="materials-count" class="hint" role="status" aria-live="polite"></p>
            <ul id="materials" class="materials-list"></ul>
          </section>
          <section id="view-exports" aria-labelledby="exports-title" class="panel exports" hidden>
            <h2 id="exports-title">Export</h2>
            <p class="hint">A session is exported from its review: Library, a session, “Review faces and export”. One job runs at a time.</p>
            \(jobPanel("job"))
            <h3 id="vlog-title">Weekly vlog</h3>
            <form id="vlog-form" class="filter" aria-labelledby="vlog-title">
              <div><label for="vlog-week">Week</label>
                <select id="vlog-week"><option value="this">This week</option><option value="last" selected>Last week</option></select></div>
              <div><label for="vlog-layout">Layout</label>
                <select id="vlog-layout"><option value="vertical">Vertical (phone)</option><option value="horizontal">Horizontal</option></select></div>
              <button id="vlog-start" type="submit" class="primary">Make the vlog</button>
            </form>
            <p id="vlog-message" class="message" role="status" aria-live="polite"></p>
          </section>
          <section id="view-backup" aria-labelledby="backup-title" class="panel backup" hidden>
            <h2 id="backup-title">Backup</h2>
            <form id="backup-form" class="filter">
              <div class="wide"><label for="backup-folder">Backup folder (any synced folder will do)</label>
                <input id="backup-folder" type="text" autocomplete="off" placeholder="/home/me/Sync/reel-backup"></div>
              <button id="backup-run" type="submit" class="primary">Back up now</button>
            </form>
            <dl class="facts backup-facts">
              <div><dt>State</dt><dd id="backup-state">…</dd></div>
              <div><dt>Last backup there</dt><dd id="backup-last">…</dd></div>
              <div><dt>Copied</dt><dd id="backup-files"></dd></div>
            </dl>
            <progress id="backup-progress" aria-label="Backup progress" hidden></progress>
            <p id="backup-message" class="message" role="status" aria-live="polite"></p>
            <h3 id="restore-title">Restore</h3>
            <p class="hint">A restore only adds what the library lacks; it never changes or removes anything. It is always checked first.</p>
            <form id="restore-form" class="filter">
              <div class="wide"><label for="restore-folder">Backup to restore from (empty: the folder above)</label>
                <input id="restore-folder" type="text" autocomplete="off"></div>
              <div class="wide"><label for="restore-media">Put restored files in (empty: where they were)</label>
                <input id="restore-media" type="text" autocomplete="off"></div>
              <label class="check"><input id="restore-skip-missing" type="checkbox"> Restore the rest when some files are missing</label>
              <button id="restore-check" type="submit">Check what it adds</button>
              <button id="restore-run" type="button" class="primary" disabled>Restore</button>
            </form>
            <p id="restore-message" class="message" role="status" aria-live="polite"></p>
            <ul id="restore-plan" class="plan" aria-labelledby="restore-title"></ul>
          </section>
          <dialog id="session-dialog" class="session-dialog" aria-labelledby="session-heading">
            <h2 id="session-heading">Session</h2>
            <video id="session-video" controls preload="metadata" width="640" height="360"></video>
            <dl class="facts">
              <div><dt>When</dt><dd id="session-when"></dd></div>
              <div><dt>Time</dt><dd id="session-active"></dd></div>
              <div><dt>Mode</dt><dd id="session-mode"></dd></div>
              <div><dt>File</dt><dd id="session-file"></dd></div>
            </dl>
            <form id="session-form" class="record-form">
              <label for="session-title">Title</label>
              <div class="row">
                <input id="session-title" type="text" maxlength="200" autocomplete="off">
                <button id="session-save" type="submit">Save title</button>
              </div>
              <p class="label" id="session-tags-label">Tags</p>
              <ul id="session-tags" class="chips" aria-labelledby="session-tags-label"></ul>
              <p id="session-no-tags" class="hint">No tags.</p>
              <label for="session-new-tag">Add a tag</label>
              <div class="row">
                <input id="session-new-tag" type="text" list="tag-names" autocomplete="off">
                <datalist id="tag-names"></datalist>
                <button id="session-add-tag" type="button">Add tag</button>
              </div>
              <p id="session-message" class="message" role="status" aria-live="polite"></p>
              <div class="row buttons">
                <button id="session-review" type="button">Review faces and export</button>
                <button id="session-trash" type="button" class="danger">Move to Trash</button>
                <button id="session-close" type="button">Close</button>
              </div>
            </form>
          </dialog>
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

    /// The export job's panel (the review view and the export view each have one; `prefix`
    /// keeps their ids apart, the classes are what `exports.js` fills).
    private static func jobPanel(_ prefix: String) -> String {
        """
        <section id="\(prefix)-panel" class="job" aria-labelledby="\(prefix)-title">
          <h3 id="\(prefix)-title">Current job</h3>
          <dl class="facts job-facts">
            <div><dt>State</dt><dd id="\(prefix)-state" class="job-state">…</dd></div>
            <div><dt>Job</dt><dd id="\(prefix)-label" class="job-label">–</dd></div>
            <div><dt>Progress</dt><dd id="\(prefix)-done" class="job-done">–</dd></div>
            <div><dt>File</dt><dd id="\(prefix)-file" class="job-file">–</dd></div>
          </dl>
          <progress id="\(prefix)-progress" class="job-progress" max="1" value="0" aria-label="Export progress" hidden></progress>
          <div class="row buttons">
            <button id="\(prefix)-stop" type="button" class="job-stop" disabled>Cancel</button>
            <a id="\(prefix)-download" class="job-download button" href="/api/export/file?download=1" download hidden>Download</a>
          </div>
          <p id="\(prefix)-message" class="message job-message" role="status" aria-live="polite"></p>
          <video id="\(prefix)-video" class="job-video" controls preload="metadata" width="640" height="360" aria-label="The exported video" hidden></video>
        </section>
        """
    }

    private static let icon = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="14" fill="#1d4ed8"/>\
        <circle cx="16" cy="16" r="4" fill="#fff"/><circle cx="16" cy="8" r="3" fill="#fff"/><circle cx="16" cy="24" r="3" fill="#fff"/>\
        <circle cx="8" cy="16" r="3" fill="#fff"/><circle cx="24" cy="16" r="3" fill="#fff"/></svg>

        """
}
