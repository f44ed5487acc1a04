#!/usr/bin/env bash
# The cinematic camera's picture, measured against clips whose person is known exactly (issue
# 40's quality table): the astronaut cut out once by a hand-made outline, composited over a
# still fine texture, still and moving sideways at up to SPEED px/s (bench/cinematic_quality.py).
#
#   bash bench/cinematic-quality.sh                 # 720p, 8 s clips, --fast and real time (~3 minutes)
#   HEIGHT=1080 SPEED=300 MODES=fast bash bench/cinematic-quality.sh
#
# Each clip runs through `reel cinematic --source file:CLIP --aperture 2 --output OUT.mp4`
# (MODES: `fast` adds --fast, every picture its own look; `realtime` plays it at 30 a second,
# the vision on its own thread; `peer` is not reel but the OpenCV-Python chain of
# bench/cinematic-vs-python.sh, bench/cinematic_peer.py at f/2, scored the same way: it needs
# Debian's python3-opencv), and the same clip is re-encoded plainly as reel encodes
# (H.264 CRF 20 veryfast). Per clip and mode, the band-pass detail of reel's picture against
# the plain one where the truth says: the face's middle (goal >= 0.8), the background 16 px and
# more from the person (<= 0.3), the sharp fringe beside the person (px out to which >= 0.5 of
# the detail is kept; goal <= 2), the crown of the hair (the top 10 px inside its edge; the
# matte missing it blurs it; goal >= 0.8), and the fringe's flicker (the spread over pictures of
# the detail kept 2-6 px out). A third clip adds a small copy of the person standing still at the
# top right (its face FAR px wide) and runs `reel cinematic --editable`: from the sidecar, how
# often each person's face was reported and how many ids each had (goal: 1 for the still one).
# Needs python3-numpy and python3-pil (Debian) and the models.
#
# Environment: HEIGHT (720), SECONDS_OF_CLIP (8), SPEED (300, px/s at the sway's peak), FAR (56,
# px), MODES ("fast realtime"; add "peer" for the chain), REEL_BIN.
BENCH_NAME=cinematic-quality
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

height=${HEIGHT:-720}
length=${SECONDS_OF_CLIP:-8}
speed=${SPEED:-300}
modes=${MODES:-fast realtime}
far=${FAR:-56}
"$py" -c "import numpy, PIL" 2>/dev/null || fail "$py has no numpy/PIL: install Debian's python3-numpy and python3-pil"

clip_for() {   # SPEED [FAR] -> the cached clip and its truth
    local far_px=${2:-0} clip="$cache/cinematic-quality-${height}p-${length}s-${1}pxs.mp4"
    [ "$far_px" != 0 ] && clip="$cache/cinematic-quality-${height}p-${length}s-${1}pxs-far${far_px}.mp4"
    if [ ! -f "$clip" ] || [ ! -f "$clip.truth.npz" ]; then
        say "making the ${length} s ${height}p clip moving at $1 px/s (a still far face: ${far_px} px) once: $clip"
        "$py" "$bench_dir/cinematic_quality.py" make "$clip.part.mp4" "$clip.truth.npz" --height "$height" --seconds "$length" --speed "$1" \
            --far "$far_px" || fail "could not make $clip"
        mv "$clip.part.mp4" "$clip"
    fi
    printf '%s\n' "$clip"
}

segmentation_model=${REEL_MODELS_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/reel/models}/selfie_segmentation.onnx
case " $modes " in *" peer "*)
    "$py" -c "import cv2" 2>/dev/null || fail "$py has no cv2 for the peer mode: install Debian's python3-opencv"
    [ -r "$segmentation_model" ] || fail "segmentation model $segmentation_model missing: run scripts/fetch-segmentation-model.sh" ;;
esac

rows=()
for motion in 0 "$speed"; do
    clip=$(clip_for "$motion")
    plain="$work/plain-$motion.mp4"
    ffmpeg -nostdin -loglevel error -y -i "$clip" -an -c:v libx264 -crf 20 -preset veryfast -pix_fmt yuv420p "$plain" \
        || fail "could not re-encode $clip"
    for mode in $modes; do
        out="$work/reel-$motion-$mode.mp4"
        flags=()
        [ "$mode" = fast ] && flags=(--fast)
        if [ "$mode" = peer ]; then
            say "$motion px/s: the OpenCV-Python chain"
            "$py" "$bench_dir/cinematic_peer.py" "$clip" "$out" "$segmentation_model" 2 > /dev/null || fail "the chain failed on $clip"
        else
            say "$motion px/s, $mode: reel cinematic"
            "$reel" cinematic --source "file:$clip" "${flags[@]}" --aperture 2 --output "$out" --quiet < /dev/null > /dev/null \
                || fail "reel cinematic failed on $clip ($mode)"
        fi
        score=$("$py" "$bench_dir/cinematic_quality.py" score "$clip.truth.npz" "$plain" "$out") || fail "could not score $out"
        rows+=("$(printf '%-9s %-9s %s' "$motion" "$mode" "$score")")
    done
done

id_rows=()
if [ "$far" != 0 ]; then
    clip=$(clip_for "$speed" "$far")
    for mode in $modes; do
        [ "$mode" = peer ] && continue   # the chain keeps no subjects
        out="$work/ids-$mode.mp4"
        flags=()
        [ "$mode" = fast ] && flags=(--fast)
        say "$speed px/s and a still ${far} px face, $mode: reel cinematic --editable"
        "$reel" cinematic --source "file:$clip" "${flags[@]}" --aperture 2 --editable --output "$out" --quiet < /dev/null > /dev/null \
            || fail "reel cinematic --editable failed on $clip ($mode)"
        counted=$("$py" "$bench_dir/cinematic_quality.py" ids "$clip.truth.npz" "$out.cinematic") || fail "could not read $out.cinematic"
        id_rows+=("$(printf '%-9s %-9s %s' "$speed" "$mode" "$counted")")
    done
fi

echo "== cinematic quality: ${length} s ${height}p clips, f/2, reel's picture against a plain re-encode =="
echo "reel:    $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown), $reel"
echo "machine: $(machine_line)"
echo "goals:   face >= 0.8, background <= 0.3, fringe_px <= 2, crown >= 0.8, flicker small"
printf '%-9s %-9s %s\n' "px/s" "mode" "scores"
printf '%s\n' "${rows[@]}"
if [ ${#id_rows[@]} -gt 0 ]; then
    echo "== subjects and ids (the clip at $speed px/s with a still far face ${far} px wide; --editable's sidecar) =="
    printf '%-9s %-9s %s\n' "px/s" "mode" "faces found and ids (goal: far_ids 1)"
    printf '%s\n' "${id_rows[@]}"
fi
