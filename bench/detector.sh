#!/usr/bin/env bash
# Face-tracker detector cost per 0.2 s tick at 1080p: median and p95 of one
# detection, wall and CPU time, for CenterFace at several input widths, the Haar fallback and
# the upper-body detector. The frame is the astronaut test photo scaled to 1000 px high on a
# 1920x1080 grey canvas, as raw yuv420p (made by ffmpeg). Needs the CenterFace model
# (scripts/fetch-model.sh) for the CenterFace rows.
#
#   bash bench/detector.sh [runs]          # default 100 runs per detector
#   OPENCV_THREADS=1 bash bench/detector.sh   # OpenCV on one thread (cv::setNumThreads)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=${1:-100}
photo=${REEL_TEST_PHOTO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/Tests/Fixtures/astronaut.png}
[ -r "$photo" ] || { echo "detector.sh: test photo $photo not found (set REEL_TEST_PHOTO)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/reel-bench-detector.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The face in the photo is ~94 px of 512; at 600 px high it is ~110 px wide in 1080p (a person
# about a metre from a webcam).
ffmpeg -loglevel error -y -f lavfi -i "color=c=gray:s=1920x1080:d=1" -i "$photo" \
    -filter_complex "[1:v]scale=-1:600[p];[0:v][p]overlay=x=900:y=200,format=yuv420p" \
    -frames:v 1 -f rawvideo "$work/frame.yuv"

swift build -c release --package-path "$root/bench/swift" --product reel-bench-detector >/dev/null
bin=$(swift build -c release --package-path "$root/bench/swift" --show-bin-path)/reel-bench-detector
"$bin" --frame "$work/frame.yuv" --size 1920x1080 --runs "$runs"
