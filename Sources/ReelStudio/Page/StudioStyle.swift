/// The page's style sheet: system fonts, light and dark from the system's choice, one column
/// at phone width, visible keyboard focus.
enum StudioStyle {
    static let source = """
        :root {
          color-scheme: light dark;
          --bg: #f6f7f9; --fg: #16181d; --muted: #5b6270; --panel: #ffffff; --line: #d9dde4;
          --accent: #1d4ed8; --ok: #15803d; --warn: #b45309; --bad: #b91c1c;
          font-family: system-ui, -apple-system, "Segoe UI", "Noto Sans", sans-serif;
        }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #111318; --fg: #e8eaee; --muted: #a0a7b4; --panel: #1a1d24; --line: #2c313b;
                  --accent: #7aa2ff; --ok: #4ade80; --warn: #fbbf24; --bad: #f87171; }
        }
        * { box-sizing: border-box; }
        [hidden] { display: none !important; }
        body { margin: 0; background: var(--bg); color: var(--fg); line-height: 1.45; }
        .bar { display: flex; align-items: center; gap: 1rem; flex-wrap: wrap; padding: 0.75rem 1.25rem;
               background: var(--panel); border-bottom: 1px solid var(--line); }
        .bar h1 { display: flex; align-items: center; gap: 0.5rem; margin: 0; font-size: 1.25rem; }
        .connection { margin: 0 auto 0 0; color: var(--muted); font-size: 0.9rem; }
        .connection[data-state="live"] { color: var(--ok); }
        .connection[data-state="lost"] { color: var(--warn); }
        main { max-width: 60rem; margin: 0 auto; padding: 1.25rem; }
        .panel { background: var(--panel); border: 1px solid var(--line); border-radius: 0.75rem; padding: 1rem 1.25rem; }
        .panel h2 { margin: 0 0 0.75rem; font-size: 1.05rem; }
        .facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: 0.75rem 1.5rem; margin: 0; }
        .facts dt { color: var(--muted); font-size: 0.85rem; }
        .facts dd { margin: 0; overflow-wrap: anywhere; font-variant-numeric: tabular-nums; }
        button { font: inherit; padding: 0.45rem 0.9rem; border-radius: 0.5rem; border: 1px solid var(--line);
                 background: var(--panel); color: var(--fg); cursor: pointer; }
        button:hover { border-color: var(--accent); }
        :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        .panel + .panel { margin-top: 1.25rem; }
        .record-grid { display: grid; grid-template-columns: minmax(0, 3fr) minmax(15rem, 2fr); gap: 1.25rem; align-items: start; }
        .preview { margin: 0; }
        .picture { position: relative; background: #000; border-radius: 0.5rem; overflow: hidden; aspect-ratio: 16 / 9; }
        .picture img { display: block; width: 100%; height: 100%; object-fit: contain; }
        .picture img:not([src]) { visibility: hidden; }
        .face-box { position: absolute; border: 2px solid #facc15; border-radius: 0.3rem; box-shadow: 0 0 0 1px #000a; pointer-events: none; }
        .face-box[data-kind="upperBody"], .face-box[data-kind="widenedFace"] { border-style: dashed; }
        .preview figcaption { color: var(--muted); font-size: 0.85rem; margin-top: 0.4rem; overflow-wrap: anywhere; }
        .record-form { display: flex; flex-direction: column; gap: 0.35rem; }
        .record-form label, .modes legend { font-size: 0.85rem; color: var(--muted); }
        .record-form input[type=text], .record-form input[type=number], .record-form input[type=url],
        .record-form input[type=password], .record-form select {
          font: inherit; padding: 0.4rem 0.55rem; border-radius: 0.45rem; border: 1px solid var(--line);
          background: var(--bg); color: var(--fg); width: 100%; }
        .modes { border: 0; padding: 0; margin: 0.3rem 0; display: flex; gap: 1rem; }
        .modes label { color: var(--fg); font-size: 1rem; }
        .row { display: flex; gap: 0.5rem; flex-wrap: wrap; }
        .row input { flex: 1; }
        .buttons { margin-top: 0.6rem; }
        button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
        button:disabled { opacity: 0.5; cursor: default; }
        .hint { color: var(--muted); font-size: 0.8rem; margin: 0.3rem 0 0; }
        .recording-facts { margin-top: 1rem; }
        #rec-state[data-state="recording"] { color: var(--bad); font-weight: 600; }
        #rec-state[data-state="paused"], #rec-state[data-state="interrupted"] { color: var(--warn); font-weight: 600; }
        #rec-state[data-state="finished"] { color: var(--ok); }
        .message { min-height: 1.2em; margin: 0.75rem 0 0; font-size: 0.9rem; overflow-wrap: anywhere; }
        .message[data-tone="bad"] { color: var(--bad); }
        .message[data-tone="warn"] { color: var(--warn); }
        .message[data-tone="ok"] { color: var(--ok); }
        .notice { margin-top: 1rem; padding: 0.75rem 1rem; border-left: 4px solid var(--warn); background: var(--panel); }
        .views { display: flex; flex-wrap: wrap; gap: 0.25rem; min-width: 0; }
        .views a { color: var(--fg); text-decoration: none; padding: 0.4rem 0.75rem; border-radius: 0.5rem; }
        .views a[aria-current="page"] { background: var(--accent); color: #fff; }
        .filter { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: end; }
        .filter label, .session-dialog .label { display: block; font-size: 0.85rem; color: var(--muted); margin: 0; }
        .filter select, .filter input { font: inherit; padding: 0.35rem 0.5rem; border-radius: 0.45rem; border: 1px solid var(--line);
                                        background: var(--bg); color: var(--fg); }
        .undo-row { align-items: center; }
        .undo-row .message { margin: 0.5rem 0; }
        .sessions { list-style: none; margin: 0.5rem 0 0; padding: 0; display: grid; gap: 0.9rem;
                    grid-template-columns: repeat(auto-fill, minmax(13rem, 1fr)); }
        .sessions > li { content-visibility: auto; contain-intrinsic-size: auto 16rem; }
        .card { display: flex; flex-direction: column; gap: 0.2rem; width: 100%; height: 100%; padding: 0 0 0.6rem; text-align: left;
                overflow: hidden; border-radius: 0.6rem; }
        .card img, .card .no-picture { width: 100%; height: auto; aspect-ratio: 16 / 9; object-fit: cover; background: #000; }
        .card .no-picture { display: grid; place-items: center; color: #aaa; font-size: 0.85rem; }
        .card-title { font-weight: 600; padding: 0.2rem 0.6rem 0; overflow-wrap: anywhere; }
        .card-facts { color: var(--muted); font-size: 0.8rem; padding: 0 0.6rem; font-variant-numeric: tabular-nums; }
        .card-tags, .chips { display: flex; flex-wrap: wrap; gap: 0.3rem; padding: 0 0.6rem; list-style: none; margin: 0; }
        .chips { padding: 0; }
        .chip { font-size: 0.8rem; padding: 0.1rem 0.5rem; border-radius: 1rem; background: var(--bg); border: 1px solid var(--line);
                display: inline-flex; align-items: center; gap: 0.2rem; }
        .chip button { padding: 0 0.3rem; border: 0; background: none; }
        .session-dialog { width: min(46rem, 96vw); border: 1px solid var(--line); border-radius: 0.75rem; background: var(--panel);
                          color: var(--fg); padding: 1rem 1.25rem; }
        .session-dialog::backdrop { background: #0008; }
        .session-dialog video { display: block; width: 100%; height: auto; aspect-ratio: 16 / 9; background: #000; border-radius: 0.5rem;
                                margin-bottom: 0.75rem; }
        .session-dialog .label { margin-top: 0.4rem; }
        .stats-controls { align-items: center; }
        .stats-controls .modes { margin: 0 0.75rem 0 0; }
        .range { font-variant-numeric: tabular-nums; min-width: 13rem; text-align: center; }
        .chart { display: block; width: 100%; height: auto; margin: 0.75rem 0; border-radius: 0.5rem; }
        .days table { border-collapse: collapse; margin-top: 0.5rem; font-variant-numeric: tabular-nums; }
        .days th, .days td { text-align: left; padding: 0.2rem 0.9rem 0.2rem 0; border-bottom: 1px solid var(--line); }
        .goal-form { margin-top: 1rem; }
        .scan-preview { display: block; width: min(100%, 32rem); height: auto; margin-top: 0.75rem; border-radius: 0.5rem; background: #000; }
        .materials-list { list-style: none; margin: 0.5rem 0 0; padding: 0; display: grid; gap: 0.9rem;
                          grid-template-columns: repeat(auto-fill, minmax(18rem, 1fr)); }
        .material { display: flex; gap: 0.75rem; align-items: flex-start; border: 1px solid var(--line); border-radius: 0.6rem; padding: 0.6rem; }
        .material img, .material .no-cover { width: 4.5rem; height: auto; aspect-ratio: 96 / 136; object-fit: cover; border-radius: 0.3rem;
                                             background: var(--bg); flex: none; }
        .material .no-cover { display: grid; place-items: center; color: var(--muted); font-size: 0.75rem; border: 1px dashed var(--line); }
        .material p { margin: 0 0 0.3rem; }
        .material .card-title, .material .card-facts { padding: 0; }
        .filter .wide { flex: 1 1 20rem; }
        .filter .wide input { width: 100%; }
        .filter .check { display: flex; gap: 0.4rem; align-items: center; color: var(--fg); font-size: 0.9rem; }
        .backup h3 { font-size: 1rem; margin: 1.5rem 0 0.25rem; }
        .backup-facts { margin-top: 1rem; }
        #backup-progress { width: 100%; height: 0.8rem; margin-top: 0.75rem; }
        .plan { margin: 0.5rem 0 0; padding-left: 1.25rem; font-size: 0.9rem; overflow-wrap: anywhere; }
        button.danger { color: var(--bad); border-color: var(--bad); }
        a.button { display: inline-block; padding: 0.45rem 0.9rem; border-radius: 0.5rem; border: 1px solid var(--accent);
                   color: var(--accent); text-decoration: none; }
        .review h3, .exports h3 { font-size: 1rem; margin: 1.25rem 0 0.4rem; }
        .back { margin: 0 0 0.5rem; }
        .back a { color: var(--accent); }
        .review > h2:focus, .review > h2:focus-visible { outline: none; }
        .timeline { position: relative; height: calc(var(--rows, 1) * 2.4rem + 0.4rem); margin: 0.25rem 0 0;
                    background: var(--bg); border: 1px solid var(--line); border-radius: 0.5rem; }
        .segment { position: absolute; top: calc(var(--row, 0) * 2.4rem + 0.2rem); height: 2.2rem; min-width: 1.6rem; padding: 0 0.2rem;
                   overflow: hidden; font-size: 0.75rem; font-variant-numeric: tabular-nums; border-radius: 0.3rem;
                   background: #facc15; border-color: #a16207; color: #1c1917; }
        .segment[data-disabled="true"] { background: #94a3b8; border-color: #475569; color: #0f172a; }
        .segment[aria-pressed="true"] { z-index: 1; box-shadow: 0 0 0 3px var(--accent); font-weight: 700; }
        .segment:focus-visible { z-index: 2; }
        .review-grid { display: grid; grid-template-columns: minmax(0, 3fr) minmax(14rem, 2fr); gap: 1.25rem; align-items: start;
                       margin-top: 1rem; }
        .review-figure { margin: 0; }
        .review-figure figcaption { color: var(--muted); font-size: 0.85rem; margin-top: 0.4rem; }
        .stage { position: relative; width: min(100%, calc(70vh * var(--ratio, 1.7778))); aspect-ratio: var(--ratio, 16 / 9);
                 margin: 0 auto; background: #000; border-radius: 0.5rem; overflow: hidden; }
        .stage img { display: block; width: 100%; height: 100%; object-fit: fill; }
        .stage img:not([src]), .rendered:not([src]) { visibility: hidden; }
        .review-box { position: absolute; padding: 0; margin: 0; background: transparent; border: 2px solid #facc15; border-radius: 0.2rem;
                      box-shadow: 0 0 0 1px #000a; cursor: move; touch-action: none; user-select: none; }
        .review-box[data-disabled="true"] { border: 2px dashed #7c93b8; }
        .review-box:hover { border-color: #fde047; }
        .review-box:focus-visible { outline: 3px solid #fff; outline-offset: 1px; box-shadow: 0 0 0 5px #000; }
        .handle { position: absolute; width: 1rem; height: 1rem; background: #fff; border: 2px solid #1c1917; border-radius: 0.15rem;
                  touch-action: none; }
        .handle[data-corner="nw"] { left: -0.55rem; top: -0.55rem; cursor: nwse-resize; }
        .handle[data-corner="ne"] { right: -0.55rem; top: -0.55rem; cursor: nesw-resize; }
        .handle[data-corner="sw"] { left: -0.55rem; bottom: -0.55rem; cursor: nesw-resize; }
        .handle[data-corner="se"] { right: -0.55rem; bottom: -0.55rem; cursor: nwse-resize; }
        .review-controls fieldset { border: 1px solid var(--line); border-radius: 0.5rem; padding: 0.6rem 0.8rem; margin: 0;
                                    display: flex; flex-direction: column; gap: 0.35rem; min-width: 0; }
        .review-controls legend { font-size: 0.9rem; color: var(--fg); padding: 0 0.3rem; overflow-wrap: anywhere; }
        .review-controls .check, .exports .check { display: flex; gap: 0.4rem; align-items: center; color: var(--fg); font-size: 1rem; }
        .review-controls input[type=file] { font: inherit; font-size: 0.85rem; max-width: 100%; }
        .strip { display: grid; grid-template-columns: repeat(5, minmax(0, 1fr)); gap: 0.4rem; }
        .strip-frame { padding: 0; overflow: hidden; border-radius: 0.4rem; background: #000; line-height: 0; }
        .strip-frame img { display: block; width: 100%; height: auto; aspect-ratio: var(--ratio, 16 / 9); object-fit: contain; }
        .strip-frame[aria-pressed="true"] { border: 2px solid var(--accent); }
        .rendered { display: block; width: min(100%, calc(70vh * var(--ratio, 1.7778))); height: auto; aspect-ratio: var(--ratio, 16 / 9);
                    margin: 0 auto; background: #000; border-radius: 0.5rem; }
        .job { margin-top: 1rem; padding: 0.75rem 1rem; border: 1px solid var(--line); border-radius: 0.6rem; background: var(--bg); }
        .job h3 { margin-top: 0; }
        .job-state[data-state="running"] { color: var(--accent); font-weight: 600; }
        .job-state[data-state="finished"] { color: var(--ok); }
        .job-state[data-state="failed"] { color: var(--bad); font-weight: 600; }
        .job-state[data-state="stopped"] { color: var(--warn); }
        .job-progress { width: 100%; height: 0.8rem; margin-top: 0.75rem; }
        .job .buttons { align-items: center; }
        .job-video { display: block; width: 100%; height: auto; max-height: 70vh; margin-top: 0.75rem; background: #000; border-radius: 0.5rem; }
        .live-grid { display: grid; grid-template-columns: minmax(15rem, 2fr) minmax(0, 3fr); gap: 1.25rem; align-items: start;
                     margin-top: 0.75rem; }
        .live-form .hint { margin: 0 0 0.35rem; }
        .live-file { display: flex; flex-direction: column; gap: 0.35rem; }
        .live .check { display: flex; gap: 0.4rem; align-items: center; color: var(--fg); font-size: 1rem; }
        .live-form input:disabled, .live-form select:disabled { opacity: 0.6; }
        .live-status { padding: 0.75rem 1rem; border: 1px solid var(--line); border-radius: 0.6rem; background: var(--bg); min-width: 0; }
        .live-status h3 { font-size: 1rem; margin: 0 0 0.6rem; }
        .live-status h4 { font-size: 0.9rem; margin: 1rem 0 0.3rem; color: var(--muted); }
        .facts .whole { grid-column: 1 / -1; }
        .live-copy-row { align-items: center; }
        .live-copy-row code { overflow-wrap: anywhere; min-width: 0; }
        .copy-note { font-size: 0.85rem; }
        .copy-note[data-tone="ok"] { color: var(--ok); }
        .live-viewer { margin: 0.75rem 0 0; }
        .live-viewer a { color: var(--accent); }
        .live-warnings { color: var(--warn); }
        .live-lines { margin: 0; padding: 0.5rem 0.6rem; font-size: 0.8rem; white-space: pre-wrap; overflow-wrap: anywhere;
                      background: var(--panel); border: 1px solid var(--line); border-radius: 0.4rem; }
        #live-state[data-state="live"] { color: var(--bad); font-weight: 600; }
        #live-state[data-state="starting"], #live-state[data-state="stopping"] { color: var(--warn); font-weight: 600; }
        #live-state[data-state="finished"] { color: var(--ok); }
        #live-state[data-state="failed"] { color: var(--bad); font-weight: 600; }
        .overlay-grid { display: grid; grid-template-columns: minmax(0, 3fr) minmax(14rem, 1fr); gap: 1.25rem; align-items: start; }
        .overlay-previews { display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-start; }
        .overlay-figure { margin: 0; }
        .overlay-figure figcaption { margin-top: 0.4rem; display: flex; gap: 0.6rem; align-items: center; flex-wrap: wrap; }
        .overlay-stage { position: relative; width: 18rem; aspect-ratio: 3 / 4; background: #000; overflow: hidden; touch-action: none;
          border-radius: 0.4rem; outline: 2px solid transparent; }
        .overlay-stage[data-chosen=true] { outline-color: var(--accent); }
        .overlay-stage[data-mask=circle] { clip-path: circle(closest-side); border-radius: 0; }
        .overlay-camera { display: block; width: 100%; height: 100%; object-fit: fill; }
        .overlay-camera:not([src]) { visibility: hidden; }
        .overlay-art { position: absolute; left: 0; top: 0; transform-origin: 0 0; object-fit: fill; cursor: move; user-select: none;
          touch-action: none; }
        .overlay-turn { position: absolute; width: 1.1rem; height: 1.1rem; margin: -0.55rem 0 0 -0.55rem; border-radius: 50%;
          background: var(--accent); border: 2px solid #fff; cursor: grab; touch-action: none; }
        .overlay-anchors { display: grid; grid-template-columns: repeat(3, 2rem); gap: 0.25rem; border: 0; padding: 0; margin: 0.4rem 0; }
        .overlay-anchors legend { margin-bottom: 0.3rem; }
        .overlay-anchors button { width: 2rem; height: 2rem; padding: 0; }
        .overlay-anchors button[aria-pressed=true], .overlay-asset button[aria-pressed=true] { background: var(--accent); color: #fff; }
        .cinematic-grid { display: grid; grid-template-columns: minmax(0, 3fr) minmax(14rem, 1fr); gap: 1.25rem; align-items: start; }
        .cinematic-figure { margin: 0; }
        .cinematic-stage { position: relative; width: 100%; max-width: 48rem; aspect-ratio: 16 / 9; background: #000; overflow: hidden;
          border-radius: 0.4rem; touch-action: none; user-select: none; cursor: crosshair; }
        .cinematic-camera { display: block; width: 100%; height: 100%; object-fit: fill; }
        img.cinematic-camera:not([src]) { visibility: hidden; }
        .cinematic-boxes { position: absolute; inset: 0; pointer-events: none; }
        .cinematic-boxes.editing { pointer-events: auto; }
        .cinematic-box { position: absolute; box-sizing: border-box; border: 2px dashed rgba(255, 214, 0, 0.55); pointer-events: none; }
        .cinematic-box[data-style=strong] { border-style: solid; }
        .cinematic-box[data-focused=true] { border-color: #ffd600; box-shadow: 0 0 0 1px rgba(0, 0, 0, 0.5); }
        .cinematic-box span { position: absolute; left: 0; top: -1.3rem; font-size: 0.75rem; color: #fff; background: rgba(0, 0, 0, 0.55);
          padding: 0 0.3rem; border-radius: 0.2rem; white-space: nowrap; }
        .cinematic-light { position: absolute; right: 0.5rem; top: 0.5rem; margin: 0; padding: 0.2rem 0.5rem; border-radius: 0.3rem;
          background: rgba(180, 0, 0, 0.85); color: #fff; font-weight: 600; font-size: 0.85rem; }
        .cinematic-rec { position: absolute; left: 0.5rem; top: 0.5rem; margin: 0; padding: 0.2rem 0.5rem; border-radius: 0.3rem;
          background: rgba(200, 0, 0, 0.85); color: #fff; font-weight: 700; font-size: 0.8rem; }
        .cinematic-editor { margin: 1rem 0; padding: 1rem; border: 1px solid var(--line); border-radius: 0.4rem; }
        .cinematic-timeline { position: relative; height: 0.8rem; margin: 0.4rem 0; background: rgba(127, 127, 127, 0.25); border-radius: 0.2rem; }
        .cinematic-mark { position: absolute; top: 0; width: 3px; height: 100%; margin-left: -1px; background: var(--accent); }
        .cinematic-keyframes { margin: 0.4rem 0; padding-left: 1.4rem; }
        .cinematic-clips { list-style: none; padding: 0; margin: 0.5rem 0; display: flex; flex-direction: column; gap: 0.4rem; }
        .cinematic-clip { display: flex; gap: 0.75rem; align-items: center; flex-wrap: wrap; }
        .cinematic-clip a { overflow-wrap: anywhere; color: var(--accent); }
        .overlay-shelf, .overlay-gallery { list-style: none; padding: 0; margin: 0.5rem 0; display: grid; gap: 0.75rem;
          grid-template-columns: repeat(auto-fill, minmax(9rem, 1fr)); }
        .overlay-asset, .overlay-photo { display: flex; flex-direction: column; gap: 0.3rem; position: relative; min-width: 0; }
        .overlay-asset img { width: 100%; aspect-ratio: 1; object-fit: contain; border-radius: 0.3rem;
          background: repeating-conic-gradient(#ccc 0 25%, #fff 0 50%) 0 0 / 1rem 1rem; }
        .overlay-photo img { width: 100%; aspect-ratio: 3 / 4; object-fit: cover; border-radius: 0.3rem; background: #000; }
        .overlay-photo a { overflow-wrap: anywhere; font-size: 0.85rem; color: var(--accent); }
        .overlay-photo .badge { position: absolute; top: 0.3rem; left: 0.3rem; padding: 0.05rem 0.35rem; border-radius: 0.25rem;
          background: rgba(0, 0, 0, 0.7); color: #fff; font-size: 0.75rem; font-weight: 600; }
        #overlay-cutout img { display: block; max-width: min(80vw, 40rem); max-height: 70vh; height: auto; cursor: crosshair; }
        @media (max-width: 30rem) {
          .bar { padding: 0.6rem 0.9rem; }
          main { padding: 0.9rem; }
          .facts { grid-template-columns: 1fr; }
          .strip { gap: 0.2rem; }
          .views { flex: 1 1 100%; }
          .views a { padding: 0.4rem 0.55rem; }
        }
        @media (max-width: 48rem) {
          .record-grid, .review-grid, .live-grid, .overlay-grid, .cinematic-grid { grid-template-columns: 1fr; }
        }

        """
}
