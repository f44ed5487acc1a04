#!/usr/bin/env bash
# Reel Studio's library at scale: GET /api/sessions and the library page's first render with
# 1,000 sessions in the library.
#
#   bash bench/studio-library.sh                   # 1000 sessions, 50 requests, 10 + 10 page loads (about 40 s)
#   SESSIONS=5000 REQUESTS=20 RUNS=5 bash bench/studio-library.sh
#
# reel-bench-library (bench/swift, a release build) fills a temporary library
# with SESSIONS sessions over the last year (titles, 0–3 of 13 tags, timelapse and full mixed;
# each with its own thumbnail file, a 640x360 JPEG, all pointing at one real 2 s MP4), runs a
# studio in its own process on loopback, then:
#   - times GET /api/sessions from connect to the body's last byte, a plain socket per request
#     with the token as `Authorization: Bearer`, REQUESTS times after 5 warm-up requests, and
#     checks the answer lists every session (also timed: a tag filter, a month, 20 thumbnails,
#     a video range; and, without HTTP, reading the sessions apart from encoding them);
#   - loads /#library RUNS times in headless chromium (chromedriver; signed in once, about:blank
#     before each load, a reload after it) and reads the page's performance mark
#     `reel-library-rendered` (ms since navigation start), checking that the page drew SESSIONS
#     cards, and when the frame after the mark was drawn.
# Each part reports the rest of the machine's CPU ("other load"): rerun when it is above a few
# CPU-seconds.
# Needs chromium and chromium-driver, and ffmpeg (scripts/packages.txt; `make setup`).
set -euo pipefail

BENCH_NAME=studio-library
sessions=${SESSIONS:-1000}
requests=${REQUESTS:-50}
runs=${RUNS:-10}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
say() { printf '%s: %s\n' "$BENCH_NAME" "$*" >&2; }
fail() { printf '%s: error: %s\n' "$BENCH_NAME" "$*" >&2; exit 1; }
[ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] || fail "chromium and chromium-driver are needed: run 'make setup'"
command -v ffmpeg >/dev/null || fail "ffmpeg is needed: run 'make setup'"

say "building reel-bench-library (release)"
swift build -c release --package-path "$root/bench/swift" --product reel-bench-library >&2
bin="$(swift build -c release --package-path "$root/bench/swift" --show-bin-path)/reel-bench-library"

say "$sessions sessions, $requests requests, $runs page loads"
echo "== studio-library: $sessions sessions, GET /api/sessions and the library page's first render ($(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)) =="
# The API's figures are printed before the page is loaded, so they stay when the page fails.
"$bin" --sessions "$sessions" --requests "$requests" --runs "$runs" || fail "reel-bench-library failed (its reason is above)"
echo "goals (1000 sessions): GET /api/sessions ≤ 50 ms; first render of the library page ≤ 500 ms in headless chromium"
