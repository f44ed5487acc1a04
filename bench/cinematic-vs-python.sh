#!/usr/bin/env bash
# The cinematic camera as fast as it goes against the same chain written plainly with OpenCV's
# Python bindings (goal: Reel >= 3x the Python chain's frame rate), on one 720p30 clip with a
# face, in one run, alternating:
#
#   bash bench/cinematic-vs-python.sh            # a 20 s clip, 3 runs each (~4 minutes)
#   SECONDS_OF_CLIP=60 RUNS=1 bash bench/cinematic-vs-python.sh
#   HEIGHT=1080 bash bench/cinematic-vs-python.sh  # the 1080p30 clip (goal there: >= 2x)
#
# (a) reel cinematic --source file:CLIP --fast --aperture 2 --output OUT.mp4: detectors every
#     0.2 s (CenterFace, the upper-body and cat-face cascades), the matte refined by the guided
#     filter, the layered blur of all three planes, H.264 CRF 20 veryfast.
# (b) /usr/bin/python3 bench/cinematic_peer.py CLIP OUT.mp4 MODEL 2: the Haar face every 0.2 s,
#     the same network's mask enlarged, a Gaussian background blur of the same radius, the
#     composite, H.264 CRF 20 veryfast through an ffmpeg pipe.
# Both decode the same file and write the same codec; the figure is pictures per second of
# wall time (and CPU seconds, both cores being available to both). Needs python3-opencv
# (Debian) and the segmentation model (scripts/fetch-segmentation-model.sh).
BENCH_NAME=cinematic-vs-python
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

runs=${RUNS:-3}
length=${SECONDS_OF_CLIP:-20}
model=${REEL_MODELS_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/reel/models}/selfie_segmentation.onnx
[ -r "$model" ] || fail "segmentation model $model missing: run scripts/fetch-segmentation-model.sh"
"$py" -c "import cv2, numpy" 2>/dev/null || fail "$py has no cv2/numpy: install Debian's python3-opencv (sudo apt-get install python3-opencv)"

# A webcam-like picture: the astronaut swaying over a still texture, a little sensor noise.
height=${HEIGHT:-720}
goal=$([ "$height" -ge 1080 ] && echo 2 || echo 3)
clip=$(cinematic_clip "$height" "$length")
pictures=$((length * 30))

reel_fps=() peer_fps=() reel_cpu=() peer_cpu=()
for run in $(seq 1 "$runs"); do
    for side in reel peer; do
        [ $((run % 2)) = 0 ] && side=$([ "$side" = reel ] && echo peer || echo reel)
        out="$work/$side-$run.mp4"
        rm -f "$out" "$out.cinematic"
        if [ "$side" = reel ]; then
            say "run $run: reel cinematic"
            timed "$work/t-$side-$run" "$reel" cinematic --source "file:$clip" --fast --aperture 2 --output "$out" --quiet < /dev/null > /dev/null
        else
            say "run $run: the OpenCV-Python chain"
            timed "$work/t-$side-$run" "$py" "$bench_dir/cinematic_peer.py" "$clip" "$out" "$model" 2 > /dev/null
        fi
        frames=$(ffprobe -v error -select_streams v -count_packets -show_entries stream=nb_read_packets -of csv=p=0 "$out")
        [ "$frames" = "$pictures" ] || fail "$side wrote $frames pictures, the clip has $pictures"
        wall=$(read_time "$work/t-$side-$run" wall)
        fps=$(awk -v n="$pictures" -v w="$wall" 'BEGIN { printf "%.1f", n / w }')
        cpu=$(read_time "$work/t-$side-$run" cpu)
        say "  $side: $fps pictures/s, $cpu CPU-s, other load $(read_time "$work/t-$side-$run" other) CPU-s"
        if [ "$side" = reel ]; then reel_fps+=("$fps"); reel_cpu+=("$cpu"); else peer_fps+=("$fps"); peer_cpu+=("$cpu"); fi
    done
done

median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
rf=$(median "${reel_fps[@]}") pf=$(median "${peer_fps[@]}")
echo "== cinematic: reel --fast against the OpenCV-Python chain, ${length} s ${height}p30, $runs runs each =="
echo "machine: $(machine_line)"
echo "reel:   ${reel_fps[*]} pictures/s (median $rf), CPU-s ${reel_cpu[*]}"
echo "python: ${peer_fps[*]} pictures/s (median $pf), CPU-s ${peer_cpu[*]}"
awk -v r="$rf" -v p="$pf" -v g="$goal" 'BEGIN { printf "ratio: %.2fx the frame rate (goal >= %sx) -> %s\n", r / p, g, (r / p >= g ? "PASS" : "FAIL") }'
