/// The viewer's style sheet (served at `/viewer.css`): dark by default, light when the
/// system asks; the player beside the list on wide screens, above it on narrow ones.
enum ViewerStyle {
    static let source = #"""
        :root {
          --bg: #0f1115; --panel: #181b22; --text: #e8eaf0; --muted: #9aa1b2; --line: #2a2f3a;
          --live: #e5484d; --ended: #6e7687; --waiting: #d39e2f; --error: #b3261e; --accent: #5b8def;
          color-scheme: dark light;
        }
        @media (prefers-color-scheme: light) {
          :root { --bg: #f5f6f8; --panel: #ffffff; --text: #16181d; --muted: #5d6475; --line: #dde0e6; }
        }
        * { box-sizing: border-box; }
        html, body { margin: 0; }
        body { background: var(--bg); color: var(--text); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; min-height: 100vh; }
        a { color: var(--accent); }
        code { font: 13px ui-monospace, "DejaVu Sans Mono", monospace; }
        .bar { display: flex; align-items: center; gap: .75rem; flex-wrap: wrap; padding: .75rem 1.25rem; border-bottom: 1px solid var(--line); background: var(--panel); }
        .brand { font-weight: 700; letter-spacing: .02em; color: var(--text); text-decoration: none; font-size: 1.1rem; }
        .state { font-weight: 700; font-size: .8rem; letter-spacing: .08em; padding: .15rem .6rem; border-radius: 999px; color: #fff; background: var(--waiting); }
        .state-live { background: var(--live); }
        .state-live::before { content: ""; display: inline-block; width: .5rem; height: .5rem; margin-right: .4rem; border-radius: 50%; background: #fff; animation: pulse 1.6s infinite; vertical-align: .05rem; }
        .state-ended { background: var(--ended); }
        .state-server-error { background: var(--error); }
        @keyframes pulse { 50% { opacity: .25; } }
        .stream-name { font-weight: 600; }
        .behind { color: var(--muted); font-variant-numeric: tabular-nums; }
        .go-live { margin-left: auto; font: inherit; font-weight: 600; color: #fff; background: var(--live); border: 0; border-radius: 6px; padding: .3rem .8rem; cursor: pointer; }
        .layout { display: grid; grid-template-columns: minmax(0, 1fr) 20rem; gap: 1.25rem; padding: 1.25rem; max-width: 90rem; margin: 0 auto; }
        @media (max-width: 56rem) { .layout { grid-template-columns: minmax(0, 1fr); padding: .75rem; } }
        .screen { position: relative; background: #000; border-radius: 10px; overflow: hidden; display: flex; align-items: center; justify-content: center; min-height: 14rem; }
        video { display: block; width: 100%; max-height: calc(100vh - 9rem); background: #000; }
        .notice { position: absolute; inset: 0; display: flex; align-items: center; justify-content: center; padding: 2rem; text-align: center; color: #c9cdd6; background: rgba(0, 0, 0, .72); }
        .notice[hidden] { display: none; }
        .detail { color: var(--muted); margin: .6rem .2rem 0; min-height: 1.5em; }
        .recent { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 1rem; align-self: start; }
        .recent h2 { font-size: .85rem; text-transform: uppercase; letter-spacing: .08em; color: var(--muted); margin: 0 0 .6rem; }
        .streams { list-style: none; margin: 0; padding: 0; }
        .streams li { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: .1rem .5rem; padding: .5rem .4rem; border-top: 1px solid var(--line); }
        .streams li:first-child { border-top: 0; }
        .streams li.current { background: color-mix(in srgb, var(--accent) 14%, transparent); border-radius: 6px; }
        .streams li.empty { display: block; color: var(--muted); }
        .streams a { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-weight: 600; text-decoration: none; }
        .streams .meta { grid-column: 1 / -1; color: var(--muted); font-size: .85rem; }
        .tag { font-size: .7rem; font-weight: 700; text-transform: uppercase; letter-spacing: .06em; padding: 0 .45rem; border-radius: 999px; align-self: center; color: #fff; background: var(--ended); }
        .tag-live { background: var(--live); }
        .tag-idle { background: var(--waiting); }
        .hint { color: var(--muted); font-size: .85rem; margin: .8rem 0 0; }

        """#
}
