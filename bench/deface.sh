#!/usr/bin/env bash
# Reel's export against `deface` (PyPI deface==1.5.0: CenterFace on every frame, here with
# `--replacewith mosaic`) on every 720p privacy clip: faces leaked, over-coverage and fps,
# measured by the same leak meter (Tests/ReelPrivacyBench).
#
#   bash bench/deface.sh
#
# deface is installed once with pip into a venv in the bench cache (bench/.cache/deface-venv,
# DEFACE_VENV overrides; needs network the first time). Per clip, one run each, one at a time
# (single: moving, tilted ±30°, dimmed, 40 % out, absent, back; twoFaces; and the hard cases
# edges, roll, profile, small, fast, dim, crossing: see PrivacyScenarios.swift; CLIPS="a b"
# runs only those):
#   (a) deface CLIP -o OUT --replacewith mosaic --keep-audio (its defaults otherwise:
#       threshold 0.2, mask scale 1.3, ellipse masks, mosaic size 20, libx264)
#   (b) reel export CLIP -o OUT --privacy mosaic --size source (CenterFace every 0.2 s)
# fps = the clip's frames / wall time. Goals: no leaks at all; never more leaks
# than deface on a clip and fewer in total where deface leaks; coverage at most 2.5x the
# face area; at least 5x deface's fps.
#
# Environment: REEL_BIN (default: the release build), DEFACE_VENV, KEEP_WORK=1.
BENCH_NAME=deface
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

machine=$(machine_line)
venv=${DEFACE_VENV:-"$cache/deface-venv"}
if [ ! -x "$venv/bin/deface" ]; then
    say "installing deface==1.5.0 into $venv (once)"
    "$py" -m venv "$venv" || fail "python3 -m venv failed (Debian package python3-venv)"
    "$venv/bin/pip" install --quiet deface==1.5.0 >&2 || fail "pip could not install deface==1.5.0"
fi
deface_version=$("$venv/bin/deface" --version 2>&1 | tail -n 1)
export XDG_DATA_HOME="${XDG_DATA_HOME:-$HOME/.local/share}" XDG_STATE_HOME="$work/xdg-state" XDG_CACHE_HOME="$work/xdg-cache"

result_lines=()
total_r=0; total_d=0; worst_speed=""; table="clip | reel leaks | deface leaks | reel coverage | deface coverage | reel fps | deface fps | speed"
for name in ${CLIPS:-single twoFaces edges roll profile small fast dim crossing}; do
    name="$name-1280x720"
    clip=$(privacy_clip "$name")
    frames=$(frames_of "$clip")
    say "$name (a): deface --replacewith mosaic ($frames frames)"
    timed "$work/$name-deface.time" "$venv/bin/deface" "$clip" -o "$work/$name-deface.mp4" --replacewith mosaic --keep-audio \
        >"$work/$name-deface.log" 2>&1 || fail "deface failed: $(tail -n 3 "$work/$name-deface.log")"
    say "$name (b): reel export --privacy mosaic"
    timed "$work/$name-reel.time" "$reel" export "$clip" -o "$work/$name-reel.mp4" --privacy mosaic --size source --overwrite --json \
        >"$work/$name-reel.log" 2>&1 || fail "reel export failed: $(tail -n 3 "$work/$name-reel.log")"
    d_fps=$(awk -v n="$frames" -v w="$(read_time "$work/$name-deface.time" wall)" 'BEGIN { printf "%.1f", n / w }')
    r_fps=$(awk -v n="$frames" -v w="$(read_time "$work/$name-reel.time" wall)" 'BEGIN { printf "%.1f", n / w }')
    speed=$(awk -v a="$r_fps" -v b="$d_fps" 'BEGIN { printf "%.1f", a / b }')
    say "$name: measuring leaks"
    d_leaks=$(leak_figures "$clip" "$work/$name-deface.mp4"); r_leaks=$(leak_figures "$clip" "$work/$name-reel.mp4")
    d_count=$(printf '%s\n' "$d_leaks" | sed -n 's/.*: \([0-9]*\) of \([0-9]*\) face frames leak.*/\1/p' | head -n 1)
    r_count=$(printf '%s\n' "$r_leaks" | sed -n 's/.*: \([0-9]*\) of \([0-9]*\) face frames leak.*/\1/p' | head -n 1)
    fewer=$(awk -v r="${r_count:-999999}" -v d="${d_count:--1}" 'BEGIN { print (r <= d ? (r < d || d == 0 ? "PASS" : "FAIL (as many)") : "FAIL") }')
    r_cov=$(printf '%s\n' "$r_leaks" | sed -n 's/.*coverage mean \([0-9.]*\)×.*/\1/p' | head -n 1)
    d_cov=$(printf '%s\n' "$d_leaks" | sed -n 's/.*coverage mean \([0-9.]*\)×.*/\1/p' | head -n 1)
    total_r=$((total_r + ${r_count:-0})); total_d=$((total_d + ${d_count:-0}))
    table+="
${name%-1280x720} | ${r_count:-?} | ${d_count:-?} | ${r_cov:-?}x | ${d_cov:-?}x | $r_fps | $d_fps | ${speed}x"
    fast=$(awk -v s="$speed" 'BEGIN { print (s >= 5 ? "PASS" : "FAIL") }')
    result_lines+=("$name ($frames frames):
  (a) deface: $(read_time "$work/$name-deface.time" wall) s wall, $d_fps fps, $(read_time "$work/$name-deface.time" cpu) CPU-s, $(read_time "$work/$name-deface.time" rss_mb) MB
$d_leaks
  (b) reel:   $(read_time "$work/$name-reel.time" wall) s wall, $r_fps fps, $(read_time "$work/$name-reel.time" cpu) CPU-s, $(read_time "$work/$name-reel.time" rss_mb) MB
$r_leaks
  leaks reel ${r_count:-?} vs deface ${d_count:-?} (goal: fewer) -> $fewer ; speed reel/deface ${speed}x (goal >= 5x) -> $fast")
done

cat <<RESULT

==== deface: reel export vs deface $deface_version (--replacewith mosaic) on the 720p privacy clips ====
reel:       $(reel_version)
deface:     $venv/bin/deface ($deface_version)
machine:    $machine
leak meter: Tests/ReelPrivacyBench/LeakMeter.swift (fine-detail correlation in the known face; coverage = changed area / face area)
$(printf '%s\n' "${result_lines[@]}")

$table
total leaks: reel $total_r, deface $total_d (goal: reel 0, and fewer than deface where deface leaks)
RESULT
