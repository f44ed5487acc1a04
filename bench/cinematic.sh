#!/usr/bin/env bash
# The cinematic camera's cost per 720p (or HEIGHT) picture, stage by stage: the people's matte
# (the segmentation network at 256x256 and the guided filter at the layer map's 320x180), the
# upper-body and cat-face cascades (one look each), the layer map, and the renderer's
# depth-dependent blur of all three planes at f/2 — with the face
# in focus (the usual case: only the background is blurred) and with the background in focus
# (the person out of focus too: the per-pixel path). The frame is the astronaut test photo,
# 720 px high, on a 1280x720 noise background (every frequency), as raw yuv420p made by ffmpeg.
# Needs the segmentation model (scripts/fetch-segmentation-model.sh) and the cascades.
#
#   bash bench/cinematic.sh [runs]             # default 100 runs per stage
#   OPENCV_THREADS=1 bash bench/cinematic.sh   # OpenCV on one thread
#   HEIGHT=1080 bash bench/cinematic.sh        # a 1920x1080 frame (the same picture, scaled)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=${1:-100}
photo=${REEL_TEST_PHOTO:-$root/Tests/Fixtures/astronaut.png}
[ -r "$photo" ] || { echo "cinematic.sh: test photo $photo not found (set REEL_TEST_PHOTO)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/reel-bench-cinematic.XXXXXX")
trap 'rm -rf "$work"' EXIT

height=${HEIGHT:-720}
width=$((height * 16 / 9))
ffmpeg -loglevel error -y -f lavfi -i "color=c=gray:s=${width}x${height}:d=1,noise=alls=40:all_seed=7" -i "$photo" \
    -filter_complex "[1:v]scale=$height:$height[p];[0:v][p]overlay=x=$((height * 280 / 720)):y=0,format=yuv420p" \
    -frames:v 1 -f rawvideo "$work/frame.yuv"

swift build -c release --package-path "$root/bench/swift" --product reel-bench-cinematic >/dev/null
bin=$(swift build -c release --package-path "$root/bench/swift" --show-bin-path)/reel-bench-cinematic
"$bin" --frame "$work/frame.yuv" --size "${width}x${height}" --runs "$runs"
