#!/usr/bin/env bash
# Glass-to-glass latency of live HLS: from the moment the test source makes a
# picture to the moment a browser shows it, through the whole chain a viewer sees: x264, fMP4
# cuts, PUTs to reel serve, playlist polls, hls.js 1.6.15 in headless chromium.
#
#   bash bench/glass-to-glass.sh                         # regular HLS, then LL-HLS, 60 s each
#   SECONDS_TO_RUN=20 MODES=low-latency bash bench/glass-to-glass.sh
#   SOURCE=1280x720@30 QUALITY=medium LIVE_ARGS="--privacy mosaic" bash bench/glass-to-glass.sh
#
# For each mode, reel serve runs on a free loopback port and reel live publishes
# --source test:WxH@FPS (SOURCE, default 640x360@30; --landscape --quality QUALITY, default low:
# 854x480 at 0.9 Mbps; LIVE_ARGS adds options) for SECONDS_TO_RUN (60) + WARMUP (10) seconds; the test source draws the wall-clock
# milliseconds at which it made each picture into the picture (Sources/ReelMedia/Sources/
# TestPattern.swift). bench/glass_to_glass.py opens Tests/Fixtures/hlsjs-g2g in chromium
# (chromedriver), where hls.js plays the stream; on every picture presented
# (requestVideoFrameCallback) the page draws the video into a canvas, reads that strip and
# notes Date.now() − capture time. The first WARMUP seconds of playing are left out (the
# player's start), the next SECONDS_TO_RUN are measured. Same machine, same clock: no offset.
# Detection runs once per presented picture, so a figure may be up to one display frame late.
#
# Modes: regular (hls.js lowLatencyMode false), low-latency (reel live --low-latency and
# lowLatencyMode true; says so and goes on when this reel live has no --low-latency).
# Goals: regular p50 ≤ 6 s, low-latency p50 ≤ 2 s.
# Needs chromium, chromium-driver and hls.js (make setup: scripts/fetch-hlsjs.sh).
BENCH_NAME=glass-to-glass
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

seconds=${SECONDS_TO_RUN:-60}
warmup=${WARMUP:-10}
modes=${MODES:-regular low-latency}
source_size=${SOURCE:-640x360@30}
quality=${QUALITY:-low}
read -r -a extra_live_args <<< "${LIVE_ARGS:-}"
machine=$(machine_line)

[ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] || fail "chromium and chromium-driver are needed: run 'make setup'"
cache_home="${XDG_CACHE_HOME:-}"
case "$cache_home" in /*) ;; *) cache_home="$HOME/.cache" ;; esac
hlsjs="${REEL_HLSJS:-$cache_home/reel/hlsjs/hls-1.6.15.mjs}"
[ -f "$hlsjs" ] || fail "hls.js is missing ($hlsjs): run 'make setup' or 'bash scripts/fetch-hlsjs.sh'"

serve_pid=""
live_pid=""
stop_children() {
    stop_pids "$live_pid" "$serve_pid"
    live_pid=""
    serve_pid=""
}
trap 'st=$?; stop_children; set +e; (exit $st); bench_cleanup' EXIT

# start_serve DIR: reel serve on a free loopback port with its own data folder and token.
start_serve() {
    local dir=$1
    mkdir -p "$dir"
    head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$dir/token"
    chmod 600 "$dir/token"
    port=$(free_port)
    "$reel" serve --host 127.0.0.1 --port "$port" --data "$dir/data" --token-file "$dir/token" --access-log none \
        > "$dir/serve.log" 2>&1 &
    serve_pid=$!
    for _ in $(seq 1 100); do
        curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
        sleep 0.1
    done
    curl -fsS "http://127.0.0.1:$port/health" >/dev/null || fail "reel serve did not start: $(cat "$dir/serve.log")"
    origin="http://127.0.0.1:$port/"
}

# wait_for_playlist URL LOG: until the origin serves the playlist, or reel live has ended.
wait_for_playlist() {
    for _ in $(seq 1 200); do
        curl -fsS -o /dev/null "$1" 2>/dev/null && return 0
        kill -0 "$live_pid" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}

# run_mode MODE: one measurement; the page's summary as JSON in $work/MODE.json.
run_mode() {
    local mode=$1 dir="$work/$1" live_args=() page_args=()
    case "$mode" in
        regular) ;;
        low-latency) live_args=(--low-latency); page_args=(--low-latency) ;;
        *) fail "unknown mode '$mode' (regular, low-latency)" ;;
    esac
    start_serve "$dir"
    local total=$((seconds + warmup + 5))
    live_args+=("${extra_live_args[@]}")
    say "$mode: reel live --source test:$source_size --quality $quality ${live_args[*]} → $origin for $total s; hls.js plays it"
    "$reel" live --source "test:$source_size" --landscape --quality "$quality" --origin "$origin" --token "$(cat "$dir/token")" \
        --stream-id g2g --no-archive --duration "$total" --quiet "${live_args[@]}" > "$dir/live.log" 2>&1 &
    live_pid=$!
    local playlist="${origin}streams/g2g/playlist.m3u8"
    if ! wait_for_playlist "$playlist"; then
        wait "$live_pid" 2>/dev/null || true
        live_pid=""
        if grep -q -- "--low-latency" "$dir/live.log"; then
            say "$mode: this reel live does not take --low-latency yet: $(head -n 2 "$dir/live.log" | tr '\n' ' ')"
        else
            say "$mode: reel live published no playlist: $(tail -n 3 "$dir/live.log" | tr '\n' ' ')"
        fi
        echo '{"skipped": true}' > "$work/$mode.json"
        stop_children
        return 0
    fi
    "$py" "$bench_dir/glass_to_glass.py" --playlist "$playlist" --hlsjs "$hlsjs" --seconds "$((seconds + warmup))" \
        "${page_args[@]}" > "$work/$mode.json" || fail "$mode: the page could not be read"
    wait "$live_pid" 2>/dev/null || say "$mode: reel live ended with an error: $(tail -n 3 "$dir/live.log" | tr '\n' ' ')"
    live_pid=""
    stop_children
}

# report MODE: one line from the page's summary, the first WARMUP seconds of samples left out.
report() {
    "$py" - "$work/$1.json" "$1" "$warmup" <<'PY'
import json, sys
path, mode, warmup = sys.argv[1], sys.argv[2], float(sys.argv[3])
r = json.load(open(path))
if r is None or r.get("skipped"):
    print(f"{mode:12s} not measured (see above)")
    sys.exit(0)
samples = r.get("sampleList") or []
at = r.get("sampleAt") or []
# Leave out the pictures of the first WARMUP seconds after the first one (the player's start).
start = (at[0] if at else 0) + warmup * 1000
kept = sorted(s for s, t in zip(samples, at) if t >= start)
def pct(p):
    import math
    return kept[min(len(kept) - 1, max(0, math.ceil(p / 100 * len(kept)) - 1))] / 1000 if kept else float("nan")
hls = sorted(s["latency"] for s in r.get("hlsLatency") or [])
hls_p50 = hls[len(hls) // 2] if hls else float("nan")
print(f"{mode:12s} glass-to-glass p50 {pct(50):.2f} s  p95 {pct(95):.2f} s  max {pct(100):.2f} s  "
      f"(min {kept[0] / 1000 if kept else float('nan'):.2f} s; {len(kept)} pictures measured, {r.get('frames')} shown in all, "
      f"first after {(r.get('firstPictureAfterMs') or 0) / 1000:.1f} s); hls.js latency p50 {hls_p50:.2f} s, "
      f"target {r.get('targetLatency')}; errors {r.get('errors')} ({', '.join(r.get('errorDetails') or []) or 'none'}), "
      f"fatal {len(r.get('fatalErrors') or [])}, stalls {r.get('stalls')}, level switches {r.get('levelSwitches')}, "
      f"playlist loads {r.get('playlistLoads')} ({r.get('playlistLoadsWithDirectives')} with _HLS_ directives), "
      f"unreadable {r.get('unreadable')}, implausible {r.get('implausible')}, {r.get('size')}")
PY
}

for mode in $modes; do run_mode "$mode"; done

echo "== glass-to-glass: test:$source_size → reel live ($quality${LIVE_ARGS:+ $LIVE_ARGS}) → reel serve → hls.js $(basename "$hlsjs" .mjs | sed 's/^hls-//') in chromium, $seconds s measured after $warmup s ($(date -u +%Y-%m-%dT%H:%MZ)) =="
echo "$machine; $(reel_version)"
for mode in $modes; do report "$mode"; done
echo "goals: regular p50 ≤ 6 s; low-latency p50 ≤ 2 s"
