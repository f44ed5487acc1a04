#!/usr/bin/env bash
# Runs the benchmarks in order and prints their result blocks together at the end:
#   1. bench/realtime.sh        5 min real-time run with the HEVC archive
#   2. bench/fast-vs-ffmpeg.sh  throughput against one ffmpeg command (3 runs each)
#   3. bench/latency.sh         publish latency against ffmpeg (5 min each)
#   4. bench/origin-vs-nginx.sh reel serve against nginx with wrk (about 1.5 min)
#   5. bench/viewers.sh         publish latency to reel serve, idle and with 500 viewers (about 2.5 min)
#   6. bench/record.sh          reel record: timelapse CPU against ffmpeg, full mode 1080p30 (5 x 5 min)
#   7. bench/detector.sh        face detectors per 0.2 s tick at 1080p (about 1 min)
#   8. bench/compose.sh         export compositing per 1080p picture against ffmpeg's filters (about 1 min)
#   9. bench/export.sh          reel export against one ffmpeg filter graph at 1080p (about 1 min)
#  10. bench/deface.sh          reel export against deface on the 720p privacy clips (about 2 min; pip install the first time)
#  11. bench/backup.sh          reel backup against cp -r, and the incremental run (about 2 min)
#  12. bench/pomodoro.sh        pomodoro status --follow against a new reel per poll (about 1.5 min)
#  13. bench/studio-preview.sh  reel studio's live preview against ffmpeg, and its share of a recording (about 8 min)
#  14. bench/studio-latency.sh  the preview's latency, capture → drawn in chromium (about 1.5 min)
#  15. bench/studio-record.sh   a 10-minute timelapse through the studio with the page open, against reel record (about 21 min)
#  16. bench/studio-library.sh  1,000 sessions: GET /api/sessions and the library page's first render in chromium (about 1 min)
#  17. bench/overlay-stills.sh  reel overlay snap against ImageMagick, heif-enc and cjpeg at 1080x1920 (about 2 min)
#  18. bench/overlay-studio.sh  the studio's overlay camera: two previews of one 720p30 capture, the shutter (about 2 min)
#  19. bench/cutout.sh          reel overlay cutout against GrabCut alone and u2netp: IoU and time (about 1.5 min; a venv the first time)
#  20. bench/s3-latency.sh      publish latency to an S3 bucket (moto) against nginx (about 2.5 min)
#  21. bench/glass-to-glass.sh  capture → shown in hls.js in chromium, regular HLS and LL-HLS (about 3 min)
#  22. bench/ll-viewers.sh      LL-HLS part publish latency and reel serve's memory, idle and with 2,000 viewers (about 3 min)
#  23. bench/backup-s3.sh       reel backup to an S3 bucket (moto) against rclone sync, and the nothing-changed run (about 7 min; Debian's rclone)
# About 118 minutes on a 2-core machine, plus about 2 minutes the first time to make the
# inputs (cached in bench/.cache/).
#
#   make bench                                   # builds, then runs this
#   bash bench/run.sh                            # with the existing release build
#   SECONDS_TO_RUN=30 RUNS=1 INPUT_SECONDS=20 bash bench/run.sh   # a quick trial
#
# Every script's own variables pass through (SECONDS_TO_RUN, RUNS, INPUT_SECONDS, REEL_BIN…).
# The whole output is also written to bench/.cache/run-DATE.log.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$here/.cache"
log="$here/.cache/run-$(date +%Y%m%d-%H%M%S).log"
results=$(mktemp "${TMPDIR:-/tmp}/reel-bench-results.XXXXXX")
trap 'rm -f "$results"' EXIT
trap 'echo "run: interrupted" >&2; exit 130' INT
trap 'exit 143' TERM

failed=()
for name in realtime fast-vs-ffmpeg latency origin-vs-nginx viewers record detector compose export deface backup pomodoro studio-preview studio-latency studio-record studio-library overlay-stills overlay-studio cutout s3-latency glass-to-glass ll-viewers backup-s3; do
    echo "run: ---- bench/$name.sh ----" | tee -a "$log" >&2
    # Result blocks (stdout) are kept; progress (stderr) goes to the terminal and the log.
    if ! bash "$here/$name.sh" 2> >(tee -a "$log" >&2) | tee -a "$log" >> "$results"; then
        failed+=("$name")
        echo "run: bench/$name.sh failed" | tee -a "$log" >&2
    fi
done

echo
echo "==== all results ($(date -u +%Y-%m-%dT%H:%MZ)) ===="
cat "$results"
echo
echo "run: log in $log"
if [ ${#failed[@]} -gt 0 ]; then
    echo "run: failed: ${failed[*]}" >&2
    exit 1
fi
