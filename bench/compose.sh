#!/usr/bin/env bash
# The export compositor's pixel work per 1080p frame (ReelCompose), and ffmpeg's filters for a
# comparable job as a reference.
#
#   bash bench/compose.sh                   # 300 frames (Reel), 1500 (ffmpeg), 3 ffmpeg runs
#   FRAMES=600 FFMPEG_FRAMES=3000 RUNS=5 bash bench/compose.sh
#
# (a) reel-bench-compose (bench/swift, a release build): on a 1920x1080 yuv420p
#     picture, one face mosaic (300x400 px box drifting as an interpolated track does; block
#     58 px, elliptical soft mask), the caption "勉強時間 H:MM:SS · 2026-11-30" (Noto Sans CJK,
#     re-rendered when its text changes: every 30th frame) and a 320x120 watermark. Prints
#     median / p95 / mean milliseconds per frame over FRAMES frames (the picture is restored
#     between frames, outside the timing).
# (b) ffmpeg, single filter thread: testsrc2 1080p → split, crop 300x400, pixelize 58x58,
#     overlay (a rectangle: no soft elliptical mask, so less work than Reel's), drawtext with
#     the same font and a box, overlay of the same-sized watermark PNG → null. The same source
#     without filters is run too; (CPU-s with filters − CPU-s without) / FRAMES is ffmpeg's
#     filter cost per frame. Medians over RUNS runs of FFMPEG_FRAMES frames (more than Reel's:
#     /usr/bin/time counts CPU in 10 ms steps).
# The result block goes to stdout; progress to stderr.
set -euo pipefail

BENCH_NAME=compose
frames=${FRAMES:-300}
runs=${RUNS:-3}
ffmpeg_frames=${FFMPEG_FRAMES:-1500}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
say() { printf '%s: %s\n' "$BENCH_NAME" "$*" >&2; }
fail() { printf '%s: error: %s\n' "$BENCH_NAME" "$*" >&2; exit 1; }
command -v ffmpeg >/dev/null || fail "ffmpeg is not installed: run 'make setup'"
[ -x /usr/bin/time ] || fail "/usr/bin/time is missing (Debian package 'time'): run 'make setup'"

work=$(mktemp -d "${TMPDIR:-/tmp}/reel-bench-compose.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

say "building reel-bench-compose (release)"
swift build -c release --package-path "$root/bench/swift" --product reel-bench-compose >&2
bin="$(swift build -c release --package-path "$root/bench/swift" --show-bin-path)/reel-bench-compose"

say "timing Reel's compositor over $frames frames"
reel_out=$("$bin" --frames "$frames")

font=$(fc-match -f '%{file}' 'Noto Sans CJK JP:lang=ja' 2>/dev/null || true)
[ -f "$font" ] || font=/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
[ -f "$font" ] || fail "Noto Sans CJK not found: install fonts-noto-cjk"
printf '勉強時間 1:23:45 · 2026-11-30' >"$work/caption.txt"
ffmpeg -v error -y -f lavfi -i "color=c=white@0.78:s=320x120,format=rgba" -frames:v 1 "$work/wm.png"

src="testsrc2=size=1920x1080:rate=30,format=yuv420p"
graph="[0:v]split[base][face];[face]crop=300:400:810:340,pixelize=w=58:h=58[mos];[base][mos]overlay=810:340[m];\
[m]drawtext=fontfile=$font:textfile=$work/caption.txt:fontsize=38:fontcolor=white:box=1:boxcolor=black@0.55:boxborderw=10:x=27:y=h-th-37[c];\
[1:v]format=rgba[wm];[c][wm]overlay=W-w-27:H-h-27,format=yuv420p"

cpu() {  # cpu FILE: user+sys seconds from /usr/bin/time -f '%U %S'
    awk 'END { printf "%.3f", $1 + $2 }' "$1"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

plain=() filtered=()
for i in $(seq 1 "$runs"); do
    say "ffmpeg run $i/$runs"
    /usr/bin/time -f '%U %S' -o "$work/plain.txt" ffmpeg -nostdin -v error -filter_threads 1 -f lavfi -i "$src" \
        -i "$work/wm.png" -frames:v "$ffmpeg_frames" -map 0:v -f null -
    /usr/bin/time -f '%U %S' -o "$work/filtered.txt" ffmpeg -nostdin -v error -filter_threads 1 -filter_complex_threads 1 \
        -f lavfi -i "$src" -i "$work/wm.png" -filter_complex "$graph" -frames:v "$ffmpeg_frames" -f null -
    plain+=("$(cpu "$work/plain.txt")")
    filtered+=("$(cpu "$work/filtered.txt")")
done
plain_median=$(printf '%s\n' "${plain[@]}" | median)
filtered_median=$(printf '%s\n' "${filtered[@]}" | median)
ffmpeg_ms=$(awk -v a="$filtered_median" -v b="$plain_median" -v n="$ffmpeg_frames" 'BEGIN { printf "%.3f", (a - b) * 1000 / n }')
reel_ms=$(printf '%s\n' "$reel_out" | awk '/^mosaic\+caption\+watermark/ { print $3 }')

echo "== compose: export compositor per 1080p frame ($(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)) =="
printf '%s\n' "$reel_out"
echo "ffmpeg filters (rect pixelize + drawtext + overlay), CPU per frame: $ffmpeg_ms ms (CPU-s with $filtered_median, without $plain_median, $ffmpeg_frames frames, median of $runs)"
awk -v r="$reel_ms" -v f="$ffmpeg_ms" 'BEGIN { if (f > 0) printf "ratio Reel median / ffmpeg: %.2f (below 1: Reel is cheaper)\n", r / f }'
