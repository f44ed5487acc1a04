#!/usr/bin/env bash
# Reel Studio's live preview latency: capture → drawn in the page, in headless chromium.
#
#   bash bench/studio-latency.sh              # 30 s idle preview, then 30 s while recording
#   SECONDS_TO_RUN=10 bash bench/studio-latency.sh
#
# reel-bench-preview (bench/swift, a release build) runs a studio in-process on
# loopback with the test pattern 640x360@15, which draws each frame's number as a 24-cell
# strip; it notes each frame's capture time (monotonic clock), opens the page in chromium
# (chromedriver), and a script in the page reads the strip from the preview on every
# animation frame and notes when each new number was first drawn (Date.now()). Both clocks are
# this machine's; their offset is read at the start. Prints p50 / p95 / max of drawn −
# captured over every frame drawn, and how many of the captured frames were drawn (the preview
# takes at most 15 a second and drops freely). Detection runs once per animation frame, so a
# figure may be up to one display frame (16.7 ms at 60 Hz) late.
# Needs chromium and chromium-driver (scripts/packages.txt; `make setup`).
set -euo pipefail

BENCH_NAME=studio-latency
seconds=${SECONDS_TO_RUN:-30}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
say() { printf '%s: %s\n' "$BENCH_NAME" "$*" >&2; }
fail() { printf '%s: error: %s\n' "$BENCH_NAME" "$*" >&2; exit 1; }
[ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] || fail "chromium and chromium-driver are needed: run 'make setup'"

say "building reel-bench-preview (release)"
swift build -c release --package-path "$root/bench/swift" --product reel-bench-preview >&2
bin="$(swift build -c release --package-path "$root/bench/swift" --show-bin-path)/reel-bench-preview"

say "idle preview, $seconds s"
idle=$("$bin" --seconds "$seconds")
say "preview of a recording (timelapse, 1280x720), $seconds s"
recording=$("$bin" --seconds "$seconds" --record)

echo "== studio-latency: preview capture → drawn ($(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)) =="
printf '%s\n%s\n' "$idle" "$recording"
echo "goal: p95 ≤ 150 ms at 640 px wide"
