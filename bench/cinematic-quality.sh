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
# the vision on its own thread), and the same clip is re-encoded plainly as reel encodes
# (H.264 CRF 20 veryfast). Per clip and mode, the band-pass detail of reel's picture against
# the plain one where the truth says: the face's middle (goal >= 0.8), the background 16 px and
# more from the person (<= 0.3), the sharp fringe beside the person (px out to which >= 0.5 of
# the detail is kept; goal <= 2), the crown of the hair (the top 10 px inside its edge; the
# matte missing it blurs it; goal >= 0.8), and the fringe's flicker (the spread over pictures of
# the detail kept 2-6 px out). Needs python3-numpy and python3-pil (Debian) and the models.
#
# Environment: HEIGHT (720), SECONDS_OF_CLIP (8), SPEED (300, px/s at the sway's peak), MODES
# ("fast realtime"), REEL_BIN.
BENCH_NAME=cinematic-quality
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

height=${HEIGHT:-720}
length=${SECONDS_OF_CLIP:-8}
speed=${SPEED:-300}
modes=${MODES:-fast realtime}
"$py" -c "import numpy, PIL" 2>/dev/null || fail "$py has no numpy/PIL: install Debian's python3-numpy and python3-pil"

clip_for() {   # SPEED -> the cached clip and its truth
    local clip="$cache/cinematic-quality-${height}p-${length}s-${1}pxs.mp4"
    if [ ! -f "$clip" ] || [ ! -f "$clip.truth.npz" ]; then
        say "making the ${length} s ${height}p clip moving at $1 px/s once: $clip"
        "$py" "$bench_dir/cinematic_quality.py" make "$clip.part.mp4" "$clip.truth.npz" --height "$height" --seconds "$length" --speed "$1" \
            || fail "could not make $clip"
        mv "$clip.part.mp4" "$clip"
    fi
    printf '%s\n' "$clip"
}

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
        say "$motion px/s, $mode: reel cinematic"
        "$reel" cinematic --source "file:$clip" "${flags[@]}" --aperture 2 --output "$out" --quiet < /dev/null > /dev/null \
            || fail "reel cinematic failed on $clip ($mode)"
        score=$("$py" "$bench_dir/cinematic_quality.py" score "$clip.truth.npz" "$plain" "$out") || fail "could not score $out"
        rows+=("$(printf '%-9s %-9s %s' "$motion" "$mode" "$score")")
    done
done

echo "== cinematic quality: ${length} s ${height}p clips, f/2, reel's picture against a plain re-encode =="
echo "reel:    $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown), $reel"
echo "machine: $(machine_line)"
echo "goals:   face >= 0.8, background <= 0.3, fringe_px <= 2, crown >= 0.8, flicker small"
printf '%-9s %-9s %s\n' "px/s" "mode" "scores"
printf '%s\n' "${rows[@]}"
